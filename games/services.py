"""The game service: the only code that changes a game in progress.

Applying an action: lock the game row, take the engine state (cached in this process when it
is current, else rebuilt from the log), apply, append to the log, commit, and after commit push
every seat its own view of the new history messages. Visibility is decided in one place,
``Event.render`` through ``render_history``; snapshots, history, replays and pushes all use it.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User

from . import clocks, limits, push
from .engine import Engine, Event, Rejection
from .errors import Conflict, Forbidden, GameError, NotFound
from .models import Action, ChatMessage, Game, Seat, Status
from .registry import get_game_type
from .validation import is_encodable

# How much chat a (re)connecting client gets with Greetings or a Snapshot.
RECENT_CHAT = 50
# Forfeited seats are played automatically; this bounds that loop so a broken engine cannot hang.
MAX_AUTO_ACTIONS = 10_000


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Replayed:
    """An engine brought up to ``seq`` together with every history message it produced."""

    seq: int
    engine: Engine
    history: list[Event] = field(default_factory=list)


class _EngineCache:
    """Engines of games in progress, per process. An entry is used only when its seq equals the
    locked row's seq, so a move made by another process simply forces a rebuild."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[int, Replayed] = {}

    def take(self, game_id: int, seq: int) -> Replayed | None:
        with self._lock:
            entry = self._entries.pop(game_id, None)
        return entry if entry is not None and entry.seq == seq else None

    def put(self, game_id: int, entry: Replayed) -> None:
        with self._lock:
            self._entries[game_id] = entry

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


engine_cache = _EngineCache()


def new_engine(game: Game) -> Engine:
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode)
    return game_type.engine_class().create(mode=mode, seed=game.seed, rules=game.rules)


def replay(game: Game, upto: int | None = None) -> Replayed:
    """Rebuild a game from its action log (the first ``upto`` actions, or all of them)."""
    engine = new_engine(game)
    entry = Replayed(0, engine)
    actions = game.actions.order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    for action in actions.values_list("seq", "seat", "type", "params"):
        seq, seat, action_type, params = action
        entry.history.extend(engine.apply(seat, action_type, params))
        entry.seq = seq
    return entry


def _current(game: Game) -> Replayed:
    return engine_cache.take(game.id, game.seq) or replay(game)


def players(seats: list[Seat]) -> list[dict[str, Any]]:
    return [{"user": s.user_id, "username": s.user.username, "bot": s.user.is_bot, "position": s.position,
             "team": s.team, "forfeited": s.forfeited} for s in seats]


