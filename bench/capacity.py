"""Capacity: how many Acquire tables at a person's pace the server holds with p99 under a limit.

    .venv/bin/python bench/capacity.py [--steps 250,500,1000,1500] [--think 5] [--jitter 0.2]
        [--settle 20] [--window 30] [--p99-ms 100] [--daphnes 1] [--server serve|daphne]
        [--split seats|tables] [--balancer] [--connect-batch 50] [--keep-going] [--seed 0]
        [--samples FILE]

An open-loop load, unlike bench/live.py's closed loop: there every seat answers at once, so a
handful of tables keeps the server saturated and the figure is its ceiling in actions per second;
here every seat decides ``--think`` seconds (a person's pace; each decision's think time drawn
uniformly within ``--jitter`` of it, so tables do not move in lock step) after the push that
offered the decision, so N tables offer about N / think actions per second whatever the server
does, and the question is the latency a player sees at that load. (The loop is still closed at
each table, one decision at a time, but the think time is 50 times the latency being measured:
the offered rate hardly moves until the server is far past the limit.)

The clients are bench/live.py's: Acquire Singles 4, four seats a table, each seat a WebSocket
client of its own on ``/ws/bot/`` (``websockets``, no compression) logged in with an API token of
its own user, deciding with the game's built-in bot from the ``legal`` and ``view`` its
``GameMessages`` push carries, one action in flight at a time, a push whose ``start`` is beyond
the history it holds resynced (``gaps``), a seat that falls ``LAG_SECONDS`` behind its table or a
table silent for long resynced (``stalls``). The users, the processes and the first game of each
table are made with bench/live.py's own functions (a helper ``manage.py shell`` makes users and
opens tables through the lobby code; the seats then ``Resync`` to learn their first decision). A
finished game starts a new one at its table over the WebSocket (CreateGame, JoinGame, AcceptSetup,
as bench/live.py does), so the load stays. Each Login says ``"lobby": false`` (a seed 003 client
that does not follow the lobby: no other table's set-up, start and end, nobody's log-in; a server
that does not know the field ignores it and sends every client everything) and ``"history":
false`` (Greetings without every game's history: a seat reads its own game's from its Snapshot).

The load is raised in ``--steps`` (total tables at each step): the step's new clients connect in
batches of ``--connect-batch`` (each logged in before the next batch), their tables are opened and
start to play, the load settles for ``--settle`` seconds, then ``--window`` seconds are measured.
Reported per step, for the window:

- ``ready_s``: connecting the step's clients, opening its tables, and every new seat's first
  Snapshot (the settling starts then);
- ``actions_per_s``: ``ActionApplied`` received; ``offered_per_s``: tables / think, what the
  players would make if the server took no time;
- ``p50_ms``/``p99_ms``: from sending ``DoGameAction`` to every seat of its table having received
  the ``GameMessages`` with the ``v`` its ``ActionApplied`` names (bench/live.py's measure), over the
  actions sent in the window; ``incomplete``: those some seat never received (after up to
  ``GRACE_SECONDS``);
- ``errors`` (``Error`` replies by code), ``gaps``, ``stalls``, ``resyncs`` (every Resync sent),
  ``late`` (pushes older than one the seat had), ``setup_retries``/``setup_failures`` of new games;
- ``frames_per_action`` and ``lobby_frames_per_action``: frames the clients received per action,
  and of those the ones not about the client's own table (lobby traffic; bench/live.py's count);
- server CPU (cores busy, per process and summed), server RSS (``VmRSS`` of /proc/<pid>/status at
  the window's end, per process and summed), ``rss_per_connection_kib`` (summed RSS / clients; it
  includes the idle server's own, reported as ``server_rss_idle_mib``) and
  ``rss_marginal_per_connection_kib`` (the growth since the step before, per client added);
- the bench client's CPU and RSS (this one process holds every socket; near 1.0 core it is the
  bottleneck, and the step says ``client_bound``), and ``client_lag_max_ms``, the longest its event
  loop ran a timer late (a stalled client delays every seat at once: with it near the p99, the
  client and not the server made the tail), ``client_gc_pause_max_ms`` its longest collection (its
  collector is off during the window, see ``_run``: 0 unless something turns it on);
- HAProxy's, PostgreSQL's and Redis's CPU when they are in play (every process of that name on the
  machine); ``machine_cpu``: all cores busy, and ``other_cpu``: the part of it none of these
  account for (anything else running on the machine at the same time, which the figures then
  share the cores with: figures with much of it are not the server's alone).

``--samples FILE`` appends each step's latencies, ``[sent, latency]`` in seconds from the window's
start, one JSON line a step: whether the slow actions come together (a pause of the server, all
tables at once) or spread out (a queue).

A step passes when its p99 is under ``--p99-ms`` and no action is incomplete; the bench stops at
the first step that fails (``--keep-going``: runs them all). The result, ``capacity_tables``, is
the largest step that passed.

Configurations, as bench/live.py's: the embedded default (a fresh SQLite file in a temporary
directory, Channels' in-memory layer, one process: ``manage.py serve`` as ``make run`` runs it,
or ``--server daphne``, ``python -m daphne`` as bench/live.py starts it), or ``DATABASE_URL``
(PostgreSQL) and ``REDIS_URL`` from the environment with ``--daphnes 1`` or more (``--split``: the
seats of each table alternate between the processes, or whole tables do). ``--balancer``: HAProxy
in front of ``--daphnes`` ``manage.py serve`` processes (deploy/cluster.py's ``Cluster``), every
client connected to HAProxy's one address, which spreads them (least connections).

Thousands of sockets: the soft limit on open files is raised to the hard one for this process and
the servers it starts (each client is one descriptor here and one in a server; HAProxy needs two).
The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from live import (  # noqa: E402
    ABORT_BENCH_GAMES,
    GAMES,
    LAG_SECONDS,
    SETUP_BENCH_TABLES,
    SETUP_BENCH_USERS,
    SILENCE_SECONDS,
    GameSpec,
    _cpu_seconds,
    _free_port,
    _guarded,
    _manage_shell,
    _next_frame,
    _request,
    _start_daphne,
    _tracebacks,
    _wait_listening,
    percentile,
)

try:  # a server that batches the lobby messages of one tick into one LobbyMessages frame
    from games.transport.lobby_frames import messages as split_frame  # noqa: E402
except ImportError:  # a tree of before that: every frame is one message

    def split_frame(frame: str) -> list[str]:
        return [frame]


GRACE_SECONDS = 15.0  # after a window, how long the pushes of actions sent in it may take
SERVER_KINDS = ("serve", "daphne")
# Seconds between this process's own garbage collection before a window and the window (``_run``).
DRAIN_SECONDS = 3.0


# -- what the machine's processes use (Linux /proc) ------------------------------------------------


def rss_kib(pid: int) -> int | None:
    """Resident memory of a process (``VmRSS``), KiB; None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def machine_busy_seconds() -> float:
    """CPU seconds all cores have spent busy since boot (everything but idle and iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is already in user and nice)
    return (sum(values[:8]) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def pids_named(*names: str) -> list[int]:
    """Every process whose command name is one of ``names`` (PostgreSQL's backends are all
    ``postgres``, Redis is ``redis-server``): the machine's, not only ours."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    found.append(int(entry.name))
            except OSError:
                continue  # ended meanwhile
    return found


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each process that still runs."""
    return {pid: cpu for pid in pids if not math.isnan(cpu := _cpu_seconds(pid))}


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two ``cpu_of``, by the processes alive at both (a PostgreSQL
    backend that ended meanwhile would otherwise count its whole life negative)."""
    return sum(after[pid] - cpu for pid, cpu in before.items() if pid in after)


