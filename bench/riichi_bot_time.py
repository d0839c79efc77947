"""The riichi bots' decision time: every decision of whole east-south games with one chooser at all
four seats, on the engine alone (no server).

    .venv/bin/python bench/riichi_bot_time.py [--bot games.riichi.bots.strong:choose] [--games 8] [--seed 0]

Reported: decisions, and the p50 / p99 / max of the thread's CPU time per decision (what the bot
costs; wall time on a shared machine measures its load as well), for all decisions and for
discards alone. Issue 31's target: p99 under 50 ms. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core.engine import Mode  # noqa: E402
from games.riichi.engine.table import RiichiGame  # noqa: E402

MODE = Mode(4, "Four players", 4)


def quantiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    pick = lambda q: round(times[min(len(times) - 1, int(len(times) * q))] * 1000, 2)  # noqa: E731
    return {"n": len(times), "p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": round(times[-1] * 1000, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="games.riichi.bots.strong:choose", help="module:function")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    module, _, name = args.bot.partition(":")
    choose = getattr(importlib.import_module(module), name)
    every: list[float] = []
    discards: list[float] = []
    for game in range(args.games):
        table = RiichiGame.create(mode=MODE, seed=args.seed + game, rules={"preset": "tenhou"})
        for seat, action, params in table.initial_actions():
            table.apply(seat, action, params)
        rng = random.Random(args.seed + game)
        while not table.is_over:
            seat = table.to_act()[0]
            view, legal = table.view(seat), table.legal_actions(seat)
            began = time.thread_time()
            action, params = choose(view, legal, rng)
            spent = time.thread_time() - began
            every.append(spent)
            if action == "dapai":
                discards.append(spent)
            table.apply(seat, action, params)
    figures = {"bot": args.bot, "games": args.games, "all": quantiles(every), "discards": quantiles(discards)}
    print(f"{args.bot}: {figures['all']['n']} decisions, CPU p50 {figures['all']['p50_ms']} ms, "
          f"p99 {figures['all']['p99_ms']} ms, max {figures['all']['max_ms']} ms; discards p99 "
          f"{figures['discards']['p99_ms']} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
