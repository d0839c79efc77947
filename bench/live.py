"""The live path: bot clients over the bot WebSocket against Daphne child processes.

    .venv/bin/python bench/live.py --game acquire|cribbage|riichi [--tables 50] [--seconds 30]
        [--daphnes 1] [--split seats|tables] [--seed 0] [--server-tree DIR]

``--tables`` tables of one game type play at once (Acquire: Singles 4, four bot clients per table;
cribbage: Two players, two; ``GAMES`` below), every seat a client of its own on ``/ws/bot/``
(``websockets``), logged in with an API token of its own user, deciding with the game's built-in
bot (``GameType.bot()``: ``games.acquire.bots.house.choose``, ``games.cribbage.bots.house.choose``)
exactly as a remote bot would:

- a ``GameMessages`` push that carries ``legal`` (and ``view``, the seat's engine view after the
  action) is decided from directly: if ``legal`` holds a decision for this seat, the client sends
  ``DoGameAction`` answering the push's ``v``. Cribbage offers every seat ``pause`` at all times;
  that alone is no decision. Cribbage's discard to the crib is simultaneous: both seats are in
  ``to_act`` and each answers its own push;
- a push without ``legal`` (a server older than that field) takes the old path: a client named in
  ``to_act`` sends ``Resync`` and decides from the ``Snapshot``. So the same bench measures the old
  server for "before" figures (``--server-tree``: run the server of another checkout, e.g.
  ``git archive HEAD`` unpacked in a temporary directory); ``decided_from`` says which path ran.

Either way a client with an action in flight makes no other until its ``ActionApplied`` (or
``Error``) is back, and then decides only from a push at least as new as the ``v`` its own action
made: a push that arrived in between (the other seat's discard) is already stale. Without that, the
second discarder would answer the first one's push too and draw ``DuplicateAction``.

A client keeps the history it was sent: a push whose ``start`` is beyond the history it holds
shows that a frame was dropped (the channel layer drops frames for a client whose queue is full)
or overtaken (two server processes push in the order their commits reach Redis, not the order of
the commits; ``late`` counts the pushes that arrive after a newer one), and the client sends
``Resync`` with ``"from"`` = what it holds. A server that knows ``from`` answers with
``history_start`` and only the rest of the history; an older one sends the whole history; both are
understood. Those are ``gaps``. A seat that has not reached, ``LAG_SECONDS`` later, the ``v``
another seat of its table had, or a table silent for ``SILENCE_SECONDS``, is resynced too
(``stalls``).

Each seat learns its position from a ``Snapshot`` before the window (the old path needs it). When
the window opens, whoever that Snapshot gave a decision moves; after that the game runs on pushes
alone (on an old server, on the Snapshots its pushes ask for). A finished table starts a new game
at once over the WebSocket (CreateGame, JoinGame, AcceptSetup; on an old server each seat then
resyncs to learn its position, on a new one the first push carries its decision), so the load stays
at ``--tables`` games for the whole ``--seconds`` measuring window.

Reported: actions per second (``ActionApplied`` received in the window); p50 / p99 of the time from
sending an action to every seat of its table having received the ``GameMessages`` carrying the
``v`` that action made (keyed by the ``v`` its ``ActionApplied`` names, so simultaneous moves are
told apart); ``incomplete``: actions applied in the window that some seat never received
(``GRACE_SECONDS`` of grace after the window); ``resyncs`` sent in the window; ``errors``:
``Error`` replies in the window, by code; client tasks that died and tracebacks in the server logs
(the first one is printed); the CPU each server process used in the window (cores busy), their sum,
the CPU of this process (all the bot clients; on a small machine they, the database and Redis
compete with the servers for cores), and the cores the whole machine was busy (every process, from
/proc/stat): near the machine's core count, the run measures the machine, not the server.

The server: ``--daphnes`` Daphne child processes (``config.asgi:application``), each on a port of
its own, against one database: a fresh SQLite file in a temporary directory, or the PostgreSQL of
``DATABASE_URL`` when set (bench users get a random name prefix there, and the games stay in that
database, the unfinished ones aborted at the end). ``REDIS_URL``, when set, is the channel layer;
two or more Daphnes need it, since only the Redis layer carries a push from the process that
applied a move to clients on another. With ``--split seats`` (the default) the seats of every table
alternate between the processes (the ``i``-th client connects to process ``i mod N``, so with an
even number of seats every table has seats on each), so most moves are applied in one process and
pushed through Redis to seats on another, and each process finds its cached engine outdated by the
other's moves and rebuilds it from the log: the honest test of scale-out. ``--split tables`` puts
all seats of a table on one process (tables alternate), the best case. The users are made by a
helper process (``manage.py shell``, which migrates first); the first tables are opened through the
lobby code in a helper process while the clients are connected (the same code the consumer calls,
without the broadcast of every set-up step to every client); everything after that is WebSocket.

``--balancer`` runs the ``--daphnes`` servers as ``make cluster`` does (``manage.py serve`` behind
HAProxy, deploy/cluster.py; PostgreSQL and Redis) and connects every client to HAProxy, which gives
each WebSocket to the process with the fewest: about half of every table's seats on each, as
``--split seats``. HAProxy's CPU is reported beside the servers'.

The bot clients log in with ``"lobby": false``: a bot at a table does not follow the lobby
(docs/protocols/lobby.md, "Following the lobby"), so it hears its own table's set-up, start and end
and nothing of the other tables'. ``--follow-lobby`` makes them follow it, as every client did
before lobby messages were scoped. Reported: frames per action, and of them the lobby's.

The last line printed is one JSON object with the figures. ``run()`` is what bench/acquire.py part
(b) calls.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from games.transport import lobby_frames  # noqa: E402 - pure, no Django: the clients read the lobby's frames

LAG_SECONDS = 5.0  # a seat this far behind its table's latest v lost a frame
SILENCE_SECONDS = 30.0  # a table this long without a frame lost one for every seat
GRACE_SECONDS = 30.0  # after the window, how long the pushes of actions made in it may take
Choose = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]


@dataclass(frozen=True)
class GameSpec:
    """What the bench needs of a game type: the mode it opens and which actions are no decision."""

    key: str  # the game type (games.core.registry)
    mode: int  # the mode id every table opens
    # Action types a seat may take at any time but never has to: the game does not wait for them,
    # so a ``legal`` holding only these is no decision to make.
    optional: frozenset[str] = frozenset()

    @property
    def seats(self) -> int:
        return self._mode().seats

    @property
    def mode_name(self) -> str:
        return self._mode().name

    def _mode(self) -> Any:
        from games.core.registry import get_game_type

        game_type = get_game_type(self.key)
        assert game_type is not None and game_type.mode(self.mode) is not None, (self.key, self.mode)
        return game_type.mode(self.mode)

    def bot(self) -> Choose:
        from games.core.registry import get_game_type

        game_type = get_game_type(self.key)
        assert game_type is not None
        return game_type.bot()

    def decides(self, legal: list[dict[str, Any]]) -> bool:
        return any(action["type"] not in self.optional for action in legal)


GAMES: dict[str, GameSpec] = {
    "acquire": GameSpec("acquire", 4),  # Singles 4
    # Two players; every seat may pause at any time (docs/cribbage-engine.md), the bot never does.
    "cribbage": GameSpec("cribbage", 2, frozenset({"pause"})),
    # Four players; after a discard every other seat answers (a pass, if nothing else).
    "riichi": GameSpec("riichi", 4),
}

SETUP_BENCH_USERS = """
import json, os
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", interactive=False, verbosity=0)
prefix, count = os.environ["BENCH_PREFIX"], int(os.environ["BENCH_USERS"])
users = [User(username=f"{prefix}{n}") for n in range(count)]
for user in users:
    user.set_unusable_password()
