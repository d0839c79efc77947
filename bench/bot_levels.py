"""The riichi bot levels against each other, in process: no server, no majiang-ai.

    .venv/bin/python bench/bot_levels.py [--levels strong,intermediate,beginner] [--tables 100]
        [--parallel 2] [--preset tenhou] [--seed 0]
    .venv/bin/python bench/bot_strength.py --levels strong,intermediate,beginner ...   (the same)

Every pair of the named levels plays ``--tables`` east-south games (preset ``tenhou`` by default)
on the pure engine (``games/riichi/engine/table.py``'s ``RiichiGame``), two seats each, the seats
arranged as ``bench/bot_strength.py`` arranges house bots and majiang-ai: the complementary
patterns A B A B / B A B A, A A B B / B B A A, B A A B / A B B A (East, the first dealer of the
seed, first), so after any even count each level has sat at every position equally often. The two
tables of a complementary pair are dealt the same walls (the same seed): each level plays the
other's seats with the same tiles, which takes much of the luck of the deal out of the
difference. The hand-end acknowledgements the lobby asks for are on (every seat answers ``pass``
after a win or a draw), as on the server.

A level is a name of ``games/riichi/bots/levels.py``'s ``LEVELS`` or any chooser as
``MODULE:FUNCTION`` (``choose(view, legal, rng)``), so a changed copy of a bot can be pitted
against the original. Each bot decides from ``RiichiGame.view(seat)`` and that seat's
``legal_actions`` only; its ``random.Random`` (ties only) is seeded per table and seat.

Reported per pair: seats a side, each side's mean rank and mean points (the result's placement
points: uma and oka) with 95% intervals taken over tables (each table's mean of the side's two
seats), the per-table difference (first minus second; negative rank: the first places better),
win / deal-in / riichi / call rates per hand; and the levels ordered by their mean rank over all
their games, with whether each level is separated from the next (the pair's rank-difference
interval excludes 0). The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bot_strength import hand_stats, interval  # noqa: E402  (the counts and intervals both benches report)

PATTERN_PAIRS = (("ABAB", "BABA"), ("AABB", "BBAA"), ("BAAB", "ABBA"))
MAX_ACTIONS = 20_000


def resolve(name: str) -> Any:
    """A level's chooser: a ``LEVELS`` name or ``MODULE:FUNCTION``."""
    if ":" in name:
        module, _, function = name.partition(":")
        return getattr(importlib.import_module(module), function)
    from games.riichi.bots.levels import LEVELS

    return LEVELS[name]


def seating_plan(tables: int, seed: int) -> list[str]:
    pairs = list(PATTERN_PAIRS)
    random.Random(seed).shuffle(pairs)
    cycle = [pattern for pair in pairs for pattern in pair]
    return [cycle[n % len(cycle)] for n in range(tables)]


def play_table(task: tuple[str, str, str, int, int, str]) -> dict[str, Any]:
    """One game: ``pattern`` says which of the two levels sits at each player id (East first)."""
    from games.core.engine import Mode
    from games.riichi.engine.table import HAND_END_ACK, RiichiGame

    first, second, pattern, wall_seed, index, preset = task
    choosers = {"A": resolve(first), "B": resolve(second)}
    table = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=wall_seed,
                              rules={"preset": preset, HAND_END_ACK: True})
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    rngs = [random.Random(f"{wall_seed}-{index}-{seat}") for seat in range(4)]
    # Player ids are the seats; East of the first hand is ``qijia``, and the pattern is read from East.
    side_of = {(table.qijia + n) % 4: pattern[n] for n in range(4)}
    actions = 0
    while not table.is_over:
        seat = table.to_act()[0]
        action, params = choosers[side_of[seat]](table.view(seat), table.legal_actions(seat), rngs[seat])
        table.apply(seat, action, params)
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"table {index}: no end within {MAX_ACTIONS} actions")
    result = table.result()
    stats = hand_stats(table.paifu)
    start = table.rule["配給原点"]
    seats = []
    for player in result["players"]:
        s = player["seat"]
        seats.append({"side": side_of[s], "position": (s - table.qijia) % 4, "rank": player["rank"],
                      "point": float(player["point"]), "delta": player["score"] - start, **stats[s]})
    return {"first": first, "second": second, "pattern": pattern, "seed": wall_seed, "index": index,
            "hands": len(table.paifu["log"]), "end_reason": result["end_reason"], "seats": seats}


