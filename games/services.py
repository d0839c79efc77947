"""The game service: the only code that changes a game in progress.

Applying an action: lock the game row, take the engine state (cached in this process when it
is current, else rebuilt from the log), apply, append to the log, commit, and after commit push
every seat its own view of the new history messages. Visibility is decided in one place,
``Event.render`` through ``render_history``; snapshots, history, replays and pushes all use it.

The path of one action is lean on purpose (docs/architecture.md, "The live path"): one locked read
of the game row, the append, the row update. Seats, positions, who acted last and the engine
travel together in the per-process cache, validated by the row's ``seq``. Seats the server plays
(forfeited players, house bots) are played in bounded steps, each its own transaction with its
pushes after it, so a long play-out never holds the row (or the SQLite file) for long.
"""

from __future__ import annotations

import bisect
import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User

from . import clocks, frames, limits, move_sql, push, records, window
from .chat_cache import RecentChatCache
from .engine import Engine, Event, Rejection
from .errors import Conflict, Forbidden, GameError, NotFound
from .lobby import ADJOURNED_REASON
from .models import ChatMessage, Game, GameRecord, ReplayFrame, Seat, Status
from .registry import get_game_type
from .validation import is_encodable

log = logging.getLogger(__name__)

# How much chat a (re)connecting client gets with Greetings or a Snapshot.
RECENT_CHAT = 50
# Forfeited seats and house bots are played by the server, at most this many actions per
# transaction; the rest follow in further steps (``play_due``), with pushes between them.
AUTO_STEP = 24


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Replayed:
    """An engine brought up to ``seq`` together with every history message it produced."""

    seq: int
    engine: Engine
    history: list[Event] = field(default_factory=list)
    # The seq of each position's latest action (the duplicate check needs nothing else).
    last_acted: dict[int, int] = field(default_factory=dict)
    # The game's seated players by position, users loaded; None until first needed.
    seats: list[Seat] | None = None
    # When the open decision window (``Engine.decision_window``) opened, in ms; None when none is.
    window_since: int | None = None
    # The row's setup_version when the seats were read: a forfeit or a player going away changes
    # it, so a process whose cached entry still has the old seat flags rebuilds (take()).
    version: int = 0


class Hold(Exception):  # noqa: N818 - not an error: "come back at until_ms"
    """The answer that would close a decision window came before the window's minimum time: it
    is not applied (nothing changed); the caller sends it again at ``until_ms``."""

    def __init__(self, until_ms: int) -> None:
        self.until_ms = until_ms
        super().__init__(f"held until {until_ms}")


def _in_window(engine: Engine) -> bool:
    window = getattr(engine, "decision_window", None)
    return bool(window and window())


def _track_window(entry: Replayed, was_open: bool, at: int) -> None:
    """After an action at ``at``: a window that just opened starts its minimum time from then."""
    if not _in_window(entry.engine):
        entry.window_since = None
    elif not was_open or entry.window_since is None:
        entry.window_since = at


class _EngineCache:
    """Engines of games in progress, per process. An entry is used only when its seq equals the
    locked row's seq, so a move made by another process simply forces a rebuild.

    Writers of one game in this process also queue on a lock of that game's (``writing``), taken
    before the row lock and held until the entry is back in the cache after the commit: without
    it, the next writer (a player, the sweeper) would take the row the instant it is free, find
    the entry not yet back, and replay the whole game. Games share ``STRIPES`` such locks."""

    STRIPES = 64
    # Games kept, the least recently used dropped first: a process's memory must not grow with
    # every game it ever served (a dropped game is rebuilt from its log when next needed).
    MAX_ENTRIES = 2000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, Replayed] = OrderedDict()
        self._writers = [threading.Lock() for _ in range(self.STRIPES)]

    def writing(self, game_id: int) -> threading.Lock:
        return self._writers[game_id % self.STRIPES]

    def take(self, game_id: int, seq: int, version: int = 0) -> Replayed | None:
        with self._lock:
            entry = self._entries.pop(game_id, None)
        return entry if entry is not None and entry.seq == seq and entry.version == version else None

    def put(self, game_id: int, entry: Replayed) -> None:
        with self._lock:
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.MAX_ENTRIES:
                self._entries.popitem(last=False)

    def offer(self, game_id: int, entry: Replayed) -> None:
        """Keep a reader's rebuilt entry unless a writer has put a newer one meanwhile."""
        with self._lock:
            current = self._entries.get(game_id)
            if current is None or current.seq < entry.seq:
                self._entries[game_id] = entry
                self._entries.move_to_end(game_id)
                while len(self._entries) > self.MAX_ENTRIES:
                    self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


engine_cache = _EngineCache()
chat_cache = RecentChatCache()


def new_engine(game: Game) -> Engine:
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode)
    return game_type.engine_class().create(mode=mode, seed=game.seed, rules=game.rules)


def replay(game: Game, upto: int | None = None, *, message_steps: list[int] | None = None) -> Replayed:
    """Rebuild a game from its action log (the first ``upto`` actions, or all of them).

    ``message_steps``, if given, receives for each history message the step (the seq of the
    action) that produced it."""
    *_, entry = _replaying(game, upto, message_steps)
    return entry


