"""Table set-up (seed 003, "Game setup"), the same for every game type.

Every operation locks the game row, checks its rule, changes the table and announces the change
to the lobby after commit. Rules, as documented in docs/lobby.md:

- the creator is the host; the host picks the mode and the arrangement;
- the host may change the mode only to one with at least as many seats as users at the table;
- every setup change (mode, arrangement, seating order or teams, a user joining, leaving or
  being kicked) resets every acceptance, because what people accepted is no longer the setup;
- the game starts by itself when every seat is filled and everyone has accepted;
- when the host leaves a table being set up, the longest-seated remaining user becomes host;
  when the last user leaves, the table is aborted; a table left with house bots only is closed
  after a grace (games/service/orphans.py, ``close_orphaned``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from games.core.bots import HOUSE_BOT_PREFIX, MJAI_PREFIX, level_prefix
from games.core.engine import Mode
from games.core.errors import Conflict, Forbidden, GameError, NotFound
from games.core.registry import GameType, get_game_type
from games.models import Arrangement, Game, Seat, Status
from games.service import clocks, push, queue
from games.service.lifecycle import forfeit
from games.service.moves import ADJOURNED_REASON, play_due, start_game
from games.service.ratings import shown_ratings

_random = secrets.SystemRandom()
MAX_CLOCK_SECONDS = 24 * 3600
# Spectators watch at most this late: enough to keep anyone from coaching a player, short enough
# that a spectator still sees the game being played.
MAX_SPECTATOR_DELAY = 900
RESERVED_RULES = frozenset({"tile_bag", "host_seat", "imported", "hand_end_ack", "walls_by_hand"})
# A bot bench's table is dealt from the seed it names here, so that two tables with the seats
# swapped get the same walls and the luck of the deal cancels (bench/bot_strength.py --duplicate).
# Only a server started with ALLOW_DEAL_SEED takes it: on any other, a host who named the seed
# could work out every wall. The key never reaches the engine, and leaves the rules at the start.
DEAL_SEED = "deal_seed"
DEAL_SEED_LIMIT = 2**63
# An adjourned game changes only by a player's return (games/service/abandon.py) or an abort: a forfeit
# would make the server play a seat while play is stopped.


def setup_state(game: Game, seats: list[Seat] | None = None,
                ratings: Mapping[tuple[int, str], dict[str, Any]] | None = None) -> dict[str, Any]:
    """The table as everyone in the lobby sees it (no hidden information exists yet), each user with
    the rating they show in its game type. ``ratings``: ``ratings.shown_ratings`` of several tables
    at once, for a list of them; without it this table's are read in one query."""
    seats = list(game.seats.select_related("user").order_by("slot")) if seats is None else seats
    if ratings is None:
        ratings = shown_ratings([(game.game_type, [s.user_id for s in seats])])
    return {
        "game": game.id,
        "display_number": game.display_number,
        "game_type": game.game_type,
        "mode": game.mode,
        "arrangement": game.arrangement,
        "host": game.host_id,
        "status": game.status,
        "version": game.setup_version,
        # A bench's deal seed stays with the server: whoever read it could work out the walls.
        "rules": {key: value for key, value in game.rules.items() if key != DEAL_SEED},
        # The clock, as CreateGame set it, so everyone sees what they accept.
        "time_start": game.time_start,
        "time_increment": game.time_increment,
        "time_control": clocks.describe_control(game),
        "spectator_delay": game.spectator_delay,
        "rated": game.rated,
        "rated_people_only": game.rated_people_only,
        "users": [
            {
                "user": s.user_id,
                "username": s.user.username,
                "bot": s.user.is_bot,
                "slot": s.slot,
                "team": s.team,
                "accepted": s.accepted,
                "position": s.position,
                **ratings.get((s.user_id, game.game_type), {"rating": None, "provisional": False}),
            }
            for s in seats
        ],
    }


def _game_type(game: Game) -> GameType:
    game_type = get_game_type(game.game_type)
    assert game_type is not None  # only known types are ever created
    return game_type