User.objects.bulk_create(users)
users = User.objects.filter(username__startswith=prefix).order_by("id")
print(json.dumps([[u.id, u.username, token_for(u)] for u in users]))
"""
# The first games are opened through the lobby in a helper process, while the clients are already
# connected: the same lobby code the consumer calls, minus one broadcast to every client per
# set-up step (some 2,800 frames per Acquire table at 200 clients, which took one server over a
# minute; the helper runs without REDIS_URL, so its pushes go nowhere). Games started later, when
# one ends inside the window, are set up over the WebSocket.
SETUP_BENCH_TABLES = """
import json, os
from accounts.models import User
try:  # the server tree may be of any revision: the service's package, or the earlier loose modules
    from games.service import lobby
except ImportError:
    from games import lobby
prefix, game_type = os.environ["BENCH_PREFIX"], os.environ["BENCH_GAME_TYPE"]
mode, size = int(os.environ["BENCH_MODE"]), int(os.environ["BENCH_TABLE_SIZE"])
users = list(User.objects.filter(username__startswith=prefix).order_by("id"))
games = []
for begin in range(0, len(users) - size + 1, size):
    host, *guests = users[begin : begin + size]
    game = lobby.create_table(host, game_type, mode)
    for guest in guests:
        lobby.join(guest, game.id)
    for user in (host, *guests):
        lobby.accept(user, game.id)
    games.append(game.id)
print(json.dumps(games))
"""
ABORT_BENCH_GAMES = """
import os
try:
    from games.service import lifecycle
except ImportError:
    from games import services as lifecycle
