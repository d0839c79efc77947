"""The write path: the only code that changes a game in progress (``door`` is how transports reach it).

Applying an action: lock the game row, take the engine state (``games.state.replay``: cached in this
process when it is current, else rebuilt from the log), apply, append to the log, commit, and after
commit push every seat its own view of the new history messages (rendered by ``Event.render``
through ``state.render_history``, the one place visibility is decided).

The path of one action is lean on purpose (docs/architecture.md, "The live path"): one locked read
of the game row, the append, the row update. Seats, positions, who acted last and the engine
travel together in the per-process cache, validated by the row's ``seq``. Seats the server plays
(forfeited players, house bots) are played in bounded steps, each its own transaction with its
pushes after it, so a long play-out never holds the row (or the SQLite file) for long. The action
that ends a game writes its record (``games.records.store``) in the same transaction.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from games.core import bots as bot_accounts
from games.core.engine import Event, Rejection
from games.core.errors import Conflict, Forbidden, GameError, NotFound
from games.core.registry import get_game_type
from games.models import Game, Seat, Status
from games.records import store
from games.service import clocks, move_sql, push, ratings, reads, window
from games.state import replay as state

log = logging.getLogger(__name__)

# Forfeited seats and house bots are played by the server, at most this many actions per
# transaction; the rest follow in further steps (``play_due``), with pushes between them.
AUTO_STEP = 24
# Why a move at an adjourned table (lifecycle.adjourn) is refused, here and at the lobby.
ADJOURNED_REASON = "the game is adjourned (every player was away); it goes on when a player connects again"


class Hold(Exception):  # noqa: N818 - not an error: "come back at until_ms"
    """The answer that would close a decision window came before the window's minimum time: it
    is not applied (nothing changed); the caller sends it again at ``until_ms``."""

    def __init__(self, until_ms: int) -> None:
        self.until_ms = until_ms
        super().__init__(f"held until {until_ms}")


def current(game: Game) -> state.Replayed:
    """The game's engine, seats and history for a writer holding the row lock. The entry is taken
    out of the cache: it goes back only once the change commits (or is refused)."""
    cached = state.engine_cache.take(game.id, game.seq, game.setup_version)
    return state.with_seats(game, state.caught_up(game, cached) if cached is not None else state.replay(game))


def _deliveries(game: Game, entry: state.Replayed, events: list[Event], start: int, to_act: list[int],
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
                "clocks": clock_list, "messages": state.render_history(events, viewer, reveal),
                "view": engine.view(viewer, reveal_all=reveal), "legal": legal}

    deliveries: list[push.Delivery] = [(push.user_group(s.user_id), rendered(s.position), []) for s in seats]
    deliveries.append((push.game_group(game.id), rendered(None), [s.user_id for s in seats]))
    return deliveries


def _append(game: Game, entry: state.Replayed, seat: int | None, action_type: str, params: list[Any], *,
            auto: bool = False, answers: int | None = None, at: int | None = None,
            arrived: int | None = None) -> list[Event]:
    """Apply one action to ``entry``, the clocks and the log, or keep it back: an answer that
    leaves a decision window open is kept (games/service/window.py) and changes nothing public; the one
    that closes it applies the kept answers first. The caller holds the row lock. ``arrived``: when
    a held answer first came (``Hold``); its seat's clock stops then, not when the floor let it
    through."""
    at = clocks.now_ms() if at is None else at
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


def _apply(game: Game, entry: state.Replayed, seat: int | None, action_type: str, params: list[Any], *,
           auto: bool, answers: int | None, at: int, arrived: int | None, restart: int | None = None) -> list[Event]:
    """``_append``'s change itself, logged at ``at``; the clocks are charged up to ``arrived`` (if
    earlier) and restart from ``restart`` (default ``at``)."""
    waiting = entry.engine.to_act()
    hand = clocks.hands_dealt(entry.engine)  # a new hand renews a per-decision clock's banks
    was_open = state.in_window(entry.engine)
    events = entry.engine.apply(seat, action_type, params)
    state.track_window(entry, was_open, at)
    clocks.charge(game, _by_position(entry), waiting, seat, at if arrived is None else min(arrived, at),
                  entry.engine, hand, restart=at if restart is None else restart)
    game.seq += 1
    entry.seq = game.seq
    entry.history.extend(events)
    if seat is not None:
        entry.last_acted[seat] = game.seq
    move_sql.insert_action(game, seq=game.seq, seat=seat, type=action_type, params=params,
                           timestamp_ms=at, auto=auto, answers=answers)
    return events


def _by_position(entry: state.Replayed) -> dict[int, Seat]:
    return {s.position: s for s in entry.seats or []}


def _server_played(entry: state.Replayed) -> tuple[set[int], set[int]]:
    """The positions the server plays: forfeited players, players away (``set_away``), and house
    bots."""
    seats = entry.seats or []
    # An operator's mjai bot decides over its bridge's link, as a person does; while it is away
    # (its bridge died, or never came) the house bot plays its seat (docs/protocols/mjai.md).
    bots = {s.position for s in seats if s.user.is_bot and not s.forfeited
            and (s.away or bot_accounts.server_chooses(s.user.username))}
    absent = {s.position for s in seats if (s.forfeited or s.away) and s.position not in bots}
    return absent, bots


def _auto_pending(game: Game, entry: state.Replayed) -> bool:
    if entry.engine.is_over:
        return False
    absent, bots = _server_played(entry)
    return any(p in absent or p in bots for p in window.deciding(game, entry.engine))


def auto_play(game: Game, entry: state.Replayed, limit: int = AUTO_STEP) -> list[Event]:
    """Play the seats the server plays (forfeited state.players, house bots) until the game waits for
    a person who is still there, or ``limit`` actions are made (the rest is due at once and
    follows in the next step). Forfeited seats get the engine's automatic action, flagged as
    auto-played; house bots make their own decisions, which are ordinary moves."""
    absent, bots = _server_played(entry)
    # Each bot seat's chooser, named by its account (a bot level's, or the game's house bot:
    # games/core/bots.py): a look-up a seat, however long the game.
    game_type = get_game_type(game.game_type)
    choosers = {s.position: bot_accounts.chooser(game_type, s.user.username)
                for s in entry.seats or [] if s.position in bots}
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
            action_type, params = choosers[seat](engine.view(seat), engine.legal_actions(seat), rng)
            events += _append(game, entry, seat, action_type, params)
    return events


def _expire(game: Game, entry: state.Replayed, now: int, limit: int = AUTO_STEP) -> list[Event]:
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
        events += auto_play(game, entry)
    return events + auto_play(game, entry)


def _finish_if_over(game: Game, entry: state.Replayed) -> None:
    if entry.engine.is_over and game.status == Status.ACTIVE:
        game.status = Status.FINISHED
        game.result = entry.engine.result()
        # Sets ``ended`` too: after locking a rated game's players, so games that share a player
        # end in the order their ratings changed (docs/ratings.md).
        ratings.settle(game, entry.seats or state.seated(game))
        move_sql.write_actions(game)  # the record is checked against the log (RECORDS_VERIFY_ON_WRITE)
        store.store_record(game, entry)
        push.to_lobby({"type": "GameInactive", "game": game.id, "status": game.status, "result": game.result},
                      game=game.id, users=[s.user_id for s in entry.seats or state.seated(game)])


def commit(game: Game, entry: state.Replayed, events: list[Event], start: int) -> None:
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
    clock_list = clocks.describe(game, seats, waiting, clocks.now_ms())

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
                state.engine_cache.put(game.id, entry)

    # Robust: the move is stored; a failed push is logged, and clients resync on the gap they see.
    # (A finished game's replay frames are built by its first replay step asked, not here: most
    # games are never replayed, and building them is a whole replay, a fifth of a busy server's time.)
    transaction.on_commit(committed, robust=True)


def _set_deadline(game: Game, entry: state.Replayed) -> None:
    """The first moment the game needs the server: a clock running out, or now for a seat the
    server plays. Seats whose answer is kept (games/service/window.py) wait for nothing."""
    clocks.set_deadline(game, _by_position(entry), [] if entry.engine.is_over else window.deciding(game, entry.engine))
    if _auto_pending(game, entry):
        now = clocks.now_ms()
        game.deadline_ms = now if game.deadline_ms is None else min(game.deadline_ms, now)


def _keep_quietly(game: Game, entry: state.Replayed) -> None:
    """Store an answer kept back (games/service/window.py): the row's kept answers and deadline, nothing
    else. No push, no seq, no history: nothing anyone else can see changes."""
    _set_deadline(game, entry)
    move_sql.save_game(game, ("window_answers", "deadline_ms"))
    transaction.on_commit(lambda: state.engine_cache.put(game.id, entry), robust=True)


def _settle(game: Game, entry: state.Replayed, events: list[Event], start: int, seq_before: int) -> None:
    """End a writer's transaction: ``commit`` if the log grew, else the answer was kept back."""
    if game.seq == seq_before and not events:
        _keep_quietly(game, entry)
    else:
        commit(game, entry, events, start)


