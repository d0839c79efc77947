"""Cribbage throughput: the full hand-score sweep, and bot games in the engine alone.

    .venv/bin/python bench/cribbage.py [--parts ab] [--bot-games 20] [--seed 0]

(a) ``games.cribbage.engine.sweep.distribution()``: the score of all 12,994,800 hand + starter
    combinations (one core; see that module for how they are counted), checked against the
    published distribution;
(b) ``--bot-games`` complete 2-player games, engine only (no Django, no database), every decision
    made by ``games.cribbage.bots.house.choose`` for the first seat ``to_act()`` lists.

The last line is one JSON object with the figures. No peer implementation exists for cribbage, so
every figure is absolute.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MAX_ACTIONS_PER_GAME = 20_000  # a 2-player game takes a few hundred; more means the bot and engine loop

# The published distribution (also in tests/cribbage/engine/test_sweep.py, which CI runs).
PUBLISHED = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508, 6: 1_800_268, 7: 751_324,
    8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680, 12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168,
    16: 58_248, 17: 11_196, 18: 2_708, 20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680, 28: 76, 29: 4,
}


def bench_sweep() -> dict[str, Any]:
    from games.cribbage.engine.sweep import distribution

    # A fresh process: the time includes filling the scorer's per-rank caches.
    began = time.perf_counter()
    counts = distribution()
    seconds = time.perf_counter() - began
    combinations = sum(counts.values())
    return {"seconds": seconds, "combinations": combinations, "matches_published": counts == PUBLISHED}


def bench_bot_games(games: int, seed: int) -> dict[str, Any] | None:
    try:
        from games.cribbage.bots.house import choose
        from games.cribbage.engine.game import CribbageGame
    except ImportError as error:
        print(f"(b) bot games: skipped, the cribbage bot or engine is not importable yet ({error})")
        return None
    from games.core.engine import Mode

    mode = Mode(2, "Two players", 2)
    actions = 0
    began = time.perf_counter()
    for number in range(games):
        game = CribbageGame.create(mode=mode, seed=seed + number, rules={})
        rng = random.Random(seed + number)
        for action in game.initial_actions():
            game.apply(*action)
        played = 0
        while not game.is_over:
            seat = game.to_act()[0]
            action_type, params = choose(game.view(seat), game.legal_actions(seat), rng)
            game.apply(seat, action_type, params)
            played += 1
            if played > MAX_ACTIONS_PER_GAME:
                raise RuntimeError(f"game with seed {seed + number} is not over after {played} actions")
        actions += played
    return {"games": games, "actions": actions, "seconds": time.perf_counter() - began}


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 2) if seconds > 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="ab", help="which parts to run, e.g. 'a' (default: all)")
    parser.add_argument("--bot-games", type=int, default=20, help="(b) complete 2-player games to play")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    print("Cribbage bench; no peer implementation exists to compare with, so figures are absolute.")
    figures: dict[str, Any] = {}
    if "a" in args.parts:
        sweep = bench_sweep()
        print(
            f"(a) full sweep: {sweep['combinations']:,} hand + starter combinations in {sweep['seconds']:.2f}s "
            f"(one core; {'matches' if sweep['matches_published'] else 'DOES NOT MATCH'} the published distribution)"
        )
        figures.update(sweep_seconds=round(sweep["seconds"], 3), combinations=sweep["combinations"],
                       sweep_matches_published=sweep["matches_published"])
    if "b" in args.parts:
        bots = bench_bot_games(args.bot_games, args.seed)
        if bots is not None:
            print(
                f"(b) bot games: {bots['games']} 2-player games in {bots['seconds']:.2f}s = "
                f"{_rate(bots['games'], bots['seconds'])} games/s ({_rate(bots['actions'], bots['seconds'])} actions/s)"
            )
        figures["bot_games_per_second"] = _rate(bots["games"], bots["seconds"]) if bots else None
        figures["bot_actions_per_second"] = _rate(bots["actions"], bots["seconds"]) if bots else None
    figures["peer"] = None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
