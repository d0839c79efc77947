"""Riichi engine benchmark against majiang-core (bench/majiang).

    .venv/bin/python bench/riichi.py [--games N] [--hanchan K] [--pairs P]
        [--live-tables T] [--live-seconds S] [--parts abcd]

Run from the repository root (the script also puts the root on sys.path itself). No Django needed:
the engine modules are Django-free.

(a) hule: hands scored per second on all hands of ../shared/oracle/mahjong/hule.json by
    Majiang.Util.hule (``node bench/majiang/hule_bench.js``) and by our ``hule()``, both on hands
    parsed beforehand (``hule_ratio``: the scoring alone, as the issue asks) and both with the
    parsing timed too, ``Shoupai.fromString`` against ``Shoupai.from_string``
    (``hule_ratio_incl_parse``). Our parser and scorer memoise parts of hands (suit groups,
    per-suit shapes, melds), which repeated passes over the same hands always find warm;
    ``hule_ratio_cold`` and ``hule_ratio_cold_incl_parse`` time passes of ours with every one of
    those memos emptied first.
(b) replay: paifu replayed per second by ``games.riichi.engine.replay.replay`` (the code path of
    ``manage.py paifu verify``) and by Majiang.Dev.Game (``node bench/majiang/replay_bench.js``) on
    the same N games made by ``make_games.js --player fast --games N --seed 1``.
(c) bots: K complete hanchan (seeds 1..K) of four copies of ``games.riichi.bots.house.choose`` playing
    ``RiichiGame`` directly (no DB).
(d) live: ``--live-tables`` (50) riichi games at once against one Daphne process (``bench/live.py
    --game riichi``: four bot clients per table over ``/ws/bot/``, each deciding from the pushes),
    actions per second and p50 / p99 from sending a decision to every seat of the table holding its
    update. Run twice: with the timing rule's floor as the server has it by default
    (``CALL_FLOOR_MS``, 600 ms: the last answer to a discard waits for it, so that figure is mostly
    the floor) and with the floor off (what the live path itself costs). ``--live-seconds 0``
    skips (d). There is no peer figure: majiang-server is socket.io over Express with no bench.

(a) and (b) are timed in P pairs of passes. The peer's script is started once with ``--serve``
(after its own warm-up, timed passes and check against the expected results, it times one more
pass whenever asked); each pair is one pass of the peer straight followed by one of ours, and a
pair's ratio compares those two. The ratios printed are the median over the pairs, with their
range, and the rates the median pass of each side. This machine's speed drifts a lot from one
second to the next, more than the difference measured; adjacent passes see nearly the same
machine.

The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAJIANG = ROOT / "bench" / "majiang"
HULE_JSON = (ROOT / ".." / "shared" / "oracle" / "mahjong" / "hule.json").resolve()

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.core.engine import Mode  # noqa: E402
from games.riichi.bots.house import choose  # noqa: E402
from games.riichi.engine.hule import hule  # noqa: E402
from games.riichi.engine.hule_shapes import clear_caches  # noqa: E402
from games.riichi.engine.replay import read_entries, replay  # noqa: E402
from games.riichi.engine.rule import rule as make_rule  # noqa: E402
from games.riichi.engine.shoupai import Shoupai  # noqa: E402
from games.riichi.engine.shoupai import clear_caches as clear_parse_caches  # noqa: E402
from games.riichi.engine.table import RiichiGame  # noqa: E402


def log(msg: str) -> None:
    print(msg, flush=True)


def ensure_node_modules() -> None:
    if not (MAJIANG / "node_modules").is_dir():
        log("installing bench/majiang node modules (npm ci)...")
        subprocess.run(["npm", "ci", "--prefix", str(MAJIANG)], check=True, cwd=ROOT)


def node_json(args: list[str]) -> dict:
    """Run a node script, return its last stdout line as JSON (a non-zero exit is reported)."""
    proc = subprocess.run(["node", *args], cwd=ROOT, capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0:
        log(f"warning: node {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[:500]}")
    if not lines:
        raise RuntimeError(f"node {' '.join(args)} printed nothing: {proc.stderr.strip()[:500]}")
    return json.loads(lines[-1])


class Peer:
    """A majiang-core bench script kept running with ``--serve``: ``summary`` is its first line
    (its own warm-up, passes and check); ``seconds()`` has it time one more pass."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen(["node", *args, "--serve"], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"node {' '.join(args)} printed nothing (exit {self.proc.wait()})")
        self.summary = json.loads(line)

    def seconds(self, what: str = "pass") -> float:
        self.proc.stdin.write(what + "\n")
        return float(json.loads(self.proc.stdout.readline())["seconds"])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def _rate(n: int, t0: float) -> float:
    return n / (time.perf_counter() - t0)


