"""Where a riichi bot's calls part from majiang-ai's: majiang-ai's own call decisions put to ours.

    .venv/bin/python bench/bot_calls.py [--bot MODULE:FUNCTION] [--games 20] [--seed 7] [--preset tenhou]

majiang-ai plays whole games at passive tables (``bench/majiang/passive_table.js --positions``:
three players who discard what they draw and never call, win or declare), and every time it is
offered a chi or pon (and no win) the position is kept as its seat saw it: the hand, the melds on
offer, its choice, the winds, dora indicators, tiles left, every river and meld. Each position is
then given to our chooser (``choose(view, legal, rng)``) as the seat's view with the melds and a
pass as the legal answers, and the two answers are counted by the hand's shanten number before
the offer (capped at 3), closed (``c``) or open (``o``): offered, called by majiang-ai, by ours,
by both (the same meld or not). Of the calls majiang-ai made and ours did not, it counts those
whose hand held a pair of value honours, which is where a value-honour yaku can still come after
the call (後付け).

Nobody threatens at a passive table, so this isolates the call judgement of a hand building
towards a win; the positions are majiang-ai's, so the hands are those its own discards made. The
last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot_offence import PEER, chooser_and_rule  # noqa: E402

from tests.riichi.reference.corpus import ensure_node_modules  # noqa: E402


def view_of(position: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any]:
    """The seat's view of a passive table position, in the server's view shape (seats by
    ``menfeng``: a passive table's seats are numbered from the dealer)."""
    seats = [{"seat": s, "menfeng": s, "he": position["he"][s], "fulou": position["fulou"][s], "lizhi": False,
              "shoupai": ""} for s in range(4)]
    me = position["menfeng"]
    return {"me": {"seat": me, "menfeng": me, "shoupai": position["shoupai"]}, "seats": seats,
            "baopai": position["baopai"], "rule": rule, "zhuangfeng": position["zhuangfeng"],
            "jushu": position["jushu"], "paishu": position["paishu"], "defen": position["defen"]}


def holds_value_pair(position: dict[str, Any]) -> bool:
    concealed = position["shoupai"].split(",")[0]
    honours = concealed[concealed.index("z") + 1:] if "z" in concealed else ""
    values = {"5", "6", "7", str(position["zhuangfeng"] + 1), str(position["menfeng"] + 1)}
    return any(honours.count(v) == 2 for v in values)


def compare(choose: Any, positions: list[dict[str, Any]], rule: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per shanten key: offered, majiang-ai called, ours called, both called, both the same
    answer, and majiang-ai's calls ours declined with a value-honour pair in hand."""
    table: dict[str, Counter[str]] = {}
    for position in positions:
        legal = [{"type": "fulou", "params": [m]} for m in position["offered"]] + [{"type": "pass", "params": []}]
        kind, params = choose(view_of(position, rule), legal, random.Random(0))
        ours = params[0] if kind == "fulou" else None
        theirs = position["called"]
        row = table.setdefault(position["key"], Counter())
        row["offered"] += 1
        row["majiang_ai"] += theirs is not None
        row["ours"] += ours is not None
        row["both"] += ours is not None and theirs is not None
        row["same"] += ours == theirs
        row["missed_with_value_pair"] += theirs is not None and ours is None and holds_value_pair(position)
    keys = ("offered", "majiang_ai", "ours", "both", "same", "missed_with_value_pair")
    return {key: {k: table[key][k] for k in keys} for key in sorted(table)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="games.riichi.bots.strong:choose", help="the chooser, MODULE:FUNCTION")
    parser.add_argument("--games", type=int, default=20, help="majiang-ai's games at passive tables (default 20)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--preset", default="tenhou", help="the rule preset (default tenhou: east-south)")
    args = parser.parse_args()
    choose, rule = chooser_and_rule(args.bot, args.preset)
    ensure_node_modules()
    out = subprocess.run(["node", str(PEER), "--games", str(args.games), "--seed", str(args.seed), "--rule",
                          json.dumps(rule, ensure_ascii=False), "--positions"],
                         check=True, capture_output=True, text=True).stdout
    positions = json.loads(out.strip().splitlines()[-1])["positions"]
    rows = compare(choose, positions, rule)
    print(f"majiang-ai's call decisions at passive tables ({args.games} games, seed {args.seed}, preset "
          f"{args.preset}) put to {args.bot}; by shanten before the offer (c closed, o open):")
    for key, row in rows.items():
        print(f"  {key}: offered {row['offered']}, called by majiang-ai {row['majiang_ai']}, by ours {row['ours']}, "
              f"by both {row['both']}; the same answer {row['same']}; majiang-ai's calls ours declined with a "
              f"value-honour pair in hand {row['missed_with_value_pair']}")
    total = sum(row["offered"] for row in rows.values())
    same = sum(row["same"] for row in rows.values())
    print(f"  the same answer in {same} of {total} decisions")
    print(json.dumps({"bench": "bot_calls", "bot": args.bot, "games": args.games, "seed": args.seed,
                      "preset": args.preset, "decisions": total, "same": same, "by_shanten": rows}))


if __name__ == "__main__":
    main()