def _replaying(game: Game, upto: int | None = None, message_steps: list[int] | None = None) -> Iterator[Replayed]:
    """``replay``, step by step: the entry before the first action, then after each (the same
    entry, changed)."""
    engine = new_engine(game)
    entry = Replayed(0, engine, version=game.setup_version)
    yield entry
    actions = game.actions.order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    for action in actions.values_list("seq", "seat", "type", "params", "timestamp_ms"):
        seq, seat, action_type, params, at = action
        was_open = _in_window(engine)
        entry.history.extend(engine.apply(seat, action_type, params))
        if message_steps is not None:
            message_steps.extend([seq] * (len(entry.history) - len(message_steps)))
        _track_window(entry, was_open, at)
        entry.seq = seq
        if seat is not None:
            entry.last_acted[seat] = seq
        yield entry


def _with_seats(game: Game, entry: Replayed) -> Replayed:
    if entry.seats is None:
        entry.seats = _seated(game)
    return entry


def _current(game: Game) -> Replayed:
    """The game's engine, seats and history for a writer holding the row lock. The entry is taken
    out of the cache: it goes back only once the change commits (or is refused)."""
    return _with_seats(game, engine_cache.take(game.id, game.seq, game.setup_version) or replay(game))


def players(seats: list[Seat]) -> list[dict[str, Any]]:
    return [{"user": s.user_id, "username": s.user.username, "bot": s.user.is_bot, "position": s.position,
             "team": s.team, "forfeited": s.forfeited} for s in seats]