def start_game(game: Game, seats: list[Seat]) -> None:
    """Called by the lobby inside its transaction once the table is full and accepted."""
    entry = state.replay(game)
    entry.seats = sorted(seats, key=lambda s: s.position)
    start = len(entry.history)
    clocks.start(game, seats, clocks.now_ms())
    events: list[Event] = []
    for seat, action_type, params in entry.engine.initial_actions():
        events += _append(game, entry, seat, action_type, params)
    events += auto_play(game, entry)
    push.to_lobby({"type": "GameStarted", "game": game.id, "display_number": game.display_number,
                   "game_type": game.game_type, "mode": game.mode, "players": state.players(entry.seats)},
                  game=game.id, users=[s.user_id for s in entry.seats])
    commit(game, entry, events, start)


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
        with state.engine_cache.writing(game_id), transaction.atomic():
            game = move_sql.locked_game(game_id)
            if game is None:
                raise NotFound("UnknownGame", f"no game {game_id}")
            now = clocks.now_ms()
            if attempt == 0 and _due(game, now) and game.seed is not None:
                _step(game, now)
                continue
            if game.status != Status.ACTIVE:
                if seat is not None and reads.viewer_position(game, user) != seat:
                    raise Forbidden("NotYourSeat", f"you do not play seat {seat}")
                if game.status == Status.ADJOURNED:
                    raise Conflict("GameAdjourned", ADJOURNED_REASON)
                raise Conflict("GameNotActive", "the game is not in progress")
            entry = current(game)
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
                state.engine_cache.put(game.id, entry)  # a refused or held request leaves the entry as it was
                raise
            events += auto_play(game, entry)
            _settle(game, entry, events, start, seq_before)
            break
    return {"game": game.id, "v": game.seq}


