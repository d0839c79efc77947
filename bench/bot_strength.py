"""The riichi house bot's strength against majiang-ai: two of each at east-south tables.

    .venv/bin/python bench/bot_strength.py --tables 26 [--parallel 6] [--preset tenhou] [--seed 0]
        [--call-floor-ms 0] [--stall-seconds 300] [--table-timeout 1200] [--workdir DIR]
        [--house-bot MODULE:FUNCTION] [--duplicate]
    .venv/bin/python bench/bot_strength.py --levels strong,intermediate,beginner [--tables 100] [--parallel 2]
        (the levels against each other on the engine alone, no server: bench/bot_levels.py)

The server is the real one: ``manage.py serve`` as a child process on the embedded default (its
own SQLite file in a temporary directory, the in-memory channel layer; ``tests/served.py``'s
``serve``), with ``CALL_FLOOR_MS`` from ``--call-floor-ms`` (default 0: every seat is a bot, and
the timing rule's floor would only make each discard wait). Users with API tokens are made by the
set-up script ``bench/line_bench.py`` uses (two per table, each majiang-bot its own user).

Per table, over REST: the first majiang-bot user opens a riichi table (mode 4, rules
``{"preset": --preset}``, Tenhou-like east-south by default), the second joins, the host seats two
house bots (``POST /api/games/<id>/add-bot/``: ``games/riichi/bots/house.py``) and sets the exact
arrangement (``POST /api/games/<id>/arrangement/``, ``games/service/lobby.py``'s ``_arrange``
keeps the slot order as the player order) with the table's seating pattern. Then two unmodified
``majiang-bot`` processes (@kobalab/majiang-server's ``bin/client.js``, playing with majiang-ai;
``tests/riichi/transport/sio.py``'s ``start_bot``) log in over the socket.io dialect under
``/majiang`` and take their seats by the game's number; sitting down accepts, and the game starts
when both have.

``--house-bot MODULE:FUNCTION`` makes the house seats play with another chooser of the same
interface (``choose(view, legal, rng)``), for example ``games.riichi.bots.strong:choose``: it is
passed to the server child as ``RIICHI_HOUSE_BOT``, which ``games/core/registry.py`` reads where it
names the riichi bot. The default is the registry's house bot (the variable is then not set).

Seating patterns, in player order (the first dealer is drawn among the four): complementary
pairs, so that after any even number of tables each side has sat at every position equally
often: H M H M / M H M H, H H M M / M M H H, M H H M / H M M H (H: house bot, M: majiang-ai). The pairs mix who sits
upstream of whom (who discards to whom for a chi) as well. ``--seed`` only shuffles the order of
the three pairs; the walls are drawn by the server (its CSPRNG), so runs are not repeatable.

``--duplicate`` deals both tables of each complementary pair from one seed (the server child is
started with ``ALLOW_DEAL_SEED=1``, and each table's rules name its ``deal_seed``, drawn from
``--seed`` and the pair's number): the same first dealer, and each hand's wall drawn from the
seed and the hand's round, dealer and counters (``walls_by_hand``, docs/riichi-table.md), so
whenever the two tables reach the same hand they are dealt it alike, seat for seat, with the
sides swapped. The seat a good deal favours is one side's at one table and the other's at the
other, so the luck of the deal cancels in the pair's mean as far as the play lets it: within a
hand the draws part once a call differs. The figures then add the difference per pair
(``paired_rank_difference``: the mean of the two tables' differences, the interval over pairs
both of whose tables finished; a failed table's replacement keeps its pattern and its seed).

Up to ``--parallel`` tables play at once until ``--tables`` games have finished. A table whose
majiang-bot exits before the game is over, whose game makes no move for ``--stall-seconds``,
lasts longer than ``--table-timeout``, or cannot be set up, is reported as failed and left out of
the figures (its bots are killed; the server plays their seats out by itself).

Reported per side, from each finished game's ``result`` (``GET /api/games/<id>/``: per seat its
final score, rank and points) and its paifu (``GET /api/games/<id>/paifu/``: the starting score
and the hands): seats played; mean rank; mean points, the result's ``point`` (the game's placement
points as majiang-core reckons them: the score over the return score in thousands, plus the
rule's 順位点 (uma) and the oka to the top, rounded as the rule says; they sum to zero) and the
mean final score minus the starting score; the rank counts; per hand, the win, deal-in, riichi and
call (chi, pon, open kan) rates; mean rank by starting position.

The intervals are mean ± 1.96 × standard error. Ranks and points at one table are not independent
(the four ranks are 1-4 and the points sum to zero), so every interval is taken over tables: per
table, the side's mean over its two seats (``ci95``); the seat-by-seat interval, which treats the
seats as independent, is in the JSON as ``ci95_seats`` for comparison only. With two seats a side
the house's table mean rank is 5 minus majiang-ai's, so the honest comparison is the per-table
paired difference, house mean rank minus majiang-ai mean rank (``rank_difference``; negative: the
house bot ranks better), and likewise for points.

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))  # bench/line_bench.py and bench/live.py, however this file is started

from line_bench import SETUP  # noqa: E402
from live import _tracebacks  # noqa: E402

from tests.riichi.reference.corpus import ensure_node_modules, npm_missing_reason  # noqa: E402
from tests.riichi.transport.link import Database, api  # noqa: E402
from tests.riichi.transport.mmj_peer import post  # noqa: E402
from tests.riichi.transport.sio import start_bot  # noqa: E402
from tests.served import serve  # noqa: E402

PREFIX = "strength-"
HOUSE, MAJIANG = "H", "M"
# Complementary pairs: each pair puts each side at every position once (see the docstring).
PATTERN_PAIRS = (("HMHM", "MHMH"), ("HHMM", "MMHH"), ("MHHM", "HMMH"))
PATTERN_ORDER = [pattern for pair in PATTERN_PAIRS for pattern in pair]
POLL_SECONDS = 1.0
START_SECONDS = 90.0  # both majiang-bots log in and sit down well within this, or the table failed
DRAIN_SECONDS = 20.0  # after the game, a majiang-bot logs out and exits; one still running then is killed
Z95 = 1.96


def deal_seeds(tables: int, seed: int) -> list[int]:
    """--duplicate: one deal seed per complementary pair of tables (tables 2k and 2k + 1)."""
    return [random.Random(f"deal:{seed}:{n // 2}").randrange(2**63) for n in range(tables)]


def seating_plan(tables: int, seed: int) -> list[str]:
    """The seating pattern of each table: the three complementary pairs, in an order ``seed``
    shuffles, repeated; each pair kept together so any even count is balanced by position."""
    pairs = list(PATTERN_PAIRS)
    random.Random(seed).shuffle(pairs)
    cycle = [pattern for pair in pairs for pattern in pair]
    return [cycle[n % len(cycle)] for n in range(tables)]


@dataclass
class Table:
    """One table of the run: its plan, its processes and, once over, its outcome."""

    index: int
    pattern: str
    users: tuple[tuple[str, str], tuple[str, str]]  # the two majiang-bot users: (username, token)
    game_id: int | None = None
    bots: list[subprocess.Popen] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    started: float = 0.0  # when the bots were started (monotonic)
    last_seq: int = -1
    last_progress: float = 0.0  # when the game's seq last moved (monotonic)
    seconds: float | None = None  # from the bots' start to the game's end
    deal_seed: int | None = None  # --duplicate: the seed both tables of the pair are dealt from
    failure: str | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)  # per position, once finished
    hands: int = 0
    end_reason: str | None = None
    closing_since: float | None = None  # the game is over; the bots are exiting


def http_reason(error: Exception) -> str:
    """An exception as one short line, with the server's answer when it is an HTTP error."""
    if isinstance(error, urllib.error.HTTPError):
        try:
            body = error.read().decode(errors="replace")
        except OSError:
            body = ""
        return f"HTTP {error.code}: {body[:300]}"
    return f"{type(error).__name__}: {error}"[:300]