def _seated(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").exclude(position=None).order_by("position"))


def render_history(history: list[Event], viewer: int | None, reveal_all: bool, start: int = 0) -> list[dict[str, Any]]:
    return [event.render(viewer, reveal_all) for event in history[start:]]


def _deliveries(game: Game, entry: Replayed, events: list[Event], start: int, to_act: list[int],
                clock_list: list[dict[str, Any]] | None) -> list[push.Delivery]:
    """Each seated user its own view, the game's spectators theirs; nobody else.

    A push is enough to act on: it carries the receiver's view and legal actions after the change,
    so a client asks for a Snapshot only when it sees a gap."""
    reveal = game.is_over
    engine = entry.engine
    seats = entry.seats or []

    def rendered(viewer: int | None) -> dict[str, Any]:
        waiting, may_act = window.as_seen_by(game, engine, viewer) if to_act else (to_act, True)
        legal = engine.legal_actions(viewer) if viewer is not None and may_act and not engine.is_over else []
        return {"type": "GameMessages", "game": game.id, "v": game.seq, "start": start, "to_act": waiting,
                "clocks": clock_list, "messages": render_history(events, viewer, reveal),
                "view": engine.view(viewer, reveal_all=reveal), "legal": legal}

    deliveries: list[push.Delivery] = [(push.user_group(s.user_id), rendered(s.position), []) for s in seats]
    deliveries.append((push.game_group(game.id), rendered(None), [s.user_id for s in seats]))
    return deliveries


def _append(game: Game, entry: Replayed, seat: int | None, action_type: str, params: list[Any], *,
            auto: bool = False, answers: int | None = None, at: int | None = None,
            arrived: int | None = None) -> list[Event]:
    """Apply one action to ``entry``, the clocks and the log, or keep it back: an answer that
    leaves a decision window open is kept (games/window.py) and changes nothing public; the one
    that closes it applies the kept answers first. The caller holds the row lock. ``arrived``: when
    a held answer first came (``Hold``); its seat's clock stops then, not when the floor let it
    through."""
    at = now_ms() if at is None else at
    if window.keeps(game, entry.engine, seat):
        assert seat is not None
        window.keep(game, entry.engine, seat, action_type, params, answers=answers, auto=auto,
                    arrived=at if arrived is None else min(arrived, at))
        return []
    window.check_closing(game, entry.engine, seat, action_type, params)
    events: list[Event] = []
    for kept in window.take(game):
        # Each seat's clock stopped when its answer came: charged up to then, restarted from then.
        events += _apply(game, entry, kept.seat, kept.type, kept.params, auto=kept.auto, answers=kept.answers,
                         at=at, arrived=kept.arrived, restart=kept.arrived)
    return events + _apply(game, entry, seat, action_type, params, auto=auto, answers=answers, at=at,
                           arrived=arrived)


def _apply(game: Game, entry: Replayed, seat: int | None, action_type: str, params: list[Any], *,
           auto: bool, answers: int | None, at: int, arrived: int | None, restart: int | None = None) -> list[Event]:
    """``_append``'s change itself, logged at ``at``; the clocks are charged up to ``arrived`` (if
    earlier) and restart from ``restart`` (default ``at``)."""
    waiting = entry.engine.to_act()
    hand = clocks.hands_dealt(entry.engine)  # a new hand renews a per-decision clock's banks
    was_open = _in_window(entry.engine)
    events = entry.engine.apply(seat, action_type, params)
    _track_window(entry, was_open, at)
    clocks.charge(game, _by_position(entry), waiting, seat, at if arrived is None else min(arrived, at),
                  entry.engine, hand, restart=at if restart is None else restart)
    game.seq += 1
    entry.seq = game.seq
    entry.history.extend(events)
    if seat is not None:
        entry.last_acted[seat] = game.seq
    move_sql.insert_action(game_id=game.id, seq=game.seq, seat=seat, type=action_type, params=params,
                           timestamp_ms=at, auto=auto, answers=answers)
    return events


def _by_position(entry: Replayed) -> dict[int, Seat]:
    return {s.position: s for s in entry.seats or []}


def _server_played(entry: Replayed) -> tuple[set[int], set[int]]:
    """The positions the server plays: forfeited players, players away (``set_away``), and house
    bots."""
    seats = entry.seats or []
    absent = {s.position for s in seats if s.forfeited or s.away}
    bots = {s.position for s in seats if s.user.is_bot and not s.forfeited}
    return absent, bots


def _auto_pending(game: Game, entry: Replayed) -> bool:
    if entry.engine.is_over:
        return False
    absent, bots = _server_played(entry)
    return any(p in absent or p in bots for p in window.deciding(game, entry.engine))


def _auto_play(game: Game, entry: Replayed, limit: int = AUTO_STEP) -> list[Event]:
    """Play the seats the server plays (forfeited players, house bots) until the game waits for
    a person who is still there, or ``limit`` actions are made (the rest is due at once and
    follows in the next step). Forfeited seats get the engine's automatic action, flagged as
    auto-played; house bots make their own decisions, which are ordinary moves."""
    absent, bots = _server_played(entry)
    choose = get_game_type(game.game_type).bot() if bots else None
    events: list[Event] = []
    for _ in range(limit):
        engine = entry.engine
        if engine.is_over:
            break
        waiting = [p for p in window.deciding(game, engine) if p in absent or p in bots]
        if not waiting:
            break
        seat = waiting[0]
        if seat in absent:
            action_type, params = engine.auto_action(seat)
            events += _append(game, entry, seat, action_type, params, auto=True)
        else:
            # Seeded by game and step (the seq the answer takes, counting answers kept back by an
            # open window), so a bot's play does not depend on which process runs it.
            rng = random.Random(f"{game.seed}:{game.seq + len(game.window_answers or [])}")
            action_type, params = choose(engine.view(seat), engine.legal_actions(seat), rng)
            events += _append(game, entry, seat, action_type, params)
    return events


def _expire(game: Game, entry: Replayed, now: int, limit: int = AUTO_STEP) -> list[Event]:
    """Play, flagged auto, decisions whose clock ran out by ``now``, each at the moment its clock
    ran out (so the other seats are charged only up to then), then what the server plays; at most
    about ``limit`` actions (one step)."""
    by_position = _by_position(entry)
    events: list[Event] = []
    while len(events) < limit and not entry.engine.is_over:
        expiry = clocks.first_expiry(game, by_position, window.deciding(game, entry.engine))
        if expiry is None or expiry[0] > now:
            break
        moment, seat = expiry
        action_type, params = entry.engine.auto_action(seat)
        events += _append(game, entry, seat, action_type, params, auto=True, at=moment)
        events += _auto_play(game, entry)
    return events + _auto_play(game, entry)


def _finish_if_over(game: Game, entry: Replayed) -> None:
    if entry.engine.is_over and game.status == Status.ACTIVE:
        game.status = Status.FINISHED
        game.ended = timezone.now()
        game.result = entry.engine.result()
        _store_record(game, entry)
        push.to_lobby({"type": "GameInactive", "game": game.id, "status": game.status, "result": game.result})


def _record_fields(game: Game, entry: Replayed) -> dict[str, Any]:
    """A ``GameRecord``'s fields from the engine at the game's end: the game over as everybody
    now sees it (history and final views, all revealed), and its native record."""
    engine = entry.engine
    views = {str(s.position): engine.view(s.position, reveal_all=True) for s in entry.seats or []}
    views["spectator"] = engine.view(None, reveal_all=True)
    built = records.build(game, engine, entry.seats or [])
    kind, version, document = built if built is not None else ("", 0, None)
    return {"history": render_history(entry.history, None, True), "views": views,
            "format": kind, "version": version, "document": "" if document is None else records.dump(document)}


def rebuilt_record_fields(game: Game) -> dict[str, Any]:
    """What the game's record says when rebuilt from its log (``records.verify``)."""
    return _record_fields(game, _with_seats(game, replay(game)))


def _store_record(game: Game, entry: Replayed) -> GameRecord:
    """The record of a game that is over (``GameRecord``), written in the transaction of the
    action that ended it."""
    record, _ = GameRecord.objects.update_or_create(game=game, defaults=_record_fields(game, entry))
    if settings.RECORDS_VERIFY_ON_WRITE and (problems := records.verify(game, frames=False)):
        raise RuntimeError(f"game {game.id}'s record differs from its log: {'; '.join(problems)}")
    return record


def _record(game: Game) -> GameRecord:
    """A game's stored record, as read back from the database (JSON: an Acquire tile map's int
    keys are strings, as every client reads them). A game that ended before records were kept,
    or was aborted (an abort replays nothing), gets one now: the log rebuilds it."""
    record = GameRecord.objects.filter(game=game).first()
    if record is None or (record.version == 0 and records.has_format(game)):  # older than records
        _store_record(game, _with_seats(game, replay(game)))
        record = GameRecord.objects.get(game=game)
    return record


def stored_record(game: Game) -> GameRecord:
    """The record of a game that is over, as stored: reading it replays nothing. Refused while the
    game is on: a record reveals everything."""
    if not game.is_over:
        raise Conflict("GameNotOver", "a game's record reveals everything; it is written when the game ends")
    return _record(game)


def native_record(game: Game) -> Any:
    """The native record of a game that is over (Acquire's review array, riichi's paifu, the
    cribbage record), as stored."""
    return stored_record(game).native()


def rebuild_record(game: Game) -> GameRecord:
    """Write a game's record and replay frames afresh from its log (``manage.py records rebuild``)."""
    with transaction.atomic():
        record = _store_record(game, _with_seats(game, replay(game)))
    build_frames(game)
    return record


def frame_fields(game: Game) -> tuple[list[bytes], list[int]]:
    """A game's replay frames (``games/frames.py``) and the step of each history message, from
    its log: every step's views, spectator's and each seat's, all revealed."""
    seats = _seated(game)
    message_steps: list[int] = []

    def steps() -> Iterator[dict[str, Any]]:
        for entry in _replaying(game, message_steps=message_steps):
            views = {frames.SPECTATOR: entry.engine.view(None, reveal_all=True)}
            for seat in seats:
                views[str(seat.position)] = entry.engine.view(seat.position, reveal_all=True)
            yield views

    return list(frames.chunks(steps())), message_steps


def build_frames(game: Game) -> None:
    """Store the replay frames of a game that is over: replay steps are then read, not replayed.
    Built once, after the action that ended the game has committed (its pushes gone out first):
    the one replay a game's replays cost. A game without them (it ended before frames were kept,
    was aborted, or its server stopped in between) gets them on the first replay step asked."""
    _record(game)
    chunks, message_steps = frame_fields(game)
    with transaction.atomic():
        Game.objects.select_for_update().filter(id=game.id).exists()  # one builder at a time
        ReplayFrame.objects.filter(game=game).delete()
        ReplayFrame.objects.bulk_create([ReplayFrame(game=game, chunk=n, data=data) for n, data in enumerate(chunks)])
        GameRecord.objects.filter(game=game).update(message_steps=message_steps, frames_every=frames.EVERY)


def _build_frames_after(game: Game) -> None:
    try:
        build_frames(game)
    except Exception:  # noqa: BLE001 - the game is stored; its first replay step builds them again
        log.exception("replay frames of game %s not built", game.id)


def _commit(game: Game, entry: Replayed, events: list[Event], start: int) -> None:
    """Store the row's new state; once it commits, push and return the entry to the cache. The
    pushes are rendered after the commit, outside the database's write lock (on SQLite the one
    writer of the whole file), while the entry is still this writer's alone (``writing``). A game
    that still waits for a seat the server plays is due at once: ``play_due`` (the sweeper, or
    the caller right after this transaction) makes the next step."""
    _finish_if_over(game, entry)
    seats = entry.seats or []
    waiting = [] if entry.engine.is_over else entry.engine.to_act()
    _set_deadline(game, entry)
    game.history_size = len(entry.history)
    move_sql.save_game(game, ("seq", "history_size", "status", "ended", "result", "clock_since_ms", "deadline_ms",
                              "window_answers"))
    if clocks.is_timed(game):
        Seat.objects.bulk_update(seats, clocks.seat_fields(game))
    clock_list = clocks.describe(game, seats, waiting, now_ms())

    def committed() -> None:
        try:
            deliveries = _deliveries(game, entry, events, start, waiting, clock_list)
            if game.spectator_delay and not game.is_over:
                # Spectators get the game late (their delivery is the last); the clocks it carries
                # would be stale by then, so it carries none.
                group, message, skip = deliveries.pop()
                push.send_many(deliveries)
                push.send_many([(group, {**message, "clocks": None}, skip)], delay=game.spectator_delay)
            else:
                push.send_many(deliveries)
        finally:
            if not game.is_over:  # a finished game is read from its record (GameRecord)
                engine_cache.put(game.id, entry)

    # Robust: the move is stored; a failed push is logged, and clients resync on the gap they see.
    transaction.on_commit(committed, robust=True)
    if game.is_over:  # this action ended it: its replay frames, once the players have the end
        transaction.on_commit(lambda: _build_frames_after(game))


def _set_deadline(game: Game, entry: Replayed) -> None:
    """The first moment the game needs the server: a clock running out, or now for a seat the
    server plays. Seats whose answer is kept (games/window.py) wait for nothing."""
    clocks.set_deadline(game, _by_position(entry), [] if entry.engine.is_over else window.deciding(game, entry.engine))
    if _auto_pending(game, entry):
        now = now_ms()
        game.deadline_ms = now if game.deadline_ms is None else min(game.deadline_ms, now)


def _keep_quietly(game: Game, entry: Replayed) -> None:
    """Store an answer kept back (games/window.py): the row's kept answers and deadline, nothing
    else. No push, no seq, no history: nothing anyone else can see changes."""
    _set_deadline(game, entry)
    move_sql.save_game(game, ("window_answers", "deadline_ms"))
    transaction.on_commit(lambda: engine_cache.put(game.id, entry), robust=True)


def _settle(game: Game, entry: Replayed, events: list[Event], start: int, seq_before: int) -> None:
    """End a writer's transaction: ``_commit`` if the log grew, else the answer was kept back."""
    if game.seq == seq_before and not events:
        _keep_quietly(game, entry)
    else:
        _commit(game, entry, events, start)


def start_game(game: Game, seats: list[Seat]) -> None:
    """Called by the lobby inside its transaction once the table is full and accepted."""
    entry = replay(game)
    entry.seats = sorted(seats, key=lambda s: s.position)
    start = len(entry.history)
    clocks.start(game, seats, now_ms())
    events: list[Event] = []
    for seat, action_type, params in entry.engine.initial_actions():
        events += _append(game, entry, seat, action_type, params)
    events += _auto_play(game, entry)
    push.to_lobby({"type": "GameStarted", "game": game.id, "display_number": game.display_number,
                   "game_type": game.game_type, "mode": game.mode, "players": players(entry.seats)})
    _commit(game, entry, events, start)


def _due(game: Game, now: int) -> bool:
    return game.status == Status.ACTIVE and game.deadline_ms is not None and game.deadline_ms <= now


def apply_action(game_id: int, user: User, action_type: str, params: list[Any],
                 answers: int | None = None, seat: int | None = None, *, hold: bool = True,
                 arrived: int | None = None) -> dict[str, Any]:
    """Apply ``user``'s action. ``answers`` is the game seq the client had seen when it acted:
    a reply to a seq this seat already answered is a duplicate and is not applied twice. ``seat``,
    when given, is the position the client believes it plays: naming another is refused.

    The last answer of a decision window that came sooner than ``settings.CALL_FLOOR_MS`` after
    the window opened raises ``Hold`` (nothing changed): the caller sends it again then, so the
    table's wait does not tell whether anyone could call (``hold=False``: tables of in-process
    bots only, whose answers are instant whatever they could do). ``arrived``: when a held answer
    first came; the answering seat's clock is charged up to then only."""
    if not isinstance(action_type, str) or not isinstance(params, list):
        raise GameError("InvalidMessage", "an action needs a type (string) and params (list)")
    # A move that arrives after its clock ran out is too late: the automatic move comes first,
    # committed on its own (the move may then be refused), found by the same locked read.
    for attempt in range(2):
        with engine_cache.writing(game_id), transaction.atomic():
            game = move_sql.locked_game(game_id)
            if game is None:
                raise NotFound("UnknownGame", f"no game {game_id}")
            now = now_ms()
            if attempt == 0 and _due(game, now) and game.seed is not None:
                _step(game, now)
                continue
            if game.status != Status.ACTIVE:
                if seat is not None and viewer_position(game, user) != seat:
                    raise Forbidden("NotYourSeat", f"you do not play seat {seat}")
                if game.status == Status.ADJOURNED:
                    raise Conflict("GameAdjourned", ADJOURNED_REASON)
                raise Conflict("GameNotActive", "the game is not in progress")
            entry = _current(game)
            seq_before = game.seq
            try:
                position = _claim(game, entry, user, seat, answers)
                if hold:
                    _hold(game, entry, position, now)
                start = len(entry.history)
                try:
                    events = _append(game, entry, position, action_type, params, answers=answers, arrived=arrived)
                except Rejection as rejection:  # raised before the engine changes anything
                    raise GameError("IllegalAction", rejection.reason) from None
            except (GameError, Hold):
                engine_cache.put(game.id, entry)  # a refused or held request leaves the entry as it was
                raise
            events += _auto_play(game, entry)
            _settle(game, entry, events, start, seq_before)
            break
    return {"game": game.id, "v": game.seq}


def _claim(game: Game, entry: Replayed, user: User, seat: int | None, answers: int | None) -> int:
    """The position ``user`` may act for now, or the reason they may not."""
    mine = next((s for s in entry.seats or [] if s.user_id == user.id), None)
    if seat is not None and (mine is None or mine.position != seat):
        raise Forbidden("NotYourSeat", f"you do not play seat {seat}")
    if mine is None:
        raise Forbidden("NotInGame", "you are not playing in this game")
    if mine.forfeited:
        raise Forbidden("Forfeited", "you have left this game")
    if answers is not None:
        if answers > game.seq:
            raise Conflict("StaleAction", f"the game is at {game.seq}, not {answers}")
        if entry.last_acted.get(mine.position, 0) > answers:
            raise Conflict("DuplicateAction", f"you already acted after {answers}")
    if mine.position in window.answered(game):
        raise Conflict("DuplicateAction", "you already answered this decision")
    # Seats the game waits for may act; so may any seat the engine offers an out-of-turn action
    # (cribbage's pause and muggins), which the engine itself then validates.
    if mine.position not in entry.engine.to_act() and not entry.engine.legal_actions(mine.position):
        raise Conflict("NotYourTurn", "the game is not waiting for you")
    return mine.position


def _hold(game: Game, entry: Replayed, position: int, now: int) -> None:
    """Raise ``Hold`` if ``position``'s answer would close a decision window too soon. Never past
    the seat's own deadline: a held answer must not lose to its clock running out meanwhile (the
    table sees that clock anyway, so the last moment before it tells nothing new)."""
    floor = settings.CALL_FLOOR_MS
    if floor <= 0 or entry.window_since is None or window.deciding(game, entry.engine) != [position]:
        return
    until = entry.window_since + floor
    expiry = clocks.first_expiry(game, _by_position(entry), [position])
    if expiry is not None:
        until = min(until, expiry[0] - 1)
    if now < until:
        raise Hold(until)


def apply_action_in_time(game_id: int, user: User, action_type: str, params: list[Any],
                         answers: int | None = None, seat: int | None = None) -> dict[str, Any]:
    """``apply_action`` for a caller that may wait in its own thread (REST, scripts): a held
    answer is slept on and sent again."""
    arrived = now_ms()
    while True:
        try:
            return apply_action(game_id, user, action_type, params, answers, seat, arrived=arrived)
        except Hold as held:
            time.sleep(max(0, held.until_ms - now_ms()) / 1000)


def _step(game: Game, now: int) -> bool:
    """One bounded step of what is due in ``game`` (locked by the caller): run-out clocks, then
    the seats the server plays. True if anything was played."""
    entry = _current(game)
    start, seq_before = len(entry.history), game.seq
    events = _expire(game, entry, now)
    _settle(game, entry, events, start, seq_before)
    return game.seq != seq_before


def expire_due(game_id: int, now: int | None = None, *, wait: bool = True) -> bool:
    """One step of what is due in ``game_id`` (clocks run out, seats the server plays); True if
    anything was played. The game may still be due afterwards: ``play_due`` goes on. ``wait``
    False: nothing is done if a writer of this process is at the game already (it will go on)."""
    now = now_ms() if now is None else now
    if not Game.objects.filter(id=game_id, status=Status.ACTIVE, deadline_ms__lte=now).exists():
        return False  # the common case costs one indexed read and no lock
    writer = engine_cache.writing(game_id)
    if not writer.acquire(blocking=wait):
        return False
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(id=game_id)
            if not _due(game, now):
                return False
            return _step(game, now)
    finally:
        writer.release()


def play_due(game_id: int, now: int | None = None) -> int:
    """Every step due in ``game_id`` now, each its own transaction (so every other client's work
    interleaves, and the pushes of each step go out before the next). Returns the steps played."""
    steps = 0
    while expire_due(game_id, now):
        steps += 1
    return steps


def expire_all_due(now: int | None = None) -> int:
    """The sweeper's pass: what is due in every game whose deadline has passed (clocks run out,
    seats the server plays), one bounded step per game in turn until none is due. Returns the
    number of games touched."""
    touched: set[int] = set()
    while True:
        moment = now_ms() if now is None else now
        due = list(Game.objects.filter(status=Status.ACTIVE, deadline_ms__lte=moment).values_list("id", flat=True))
        # A game another thread of this process is at (a player's move, a play-out) is left to it.
        played = {game_id for game_id in due if expire_due(game_id, moment, wait=False)}
        if not played:
            return len(touched)
        touched |= played


def forfeit(game: Game, seat: Seat) -> None:
    """A player left a game in progress: the server plays for them from now on. Called inside the
    caller's transaction with the row locked; the first step is played here, the rest is due at
    once (``play_due``, or the sweeper)."""
    if seat.forfeited:
        raise Forbidden("Forfeited", "you have already left this game")
    seat.forfeited = True
    seat.save(update_fields=["forfeited"])
    entry = _current(game)
    for cached in entry.seats:
        if cached.position == seat.position:
            cached.forfeited = True
    _seats_changed(game, entry)
    start = len(entry.history)
    push.to_lobby({"type": "PlayerForfeited", "game": game.id, "user": seat.user_id, "position": seat.position})
    events = _auto_play(game, entry)
    _commit(game, entry, events, start)


def _seats_changed(game: Game, entry: Replayed) -> None:
    """A seat's flags changed with no move: other processes' cached entries of this seq still have
    the old flags (they would not play a seat the server now plays), so the row's setup_version
    (unused once a game has started) moves on, and they rebuild."""
    game.setup_version += 1
    game.save(update_fields=["setup_version"])
    entry.version = game.setup_version


def set_away(game_id: int, user: User, away: bool) -> bool:
    """``user``'s client went away from a game in progress without leaving it (``away``), or came
    back. While away, the server plays the seat's default moves, flagged auto-played, as a
    forfeited seat's: majiang-server answers for a disconnected player the same way, and the game
    goes on for the others. Unlike a forfeit it is taken back: back, the player decides again.
    True if anything changed; a seat that left for good (forfeited) stays so."""
    with engine_cache.writing(game_id), transaction.atomic():
        game = move_sql.locked_game(game_id)
        if game is None:
            raise NotFound("UnknownGame", f"no game {game_id}")
        if game.status != Status.ACTIVE:
            return False
        seat = game.seats.filter(user_id=user.id).exclude(position=None).first()
        if seat is None:
            raise Forbidden("NotInGame", "you are not playing in this game")
        if seat.forfeited or seat.away == away:
            return False
        seat.away = away
        seat.save(update_fields=["away"])
        entry = _current(game)
        for cached in entry.seats or []:
            if cached.position == seat.position:
                cached.away = away
        _seats_changed(game, entry)
        start = len(entry.history)
        events = _auto_play(game, entry) if away else []
        _commit(game, entry, events, start)
    if away:
        play_due(game_id)  # what is due for the seat now, in bounded steps of their own
    return True


def abort(game_id: int, *, adjourned_since: int | None = None) -> Game:
    """End a game unfinished (staff, or an abandoned game: ``adjourned_since``, the absence the
    abandon watch saw, aborts it only if it is still adjourned from that same absence)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None:
            raise NotFound("UnknownGame", f"no game {game_id}")
        if game.is_over:
            raise Conflict("GameNotActive", "the game is already over")
        if adjourned_since is not None and (game.status != Status.ADJOURNED
                                            or game.absent_since_ms != adjourned_since):
            raise Conflict("GameResumed", "a player came back to the game")
        game.status = Status.ABORTED
        game.ended = timezone.now()
        game.save(update_fields=["status", "ended"])
        push.to_lobby({"type": "GameInactive", "game": game.id, "status": game.status})
    return game


def note_absent(game_id: int, since: int) -> bool:
    """Record that none of the game's people is connected since ``since`` (the abandon watch,
    games/abandon.py); kept if an earlier moment is already recorded. True if recorded now."""
    return bool(Game.objects.filter(id=game_id, status__in=[Status.ACTIVE, Status.ADJOURNED], absent_since_ms=None)
                .update(absent_since_ms=since))


def adjourn(game_id: int, absent_since: int, seq: int, gone_since: int) -> bool:
    """Stop an untimed game whose people all went away (games/abandon.py decides when): moves are
    refused (``GameAdjourned``) and nothing is played for its seats until one of them comes back
    (``resume``). Only if nothing changed since the watch looked: the same absence and no move
    since (``seq``). The absence is then stored as ``gone_since`` (the later of it and their last
    move), which the abort counts from. True if it was adjourned."""
    with engine_cache.writing(game_id), transaction.atomic():
        game = move_sql.locked_game(game_id)
        if (game is None or game.status != Status.ACTIVE or clocks.is_timed(game)
                or game.absent_since_ms != absent_since or game.seq != seq):
            return False
        game.status = Status.ADJOURNED
        game.absent_since_ms = gone_since
        game.save(update_fields=["status", "absent_since_ms"])
        push.to_lobby({"type": "GameAdjourned", "game": game.id, "status": game.status})
    return True


def resume(game_id: int) -> bool:
    """One of the game's people is back: an adjourned game is in progress again, exactly where it
    stopped, and the absence is forgotten. True if the game was adjourned."""
    with engine_cache.writing(game_id), transaction.atomic():
        game = move_sql.locked_game(game_id)
        if game is None or game.status not in (Status.ACTIVE, Status.ADJOURNED):
            return False
        adjourned = game.status == Status.ADJOURNED
        if not adjourned and game.absent_since_ms is None:
            return False
        game.status = Status.ACTIVE
        game.absent_since_ms = None
        game.save(update_fields=["status", "absent_since_ms"])
        if adjourned:
            push.to_lobby({"type": "GameResumed", "game": game.id, "status": game.status})
    if adjourned:
        play_due(game_id)  # a house bot's turn that was due when play stopped
    return adjourned


def viewer_position(game: Game, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    seat = game.seats.filter(user_id=user.id).exclude(position=None).first()
    return seat.position if seat else None


def _position(entry: Replayed, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s.position for s in entry.seats or [] if s.user_id == user.id), None)


def _reveal(game: Game, user: User | None) -> bool:
    # Not even staff see hidden tiles of a live game here: a staff member may be playing in it or
    # talking to someone who is. The admin shows the action log, which is for after the fact.
    return game.is_over


@contextmanager
def _reading(game: Game) -> Iterator[Replayed]:
    """The current state for reading. The cached entry is taken out while it is read, so no writer
    (which takes it to change it) and no other reader can share it with us; put back afterwards
    unless a writer has put a newer one meanwhile. A writer that finds it gone rebuilds its own."""
    # Never waits for a writer: a reader may run inside a transaction that a writer queued on
    # the same lock waits for. A game being written is read from its log instead.
    writer = engine_cache.writing(game.id)
    free = writer.acquire(blocking=False)
    try:
        entry = engine_cache.take(game.id, game.seq, game.setup_version) if free else None
        if entry is None:
            # Up to the seq already read: a move committed meanwhile must not mix two versions.
            entry = replay(game, upto=game.seq)
        _with_seats(game, entry)
        try:
            yield entry
        finally:
            if free and entry.seq == game.seq:
                engine_cache.offer(game.id, entry)
    finally:
        if free:
            writer.release()


def _delay_cut(game: Game) -> int | None:
    """The last seq a spectator of ``game`` may see now, when the table shows its spectators the
    game late (``Game.spectator_delay``); None: everything."""
    if not game.spectator_delay or game.status not in (Status.ACTIVE, Status.ADJOURNED):
        return None
    cutoff = now_ms() - game.spectator_delay * 1000
    return game.actions.filter(timestamp_ms__lte=cutoff).order_by("-seq").values_list("seq", flat=True).first() or 0


@contextmanager
def _as_seen(game: Game, user: User | None) -> Iterator[tuple[Replayed, int | None, bool]]:
    """The state ``user`` may see now, their position and whether it is late: the current one, or
    for a spectator of a delayed table the state as it was ``spectator_delay`` seconds ago (rebuilt
    from the log; only Snapshots, history and replays read it, never a move)."""
    with _reading(game) as entry:
        viewer = _position(entry, user)
        cut = _delay_cut(game) if viewer is None else None
        if cut is not None and cut < entry.seq:
            yield _with_seats(game, replay(game, upto=cut)), viewer, True
        else:
            yield entry, viewer, False


def seat_view(game: Game, position: int | None) -> dict[str, Any]:
    """The engine's view for one seat (None: a spectator) without the history: what a transport
    that answers every command with the current state needs, and no more."""
    with _reading(game) as entry:
        return entry.engine.view(position, reveal_all=_reveal(game, None))


def history(game: Game, user: User | None, start: int = 0) -> dict[str, Any]:
    """Game history messages ``start``.. as ``user`` may see them."""
    if start < 0:
        raise GameError("InvalidStart", "start must not be negative")
    if game.status == Status.SETUP or game.seed is None:
        return {"game": game.id, "v": game.seq, "start": start, "messages": []}
    if game.status == Status.FINISHED:
        return {"game": game.id, "v": game.seq, "start": start, "messages": _record(game).history[start:]}
    with _as_seen(game, user) as (entry, viewer, _late):
        return {"game": game.id, "v": entry.seq, "start": start,
                "messages": render_history(entry.history, viewer, _reveal(game, user), start)}


def snapshot(game: Game, user: User | None, start: int = 0) -> dict[str, Any]:
    """A fresh per-seat picture of a game, for a client that reconnects or saw a gap. ``start`` is
    how many history messages the client already holds: only the rest is sent (``history_start``
    says from where), so a client that follows a game never receives its whole history twice."""
    if start < 0:
        raise GameError("InvalidStart", "start must not be negative")
    base = {"type": "Snapshot", "game": game.id, "status": game.status, "v": game.seq,
            "chat": table_chat(game)}
    if game.seed is None:
        return {**base, "view": None, "history": [], "history_start": 0, "to_act": [], "legal": []}
    if game.status == Status.FINISHED:
        return {**base, **_finished_snapshot(game, user, start)}
    with _as_seen(game, user) as (entry, viewer, late):
        if start > len(entry.history):
            raise GameError("InvalidStart", f"the game has {len(entry.history)} history messages, not {start}")
        reveal = _reveal(game, user)
        engine = entry.engine
        seated = entry.seats or []
        waiting = [] if engine.is_over else engine.to_act()
        told, may_act = window.as_seen_by(game, engine, viewer) if waiting and not late else (waiting, True)
        return {
            **base,
            "v": entry.seq,
            "position": viewer,
            "players": players(seated),
            "view": engine.view(viewer, reveal_all=reveal),
            "history_start": start,
            "history": render_history(entry.history, viewer, reveal, start),
            "to_act": told,
            # A late picture's clocks would be the present's (or stale): a delayed spectator gets none.
            "clocks": None if late else clocks.describe(game, seated, waiting, now_ms()),
            # A seat whose answer to the open window is kept back has nothing more to decide.
            "legal": engine.legal_actions(viewer) if viewer is not None and may_act and not engine.is_over else [],
            "result": game.result,
        }


def _finished_snapshot(game: Game, user: User | None, start: int) -> dict[str, Any]:
    record = _record(game)
    if start > len(record.history):
        raise GameError("InvalidStart", f"the game has {len(record.history)} history messages, not {start}")
    seated = _seated(game)
    viewer = next((s.position for s in seated if user is not None and s.user_id == getattr(user, "id", None)), None)
    return {"position": viewer, "players": players(seated), "view": record.view(viewer),
            "history_start": start, "history": record.history[start:], "to_act": [],
            "clocks": clocks.describe(game, seated, [], now_ms()), "legal": [], "result": game.result}


def replay_step(game: Game, user: User | None, step: int) -> dict[str, Any]:
    """The state after the first ``step`` actions: all visible for a finished game, only the
    requester's view for one in progress."""
    if game.seed is None:
        raise Conflict("GameNotStarted", "the game has not started")
    viewer = viewer_position(game, user)
    steps = game.seq
    if viewer is None:
        cut = _delay_cut(game)  # a delayed table's spectators step only through what they have seen
        steps = steps if cut is None else min(steps, cut)
    if not 0 <= step <= steps:
        raise GameError("InvalidStep", f"step must be between 0 and {steps}")
    if game.is_over:
        return _stored_step(game, viewer, step)
    return {**logged_step(game, viewer, step, reveal=False), "steps": steps}