def _seated(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").exclude(position=None).order_by("position"))


def render_history(history: list[Event], viewer: int | None, reveal_all: bool, start: int = 0) -> list[dict[str, Any]]:
    return [event.render(viewer, reveal_all) for event in history[start:]]


def _push_events(game: Game, seats: list[Seat], events: list[Event], start: int, seq: int,
                 to_act: list[int], clock_list: list[dict[str, Any]] | None) -> None:
    """After commit: each seated user its own view, everyone else the spectators' view."""
    reveal = game.is_over

    def rendered(viewer: int | None) -> dict[str, Any]:
        return {"type": "GameMessages", "game": game.id, "v": seq, "start": start, "to_act": to_act,
                "clocks": clock_list, "messages": render_history(events, viewer, reveal)}

    deliveries: list[push.Delivery] = [(push.user_group(s.user_id), rendered(s.position), []) for s in seats]
    deliveries.append((push.LOBBY_GROUP, rendered(None), [s.user_id for s in seats]))
    push.send_many_on_commit(deliveries)


def _append(game: Game, entry: Replayed, seats: list[Seat], seat: int | None, action_type: str,
            params: list[Any], *, auto: bool = False, answers: int | None = None,
            at: int | None = None) -> list[Event]:
    """Apply one action to ``entry``, the clocks and the log. The caller holds the row lock."""
    waiting = entry.engine.to_act()
    events = entry.engine.apply(seat, action_type, params)
    at = now_ms() if at is None else at
    clocks.charge(game, {s.position: s for s in seats}, waiting, seat, at)
    game.seq += 1
    entry.seq = game.seq
    entry.history.extend(events)
    Action.objects.create(game=game, seq=game.seq, seat=seat, type=action_type, params=params,
                          timestamp_ms=at, auto=auto, answers=answers)
    return events


def _auto_play(game: Game, entry: Replayed, seats: list[Seat]) -> list[Event]:
    """Play the seats the server plays (forfeited players, house bots) until the game waits for
    a person who is still there. Forfeited seats get the engine's automatic action, flagged as
    auto-played; house bots make their own decisions, which are ordinary moves."""
    absent = {s.position for s in seats if s.forfeited}
    bots = {s.position for s in seats if s.user.is_bot and not s.forfeited}
    choose = get_game_type(game.game_type).bot() if bots else None
    events: list[Event] = []
    for _ in range(MAX_AUTO_ACTIONS):
        engine = entry.engine
        if engine.is_over:
            break
        waiting = [p for p in engine.to_act() if p in absent or p in bots]
        if not waiting:
            break
        seat = waiting[0]
        if seat in absent:
            action_type, params = engine.auto_action(seat)
            events += _append(game, entry, seats, seat, action_type, params, auto=True)
        else:
            # Seeded by game and step, so a bot's play does not depend on which process runs it.
            rng = random.Random(f"{game.seed}:{game.seq}")
            action_type, params = choose(engine.view(seat), engine.legal_actions(seat), rng)
            events += _append(game, entry, seats, seat, action_type, params)
    return events


def _expire(game: Game, entry: Replayed, seats: list[Seat], now: int) -> list[Event]:
    """Play, flagged auto, every decision whose clock ran out by ``now``, each at the moment its
    clock ran out (so the other seats are charged only up to then)."""
    by_position = {s.position: s for s in seats}
    events: list[Event] = []
    for _ in range(MAX_AUTO_ACTIONS):
        if entry.engine.is_over:
            break
        expiry = clocks.first_expiry(game, by_position, entry.engine.to_act())
        if expiry is None or expiry[0] > now:
            break
        moment, seat = expiry
        action_type, params = entry.engine.auto_action(seat)
        events += _append(game, entry, seats, seat, action_type, params, auto=True, at=moment)
        events += _auto_play(game, entry, seats)
    return events


def _finish_if_over(game: Game, entry: Replayed) -> None:
    if entry.engine.is_over and game.status == Status.ACTIVE:
        game.status = Status.FINISHED
        game.ended = timezone.now()
        game.result = entry.engine.result()
        push.to_lobby({"type": "GameInactive", "game": game.id, "status": game.status, "result": game.result})


def _commit(game: Game, entry: Replayed, seats: list[Seat], events: list[Event], start: int) -> None:
    _finish_if_over(game, entry)
    waiting = [] if entry.engine.is_over else entry.engine.to_act()
    clocks.set_deadline(game, {s.position: s for s in seats}, waiting)
    game.history_size = len(entry.history)
    game.save(update_fields=["seq", "history_size", "status", "ended", "result", "clock_since_ms", "deadline_ms"])
    if clocks.is_timed(game):
        Seat.objects.bulk_update(seats, ["clock_ms"])
    _push_events(game, seats, events, start, game.seq, waiting, clocks.describe(game, seats, waiting, now_ms()))
    game_id = game.id
    transaction.on_commit(lambda: engine_cache.put(game_id, entry))


def start_game(game: Game, seats: list[Seat]) -> None:
    """Called by the lobby inside its transaction once the table is full and accepted."""
    entry = replay(game)
    start = len(entry.history)
    clocks.start(game, seats, now_ms())
    events: list[Event] = []
    for seat, action_type, params in entry.engine.initial_actions():
        events += _append(game, entry, seats, seat, action_type, params)
    events += _auto_play(game, entry, seats)
    push.to_lobby({"type": "GameStarted", "game": game.id, "display_number": game.display_number,
                   "game_type": game.game_type, "mode": game.mode, "players": players(seats)})
    _commit(game, entry, seats, events, start)


def apply_action(game_id: int, user: User, action_type: str, params: list[Any],
                 answers: int | None = None) -> dict[str, Any]:
    """Apply ``user``'s action. ``answers`` is the game seq the client had seen when it acted:
    a reply to a seq this seat already answered is a duplicate and is not applied twice."""
    if not isinstance(action_type, str) or not isinstance(params, list):
        raise GameError("InvalidMessage", "an action needs a type (string) and params (list)")
    # A move that arrives after its clock ran out is too late: the automatic move comes first.
    expire_due(game_id)
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None:
            raise NotFound("UnknownGame", f"no game {game_id}")
        if game.status != Status.ACTIVE:
            raise Conflict("GameNotActive", "the game is not in progress")
        seats = _seated(game)
        seat = next((s for s in seats if s.user_id == user.id), None)
        if seat is None:
            raise Forbidden("NotInGame", "you are not playing in this game")
        if seat.forfeited:
            raise Forbidden("Forfeited", "you have left this game")
        if answers is not None:
            if answers > game.seq:
                raise Conflict("StaleAction", f"the game is at {game.seq}, not {answers}")
            if game.actions.filter(seat=seat.position, seq__gt=answers).exists():
                raise Conflict("DuplicateAction", f"you already acted after {answers}")
        entry = _current(game)
        # Seats the game waits for may act; so may any seat the engine offers an out-of-turn
        # action (cribbage's pause and muggins), which the engine itself then validates.
        if seat.position not in entry.engine.to_act() and not entry.engine.legal_actions(seat.position):
            engine_cache.put(game.id, entry)
            raise Conflict("NotYourTurn", "the game is not waiting for you")
        start = len(entry.history)
        try:
            events = _append(game, entry, seats, seat.position, action_type, params, answers=answers)
        except Rejection as rejection:
            engine_cache.put(game.id, entry)  # a rejection leaves the engine as it was
            raise GameError("IllegalAction", rejection.reason) from None
        events += _auto_play(game, entry, seats)
        _commit(game, entry, seats, events, start)
    return {"game": game.id, "v": game.seq}


def expire_due(game_id: int, now: int | None = None) -> bool:
    """Play every decision of ``game_id`` whose clock has run out; True if any was."""
    now = now_ms() if now is None else now
    if not Game.objects.filter(id=game_id, status=Status.ACTIVE, deadline_ms__lte=now).exists():
        return False  # the common case costs one indexed read and no lock
    with transaction.atomic():
        game = Game.objects.select_for_update().get(id=game_id)
        if game.status != Status.ACTIVE or game.deadline_ms is None or game.deadline_ms > now:
            return False
        seats = _seated(game)
        entry = _current(game)
        start = len(entry.history)
        events = _expire(game, entry, seats, now)
        _commit(game, entry, seats, events, start)
    return bool(events)


def expire_all_due(now: int | None = None) -> int:
    """The clock sweeper's pass: enforce every deadline that has passed. Returns games touched."""
    now = now_ms() if now is None else now
    due = list(Game.objects.filter(status=Status.ACTIVE, deadline_ms__lte=now).values_list("id", flat=True))
    return sum(expire_due(game_id, now) for game_id in due)


def forfeit(game: Game, seat: Seat) -> None:
    """A player left a game in progress: the server plays for them from now on."""
    if seat.forfeited:
        raise Forbidden("Forfeited", "you have already left this game")
    seat.forfeited = True
    seat.save(update_fields=["forfeited"])
    seats = _seated(game)
    entry = _current(game)
    start = len(entry.history)
    push.to_lobby({"type": "PlayerForfeited", "game": game.id, "user": seat.user_id, "position": seat.position})
    events = _auto_play(game, entry, seats)
    _commit(game, entry, seats, events, start)


def abort(game_id: int) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None:
            raise NotFound("UnknownGame", f"no game {game_id}")
        if game.is_over:
            raise Conflict("GameNotActive", "the game is already over")
        game.status = Status.ABORTED
        game.ended = timezone.now()
        game.save(update_fields=["status", "ended"])
        push.to_lobby({"type": "GameInactive", "game": game.id, "status": game.status})
    return game


def viewer_position(game: Game, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    seat = game.seats.filter(user_id=user.id).exclude(position=None).first()
    return seat.position if seat else None


def _reveal(game: Game, user: User | None) -> bool:
    # Not even staff see hidden tiles of a live game here: a staff member may be playing in it or
    # talking to someone who is. The admin shows the action log, which is for after the fact.
    return game.is_over


def _readable(game: Game) -> Replayed:
    """The current state for reading, without disturbing a writer: cached entries are not taken."""
    entry = engine_cache.take(game.id, game.seq)
    if entry is not None:
        engine_cache.put(game.id, entry)
        return entry
    # Up to the seq already read: a move committed meanwhile must not mix two versions.
    return replay(game, upto=game.seq)


def seat_view(game: Game, position: int | None) -> dict[str, Any]:
    """The engine's view for one seat (None: a spectator) without the history: what a transport
    that answers every command with the current state needs, and no more."""
    return _readable(game).engine.view(position, reveal_all=_reveal(game, None))


def history(game: Game, user: User | None, start: int = 0) -> dict[str, Any]:
    """Game history messages ``start``.. as ``user`` may see them."""
    if start < 0:
        raise GameError("InvalidStart", "start must not be negative")
    if game.status == Status.SETUP or game.seed is None:
        return {"game": game.id, "v": game.seq, "start": start, "messages": []}
    entry = _readable(game)
    viewer = viewer_position(game, user)
    return {"game": game.id, "v": entry.seq, "start": start,
            "messages": render_history(entry.history, viewer, _reveal(game, user), start)}


def snapshot(game: Game, user: User | None) -> dict[str, Any]:
    """A fresh per-seat picture of a game, for a client that reconnects or saw a gap."""
    base = {"type": "Snapshot", "game": game.id, "status": game.status, "v": game.seq,
            "chat": recent_chat(game.id)}
    if game.seed is None:
        return {**base, "view": None, "history": [], "to_act": [], "legal": []}
    entry = _readable(game)
    viewer = viewer_position(game, user)
    reveal = _reveal(game, user)
    engine = entry.engine
    seated = _seated(game)
    return {
        **base,
        "position": viewer,
        "players": players(seated),
        "view": engine.view(viewer, reveal_all=reveal),
        "history": render_history(entry.history, viewer, reveal),
        "to_act": [] if engine.is_over else engine.to_act(),
        "clocks": clocks.describe(game, seated, [] if engine.is_over else engine.to_act(), now_ms()),
        "legal": engine.legal_actions(viewer) if viewer is not None and not engine.is_over else [],
        "result": game.result,
    }


def replay_step(game: Game, user: User | None, step: int) -> dict[str, Any]:
    """The state after the first ``step`` actions: all visible for a finished game, only the
    requester's view for one in progress."""
    if game.seed is None:
        raise Conflict("GameNotStarted", "the game has not started")
    if not 0 <= step <= game.seq:
        raise GameError("InvalidStep", f"step must be between 0 and {game.seq}")
    entry = replay(game, upto=step)
    viewer = viewer_position(game, user)
    reveal = _reveal(game, user)
    return {"game": game.id, "step": step, "steps": game.seq,
            "view": entry.engine.view(viewer, reveal_all=reveal),
            "history": render_history(entry.history, viewer, reveal)}


def post_chat(user: User, game_id: int | None, text: str) -> dict[str, Any]:
    if not isinstance(text, str) or not text.strip():
        raise GameError("InvalidChat", "a chat message needs some text")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise GameError("ChatTooLong", f"chat messages are at most {ChatMessage.MAX_LENGTH} characters")
    if "\x00" in text or not is_encodable(text):
        raise GameError("InvalidChat", "chat must be valid Unicode text without NUL")
    limits.chat(user.id)
    with transaction.atomic():
        if game_id is not None and not Game.objects.filter(id=game_id).exists():
            raise NotFound("UnknownGame", f"no game {game_id}")
        message = ChatMessage.objects.create(user=user, game_id=game_id, text=text)
        payload = {"type": "Chat", **chat_item(message)}
        push.to_lobby(payload)
    return payload


def chat_item(message: ChatMessage) -> dict[str, Any]:
    return {"game": message.game_id, "id": message.id, "user": message.user_id,
            "username": message.user.username, "text": message.text, "at": message.created.isoformat()}


def recent_chat(game_id: int | None, limit: int = RECENT_CHAT) -> list[dict[str, Any]]:
    """The last messages of a table's chat (or the lobby's), oldest first."""
    latest = ChatMessage.objects.filter(game_id=game_id).select_related("user").order_by("-id")[:limit]
    return [chat_item(m) for m in reversed(latest)]