from games.models import Game
prefix = os.environ["BENCH_PREFIX"]
for game_id in Game.objects.filter(status="active", host__username__startswith=prefix).values_list("id", flat=True):
    lifecycle.abort(game_id)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy (all cores, all processes: the servers, the
    database, Redis, HAProxy and this client), from /proc/stat (Linux). Shows whether a run
    is bound by this machine rather than by the server."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return math.nan
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def percentile(samples: list[float], q: float) -> float | None:
    """Nearest-rank percentile."""
    if not samples:
        return None
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass
class Stats:
    spec: GameSpec
    window: tuple[float, float] = (math.inf, math.inf)  # measuring window (perf_counter)
    playing: bool = False  # bots hold their moves until every table has started
    actions: int = 0  # ActionApplied received inside the window
    games_finished: int = 0  # games that ended inside the window
    incomplete: int = 0  # applied actions sent in the window not seen by every seat (frames dropped)
    gaps: int = 0  # GameMessages whose start showed a dropped frame (then a Resync)
    stalls: int = 0  # seats resynced because they fell behind (see _until_finished)
    late: int = 0  # GameMessages older than one the seat already had (reordered, e.g. by two processes)
    frames: int = 0  # frames the clients received inside the window
    table_frames: int = 0  # of those, about the client's own table (its moves, its replies)
    resyncs: int = 0  # every Resync sent inside the window (old path: one per decision)
    from_push: int = 0  # decisions taken from a push's own legal and view
    from_snapshot: int = 0  # decisions taken from a Snapshot (the first of each table's first game too)
    push_carries_legal: bool = False  # seen a push with legal: the server is new enough
    setup_retries: int = 0  # CreateGame sent again because its GameCreated was dropped
    setup_failures: int = 0  # tables that gave up starting a new game (three GameCreated dropped)
    last_frame: float = 0.0  # when any client last received anything
    ready_seconds: float = 0.0  # logins and table set-ups, before the window
    errors: dict[str, int] = field(default_factory=dict)  # Error replies inside the window, by code
    failures: list[str] = field(default_factory=list)  # client tasks that died (a bench bug)
    server_cpu: list[float] = field(default_factory=list)  # CPU cores used in the window, per Daphne
    client_cpu: float = math.nan  # and by this process (all bot clients)
    machine_cpu: float = math.nan  # and by the whole machine
    tables: list[Table] = field(default_factory=list)

    def inside(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]

    def error(self, code: str, now: float) -> None:
        if self.inside(now):
            self.errors[code] = self.errors.get(code, 0) + 1


class Seat:
    """One bot client: its socket, its user, and what it knows of its current game."""

    def __init__(self, ws: Any, user_id: int, server: int, rng: random.Random) -> None:
        self.ws = ws
        self.user_id = user_id
        self.server = server  # which Daphne it is connected to
        self.rng = rng
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # set-up frames for the table task
        self.refs = 0
        self.enter(None)

    def enter(self, table: Table | None) -> None:
        self.table = table
        self.position: int | None = None
        self.held = 0  # history messages received for the current game
        self.v = 0  # the latest v it has seen of its current game
        self.behind: tuple[float, int] | None = None  # since when it lacks which v (see _until_finished)
        # The newest decision offered: (v, view, legal, "push" or "snapshot").
        self.offer: tuple[int, dict[str, Any], list[dict[str, Any]], str] | None = None
        self.answered = -1  # the v of the offer it last answered: a v is answered once
        self.pending: tuple[str, float] | None = None  # (ref, sent at) of the action in flight
        self.floor = 0  # the v its own last action made: older offers are stale
        self.named = -1  # old path: the latest push v whose to_act named this seat
        # Pushes of other games are not parsed (an old server sends every client every game).
        self.marker = f'"game":{table.game_id},' if table is not None else None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def resync(self, stats: Stats, start: int | None = None) -> None:
        if self.table is not None:
            stats.resyncs += stats.inside(time.perf_counter())
            await self.send({"type": "Resync", "game": self.table.game_id,
                             "from": self.held if start is None else start})


class Table:
    def __init__(self, game_id: int, seats: list[Seat]) -> None:
        self.game_id = game_id
        self.seats = seats
        self.sent: dict[int, float] = {}  # v an applied action made -> when it was sent
        self.arrivals: dict[int, dict[int, float]] = {}  # v -> user -> when its GameMessages came
        self.heard = time.perf_counter()  # the last frame about this game
        self.over: set[int] = set()  # seats that know the game is over
        self.finished = asyncio.Event()

    def done(self, seat: Seat, stats: Stats, now: float) -> None:
        self.over.add(seat.user_id)
        if len(self.over) == len(self.seats) and not self.finished.is_set():
            stats.games_finished += stats.inside(now)
            self.finished.set()


async def _decide(seat: Seat, stats: Stats, choose: Choose) -> None:
    """Answer the seat's newest offer, if it is a decision, current, and not answered yet."""
    if not stats.playing or seat.pending is not None or seat.offer is None or seat.table is None:
        return
    v, view, legal, source = seat.offer
    if v <= seat.answered or v < seat.floor or not stats.spec.decides(legal):
        return
    seat.answered = v
    if source == "push":
        stats.from_push += 1
    else:
        stats.from_snapshot += 1
    action, params = choose(view, legal, seat.rng)
    seat.refs += 1
    ref = f"act:{seat.refs}"
    seat.pending = (ref, time.perf_counter())
    await seat.send({"type": "DoGameAction", "game": seat.table.game_id, "v": v, "action": action,
                     "params": params, "ref": ref})


def _offer(seat: Seat, v: int, view: dict[str, Any], legal: list[dict[str, Any]], source: str) -> None:
    if seat.offer is None or v > seat.offer[0] or (v == seat.offer[0] and seat.offer[3] != "push"):
        seat.offer = (v, view, legal, source)


async def _on_game_messages(seat: Seat, table: Table, frame: dict[str, Any], stats: Stats, choose: Choose,
                            now: float) -> None:
    v, start = frame["v"], frame["start"]
    table.arrivals.setdefault(v, {})[seat.user_id] = now
    stats.late += v < seat.v
    seat.v = max(seat.v, v)
    held = seat.held
    missed = start > held  # (start < held: a Snapshot got there first)
    seat.held = max(held, start + len(frame["messages"]))
    if not frame["to_act"]:
        table.done(seat, stats, now)
        return
    if missed:
        stats.gaps += 1
        await seat.resync(stats, held)  # for the history it lacks; the push's view is current anyway
    if "legal" in frame:  # the push carries the decision: no Snapshot needed
        stats.push_carries_legal = True
        _offer(seat, v, frame["view"], frame["legal"], "push")
        await _decide(seat, stats, choose)
    elif seat.position in frame["to_act"]:  # old path: named, so ask for the Snapshot
        seat.named = max(seat.named, v)
        if stats.playing and seat.pending is None and not missed:
            await seat.resync(stats)


