"""The mjai path (docs/protocols/mjai.md) against the native one (/ws/majiang/,
docs/protocols/majiang.md): what one action costs the server over each, as a ratio, measured in
one run on one server; and whether that cost stays flat as a game goes on.

    .venv/bin/python bench/mjai.py [--games 1] [--tables 4] [--warmup 1]

The server, the runs and the per-run figures are explained in ``bench/line_bench.py`` (shared with
``bench/ump.py`` and ``bench/mmj.py``, whose ``run`` and ``describe`` this uses); this is what is
mjai's, and the comparison.

Per table, one client at a table of its own with three house bots (played server-side) and an
East-only game (``tenhou-east``), a new link and a new table for each game (the same user). The
two clients play the same way, so the games are alike and only the path differs:

- **mjai**: gimite's mjsonp over TCP (``tests/riichi/transport/test_mjai_served.py``'s client):
  ``hello``, then ``{"type":"join","name":..,"room":"username:token+3+tenhou-east"}``; every event
  line answered by exactly one line, the next event coming only after the answer: ``dahai`` of the
  tile drawn (``tsumogiri``) to its own ``tsumo``, ``{"type":"none"}`` to everything else. The server
  closes the link after ``end_game`` is answered. The game's id is not in mjai's events: it is
  read from the child's database after the game (the user's newest seat), by this process.
- **native**: the platform's own Majiang dialect, seed 001 as JSON over the WebSocket
  ``/ws/majiang/?token=``: ``{"type":"open","rules":{"preset":"tenhou-east"},"bots":3}``, then
  only the frames carrying ``seq`` answered: ``dapai`` of the tile drawn with ``_`` (tsumogiri) to
  its own ``zimo``, the empty reply (pass) to everything else; the link is closed after ``end``.

The runs, one after the other on the same server (``CALL_FLOOR_MS=0``): a warm-up game on each
path, not counted; then native at 1 table, mjai at 1, mjai at ``--tables``, native at
``--tables`` (the paths alternate ABBA, so a drift of the machine's load over the run falls on
both alike). Each run's figures are ``line_bench.run``'s: actions (the child's ``games_action``
rows for the run's games), the child's CPU from /proc, the round trips, the client's CPU.

The comparison:

- **server CPU per action, mjai over native**: the child's CPU time per ``games_action`` row, each
  path's runs pooled (CPU over actions), and their ratio; also the ratio at each table count, and
  the difference in ms per action (what the mjai path adds to an action). The per-action cost
  includes what both paths share (the engine, the three house bots' decisions, the database, the
  channel layer), so the ratio is of the whole cost an action makes, not of the transports alone.
  mjai answers every event, the ones that ask nothing too (``lines_in_per_action``: about twice
  the native path's replies), and is bridged from TCP to its consumer as a WebSocket
  (``games/transport/lines.py``): that is the path's cost, counted here.
- **the round trip** (as ``line_bench`` times it: from writing an answer to the next line), by
  question, named alike on both paths: ``tsumo`` (its own draw), ``call`` (another's discard or
  kakan: may it call or win), ``end`` (a hand's ``hora``/``ryukyoku``, native ``hule``/``pingju``),
  and on mjai ``nothing`` (the answer to an event that asks nothing: the next event waits for it).
- **flat as a game goes on**, at 1 table: ``line_bench``'s p50 round trip of the first quarter of
  each game's answers against the last quarter (on mjai a mix of the fast ``nothing`` answers and
  the questions, so also given over the questions alone, ``nothing`` left out); and, more
  directly, the child's CPU per line the client received in the first quarter of each game's play against the
  last quarter (the play: from the first draw to the last hand's end, so the game's set-up and its
  finishing, whose costs fall once, are left out; the child's CPU read from /proc as each line
  arrives, which only means something with one table in play). Ratios about 1: the cost does not
  grow with the game.

The server's log (``manage.py serve -v 0``) is read at the end: its tracebacks, ``ERROR`` and
``WARNING`` lines are counted and the first shown. All clients run in this one process, on one
event loop. The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import line_bench
import websockets
from line_bench import BOTS, LINE_TIMEOUT_SECONDS, PRESET, SETUP, Bench, Game, cpu_seconds, describe, log, ratio, run

from tests.served import Served, serve

PREFIX = "bench-mjai-"
QUESTIONS = ("tsumo", "call", "end", "nothing")
PATHS = ("native", "mjai")
# A line's kind that starts play (the first draw) and that ends a hand, for the CPU-per-line
# quarters: the game's set-up before the first, and the finishing after the last, are left out.
DRAWS = {"mjai": {"tsumo"}, "native": {"zimo"}}
HAND_ENDS = {"mjai": {"hora", "ryukyoku"}, "native": {"hule", "pingju"}}


def newest_game(db: Path, username: str) -> int | None:
    """The id of the game the user sat down at last (each bench user plays one game at a time)."""
    connection = sqlite3.connect(db, timeout=30)
    try:
        row = connection.execute("SELECT s.game_id FROM games_seat s JOIN accounts_user u ON u.id = s.user_id "
                                 "WHERE u.username = ? ORDER BY s.game_id DESC LIMIT 1", (username,)).fetchone()
    finally:
        connection.close()
    return None if row is None else row[0]


class Player:
    """A path's play-one-game coroutine (``line_bench.PlayGame``). With ``sampling`` on, it reads the
    child's CPU as each line arrives and keeps, per game, ``(line kind, CPU seconds)`` in ``marks``:
    at one table in play, the CPU between two lines is what that game cost the server."""

    def __init__(self, path: str, served: Served) -> None:
        self.path = path
        self.served = served
        self.pid = served.process.pid
        self.db = served.log.parent / "db.sqlite3"
        self.sampling = False
        self.marks: list[list[tuple[str, float]]] = []
        self.games: list[Game] = []  # the games played since ``games`` was last emptied

    async def __call__(self, name: str, token: str, seed: int) -> Game:  # seed unused: the client never chooses
        marks: list[tuple[str, float]] = []
        game = await (self.mjai(name, token, marks) if self.path == "mjai" else self.native(token, marks))
        if self.sampling:
            self.marks.append(marks)
        self.games.append(game)
        return game

    def mark(self, marks: list[tuple[str, float]], kind: str) -> None:
        if self.sampling:
            marks.append((kind, cpu_seconds(self.pid)))

    async def mjai(self, name: str, token: str, marks: list[tuple[str, float]]) -> Game:
        """One link: hello, join a table of one's own with three house bots, answer every event
        until the server closes the link after ``end_game``."""
        game = Game()
        game.counts.update(lines_in=0)  # lines sent to the server
        reader, writer = await asyncio.open_connection("127.0.0.1", self.served.mjai_port)

        async def send(message: dict[str, Any]) -> None:
            writer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            await writer.drain()

        try:
            me: int | None = None
            asked: tuple[str, float] | None = None  # the kind of event last answered and when
            while raw := await asyncio.wait_for(reader.readline(), LINE_TIMEOUT_SECONDS):
                arrived = time.perf_counter()
                if asked is not None:
                    game.trips.append((asked[0], arrived - asked[1]))
                    asked = None
                game.lines += 1
                event = json.loads(raw)
                kind = event["type"]
                self.mark(marks, kind)
                if kind == "hello":
                    await send({"type": "join", "name": name, "room": f"{name}:{token}+{BOTS}+{PRESET}"})
                    continue
                if kind == "error":  # not answered: the question, if any, is sent again
                    game.errors.append(event.get("message", ""))
                    continue
                if kind == "start_game":
                    me = event["id"]
                elif kind == "end_game":
                    game.ended = True
                if kind == "tsumo" and event["actor"] == me:
                    question = "tsumo"
                    await send({"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True})
                else:
                    question = ("call" if kind in ("dahai", "kakan") and event.get("actor") != me else
                                "end" if kind in ("hora", "ryukyoku") else "nothing")
                    await send({"type": "none"})
                game.counts["lines_in"] += 1
                # Taken after the write is handed to the socket: the round trip is the server's.
                asked = (question, time.perf_counter())
            # The close after end_game's answer is not a line: that answer has no round trip.
        finally:
            writer.close()
        game.game_id = await asyncio.to_thread(newest_game, self.db, name)
        return game

    async def native(self, token: str, marks: list[tuple[str, float]]) -> Game:
        """One link: open a table with three house bots, answer the frames that carry ``seq``
        until ``end``, then close."""
        game = Game()
        game.counts.update(lines_in=0)  # frames sent to the server, the log-in's left out
        url = f"ws://127.0.0.1:{self.served.http_port}/ws/majiang/?token={token}"
        async with websockets.connect(url, open_timeout=30, max_queue=None) as ws:
            welcome = json.loads(await asyncio.wait_for(ws.recv(), LINE_TIMEOUT_SECONDS))
            assert welcome["type"] == "welcome", welcome
            await ws.send(json.dumps({"type": "open", "rules": {"preset": PRESET}, "bots": BOTS}))
            asked: tuple[str, float] | None = None
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), LINE_TIMEOUT_SECONDS))
                arrived = time.perf_counter()
                if asked is not None:
                    game.trips.append((asked[0], arrived - asked[1]))
                    asked = None
                game.lines += 1
                kind = frame["type"]
                self.mark(marks, kind)
                if kind == "table":
                    game.game_id = frame["game"]
                elif kind == "error":
                    game.errors.append(f"{frame.get('code')}: {frame.get('reason')}")
                elif kind == "jieju":
                    game.ended = True
                elif kind == "end":
                    if frame.get("status") != "finished":
                        game.errors.append(f"end {frame.get('status')}")
                    break
                if "seq" not in frame or kind == "error":
                    continue
                if kind == "zimo":  # only the drawer is asked
                    question, reply = "tsumo", {"type": "dapai", "data": frame["data"]["p"] + "_"}
                else:
                    question = "end" if kind in ("hule", "pingju") else "call"
                    reply = {"type": "", "data": None}
                await ws.send(json.dumps({**reply, "seq": frame["seq"]}))
                game.counts["lines_in"] += 1
                asked = (question, time.perf_counter())
        return game


def cpu_quarters(path: str, games: list[list[tuple[str, float]]]) -> dict[str, Any]:
    """The child's CPU per line received in the first and the last quarter of each game's play
    (from its first draw to its last hand's end), pooled over the games."""
    first = last = 0.0
    lines = 0
    for marks in games:
        starts = [i for i, (kind, _) in enumerate(marks) if kind in DRAWS[path]]
        ends = [i for i, (kind, _) in enumerate(marks) if kind in HAND_ENDS[path]]
        if not starts or not ends:
            continue
        play = [cpu for _, cpu in marks[starts[0]:ends[-1] + 1]]
        quarter = (len(play) - 1) // 4
        if quarter < 10:
            continue
        first += play[quarter] - play[0]
        last += play[-1] - play[-1 - quarter]
        lines += quarter
    first_ms = round(1000 * first / lines, 4) if lines else None
    last_ms = round(1000 * last / lines, 4) if lines else None
    return {"server_cpu_ms_per_line_first_quarter": first_ms, "server_cpu_ms_per_line_last_quarter": last_ms,
            "server_cpu_per_line_last_over_first_quarter": ratio(last_ms, first_ms), "lines_per_quarter": lines}


def server_log(path: Path) -> dict[str, Any]:
    """What the child's log holds beyond the normal: tracebacks, ERROR and WARNING lines."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return {"server_log_lines": None}
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    errors = [line for line in lines if "ERROR" in line or "Error:" in line or "Exception" in line]
    warnings = [line for line in lines if "WARNING" in line]
    shown = ["\n".join(lines[i:i + 40]) for i in tracebacks[:1]] or (errors + warnings)[:3]
    return {"server_log_lines": len(lines), "server_log_tracebacks": len(tracebacks),
            "server_log_error_lines": len(errors), "server_log_warning_lines": len(warnings),
            "server_log_first": shown}


def question_quarters(games: list[Game]) -> dict[str, Any]:
    """``line_bench``'s first and last quarter p50 round trips, over the questions alone (the
    answers to events that ask nothing left out)."""
    first: list[float] = []
    last: list[float] = []
    for game in games:
        trips = [rt for kind, rt in game.trips if kind != "nothing"]
        quarter = len(trips) // 4
        if quarter:
            first += trips[:quarter]
            last += trips[-quarter:]
    first_p50, last_p50 = line_bench.percentile(first, 0.5), line_bench.percentile(last, 0.5)
    return {"rt_p50_questions_first_quarter_ms": line_bench.ms(first_p50),
            "rt_p50_questions_last_quarter_ms": line_bench.ms(last_p50),
            "rt_questions_last_over_first_quarter": ratio(last_p50, first_p50)}


def pooled(runs: list[dict[str, Any]]) -> float | None:
    actions = sum(f["actions"] for f in runs)
    return round(1000 * sum(f["server_cpu_s"] for f in runs) / actions, 3) if actions else None


BENCHES = {
    "mjai": Bench(protocol="mjai", doc=__doc__, prefix=PREFIX, questions=QUESTIONS, transport={"mjai": True},
                  player=lambda served: Player("mjai", served), client="one mjai client (tsumogiri, none)",
                  errors="error lines", ended="ended with end_game"),
    "native": Bench(protocol="native", doc=__doc__, prefix=PREFIX, questions=QUESTIONS, transport={},
                    player=lambda served: Player("native", served),
                    client="one /ws/majiang/ client (tsumogiri, pass)", errors="error frames",
                    ended="ended with jieju"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="games each table plays in turn in a run (default 1)")
    parser.add_argument("--tables", type=int, default=4, help="tables at once in the second runs (default 4)")
    parser.add_argument("--warmup", type=int, default=1, help="games at one table on each path first, not counted "
                                                              "(default 1)")
    args = parser.parse_args()
    tables = max(1, args.tables)
    # Native then mjai at 1 table, mjai then native at --tables: ABBA.
    order = [("native", 1), ("mjai", 1)] + ([("mjai", tables), ("native", tables)] if tables > 1 else [])
    warm = 1 if args.warmup > 0 else 0
    total_users = 2 * warm + sum(t for _, t in order)
    os.environ |= {"CALL_FLOOR_MS": "0", "BENCH_PREFIX": PREFIX, "BENCH_USERS": str(total_users)}
    result: dict[str, Any] = {"python": sys.version.split()[0], "loadavg": [round(x, 2) for x in os.getloadavg()],
                              "call_floor_ms": 0, "preset": PRESET, "bots_per_table": BOTS,
                              "games_per_table": args.games, "warmup_games_per_path": args.warmup if warm else 0,
                              "actions_counted": "rows in the child's games_action for the run's games",
                              "order": [f"{path} T={t}" for path, t in order]}
    log(f"mjai against native: one manage.py serve child, CALL_FLOOR_MS=0; {PRESET}, one client + {BOTS} house "
        f"bots per table, {args.games} game(s) per table; runs: {', '.join(result['order'])}")
    figures: dict[tuple[str, int], dict[str, Any]] = {}
    quarters: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="mjai-bench-") as tmp:
        path = Path(tmp)
        with serve(path, SETUP, cribbage=False, mjai=True, quiet=True) as served:
            tokens = json.loads(served.setup_output.strip().splitlines()[-1])
            users = [(f"{PREFIX}{n}", tokens[f"{PREFIX}{n}"]) for n in range(total_users)]
            db = path / "db.sqlite3"
            pid = served.process.pid
            players = {name: BENCHES[name].player(served) for name in PATHS}
            begin = 0
            if warm:
                for name in PATHS:
                    t0 = time.perf_counter()
                    warmed = run(players[name], QUESTIONS, db, pid, users[begin:begin + 1], args.warmup, 0)
                    begin += 1
                    log(f"warm-up {name}: {args.warmup} game(s) at 1 table in {time.perf_counter() - t0:.1f}s, "
                        f"{warmed['actions']} actions, not counted")
            for name, count in order:
                player = players[name]
                player.sampling, player.marks, player.games = count == 1, [], []
                figures[name, count] = run(player, QUESTIONS, db, pid, users[begin:begin + count], args.games, 0)
                begin += count
                describe(BENCHES[name], f"{name} T={count}", figures[name, count])
                if count == 1:
                    quarters[name] = cpu_quarters(name, player.marks) | question_quarters(player.games)
                    q = quarters[name]
                    log(f"  questions alone: p50 first quarter {q['rt_p50_questions_first_quarter_ms']} ms, last "
                        f"quarter {q['rt_p50_questions_last_quarter_ms']} ms: last/first "
                        f"{q['rt_questions_last_over_first_quarter']}")
                    first, last, growth = (q[key] for key in (
                        "server_cpu_ms_per_line_first_quarter", "server_cpu_ms_per_line_last_quarter",
                        "server_cpu_per_line_last_over_first_quarter"))
                    log(f"  server CPU per line received, first quarter of play {first} ms, last quarter {last} ms: "
                        f"last/first {growth}")
                player.sampling = False
        result |= server_log(served.log)
    cpu = {name: pooled([f for (n, _), f in figures.items() if n == name]) for name in PATHS}
    by_tables = {str(t): ratio(figures["mjai", t]["server_cpu_ms_per_action"],
                               figures["native", t]["server_cpu_ms_per_action"]) for t in sorted({t for _, t in order})}
    headline = ratio(cpu["mjai"], cpu["native"])
    result["runs"] = {f"{name} T={t}": f for (name, t), f in figures.items()}
    result |= {
        "server_cpu_ms_per_action_native": cpu["native"],
        "server_cpu_ms_per_action_mjai": cpu["mjai"],
        "server_cpu_per_action_mjai_over_native": headline,
        "server_cpu_ms_per_action_mjai_minus_native": (None if None in cpu.values() else
                                                       round(cpu["mjai"] - cpu["native"], 3)),
        "server_cpu_per_action_mjai_over_native_by_tables": by_tables,
        "actions_per_game": {name: round(sum(f["actions"] for (n, _), f in figures.items() if n == name)
                                         / max(1, sum(f["games"] for (n, _), f in figures.items() if n == name)), 1)
                             for name in PATHS},
        "lines_in_per_action": {name: ratio(sum(f["lines_in"] for (n, _), f in figures.items() if n == name),
                                            sum(f["actions"] for (n, _), f in figures.items() if n == name))
                                for name in PATHS},
        "lines_out_per_action": {name: ratio(sum(f["lines"] for (n, _), f in figures.items() if n == name),
                                             sum(f["actions"] for (n, _), f in figures.items() if n == name))
                                 for name in PATHS},
        "rt_p50_ms_t1": {name: figures[name, 1]["rt_p50_ms"] for name in PATHS},
        "rt_last_over_first_quarter_t1": {name: figures[name, 1]["rt_last_over_first_quarter"] for name in PATHS},
        "rt_questions_last_over_first_quarter_t1": {
            name: quarters[name]["rt_questions_last_over_first_quarter"] for name in PATHS},
        "server_cpu_per_line_last_over_first_quarter_t1": {
            name: quarters[name]["server_cpu_per_line_last_over_first_quarter"] for name in PATHS},
        "cpu_quarters_t1": quarters,
        "errors_received": sum(len(f["errors"]) for f in figures.values()),
        "games_unfinished_in_db": sum(f["games_unfinished_in_db"] for f in figures.values()),
    }
    log(f"server CPU per action: native {cpu['native']} ms, mjai {cpu['mjai']} ms: mjai/native x{headline} "
        f"(by tables: {', '.join(f'T={t} x{r}' for t, r in by_tables.items())}), mjai adds "
        f"{result['server_cpu_ms_per_action_mjai_minus_native']} ms; lines in per action "
        f"{result['lines_in_per_action']}, out {result['lines_out_per_action']}")
    log(f"flat as a game goes on (T=1, last quarter over first): round trip p50 "
        f"{result['rt_last_over_first_quarter_t1']}, questions alone "
        f"{result['rt_questions_last_over_first_quarter_t1']}, server CPU per line "
        f"{result['server_cpu_per_line_last_over_first_quarter_t1']}")
    log(f"server log: {result.get('server_log_tracebacks')} traceback(s), {result.get('server_log_error_lines')} "
        f"error line(s), {result.get('server_log_warning_lines')} warning line(s) in {result.get('server_log_lines')} "
        "lines")
    for shown in result.get("server_log_first") or []:
        log(f"  {shown}")
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
