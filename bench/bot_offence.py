"""A riichi bot's offence alone, against majiang-ai's: each plays whole games against three passive
players.

    .venv/bin/python bench/bot_offence.py [--bot MODULE:FUNCTION] [--games 60] [--peer-games 20]
        [--seed 0] [--preset tenhou] [--no-calls] [--no-peer]

At a passive table the hero (player 0) faces three players who discard the tile they draw and
never call, win or declare anything, so nobody threatens the hero and nobody wins but it: what it
scores is its hand-building alone (discards, calls, riichi), with defence and the others' hands
out of the picture. Ours plays on the pure engine (``RiichiGame``, the preset's rule, hand-end
acknowledgements on as on the server); majiang-ai plays on majiang-core with the same rule
(``bench/majiang/passive_table.js``), in a node process running beside ours. The walls differ
(each engine deals its own), so the two are compared as samples: per hand of the hero, the win
rate, the points won (0 for a hand not won) and the call rate, each with a 95% interval, and ours
over majiang-ai's as a ratio. The call decisions are also counted by the hand's shanten number
before them (closed or open), which says where the two call differently.

It screens offence changes in minutes where ``bench/bot_strength.py`` (whole games against
majiang-ai over the server) takes an hour per 200 tables; a change it favours still has to be
measured there (docs/performance.md, issue 31, sixth pass). The last line printed is one JSON
object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bot_strength import interval  # noqa: E402  (the intervals every bot bench reports)

from tests.riichi.reference.corpus import ensure_node_modules  # noqa: E402

PEER = ROOT / "bench" / "majiang" / "passive_table.js"
HERO = 0
MAX_ACTIONS = 20_000


def passive(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """Discard the tile just drawn; pass on everything else; never win, call or declare."""
    allowed = [a for a in legal if a.get("allowed", True)]
    for a in allowed:
        if a["type"] == "dapai" and not a.get("lizhi") and a["params"][0].endswith("_"):
            return ("dapai", a["params"])
    if any(a["type"] == "pass" for a in allowed):
        return ("pass", [])
    for a in allowed:
        if a["type"] not in ("hule", "fulou", "gang", "pingju", "dapai", "daopai"):
            return (a["type"], a["params"])  # the game's start and the like: no choice in them
    dapai = next(a for a in allowed if a["type"] == "dapai" and not a.get("lizhi"))
    return ("dapai", dapai["params"])


def without_calls(choose: Any) -> Any:
    def choose_closed(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
        return choose(view, [a for a in legal if a["type"] != "fulou"], rng)
    return choose_closed


def shanten_key(shoupai: str) -> str:
    from games.riichi.engine.shoupai import Shoupai
    from games.riichi.engine.xiangting import xiangting

    sp = Shoupai.from_string(shoupai)
    return f"{min(xiangting(sp), 3)}{'c' if sp.menqian else 'o'}"


def play_one(choose: Any, seed: int, preset: str, calls: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """One whole game of ``choose`` (player 0) against three passive players; its paifu. Counts
    the hero's call decisions into ``calls`` (by shanten before them: offered, called)."""
    from games.core.engine import Mode
    from games.riichi.engine.table import HAND_END_ACK, RiichiGame

    table = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules={"preset": preset, HAND_END_ACK: True})
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if table.is_over:
            return table.paifu
        seat = table.to_act()[0]
        view, legal = table.view(seat), table.legal_actions(seat)
        action = (choose if seat == HERO else passive)(view, legal, rng)
        offered = {a["type"] for a in legal if a.get("allowed", True)}
        if seat == HERO and calls is not None and "fulou" in offered and "hule" not in offered:
            counts = calls.setdefault(shanten_key(view["me"]["shoupai"]), [0, 0])
            counts[0] += 1
            counts[1] += action[0] == "fulou"
        table.apply(seat, *action)
    raise RuntimeError(f"game of seed {seed}: no end within {MAX_ACTIONS} actions")


def play_ours(choose: Any, games: int, seed: int, preset: str) -> dict[str, Any]:
    hands: list[dict[str, Any]] = []
    calls: dict[str, list[int]] = {}
    started = time.process_time()
    for n in range(games):
        hands.extend(hero_hands(play_one(choose, seed * 100_003 + n, preset, calls)))
    return {"games": games, "cpu_seconds": round(time.process_time() - started, 1), "hands": hands, "calls": calls}


def hero_hands(paifu: dict[str, Any]) -> list[dict[str, Any]]:
    """Per hand, what the hero (player 0) did: as passive_table.js reports it."""
    out = []
    for log in paifu["log"]:
        qipai = log[0]["qipai"]
        me = (HERO - paifu["qijia"] - qipai["jushu"]) % 4
        hand = {"won": False, "points": 0, "turn": 0, "riichi": False, "called": False}
        for message in log:
            ((kind, data),) = message.items()
            if kind == "dapai" and data["l"] == me:
                hand["turn"] += 1
                hand["riichi"] = hand["riichi"] or data["p"].endswith("*")
            elif kind == "fulou" and data["l"] == me:
                hand["called"] = True
            elif kind == "hule" and data["l"] == me:
                hand["won"], hand["points"] = True, data["defen"]
        if not hand["won"]:
            hand["turn"] = 0
        out.append(hand)
    return out


