"""The database side of a Majiang link (``games.riichi.transport.link.SeatLink``, behind both the native
WebSocket and majiang-server's socket.io dialect): the few table operations a link needs, each a
call of ``games.service.lobby`` or ``games.service.moves``. Synchronous; the transports run them on the database
threads (``games/core/db.py``). docs/protocols/majiang.md.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count

from accounts.models import User
from accounts.tokens import create_token, revoke
from games.core.errors import Forbidden, GameError, NotFound
from games.models import Client, Game, Seat, Status
from games.riichi.records.paifu_io import paifu_for_game
from games.service import door

GAME_TYPE = "riichi"
MODE = 4
SEATS = 4


def games_of(user: User) -> list[dict[str, Any]]:
    """The riichi tables ``user`` sits at, being set up or in progress (a link takes one up with
    ``join``). A seat its player left for good is not one."""
    seats = (Seat.objects.filter(user=user, forfeited=False, game__game_type=GAME_TYPE,
                                 game__status__in=[Status.SETUP, Status.ACTIVE])
             .select_related("game").order_by("game_id"))
    return [{"game": s.game_id, "status": s.game.status} for s in seats]


def table_for(user: User, others: bool = True) -> int | None:
    """The table a link that names none takes (UMP, docs/protocols/ump.md): the user's riichi game
    in progress, else the riichi table being set up at which the user sits, else (with
    ``others``) the oldest one with a free seat; None when there is none (the link then opens one)."""
    mine = games_of(user)
    for status in (Status.ACTIVE, Status.SETUP):
        for entry in mine:
            if entry["status"] == status:
                return entry["game"]
    if not others:
        return None
    free = (Game.objects.filter(game_type=GAME_TYPE, status=Status.SETUP).annotate(taken=Count("seats"))
            .filter(taken__lt=SEATS).order_by("id").values_list("id", flat=True).first())
    return free


def open_table(user: User, rules: dict[str, Any] | None, time_control: Any, bots: int) -> int:
    """A new riichi table with ``user`` as its host, and ``bots`` house bots beside them."""
    # One transaction: nobody else sees (and takes a seat at) the table before its bots sit.
    with transaction.atomic():
        game = door.create_table(user, GAME_TYPE, MODE, rules=rules, time_control=time_control)
        for _ in range(bots):
            door.add_bot(user, game.id)
    return game.id


def _riichi(game_id: int) -> Game:
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise NotFound("UnknownGame", f"no game {game_id}")
    if game.game_type != GAME_TYPE:
        raise GameError("NotRiichi", f"game {game_id} is {game.game_type}, not riichi mahjong")
    return game


def _own_seat(user: User, game: Game) -> None:
    """Refuse a game past its set-up that is not one of ``user``'s to take up."""
    if game.status == Status.ABORTED:
        raise GameError("GameNotActive", "the game was aborted")
    seat = game.seats.filter(user=user).exclude(position=None).first()
    if seat is None:
        raise Forbidden("NotInGame", "you do not play in this game (a protocol client plays, it does not watch)")
    if seat.forfeited:
        raise Forbidden("Forfeited", "you have left this game")


def check_join(user: User, game_id: int) -> None:
    """Refuse, changing nothing, a game ``join`` would certainly refuse: a log-in that names its
    table (mmj) is refused as a whole rather than accepted and then left at no table. A table
    being set up is left to ``join`` itself (its last seat may go meanwhile)."""
    game = _riichi(game_id)
    if game.status != Status.SETUP:
        _own_seat(user, game)


def join(user: User, game_id: int) -> str:
    """Take a seat at ``game_id``: join a table being set up, or take up one's seat in a game in
    progress again (the server stops playing it: ``door.set_away``), or look back at one's
    finished game. Returns the game's status."""
    game = _riichi(game_id)
    if game.status == Status.SETUP:
        if not game.seats.filter(user=user).exists():
            door.join(user, game_id)
        return Status.SETUP
    _own_seat(user, game)
    if game.status == Status.ACTIVE:
        door.set_away(game_id, user, False)
    return game.status


def setup(game_id: int) -> dict[str, Any]:
    return door.setup_state(Game.objects.get(id=game_id))


def accept_if_ready(user: User, game_id: int) -> None:
    """Accept the setup for ``user`` once every seat is taken. Taking a seat through this protocol
    says yes to playing there; the platform resets every acceptance when the table changes (a
    player joins or leaves), so this runs again after each change. A race (the setup changed, the
    game started) is no refusal: the next change brings the next chance."""
    game = Game.objects.filter(id=game_id, status=Status.SETUP).first()
    if game is None:
        return
    seats = list(game.seats.all())
    mine = next((s for s in seats if s.user_id == user.id), None)
    if len(seats) < SEATS or mine is None or mine.accepted:
        return
    with contextlib.suppress(GameError):
        door.accept(user, game_id, game.setup_version)


