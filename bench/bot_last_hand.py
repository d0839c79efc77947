"""A riichi bot change that only acts in the game's last hand, measured there: the last hand played
twice from the same standings and the same wall, once with the change at one seat and once without.

    .venv/bin/python bench/bot_last_hand.py --bot MODULE:FUNCTION [--base games.riichi.bots.strong:choose]
        [--positions 400] [--parallel 2] [--preset tenhou] [--seed 0]

Each position is South 4 of an east-south game (preset ``tenhou`` by default: extra hands while
nobody has 30,000, the last dealer may stop) with made-up standings: four scores 25,000 plus a
normal spread (8,000 standard deviation), summing to 100,000, none below 1,000; the seat that
plays ``--bot`` goes round the four positions. The game is played to its end on the pure engine
twice, with the same seed (so the same first wall): the hero seat playing ``--bot``, then
``--base``; the other three play ``--base`` both times. Decisions the change does not alter are
the same in both games, so the difference in the hero's final place comes from the decisions it
does alter: a far smaller spread than whole games give, which is what lets a change confined to
one hand in eleven be told from nothing (``bench/bot_strength.py`` cannot, at a few hundred
tables).

Reported: positions, those whose two games differed, the hero's mean final place with the change
and without, and the paired difference (with minus without; negative is better) with its 95%
interval, overall and by the hero's place before the hand. The last line is one JSON object.

The standings are reached by setting the engine's round, hand and scores once its first hand is
dealt for: a bench device, not something the server does.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bot_levels import resolve  # noqa: E402
from bot_strength import interval  # noqa: E402

MAX_ACTIONS = 5_000
SPREAD = 8000.0


def standings(rng: random.Random) -> list[int]:
    """Four made-up scores at South 4: 25,000 plus a normal spread, in hundreds, summing to
    100,000, none below 1,000."""
    while True:
        raw = [rng.gauss(0.0, SPREAD) for _ in range(4)]
        mean = sum(raw) / 4
        scores = [25000 + round((x - mean) / 100) * 100 for x in raw]
        scores[3] += 100000 - sum(scores)
        if min(scores) >= 1000:
            return scores


def play_out(bot: str, base: str, hero: int, scores: list[int], seed: int, preset: str) -> dict[str, Any]:
    """One game from South 4 (``scores`` by player id) to its end; ``hero`` plays ``bot``."""
    from games.core.engine import Mode
    from games.riichi.engine.table import HAND_END_ACK, RiichiGame

    table = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed,
                              rules={"preset": preset, HAND_END_ACK: True})
    game = table.game
    start = game.kaiju

    def kaiju(qijia: int = 0) -> None:
        start(qijia)
        game.zhuangfeng, game.jushu, game.defen = 1, 3, list(scores)

    game.kaiju = kaiju  # type: ignore[method-assign]
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    choosers = [resolve(bot) if s == hero else resolve(base) for s in range(4)]
    rngs = [random.Random(f"{seed}-{s}") for s in range(4)]
    decisions: list[str] = []
    actions = 0
    while not table.is_over:
        seat = table.to_act()[0]
        answer = choosers[seat](table.view(seat), table.legal_actions(seat), rngs[seat])
        if seat == hero:
            decisions.append(repr(answer))
        table.apply(seat, *answer)
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"seed {seed}: no end within {MAX_ACTIONS} actions")
    result = table.result()
    qipai = table.paifu["log"][0][0]["qipai"]
    return {"rank": result["rank"][hero], "score": result["defen"][hero], "hands": len(table.paifu["log"]),
            "first_hand": [qipai["zhuangfeng"], qipai["jushu"]], "decisions": decisions}


def position(task: tuple[str, str, int, int, str]) -> dict[str, Any]:
    bot, base, seed, index, preset = task
    rng = random.Random(f"{seed}:{index}")
    scores = standings(rng)
    wall_seed = rng.randrange(2**31)
    hero = index % 4
    place_before = 1 + sum(1 for s in range(4) if s != hero and scores[s] > scores[hero])
    with_bot = play_out(bot, base, hero, scores, wall_seed, preset)
    without = play_out(base, base, hero, scores, wall_seed, preset)
    return {"index": index, "scores": scores, "hero": hero, "place_before": place_before,
            "with": with_bot["rank"], "without": without["rank"],
            "score_with": with_bot["score"], "score_without": without["score"],
            "differed": with_bot["decisions"] != without["decisions"]}


def figures(rows: list[dict[str, Any]], args: argparse.Namespace, seconds: float) -> dict[str, Any]:
    def summary(part: list[dict[str, Any]]) -> dict[str, Any]:
        return {"positions": len(part), "differed": sum(r["differed"] for r in part),
                "rank_with": interval([float(r["with"]) for r in part]),
                "rank_without": interval([float(r["without"]) for r in part]),
                "rank_difference": interval([float(r["with"] - r["without"]) for r in part]),
                "score_difference": interval([float(r["score_with"] - r["score_without"]) for r in part])}

    return {"bench": "bot_last_hand", "bot": args.bot, "base": args.base, "preset": args.preset,
            "seed": args.seed, "seconds": round(seconds, 1), **summary(rows),
            "by_place_before": {str(p): summary([r for r in rows if r["place_before"] == p]) for p in (1, 2, 3, 4)}}


def describe(f: dict[str, Any]) -> list[str]:
    def line(label: str, s: dict[str, Any]) -> str:
        d = s["rank_difference"]
        ci = d["ci95"] or ["-", "-"]
        return (f"{label}: {s['positions']} positions, {s['differed']} differed; place with "
                f"{s['rank_with']['mean']} without {s['rank_without']['mean']}; difference {d['mean']} "
                f"(95% CI {ci[0]} to {ci[1]})")

    lines = [f"Last hand, {f['bot']} against {f['base']} (preset {f['preset']}, seed {f['seed']}, {f['seconds']} s)",
             line("all", f)]
    for p, s in f["by_place_before"].items():
        if s["positions"]:
            lines.append(line(f"  {p} before the hand", s))
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", required=True, help="the changed chooser, MODULE:FUNCTION or a level")
    parser.add_argument("--base", default="games.riichi.bots.strong:choose", help="the chooser it is compared with")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--preset", default="tenhou")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    tasks = [(args.bot, args.base, args.seed, i, args.preset) for i in range(args.positions)]
    began = time.monotonic()
    if args.parallel > 1:
        with multiprocessing.Pool(args.parallel) as pool:
            rows = pool.map(position, tasks, chunksize=4)
    else:
        rows = [position(t) for t in tasks]
    f = figures(rows, args, time.monotonic() - began)
    for text in describe(f):
        print(text)
    print(json.dumps(f))


if __name__ == "__main__":
    main()