def _claim(game: Game, entry: state.Replayed, user: User, seat: int | None, answers: int | None) -> int:
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


def _hold(game: Game, entry: state.Replayed, position: int, now: int) -> None:
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
    arrived = clocks.now_ms()
    while True:
        try:
            return apply_action(game_id, user, action_type, params, answers, seat, arrived=arrived)
        except Hold as held:
            time.sleep(max(0, held.until_ms - clocks.now_ms()) / 1000)


def _step(game: Game, now: int) -> bool:
    """One bounded step of what is due in ``game`` (locked by the caller): run-out clocks, then
    the seats the server plays. True if anything was played."""
    entry = current(game)
    start, seq_before = len(entry.history), game.seq
    events = _expire(game, entry, now)
    _settle(game, entry, events, start, seq_before)
    return game.seq != seq_before


def expire_due(game_id: int, now: int | None = None, *, wait: bool = True) -> bool:
    """One step of what is due in ``game_id`` (clocks run out, seats the server plays); True if
    anything was played. The game may still be due afterwards: ``play_due`` goes on. ``wait``
    False: nothing is done if a writer of this process is at the game already (it will go on)."""
    now = clocks.now_ms() if now is None else now
    if not Game.objects.filter(id=game_id, status=Status.ACTIVE, deadline_ms__lte=now).exists():
        return False  # the common case costs one indexed read and no lock
    writer = state.engine_cache.writing(game_id)
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
        moment = clocks.now_ms() if now is None else now
        due = list(Game.objects.filter(status=Status.ACTIVE, deadline_ms__lte=moment).values_list("id", flat=True))
        # A game another thread of this process is at (a player's move, a play-out) is left to it.
        played = {game_id for game_id in due if expire_due(game_id, moment, wait=False)}
        if not played:
            return len(touched)
        touched |= played
