"""Three knobs of the strong bot (``strong.STYLE``, off in the strong level; docs/performance.md,
issue 31, sixth pass): ``dama`` keeps a tenpai with a yaku dama once it is worth the threshold
(majiang-ai reads no dama hand), ``riichi_always`` declares riichi whenever the discard allows it
(as majiang-ai does), and ``call_shapes`` weighs a far hand's improving tiles by the calls they
allow, as majiang-ai does (x4 a pon into a yaku, x2 a chi into open tanyao)."""

from __future__ import annotations

import random
from collections import Counter

from games.riichi.bots import strong
from games.riichi.bots.value import KINDS, Evaluator, after_discard, hand_counts
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from tests.riichi.bots.test_strong import strong_decisions

THRESHOLD = 2000.0
HANDS = 60  # far hands after a discard, from real games' decisions


def test_dama_keeps_a_yaku_tenpai_worth_the_threshold_dama_and_changes_nothing_else() -> None:
    flipped = kept = 0
    for view, legal, sp in strong_decisions(range(80, 88)):
        riichi = {a["params"][0][:-1] for a in legal if a["type"] == "dapai" and a.get("lizhi")}
        if not riichi:
            continue
        me = view["me"]
        plain = strong._Decision(view, me, sp, True, True)
        knob = strong._Decision(view, me, sp, True, True, style={"dama": THRESHOLD})
        for p in sorted(riichi):
            after = after_discard(sp, p)
            default = strong._riichi_or_dama(plain, p)
            with_knob = strong._riichi_or_dama(knob, p)
            worth = knob.ev.mean_value(after, False) >= THRESHOLD * (1.5 if me["menfeng"] == 0 else 1.0)
            if default and knob.ev.has_yaku(after) and worth:
                assert not with_knob, (me["shoupai"], p)
                flipped += 1
            else:
                # A yakuless tenpai, or one worth less, riichis (or not) as the strong level does.
                assert with_knob == default, (me["shoupai"], p)
                kept += default
    assert flipped and kept, (flipped, kept)


def test_riichi_always_declares_riichi_with_every_discard_that_allows_it() -> None:
    always = strong.make_choose(style={"riichi_always": 1.0})
    declared = 0
    for view, legal, _ in strong_decisions(range(88, 96)):
        riichi = {a["params"][0] for a in legal if a["type"] == "dapai" and a.get("lizhi")}
        if not riichi:
            continue
        plain = strong.choose(view, legal, random.Random(0))
        knob = always(view, legal, random.Random(0))
        # The same tile goes; with the knob sideways whenever that tile allows riichi.
        assert knob[0] == plain[0] == "dapai" and knob[1][0].rstrip("*") == plain[1][0].rstrip("*")
        if plain[1][0].rstrip("*") + "*" in riichi:
            assert knob[1][0] in riichi, (view["me"]["shoupai"], plain, knob)
            declared += plain[1][0] not in riichi
        else:
            assert knob == plain  # a discard that gives tenpai up (a fold) stays as it was
    assert declared, "the strong level stays dama somewhere in these games"


def callable_acceptance_by_definition(ev: Evaluator, sp13: Shoupai) -> float:
    """Over every kind that lowers the hand's shanten (by the engine's shanten, all 34 tried): its
    unseen copies x 4 when the hand holds a pair of it that is a value honour, or a simple while
    the hand is no slower towards tanyao (terminals and honours set aside) and open tanyao is
    allowed; x 2 for a simple the hand could chi with two simples beside it; x 1 otherwise."""
    held = hand_counts(sp13)
    seen = Counter(ev.public)
    x = xiangting(sp13)
    bare = sp13.clone()
    for s in "mps":
        bare._bingpai[s][1] = bare._bingpai[s][9] = 0
    bare._bingpai["z"] = [0] * 8
    tanyao = ev.kuitan and xiangting(bare) <= x
    simple = {k for k in KINDS if k[0] != "z" and k[1] not in "19"}
    total = 0.0
    for t in KINDS:
        if held[t] >= 4:
            continue
        drawn = sp13.clone()
        drawn._bingpai[t[0]][int(t[1])] += 1
        if xiangting(drawn) >= x:
            continue
        n = int(t[1])
        beside = [(t[0] + str(n + a), t[0] + str(n + b)) for a, b in ((-2, -1), (-1, 1), (1, 2))]
        if held[t] >= 2 and (t in ev.values or (tanyao and t in simple)):
            weight = 4
        elif tanyao and t in simple and any(a in simple and b in simple and held[a] and held[b] for a, b in beside):
            weight = 2
        else:
            weight = 1
        total += max(0, 4 - seen[t] - held[t]) * weight
    return total


def test_callable_acceptance_matches_its_definition() -> None:
    checked = 0
    weights_seen: set[bool] = set()
    for view, legal, sp in strong_decisions(range(100, 112)):
        me = view["me"]
        if not sp.menqian:
            continue
        ev = Evaluator(view, me, sp)
        for a in legal:
            if a["type"] != "dapai" or a.get("lizhi"):
                continue
            after = after_discard(sp, a["params"][0])
            if xiangting(after) < 2:
                continue
            expected = callable_acceptance_by_definition(ev, after)
            assert ev._callable_acceptance(after) == expected, (me["shoupai"], a["params"])
            plain = sum(ev.unseen(after, t) for t in ev.tingpai(after))
            weights_seen.add(expected > plain)
            checked += 1
        if checked >= HANDS and len(weights_seen) == 2:
            break
    # Hands where a call weighs, and hands where none does.
    assert checked >= HANDS and weights_seen == {True, False}, (checked, weights_seen)


def test_with_call_shapes_the_bot_keeps_the_more_callable_hand() -> None:
    """Where the two choosers part at an unthreatened hand three or more from tenpai, the one with
    ``call_shapes`` keeps the hand its weighted acceptance scores higher, the strong level the one
    its plain acceptance does."""
    shapes = strong.make_choose(style={"call_shapes": 1.0})
    differed = 0
    for view, legal, sp in strong_decisions(range(130, 150)):
        me = view["me"]
        plain = strong.choose(view, legal, random.Random(0))
        if plain[0] != "dapai" or xiangting(sp) < 3 or strong._Decision(view, me, sp, True, True).threatened:
            continue
        weighted = shapes(view, legal, random.Random(0))
        if weighted == plain:
            continue
        ev = Evaluator(view, me, sp)
        mine, other = after_discard(sp, weighted[1][0]), after_discard(sp, plain[1][0])
        if xiangting(mine) != xiangting(other):
            continue
        ev.call_shapes = 1.0
        assert ev.far(mine) > ev.far(other), (me["shoupai"], plain, weighted)
        ev.call_shapes = 0.0
        assert ev.far(other) >= ev.far(mine), (me["shoupai"], plain, weighted)
        differed += 1
        if differed >= 3:
            break
    assert differed >= 3, differed