def set_up(table: Table, port: int, preset: str, workdir: Path) -> None:
    """Open the table over REST, seat it as its pattern says, and start its two majiang-bots."""
    (host, host_token), (guest, guest_token) = table.users
    rules: dict[str, Any] = {"preset": preset}
    if table.deal_seed is not None:
        rules["deal_seed"] = table.deal_seed
    game = post(port, host_token, "games/", {"game_type": "riichi", "mode": 4, "rules": rules})
    table.game_id = game_id = game["id"]
    post(port, guest_token, f"games/{game_id}/join/", {})
    post(port, host_token, f"games/{game_id}/add-bot/", {})
    game = post(port, host_token, f"games/{game_id}/add-bot/", {})
    ids = {player["username"]: player["user"] for player in game["players"]}
    houses = [player["user"] for player in game["players"] if player["bot"]]
    majiangs = [ids[host], ids[guest]]
    # Which majiang-bot takes which M seat alternates too, though the two play alike.
    if table.index % 2:
        majiangs.reverse()
    order = [(houses if side == HOUSE else majiangs).pop(0) for side in table.pattern]
    post(port, host_token, f"games/{game_id}/arrangement/", {"arrangement": 2, "order": order})
    for name, token in table.users:
        log = workdir / f"table-{table.index}-{name}.log"
        table.logs.append(log)
        table.bots.append(start_bot(port, game_id, f"{name}:{token}", log))
    table.started = table.last_progress = time.monotonic()