# -- the server processes ------------------------------------------------------------------------------


class LocalServers:
    """``count`` server processes of this tree, each on a port of its own on 127.0.0.1: the clients
    connect to them directly (``address_of``)."""

    def __init__(self, kind: str, count: int, env: dict[str, str], workdir: Path, split: str) -> None:
        if kind not in SERVER_KINDS:
            raise ValueError(f"server is one of {SERVER_KINDS}, not {kind!r}")
        self.kind, self.env, self.split = kind, env, split
        self.ports = [_free_port() for _ in range(count)]
        self.logs = [workdir / f"{kind}-{n}.log" for n in range(count)]
        self.processes: list[subprocess.Popen[bytes]] = []
        self.description = f"{count} {'manage.py serve' if kind == 'serve' else 'Daphne'} process" + (
            f"es (split by {split})" if count > 1 else "")

    def start(self) -> None:
        for port, log in zip(self.ports, self.logs):
            if self.kind == "daphne":
                self.processes.append(_start_daphne(ROOT, port, self.env, log))
            else:
                with open(log, "w") as out:  # the server's output, kept out of the bench's own
                    # What ``make run`` runs, without its TCP line ports (not measured here, and
                    # several processes would want the same ones).
                    self.processes.append(subprocess.Popen(
                        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
                         "--cribbage-port", "0", "--ump-port", "0", "--mmj-port", "0", "--mjai-port", "0"],
                        cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT))
        for process, port, log in zip(self.processes, self.ports, self.logs):
            _wait_listening(process, port, log)

    def address_of(self, index: int, seats: int) -> tuple[str, int]:
        """Where the ``index``-th client (table ``index // seats``) connects."""
        count = len(self.ports)
        server = index % count if self.split == "seats" else (index // seats) % count
        return "127.0.0.1", self.ports[server]

    def server_pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def balancer_pids(self) -> list[int]:
        return []

    def died(self) -> list[int]:
        return [n for n, p in enumerate(self.processes) if p.poll() is not None]

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class BalancedServers:
    """deploy/cluster.py's ``Cluster``: HAProxy in front of ``count`` ``manage.py serve`` processes
    (``BEHIND_PROXY``); every client connects to HAProxy, which gives each WebSocket to the process
    with the fewest. The same interface as ``LocalServers``."""

    def __init__(self, count: int, env: dict[str, str], workdir: Path) -> None:
        try:
            sys.path.insert(0, str(ROOT))
            from deploy.cluster import Cluster
        except ImportError as error:
            raise SystemExit(f"--balancer needs deploy/cluster.py (its Cluster class): {error}") from None
        # Ports chosen free, no TCP line ports: only the WebSocket is measured.
        self.cluster = Cluster(count, port=0, cribbage_port=0, ump_port=0, mmj_port=0, worker_port=0,
                               run_dir=workdir / "cluster", env=env)
        self.description = f"HAProxy in front of {count} manage.py serve process" + ("es" if count > 1 else "")

    @property
    def logs(self) -> list[Path]:
        return [self.cluster.run_dir / f"{name}.log" for name in self.cluster.names]

    def start(self) -> None:
        self.cluster.start()

    def address_of(self, index: int, seats: int) -> tuple[str, int]:
        return self.cluster.front.host, self.cluster.front.http

    def server_pids(self) -> list[int]:
        return [p.pid for p in self.cluster.processes if p is not None]

    def balancer_pids(self) -> list[int]:
        return [self.cluster.haproxy.pid] if self.cluster.haproxy is not None else []

    def died(self) -> list[int]:
        return [n for n, p in enumerate(self.cluster.processes) if p is None or p.poll() is not None]

    def stop(self) -> None:
        self.cluster.stop()


Servers = LocalServers | BalancedServers


# -- the clients -----------------------------------------------------------------------------------------


@dataclass(eq=False)
class Meter:
    """What one step's measuring window saw. Before the first window the meter counts nothing."""

    begin: float = math.inf
    end: float = math.inf
    actions: int = 0  # ActionApplied received in the window
    decisions: int = 0  # DoGameAction sent in the window
    games_finished: int = 0
    gaps: int = 0  # pushes whose start showed a dropped frame (then a Resync)
    stalls: int = 0  # seats resynced because they fell behind, or their table went silent
    late: int = 0  # pushes older than one the seat already had
    resyncs: int = 0  # every Resync sent
    frames: int = 0  # frames the clients received
    table_frames: int = 0  # of those, about the client's own table
    setup_retries: int = 0  # CreateGame sent again (its GameCreated did not come)
    setup_failures: int = 0  # tables that gave up starting a new game
    errors: dict[str, int] = field(default_factory=dict)
    lag: float = 0.0  # the longest this client's event loop was late for a timer (a stalled client)
    gc_pause: float = 0.0  # the longest collection of the client's cyclic garbage collector
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each of those actions was sent (--samples)
    tables: set[Table] = field(default_factory=set)  # tables with an action sent in the window

    def inside(self, moment: float) -> bool:
        return self.begin <= moment < self.end

    def error(self, code: str, now: float) -> None:
        if self.inside(now):
            self.errors[code] = self.errors.get(code, 0) + 1

    def incomplete(self) -> int:
        """Actions sent in the window and applied whose push some seat has not received."""
        return sum(1 for table in self.tables for sent in table.sent.values() if self.inside(sent))


class Seat:
    """One client: its socket, its user, what it knows of its current game, its think timer."""

    def __init__(self, ws: Any, user_id: int, rng: random.Random) -> None:
        self.ws = ws
        self.user_id = user_id
        self.rng = rng
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # set-up frames (bench/live.py's _request)
        self.refs = 0
        self.timer: asyncio.TimerHandle | None = None
        self.enter(None)

    def enter(self, table: Table | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.table = table
        self.held = 0  # history messages received of the current game
        self.v = 0  # the newest v seen of it
        self.behind: tuple[float, int] | None = None  # since when it lacks which v (Bench.watch)
        self.offer: tuple[int, dict[str, Any], list[dict[str, Any]]] | None = None  # newest (v, view, legal)
        self.answered = -1  # the v of the offer last answered: each v is answered once
        self.pending: tuple[str, float] | None = None  # (ref, sent at) of the action in flight
        self.floor = 0  # the v its own last action made: older offers are stale
        self.retry = False  # its action was refused: the Snapshot asked for then may be answered again
        self.synced = False  # a Snapshot of this game has come
        self.marker = f'"game":{table.game_id},' if table is not None else None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def resync(self, bench: Bench, start: int | None = None) -> None:
        if self.table is not None:
            bench.meter.resyncs += bench.meter.inside(time.perf_counter())
            await self.send({"type": "Resync", "game": self.table.game_id,
                             "from": self.held if start is None else start})


class Table:
    def __init__(self, game_id: int, seats: list[Seat], slot: int) -> None:
        self.game_id = game_id
        self.seats = seats
        self.slot = slot  # its place in Bench.tables (a new game there replaces it)
        self.sent: dict[int, float] = {}  # v an applied action made -> when it was sent (until complete)
        self.arrivals: dict[int, dict[int, float]] = {}  # v -> user -> when its push came
        self.heard = time.perf_counter()  # the last frame about this game
        self.over: set[int] = set()  # seats that know the game is over
        self.finished = False

    def complete(self, v: int, meter: Meter) -> None:
        """Every seat has v's push and its action's ActionApplied is back: one latency."""
        sent, arrived = self.sent.get(v), self.arrivals.get(v)
        if sent is None or arrived is None or len(arrived) < len(self.seats):
            return
        del self.sent[v], self.arrivals[v]
        if meter.inside(sent):
            meter.latencies.append(max(arrived.values()) - sent)
            meter.sent_at.append(sent)


class Bench:
    """Every client of the run and the think-time play; ``meter`` is the current step's."""

    def __init__(self, spec: GameSpec, think: float, jitter: float) -> None:
        self.spec = spec
        self.choose = spec.bot()
        self.think = think
        self.jitter = jitter
        # A table's seats think in turn: silence up to a few think times is play, not a lost frame.
        self.silence = max(SILENCE_SECONDS, 4 * think)
        self.meter = Meter()
        self.seats: list[Seat] = []
        self.tables: list[Table | None] = []  # None: a table that gave up starting a new game
        self.failures: list[str] = []  # client tasks that died (bench/live.py's _guarded appends here)
        self.tasks: set[asyncio.Task[None]] = set()
        self.last_frame = 0.0
        self.gc_began = 0.0
        self.stopping = False  # the run is over: no more decisions, new games or resyncs

    def stop(self) -> None:
        self.stopping = True
        for seat in self.seats:
            seat.enter(None)  # cancels its think timer

    def spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(_guarded(coroutine, self, name))
        self.tasks.add(task)  # a task nobody references may be collected mid-run
        task.add_done_callback(self.tasks.discard)

    # -- deciding -----------------------------------------------------------------------------------

    def offer(self, seat: Seat, v: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        """A decision may be offered: the seat answers it after its think time (the newest offer
        it holds by then), unless it is already thinking."""
        if seat.offer is None or v >= seat.offer[0]:
            seat.offer = (v, view, legal)
        if seat.timer is None and v > seat.answered and v >= seat.floor and self.spec.decides(legal):
            delay = self.think * seat.rng.uniform(1 - self.jitter, 1 + self.jitter)
            seat.timer = asyncio.get_running_loop().call_later(delay, self._wake, seat)

    def _wake(self, seat: Seat) -> None:
        seat.timer = None
        self.spawn(self.decide(seat), f"decision of {seat.user_id}")

    async def decide(self, seat: Seat) -> None:
        """Answer the newest offer, if it is a decision, current and not answered yet. A seat whose
        think time ended with its previous action still in flight answers when that is back."""
        if self.stopping or seat.pending is not None or seat.offer is None or seat.table is None:
            return
        v, view, legal = seat.offer
        if v <= seat.answered or v < seat.floor or not self.spec.decides(legal):
            return
        seat.answered = v
        action, params = self.choose(view, legal, seat.rng)
        seat.refs += 1
        ref = f"act:{seat.refs}"
        now = time.perf_counter()
        seat.pending = (ref, now)
        self.meter.decisions += self.meter.inside(now)
        await seat.send({"type": "DoGameAction", "game": seat.table.game_id, "v": v, "action": action,
                         "params": params, "ref": ref})

    async def replied(self, seat: Seat) -> None:
        if seat.timer is None:  # its think time is over: a newer offer held meanwhile is due now
            await self.decide(seat)

    # -- receiving ----------------------------------------------------------------------------------

    async def read(self, seat: Seat) -> None:
        """Everything one client receives: its own game's frames drive its play."""
        async for frame in seat.ws:
            now = self.last_frame = time.perf_counter()
            meter = self.meter
            if meter.inside(now):
                meter.frames += 1
                meter.table_frames += seat.table is not None and seat.marker in frame
            for text in split_frame(frame):
                await self._on_message(seat, text, now)

    async def _on_message(self, seat: Seat, text: str, now: float) -> None:
        """One message of a frame (a ``LobbyMessages`` frame holds several)."""
        meter = self.meter
        table = seat.table
        if text.startswith('{"type":"Error"'):
            error = json.loads(text)
            ref = error.get("ref")
            if isinstance(ref, str) and ref.startswith("act:"):  # an action refused
                meter.error(error["code"], now)
                if seat.pending is not None and seat.pending[0] == ref:
                    seat.pending = None
                    seat.retry = True
                    await seat.resync(self)  # what is current, to decide again from
            elif ref is not None:
                seat.inbox.put_nowait(error)  # the answer to a set-up request
            else:
                meter.error(error["code"], now)
            return
        if table is None or seat.marker not in text:
            if text.startswith('{"type":"GameCreated"') and f'"host":{seat.user_id},' in text:
                seat.inbox.put_nowait(json.loads(text))
            return
        frame = json.loads(text)
        kind = frame["type"]
        table.heard = now
        if kind == "GameMessages":
            await self._on_push(seat, table, frame, now)
        elif kind == "Snapshot":
            self._on_snapshot(seat, table, frame, now)
        elif kind == "ActionApplied":
            if seat.pending is not None and seat.pending[0] == frame.get("ref"):
                v = frame["v"]
                table.sent[v] = seat.pending[1]
                if meter.inside(seat.pending[1]):
                    meter.tables.add(table)
                seat.floor = max(seat.floor, v)
                seat.pending = None
                meter.actions += meter.inside(now)
                table.complete(v, meter)
                await self.replied(seat)
        elif kind not in ("GameStarted", "GameInactive", "ClientEnteredGame"):
            seat.inbox.put_nowait(frame)  # set-up: UserJoinedGame, SetupAccepted, ...

    async def _on_push(self, seat: Seat, table: Table, frame: dict[str, Any], now: float) -> None:
        v, start = frame["v"], frame["start"]
        table.arrivals.setdefault(v, {}).setdefault(seat.user_id, now)
        table.complete(v, self.meter)
        self.meter.late += self.meter.inside(now) and v < seat.v
        seat.v = max(seat.v, v)
        held = seat.held
        missed = start > held  # (start < held: a Snapshot got there first)
        seat.held = max(held, start + len(frame["messages"]))
        if not frame["to_act"]:
            self._done(seat, table, now)
            return
        if missed:
            self.meter.gaps += self.meter.inside(now)
            await seat.resync(self, held)  # for the history it lacks; the push's view is current anyway
        if "legal" not in frame:  # bench/live.py's old path (a Snapshot per decision) is not kept here
            raise RuntimeError("the server's pushes carry no legal: it is older than this bench")
        self.offer(seat, v, frame["view"], frame["legal"])

    def _on_snapshot(self, seat: Seat, table: Table, frame: dict[str, Any], now: float) -> None:
        seat.held = frame.get("history_start", 0) + len(frame["history"])
        seat.v = max(seat.v, frame["v"])
        seat.synced = True
        if frame["status"] in ("finished", "aborted"):
            self._done(seat, table, now)
            return
        if seat.retry:  # its action was refused: what is current now may be answered, same v or not
            seat.retry = False
            seat.answered = -1
        self.offer(seat, frame["v"], frame["view"], frame["legal"])

    def _done(self, seat: Seat, table: Table, now: float) -> None:
        table.over.add(seat.user_id)
        if len(table.over) == len(table.seats) and not table.finished:
            table.finished = True
            self.meter.games_finished += self.meter.inside(now)
            if self.stopping:
                return
            self.spawn(self.new_game(table), f"new game of table {table.slot}")

    # -- tables ---------------------------------------------------------------------------------------

    async def new_game(self, old: Table) -> None:
        """A finished table starts a new game over the WebSocket (bench/live.py's _set_up): the host
        opens it, the others join, everyone accepts; the first push carries the first decision.
        Only the table's id arrives by broadcast alone (GameCreated); if that is lost the host opens
        another (three tries), and a table that gives up stays empty for the rest of the run."""
        seats = old.seats
        host, *guests = seats
        for seat in seats:
            seat.enter(None)
        for _attempt in range(3):
            for seat in seats:
                while not seat.inbox.empty():
                    seat.inbox.get_nowait()
            await host.send({"type": "CreateGame", "game_type": self.spec.key, "mode": self.spec.mode})
            try:
                created = await _next_frame(host, "GameCreated")
            except TimeoutError:
                self.meter.setup_retries += self.meter.inside(time.perf_counter())
                continue
            table = Table(created["game"], seats, old.slot)
            for seat in seats:
                seat.enter(table)
            failed = None
            for guest in guests:  # one at a time: a join must be done before anyone accepts
                failed = failed or await _request(guest, {"type": "JoinGame", "game": table.game_id})
            for seat in seats:
                failed = failed or await _request(seat, {"type": "AcceptSetup", "game": table.game_id})
            if failed is not None:
                self.meter.error(f"setup:{failed}", time.perf_counter())
                break
            self.tables[old.slot] = table
            return
        self.meter.setup_failures += self.meter.inside(time.perf_counter())
        self.tables[old.slot] = None

    async def lag(self) -> None:
        """How late this process's event loop runs a timer: a client that stalls delays every
        seat's sends and receives at once and would show as the server's latency."""
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            late = time.perf_counter() - began - 0.01
            if self.meter.inside(began):
                self.meter.lag = max(self.meter.lag, late)

    def collected(self, phase: str, info: dict[str, Any]) -> None:
        """gc.callbacks: the pause of each collection."""
        if phase == "start":
            self.gc_began = time.perf_counter()
        elif self.meter.inside(self.gc_began):
            self.meter.gc_pause = max(self.meter.gc_pause, time.perf_counter() - self.gc_began)

    async def watch(self) -> None:
        """Once a second: resync a seat still behind its table LAG_SECONDS after another seat had a
        newer v (a push lost), or every seat of a table silent for ``silence`` (bench/live.py's
        _until_finished, for all tables in one task); and forget pushes of no action of ours (the
        first of each game) and actions whose pushes never all came, after two minutes."""
        ticks = 0
        while True:
            await asyncio.sleep(1.0)
            ticks += 1
            now = time.perf_counter()
            for table in self.tables:
                if table is None or table.finished:
                    continue
                latest = max(seat.v for seat in table.seats)
                silent = now - table.heard >= self.silence
                for seat in table.seats:
                    if silent or (seat.behind is not None and seat.v < seat.behind[1]
                                  and now - seat.behind[0] >= LAG_SECONDS):
                        self.meter.stalls += self.meter.inside(now)
                        seat.behind = None
                        await seat.resync(self)
                    elif seat.v >= latest:
                        seat.behind = None
                    elif seat.behind is None or seat.v >= seat.behind[1]:
                        seat.behind = (now, latest)
                if silent:
                    table.heard = now
                if ticks % 10 == 0:
                    for v in [v for v, arrived in table.arrivals.items() if now - min(arrived.values()) > 120]:
                        del table.arrivals[v]
                        table.sent.pop(v, None)
                    for v in [v for v, sent in table.sent.items() if now - sent > 120]:
                        del table.sent[v]


async def _connect(bench: Bench, address: tuple[str, int], user: list[Any], seed: int) -> Seat:
    import websockets

    user_id, _, token = user
    ws = await websockets.connect(f"ws://{address[0]}:{address[1]}/ws/bot/", compression=None, max_size=None,
                                  open_timeout=60, ping_interval=None, close_timeout=5)
    await ws.send(json.dumps({"type": "Login", "version": 1, "token": token, "lobby": False, "history": False}))
    async with asyncio.timeout(60):
        while not (await ws.recv()).startswith('{"type":"Greetings"'):
            pass
    seat = Seat(ws, user_id, random.Random(f"{seed}:{user_id}"))
    # Read from the start: a client that stops reading stops answering the server's pings.
    bench.spawn(bench.read(seat), f"client {user_id}")
    return seat


# -- one run -----------------------------------------------------------------------------------------------


@dataclass
class Probe:
    """CPU counters at one moment, to take the window's use as a difference."""

    at: float
    servers: list[float]
    balancer: dict[int, float]
    database: dict[int, float]
    redis: dict[int, float]
    client: float
    machine: float


def _probe(servers: Servers, database_pids: list[int], redis_pids: list[int]) -> Probe:
    return Probe(time.perf_counter(), [_cpu_seconds(pid) for pid in servers.server_pids()],
                 cpu_of(servers.balancer_pids()), cpu_of(database_pids), cpu_of(redis_pids), time.process_time(),
                 machine_busy_seconds())


def _mib(kib: float | None) -> float | None:
    return None if kib is None else round(kib / 1024, 1)


def _step_figures(meter: Meter, tables: int, seats: int, think: float, before: Probe, after: Probe,
                  servers: Servers, rss_before_kib: float, clients_before: int, p99_limit_ms: float,
                  ready_seconds: float, postgres: bool, redis: bool) -> dict[str, Any]:
    spent = after.at - before.at
    server_cpu = [(b - a) / spent for a, b in zip(before.servers, after.servers)]
    client_cpu = (after.client - before.client) / spent
    others = {"balancer_cpu": cpu_between(before.balancer, after.balancer) / spent if before.balancer else None,
              "database_cpu": cpu_between(before.database, after.database) / spent if postgres else None,
              "redis_cpu": cpu_between(before.redis, after.redis) / spent if redis else None}
    machine = (after.machine - before.machine) / spent
    accounted = sum(server_cpu) + client_cpu + sum(v for v in others.values() if v is not None)
    rss = [rss_kib(pid) for pid in servers.server_pids()]
    rss_total = sum(r for r in rss if r is not None)
    clients = tables * seats
    latencies = meter.latencies
    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    incomplete = meter.incomplete()
    lobby = meter.frames - meter.table_frames
    actions = max(1, meter.actions)
    return {
        "tables": tables,
        "clients": clients,
        "window_s": round(spent, 1),
        "actions": meter.actions,
        "actions_per_s": round(meter.actions / spent, 1),
        "offered_per_s": round(tables / think, 1),
        "latency_samples": len(latencies),
        "p50_ms": round(p50 * 1000, 1) if p50 is not None else None,
        "p99_ms": round(p99 * 1000, 1) if p99 is not None else None,
        "max_ms": round(max(latencies) * 1000, 1) if latencies else None,
        "incomplete": incomplete,
        "passes": p99 is not None and p99 * 1000 < p99_limit_ms and incomplete == 0,
        "errors": meter.errors,
        "gaps": meter.gaps,
        "stalls": meter.stalls,
        "resyncs": meter.resyncs,
        "late": meter.late,
        "games_finished": meter.games_finished,
        "setup_retries": meter.setup_retries,
        "setup_failures": meter.setup_failures,
        "frames": meter.frames,
        "frames_per_action": round(meter.frames / actions, 2),
        "lobby_frames": lobby,
        "lobby_frames_per_action": round(lobby / actions, 2),
        "server_cpu": [round(c, 2) for c in server_cpu],
        "server_cpu_total": round(sum(server_cpu), 2),
        "server_rss_mib": [_mib(r) for r in rss],
        "server_rss_mib_total": _mib(rss_total),
        "rss_per_connection_kib": round(rss_total / clients, 1),
        "rss_marginal_per_connection_kib": round((rss_total - rss_before_kib) / max(1, clients - clients_before), 1),
        **{name: round(value, 2) if value is not None else None for name, value in others.items()},
        "client_cpu": round(client_cpu, 2),
        "client_lag_max_ms": round(meter.lag * 1000, 1),
        "client_gc_pause_max_ms": round(meter.gc_pause * 1000, 1),
        "client_rss_mib": _mib(rss_kib(os.getpid())),
        "client_bound": client_cpu > 0.9,
        "machine_cpu": round(machine, 2),
        "other_cpu": round(max(0.0, machine - accounted), 2),
        "ready_s": round(ready_seconds, 1),
    }


async def _run(bench: Bench, servers: Servers, steps: list[int], users: list[list[list[Any]]],
               open_tables: Callable[[int], list[int]], settle: float, window: float, p99_limit_ms: float,
               keep_going: bool, connect_batch: int, seed: int, postgres: bool, redis: bool,
               report: Callable[[dict[str, Any]], None], samples: Path | None) -> tuple[list[dict[str, Any]], float]:
    seats_per_table = bench.spec.seats
    watcher = asyncio.get_running_loop().create_task(bench.watch())
    lag = asyncio.get_running_loop().create_task(bench.lag())
    gc.callbacks.append(bench.collected)
    await asyncio.sleep(1.0)  # the idle server, before any client
    rss_idle = sum(r for r in map(rss_kib, servers.server_pids()) if r is not None)
    rss_before, clients_before = float(rss_idle), 0
    results: list[dict[str, Any]] = []
    try:
        for number, total in enumerate(steps):
            began = time.perf_counter()
            fresh = users[number]
            new: list[Seat] = []
            for start in range(0, len(fresh), connect_batch):
                batch = fresh[start : start + connect_batch]
                first = len(bench.seats) + len(new)
                new += await asyncio.gather(*(
                    _connect(bench, servers.address_of(first + i, seats_per_table), user, seed)
                    for i, user in enumerate(batch)))
            bench.seats += new
            game_ids = await asyncio.to_thread(open_tables, number)
            for n, game_id in enumerate(game_ids):
                table = Table(game_id, new[n * seats_per_table : (n + 1) * seats_per_table], len(bench.tables))
                bench.tables.append(table)
                for seat in table.seats:
                    seat.enter(table)
                    await seat.resync(bench)  # its Snapshot offers its first decision, if it has one
            # The settling counts from when every new table plays: a busy server may take a while
            # to answer a thousand Resyncs, and its backlog is no part of the steady state.
            try:
                async with asyncio.timeout(300):
                    while not all(seat.synced for seat in new):
                        await asyncio.sleep(0.1)
            except TimeoutError:
                bench.failures.append(f"step {total}: {sum(not s.synced for s in new)} seats without a Snapshot")
            ready = time.perf_counter() - began
            await asyncio.sleep(settle)
            # This process's cyclic garbage collector is kept out of the window: with thousands of
            # clients a full collection scans millions of objects (half a second at 4,000), a stall
            # of every client at once that would be read as the server's latency. What exists now
            # (the sockets, the seats) is frozen out of later collections, and none runs in the
            # window (the clients' garbage is freed by reference counting; cycles wait for the end).
            gc.collect()
            gc.freeze()
            gc.disable()
            # That collection stalled this process (a few hundred ms at thousands of sockets): the
            # frames that came meanwhile are read before the window opens, or the first actions of
            # the window would wait behind them and the client's stall read as the server's latency.
            await asyncio.sleep(DRAIN_SECONDS)
            meter = Meter()
            # Looked up now: the servers open their database connections (PostgreSQL backends) lazily.
            database_pids = pids_named("postgres") if postgres else []
            redis_pids = pids_named("redis-server") if redis else []
            before = _probe(servers, database_pids, redis_pids)
            meter.begin, meter.end = before.at, before.at + window
            bench.meter = meter
            await asyncio.sleep(window)
            after = _probe(servers, database_pids, redis_pids)
            grace = time.perf_counter() + GRACE_SECONDS
            while time.perf_counter() < grace and meter.incomplete():
                await asyncio.sleep(0.2)
            gc.enable()  # once the window's last pushes are in
            figures = _step_figures(meter, total, seats_per_table, bench.think, before, after, servers,
                                    rss_before, clients_before, p99_limit_ms, ready,
                                    postgres, redis)
            figures["client_failures"] = len(bench.failures)
            rss_before, clients_before = figures["server_rss_mib_total"] * 1024, figures["clients"]
            results.append(figures)
            report(figures)
            if samples is not None:  # every latency of the window, to see when the slow ones happened
                with samples.open("a") as out:
                    out.write(json.dumps({"tables": total, "samples": [
                        [round(at - meter.begin, 4), round(latency, 4)]
                        for at, latency in zip(meter.sent_at, meter.latencies)]}) + "\n")
            if not figures["passes"] and not keep_going:
                break
    finally:
        gc.enable()
        watcher.cancel()
        lag.cancel()
        gc.callbacks.remove(bench.collected)
        bench.stop()
        for task in list(bench.tasks):  # readers, decisions, new games: nothing is measured any more
            task.cancel()
        # Close every socket, a batch at a time and bounded: the servers go next anyway.
        for start in range(0, len(bench.seats), 500):
            try:
                async with asyncio.timeout(20):
                    await asyncio.gather(*(s.ws.close() for s in bench.seats[start : start + 500]),
                                         return_exceptions=True)
            except TimeoutError:
                pass
    return results, rss_idle / 1024


def _raise_file_limit(needed: int) -> int:
    """Raise the soft limit on open files towards the hard one (the servers started later inherit
    it); the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    if soft != resource.RLIM_INFINITY and soft < needed:
        raise SystemExit(f"{needed} open files needed, the limit is {soft} (hard {hard}): raise ulimit -n")
    return soft


def run(steps: list[int], *, think: float = 5.0, jitter: float = 0.2, settle: float = 20.0, window: float = 30.0,
        p99_ms: float = 100.0, daphnes: int = 1, server: str = "serve", split: str = "seats",
        balancer: bool = False, connect_batch: int = 50, keep_going: bool = False, seed: int = 0,
        game: str = "acquire", environ: dict[str, str] | None = None, samples: Path | None = None,
        report: Callable[[dict[str, Any]], None] = lambda figures: None) -> dict[str, Any]:
    """The capacity bench (module docstring); the figures as a dict. ``report`` is called with each
    step's figures as soon as they are in; ``samples``: a file each step's latencies are appended
    to, one JSON line a step (``[sent, latency]`` pairs, seconds from the window's start)."""
    if not steps or any(b <= a for a, b in zip([0, *steps], steps)):
        raise SystemExit("--steps must be increasing table counts, e.g. 250,500,1000")
    if daphnes < 1:
        raise SystemExit("--daphnes must be at least 1")
    spec = GAMES[game]
    env = dict(os.environ if environ is None else environ)
    if daphnes > 1 and not env.get("REDIS_URL"):
        raise SystemExit(f"--daphnes {daphnes} needs REDIS_URL: only the Redis channel layer carries a push "
                         "from the process that applied a move to clients connected to another")
    clients = steps[-1] * spec.seats
    # Each client: one descriptor here, one in the server process it reaches (two in HAProxy).
    file_limit = _raise_file_limit(clients + 1000)
    with tempfile.TemporaryDirectory(prefix="capacity-bench-") as temporary:
        workdir = Path(temporary)
        postgres = bool(env.get("DATABASE_URL"))
        database = "PostgreSQL (DATABASE_URL)" if postgres else "SQLite file in a temp dir"
        if not postgres:
            env["DATABASE_URL"] = f"sqlite:///{workdir / 'capacity.sqlite3'}"
        redis = bool(env.get("REDIS_URL"))
        # Every client connects from this machine's one address: the per-address cap (docs/security.md)
        # would refuse all but the first 64; the bench raises it, unless told a value.
        env.setdefault("MAX_CONNECTIONS_PER_ADDRESS", str(clients + 100))
        base = f"capbench-{secrets.token_hex(3)}-"
        env.update(DJANGO_SETTINGS_MODULE="config.settings", BENCH_GAME_TYPE=spec.key, BENCH_MODE=str(spec.mode),
                   BENCH_TABLE_SIZE=str(spec.seats))
        helper_env = {**env, "REDIS_URL": ""}  # its pushes go nowhere (bench/live.py's SETUP_BENCH_TABLES)
        # Each step's users under a prefix of their own, so its tables are opened from them alone.
        began = time.perf_counter()
        users = []
        for number, (before, total) in enumerate(zip([0, *steps], steps)):
            step_env = {**env, "BENCH_PREFIX": f"{base}{number}-", "BENCH_USERS": str((total - before) * spec.seats)}
            users.append(json.loads(_manage_shell(ROOT, SETUP_BENCH_USERS, step_env)))
        users_seconds = time.perf_counter() - began

        def open_tables(number: int) -> list[int]:
            step_env = {**helper_env, "BENCH_PREFIX": f"{base}{number}-"}
            return json.loads(_manage_shell(ROOT, SETUP_BENCH_TABLES, step_env))

        servers: Servers = (BalancedServers(daphnes, env, workdir) if balancer
                            else LocalServers(server, daphnes, env, workdir, split))
        bench = Bench(spec, think, jitter)
        try:
            servers.start()
            results, rss_idle_mib = asyncio.run(_run(
                bench, servers, steps, users, open_tables, settle, window, p99_ms, keep_going, connect_batch, seed,
                postgres, redis, report, samples))
            died = servers.died()
            tracebacks = _tracebacks([log for log in servers.logs if log.exists()])
        finally:
            servers.stop()
            if postgres:  # that database outlives the bench: no bench game stays in progress there
                _manage_shell(ROOT, ABORT_BENCH_GAMES, {**helper_env, "BENCH_PREFIX": base})
    passed = [r["tables"] for r in results if r["passes"]]
    return {
        "game": game,
        "mode": spec.mode_name,
        "servers": servers.description,
        "server": "manage.py serve" if balancer else server,
        "daphnes": daphnes,
        "balancer": balancer,
        "split": split if daphnes > 1 and not balancer else None,
        "database": database,
        "channel_layer": "Redis (REDIS_URL)" if redis else "in-memory",
        "think_s": think,
        "jitter": jitter,
        "settle_s": settle,
        "window_s": window,
        "p99_limit_ms": p99_ms,
        "steps": results,
        "capacity_tables": max(passed) if passed else None,
        "server_rss_idle_mib": round(rss_idle_mib, 1),
        "users_seconds": round(users_seconds, 1),
        "file_limit": file_limit,
        "client_failures": bench.failures[:20],
        "server_tracebacks": len(tracebacks),
        "server_traceback_first": tracebacks[0][-2000:] if tracebacks else None,
        "servers_died": died,
    }


def describe_step(f: dict[str, Any], indent: str = "  ") -> list[str]:
    """One step's figures as readable lines."""
    extra = "".join(f", {name.removesuffix('_cpu')} {f[name]}" for name in ("balancer_cpu", "database_cpu",
                                                                            "redis_cpu") if f.get(name) is not None)
    return [
        f"{f['tables']} tables, {f['clients']} clients: {f['actions_per_s']} actions/s (offered {f['offered_per_s']}), "
        f"action -> all pushes p50 {f['p50_ms']} ms, p99 {f['p99_ms']} ms, max {f['max_ms']} ms "
        f"({f['latency_samples']} actions, {f['incomplete']} incomplete): {'PASS' if f['passes'] else 'FAIL'}",
        f"{indent}errors {f['errors'] or 'none'}; gaps {f['gaps']}, stalls {f['stalls']}, resyncs {f['resyncs']}, "
        f"late {f['late']}; {f['games_finished']} games finished, {f['setup_retries']} set-up retries, "
        f"{f['setup_failures']} set-up failures",
        f"{indent}frames per action {f['frames_per_action']}, of which lobby {f['lobby_frames_per_action']}",
        f"{indent}server CPU {f['server_cpu_total']} {f['server_cpu']}, RSS {f['server_rss_mib_total']} MiB "
        f"{f['server_rss_mib']} = {f['rss_per_connection_kib']} KiB per connection "
        f"({f['rss_marginal_per_connection_kib']} KiB per connection added)",
        f"{indent}client CPU {f['client_cpu']}{' (client-bound!)' if f['client_bound'] else ''}, "
        f"event loop late by up to {f['client_lag_max_ms']} ms (gc pauses up to {f['client_gc_pause_max_ms']} ms), "
        f"RSS {f['client_rss_mib']} MiB{extra}; machine {f['machine_cpu']} cores busy, "
        f"{f['other_cpu']} of them by other processes; connect and open {f['ready_s']} s",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="250,500,1000,1500", help="total tables at each step, increasing")
    parser.add_argument("--think", type=float, default=5.0, help="seconds a seat takes to decide")
    parser.add_argument("--jitter", type=float, default=0.2, help="each think time is drawn within this fraction of it")
    parser.add_argument("--settle", type=float, default=20.0, help="seconds after a step's tables start, unmeasured")
    parser.add_argument("--window", type=float, default=30.0, help="measuring window of each step, seconds")
    parser.add_argument("--p99-ms", type=float, default=100.0, help="a step passes with p99 under this")
    parser.add_argument("--daphnes", type=int, default=1, help="server processes (2 or more need REDIS_URL)")
    parser.add_argument("--server", choices=SERVER_KINDS, default="serve",
                        help="manage.py serve (what make run runs) or python -m daphne (as bench/live.py)")
    parser.add_argument("--split", choices=("seats", "tables"), default="seats",
                        help="with several processes: alternate the seats of each table (default), or whole tables")
    parser.add_argument("--balancer", action="store_true",
                        help="HAProxy in front of the processes (deploy/cluster.py); clients connect to it")
    parser.add_argument("--connect-batch", type=int, default=50, help="clients connecting at once")
    parser.add_argument("--keep-going", action="store_true", help="run every step, not only up to the first failure")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=sorted(GAMES), default="acquire")
    parser.add_argument("--samples", type=Path, default=None,
                        help="append each step's latencies to this file ([sent, latency] pairs, one JSON line a step)")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",") if s.strip()]

    def report(figures: dict[str, Any]) -> None:
        print("\n".join(describe_step(figures)), flush=True)

    figures = run(steps, think=args.think, jitter=args.jitter, settle=args.settle, window=args.window,
                  p99_ms=args.p99_ms, daphnes=args.daphnes, server=args.server, split=args.split,
                  balancer=args.balancer, connect_batch=args.connect_batch, keep_going=args.keep_going,
                  seed=args.seed, game=args.game, samples=args.samples, report=report)
    print(f"capacity: {figures['capacity_tables']} tables with p99 under {figures['p99_limit_ms']:g} ms "
          f"({figures['servers']}; {figures['database']}, {figures['channel_layer']} channel layer; "
          f"think {figures['think_s']:g} s)")
    if figures["client_failures"] or figures["server_tracebacks"] or figures["servers_died"]:
        print(f"PROBLEMS: client tasks died: {figures['client_failures'] or 'none'}; "
              f"{figures['server_tracebacks']} tracebacks in the server logs; "
              f"servers died: {figures['servers_died'] or 'none'}")
        if figures["server_traceback_first"]:
            print(f"the first traceback:\n{figures['server_traceback_first']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