# -- (a) hule ---------------------------------------------------------------------------------
#
# This machine's speed drifts by a factor of two within seconds (shared cores), far more than
# the difference being measured. So the two sides are not timed once each: both stay loaded
# and take turns, pass by pass, and each ratio is taken within one pair of adjacent passes.
# The headline ratios are the median over the pairs.


def bench_hule(pairs: int) -> dict:
    with HULE_JSON.open(encoding="utf-8") as handle:
        cases = json.load(handle)
    default_rule = make_rule()
    raw = [(c["in"]["shoupai"], c["in"].get("rongpai"), {**c["in"]["param"], "rule": default_rule}) for c in cases]
    n = len(raw)

    # warm-up pass, also checks the results against the oracle
    mismatches = 0
    for (s, rongpai, param), case in zip(raw, cases, strict=True):
        if hule(Shoupai.from_string(s), rongpai, param) != case["out"]:
            mismatches += 1

    peer = Peer([str(MAJIANG / "hule_bench.js"), "--rounds", "3", str(HULE_JSON)])
    # Per pair of passes, hands/s. The peer's "score" pass parses the hands outside its timing, as
    # ours does with ``prepared`` (neither hule changes the hand it is given).
    rows: list[dict[str, float]] = []
    for _ in range(pairs):
        row = {"peer": n / peer.seconds()}
        t0 = time.perf_counter()
        for s, rongpai, param in raw:
            hule(Shoupai.from_string(s), rongpai, param)
        row["ours"] = _rate(n, t0)
        prepared = [(Shoupai.from_string(s), r, p) for s, r, p in raw]
        row["peer_scoring"] = n / peer.seconds("score")
        t0 = time.perf_counter()
        for shoupai, rongpai, param in prepared:
            hule(shoupai, rongpai, param)
        row["ours_scoring"] = _rate(n, t0)
        # every memo emptied first: suit groups, shapes and melds are all found anew
        clear_caches()
        clear_parse_caches()
        t0 = time.perf_counter()
        for s, rongpai, param in raw:
            hule(Shoupai.from_string(s), rongpai, param)
        row["ours_cold"] = _rate(n, t0)
        clear_caches()
        t0 = time.perf_counter()
        for shoupai, rongpai, param in prepared:
            hule(shoupai, rongpai, param)
        row["ours_scoring_cold"] = _rate(n, t0)
        rows.append(row)
    peer.close()

    med = statistics.median

    def rate(key: str) -> float:
        return med(row[key] for row in rows)

    def ratios(ours: str, theirs: str) -> list[float]:
        return [row[ours] / row[theirs] for row in rows]

    def summary(values: list[float]) -> str:
        return f"{med(values):.3f} (range {min(values):.3f}-{max(values):.3f})"

    scoring, parsing = ratios("ours_scoring", "peer_scoring"), ratios("ours", "peer")
    scoring_cold, parsing_cold = ratios("ours_scoring_cold", "peer_scoring"), ratios("ours_cold", "peer")
    log(f"hule ours: {n} hands, {rate('ours_scoring'):,.0f} hands/s scoring, {rate('ours'):,.0f}/s incl. parsing; "
        f"with every memo emptied first {rate('ours_scoring_cold'):,.0f}/s and {rate('ours_cold'):,.0f}/s; "
        f"{mismatches} mismatches vs oracle")
    log(f"hule peer (majiang-core {peer.summary.get('version')}, node {peer.summary.get('node')}): "
        f"{rate('peer_scoring'):,.0f} hands/s scoring, {rate('peer'):,.0f}/s incl. parsing, "
        f"{peer.summary.get('mismatches')} mismatches")
    log(f"hule ratio ours/peer, median over {pairs} pairs of passes: scoring {summary(scoring)}, "
        f"incl. parsing {summary(parsing)}; ours with every memo emptied first: scoring {summary(scoring_cold)}, "
        f"incl. parsing {summary(parsing_cold)}")
    return {
        "hule_hands": n,
        "hule_pairs": pairs,
        "hule_ours_per_s": round(rate("ours_scoring"), 1),
        "hule_ours_incl_parse_per_s": round(rate("ours"), 1),
        "hule_ours_cold_per_s": round(rate("ours_scoring_cold"), 1),
        "hule_ours_cold_incl_parse_per_s": round(rate("ours_cold"), 1),
        "hule_ours_mismatches": mismatches,
        "hule_peer_per_s": round(rate("peer_scoring"), 1),
        "hule_peer_incl_parse_per_s": round(rate("peer"), 1),
        "hule_peer_mismatches": peer.summary.get("mismatches"),
        "hule_ratio": round(med(scoring), 4),
        "hule_ratio_min": round(min(scoring), 4),
        "hule_ratio_max": round(max(scoring), 4),
        "hule_ratio_incl_parse": round(med(parsing), 4),
        "hule_ratio_incl_parse_min": round(min(parsing), 4),
        "hule_ratio_incl_parse_max": round(max(parsing), 4),
        "hule_ratio_cold": round(med(scoring_cold), 4),
        "hule_ratio_cold_incl_parse": round(med(parsing_cold), 4),
    }


