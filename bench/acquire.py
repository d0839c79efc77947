"""Acquire throughput: bot games in the engine alone, bot clients over WebSockets against one
Daphne process, bot games through the game service in-process, and oracle replays.

    .venv/bin/python bench/acquire.py [--parts abcd] [--engine-seconds 8]
        [--ws-games 50] [--ws-seconds 60] [--service-seconds 15] [--oracle-seconds 5]

(a) built-in bots play complete games against the engine directly (no Django, no database);
(b) ``--ws-games`` Acquire tables (Singles 4) play at once over WebSockets against ONE Daphne child
    process: four bot clients per table (``websockets``), each deciding with
    ``games.acquire.bot.choose`` on the view and legal actions of its own Snapshot, exactly as a
    remote bot would (a client named in ``to_act`` sends Resync, then DoGameAction). A finished
    table starts a new game at once, so the load stays at ``--ws-games`` games for the whole
    ``--ws-seconds`` measuring window. Reported: actions per second, and p50 / p99 of the time from
    sending an action to all four clients of that table having received the GameMessages carrying
    that action's ``v``. The server uses a fresh SQLite file in a temporary directory, or the
    PostgreSQL of ``DATABASE_URL`` when set (bench users get a random name prefix there, and the
    games stay in that database, the unfinished ones aborted at the end); ``REDIS_URL``, when set,
    is its channel layer. The first tables are opened through the lobby code in a helper process
    while the clients are connected (over the WebSocket each set-up step is broadcast to every
    client, some 2,800 frames per table at 200 clients); the play itself is all WebSocket. A
    client whose GameMessages was dropped (the channel layer drops frames for a client whose queue
    is full) notices it by ``start`` or by lagging its table and sends Resync; drops are counted;
(c) the same bots play complete games through the lobby and ``services.apply_action`` in this
    process on a fresh SQLite file in a temporary directory (migrated first), exactly as
    ``manage.py playbots`` does;
(d) the 100 reference games in ../shared/oracle/acquire/games.jsonl are replayed from their
    review arrays.

(a), (c) and (d) run whole games until their time budget is spent (at least one game). The last
line is one JSON object with the figures. There is no peer implementation to compare with, so
every figure is absolute.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ORACLE = ROOT.parent / "shared" / "oracle" / "acquire" / "games.jsonl"
ENGINE_MODES = (2, 3, 4, 5, 6, 7, 8, 9)  # every mode with opponents; Singles 1 is trivial

sys.path.insert(0, str(ROOT))


def bench_engine(seconds: float, seed: int) -> dict[str, Any]:
    from games.acquire.bot import choose
    from games.acquire.engine.game import AcquireGame
    from games.acquire.engine.modes import MODES

    games = actions = 0
    began = time.perf_counter()
    while games == 0 or time.perf_counter() - began < seconds:
        mode = MODES[ENGINE_MODES[games % len(ENGINE_MODES)]]
        game = AcquireGame.create(mode=mode, seed=seed + games, rules={})
        rng = random.Random(seed + games)
        game.apply(*game.initial_actions()[0])
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(seat, *choose(game.view(seat), game.legal_actions(seat), rng))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - began
    return {"games": games, "actions": actions, "seconds": elapsed}


# ---------------------------------------------------------------------- (b) over WebSockets

WS_MODE = 4  # Singles 4: four bot clients per table
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
# set-up step (some 2,800 frames per table at 200 clients, which took this server over a minute).
# Games started later, when one ends inside the window, are set up over the WebSocket.
SETUP_BENCH_TABLES = """
import json, os
from accounts.models import User
from games import lobby
prefix, size = os.environ["BENCH_PREFIX"], int(os.environ["BENCH_TABLE_SIZE"])
users = list(User.objects.filter(username__startswith=prefix).order_by("id"))
games = []
for begin in range(0, len(users) - size + 1, size):
    host, *guests = users[begin : begin + size]
    game = lobby.create_table(host, "acquire", size)
    for guest in guests:
        lobby.join(guest, game.id)
    for user in (host, *guests):
        lobby.accept(user, game.id)
    games.append(game.id)
print(json.dumps(games))
"""
ABORT_BENCH_GAMES = """
import os
from games import services
from games.models import Game
prefix = os.environ["BENCH_PREFIX"]
for game_id in Game.objects.filter(status="active", host__username__startswith=prefix).values_list("id", flat=True):
    services.abort(game_id)
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


