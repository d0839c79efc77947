"""The database side of the CRIBBAGEBBER gateway (``games.cribbage.transport.consumer``): finding a link's
table, and the few table operations the protocol needs. Synchronous; the consumer runs them in a
thread. Everything that changes a table goes through ``games.service.lobby`` or ``games.service.moves``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from accounts.models import User
from games.core.errors import Conflict, GameError, NotFound
from games.core.registry import get_game_type
from games.cribbage.protocols import cribbagebber as codec
from games.models import Arrangement, Client, Game, Seat, Status
from games.service import door

GAME_TYPE = "cribbage"
DEFAULT_MODE = 2
# The rule options a control client chooses; everything else in a table's rules is the platform's.
CHOSEN_RULES = ("counting", "variants")


class Refused(Exception):
    """The link may not sit at that table: the gateway says ``E:<reason>`` and closes."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def check_link(game_id: int | None, user: User | None) -> None:
    """Before ``P:``: a link to a running game it does not play in is refused (``E:GAME``), as is a
    link to a full table (``E:FULL``). A link that has not authenticated yet is checked again at IM."""
    if game_id is None:
        return
    game = Game.objects.filter(id=game_id, game_type=GAME_TYPE).first()
    if game is None or game.is_over:
        raise Refused("GAME")
    if user is None:
        return
    seated = game.seats.filter(user=user).first()
    if game.status == Status.ACTIVE and (seated is None or seated.forfeited or seated.position is None):
        raise Refused("GAME")
    if game.status == Status.SETUP and seated is None:
        if game.seats.count() >= get_game_type(GAME_TYPE).mode(game.mode).seats:
            raise Refused("FULL")


def _open_table(user: User, mode: int = DEFAULT_MODE, rules: dict[str, Any] | None = None) -> Game:
    game = door.create_table(user, GAME_TYPE, mode, rules=rules or None)
    # The seed seats players "dealer-leftwards as they join", the control client dealing first:
    # exact order with the host in the first slot (a host who leaves hands the first slot on).
    return door.change_arrangement(user, game.id, Arrangement.EXACT)


def take_seat(user: User, game_id: int | None) -> int:
    """The table a link plays at (its game id), joining or opening one if need be.

    Without a game id: the user's own cribbage game in progress, else the table being set up
    they sit at, else the oldest table being set up with a free seat, else a new table.
    """
    check_link(game_id, user)
    if game_id is not None:
        game = Game.objects.get(id=game_id)
        if game.status == Status.SETUP and not game.seats.filter(user=user).exists():
            try:
                door.join(user, game.id)
            except Conflict as error:
                raise Refused("FULL" if error.code == "GameFull" else "GAME") from None
        return game.id
    mine = Seat.objects.filter(user=user, game__game_type=GAME_TYPE, forfeited=False)
    playing = mine.filter(game__status=Status.ACTIVE).exclude(position=None).order_by("-game_id").first()
    if playing is not None:
        return playing.game_id
    waiting = mine.filter(game__status=Status.SETUP).order_by("game_id").first()
    if waiting is not None:
        return waiting.game_id
    for table in Game.objects.filter(game_type=GAME_TYPE, status=Status.SETUP).order_by("id"):
        try:
            return door.join(user, table.id).id
        except Conflict:
            continue  # full, or started meanwhile: try the next
    return _open_table(user).id


@dataclass
class TableState:
    """What the consumer needs to answer one command: the table, and the game as the user sees it."""

    game_id: int
    status: str
    mode: int
    rules: dict[str, Any]
    host: int | None
    setup: dict[str, Any] | None = None
    seat: int | None = None
    view: dict[str, Any] | None = None
    absent: set[int] = field(default_factory=set)
    players: dict[int, str] = field(default_factory=dict)  # user id -> username, seated users
    nicknames: dict[int, str] = field(default_factory=dict)  # seat -> username, once the game started


def absent_players(game_id: int) -> set[int]:
    """Seated people with no connection at all (the seed's quit): bots and forfeited seats are
    played by the server and never missing."""
    seated = set(
        Seat.objects.filter(game_id=game_id, forfeited=False, user__is_bot=False)
        .exclude(position=None)
        .values_list("user_id", flat=True)
    )
    return seated - set(Client.objects.filter(user_id__in=seated).values_list("user_id", flat=True))


def table_state(game_id: int, user: User) -> TableState:
    game = Game.objects.get(id=game_id)
    seats = list(game.seats.select_related("user").order_by("slot"))
    state = TableState(game.id, game.status, game.mode, dict(game.rules), game.host_id,
                       players={s.user_id: s.user.username for s in seats})
    if game.status == Status.SETUP:
        state.setup = door.setup_state(game, seats)
        return state
    state.seat = next((s.position for s in seats if s.user_id == user.id), None)
    state.nicknames = {s.position: s.user.username for s in seats if s.position is not None}
    if game.status == Status.ACTIVE:
        # The engine's view alone (not a whole Snapshot with its history): one per command.
        state.view = door.seat_view(game, state.seat)
        state.absent = absent_players(game.id)
    return state


