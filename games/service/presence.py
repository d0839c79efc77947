"""Who is connected, and what a client receives when it logs in (seed 003's Greetings).

Clients are stored in the database so that every Daphne process sees every connection.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, Q

from accounts.models import User
from config import channel_layers
from games.core import limits
from games.core.errors import NotFound
from games.models import Client, Game, Seat, ServerProcess, Status
from games.service import abandon, chat, clocks, play_now, push, reads
from games.service.lobby import setup_state
from games.service.ratings import shown_ratings

# This process's identity, for the Client rows it owns.
SERVER_ID = uuid.uuid4().hex
# A player's shown rating where the game type is not rated (ratings.shown_ratings).
NO_RATING = {"rating": None, "provisional": False}
_forgot_others = False


def forget_dead_servers() -> None:
    """Drop connections left behind by a server process that is gone.

    With the in-memory channel layer there is exactly one server process, so every client row
    of another process belongs to one that stopped (crashed or restarted). With Redis several
    processes share the table and none can tell from here whether another is alive, so the rows
    stay until their connections close.
    """
    global _forgot_others
    if _forgot_others:
        return
    _forgot_others = True
    if not channel_layers.spans_processes(settings.CHANNEL_LAYERS):
        Client.objects.exclude(server=SERVER_ID).delete()


def leads() -> bool:
    """Whether this process is the one that runs what only one process may (the mjai bots the server
    starts): the only process on the embedded default; with several, the live one of the smallest id."""
    if not channel_layers.spans_processes(settings.CHANNEL_LAYERS):
        return True
    cutoff = clocks.now_ms() - int(dead_after_seconds() * 1000)
    first = ServerProcess.objects.filter(last_seen_ms__gte=cutoff).order_by("id").values_list("id", flat=True).first()
    return first == SERVER_ID


def heartbeat_seconds() -> float:
    """How often each server process refreshes its heartbeat."""
    return float(getattr(settings, "PRESENCE_HEARTBEAT_SECONDS", 10))


def dead_after_seconds() -> float:
    """How old a heartbeat may get before the process is taken for dead."""
    return float(getattr(settings, "PRESENCE_DEAD_AFTER_SECONDS", 60))


def beat(now: int | None = None) -> list[int]:
    """Refresh this process's heartbeat, and forget the connections of every process whose heartbeat
    stopped (it crashed or was killed, so its clients' ``disconnect`` never ran). Returns the client
    ids removed; each is announced to the lobby as ``ClientDisconnected``."""
    now = clocks.now_ms() if now is None else now
    cutoff = now - int(dead_after_seconds() * 1000)
    with transaction.atomic():
        ServerProcess.objects.update_or_create(id=SERVER_ID, defaults={"last_seen_ms": now})
        dead = list(ServerProcess.objects.filter(last_seen_ms__lt=cutoff).values_list("id", flat=True))
        if not dead:
            return []
        gone = list(Client.objects.filter(server__in=dead).values_list("id", flat=True))
        Client.objects.filter(id__in=gone).delete()
        ServerProcess.objects.filter(id__in=dead).delete()
        for client_id in gone:
            push.to_lobby({"type": "ClientDisconnected", "client": client_id})
    return gone


def connect(user: User, channel_name: str, known: dict[int, int], rejoin: int | None,
            with_history: bool = True, lobby: bool = True) -> dict[str, Any]:
    """Register a client and build its Greetings.

    ``known`` maps the games the client already knows to how many history messages it has;
    only the missing messages are sent, and the setup details of a known game are left out.
    ``with_history=False`` leaves every game's messages out (a page that follows one game and
    asks for its snapshot need not receive every game's history). ``lobby=False`` (a client that
    does not follow the lobby, docs/protocols/lobby.md "Following the lobby"): only what concerns
    the client, its user's own tables and games, the games it names, and their users; no lobby chat.
    """
    entered = None
    if rejoin is not None and Seat.objects.filter(
        game_id=rejoin, user=user, game__status__in=[Status.SETUP, Status.ACTIVE, Status.ADJOURNED]
    ).exists():
        entered = rejoin
    forget_dead_servers()
    with transaction.atomic():
        # Count and add under the user's row lock: two log-ins of one user on two database threads
        # (or two processes) must not both see room for one more.
        User.objects.select_for_update().filter(id=user.id).exists()
        limits.connections(Client.objects.filter(user=user).count())
        client = Client.objects.create(user=user, channel_name=channel_name, game_id=entered, server=SERVER_ID)
    # Back, now that the connection is on record: games of theirs stopped for want of players go
    # on, before the lists below are read (games/service/abandon.py).
    abandon.returned(user)
    picture = _picture(user, known, entered, with_history, lobby)
    inactive = picture.pop("inactive_games")
    greetings: dict[str, Any] = {"type": "Greetings", "client": client.id, "user": user.id, **picture}
    if inactive:
        greetings["inactive_games"] = inactive
    if entered is not None:
        greetings["entered_game"] = entered
    queued = play_now.status(user)
    if queued["status"] != "none":
        # Back after a reload or a restart: where Play now stands (docs/play-now.md).
        greetings["play_now"] = queued
    return greetings


def lobby_state(user: User) -> dict[str, Any]:
    """What a client that starts following the lobby needs to draw it: Greetings' users, tables
    being set up, games in progress (without their history messages) and lobby chat."""
    picture = _picture(user, {}, None, False, True)
    del picture["inactive_games"]
    return picture


def _picture(user: User, known: dict[int, int], entered: int | None, with_history: bool,
             lobby: bool) -> dict[str, Any]:
    """Greetings' lists (``connect``)."""
    setting_up_q = Game.objects.filter(status=Status.SETUP)
    active_q = Game.objects.filter(status__in=[Status.ACTIVE, Status.ADJOURNED])
    if not lobby:
        # Not following the lobby: its own games only, so a log-in costs what the client's
        # tables hold, not what the whole site holds.
        own = Q(seats__user=user) | Q(id__in=[*known, *([entered] if entered else [])])
        setting_up_q, active_q = setting_up_q.filter(own).distinct(), active_q.filter(own).distinct()
    setting_up = list(
        setting_up_q
        .select_related("host")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("slot")))
        .order_by("id")
    )
    active = list(
        active_q
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position")))
        .order_by("id")
    )
    # Every listed table's ratings in one query, not one a table: the tables being set up, and the
    # games in progress whose details go out (a game the client knows keeps the ratings it has).
    table_ratings = shown_ratings((g.game_type, [s.user_id for s in g.seats.all()])
                                  for g in [*setting_up, *(g for g in active if g.id not in known)])
    games = []
    for game in active:
        size = known.get(game.id)
        if with_history:
            history = reads.history(game, user, start=size or 0)
            entry: dict[str, Any] = {"game": game.id, "v": history["v"], "start": history["start"],
                                     "messages": history["messages"]}
        elif game.spectator_delay and not any(s.user_id == user.id for s in game.seats.all()):
            # A delayed table's spectator: the counters as of the delay, never the live ones.
            history = reads.history(game, user, start=0)
            entry = {"game": game.id, "v": history["v"], "start": len(history["messages"]), "messages": []}
        else:
            entry = {"game": game.id, "v": game.seq, "start": game.history_size, "messages": []}
        entry["status"] = game.status  # "adjourned" while its people are all away
        if size is None:
            seats = list(game.seats.all())
            entry.update({
                "display_number": game.display_number,
                "game_type": game.game_type,
                "mode": game.mode,
                "arrangement": game.arrangement,
                "users": [s.user_id for s in seats],
                "host": game.host_id,
                "time_start": game.time_start,
                "time_increment": game.time_increment,
                "time_control": clocks.describe_control(game),
                # Each player's rating in the game's type, as a set-up table shows it, in ``users``' order.
                "ratings": [{"user": s.user_id, **table_ratings.get((s.user_id, game.game_type), NO_RATING)}
                            for s in seats],
            })
        games.append(entry)
    active_ids = {g.id for g in active}
    inactive = sorted(game_id for game_id in known if game_id not in active_ids)

    user_ids = {user.id}
    if lobby:
        user_ids.update(Client.objects.values_list("user_id", flat=True))
    for game in setting_up + active:
        user_ids.update(s.user_id for s in game.seats.all())
    users = []
    clients_by_user: dict[int, list[dict[str, Any]]] = {}
    for c in Client.objects.filter(user_id__in=user_ids).order_by("id"):
        item: dict[str, Any] = {"client": c.id}
        if c.game_id is not None:
            item["game"] = c.game_id
        clients_by_user.setdefault(c.user_id, []).append(item)
    for u in User.objects.filter(id__in=user_ids).order_by("id"):
        entry = {"user": u.id, "username": u.username}
        if u.id in clients_by_user:
            entry["clients"] = clients_by_user[u.id]
        users.append(entry)

    return {
        "users": users,
        "games_being_set_up": [setup_state(g, list(g.seats.all()), table_ratings) for g in setting_up],
        "games": games,
        "chat": chat.recent_chat(None) if lobby else [],
        "inactive_games": inactive,
    }


def disconnect(client_id: int, user_id: int | None = None) -> list[int]:
    """Drop the client's row; the other users at ``user_id``'s tables (``table_mates``), who hear
    of it whether or not they follow the lobby."""
    Client.objects.filter(id=client_id).delete()
    return table_mates(user_id) if user_id is not None else []


def table_mates(user_id: int) -> list[int]:
    """The other users seated with ``user_id`` at a table being set up or a game not over: who
    comes and goes concerns them (a CRIBBAGEBBER table says when an opponent leaves or is back),
    whether or not they follow the lobby."""
    games = Seat.objects.filter(user_id=user_id, game__status__in=[Status.SETUP, Status.ACTIVE, Status.ADJOURNED])
    return sorted(set(Seat.objects.filter(game_id__in=games.values("game_id")).exclude(user_id=user_id)
                      .values_list("user_id", flat=True)))


def enter(client_id: int, game_id: int | None) -> None:
    if game_id is not None and not Game.objects.filter(id=game_id).exists():
        raise NotFound("UnknownGame", f"no game {game_id}")
    Client.objects.filter(id=client_id).update(game_id=game_id)
