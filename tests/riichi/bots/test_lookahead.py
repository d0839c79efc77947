"""The three-step expected value (``lookahead.Lookahead``) against its definition, computed the
long way with the engine's own shanten numbers over every kind; and what the ``three_step`` knob
does to the strong bot's discards and calls."""

from __future__ import annotations

import random

from games.riichi.bots import lookahead, strong, value
from games.riichi.bots.lookahead import Lookahead
from games.riichi.bots.value import KINDS, Evaluator, after_discard
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from tests.riichi.bots.test_strong import strong_decisions

ONE_HANDS = 10  # hands one from tenpai, and
TWO_HANDS = 4  # two from tenpai, taken from real games' discard decisions


def _moved(sp13: Shoupai, t: str, d: str) -> Shoupai:
    """``sp13`` with ``t`` drawn and ``d`` let go (a plain five before a red one)."""
    out = sp13.clone()
    b = out._bingpai
    b[t[0]][int(t[1])] += 1
    s, n = d[0], int(d[1])
    b[s][n] -= 1
    if s != "z" and n == 5 and b[s][0] > b[s][5]:
        b[s][0] -= 1
    return out


def steps_by_definition(sp13: Shoupai) -> list[tuple[str, tuple[str, ...]]]:
    """Every kind whose drawing lowers the shanten number (the engine's, over all 34 kinds) with
    every kind whose discard then keeps the lower number."""
    x = xiangting(sp13)
    out = []
    for t in KINDS:
        if sp13._bingpai[t[0]][int(t[1])] >= 4:
            continue
        drawn = sp13.clone()
        drawn._bingpai[t[0]][int(t[1])] += 1
        if xiangting(drawn) >= x:
            continue
        keep = tuple(d for d in KINDS if d != t and drawn._bingpai[d[0]][int(d[1])]
                     and xiangting(_moved(sp13, t, d)) == x - 1)
        out.append((t, keep))
    return out


def by_definition(ev: Evaluator, sp13: Shoupai, x: int) -> float:
    """Over every kind whose drawing lowers the shanten number: its unseen copies x the best value
    one step nearer (tenpai: ``ev0``) over every tile then let go, / majiang-ai's width."""
    total = 0.0
    for t, keep in steps_by_definition(sp13):
        best = max((ev.ev0(_moved(sp13, t, d)) if x == 1 else by_definition(ev, _moved(sp13, t, d), 1)
                    for d in keep), default=0.0)
        total += ev.unseen(sp13, t) * best
    return total / lookahead.WIDTH[x]


def _forget() -> None:
    """Empty the tables kept across decisions (so a value is computed from nothing)."""
    for table in (lookahead._STEPS, value._XT, value._TING, value._WAITS):
        table.clear()


def test_one_and_two_from_tenpai_match_the_definition() -> None:
    found = {1: 0, 2: 0}
    for view, legal, sp in strong_decisions(range(80, 100)):
        discards = [a["params"][0] for a in legal if a["type"] == "dapai" and not a.get("lizhi")]
        if not discards:
            continue
        ev = Evaluator(view, view["me"], sp)
        for p in discards:
            after = after_discard(sp, p)
            x = xiangting(after)
            if x not in found or found[x] >= (ONE_HANDS if x == 1 else TWO_HANDS):
                continue
            expected = by_definition(ev, after, x)
            _forget()
            cold = Lookahead(ev).value(after)
            warm = Lookahead(ev).value(after)  # from the tables the first one filled
            assert cold is not None and abs(cold - expected) < 1e-6 * max(1.0, expected), (str(after), cold, expected)
            assert warm == cold
            found[x] += 1
            break
        if found[1] >= ONE_HANDS and found[2] >= TWO_HANDS:
            break
    assert found == {1: ONE_HANDS, 2: TWO_HANDS}