def phase(state: TableState) -> str:
    """The seed's phase of the user's link at this table."""
    if state.status == Status.SETUP:
        return codec.WAITING
    if state.status != Status.ACTIVE or state.view is None or state.seat is None:
        return codec.ENDGAME
    if state.absent:
        return codec.PAUSED
    return codec.phase_of(state.view, state.seat)


Decision = str | tuple[str, list[Any]] | Callable[[], Any] | None


def perform(game_id: int, user: User, allowed: frozenset[str],
            decide: Callable[[TableState, str], Decision]) -> str | None:
    """One command in one database call: the link's phase is checked (a wrong one gives the
    ``WA: WRONGPHASE`` line), then ``decide`` (pure: the codec's work) turns the command into a
    refusal line, an engine action (applied by the game service) or a lobby call. A refusal by
    the service raises ``GameError`` as usual."""
    state = table_state(game_id, user)
    current = phase(state)
    if current not in allowed:
        return codec.wrong_phase(current)
    decision = decide(state, current)
    if isinstance(decision, tuple):
        action, params = decision
        door.apply_action(game_id, user, action, params)
    elif callable(decision):
        decision()
    elif isinstance(decision, str):
        return decision
    return None


@dataclass
class GameInfo:
    """What a seat's line renderer needs, and the history it has not seen."""

    seat: int
    nicknames: list[str]
    user_ids: list[int]
    mode: int
    manual: bool
    messages: list[dict[str, Any]]


def game_info(game_id: int, user: User, start: int | None) -> GameInfo | None:
    """The seat's view of a started game; ``start`` None leaves the history out."""
    game = Game.objects.get(id=game_id)
    seats = list(game.seats.select_related("user").exclude(position=None).order_by("position"))
    seat = next((s.position for s in seats if s.user_id == user.id), None)
    if seat is None or game.seed is None:
        return None
    messages = door.history(game, user, start)["messages"] if start is not None else []
    return GameInfo(seat, [s.user.username for s in seats], [s.user_id for s in seats], game.mode,
                    game.rules.get("counting") == "manual", messages)


def configure(host: User, game_id: int, players: int, rules: dict[str, Any]) -> bool:
    """``NP:``: the number of players and the variants, as one set-up change (``door.configure``).
    True if anything changed."""
    if get_game_type(GAME_TYPE).mode(players) is None:
        raise GameError("InvalidMode", "cribbage is played by 2, 3 or 4 (2 vs 2) players")
    return door.configure(host, game_id, players, rules)


def eject(host: User, game_id: int, nickname: str) -> tuple[int, bool]:
    """``EJ:``: the control client removes a player: a kick while the table is set up, a forfeit
    (the server plays the seat from then on) once the game runs. Returns (user id, forfeited)."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise NotFound("UnknownGame", f"no game {game_id}")
    seat = game.seats.select_related("user").filter(user__username=nickname).first()
    if seat is None:
        raise NotFound("NotAtTable", f"{nickname} is not at this table")
    if game.host_id != host.id:
        raise GameError("NotHost", "only the control client may eject")
    if seat.user_id == host.id:
        raise GameError("CannotKickSelf", "the control client quits (QU:) instead of ejecting itself")
    if game.status == Status.SETUP:
        door.kick(host, game_id, seat.user_id)
        return seat.user_id, False
    if game.status != Status.ACTIVE:
        raise Conflict("GameNotActive", "the game is over")
    if seat.forfeited:
        raise Conflict("Forfeited", f"{nickname} has already left the game")
    door.remove_player(game_id, seat.user_id)
    return seat.user_id, True


def may_restart(user: User, game_id: int) -> None:
    """``N:`` is the control client's, or anybody's when the control client is the one missing."""
    game = Game.objects.get(id=game_id)
    if game.host_id == user.id:
        return
    if game.status == Status.ACTIVE and game.host_id in absent_players(game_id):
        return
    raise GameError("NotHost", "only the control client may go back to waiting")


def restart(user: User, game_id: int) -> int:
    """``N:``: a new table for the same number of players and variants, with ``user`` as its
    control client. The game left behind is aborted if it was still running (the gateway moves
    everyone's links over first)."""
    game = Game.objects.get(id=game_id)
    rules = {key: game.rules[key] for key in CHOSEN_RULES if key in game.rules}
    return _open_table(user, game.mode, rules).id


def abort_if_running(game_id: int) -> None:
    if Game.objects.filter(id=game_id, status=Status.ACTIVE).exists():
        with contextlib.suppress(Conflict):  # it ended meanwhile
            door.abort(game_id)


def join_table(user: User, game_id: int) -> None:
    """Follow the control client to its new table (``N:``); a second link of the same user finds
    its seat taken already."""
    if not Seat.objects.filter(game_id=game_id, user=user).exists():
        door.join(user, game_id)


def leave_table(user: User, game_id: int) -> None:
    """A link that quits a table being set up leaves it (its seat was the link)."""
    if Game.objects.filter(id=game_id, status=Status.SETUP, seats__user=user).exists():
        with contextlib.suppress(GameError):  # it started or closed meanwhile
            door.leave(user, game_id)