async def _on_snapshot(seat: Seat, table: Table, frame: dict[str, Any], stats: Stats, choose: Choose,
                       now: float) -> None:
    seat.held = frame.get("history_start", 0) + len(frame["history"])
    seat.v = max(seat.v, frame["v"])
    seat.position = frame.get("position")
    if frame["status"] in ("finished", "aborted"):
        table.done(seat, stats, now)
        return
    _offer(seat, frame["v"], frame["view"], frame["legal"], "snapshot")
    await _decide(seat, stats, choose)


async def _after_reply(seat: Seat, stats: Stats, choose: Choose) -> None:
    """The action in flight was answered: decide from a newer offer already held, or (old path)
    ask for the Snapshot a push named this seat in while the action was in flight."""
    if seat.offer is not None and seat.offer[0] > seat.answered and seat.offer[0] >= seat.floor:
        before = seat.pending
        await _decide(seat, stats, choose)
        if seat.pending is not before:
            return
    if seat.named >= max(seat.floor, seat.answered + 1) and stats.playing:
        await seat.resync(stats)


async def _seat_reader(seat: Seat, stats: Stats, choose: Choose) -> None:
    """Everything one client receives: its own game's frames drive its play."""
    async for frame in seat.ws:
        now = stats.last_frame = time.perf_counter()
        if stats.inside(now):
            stats.frames += 1
            stats.table_frames += seat.table is not None and seat.marker in frame
        for text in lobby_frames.messages(frame):
            await _on_message(seat, text, stats, choose, now)


async def _on_message(seat: Seat, text: str, stats: Stats, choose: Choose, now: float) -> None:
    """One message of a frame."""
    table = seat.table
    if text.startswith('{"type":"Error"'):
        error = json.loads(text)
        ref = error.get("ref")
        if isinstance(ref, str) and ref.startswith("act:"):  # a move refused
            stats.error(error["code"], now)
            if seat.pending is not None and seat.pending[0] == ref:
                seat.pending = None
                await _after_reply(seat, stats, choose)
        elif ref is not None:
            seat.inbox.put_nowait(error)  # the answer to a set-up request
        else:
            stats.error(error["code"], now)
        return
    if table is None or seat.marker not in text:
        if text.startswith('{"type":"GameCreated"') and f'"host":{seat.user_id},' in text:
            seat.inbox.put_nowait(json.loads(text))
        return
    frame = json.loads(text)
    kind = frame["type"]
    table.heard = now
    if kind == "GameMessages":
        await _on_game_messages(seat, table, frame, stats, choose, now)
    elif kind == "Snapshot":
        await _on_snapshot(seat, table, frame, stats, choose, now)
    elif kind == "ActionApplied":
        if seat.pending is not None and seat.pending[0] == frame.get("ref"):
            table.sent[frame["v"]] = seat.pending[1]
            seat.floor = max(seat.floor, frame["v"])
            seat.pending = None
            stats.actions += stats.inside(now)
            await _after_reply(seat, stats, choose)
    elif kind == "GameStarted":
        seat.position = next(p["position"] for p in frame["players"] if p["user"] == seat.user_id)
    elif kind != "GameInactive":
        seat.inbox.put_nowait(frame)  # set-up: UserJoinedGame, SetupAccepted, ...


async def _guarded(coroutine: Any, stats: Stats, name: str) -> None:
    """A client task that dies would silently stall its table: record why instead."""
    try:
        await coroutine
    except asyncio.CancelledError:
        raise
    except Exception as error:  # reported with the figures
        stats.failures.append(f"{name}: {type(error).__name__}: {error}")


async def _next_frame(seat: Seat, kind: str, timeout: float = 30) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while (frame := await seat.inbox.get())["type"] != kind:
            pass
    return frame


async def _request(seat: Seat, message: dict[str, Any], timeout: float = 120) -> str | None:
    """Send a set-up request and learn reliably whether it worked: the lobby announces success
    only by broadcast, which a full queue may drop, but a consumer handles one frame at a time and
    answers errors directly, so a request known to fail (Resync of game 0) right behind it marks
    the moment the first was done. Returns the first request's error code, or None."""
    seat.refs += 1
    ref = f"{seat.user_id}:{seat.refs}"
    await seat.send({**message, "ref": ref})
    await seat.send({"type": "Resync", "game": 0, "ref": f"{ref}:done"})
    error = None
    async with asyncio.timeout(timeout):
        while True:
            frame = await seat.inbox.get()
            if frame["type"] == "Error" and frame["ref"] == ref:
                error = frame["code"]
            elif frame["type"] == "Error" and frame["ref"] == f"{ref}:done":
                return error