def _locked(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(id=game_id).first()
    if game is None:
        raise NotFound("UnknownGame", f"no game {game_id}")
    return game


def _locked_setup(game_id: int) -> Game:
    game = _locked(game_id)
    if game.status != Status.SETUP:
        raise Conflict("GameNotInSetup", "the game is no longer being set up")
    return game


def _seats(game: Game) -> QuerySet[Seat]:
    return game.seats.select_related("user").order_by("slot")


def _require_host(game: Game, user: User) -> None:
    if game.host_id != user.id:
        raise Forbidden("NotHost", "only the host may change the setup")


def _assign_teams(game: Game, seats: list[Seat]) -> None:
    mode = _game_type(game).mode(game.mode)
    for seat in seats:
        seat.team = mode.team_of(seat.slot) if mode and game.arrangement == Arrangement.TEAMS else None


def _announce(game: Game, message: dict[str, Any], seats: Any) -> None:
    """``message`` to the lobby, and to the users at the table (``seats``, and a user the message
    says left it) whether or not they follow the lobby."""
    users = [seat.user_id for seat in seats]
    if message.get("type") == "UserLeftGame":
        users.append(message["user"])
    push.to_lobby(message, game=game.id, users=users)


def _setup_changed(game: Game, event: dict[str, Any]) -> None:
    """Reset acceptances, renumber slots, bump the version and announce ``event``."""
    seats = list(_seats(game))
    for slot, seat in enumerate(seats):
        seat.slot = slot
        seat.accepted = seat.user.is_bot  # a house bot accepts any setup at once
    _assign_teams(game, seats)
    Seat.objects.bulk_update(seats, ["slot", "accepted", "team"])
    game.setup_version += 1
    game.save(update_fields=["setup_version", "mode", "arrangement", "host", "status"])
    _announce(game, {**event, "game": game.id, "setup": setup_state(game, seats)}, seats)


def _check_rules(game_type: GameType, mode: Mode, rules: dict[str, Any]) -> None:
    if RESERVED_RULES & rules.keys():
        # These decide the tile bag and seating of imported games; a host must not pick them.
        raise GameError("InvalidRules", f"rules may not set {sorted(RESERVED_RULES & rules.keys())}")
    if DEAL_SEED in rules:
        if not settings.ALLOW_DEAL_SEED:
            raise GameError("InvalidRules", f"{DEAL_SEED} is for bot benches: this server does not take it")
        seed = rules[DEAL_SEED]
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < DEAL_SEED_LIMIT:
            raise GameError("InvalidRules", f"{DEAL_SEED} is a whole number from 0 to {DEAL_SEED_LIMIT - 1}")
        rules = {key: value for key, value in rules.items() if key != DEAL_SEED}
    try:
        # The engine owns its rule options: building one game checks them now, not at the start.
        game_type.engine_class().create(mode=mode, seed=0, rules=rules)
    except (ValueError, TypeError, KeyError) as error:
        raise GameError("InvalidRules", str(error)[:512]) from None


def create_table(user: User, game_type_key: str, mode_id: int, *, time_start: int | None = None,
                 time_increment: int = 0, rules: dict[str, Any] | None = None,
                 time_control: Any = None, spectator_delay: Any = 0, rated: bool | None = None,
                 rated_people_only: bool = False) -> Game:
    """Open a table with ``user`` as its host in the first seat. The clock is Fischer's
    (``time_start`` seconds, ``time_increment`` per move), majiang-server's (``time_control``:
    ``{"per_decision": s, "bank": s}``, checked here whatever its shape) or none. Spectators see
    the game ``spectator_delay`` seconds late (0: live). A table is rated unless ``rated`` is
    False (docs/ratings.md); ``rated_people_only`` makes it rated and keeps bots out of its seats."""
    game_type = get_game_type(game_type_key)
    if game_type is None:
        raise GameError("UnknownGameType", f"no game type {game_type_key!r}")
    if not game_type.playable:
        raise GameError("GameTypeUnavailable", f"{game_type.name} cannot be played yet")
    if game_type.mode(mode_id) is None:
        raise GameError("InvalidMode", f"{game_type.name} has no mode {mode_id}")
    if rules:
        _check_rules(game_type, game_type.mode(mode_id), rules)
    if time_start is not None and not 0 < time_start <= MAX_CLOCK_SECONDS:
        raise GameError("InvalidTimeControl", f"time_start is 1 to {MAX_CLOCK_SECONDS} seconds, or none")
    if not 0 <= time_increment <= MAX_CLOCK_SECONDS:
        raise GameError("InvalidTimeControl", f"time_increment is 0 to {MAX_CLOCK_SECONDS} seconds")
    decision = clocks.time_control(time_control)
    if spectator_delay is None:
        spectator_delay = 0
    if (not isinstance(spectator_delay, int) or isinstance(spectator_delay, bool)
            or not 0 <= spectator_delay <= MAX_SPECTATOR_DELAY):
        raise GameError("InvalidSpectatorDelay",
                        f"spectator_delay is a whole number of seconds from 0 to {MAX_SPECTATOR_DELAY}")
    if decision is not None and (time_start is not None or time_increment):
        # One clock per table: a time bank on top of a Fischer clock would be a third kind.
        raise GameError("InvalidTimeControl", "give time_control or time_start/time_increment, not both")
    if time_increment and time_start is None:
        # An increment on no clock would be silently dropped: say so instead.
        raise GameError("InvalidTimeControl", "time_increment needs time_start (an untimed game has no increment)")
    if rated_people_only and rated is False:
        raise GameError("InvalidRated", "a table for people only is a rated table: leave rated out or true")
    if rated_people_only and user.is_bot:
        raise GameError("PeopleOnly", "a bot cannot open a table for people only")
    with transaction.atomic():
        game = Game.objects.create(
            game_type=game_type.key, mode=mode_id, host=user, time_start=time_start,
            time_increment=time_increment, rules=rules or {},
            time_per_decision=decision[0] if decision else None, time_bank=decision[1] if decision else 0,
            spectator_delay=spectator_delay, rated=rated is not False, rated_people_only=bool(rated_people_only),
        )
        seat = Seat.objects.create(game=game, user=user, slot=0)
        seats = [seat]
        queue.leave(user.id, "seated")
        _announce(game, {"type": "GameCreated", "game": game.id, "display_number": game.display_number,
                         "game_type": game.game_type, "mode": game.mode, "host": user.id,
                         "setup": setup_state(game, seats)}, seats)
        _maybe_start(game)
    return game


def join(user: User, game_id: int) -> Game:
    with transaction.atomic():
        game = _locked_setup(game_id)
        seats = list(_seats(game))
        if any(s.user_id == user.id for s in seats):
            raise Conflict("AlreadyInGame", "you are already at this table")
        if user.is_bot and game.rated_people_only:
            raise Forbidden("PeopleOnly", "this rated table is for people only")
        mode = _game_type(game).mode(game.mode)
        if len(seats) >= mode.seats:
            raise Conflict("GameFull", "every seat at this table is taken")
        Seat.objects.create(game=game, user=user, slot=len(seats))
        queue.leave(user.id, "seated")
        _setup_changed(game, {"type": "UserJoinedGame", "user": user.id, "username": user.username})
        _maybe_start(game)
    return game


def leave(user: User, game_id: int) -> Game:
    """Leave a table being set up, or forfeit a game in progress."""

    with transaction.atomic():
        game = _locked(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Forbidden("NotInGame", "you are not at this table")
        if game.status == Status.ACTIVE:
            forfeit(game, seat)
        elif game.status == Status.ADJOURNED:
            raise Conflict("GameAdjourned", ADJOURNED_REASON)
        elif game.status != Status.SETUP:
            raise Conflict("GameNotInSetup", "the game is over")
        else:
            _remove(game, seat, {"type": "UserLeftGame", "user": user.id, "kicked": False})
            return game
    # What the server now plays for the leaver, in bounded steps of their own (moves.play_due).
    play_due(game_id)
    return game


def _free_house_bot(game: Game, prefix: str = HOUSE_BOT_PREFIX) -> User:
    """The lowest-numbered bot account of ``prefix`` (the default house bot's, a bot level's, or an
    mjai bot's) not at this table, created on first use."""
    seated = set(game.seats.values_list("user_id", flat=True))
    number = 1
    while True:
        bot, created = User.objects.get_or_create(username=f"{prefix}{number}", defaults={"is_bot": True})
        if created:
            bot.set_unusable_password()  # nobody logs in as a house bot
            bot.save(update_fields=["password"])
        if bot.is_bot and bot.id not in seated:
            return bot
        number += 1


def mjai_bot_prefix(name: str) -> str:
    """The accounts an operator's mjai bot ``name`` plays as: ``mjai-<name>-1``, ``-2``, ..."""
    return f"{MJAI_PREFIX}{name}-"


def _bot_prefix(game_type: GameType, bot: str | None) -> str:
    """The accounts AddBot's ``bot`` plays as: left out, the game's default house bot; a bot level's
    name (``beginner``, ``intermediate``, ``strong`` at riichi: games/core/bots.py); or (riichi)
    ``mjai:<name>``, one of the mjai bots the operator registered. Anything else is UnknownBot,
    naming the choices."""
    if bot is None:
        return HOUSE_BOT_PREFIX
    if bot in game_type.bot_levels():
        return level_prefix(bot)
    name = bot.removeprefix("mjai:")
    if game_type.key == "riichi" and bot.startswith("mjai:") and name in settings.MJAI_BOTS:
        return mjai_bot_prefix(name)
    known = [*game_type.bot_levels(), *(f"mjai:{n}" for n in settings.MJAI_BOTS if game_type.key == "riichi")]
    choices = f"choose {', '.join(known)}, or " if known else ""
    raise GameError("UnknownBot", f"no bot {bot!r} here; {choices}leave bot out for the house bot")


def add_bot(host: User, game_id: int, bot: str | None = None) -> Game:
    """The host fills a free seat with the game's house bot, one of its bot levels, or (riichi) one of
    the mjai bots the operator registered (settings.MJAI_BOTS: docs/protocols/mjai.md), which the
    server runs for the seat once the game starts (games/riichi/transport/mjai_house.py)."""
    with transaction.atomic():
        game = _locked_setup(game_id)
        _require_host(game, host)
        game_type = _game_type(game)
        prefix = _bot_prefix(game_type, bot)
        if game_type.bot_path is None:
            raise GameError("NoBot", f"{game_type.name} has no bot yet")
        if game.rated_people_only:
            raise Forbidden("PeopleOnly", "this rated table is for people only")
        seats = list(_seats(game))
        if len(seats) >= game_type.mode(game.mode).seats:
            raise Conflict("GameFull", "every seat at this table is taken")
        seated = _free_house_bot(game, prefix)
        Seat.objects.create(game=game, user=seated, slot=len(seats), accepted=True)
        _setup_changed(game, {"type": "UserJoinedGame", "user": seated.id, "username": seated.username, "bot": True})
        _maybe_start(game)
    return game


def open_matched(users: list[User], game_type_key: str, mode_id: int, rules: dict[str, Any],
                 clock: dict[str, Any], bots: int, bot_level: str | None = None) -> Game:
    """Play now's table (games/service/play_now.py): ``users`` seated, the first as host, and
    ``bots`` house bots (of ``bot_level``'s accounts if given, else the default house bot);
    everyone has accepted (each asked for exactly this table), so it starts at once, seated in
    random order. A rated table, as any table of people is by default. The caller's transaction
    holds the queue; the choices were checked when the players queued."""
    decision = clocks.time_control(clock.get("time_control"))
    game = Game.objects.create(
        game_type=game_type_key, mode=mode_id, host=users[0], rules=rules, time_start=clock.get("time_start"),
        time_increment=clock.get("time_increment", 0), time_per_decision=decision[0] if decision else None,
        time_bank=decision[1] if decision else 0, rated=True,
    )
    seats = [Seat.objects.create(game=game, user=user, slot=slot, accepted=True) for slot, user in enumerate(users)]
    prefix = HOUSE_BOT_PREFIX if bot_level is None else level_prefix(bot_level)
    for _ in range(bots):
        seats.append(Seat.objects.create(game=game, user=_free_house_bot(game, prefix), slot=len(seats),
                                         accepted=True))
    _announce(game, {"type": "GameCreated", "game": game.id, "display_number": game.display_number,
                     "game_type": game.game_type, "mode": game.mode, "host": users[0].id,
                     "setup": setup_state(game, seats)}, seats)
    _maybe_start(game)
    return game


def kick(host: User, game_id: int, user_id: int) -> Game:
    with transaction.atomic():
        game = _locked_setup(game_id)
        _require_host(game, host)
        if user_id == host.id:
            raise GameError("CannotKickSelf", "the host leaves instead of kicking themselves")
        seat = game.seats.filter(user_id=user_id).first()
        if seat is None:
            raise NotFound("NotAtTable", f"user {user_id} is not at this table")
        _remove(game, seat, {"type": "UserLeftGame", "user": user_id, "kicked": True})
    return game


def remove_player(game_id: int, user_id: int) -> Game:
    """Staff removal of a user from a table (the admin action): a kick in set-up, a forfeit later."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = game.seats.filter(user_id=user_id).first()
        if seat is None:
            raise NotFound("NotAtTable", f"user {user_id} is not at this table")
        if game.status == Status.ACTIVE:

            forfeit(game, seat)
        elif game.status == Status.SETUP:
            _remove(game, seat, {"type": "UserLeftGame", "user": user_id, "kicked": True})
            return game
        elif game.status == Status.ADJOURNED:
            raise Conflict("GameAdjourned", ADJOURNED_REASON)
        else:
            raise Conflict("GameNotInSetup", "the game is over")

    play_due(game_id)
    return game


def close_orphaned(game_id: int) -> bool:
    """Close a table being set up at which no person sits any more (games/service/orphans.py): its bots
    leave, one by one as any user leaves, and the last one's leaving aborts it. False if it
    changed meanwhile (started, closed, or a person sat down)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id, status=Status.SETUP).first()
        if game is None:
            return False
        seats = list(_seats(game))
        if any(not seat.user.is_bot for seat in seats):
            return False
        for seat in reversed(seats):  # the host's (first) seat last: no host passes to a leaving bot
            _remove(game, seat, {"type": "UserLeftGame", "user": seat.user_id, "kicked": False})
        if not seats:
            game.status = Status.ABORTED
            game.ended = timezone.now()
            game.save(update_fields=["status", "ended"])
            _announce(game, {"type": "GameInactive", "game": game.id, "status": game.status}, seats)
    return True


def _remove(game: Game, seat: Seat, event: dict[str, Any]) -> None:
    seat.delete()
    remaining = list(_seats(game))
    if not remaining:
        game.status = Status.ABORTED
        game.ended = timezone.now()
        game.save(update_fields=["status", "ended"])
        _announce(game, {**event, "game": game.id, "setup": setup_state(game, [])}, [seat])
        _announce(game, {"type": "GameInactive", "game": game.id, "status": game.status}, [seat])
        return
    if game.host_id == seat.user_id:
        game.host_id = remaining[0].user_id
    _setup_changed(game, event)


def _set_mode(game: Game, mode_id: int) -> Mode:
    """Check ``mode_id`` against the table and set it (a team arrangement needs a team mode)."""
    game_type = _game_type(game)
    mode = game_type.mode(mode_id)
    if mode is None:
        raise GameError("InvalidMode", f"{game_type.name} has no mode {mode_id}")
    present = game.seats.count()
    if mode.seats < present:
        raise Conflict("ModeTooSmall", f"{mode.name} seats {mode.seats}, but {present} users are here")
    game.mode = mode.id
    if game.arrangement == Arrangement.TEAMS and not mode.teams:
        game.arrangement = Arrangement.RANDOM
    return mode


def change_mode(host: User, game_id: int, mode_id: int) -> Game:
    with transaction.atomic():
        game = _locked_setup(game_id)
        _require_host(game, host)
        mode = _set_mode(game, mode_id)
        _setup_changed(game, {"type": "GameModeChanged", "mode": mode.id})
        _maybe_start(game)
    return game


def configure(host: User, game_id: int, mode_id: int, rules: dict[str, Any]) -> bool:
    """Set the mode and merge rule options into the table's rules, as one set-up change (the
    CRIBBAGEBBER control client's ``NP:``). False, with nobody's acceptance reset, if nothing
    would change."""
    with transaction.atomic():
        game = _locked_setup(game_id)
        _require_host(game, host)
        before = (game.mode, game.arrangement, game.rules)
        mode = _set_mode(game, mode_id)
        game.rules = {**game.rules, **rules}
        _check_rules(_game_type(game), mode, game.rules)
        if (game.mode, game.arrangement, game.rules) == before:
            return False
        game.save(update_fields=["rules"])
        _setup_changed(game, {"type": "GameModeChanged", "mode": mode.id})
        _maybe_start(game)
    return True


def change_arrangement(host: User, game_id: int, arrangement: int, order: list[int] | None = None) -> Game:
    """Set the arrangement and, optionally, the seating order (user ids, host's choice).

    With "exact order" the order is the player order; with "specify teams" players in slots
    i and i + teams*k are teammates and the order within the game is drawn at random.
    """
    with transaction.atomic():
        game = _locked_setup(game_id)
        _require_host(game, host)
        if arrangement not in Arrangement.values:
            raise GameError("InvalidArrangement", f"no arrangement {arrangement}")
        mode = _game_type(game).mode(game.mode)
        if arrangement == Arrangement.TEAMS and not mode.teams:
            raise GameError("InvalidArrangement", "teams can be specified only in team modes")
        seats = list(_seats(game))
        if order is not None:
            if sorted(order) != sorted(s.user_id for s in seats):
                raise GameError("InvalidSeating", "the order must list every user at the table once")
            slot_of = {user_id: slot for slot, user_id in enumerate(order)}
            for seat in seats:
                seat.slot = slot_of[seat.user_id]
            Seat.objects.bulk_update(seats, ["slot"])
        game.arrangement = arrangement
        _setup_changed(game, {"type": "ArrangementChanged", "arrangement": arrangement,
                              "order": [s.user_id for s in sorted(seats, key=lambda s: s.slot)]})
    return game


def accept(user: User, game_id: int, version: int | None = None) -> Game:
    with transaction.atomic():
        game = _locked_setup(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Forbidden("NotInGame", "you are not at this table")
        if version is not None and version != game.setup_version:
            raise Conflict("SetupChanged", "the setup changed since you looked; accept the new one")
        if seat.accepted:
            raise Conflict("AlreadyAccepted", "you have already accepted this setup")
        seat.accepted = True
        seat.save(update_fields=["accepted"])
        _announce(game, {"type": "SetupAccepted", "game": game.id, "user": user.id,
                         "setup": setup_state(game)}, _seats(game))
        _maybe_start(game)
    return game


def _arrange(game: Game, seats: list[Seat]) -> list[Seat]:
    """Player order from the arrangement; random draws come from the OS's CSPRNG."""
    mode = _game_type(game).mode(game.mode)
    ordered = sorted(seats, key=lambda s: s.slot)
    if game.arrangement == Arrangement.EXACT:
        return ordered
    if game.arrangement == Arrangement.TEAMS and mode.teams:
        teams = [[s for s in ordered if s.slot % mode.teams == t] for t in range(mode.teams)]
        _random.shuffle(teams)
        for members in teams:
            _random.shuffle(members)
        # Teammates sit alternately: position p belongs to team p mod teams.
        return [teams[p % mode.teams][p // mode.teams] for p in range(len(ordered))]
    _random.shuffle(ordered)
    return ordered


def _maybe_start(game: Game) -> None:
    seats = list(_seats(game))
    mode = _game_type(game).mode(game.mode)
    if len(seats) != mode.seats or not all(s.accepted for s in seats):
        return

    ordered = _arrange(game, seats)
    for position, seat in enumerate(ordered):
        seat.position = position
        seat.slot = position
        seat.team = mode.team_of(position)
    Seat.objects.bulk_update(ordered, ["position", "slot", "team"])
    host = next((s for s in ordered if s.user_id == game.host_id), None)
    if host is not None and host.position:
        # The host's seat starts the game (Acquire's StartGame belongs to the host).
        game.rules = {**game.rules, "host_seat": host.position}
    rules = dict(game.rules)
    deal_seed = rules.pop(DEAL_SEED, None)
    named = deal_seed is not None and settings.ALLOW_DEAL_SEED
    game.rules = {**rules, **_game_type(game).start_rules, **(_game_type(game).deal_seed_rules if named else {})}
    # A named deal seed was checked when it was set; a server restarted without ALLOW_DEAL_SEED
    # since then deals at random all the same.
    game.seed = deal_seed if named else secrets.randbits(63)
    game.status = Status.ACTIVE
    game.started = timezone.now()
    game.save(update_fields=["seed", "status", "started", "rules"])
    start_game(game, ordered)
