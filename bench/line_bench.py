"""What the benches of the riichi TCP protocols share (``bench/ump.py``, ``bench/mmj.py``): what one
action costs over a protocol's path, and whether that cost stays flat as a game goes on and as
tables are added. Each script says who plays at a table and which questions it times; the rest,
here, is the same for both.

The server is the real one: ``manage.py serve`` as a child process (``tests/served.py``'s
``serve``: its own SQLite file, the in-memory channel layer, the protocol's TCP port), with
``CALL_FLOOR_MS=0``. The timing rule's floor (600 ms by default) holds the last answer to every
discard back that long, so with it the round trip below would be mostly the floor, not the path.

Per table, one client on a TCP socket of its own, with a user and API token of its own, at a
table of its own with three house bots in the other seats (played server-side) and an East-only
game (preset ``tenhou-east``). A table plays ``--games`` games one after the other, each a new
link at a new table (the same user).

Two runs on the same server, one after the other: 1 table, then ``--tables`` tables at once (the
fresh users of each run are made before the server starts). ``--warmup`` games at one table are
played first and not counted, so the first run does not pay for the server's cold start (imports,
the engine's caches) and make the second look flatter than it is.

Reported per run:

- actions/s: the rows in the child's ``games_action`` for the run's games (every seat's actions,
  the house bots' and the server's own automatic ones included) over the run's wall time, from
  the first connect to the last link closed (log-ins and table set-ups included);
- server CPU: the CPU time the child used in the run (from /proc, Linux), as cores busy and as
  milliseconds per action row: the per-action cost;
- the decision round trip: for every question the server waits on (each script names them), the
  time from writing the answer until the next line from the server arrives; p50 and p99, and p50
  by question. The next line may have to wait for the house bots' decisions, so it is the path as
  a client sees it, not the server's work alone;
- flat as a game goes on: the p50 round trip of the first quarter of each game's questions and of
  the last quarter (pooled over the run's games), and last / first. At one table that is the clean
  figure; with several, games end at different times, so the last quarters are played at fewer
  tables than the first and the ratio falls with the load as well;
- flat as tables are added: the p50 round trip and the server's CPU ms per action at ``--tables``
  tables over those at 1. The server is one process (one event loop): once it is busy about one
  core, more tables queue for it, so the round trip then grows with the tables while the CPU per
  action, the cost of the path itself, should not.

All clients run in this one process, on one event loop: a line that arrives while another client
is deciding is read late, so the client CPU (cores busy) is reported too, to judge by. There is no
third-party implementation of either protocol to run against the same load, so there is no peer
ratio; every figure is absolute.

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.served import Served, serve  # noqa: E402

PRESET = "tenhou-east"
BOTS = 3  # house bots per table, beside the one client
LINE_TIMEOUT_SECONDS = 120.0  # nothing from the server for this long: the game is stuck, the bench fails loudly
# Users with tokens, made against the child's fresh database before it serves (tests/served.py
# runs this with the child's environment). Printed as one JSON line: {username: token}.
SETUP = """
import json, os
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
names = [os.environ["BENCH_PREFIX"] + str(n) for n in range(int(os.environ["BENCH_USERS"]))]
print(json.dumps({name: token_for(User.objects.create_user(username=name, password=None)) for name in names}))
"""


def log(msg: str) -> None:
    print(msg, flush=True)


def percentile(samples: list[float], q: float) -> float | None:
    """Nearest-rank percentile (as bench/live.py)."""
    if not samples:
        return None
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else round(a / b, 3)


def count(db: Path, sql: str, ids: list[int]) -> int:
    """``sql`` with ``{ids}`` standing for the games' ids, against the child's SQLite file (read
    while the child serves: SQLite allows that, and every game counted is over)."""
    if not ids:
        return 0
    connection = sqlite3.connect(db, timeout=30)
    try:
        return connection.execute(sql.format(ids=",".join("?" * len(ids))), ids).fetchone()[0]
    finally:
        connection.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Game:
    """One game as its client saw it."""

    game_id: int | None = None
    # (question, round trip in seconds), in the order the questions were answered.
    trips: list[tuple[str, float]] = field(default_factory=list)
    lines: int = 0  # lines (messages) received
    errors: list[str] = field(default_factory=list)  # what the server refused or reported (Bench.errors)
    ended: bool = False  # the game's end seen (Bench.ended)
    # A protocol's own counts, summed over the run's games into its figures (none for UMP).
    counts: Counter[str] = field(default_factory=Counter)


# (username, token, seed) -> one game played to its end, on a new link.
PlayGame = Callable[[str, str, int], Awaitable[Game]]


@dataclass(frozen=True)
class Bench:
    """What a protocol's script brings to the shared run."""

    protocol: str  # "UMP", "mmj"
    doc: str  # its script's docstring, for --help
    prefix: str  # of its users' names
    questions: tuple[str, ...]  # the questions timed, in the order the figures list them
    transport: dict[str, bool]  # serve()'s switches: {"ump": True}
    player: Callable[[Served], PlayGame]  # its play-one-game coroutine, given the running server
    client: str  # who plays at each table, for the first line printed
    errors: str  # what Game.errors holds, for the lines printed
    ended: str  # what Game.ended means, for the lines printed
    notes: dict[str, Any] = field(default_factory=dict)  # added to the final JSON