async def _set_up(seats: list[Seat], stats: Stats) -> Table | None:
    """Open a table, seat the others, everyone accepts, everyone learns its seat.

    Only the table's id arrives by broadcast alone (GameCreated); if that is dropped, the host
    opens another table (up to three tries; the abandoned one just stays in set-up)."""
    host, *guests = seats
    for _attempt in range(3):
        for seat in seats:
            while not seat.inbox.empty():
                seat.inbox.get_nowait()
        await host.send({"type": "CreateGame", "game_type": stats.spec.key, "mode": stats.spec.mode})
        try:
            created = await _next_frame(host, "GameCreated")
        except TimeoutError:
            stats.setup_retries += 1
            continue
        table = Table(created["game"], seats)
        for seat in seats:
            seat.enter(table)
        for guest in guests:  # one at a time: a join must be done before anyone accepts
            error = await _request(guest, {"type": "JoinGame", "game": table.game_id})
            assert error is None, error
        for seat in seats:
            error = await _request(seat, {"type": "AcceptSetup", "game": table.game_id})
            assert error is None, error
        # The game started with the last accept, and its first push carries each seat's decision
        # when the server is new enough. The old path needs each seat's position, which a Snapshot
        # names (GameStarted names it too, but goes to every client, and a full queue may drop it).
        if not stats.push_carries_legal:
            for seat in seats:
                await seat.resync(stats)
            async with asyncio.timeout(120):
                while any(seat.position is None for seat in seats):
                    await asyncio.sleep(0.02)
        stats.tables.append(table)
        return table
    stats.setup_failures += 1
    return None


async def _until_finished(table: Table, stats: Stats, until: float) -> bool:
    """Wait for the game to end (True) or ``until`` (False).

    A seat whose GameMessages was dropped would wait for ever (and the whole table with it if it
    was to act), so a seat that has still not reached, LAG_SECONDS later, the v another seat of
    its table had, asks for a Snapshot (a seat merely a push behind at each check, on a busy
    table, is no stall); a table silent for SILENCE_SECONDS (every seat's frame dropped) resyncs
    every seat. The checks cost nothing otherwise, so they do not add load to what is measured.
    """
    while not table.finished.is_set():
        left = until - time.perf_counter()
        if left <= 0:
            return False
        try:
            await asyncio.wait_for(table.finished.wait(), min(left, 1.0))
            continue
        except TimeoutError:
            pass
        now = time.perf_counter()
        latest = max(seat.v for seat in table.seats)
        silent = now - table.heard >= SILENCE_SECONDS
        for seat in table.seats:
            if silent or (seat.behind is not None and seat.v < seat.behind[1]
                          and now - seat.behind[0] >= LAG_SECONDS):
                stats.stalls += stats.inside(now)
                seat.behind = None
                await seat.resync(stats)
            elif seat.v >= latest:
                seat.behind = None
            elif seat.behind is None or seat.v >= seat.behind[1]:
                seat.behind = (now, latest)
        if silent:
            table.heard = now
    return True


async def _play_tables(seats: list[Seat], stats: Stats, first: Table, start: asyncio.Event, choose: Choose) -> None:
    """One table's seats: game after game until the window closes."""
    table: Table | None = first
    await start.wait()
    for seat in seats:  # whoever holds a decision (from its first Snapshot) moves
        await _decide(seat, stats, choose)
    while table is not None:
        end = stats.window[1]
        if not await _until_finished(table, stats, end):
            return
        if time.perf_counter() >= end:
            return
        table = await _set_up(seats, stats)  # keep the load at the same number of games


async def _quiet(stats: Stats, idle: float = 1.0, limit: float = 120) -> None:
    """Wait until no client has received anything for ``idle`` seconds (at most ``limit``)."""
    give_up = time.perf_counter() + limit
    while time.perf_counter() - stats.last_frame < idle and time.perf_counter() < give_up:
        await asyncio.sleep(0.1)


