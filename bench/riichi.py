"""Riichi engine benchmark against majiang-core (bench/majiang).

    .venv/bin/python bench/riichi.py [--games N] [--hanchan K] [--rounds R]

Run from the repository root (the script also puts the root on sys.path itself). No Django needed:
the engine modules are Django-free.

(a) hule: hands scored per second on all hands of ../shared/oracle/mahjong/hule.json by our
    ``hule()`` (hands parsed beforehand; only the scoring calls are timed; median of R passes after
    one warm-up pass) and by Majiang.Util.hule (``node bench/majiang/hule_bench.js``, whose timed
    section also includes ``Shoupai.fromString``; ``hule_ours_incl_parse_per_s`` is ours on that
    basis too). Our scorer memoises per-suit shapes (``hule_shapes``), which the repeated passes
    over the same hands would always find: ``hule_ours_cold_per_s`` times the scoring with those
    memos emptied before each pass. ``hule_ratio`` is the like-for-like figure: both sides parse
    inside the timed section. The scoring-only ratios compare ours without parsing against the
    peer with it, which flatters ours; they are printed for the breakdown only.
(b) replay: paifu replayed per second by ``games.riichi.engine.replay.replay`` (the code path of
    ``manage.py paifu verify``) and by Majiang.Dev.Game (``node bench/majiang/replay_bench.js``) on
    the same N games made by ``make_games.js --player fast --games N --seed 1``.
(c) bots: K complete hanchan (seeds 1..K) of four copies of ``games.riichi.bot.choose`` playing
    ``RiichiGame`` directly (no DB).

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

from games.engine import Mode  # noqa: E402
from games.riichi.bot import choose  # noqa: E402
from games.riichi.engine.hule import hule  # noqa: E402
from games.riichi.engine.hule_shapes import clear_caches  # noqa: E402
from games.riichi.engine.replay import read_entries, replay  # noqa: E402
from games.riichi.engine.rule import rule as make_rule  # noqa: E402
from games.riichi.engine.shoupai import Shoupai  # noqa: E402
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


# -- (a) hule ---------------------------------------------------------------------------------


def bench_hule(rounds: int) -> dict:
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

    rates = []
    rates_cold = []
    rates_parse = []
    for _ in range(rounds):
        prepared = [(Shoupai.from_string(s), r, p) for s, r, p in raw]  # parsed outside the timing
        t0 = time.perf_counter()
        for shoupai, rongpai, param in prepared:
            hule(shoupai, rongpai, param)
        rates.append(n / (time.perf_counter() - t0))
        # cold: no suit shape left from earlier passes (hule does not change the hands)
        clear_caches()
        t0 = time.perf_counter()
        for shoupai, rongpai, param in prepared:
            hule(shoupai, rongpai, param)
        rates_cold.append(n / (time.perf_counter() - t0))
        # the peer's basis: parsing inside the timed section
        t0 = time.perf_counter()
        for s, rongpai, param in raw:
            hule(Shoupai.from_string(s), rongpai, param)
        rates_parse.append(n / (time.perf_counter() - t0))
    ours = statistics.median(rates)
    ours_cold = statistics.median(rates_cold)
    ours_parse = statistics.median(rates_parse)
    log(f"hule ours: {n} hands, {ours:,.0f} hands/s scoring only ({ours_cold:,.0f}/s with a cold shape cache, "
        f"{ours_parse:,.0f}/s incl. parsing), {mismatches} mismatches vs oracle")

    peer = node_json([str(MAJIANG / "hule_bench.js"), str(HULE_JSON)])
    peer_rate = float(peer["hands_per_second"])
    log(f"hule peer (majiang-core {peer.get('version')}, node {peer.get('node')}): "
        f"{peer_rate:,.0f} hands/s incl. parsing, {peer.get('mismatches')} mismatches")
    log(f"hule ratio ours/peer, both parsing: {ours_parse / peer_rate:.3f} (ours scoring only, against the "
        f"peer's figure with parsing: {ours / peer_rate:.3f}, cold shape cache {ours_cold / peer_rate:.3f})")
    return {
        "hule_hands": n,
        "hule_ours_per_s": round(ours, 1),
        "hule_ours_cold_per_s": round(ours_cold, 1),
        "hule_ours_incl_parse_per_s": round(ours_parse, 1),
        "hule_ours_mismatches": mismatches,
        "hule_peer_per_s": peer_rate,
        "hule_peer_mismatches": peer.get("mismatches"),
        "hule_ratio": round(ours_parse / peer_rate, 4),
        "hule_ratio_scoring_only": round(ours / peer_rate, 4),
        "hule_ratio_scoring_only_cold": round(ours_cold / peer_rate, 4),
    }


# -- (b) replay -------------------------------------------------------------------------------


def bench_replay(games: int, rounds: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="riichi-bench-") as tmp:
        path = Path(tmp) / "games.jsonl"
        made = node_json([str(MAJIANG / "make_games.js"), "--player", "fast", "--games", str(games),
                          "--seed", "1", "--out", str(path)])
        log(f"made {made.get('games')} games ({made.get('hands')} hands) in {made.get('seconds')}s with majiang-core")
        entries = read_entries(str(path), {})
        hands = sum(len(e.paifu.get("log", [])) for e in entries)
        rules = [make_rule(e.overrides) for e in entries]

        # first pass: the check (as `manage.py paifu verify`), timed too
        divergences = 0
        t0 = time.perf_counter()
        for entry, rule in zip(entries, rules, strict=True):
            divergence = replay(entry.paifu, rule)
            if divergence is not None:
                divergences += 1
                if divergences <= 5:
                    log(f"  DIVERGES: {entry.source} {entry.paifu.get('title', '')!r} at {divergence}")
        passes = [time.perf_counter() - t0]
        for _ in range(rounds - 1):
            t0 = time.perf_counter()
            for entry, rule in zip(entries, rules, strict=True):
                replay(entry.paifu, rule)
            passes.append(time.perf_counter() - t0)
        seconds = statistics.median(passes)
        ours = len(entries) / seconds
        log(f"replay ours: {len(entries)} paifu, {hands} hands, {divergences} divergences, "
            f"{ours:,.1f} paifu/s ({hands / seconds:,.0f} hands/s)")

        peer = node_json([str(MAJIANG / "replay_bench.js"), str(path)])
    peer_rate = float(peer["paifu_per_second"])
    log(f"replay peer (Majiang.Dev.Game): {peer_rate:,.1f} paifu/s ({peer.get('hands_per_second')} hands/s), "
        f"{peer.get('mismatches')} mismatches")
    log(f"replay ratio ours/peer: {ours / peer_rate:.3f}")
    return {
        "replay_paifu": len(entries),
        "replay_hands": hands,
        "replay_ours_per_s": round(ours, 2),
        "replay_ours_hands_per_s": round(hands / seconds, 1),
        "replay_peer_per_s": peer_rate,
        "replay_peer_hands_per_s": peer.get("hands_per_second"),
        "replay_peer_mismatches": peer.get("mismatches"),
        "replay_ratio": round(ours / peer_rate, 4),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games for the replay benchmark (default 40)")
    parser.add_argument("--hanchan", type=int, default=3, help="bot hanchan, seeds 1..K (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes for our hule/replay (default 3)")
    args = parser.parse_args()
    os.chdir(ROOT)
    ensure_node_modules()
    result: dict = {"python": sys.version.split()[0], "loadavg": [round(x, 2) for x in os.getloadavg()]}
    result.update(bench_hule(args.rounds))
    result.update(bench_replay(args.games, args.rounds))
    result.update(bench_bots(args.hanchan))
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