def _percentile(samples: list[float], q: float) -> float | None:
    """Nearest-rank percentile."""
    if not samples:
        return None
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass
class WsStats:
    window: tuple[float, float] = (math.inf, math.inf)  # measuring window (perf_counter)
    playing: bool = False  # bots hold their moves until every table has started
    actions: int = 0  # ActionApplied received inside the window
    games_finished: int = 0  # games that ended inside the window
    latencies: list[float] = field(default_factory=list)  # seconds, actions sent inside the window
    incomplete: int = 0  # applied actions sent in the window not seen by all four seats (frames dropped)
    gaps: int = 0  # GameMessages whose start showed a dropped frame (then a Resync)
    stalls: int = 0  # seats resynced because they fell behind (see _until_finished)
    setup_retries: int = 0  # CreateGame sent again because its GameCreated was dropped
    setup_failures: int = 0  # tables that gave up starting a new game (three GameCreated dropped)
    last_frame: float = 0.0  # when any client last received anything
    ready_seconds: float = 0.0  # logins and table set-ups, before the window
    errors: dict[str, int] = field(default_factory=dict)  # Error replies inside the window, by code
    server_cpu: float = math.nan  # CPU cores used inside the window: the Daphne process
    client_cpu: float = math.nan  # and this process (all bot clients)
    tables: list[WsTable] = field(default_factory=list)

    def inside(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]


LAG_SECONDS = 5.0  # a seat this far behind its table's latest v lost a frame
SILENCE_SECONDS = 30.0  # a table this long without a frame lost one for every seat


class WsSeat:
    """One bot client: its socket, its user, and what it knows of its current game."""

    def __init__(self, ws: Any, user_id: int, rng: random.Random) -> None:
        self.ws = ws
        self.user_id = user_id
        self.rng = rng
        self.table: WsTable | None = None
        self.position: int | None = None
        self.held = 0  # history messages received for the current game
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # set-up frames for the table task
        self.marker = ""
        self.refs = 0
        self.v = 0  # the latest v it has seen of its current game
        self.acted_on = -1  # the v of the Snapshot it last answered
        self.behind_since: float | None = None

    def enter(self, table: WsTable) -> None:
        self.table, self.position, self.held, self.v, self.behind_since = table, None, 0, 0, None
        self.acted_on = -1
        # Every client receives every game's spectator messages; only its own game's are parsed.
        self.marker = f'"game":{table.game_id},'

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def resync(self) -> None:
        if self.table is not None:
            await self.send({"type": "Resync", "game": self.table.game_id})


class WsTable:
    def __init__(self, game_id: int, seats: list[WsSeat]) -> None:
        self.game_id = game_id
        self.seats = seats
        self.sent: dict[int, float] = {}  # v an action will make -> when it was sent
        self.arrivals: dict[int, list[float]] = {}  # v -> when each seat received it
        self.applied: set[int] = set()  # v of each action the server confirmed (ActionApplied)
        self.heard = time.perf_counter()  # the last frame about this game
        self.over: set[int] = set()  # seats that know the game is over
        self.finished = asyncio.Event()

    def done(self, seat: WsSeat, stats: WsStats, now: float) -> None:
        self.over.add(seat.user_id)
        if len(self.over) == len(self.seats) and not self.finished.is_set():
            stats.games_finished += stats.inside(now)
            self.finished.set()