def rate(flags: list[bool]) -> float | None:
    return round(sum(flags) / len(flags), 4) if flags else None


def summary(run: dict[str, Any]) -> dict[str, Any]:
    hands = run["hands"]
    won = [h for h in hands if h["won"]]
    return {
        "games": run["games"], "hands": len(hands),
        "win_rate": interval([float(h["won"]) for h in hands]),
        "points_per_hand": interval([float(h["points"]) for h in hands]),
        "call_rate": interval([float(h["called"]) for h in hands]),
        "riichi_rate": round(sum(h["riichi"] for h in hands) / len(hands), 4) if hands else None,
        "mean_win_points": round(sum(h["points"] for h in won) / len(won)) if won else None,
        "mean_win_turn": round(sum(h["turn"] for h in won) / len(won), 2) if won else None,
        "win_rate_called": rate([h["won"] for h in hands if h["called"]]),
        "win_rate_closed": rate([h["won"] for h in hands if not h["called"]]),
        "calls_by_shanten": {k: {"offered": v[0], "called": v[1], "rate": round(v[1] / v[0], 3)}
                             for k, v in sorted(run["calls"].items())},
    }


def ratio(ours: dict[str, Any], peer: dict[str, Any], key: str) -> float | None:
    a, b = ours[key]["mean"], peer[key]["mean"]
    return round(a / b, 3) if a is not None and b else None


def describe(name: str, s: dict[str, Any]) -> str:
    def ci(figure: dict[str, Any], digits: int) -> str:
        lo, hi = figure["ci95"] if figure["ci95"] else (math.nan, math.nan)
        return f"{figure['mean']:.{digits}f} ({lo:.{digits}f} to {hi:.{digits}f})"

    calls = ", ".join(f"{k} {v['called']}/{v['offered']}" for k, v in s["calls_by_shanten"].items())
    return (f"  {name}: {s['hands']} hands of {s['games']} games; won {ci(s['win_rate'], 3)}, points a hand "
            f"{ci(s['points_per_hand'], 0)}, called {ci(s['call_rate'], 3)}, riichi {s['riichi_rate']}, "
            f"a win {s['mean_win_points']} points at discard {s['mean_win_turn']}; won {s['win_rate_called']} of the "
            f"hands with a call, {s['win_rate_closed']} of the others\n"
            f"    calls taken / offered by shanten before (c closed, o open): {calls}")


def chooser_and_rule(bot: str, preset: str) -> tuple[Any, dict[str, Any]]:
    """Django set up; the chooser ``bot`` names (MODULE:FUNCTION) and the preset's whole rule."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from games.core.engine import Mode
    from games.riichi.engine.table import HAND_END_ACK, RiichiGame

    module, function = bot.split(":")
    choose = getattr(importlib.import_module(module), function)
    rule = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=0,
                             rules={"preset": preset, HAND_END_ACK: True}).rule
    return choose, rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="games.riichi.bots.strong:choose", help="the chooser, MODULE:FUNCTION")
    parser.add_argument("--games", type=int, default=60, help="our games (default 60: some 600 hands)")
    parser.add_argument("--peer-games", type=int, default=20, help="majiang-ai's games (default 20: it is slower)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="tenhou", help="the rule preset (default tenhou: east-south)")
    parser.add_argument("--no-calls", action="store_true", help="neither hero chis, pons or opens a kan")
    parser.add_argument("--no-peer", action="store_true", help="ours only")
    args = parser.parse_args()
    choose, rule = chooser_and_rule(args.bot, args.preset)
    if args.no_calls:
        choose = without_calls(choose)
    peer = None
    if not args.no_peer:
        ensure_node_modules()
        command = ["node", str(PEER), "--games", str(args.peer_games), "--seed", str(args.seed),
                   "--rule", json.dumps(rule, ensure_ascii=False)]
        if args.no_calls:
            command.append("--no-calls")
        # majiang-ai plays on the other core while ours plays here.
        peer = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    started = time.monotonic()
    ours = summary(play_ours(choose, args.games, args.seed, args.preset))
    figures: dict[str, Any] = {"bench": "bot_offence", "bot": args.bot, "preset": args.preset, "seed": args.seed,
                               "no_calls": args.no_calls, "intervals": "mean ± 1.96 SE over the hero's hands",
                               "ours": ours}
    print(f"Passive tables (three players who discard what they draw), preset {args.preset}, seed {args.seed}"
          f"{', no calls' if args.no_calls else ''}:")
    print(describe(args.bot, ours))
    if peer is not None:
        out, _ = peer.communicate()
        if peer.returncode:
            raise SystemExit(f"passive_table.js exited with {peer.returncode}")
        raw = json.loads(out.strip().splitlines()[-1])
        theirs = summary({"games": raw["games"], "hands": raw["hands"], "calls": raw["calls"]})
        figures["majiang_ai"] = theirs
        figures["ratio"] = {key: ratio(ours, theirs, key) for key in ("win_rate", "points_per_hand", "call_rate")}
        print(describe("majiang-ai", theirs))
        r = figures["ratio"]
        print(f"  ours over majiang-ai: win rate x{r['win_rate']}, points a hand x{r['points_per_hand']}, "
              f"call rate x{r['call_rate']}")
    figures["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