# -- (b) replay -------------------------------------------------------------------------------


def bench_replay(games: int, pairs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="riichi-bench-") as tmp:
        path = Path(tmp) / "games.jsonl"
        made = node_json([str(MAJIANG / "make_games.js"), "--player", "fast", "--games", str(games),
                          "--seed", "1", "--out", str(path)])
        log(f"made {made.get('games')} games ({made.get('hands')} hands) in {made.get('seconds')}s with majiang-core")
        entries = read_entries(str(path), {})
        hands = sum(len(e.paifu.get("log", [])) for e in entries)
        rules = [make_rule(e.overrides) for e in entries]

        # the check first (as `manage.py paifu verify`), which also warms up
        divergences = 0
        for entry, rule in zip(entries, rules, strict=True):
            divergence = replay(entry.paifu, rule)
            if divergence is not None:
                divergences += 1
                if divergences <= 5:
                    log(f"  DIVERGES: {entry.source} {entry.paifu.get('title', '')!r} at {divergence}")

        peer = Peer([str(MAJIANG / "replay_bench.js"), "--rounds", "1", str(path)])
        rows = []  # per pair: (peer seconds, our seconds) for one pass over every paifu
        for _ in range(pairs):
            peer_seconds = peer.seconds()
            t0 = time.perf_counter()
            for entry, rule in zip(entries, rules, strict=True):
                replay(entry.paifu, rule)
            rows.append((peer_seconds, time.perf_counter() - t0))
        peer.close()

    med = statistics.median
    n = len(entries)
    ratios = [p / o for p, o in rows]
    ours, peer_rate = n / med(o for _, o in rows), n / med(p for p, _ in rows)
    log(f"replay ours: {n} paifu, {hands} hands, {divergences} divergences, "
        f"{ours:,.1f} paifu/s ({ours * hands / n:,.0f} hands/s)")
    log(f"replay peer (Majiang.Dev.Game): {peer_rate:,.1f} paifu/s ({peer_rate * hands / n:,.0f} hands/s), "
        f"{peer.summary.get('mismatches')} mismatches")
    log(f"replay ratio ours/peer: median {med(ratios):.3f} over {pairs} pairs of passes "
        f"(range {min(ratios):.3f}-{max(ratios):.3f})")
    return {
        "replay_paifu": n,
        "replay_hands": hands,
        "replay_pairs": pairs,
        "replay_ours_per_s": round(ours, 2),
        "replay_ours_hands_per_s": round(ours * hands / n, 1),
        "replay_peer_per_s": round(peer_rate, 2),
        "replay_peer_mismatches": peer.summary.get("mismatches"),
        "replay_ratio": round(med(ratios), 4),
        "replay_ratio_min": round(min(ratios), 4),
        "replay_ratio_max": round(max(ratios), 4),
        "replay_divergences": divergences,
    }