def kill(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            pass


def log_tail(path: Path, lines: int = 3) -> str:
    try:
        return " | ".join(path.read_text(errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return ""


def hand_stats(paifu: dict[str, Any]) -> list[Counter[str]]:
    """Per position (player id, in player order; the first dealer is the paifu's ``qijia``),
    counts over the game's hands of the hands it won, dealt into, declared riichi in, and made a
    call (chi, pon, open kan) in. The paifu's messages name a seat relative to the hand's dealer:
    ``(qijia + jushu + l) % 4``."""
    counts = [Counter(dict.fromkeys(("hands", "won", "dealt_in", "riichi", "called"), 0)) for _ in range(4)]
    for hand in paifu["log"]:
        first = hand[0]["qipai"]
        base = paifu["qijia"] + first["jushu"]
        riichi, called = set(), set()
        for message in hand:
            ((kind, data),) = message.items()
            if kind == "hule":
                counts[(base + data["l"]) % 4]["won"] += 1
                if data.get("baojia") is not None:
                    counts[(base + data["baojia"]) % 4]["dealt_in"] += 1
            elif kind == "dapai" and data["p"].endswith("*"):
                riichi.add((base + data["l"]) % 4)
            elif kind == "fulou":
                called.add((base + data["l"]) % 4)
        for player in range(4):
            counts[player]["hands"] += 1
            counts[player]["riichi"] += player in riichi
            counts[player]["called"] += player in called
    return counts


def collect(table: Table, port: int, database: Database) -> None:
    """The finished game's result, per position: who sat there, rank, points, score change."""
    token = table.users[0][1]
    game = api(port, token, f"games/{table.game_id}/")
    paifu = api(port, token, f"games/{table.game_id}/paifu/")
    start = paifu["rule"]["配給原点"]
    result = game["result"]
    by_position = {player["position"]: player for player in game["players"]}
    auto = dict(database.rows("SELECT seat, COUNT(*) FROM games_action WHERE game_id = ? AND auto GROUP BY seat",
                              table.game_id))
    stats = hand_stats(paifu)
    table.hands = len(paifu["log"])
    table.end_reason = result.get("end_reason")
    for seat in result["players"]:
        position = seat["seat"]
        player = by_position[position]
        side = HOUSE if player["bot"] else MAJIANG
        # The plan and the server's seating must agree, or the rotation is not what was asked.
        if side != table.pattern[position]:
            raise RuntimeError(f"table {table.index}: position {position} is {side}, the plan says "
                               f"{table.pattern[position]}")
        table.seats.append({"position": position, "side": side, "username": player["username"],
                            "rank": seat["rank"], "point": float(seat["point"]), "delta": seat["score"] - start,
                            "auto": auto.get(position, 0), **stats[position]})
    if any(s["auto"] for s in table.seats if s["side"] == MAJIANG):
        # The server played a majiang-bot's seat for a while (its link dropped): not majiang-ai's game.
        table.failure = "the server played a majiang-bot's seat for part of the game (its link dropped)"


def check(table: Table, port: int, database: Database, stall_seconds: float, table_timeout: float) -> bool:
    """Look at a running table once; True when it is done with (finished, failed, bots gone)."""
    now = time.monotonic()
    if table.closing_since is not None:
        if all(bot.poll() is not None for bot in table.bots) or now - table.closing_since > DRAIN_SECONDS:
            kill(table.bots)
            return True
        return False
    seq, status = database.game(table.game_id)
    if seq != table.last_seq:
        table.last_seq, table.last_progress = seq, now
    if status == "finished":
        table.seconds = now - table.started
        try:
            collect(table, port, database)
        except Exception as error:  # any failure to read the result is this table's
            table.failure = f"reading the result failed: {http_reason(error)}"
        table.closing_since = now
        return False
    reason = None
    dead = [(n, bot.returncode) for n, bot in enumerate(table.bots) if bot.poll() is not None]
    if status not in ("setup", "active"):
        reason = f"the game ended {status}"
    elif dead:
        # A bot exits on END, after the game is finished in the database: look again before blaming it.
        if database.game(table.game_id)[1] == "finished":
            return False
        n, code = dead[0]
        reason = f"majiang-bot {table.users[n][0]} exited with {code} ({log_tail(table.logs[n])})"
    elif status == "setup" and now - table.started > START_SECONDS:
        reason = f"the game did not start within {START_SECONDS:.0f} s"
    elif now - table.last_progress > stall_seconds:
        reason = f"stalled: no move for {stall_seconds:.0f} s at seq {seq}"
    elif now - table.started > table_timeout:
        reason = f"timed out after {table_timeout:.0f} s at seq {seq}"
    if reason is None:
        return False
    table.failure = reason
    kill(table.bots)
    return True


def interval(values: list[float]) -> dict[str, Any]:
    """Mean, standard error and mean ± 1.96 × standard error of ``values``."""
    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "se": None, "ci95": None}
    mean = statistics.fmean(values)
    if n < 2:  # no spread from one value (and NaN is no JSON)
        return {"n": n, "mean": round(mean, 4), "se": None, "ci95": None}
    se = statistics.stdev(values) / math.sqrt(n)
    return {"n": n, "mean": round(mean, 4), "se": round(se, 4),
            "ci95": [round(mean - Z95 * se, 4), round(mean + Z95 * se, 4)]}


def side_figures(tables: list[Table], side: str) -> dict[str, Any]:
    seats = [s for t in tables for s in t.seats if s["side"] == side]

    def per_table(key: str) -> list[float]:
        return [statistics.fmean(s[key] for s in t.seats if s["side"] == side) for t in tables]

    def clustered(key: str) -> dict[str, Any]:
        figures = interval(per_table(key))
        figures["ci95_seats"] = interval([s[key] for s in seats])["ci95"]
        return figures

    hands = sum(s["hands"] for s in seats)
    ranks = Counter(s["rank"] for s in seats)
    positions = {}
    for position in range(4):
        at = [s["rank"] for s in seats if s["position"] == position]
        positions[str(position)] = {"seats": len(at), "mean_rank": round(statistics.fmean(at), 3) if at else None}
    rank, point, delta = clustered("rank"), clustered("point"), clustered("delta")
    return {
        "seats": len(seats),
        "mean_rank": rank["mean"], "ci95": rank["ci95"], "se": rank["se"], "ci95_seats": rank["ci95_seats"],
        "mean_points": point["mean"], "points_ci95": point["ci95"], "points_ci95_seats": point["ci95_seats"],
        "mean_score_delta": delta["mean"], "score_delta_ci95": delta["ci95"],
        "score_delta_ci95_seats": delta["ci95_seats"],
        "ranks": {str(r): ranks.get(r, 0) for r in range(1, 5)},
        "top_rate": round(ranks.get(1, 0) / len(seats), 4) if seats else None,
        "last_rate": round(ranks.get(4, 0) / len(seats), 4) if seats else None,
        "hands": hands,
        **{f"{key}_rate": round(sum(s[key] for s in seats) / hands, 4) if hands else None
           for key in ("won", "dealt_in", "riichi", "called")},
        "by_position": positions,
    }


def difference(tables: list[Table], key: str) -> dict[str, Any]:
    """Per table, the house seats' mean of ``key`` minus the majiang-ai seats' mean."""
    diffs = [statistics.fmean(s[key] for s in t.seats if s["side"] == HOUSE)
             - statistics.fmean(s[key] for s in t.seats if s["side"] == MAJIANG) for t in tables]
    figures = interval(diffs)
    figures["tables"] = figures.pop("n")
    return figures


def paired_difference(tables: list[Table], key: str) -> dict[str, Any]:
    """--duplicate: per pair of tables dealt alike, both finished, the mean of their two per-table
    differences (house minus majiang-ai); the interval over pairs."""
    by_seed: dict[int, list[Table]] = {}
    for table in tables:
        if table.deal_seed is not None:
            by_seed.setdefault(table.deal_seed, []).append(table)
    diffs, firsts, seconds = [], [], []
    for pair in by_seed.values():
        if len(pair) != 2:
            continue  # its partner failed (and its replacement too)
        # The two tables in their patterns' order (H M H M before M H M H, ...).
        first, second = sorted(pair, key=lambda t: PATTERN_ORDER.index(t.pattern))
        if (first.pattern, second.pattern) not in PATTERN_PAIRS:
            continue
        a, b = difference([first], key)["mean"], difference([second], key)["mean"]
        diffs.append((a + b) / 2)
        firsts.append(a)
        seconds.append(b)
    figures = interval(diffs)
    figures["pairs"] = figures.pop("n")
    # How far dealing alike cancels luck: negative when what one table's deal gave one side, the
    # other table's gave the other side; 0 as for tables dealt at random.
    try:
        figures["correlation"] = round(statistics.correlation(firsts, seconds), 3)
    except statistics.StatisticsError:  # fewer than two pairs, or no spread
        figures["correlation"] = None
    return figures


def figures_of(tables: list[Table], args: argparse.Namespace, seconds: float, tracebacks: list[str],
               interrupted: bool) -> dict[str, Any]:
    """Every figure of the run as one dict (the JSON line)."""
    done = [t for t in tables if t.failure is None and t.seats]
    failed = [t for t in tables if t.failure is not None]
    durations = [t.seconds for t in done if t.seconds is not None]
    return {
        "bench": "bot_strength",
        "tables": args.tables,
        "tables_set_up": sum(t.game_id is not None for t in tables),  # replacements of failed tables included
        "finished": len(done),
        "failed": len(failed),
        "short": args.tables - len(done),  # games fewer than asked: interrupted, or more failures than spares
        "interrupted": interrupted,
        "failures": [{"table": t.index, "game": t.game_id, "pattern": t.pattern, "reason": t.failure} for t in failed],
        "seats_per_side": 2 * len(done),
        "preset": args.preset,
        "house_bot": args.house_bot or "registry default",
        "call_floor_ms": args.call_floor_ms,
        "parallel": args.parallel,
        "seed": args.seed,
        "patterns": dict(Counter(t.pattern for t in done)),
        "points": "the result's point: the rule's placement points (uma and oka over the return score)",
        "score_delta": "final score minus the starting score (配給原点)",
        "intervals": "mean ± 1.96 SE over tables (per-table mean of the side's two seats); *_seats: over seats, "
                     "as if independent",
        "house": side_figures(done, HOUSE),
        "majiang_ai": side_figures(done, MAJIANG),
        "rank_difference": {"per": "table: house mean rank minus majiang-ai mean rank", **difference(done, "rank")},
        "points_difference": {"per": "table: house mean points minus majiang-ai mean points",
                              **difference(done, "point")},
        "duplicate": args.duplicate,
        **({"paired_rank_difference": {"per": "pair of tables dealt alike, sides swapped: the mean of the two "
                                                "tables' rank differences", **paired_difference(done, "rank")},
            "paired_points_difference": {"per": "pair of tables dealt alike: the mean of the two tables' points "
                                                  "differences", **paired_difference(done, "point")}}
           if args.duplicate else {}),
        "hands": sum(t.hands for t in done),
        "hands_per_game": round(statistics.fmean(t.hands for t in done), 2) if done else None,
        "end_reasons": dict(Counter(t.end_reason for t in done)),
        "game_seconds_mean": round(statistics.fmean(durations), 1) if durations else None,
        "game_seconds_max": round(max(durations), 1) if durations else None,
        "server_tracebacks": len(tracebacks),
        "server_traceback_first": tracebacks[0][-1500:] if tracebacks else None,
        "machine_cores": os.cpu_count(),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(seconds, 1),
    }


def describe(f: dict[str, Any]) -> list[str]:
    """The figures as readable lines."""

    def ci(pair: list[float] | None, digits: int = 3) -> str:
        return "n/a" if pair is None else f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"

    lines = [
        f"Bot strength: {f['finished']} of {f['tables']} riichi games finished (preset {f['preset']}, "
        f"2 house bots + 2 majiang-bots a table, seats rotated); {f['failed']} tables failed (replaced while "
        f"spares lasted), {f['short']} games short"
        + (" (interrupted)" if f["interrupted"] else "")
        + f"; CALL_FLOOR_MS={f['call_floor_ms']}, {f['parallel']} at once; {f['seconds']:.0f} s wall"
        + f"; house seats: {f['house_bot']}",
        f"  {f['hands']} hands, {f['hands_per_game']} a game; a game took {f['game_seconds_mean']} s on average "
        f"(longest {f['game_seconds_max']} s); ended by {f['end_reasons']}",
    ]
    for key, name in (("house", "house bot"), ("majiang_ai", "majiang-ai")):
        s = f[key]
        if not s["seats"]:
            lines.append(f"  {name}: no seats")
            continue
        lines += [
            f"  {name}: {s['seats']} seats, mean rank {s['mean_rank']:.3f} (95% CI {ci(s['ci95'])}); "
            f"ranks 1st-4th {list(s['ranks'].values())}",
            f"    mean points {s['mean_points']:+.2f} (95% CI {ci(s['points_ci95'], 2)}); mean score change "
            f"{s['mean_score_delta']:+.0f} (95% CI {ci(s['score_delta_ci95'], 0)})",
            f"    per hand: won {s['won_rate']:.3f}, dealt in {s['dealt_in_rate']:.3f}, riichi {s['riichi_rate']:.3f}, "
            f"called {s['called_rate']:.3f}; mean rank by position in player order "
            + ", ".join(f"{p['mean_rank']}" for p in s["by_position"].values()),
        ]
    r, p = f["rank_difference"], f["points_difference"]
    if r["tables"]:
        lines.append(f"  per table, house minus majiang-ai: mean rank {r['mean']:+.3f} (95% CI {ci(r['ci95'])}), "
                     f"points {p['mean']:+.2f} (95% CI {ci(p['ci95'], 2)}) over {r['tables']} tables "
                     "(negative rank: the house bot places better)")
    q = f.get("paired_rank_difference")
    if q and q["pairs"]:
        pp = f["paired_points_difference"]
        lines.append(f"  per pair of tables dealt alike (sides swapped), house minus majiang-ai: mean rank "
                     f"{q['mean']:+.3f} (95% CI {ci(q['ci95'])}), points {pp['mean']:+.2f} "
                     f"(95% CI {ci(pp['ci95'], 2)}) over {q['pairs']} pairs; the two tables' rank differences "
                     f"correlate at {q['correlation']}")
    lines.append("  intervals: mean ± 1.96 SE over tables (each table's mean for the side); points are the "
                 "result's placement points (uma, oka), score change is final minus starting score")
    for failure in f["failures"]:
        lines.append(f"  FAILED table {failure['table']} (game {failure['game']}, {failure['pattern']}): "
                     f"{failure['reason']}")
    if f["server_tracebacks"]:
        lines.append(f"  {f['server_tracebacks']} tracebacks in the server log; the first:\n"
                     f"{f['server_traceback_first']}")
    return lines


def spare_tables(tables: int) -> int:
    """How many failed tables may be replaced: enough for the odd crash, few enough that a run
    whose every table fails (a bad preset, a broken install) ends soon."""
    return tables // 4 + 2


def play(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Serve, play tables until ``args.tables`` games have finished (or the spares are used up),
    and return the figures."""
    began = time.monotonic()
    tables: list[Table] = []
    interrupted = False
    tracebacks: list[str] = []
    spares = spare_tables(args.tables)
    users = 2 * (args.tables + spares)
    env = {"CALL_FLOOR_MS": str(args.call_floor_ms), "BENCH_PREFIX": PREFIX, "BENCH_USERS": str(users)}
    if args.house_bot:
        env["RIICHI_HOUSE_BOT"] = args.house_bot
    if args.duplicate:
        env["ALLOW_DEAL_SEED"] = "1"
    with serve(workdir, SETUP, cribbage=False, quiet=True, env=env) as served:
        port = served.http_port
        tokens = json.loads(served.setup_output.strip().splitlines()[-1])
        database = Database(workdir / "db.sqlite3")

        def new_table(pattern: str, deal_seed: int | None) -> Table:
            # Fresh users for every table, a replacement's too: a failed table's game may still be
            # played out by the server, with its users seated there.
            index = len(tables)
            names = (f"{PREFIX}{2 * index}", f"{PREFIX}{2 * index + 1}")
            tables.append(Table(index, pattern, ((names[0], tokens[names[0]]), (names[1], tokens[names[1]])),
                                deal_seed=deal_seed))
            return tables[-1]

        seeds: list[int | None] = list(deal_seeds(args.tables, args.seed)) if args.duplicate else [None] * args.tables
        pending = deque(new_table(pattern, seeds[n]) for n, pattern in enumerate(seating_plan(args.tables, args.seed)))
        running: list[Table] = []

        def failed(table: Table) -> None:
            nonlocal spares
            if spares:
                # The replacement keeps the pattern (and the deal seed), so the seats stay balanced
                # by position (and the pair dealt alike).
                spares -= 1
                pending.append(replacement := new_table(table.pattern, table.deal_seed))
                print(f"  table {replacement.index} replaces it", flush=True)

        try:
            while pending or running:
                while pending and len(running) < args.parallel:
                    table = pending.popleft()
                    try:
                        set_up(table, port, args.preset, workdir)
                        running.append(table)
                    except Exception as error:  # a table that cannot be set up is reported
                        table.failure = f"set-up failed: {http_reason(error)}"
                        kill(table.bots)
                    print(f"table {table.index} ({table.pattern}): game {table.game_id} "
                          + ("started" if table.failure is None else table.failure), flush=True)
                    if table.failure is not None:
                        failed(table)
                time.sleep(POLL_SECONDS)
                for table in list(running):
                    if check(table, port, database, args.stall_seconds, args.table_timeout):
                        running.remove(table)
                        outcome = table.failure or " ".join(
                            f"{s['side']}{s['rank']}" for s in sorted(table.seats, key=lambda s: s["position"]))
                        print(f"table {table.index} (game {table.game_id}) done after "
                              f"{time.monotonic() - table.started:.0f} s: {outcome}", flush=True)
                        if table.failure is not None:
                            failed(table)
        except KeyboardInterrupt:
            interrupted = True
            print("interrupted: the figures of the tables finished so far", flush=True)
        finally:
            for table in tables:
                kill(table.bots)
        tracebacks = _tracebacks([served.log])
    return figures_of(tables, args, time.monotonic() - began, tracebacks, interrupted)


def main() -> None:
    if any(arg == "--levels" or arg.startswith("--levels=") for arg in sys.argv[1:]):
        # The levels against each other, in process (no server, no majiang-ai): bench/bot_levels.py.
        import bot_levels

        bot_levels.main(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=26, help="games to finish (default 26)")
    parser.add_argument("--parallel", type=int, default=6, help="tables at once (default 6)")
    parser.add_argument("--preset", default="tenhou", help="the tables' rule preset (default tenhou: east-south)")
    parser.add_argument("--seed", type=int, default=0, help="orders the seating patterns (default 0)")
    parser.add_argument("--call-floor-ms", type=int, default=0,
                        help="the server's CALL_FLOOR_MS (default 0: bot-only tables need no timing floor)")
    parser.add_argument("--stall-seconds", type=float, default=300, help="no move this long: the table failed")
    parser.add_argument("--table-timeout", type=float, default=1200, help="a game this long: the table failed")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="a new folder for the server's files and logs, kept (default: a temporary one, removed)")
    parser.add_argument("--house-bot", default=None, metavar="MODULE:FUNCTION",
                        help="the chooser the house seats play with (default: the registry's house bot)")
    parser.add_argument("--duplicate", action="store_true",
                        help="deal both tables of each complementary pair alike (needs an even --tables)")
    args = parser.parse_args()
    if args.duplicate and args.tables % 2:
        parser.error("--duplicate plays tables in pairs: give an even --tables")
    if args.house_bot:
        module, _, name = args.house_bot.partition(":")
        try:
            if not callable(getattr(importlib.import_module(module), name)):
                raise AttributeError(name)
        except (ImportError, AttributeError, ValueError) as error:
            parser.error(f"--house-bot {args.house_bot!r}: {error}")
    if args.tables < 1 or args.parallel < 1:
        parser.error("--tables and --parallel are at least 1")
    reason = npm_missing_reason()
    if reason:
        raise SystemExit(reason)
    ensure_node_modules()  # bench/majiang's pinned packages, majiang-server's client among them

    def stop(signum: int, frame: Any) -> None:
        # As Ctrl-C: the finally blocks kill every bot and stop the server.
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if args.workdir is not None:
        # Kept: the server's log, its SQLite file (every game) and each majiang-bot's output.
        args.workdir.mkdir(parents=True, exist_ok=False)
        figures = play(args, args.workdir.resolve())
    else:
        with tempfile.TemporaryDirectory(prefix="bot-strength-") as temporary:
            figures = play(args, Path(temporary))
    print("\n".join(describe(figures)))
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