def _server_of(index: int, seats: int, servers: int, split: str) -> int:
    """Which Daphne the ``index``-th client (table ``index // seats``) connects to."""
    return index % servers if split == "seats" else (index // seats) % servers


# Whether the bot clients follow the lobby (``--follow-lobby``): by default they do not, as a bot
# at a table need not (docs/protocols/lobby.md, "Following the lobby"); every table's set-up,
# start and end then reaches every client, as it did before lobby messages were scoped.
FOLLOW_LOBBY = False


async def _run(spec: GameSpec, ports: list[int], pids: list[int], split: str, users: list[list[Any]],
               tables: int, seconds: float, seed: int, open_tables: Callable[[], list[int]]) -> Stats:
    import websockets

    choose = spec.bot()
    stats = Stats(spec)
    seats: list[Seat] = []
    connecting = time.perf_counter()

    async def connect(index: int, user: list[Any]) -> Seat:
        user_id, _, token = user
        server = _server_of(index, spec.seats, len(ports), split)
        ws = await websockets.connect(f"ws://127.0.0.1:{ports[server]}/ws/bot/", compression=None, max_size=None,
                                      open_timeout=60, ping_interval=None)
        await ws.send(json.dumps({"type": "Login", "version": 1, "token": token, "lobby": FOLLOW_LOBBY}))
        async with asyncio.timeout(60):
            while not (await ws.recv()).startswith('{"type":"Greetings"'):
                pass
        seat = Seat(ws, user_id, server, random.Random(f"{seed}:{user_id}"))
        # Read from the start: every later login is announced to this client too, and a client
        # that stops reading stops answering the server's pings (the websockets library's queue
        # of unread frames fills and it reads no more), so Daphne drops it after its ping timeout:
        # with 800 clients the logins take longer than that.
        readers.append(asyncio.create_task(_guarded(_seat_reader(seat, stats, choose), stats,
                                                    f"client {seat.user_id}")))
        return seat

    readers: list[asyncio.Task[None]] = []
    for begin in range(0, len(users), 20):  # logins in small batches: each is announced to everybody
        seats += await asyncio.gather(*(connect(begin + i, u) for i, u in enumerate(users[begin : begin + 20])))
    await _quiet(stats)  # every login announced to every client
    game_ids = await asyncio.to_thread(open_tables)
    size = spec.seats
    groups = [seats[i : i + size] for i in range(0, tables * size, size)]
    firsts = [Table(game_id, group) for game_id, group in zip(game_ids, groups, strict=True)]
    for table in firsts:
        stats.tables.append(table)
        for seat in table.seats:
            seat.enter(table)
            await seat.resync(stats)  # the Snapshot names its seat; nobody moves until every table is ready
    async with asyncio.timeout(300):
        while any(seat.position is None for seat in seats):
            await asyncio.sleep(0.05)
    await _quiet(stats)
    start = asyncio.Event()
    players = [asyncio.create_task(_guarded(_play_tables(group, stats, first, start, choose), stats,
                                            f"table of {group[0].user_id}"))
               for group, first in zip(groups, firsts)]
    began = time.perf_counter()
    stats.ready_seconds = began - connecting
    stats.window = (began, began + seconds)
    stats.playing = True
    cpu_before = ([_cpu_seconds(pid) for pid in pids], time.process_time(), _machine_busy_seconds())
    start.set()
    await asyncio.sleep(seconds)
    cpu_after = ([_cpu_seconds(pid) for pid in pids], time.process_time(), _machine_busy_seconds())
    stats.machine_cpu = (cpu_after[2] - cpu_before[2]) / seconds
    stats.server_cpu = [(after - before) / seconds for before, after in zip(cpu_before[0], cpu_after[0])]
    stats.client_cpu = (cpu_after[1] - cpu_before[1]) / seconds
    stats.playing = False  # no new moves; the pushes of those made in the window still count

    def missing() -> int:
        return sum(1 for table in stats.tables for v, sent in table.sent.items()
                   if stats.inside(sent) and len(table.arrivals.get(v, ())) < len(table.seats))

    await asyncio.gather(*players)
    grace = time.perf_counter() + GRACE_SECONDS  # what has not arrived by then counts as incomplete
    while time.perf_counter() < grace and missing():
        await asyncio.sleep(0.1)
    stats.incomplete = missing()
    for seat in seats:
        await seat.ws.close()
    for reader in readers:
        reader.cancel()
    return stats


def _latencies(stats: Stats) -> list[float]:
    """Per action sent in the window: until the last seat of its table had its GameMessages."""
    return [max(arrived.values()) - sent
            for table in stats.tables
            for v, sent in table.sent.items()
            if stats.inside(sent) and len(arrived := table.arrivals.get(v, {})) == len(table.seats)]


def _start_daphne(tree: Path, port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "w") as out:  # the server's output, kept out of the bench's own
        return subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                 "config.asgi:application"], cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT)


def _wait_listening(server: subprocess.Popen[bytes], port: int, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"daphne on port {port} exited with {server.returncode}:\n"
                               + log.read_text()[-3000:])
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _manage_shell(tree: Path, script: str, env: dict[str, str]) -> str:
    """Run ``script`` in ``manage.py shell``; its last line of output. Fails loudly with stderr."""
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"manage.py shell failed ({done.returncode}):\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def _tracebacks(logs: list[Path]) -> list[str]:
    """The tracebacks the servers logged, each named by its log and ending with its exception."""
    found = []
    for log in logs:
        text = log.read_text(errors="replace")
        for part in text.split("Traceback (most recent call last):")[1:]:
            lines = part.splitlines()
            # The traceback runs until the first line that is not indented (the exception itself).
            end = next((n for n, line in enumerate(lines[1:], 1) if line and not line.startswith(" ")), len(lines) - 1)
            found.append(f"{log.name}: Traceback (most recent call last):" + "\n".join(lines[: end + 1]))
    return found