def logged_step(game: Game, viewer: int | None, step: int, *, reveal: bool) -> dict[str, Any]:
    """``replay_step`` from the log: the first ``step`` actions replayed. A game in progress is
    stepped so (only the viewer's own view, nothing revealed); a finished one only to check its
    replay frames against."""
    # Which step brought each message: a client finds where a part of the game (a riichi hand)
    # begins from one answer instead of one request per step. One int per message, as cheap as
    # the history itself.
    message_steps: list[int] = []
    entry = replay(game, upto=step, message_steps=message_steps)
    return {"game": game.id, "step": step, "steps": game.seq,
            "view": entry.engine.view(viewer, reveal_all=reveal),
            "history": render_history(entry.history, viewer, reveal),
            "message_steps": message_steps}


def _stored_step(game: Game, viewer: int | None, step: int) -> dict[str, Any]:
    """``replay_step`` of a game that is over, read from its record and replay frames: one chunk
    and at most ``frames.EVERY`` small patches, whatever the step."""
    fields = ("history", "message_steps", "frames_every")
    record = GameRecord.objects.filter(game=game).only(*fields).first()
    if record is None or record.message_steps is None:
        build_frames(game)
        record = GameRecord.objects.only(*fields).get(game=game)
    frame = ReplayFrame.objects.filter(game=game, chunk=step // record.frames_every)
    chunk = frame.values_list("data", flat=True).get()
    view = frames.view_at(bytes(chunk), step % record.frames_every,
                          frames.SPECTATOR if viewer is None else str(viewer))
    count = bisect.bisect_right(record.message_steps, step)
    return {"game": game.id, "step": step, "steps": game.seq, "view": view,
            "history": record.history[:count], "message_steps": record.message_steps[:count]}


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
        if game_id is None:
            push.to_lobby(payload)
        else:
            # A table's chat is the table's business: its players and spectators, not the lobby.
            push.to_game(game_id, list(Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True)),
                         payload)
    return payload


def chat_item(message: ChatMessage) -> dict[str, Any]:
    return {"game": message.game_id, "id": message.id, "user": message.user_id,
            "username": message.user.username, "text": message.text, "at": message.created.isoformat()}


def table_chat(game: Game) -> list[dict[str, Any]]:
    """``recent_chat`` of a table, as of the given row (kept per process, see chat_cache)."""
    return chat_cache.get(game.id, game.chat_version, lambda: recent_chat(game.id))


def recent_chat(game_id: int | None, limit: int = RECENT_CHAT) -> list[dict[str, Any]]:
    """The last messages of a table's chat (or the lobby's), oldest first."""
    latest = ChatMessage.objects.filter(game_id=game_id).select_related("user").order_by("-id")[:limit]
    return [chat_item(m) for m in reversed(latest)]