# -- (c) bots ---------------------------------------------------------------------------------


def bench_bots(hanchan: int) -> dict:
    mode = Mode(4, "Four players", 4)
    actions = hands = 0
    t0 = time.perf_counter()
    for seed in range(1, hanchan + 1):
        table = RiichiGame.create(mode=mode, seed=seed, rules={})
        rngs = [random.Random(seed * 10 + seat) for seat in range(4)]
        for seat, action, params in table.initial_actions():
            table.apply(seat, action, params)
        while not table.is_over:
            for seat in table.to_act():
                action, params = choose(table.view(seat), table.legal_actions(seat), rngs[seat])
                table.apply(seat, action, params)
                actions += 1
        hands += len(table.paifu["log"])
    seconds = time.perf_counter() - t0
    log(f"bots: {hanchan} hanchan, {hands} hands, {actions} actions in {seconds:.2f}s: "
        f"{hanchan / seconds:.3f} hanchan/s, {actions / seconds:,.0f} actions/s")
    return {
        "hanchan": hanchan,
        "hanchan_hands": hands,
        "hanchan_actions": actions,
        "hanchan_seconds": round(seconds, 3),
        "hanchan_per_s": round(hanchan / seconds, 4),
        "actions_per_s": round(actions / seconds, 1),
    }


def bench_live(tables: int, seconds: float) -> dict:
    """(d): the live path of bench/live.py for riichi, with the timing rule's floor and without."""
    sys.path.insert(0, str(ROOT / "bench"))
    import live  # bench/live.py: Daphne child processes and bot clients

    figures: dict = {}
    for label, floor in (("floor", os.environ.get("CALL_FLOOR_MS", "600")), ("no_floor", "0")):
        run = live.run("riichi", tables, seconds, environ={**os.environ, "CALL_FLOOR_MS": floor})
        print(f"(d) live, {tables} tables, CALL_FLOOR_MS={floor}:")
        for line in live.describe(run):
            print(line)
        figures[f"live_{label}"] = {"call_floor_ms": int(floor), **{k: run[k] for k in (
            "tables", "clients", "actions", "actions_per_s", "p50_ms", "p99_ms", "games_finished", "gaps", "stalls",
            "errors", "server_cpu_total")}}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games for the replay benchmark (default 40)")
    parser.add_argument("--hanchan", type=int, default=3, help="bot hanchan, seeds 1..K (default 3)")
    parser.add_argument("--pairs", type=int, default=15,
                        help="pairs of passes (peer, then ours) for (a) and (b); ratios are per pair (default 15)")
    parser.add_argument("--live-tables", type=int, default=50, help="(d): riichi games at once (default 50)")
    parser.add_argument("--live-seconds", type=float, default=30, help="(d): measuring window per run (default 30)")
    parser.add_argument("--parts", default="abcd", help="which parts to run (default abcd)")
    args = parser.parse_args()
    os.chdir(ROOT)
    result: dict = {"python": sys.version.split()[0], "loadavg": [round(x, 2) for x in os.getloadavg()]}
    if "a" in args.parts or "b" in args.parts:
        ensure_node_modules()
    if "a" in args.parts:
        result.update(bench_hule(args.pairs))
    if "b" in args.parts:
        result.update(bench_replay(args.games, args.pairs))
    if "c" in args.parts:
        result.update(bench_bots(args.hanchan))
    if "d" in args.parts and args.live_seconds > 0:
        result.update(bench_live(args.live_tables, args.live_seconds))
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