def run(game: str, tables: int, seconds: float, seed: int = 0, *, daphnes: int = 1, split: str = "seats",
        workdir: Path | None = None, environ: dict[str, str] | None = None,
        server_tree: Path | None = None, follow_lobby: bool = False, balancer: bool = False) -> dict[str, Any]:
    """``tables`` concurrent games of ``game`` played by bot clients against ``daphnes`` Daphne
    child processes; the figures as a dict (see the module docstring). ``server_tree``: the
    checkout whose server to run (default: this one)."""
    tree = ROOT if server_tree is None else Path(server_tree).resolve()
    spec = GAMES[game]
    env = dict(os.environ if environ is None else environ)
    if daphnes < 1:
        raise ValueError("daphnes must be at least 1")
    if daphnes > 1 and not env.get("REDIS_URL"):
        raise SystemExit(f"--daphnes {daphnes} needs REDIS_URL: only the Redis channel layer carries a push "
                         "from the process that applied a move to clients connected to another")
    postgres = env.get("DATABASE_URL", "").startswith("postgres")
    if balancer and (tree != ROOT or not env.get("REDIS_URL") or not postgres):
        raise SystemExit("--balancer runs this checkout's `make cluster` servers: it needs DATABASE_URL (PostgreSQL) "
                         "and REDIS_URL, and no --server-tree")
    if split not in ("seats", "tables"):
        raise ValueError(f"split is 'seats' or 'tables', not {split!r}")
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="live-bench-") as temporary:
            return run(game, tables, seconds, seed, daphnes=daphnes, split=split, workdir=Path(temporary),
                       environ=env, server_tree=tree, follow_lobby=follow_lobby, balancer=balancer)
    database = "PostgreSQL (DATABASE_URL)" if env.get("DATABASE_URL") else "SQLite file in a temp dir"
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'live.sqlite3'}"
    layer = (f"Redis {env.get('REDIS_CHANNEL_LAYER') or 'fanout'} (REDIS_URL)" if env.get("REDIS_URL")
             else "in-memory")
    # Every bot client connects from this machine's one address: the per-address cap
    # (docs/security.md) would refuse all but the first 64; the bench raises it, unless told a value.
    env.setdefault("MAX_CONNECTIONS_PER_ADDRESS", str(tables * spec.seats + 100))
    env.update(DJANGO_SETTINGS_MODULE="config.settings", BENCH_PREFIX=f"wsbench-{secrets.token_hex(3)}-",
               BENCH_USERS=str(tables * spec.seats), BENCH_GAME_TYPE=spec.key, BENCH_MODE=str(spec.mode),
               BENCH_TABLE_SIZE=str(spec.seats))
    helper_env = {**env, "REDIS_URL": ""}  # see SETUP_BENCH_TABLES
    began = time.perf_counter()
    users = json.loads(_manage_shell(tree, SETUP_BENCH_USERS, env))
    setup_seconds = time.perf_counter() - began
    ports = [_free_port() for _ in range(daphnes)]
    logs = [workdir / f"daphne-{n}.log" for n in range(daphnes)]
    servers: list[subprocess.Popen[bytes]] = []
    cluster = None
    balancer_cpu = None
    try:
        if balancer:
            # The servers of `make cluster` (manage.py serve) behind HAProxy, which every client
            # connects to; HAProxy gives each WebSocket to the process with the fewest.
            from deploy.cluster import Cluster

            cluster = Cluster(daphnes, port=0, cribbage_port=0, ump_port=0, mmj_port=0, worker_port=0,
                              env=env, run_dir=workdir / "cluster")
            cluster.start()
            servers = [process for process in cluster.processes if process is not None]
            ports = [cluster.front.http]
            logs = [cluster.run_dir / f"{name}.log" for name in cluster.names]
        else:
            for port, log in zip(ports, logs):
                servers.append(_start_daphne(tree, port, env, log))
            for server, port, log in zip(servers, ports, logs):
                _wait_listening(server, port, log)
        global FOLLOW_LOBBY
        FOLLOW_LOBBY = follow_lobby
        pids = [s.pid for s in servers] + ([cluster.haproxy.pid] if cluster and cluster.haproxy else [])
        stats = asyncio.run(_run(spec, ports, pids, split, users, tables, seconds, seed,
                                 lambda: json.loads(_manage_shell(tree, SETUP_BENCH_TABLES, helper_env))))
        if cluster is not None:
            *stats.server_cpu, balancer_cpu = stats.server_cpu
        died = [n for n, server in enumerate(servers) if server.poll() is not None]
        tracebacks = _tracebacks(logs)
    finally:
        if cluster is not None:
            cluster.stop()
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        if database.startswith("PostgreSQL"):
            # That database outlives the bench: abort the games left unfinished, so no bench game
            # stays in progress there (every Greetings would list it).
            _manage_shell(tree, ABORT_BENCH_GAMES, helper_env)
    latencies = _latencies(stats)
    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    # Each table's first decision comes from the Snapshot that told the seat its position.
    decided = "push" if stats.from_push > stats.from_snapshot else "snapshot"
    return {
        "game": game,
        "mode": spec.mode_name,
        "seats": spec.seats,
        "tables": tables,
        "clients": tables * spec.seats,
        "daphnes": daphnes,
        "split": split if daphnes > 1 else None,
        "seconds": seconds,
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / seconds, 2),
        "games_finished": stats.games_finished,
        "latency_samples": len(latencies),
        "p50_ms": round(p50 * 1000, 1) if p50 is not None else None,
        "p99_ms": round(p99 * 1000, 1) if p99 is not None else None,
        "decided_from": decided,
        "decisions_from_push": stats.from_push,
        "decisions_from_snapshot": stats.from_snapshot,
        "resyncs": stats.resyncs,
        "incomplete": stats.incomplete,
        "gaps": stats.gaps,
        "stalls": stats.stalls,
        "late": stats.late,
        "follow_lobby": follow_lobby,
        "frames": stats.frames,
        "table_frames": stats.table_frames,
        "frames_per_action": round(stats.frames / max(1, stats.actions), 2),
        "lobby_frames_per_action": round((stats.frames - stats.table_frames) / max(1, stats.actions), 2),
        "setup_retries": stats.setup_retries,
        "setup_failures": stats.setup_failures,
        "errors": stats.errors,
        "client_failures": stats.failures,
        "server_tracebacks": len(tracebacks),
        "server_traceback_first": tracebacks[0][-2000:] if tracebacks else None,
        "servers_died": died,
        "server_cpu": [round(cpu, 2) for cpu in stats.server_cpu],
        "server_cpu_total": round(sum(stats.server_cpu), 2),
        "balancer": balancer,
        "balancer_cpu": round(balancer_cpu, 2) if balancer_cpu is not None else None,
        "client_cpu": round(stats.client_cpu, 2),
        "machine_cpu": round(stats.machine_cpu, 2),
        "machine_cores": os.cpu_count(),
        "database": database,
        "channel_layer": layer,
        "server_tree": str(tree),
        "setup_seconds": round(setup_seconds, 1),
        "ready_seconds": round(stats.ready_seconds, 1),
    }