async def _seat_reader(seat: WsSeat, stats: WsStats, choose: Any) -> None:
    """Everything one client receives: its own game's frames drive its play.

    The in-memory channel layer drops frames for a client whose queue is full, so a missed
    GameMessages (its ``start`` is beyond what the client holds) is answered with a Resync.
    """
    async for text in seat.ws:
        now = stats.last_frame = time.perf_counter()
        table = seat.table
        if table is None or seat.marker not in text:
            if text.startswith('{"type":"Error"'):
                error = json.loads(text)
                if error.get("ref") is not None:
                    seat.inbox.put_nowait(error)  # the answer to a set-up request
                elif stats.inside(now):
                    stats.errors[error["code"]] = stats.errors.get(error["code"], 0) + 1
            elif text.startswith('{"type":"GameCreated"') and f'"host":{seat.user_id},' in text:
                seat.inbox.put_nowait(json.loads(text))
            continue
        frame = json.loads(text)
        kind = frame["type"]
        table.heard = now
        if kind == "GameMessages":
            v, start = frame["v"], frame["start"]
            arrivals = table.arrivals.setdefault(v, [])
            arrivals.append(now)
            if len(arrivals) == len(table.seats) and v in table.sent and stats.inside(table.sent[v]):
                stats.latencies.append(max(arrivals) - table.sent[v])
            seat.v = max(seat.v, v)
            missed = start > seat.held  # (start < held: a Snapshot got there first)
            seat.held = max(seat.held, start + len(frame["messages"]))
            if not frame["to_act"]:
                table.done(seat, stats, now)
            elif missed or (stats.playing and seat.position in frame["to_act"]):
                stats.gaps += missed
                await seat.resync()
        elif kind == "Snapshot":
            seat.held = len(frame["history"])
            seat.v = max(seat.v, frame["v"])
            seat.position = frame.get("position")
            if frame["status"] in ("finished", "aborted"):
                table.done(seat, stats, now)
            elif frame["legal"] and stats.playing and frame["v"] != seat.acted_on:
                seat.acted_on = frame["v"]  # two Snapshots of one v (a push and a resync): act once
                action, params = choose(frame["view"], frame["legal"], seat.rng)
                table.sent.setdefault(frame["v"] + 1, time.perf_counter())
                await seat.send({"type": "DoGameAction", "game": table.game_id, "v": frame["v"],
                                 "action": action, "params": params})
        elif kind == "ActionApplied":
            table.applied.add(frame["v"])
            stats.actions += stats.inside(now)
        elif kind == "GameStarted":
            seat.position = next(p["position"] for p in frame["players"] if p["user"] == seat.user_id)
        elif kind != "GameInactive":
            seat.inbox.put_nowait(frame)  # set-up: UserJoinedGame, SetupAccepted, ...


async def _next_frame(seat: WsSeat, kind: str, timeout: float = 30) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while (frame := await seat.inbox.get())["type"] != kind:
            pass
    return frame


async def _request(seat: WsSeat, message: dict[str, Any], timeout: float = 120) -> str | None:
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


async def _set_up(seats: list[WsSeat], stats: WsStats) -> WsTable | None:
    """Open a Singles 4 table, seat the other three, everyone accepts, everyone learns its seat.

    Only the table's id arrives by broadcast alone (GameCreated); if that is dropped, the host
    opens another table (up to three tries; the abandoned one just stays in set-up)."""
    host, *guests = seats
    for _attempt in range(3):
        for seat in seats:
            while not seat.inbox.empty():
                seat.inbox.get_nowait()
        await host.send({"type": "CreateGame", "game_type": "acquire", "mode": WS_MODE})
        try:
            created = await _next_frame(host, "GameCreated")
        except TimeoutError:
            stats.setup_retries += 1
            continue
        table = WsTable(created["game"], seats)
        for seat in seats:
            seat.enter(table)
        for guest in guests:  # one at a time: a join must be done before anyone accepts
            error = await _request(guest, {"type": "JoinGame", "game": table.game_id})
            assert error is None, error
        for seat in seats:
            error = await _request(seat, {"type": "AcceptSetup", "game": table.game_id})
            assert error is None, error
        for seat in seats:  # the game started with the last accept; a Snapshot names each seat
            await seat.resync()
        async with asyncio.timeout(120):
            while any(seat.position is None for seat in seats):
                await asyncio.sleep(0.02)
        stats.tables.append(table)
        return table
    stats.setup_failures += 1
    return None


