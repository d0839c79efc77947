"""The strong bot's two-step acceptance (``Evaluator.far2``) against its definition, computed the
long way: every kind drawn, every tile let go, every kind drawn again, by the engine's shanten."""

from __future__ import annotations

import random
from collections import Counter

from games.riichi.bots import strong
from games.riichi.bots.value import KINDS, Evaluator, after_discard, hand_counts
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from tests.riichi.bots.test_strong import strong_decisions

HANDS = 12  # closed hands two from tenpai, taken from real games' discard decisions


def two_step_by_definition(ev: Evaluator, sp13: Shoupai) -> float:
    """Sum over kinds t that lower the shanten of t's unseen copies x the most unseen tiles that
    lower it again, over the tiles the hand may let go after drawing t."""
    seen = Counter(ev.public)

    def unseen(held: Counter[str], k: str) -> int:
        return max(0, 4 - seen[k] - held[k])

    def with_tile(base: Shoupai, k: str, delta: int) -> Shoupai:
        out = base.clone()
        out._bingpai[k[0]][int(k[1])] += delta
        return out

    x = xiangting(sp13)
    total = 0
    for t in KINDS:
        held = hand_counts(sp13)
        if held[t] >= 4 or xiangting(with_tile(sp13, t, 1)) >= x:
            continue
        drawn = with_tile(sp13, t, 1)
        best = 0
        for d in KINDS:
            if d == t or not hand_counts(drawn)[d]:
                continue
            one = with_tile(drawn, d, -1)
            if xiangting(one) >= x:
                continue
            held_one = hand_counts(one)
            best = max(best, sum(unseen(held_one, k) for k in KINDS
                                 if held_one[k] < 4 and xiangting(with_tile(one, k, 1)) < x - 1))
        total += unseen(held, t) * best
    return total * (1.0 + 0.15 * ev.han_hint(sp13)) / 20.0


def test_two_step_acceptance_matches_its_definition() -> None:
    checked = 0
    for view, legal, sp in strong_decisions(range(40, 60)):
        me = view["me"]
        discards = [a["params"][0] for a in legal if a["type"] == "dapai" and not a.get("lizhi")]
        if discards and sp.menqian and xiangting(sp) == 2:
            ev = Evaluator(view, me, sp)
            for p in discards:
                after = after_discard(sp, p)
                if xiangting(after) == 2:
                    assert ev.far2(after) == two_step_by_definition(ev, after), (me["shoupai"], p)
                    checked += 1
                    break
        if checked >= HANDS:
            break
    assert checked == HANDS


def test_with_two_steps_the_bot_takes_the_discard_with_the_wider_second_step() -> None:
    """Where the two choosers part at an unthreatened closed hand two from tenpai, the two-step
    one keeps the hand whose second step is wider, and the one-step one the wider first step."""
    two_step = strong.make_choose(style={"two_step": 1.0})
    differed = 0
    for view, legal, sp in strong_decisions(range(60, 70)):
        me = view["me"]
        one = strong.choose(view, legal, random.Random(0))
        # Unthreatened: no riichi and no open hand likely tenpai (then push/fold decides).
        if (one[0] == "dapai" and sp.menqian and xiangting(sp) == 2
                and not strong._Decision(view, me, sp, True, True).threatened):
            two = two_step(view, legal, random.Random(0))
            if two != one:
                differed += 1
                ev = Evaluator(view, me, sp)
                mine, other = after_discard(sp, two[1][0]), after_discard(sp, one[1][0])
                assert ev.far2(mine) > ev.far2(other), (me["shoupai"], one, two)
                assert ev.far(other) >= ev.far(mine), (me["shoupai"], one, two)
                if differed >= 3:
                    break
    assert differed >= 3