async def play_table(play_game: PlayGame, name: str, token: str, games: int, seed: int) -> list[Game]:
    return [await play_game(name, token, seed * 1000 + n) for n in range(games)]


def run(play_game: PlayGame, questions: tuple[str, ...], db: Path, pid: int, users: list[tuple[str, str]],
        games: int, seed: int) -> dict[str, Any]:
    """``len(users)`` tables at once, each playing ``games`` games in turn: the figures."""

    async def everything() -> list[list[Game]]:
        return await asyncio.gather(*(play_table(play_game, name, token, games, seed + i)
                                      for i, (name, token) in enumerate(users)))

    server0, client0, t0 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    tables = asyncio.run(everything())
    seconds = time.perf_counter() - t0
    server_cpu, client_cpu = cpu_seconds(pid) - server0, time.process_time() - client0
    played = [game for table in tables for game in table]
    ids = [game.game_id for game in played if game.game_id is not None]
    actions = count(db, "SELECT COUNT(*) FROM games_action WHERE game_id IN ({ids})", ids)
    unfinished = count(db, "SELECT COUNT(*) FROM games_game WHERE status != 'finished' AND id IN ({ids})", ids)

    trips = [rt for game in played for _, rt in game.trips]
    first: list[float] = []  # the first quarter of each game's questions, pooled
    last: list[float] = []  # and the last quarter
    for game in played:
        quarter = len(game.trips) // 4
        if quarter:
            first += [rt for _, rt in game.trips[:quarter]]
            last += [rt for _, rt in game.trips[-quarter:]]
    by_question = {q: [rt for game in played for kind, rt in game.trips if kind == q] for q in questions}
    first_p50, last_p50 = percentile(first, 0.5), percentile(last, 0.5)
    counts: Counter[str] = Counter()
    for game in played:
        counts.update(game.counts)  # update, not +: a count of 0 stays a figure
    return {
        "tables": len(users),
        "games": len(played),
        "games_ended": sum(game.ended for game in played),
        "games_unfinished_in_db": unfinished,
        "seconds": round(seconds, 3),
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1),
        "lines": sum(game.lines for game in played),
        "questions": len(trips),
        "questions_per_game": round(statistics.mean(len(game.trips) for game in played), 1) if played else None,
        "rt_p50_ms": ms(percentile(trips, 0.5)),
        "rt_p99_ms": ms(percentile(trips, 0.99)),
        "rt_p50_ms_by_question": {q: ms(percentile(v, 0.5)) for q, v in by_question.items() if v},
        "rt_count_by_question": {q: len(v) for q, v in by_question.items() if v},
        "rt_p50_first_quarter_ms": ms(first_p50),
        "rt_p50_last_quarter_ms": ms(last_p50),
        "rt_last_over_first_quarter": ratio(last_p50, first_p50),
        "server_cpu_s": round(server_cpu, 3),
        "server_cores": round(server_cpu / seconds, 3),
        "server_cpu_ms_per_action": round(1000 * server_cpu / actions, 3) if actions else None,
        "client_cores": round(client_cpu / seconds, 3),
        **dict(sorted(counts.items())),
        "errors": [text for game in played for text in game.errors][:5],
    }


def describe(bench: Bench, label: str, figures: dict[str, Any]) -> None:
    log(f"{label}: {figures['tables']} table(s), {figures['games']} game(s) ({figures['games_ended']} "
        f"{bench.ended}), {figures['seconds']:.1f}s, {figures['actions']} games_action rows = "
        f"{figures['actions_per_s']:,.1f} actions/s; server {figures['server_cores']:.2f} cores, "
        f"{figures['server_cpu_ms_per_action']} ms CPU/action; clients {figures['client_cores']:.2f} cores")
    by_question = ", ".join(f"{q} {v}" for q, v in figures["rt_p50_ms_by_question"].items())
    log(f"  round trip ({figures['questions']} answers): p50 {figures['rt_p50_ms']} ms, p99 {figures['rt_p99_ms']} "
        f"ms; p50 by question: {by_question}")
    log(f"  p50 first quarter of each game {figures['rt_p50_first_quarter_ms']} ms, last quarter "
        f"{figures['rt_p50_last_quarter_ms']} ms: last/first {figures['rt_last_over_first_quarter']}")
    if figures["errors"]:
        log(f"  {bench.errors} received, e.g. {figures['errors'][0]}")