async def _until_finished(table: WsTable, stats: WsStats, until: float) -> bool:
    """Wait for the game to end (True) or ``until`` (False).

    A seat whose GameMessages was dropped would wait for ever (and the whole table with it if it
    was to act), so a seat still behind its table's latest v after LAG_SECONDS asks for a
    Snapshot; a table silent for SILENCE_SECONDS (every seat's frame dropped) resyncs every seat.
    The checks cost nothing otherwise, so they do not add load to what is measured.
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
            if seat.v >= latest and not silent:
                seat.behind_since = None
            elif seat.behind_since is None:
                seat.behind_since = now
            elif now - seat.behind_since >= LAG_SECONDS or silent:
                stats.stalls += stats.inside(now)
                seat.behind_since = None
                await seat.resync()
        if silent:
            table.heard = now
    return True


async def _play_tables(seats: list[WsSeat], stats: WsStats, first: WsTable, start: asyncio.Event) -> None:
    """One table of four seats: game after game until the window closes."""
    table: WsTable | None = first
    await start.wait()
    for seat in seats:  # whoever is to act asks for its Snapshot and moves
        await seat.resync()
    while table is not None:
        end = stats.window[1]
        if not await _until_finished(table, stats, end):
            return
        if time.perf_counter() >= end:
            return
        table = await _set_up(seats, stats)  # keep the load at the same number of games


async def _quiet(stats: WsStats, idle: float = 1.0, limit: float = 120) -> None:
    """Wait until no client has received anything for ``idle`` seconds (at most ``limit``)."""
    give_up = time.perf_counter() + limit
    while time.perf_counter() - stats.last_frame < idle and time.perf_counter() < give_up:
        await asyncio.sleep(0.1)


async def _ws_run(port: int, users: list[list[Any]], tables: int, seconds: float, seed: int,
                  server_pid: int, open_tables: Any) -> WsStats:
    import websockets

    from games.acquire.bot import choose

    stats = WsStats()
    seats: list[WsSeat] = []
    connecting = time.perf_counter()

    async def connect(user: list[Any]) -> WsSeat:
        user_id, _, token = user
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", compression=None, max_size=None,
                                      open_timeout=60, ping_interval=None)
        await ws.send(json.dumps({"type": "Login", "version": 1, "token": token}))
        async with asyncio.timeout(60):
            while not (await ws.recv()).startswith('{"type":"Greetings"'):
                pass
        return WsSeat(ws, user_id, random.Random(f"{seed}:{user_id}"))

    for begin in range(0, len(users), 20):  # logins in small batches: each is announced to everybody
        seats += await asyncio.gather(*(connect(u) for u in users[begin : begin + 20]))
    readers = [asyncio.create_task(_seat_reader(seat, stats, choose)) for seat in seats]
    await _quiet(stats)  # every login announced to every client
    game_ids = await asyncio.to_thread(open_tables)
    groups = [seats[i : i + WS_MODE] for i in range(0, tables * WS_MODE, WS_MODE)]
    firsts = [WsTable(game_id, group) for game_id, group in zip(game_ids, groups, strict=True)]
    for table in firsts:
        stats.tables.append(table)
        for seat in table.seats:
            seat.enter(table)
            await seat.resync()  # the Snapshot names its seat; nobody moves until every table is ready
    async with asyncio.timeout(300):
        while any(seat.position is None for seat in seats):
            await asyncio.sleep(0.05)
    await _quiet(stats)
    start = asyncio.Event()
    players = [asyncio.create_task(_play_tables(group, stats, first, start))
               for group, first in zip(groups, firsts)]
    began = time.perf_counter()
    stats.ready_seconds = began - connecting
    stats.window = (began, began + seconds)
    stats.playing = True
    cpu_before = (_cpu_seconds(server_pid), time.process_time())
    start.set()
    await asyncio.sleep(seconds)
    cpu_after = (_cpu_seconds(server_pid), time.process_time())
    stats.server_cpu = (cpu_after[0] - cpu_before[0]) / seconds
    stats.client_cpu = (cpu_after[1] - cpu_before[1]) / seconds
    stats.playing = False  # no new moves; the pushes of those made in the window still count
    await asyncio.gather(*players)
    grace = time.perf_counter() + 30  # what has not arrived by then counts as incomplete
    while time.perf_counter() < grace and any(
        len(table.arrivals.get(v, [])) < WS_MODE
        for table in stats.tables
        for v in table.applied
        if stats.inside(table.sent.get(v, -1.0))
    ):
        await asyncio.sleep(0.1)
    for table in stats.tables:
        stats.incomplete += sum(1 for v, t in table.sent.items() if stats.inside(t) and v in table.applied
                                and len(table.arrivals.get(v, [])) < WS_MODE)
    for seat in seats:
        await seat.ws.close()
    for reader in readers:
        reader.cancel()
    return stats


def bench_websocket(tables: int, seconds: float, seed: int, workdir: Path, environ: dict[str, str]) -> dict[str, Any]:
    """(b): ``tables`` concurrent games of four bot clients against one Daphne child process."""
    env = dict(environ)
    database = "PostgreSQL (DATABASE_URL)" if env.get("DATABASE_URL") else "SQLite file in a temp dir"
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'ws.sqlite3'}"
    layer = "Redis (REDIS_URL)" if env.get("REDIS_URL") else "in-memory"
    env.update(DJANGO_SETTINGS_MODULE="config.settings", BENCH_PREFIX=f"wsbench-{secrets.token_hex(3)}-",
               BENCH_USERS=str(tables * WS_MODE))
    began = time.perf_counter()
    setup = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP_BENCH_USERS], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)
    users = json.loads(setup.stdout.strip().splitlines()[-1])
    setup_seconds = time.perf_counter() - began
    port = _free_port()
    log = open(workdir / "daphne.log", "w")  # the server's output, kept out of the bench's own
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "config.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"daphne exited with {server.returncode}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        def open_tables() -> list[int]:
            done = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP_BENCH_TABLES], cwd=ROOT,
                                  env={**env, "BENCH_TABLE_SIZE": str(WS_MODE)}, capture_output=True, text=True,
                                  check=True)
            return json.loads(done.stdout.strip().splitlines()[-1])

        stats = asyncio.run(_ws_run(port, users, tables, seconds, seed, server.pid, open_tables))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        if database.startswith("PostgreSQL"):
            # That database outlives the bench: abort the games left unfinished, so no bench game
            # stays in progress there (every Greetings would list it).
            subprocess.run([sys.executable, "manage.py", "shell", "-c", ABORT_BENCH_GAMES], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)
    p50, p99 = _percentile(stats.latencies, 0.5), _percentile(stats.latencies, 0.99)
    return {
        "tables": tables,
        "clients": tables * WS_MODE,
        "seconds": seconds,
        "actions": stats.actions,
        "games_finished": stats.games_finished,
        "latency_samples": len(stats.latencies),
        "p50_ms": round(p50 * 1000, 1) if p50 is not None else None,
        "p99_ms": round(p99 * 1000, 1) if p99 is not None else None,
        "incomplete": stats.incomplete,
        "gaps": stats.gaps,
        "stalls": stats.stalls,
        "setup_retries": stats.setup_retries,
        "setup_failures": stats.setup_failures,
        "errors": stats.errors,
        "server_cpu": round(stats.server_cpu, 2),
        "client_cpu": round(stats.client_cpu, 2),
        "database": database,
        "channel_layer": layer,
        "setup_seconds": setup_seconds,
        "ready_seconds": stats.ready_seconds,
    }


def bench_service(seconds: float, seed: int, players: int, workdir: Path) -> dict[str, Any]:
    # A throwaway SQLite file, whatever the environment points at: this measures the service on
    # the default single-machine setup, and must never touch a real database.
    os.environ["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from games.management.commands.playbots import bot_users, choose_mode, load_bot, play_table
    from games.registry import get_game_type

    migrate_began = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    migrate_seconds = time.perf_counter() - migrate_began

    game_type = get_game_type("acquire")
    assert game_type is not None
    mode = choose_mode(game_type, players, None)
    users = bot_users("acquire", mode.seats)
    choose = load_bot("acquire")
    games = actions = 0
    began = time.perf_counter()
    while games == 0 or time.perf_counter() - began < seconds:
        played = play_table("acquire", mode, users, choose, random.Random(f"{seed}:{games}"))
        games += 1
        actions += played.actions
    elapsed = time.perf_counter() - began
    connections.close_all()
    return {
        "games": games,
        "actions": actions,
        "seconds": elapsed,
        "players": mode.seats,
        "migrate_seconds": migrate_seconds,
    }


def bench_oracle(seconds: float) -> dict[str, Any] | None:
    from games.acquire.engine.review import replay

    if not ORACLE.exists():
        return None
    reviews = [json.loads(line)["review"] for line in ORACLE.read_text().splitlines() if line.strip()]
    replays = 0
    began = time.perf_counter()
    while replays == 0 or time.perf_counter() - began < seconds:
        replay(reviews[replays % len(reviews)])
        replays += 1
    return {"replays": replays, "seconds": time.perf_counter() - began}


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 2) if seconds > 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="abcd", help="which parts to run, e.g. 'ab' (default: all)")
    parser.add_argument("--engine-seconds", type=float, default=8)
    parser.add_argument("--ws-games", type=int, default=50, help="(b) games played at once, 4 bot clients each")
    parser.add_argument("--ws-seconds", type=float, default=60, help="(b) measuring window")
    parser.add_argument("--service-seconds", type=float, default=15)
    parser.add_argument("--oracle-seconds", type=float, default=5)
    parser.add_argument("--players", type=int, default=4, help="players per service game (Singles N)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    environ = dict(os.environ)  # before (c) points this process at its own SQLite file

    print("Acquire bench; no peer implementation exists to compare with, so figures are absolute.")
    figures: dict[str, Any] = {}
    if "a" in args.parts:
        engine = bench_engine(args.engine_seconds, args.seed)
        print(
            f"(a) engine alone:   {engine['games']} bot games in {engine['seconds']:.1f}s = "
            f"{_rate(engine['games'], engine['seconds'])} games/s "
            f"({_rate(engine['actions'], engine['seconds'])} actions/s; modes {list(ENGINE_MODES)})"
        )
        figures["engine_games_per_s"] = _rate(engine["games"], engine["seconds"])
        figures["engine_actions_per_s"] = _rate(engine["actions"], engine["seconds"])

    if "b" in args.parts:
        with tempfile.TemporaryDirectory(prefix="acquire-ws-bench-") as workdir:
            ws = bench_websocket(args.ws_games, args.ws_seconds, args.seed, Path(workdir), environ)
        print(
            f"(b) WebSocket:      {ws['tables']} games at once, {ws['clients']} bot clients, one Daphne process "
            f"({ws['database']}, {ws['channel_layer']} channel layer): {ws['actions']} actions in "
            f"{ws['seconds']:.0f}s = {_rate(ws['actions'], ws['seconds'])} actions/s, "
            f"{ws['games_finished']} games finished"
        )
        print(
            f"                    send action -> all 4 seats have its GameMessages: p50 {ws['p50_ms']} ms, "
            f"p99 {ws['p99_ms']} ms ({ws['latency_samples']} actions; {ws['incomplete']} not seen by every seat; "
            f"dropped frames: {ws['gaps']} gaps and {ws['stalls']} stalls resynced, {ws['setup_retries']} "
            f"GameCreated; errors {ws['errors'] or 'none'}); CPU cores busy: server "
            f"{ws['server_cpu']}, bot clients {ws['client_cpu']}; migrate and users {ws['setup_seconds']:.1f}s, "
            f"logins and tables {ws['ready_seconds']:.1f}s"
        )
        figures.update({
            "ws_games": ws["tables"],
            "ws_actions_per_s": _rate(ws["actions"], ws["seconds"]),
            "ws_latency_p50_ms": ws["p50_ms"],
            "ws_latency_p99_ms": ws["p99_ms"],
            "ws_latency_samples": ws["latency_samples"],
            "ws_games_finished": ws["games_finished"],
            "ws_incomplete": ws["incomplete"],
            "ws_gaps": ws["gaps"],
            "ws_stalls": ws["stalls"],
            "ws_server_cpu": ws["server_cpu"],
            "ws_client_cpu": ws["client_cpu"],
            "ws_database": ws["database"],
            "ws_channel_layer": ws["channel_layer"],
        })

    if "c" in args.parts:
        with tempfile.TemporaryDirectory(prefix="acquire-bench-") as workdir:
            service = bench_service(args.service_seconds, args.seed, args.players, Path(workdir))
        print(
            f"(c) game service:   {service['games']} bot games in {service['seconds']:.1f}s = "
            f"{_rate(service['games'], service['seconds'])} games/s "
            f"({_rate(service['actions'], service['seconds'])} actions/s; Singles {service['players']}, "
            f"in-process, SQLite in a temp dir, migrate took {service['migrate_seconds']:.1f}s)"
        )
        figures["service_games_per_s"] = _rate(service["games"], service["seconds"])
        figures["service_actions_per_s"] = _rate(service["actions"], service["seconds"])

    if "d" in args.parts:
        oracle = bench_oracle(args.oracle_seconds)
        if oracle is None:
            print(f"(d) oracle replays: skipped, {ORACLE} not found")
        else:
            print(
                f"(d) oracle replays: {oracle['replays']} in {oracle['seconds']:.1f}s = "
                f"{_rate(oracle['replays'], oracle['seconds'])} replays/s"
            )
        figures["oracle_replays_per_s"] = _rate(oracle["replays"], oracle["seconds"]) if oracle else None

    figures["peer"] = None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