def side_of_tables(tables: list[dict[str, Any]], side: str) -> dict[str, Any]:
    seats = [s for t in tables for s in t["seats"] if s["side"] == side]
    hands = sum(s["hands"] for s in seats)

    def per_table(key: str) -> list[float]:
        return [statistics.fmean(s[key] for s in t["seats"] if s["side"] == side) for t in tables]

    rank, point = interval(per_table("rank")), interval(per_table("point"))
    ranks = Counter(s["rank"] for s in seats)
    return {"seats": len(seats), "mean_rank": rank["mean"], "ci95": rank["ci95"],
            "mean_points": point["mean"], "points_ci95": point["ci95"],
            "ranks": {str(r): ranks.get(r, 0) for r in range(1, 5)},
            **{f"{key}_rate": round(sum(s[key] for s in seats) / hands, 4) if hands else None
               for key in ("won", "dealt_in", "riichi", "called")}}


def pair_figures(tables: list[dict[str, Any]]) -> dict[str, Any]:
    def diff(key: str) -> dict[str, Any]:
        figures = interval([statistics.fmean(s[key] for s in t["seats"] if s["side"] == "A")
                            - statistics.fmean(s[key] for s in t["seats"] if s["side"] == "B") for t in tables])
        figures["tables"] = figures.pop("n")
        return figures

    # The duplicate pairs: the two tables dealt the same walls, their differences averaged first.
    by_seed: dict[int, list[float]] = {}
    for t in tables:
        by_seed.setdefault(t["seed"], []).append(
            statistics.fmean(s["rank"] for s in t["seats"] if s["side"] == "A")
            - statistics.fmean(s["rank"] for s in t["seats"] if s["side"] == "B"))
    duplicate = interval([statistics.fmean(v) for v in by_seed.values() if len(v) == 2])
    duplicate["pairs"] = duplicate.pop("n")
    return {"first": tables[0]["first"], "second": tables[0]["second"], "tables": len(tables),
            "first_side": side_of_tables(tables, "A"), "second_side": side_of_tables(tables, "B"),
            "rank_difference": diff("rank"), "rank_difference_by_wall": duplicate,
            "points_difference": diff("point"),
            "hands": sum(t["hands"] for t in tables)}