def main(bench: Bench) -> None:
    parser = argparse.ArgumentParser(description=bench.doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="games each table plays in turn (default 1)")
    parser.add_argument("--tables", type=int, default=10, help="tables at once in the second run (default 10)")
    parser.add_argument("--warmup", type=int, default=1, help="games at one table first, not counted (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the clients' judgement (default 0)")
    args = parser.parse_args()
    runs = [1] if args.tables <= 1 else [1, args.tables]
    warm = 1 if args.warmup > 0 else 0
    total_users = warm + sum(runs)
    # The child inherits this environment (tests/served.py): the floor off, the users to make.
    os.environ |= {"CALL_FLOOR_MS": "0", "BENCH_PREFIX": bench.prefix, "BENCH_USERS": str(total_users)}
    result: dict[str, Any] = {"python": sys.version.split()[0], "loadavg": [round(x, 2) for x in os.getloadavg()],
                              "call_floor_ms": 0, "preset": PRESET, "bots_per_table": BOTS,
                              "games_per_table": args.games, "warmup_games": args.warmup if warm else 0,
                              "actions_counted": "rows in the child's games_action for the run's games",
                              "peer_ratio": None,
                              "peer": f"none: no third-party {bench.protocol} implementation to compare",
                              **bench.notes}
    log(f"{bench.protocol} bench: manage.py serve child, CALL_FLOOR_MS=0 (the timing rule's floor would dominate "
        f"the round trip otherwise); {PRESET}, {bench.client} + {BOTS} house bots per table, {args.games} game(s) "
        f"per table; runs at {' and '.join(map(str, runs))} table(s)")
    with tempfile.TemporaryDirectory(prefix=f"{bench.protocol.lower()}-bench-") as tmp:
        path = Path(tmp)
        with serve(path, SETUP, cribbage=False, quiet=True, **bench.transport) as served:
            play_game = bench.player(served)
            tokens = json.loads(served.setup_output.strip().splitlines()[-1])
            users = [(f"{bench.prefix}{n}", tokens[f"{bench.prefix}{n}"]) for n in range(total_users)]
            db = path / "db.sqlite3"
            pid = served.process.pid
            if warm:
                t0 = time.perf_counter()
                run(play_game, bench.questions, db, pid, users[:1], args.warmup, args.seed + 10_000)
                log(f"warm-up: {args.warmup} game(s) at 1 table in {time.perf_counter() - t0:.1f}s, not counted")
            begin = warm
            figures: dict[int, dict[str, Any]] = {}
            for tables in runs:
                figures[tables] = run(play_game, bench.questions, db, pid, users[begin:begin + tables], args.games,
                                      args.seed + begin)
                begin += tables
                describe(bench, f"T={tables}", figures[tables])
    top = runs[-1]
    one, many = figures[1], figures[top]
    result["runs"] = {str(tables): f for tables, f in figures.items()}
    result |= {
        "tables": top,
        "actions_per_s": many["actions_per_s"],
        "rt_p50_ms": many["rt_p50_ms"],
        "rt_p99_ms": many["rt_p99_ms"],
        "rt_last_over_first_quarter_t1": one["rt_last_over_first_quarter"],
        f"rt_last_over_first_quarter_t{top}": many["rt_last_over_first_quarter"],
    }
    if top > 1:
        across = {
            "rt_p50": ratio(many["rt_p50_ms"], one["rt_p50_ms"]),
            "rt_p99": ratio(many["rt_p99_ms"], one["rt_p99_ms"]),
            "server_cpu_ms_per_action": ratio(many["server_cpu_ms_per_action"], one["server_cpu_ms_per_action"]),
            "actions_per_s": ratio(many["actions_per_s"], one["actions_per_s"]),
        }
        result |= {f"{key}_t{top}_over_t1": value for key, value in across.items()}
        log(f"flat as tables are added, T={top} over T=1: p50 round trip x{across['rt_p50']}, p99 "
            f"x{across['rt_p99']}, server CPU per action x{across['server_cpu_ms_per_action']}, actions/s "
            f"x{across['actions_per_s']}")
    log(f"no peer ratio: there is no third-party {bench.protocol} implementation to run against the same load")
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, ensure_ascii=False), flush=True)
