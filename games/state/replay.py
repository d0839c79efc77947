"""A game's state from its action log: the engine replayed, and the per-process cache of engines
of games in progress (docs/architecture.md, "The live path").

Everything above reads or changes a game through a ``Replayed`` entry: the engine brought up to the
row's ``seq``, every history message it produced, and who acted last. Visibility is decided in one
place, ``Event.render`` through ``render_history``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.core.engine import Engine, Event
from games.core.registry import get_game_type
from games.models import Game, Seat


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


def in_window(engine: Engine) -> bool:
    window = getattr(engine, "decision_window", None)
    return bool(window and window())


def track_window(entry: Replayed, was_open: bool, at: int) -> None:
    """After an action at ``at``: a window that just opened starts its minimum time from then."""
    if not in_window(entry.engine):
        entry.window_since = None
    elif not was_open or entry.window_since is None:
        entry.window_since = at


class _EngineCache:
    """Engines of games in progress, per process. An entry is used only up to the locked row's
    seq: one behind it (another process moved the game since) is brought up to date with the
    actions it lacks (``caught_up``), never replayed from the start.

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
        """The game's entry, taken out of the cache, if it is of this ``version`` of the seats and
        not beyond ``seq``; it may be behind (``caught_up`` brings it up to ``seq``)."""
        with self._lock:
            entry = self._entries.pop(game_id, None)
        return entry if entry is not None and entry.seq <= seq and entry.version == version else None

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


def new_engine(game: Game) -> Engine:
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode)
    return game_type.engine_class().create(mode=mode, seed=game.seed, rules=game.rules)


def replay(game: Game, upto: int | None = None, *, message_steps: list[int] | None = None) -> Replayed:
    """Rebuild a game from its action log (the first ``upto`` actions, or all of them).

    ``message_steps``, if given, receives for each history message the step (the seq of the
    action) that produced it."""
    *_, entry = replaying(game, upto, message_steps)
    return entry


def replaying(game: Game, upto: int | None = None, message_steps: list[int] | None = None) -> Iterator[Replayed]:
    """``replay``, step by step: the entry before the first action, then after each (the same
    entry, changed)."""
    entry = Replayed(0, new_engine(game), version=game.setup_version)
    yield entry
    yield from _applying(game, entry, upto, message_steps)


def caught_up(game: Game, entry: Replayed, upto: int | None = None) -> Replayed:
    """``entry`` (a cached engine of ``game``, possibly behind: another process moved the game)
    brought up to ``upto`` (the row's seq) with the actions of the log it lacks: the same state a
    replay from the start reaches, as the engines are deterministic, for the cost of those actions."""
    for _ in _applying(game, entry, upto if upto is not None else game.seq, None):
        pass
    return entry


def _applying(game: Game, entry: Replayed, upto: int | None, message_steps: list[int] | None) -> Iterator[Replayed]:
    """Apply the log's actions after ``entry.seq`` (up to ``upto``) to ``entry``, yielding it after each."""
    if upto is not None and upto <= entry.seq:
        return  # up to date (a cached engine, the usual case): no query built, none run
    engine = entry.engine
    actions = game.actions.filter(seq__gt=entry.seq).order_by("seq") if entry.seq else game.actions.order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    for action in actions.values_list("seq", "seat", "type", "params", "timestamp_ms"):
        seq, seat, action_type, params, at = action
        was_open = in_window(engine)
        entry.history.extend(engine.apply(seat, action_type, params))
        if message_steps is not None:
            message_steps.extend([seq] * (len(entry.history) - len(message_steps)))
        track_window(entry, was_open, at)
        entry.seq = seq
        if seat is not None:
            entry.last_acted[seat] = seq
        yield entry


def with_seats(game: Game, entry: Replayed) -> Replayed:
    if entry.seats is None:
        entry.seats = seated(game)
    return entry


def players(seats: list[Seat]) -> list[dict[str, Any]]:
    return [{"user": s.user_id, "username": s.user.username, "bot": s.user.is_bot, "position": s.position,
             "team": s.team, "forfeited": s.forfeited} for s in seats]


def seated(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").exclude(position=None).order_by("position"))


def render_history(history: list[Event], viewer: int | None, reveal_all: bool, start: int = 0) -> list[dict[str, Any]]:
    return [event.render(viewer, reveal_all) for event in history[start:]]