def order_levels(levels: list[str], pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Levels by their mean rank over every game they played (lower first), and whether each is
    separated from the next by its pair's rank-difference interval."""
    ranks: dict[str, list[float]] = {name: [] for name in levels}
    for p in pairs:
        ranks[p["first"]].append(p["first_side"]["mean_rank"])
        ranks[p["second"]].append(p["second_side"]["mean_rank"])
    ordered = sorted(levels, key=lambda name: statistics.fmean(ranks[name]))
    out = []
    for n, name in enumerate(ordered):
        row: dict[str, Any] = {"level": name, "mean_rank": round(statistics.fmean(ranks[name]), 4)}
        if n + 1 < len(ordered):
            below = ordered[n + 1]
            pair = next(p for p in pairs if {p["first"], p["second"]} == {name, below})
            d = pair["rank_difference"]
            sign = 1 if pair["first"] == name else -1
            low, high = sorted((sign * d["ci95"][0], sign * d["ci95"][1]))
            row["next"] = below
            row["rank_difference_to_next"] = round(sign * d["mean"], 4)
            row["ci95"] = [round(low, 4), round(high, 4)]
            row["separated"] = high < 0
        out.append(row)
    return out


def run(levels: list[str], tables: int, parallel: int, preset: str, seed: int) -> dict[str, Any]:
    for name in levels:
        resolve(name)  # fail early on a bad name
    tasks = []
    plan = seating_plan(tables, seed)
    for p, (first, second) in enumerate(itertools.combinations(levels, 2)):
        for n, pattern in enumerate(plan):
            # A complementary pair of tables (2k, 2k + 1) shares its walls: same seed, same dealer.
            wall_seed = seed * 1_000_003 + p * 100_003 + n // 2
            tasks.append((first, second, pattern, wall_seed, n, preset))
    began = time.monotonic()
    cpu = time.process_time()
    done: list[dict[str, Any]] = []
    if parallel > 1:
        with multiprocessing.get_context("fork").Pool(parallel) as pool:
            for n, result in enumerate(pool.imap_unordered(play_table, tasks), 1):
                done.append(result)
                if n % 20 == 0:
                    print(f"  {n}/{len(tasks)} games, {time.monotonic() - began:.0f} s", flush=True)
    else:
        for n, task in enumerate(tasks, 1):
            done.append(play_table(task))
            if n % 20 == 0:
                print(f"  {n}/{len(tasks)} games, {time.monotonic() - began:.0f} s", flush=True)
    pairs = []
    for first, second in itertools.combinations(levels, 2):
        mine = sorted((t for t in done if t["first"] == first and t["second"] == second), key=lambda t: t["index"])
        pairs.append(pair_figures(mine))
    return {"bench": "bot_levels", "levels": levels, "tables_per_pair": tables, "preset": preset, "seed": seed,
            "parallel": parallel,
            "intervals": "mean ± 1.96 SE over tables (per table: the side's mean over its two seats)",
            "pairs": pairs, "order": order_levels(levels, pairs) if len(levels) > 1 else [],
            "hands": sum(t["hands"] for t in done), "games": len(done),
            "end_reasons": dict(Counter(t["end_reason"] for t in done)),
            "seconds": round(time.monotonic() - began, 1), "parent_cpu_seconds": round(time.process_time() - cpu, 1),
            "machine_cores": os.cpu_count(), "loadavg": [round(x, 2) for x in os.getloadavg()]}


def describe(f: dict[str, Any]) -> list[str]:
    def ci(pair: list[float] | None, digits: int = 3) -> str:
        return "n/a" if pair is None else f"[{pair[0]:+.{digits}f}, {pair[1]:+.{digits}f}]"

    lines = [f"Bot levels: {', '.join(f['levels'])}; {f['tables_per_pair']} games a pair (preset {f['preset']}, "
             f"two seats each, seats rotated, complementary tables on the same walls); {f['games']} games, "
             f"{f['hands']} hands, {f['seconds']:.0f} s wall at {f['parallel']} at once"]
    for p in f["pairs"]:
        a, b, r, w, pt = p["first_side"], p["second_side"], p["rank_difference"], p["rank_difference_by_wall"], \
            p["points_difference"]
        lines.append(f"  {p['first']} vs {p['second']}: {p['tables']} tables, {a['seats']} seats a side")
        for name, s in ((p["first"], a), (p["second"], b)):
            lines.append(f"    {name}: mean rank {s['mean_rank']:.3f} {ci(s['ci95'])}, points "
                         f"{s['mean_points']:+.2f} {ci(s['points_ci95'], 2)}; ranks {list(s['ranks'].values())}; "
                         f"won {s['won_rate']:.3f}, dealt in {s['dealt_in_rate']:.3f}, riichi {s['riichi_rate']:.3f}, "
                         f"called {s['called_rate']:.3f}")
        lines.append(f"    per table, {p['first']} minus {p['second']}: rank {r['mean']:+.3f} {ci(r['ci95'])}, "
                     f"points {pt['mean']:+.2f} {ci(pt['ci95'], 2)}; by wall pair: rank {w['mean']:+.3f} "
                     f"{ci(w['ci95'])} over {w['pairs']} pairs")
    if f["order"]:
        lines.append("  order (best first): " + " > ".join(
            f"{row['level']} ({row['mean_rank']:.3f})" for row in f["order"]))
        for row in f["order"][:-1]:
            lines.append(f"    {row['level']} minus {row['next']}: {row['rank_difference_to_next']:+.3f} "
                         f"{ci(row['ci95'])}: " + ("separated" if row["separated"] else "NOT separated"))
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="strong,intermediate,beginner",
                        help="comma-separated LEVELS names or MODULE:FUNCTION choosers (default: all three levels)")
    parser.add_argument("--tables", type=int, default=100, help="games per pair of levels (default 100)")
    parser.add_argument("--parallel", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--preset", default="tenhou", help="the rule preset (default tenhou: east-south)")
    parser.add_argument("--seed", type=int, default=0, help="walls and seating order (default 0)")
    args = parser.parse_args(argv)
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    if len(levels) < 2 or len(set(levels)) != len(levels):
        parser.error("--levels names two or more different levels")
    if args.tables < 1 or args.parallel < 1:
        parser.error("--tables and --parallel are at least 1")
    figures = run(levels, args.tables, args.parallel, args.preset, args.seed)
    print("\n".join(describe(figures)))
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