@dataclass
class Following:
    """What a link needs to follow its seat: the seat, the names, and the game from ``start``."""

    status: str
    seat: int
    names: list[str]
    v: int
    to_act: list[int]
    start: int
    history: list[dict[str, Any]]
    # Every seat's clock (``clocks.describe``), and the seconds per decision of a game timed as
    # majiang-server times it (None otherwise): a question's ``timer``.
    clocks: list[dict[str, Any]] | None = None
    per_decision: int | None = None
    legal: list[dict[str, Any]] | None = None  # the seat's legal actions now


def following(user: User, game_id: int, start: int) -> Following:
    """The user's seat and its history messages from ``start`` (``door.snapshot``: the seat's
    own rendering; a finished game's is revealed)."""
    game = door.game_row(game_id)
    if game is None:
        raise NotFound("UnknownGame", f"no game {game_id}")
    snapshot = door.snapshot(game, user, start)
    if snapshot.get("position") is None:
        raise Forbidden("NotInGame", "you do not play in this game")
    players = sorted(snapshot["players"], key=lambda p: p["position"])
    return Following(snapshot["status"], snapshot["position"], [p["username"] for p in players], snapshot["v"],
                     list(snapshot["to_act"]), snapshot["history_start"], snapshot["history"], snapshot.get("clocks"),
                     game.time_per_decision if door.per_decision(game) else None, snapshot.get("legal"))


def final_history(user: User, game_id: int) -> list[dict[str, Any]]:
    """A finished game's whole history, revealed (as everyone may see it now)."""
    game = Game.objects.get(id=game_id)
    if game.status != Status.FINISHED:
        return []
    return door.history(game, user)["messages"]


def final_paifu(game_id: int) -> dict[str, Any] | None:
    """A finished game's paifu as downloaded (``GET /api/games/<id>/paifu/``: usernames and the
    rule), or None while it is not finished."""
    game = Game.objects.get(id=game_id)
    if game.status != Status.FINISHED:
        return None
    return paifu_for_game(game)


def add_bot(user: User, game_id: int) -> None:
    door.add_bot(user, game_id)


def leave(user: User, game_id: int) -> None:
    """Leave a table being set up, or forfeit a game in progress (the server plays the seat to
    the end; it cannot be taken up again)."""
    door.leave(user, game_id)


def link_gone(user: User, game_id: int) -> None:
    """A link at ``game_id`` closed. At a table being set up the link was the seat: the user leaves
    it. In a game in progress, unless another connection of the user still follows the game, the
    seat is away: the server plays it until the user comes back (``join``)."""
    with transaction.atomic():
        # Locked, so a table that starts meanwhile is never left (which would forfeit the game).
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None:
            return
        if game.status == Status.SETUP:
            if game.seats.filter(user=user).exists():
                door.leave(user, game_id)
            return
        active = game.status == Status.ACTIVE
    if not active or Client.objects.filter(user=user, game_id=game_id).exists():
        return
    with contextlib.suppress(GameError):  # over meanwhile
        door.set_away(game_id, user, True)


# -- mjai bots the server runs (games/riichi/transport/mjai_house.py) -------------------------------


def mjai_seats() -> list[tuple[int, str]]:
    """``(game, username)`` of every seat an operator's mjai bot holds in a riichi game in progress."""
    return list(Seat.objects.filter(game__game_type=GAME_TYPE, game__status=Status.ACTIVE, user__is_bot=True,
                                    user__username__startswith=door.MJAI_PREFIX)
                .values_list("game_id", "user__username").order_by("game_id", "position"))


def bridge_token(username: str) -> tuple[int, str]:
    """A new API token of the mjai bot account ``username`` for the bridge the server starts for it:
    its id (revoked when the bridge is done) and key."""
    token, key = create_token(User.objects.get(username=username, is_bot=True), "mjai house bot bridge")
    return token.id, key


def mjai_bot_away(game_id: int, username: str) -> bool:
    """The mjai bot ``username`` has no bridge for its seat at ``game_id`` (it died, or its bot is no
    longer registered): the seat is away, so the server plays it (``moves._server_played``)."""
    return door.set_away(game_id, User.objects.get(username=username, is_bot=True), True)


def revoke_bridge_token(username: str, token_id: int) -> None:
    revoke(User.objects.get(username=username), token_id)