def describe(figures: dict[str, Any], indent: str = "  ") -> list[str]:
    """The figures of one run as readable lines."""
    f = figures
    servers = f"{f['daphnes']} Daphne process" + ("es" if f["daphnes"] > 1 else "")
    if f.get("balancer"):
        servers += " behind HAProxy"
    if f["daphnes"] > 1 and not f.get("balancer"):
        servers += f" (split by {f['split']})"
    lines = [
        f"{f['tables']} {f['game']} tables ({f['mode']}) at once, {f['clients']} bot clients, {servers}; "
        f"{f['database']}, {f['channel_layer']} channel layer"
        + (f"; server from {f['server_tree']}" if f["server_tree"] != str(ROOT) else ""),
        f"{indent}{f['actions']} actions in {f['seconds']:.0f}s = {f['actions_per_s']} actions/s, "
        f"{f['games_finished']} games finished",
        f"{indent}send action -> all {f['seats']} seats have its GameMessages: p50 {f['p50_ms']} ms, "
        f"p99 {f['p99_ms']} ms ({f['latency_samples']} actions; {f['incomplete']} not seen by every seat)",
        f"{indent}decided from: {f['decided_from']} ({f['decisions_from_push']} from pushes, "
        f"{f['decisions_from_snapshot']} from Snapshots); {f['resyncs']} Resyncs in the window",
        f"{indent}dropped frames: {f['gaps']} gaps and {f['stalls']} stalls resynced, {f['setup_retries']} "
        f"GameCreated ({f['setup_failures']} tables gave up); {f['late']} pushes out of order; "
        f"errors {f['errors'] or 'none'}",
        f"{indent}frames received: {f['frames']} ({f['frames_per_action']} per action), "
        f"{f['table_frames']} of them about the client's own table, the rest lobby messages "
        f"({f['lobby_frames_per_action']} per action: tables being set up, started, ended; clients connecting, "
        f"entering games; the clients {'follow' if f['follow_lobby'] else 'do not follow'} the lobby)",
        f"{indent}CPU cores busy: server {f['server_cpu_total']}"
        + (f" (per process {f['server_cpu']})" if f["daphnes"] > 1 else "")
        + (f", HAProxy {f['balancer_cpu']}" if f["balancer"] else "")
        + f", bot clients {f['client_cpu']}, whole machine {f['machine_cpu']} of {f['machine_cores']}; "
        f"migrate and users {f['setup_seconds']}s, "
        f"logins and tables {f['ready_seconds']}s",
    ]
    if f["client_failures"] or f["server_tracebacks"] or f["servers_died"]:
        died: dict[str, int] = {}
        for failure in f["client_failures"]:
            reason = failure.split(": ", 1)[1]
            died[reason] = died.get(reason, 0) + 1
        lines.append(f"{indent}PROBLEMS: client tasks died: {died or 'none'}; {f['server_tracebacks']} tracebacks "
                     f"in the server logs; servers died: {f['servers_died'] or 'none'}")
        if f["server_traceback_first"]:
            lines.append(f"{indent}the first traceback:\n{f['server_traceback_first']}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--tables", type=int, default=50, help="games played at once")
    parser.add_argument("--seconds", type=float, default=30, help="measuring window")
    parser.add_argument("--daphnes", type=int, default=1, help="Daphne processes (2 or more need REDIS_URL)")
    parser.add_argument("--split", choices=("seats", "tables"), default="seats",
                        help="with several Daphnes: alternate the seats of each table (default), or whole tables")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--balancer", action="store_true",
                        help="the --daphnes servers behind HAProxy (deploy/cluster.py), every client connected to it")
    parser.add_argument("--follow-lobby", action="store_true",
                        help="the bot clients follow the lobby (every table's news), as every client did before")
    parser.add_argument("--server-tree", type=Path, default=None,
                        help="run the server of another checkout, e.g. `git archive HEAD` unpacked, for before figures")
    args = parser.parse_args()
    figures = run(args.game, args.tables, args.seconds, args.seed, daphnes=args.daphnes, split=args.split,
                  server_tree=args.server_tree, follow_lobby=args.follow_lobby, balancer=args.balancer)
    print("Live path:", "\n".join(describe(figures)))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