def test_three_step_discards_take_the_hand_worth_more_from_real_wins() -> None:
    """Where the choosers with and without three steps part at an unthreatened closed hand two
    from tenpai, the three-step one keeps the hand with the higher three-step value."""
    three = strong.make_choose(style={"three_step": 1.0})
    far = strong.make_choose(style={"three_step": 0.0})
    differed = 0
    for view, legal, sp in strong_decisions(range(100, 115)):
        me = view["me"]
        if not (sp.menqian and xiangting(sp) == 2 and any(a["type"] == "dapai" for a in legal)):
            continue
        if strong._Decision(view, me, sp, True, True).threatened:
            continue
        one = far(view, legal, random.Random(0))
        mine = three(view, legal, random.Random(0))
        if mine[0] != "dapai" or one[0] != "dapai" or mine == one:
            continue
        look = Lookahead(Evaluator(view, me, sp))
        chosen, other = after_discard(sp, mine[1][0].rstrip("*")), after_discard(sp, one[1][0].rstrip("*"))
        if xiangting(chosen) == xiangting(other) == 2:
            assert look.two(chosen) >= look.two(other), (me["shoupai"], one, mine)
            differed += 1
            if differed >= 3:
                break
    assert differed >= 3


def test_three_step_calls_two_from_tenpai_when_the_call_raises_the_value() -> None:
    """The three-step chooser calls from two from tenpai where the chooser without it does not
    (it almost never calls there); each such call leads, after its best discard, to a hand worth
    more than the hand before."""
    three = strong.make_choose(style={"three_step": 1.0})
    far = strong.make_choose(style={"three_step": 0.0})
    calls = 0
    for view, legal, sp in strong_decisions(range(120, 140)):
        if not any(a["type"] == "fulou" for a in legal) or not sp.menqian or xiangting(sp) != 2:
            continue
        action = three(view, legal, random.Random(0))
        if action[0] != "fulou" or far(view, legal, random.Random(0)) == action:
            continue
        d = strong._Decision(view, view["me"], sp, True, True, {"three_step": 1.0})
        if d.last and d.rank == 1:
            continue  # the leader's last hand calls for speed alone
        before = d.look.value(sp)
        called = sp.clone().fulou(action[1][0], False)
        after = max((d.look.value(after_discard(called, p)) or 0.0) for p in called.get_dapai() or [])
        assert before is not None and after > before, (view["me"]["shoupai"], action, before, after)
        calls += 1
        if calls >= 3:
            break
    assert calls >= 3


def _hands_near_tenpai(rng: random.Random, wanted: int) -> list[Shoupai]:
    """Closed 13-tile hands one or two from tenpai, half of them rich in pairs (seven pairs and
    the regular form both near), a few with red fives."""
    wall = [s + str(n) for s in "mps" for n in range(1, 10) for _ in range(4)] + [
        "z" + str(n) for n in range(1, 8) for _ in range(4)]
    hands: list[Shoupai] = []
    while len(hands) < wanted:
        if rng.random() < 0.5:
            kinds = rng.sample(sorted(set(wall)), 7)
            tiles = [k for k in kinds[:6] for _ in range(2)] + [kinds[6]]
            tiles[rng.randrange(13)] = rng.choice(wall)
        else:
            suit = rng.choice("mps")
            tiles = rng.sample([p for p in wall if p[0] in (suit, rng.choice("mpsz"))], 13)
        tiles = [p[0] + "0" if p[1] == "5" and p[0] != "z" and rng.random() < 0.2 else p for p in tiles]
        try:
            sp = Shoupai(tiles)
        except Exception:  # a fifth copy: draw again
            continue
        if xiangting(sp) in (1, 2):
            hands.append(sp)
    return hands


def test_steps_match_the_engine_on_random_hands() -> None:
    ev = None
    for view, _, sp in strong_decisions(range(140, 141)):
        ev = Evaluator(view, view["me"], sp)  # the counts do not matter to the steps
        break
    assert ev is not None
    for sp13 in _hands_near_tenpai(random.Random(31), 150):
        _forget()
        assert list(Lookahead(ev).steps(sp13)) == steps_by_definition(sp13), str(sp13)
