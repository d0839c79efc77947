"""Three-step expected value: the strong bot's worth of a hand two from tenpai, from real wins.

majiang-ai values a hand up to two from tenpai by walking every draw that brings it closer, the
best discard after it, and again, down to the tenpai hands and the points of their wins
(``eval_shoupai``). ``Lookahead`` computes the same on ``Evaluator``'s scale:

- tenpai: ``Evaluator.ev0`` (unseen copies of each wait x the win's points);
- one from tenpai (``one``): over each kind that brings tenpai, its unseen copies x the best
  tenpai score after a discard, / 72 (``Evaluator.ev1`` without the furiten of the discards on the way);
- two from tenpai (``two``): over each kind that brings the hand within one, its unseen copies x
  the best ``one`` after a discard, / 216 (majiang-ai's widths: 12, 72, 216).

The walk is the costly part and depends on the hand alone: for a hand, the kinds that lower its
shanten number and, for each, the discards that keep the lower number (``steps``). It is kept
across decisions (``_STEPS``, as value.py keeps shanten numbers and tenpai points), though only
about a quarter of a game's steps are met twice (measured over one east-south game); what makes
the walk fit a live table's time is computing each from the suits' split masks and regular-form
parts, one or two suits changed at a time (docs/performance.md, issue 31, tenth pass).
"""

from __future__ import annotations

from typing import Any

from games.riichi.bots.value import FURITEN, KINDS, RIICHI_BONUS, Evaluator, _key, candidate_kinds, remember
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.waits import regular_tenpai, suit_mask, tenpai_waits
from games.riichi.engine.xiangting import honour_parts, suit_parts, xiangting_guoshi, xiangting_qidui, yiban_of_parts

# (kind drawn, the kinds whose discard after it lowers the shanten number) for each kind that lowers
# it, per 13-tile hand one or two from tenpai.
Steps = tuple[tuple[str, tuple[str, ...]], ...]
_STEPS: dict[tuple[Any, ...], Steps] = {}
_STEPS_LIMIT = 20_000
# A tenpai hand's waits and each one's points as the walk counts them (``Lookahead.tenpai``).
_TENPAI: dict[tuple[Any, ...], tuple[tuple[str, float], ...]] = {}

WIDTH = (12.0, 72.0, 216.0)
_SUIT = {"m": 0, "p": 1, "s": 2, "z": 3}


def _take(b: dict[str, Any], d: str) -> bool:
    """Let one ``d`` go from the counts (a plain five before a red one); True when a red went."""
    s, n = d[0], int(d[1])
    b[s][n] -= 1
    if s != "z" and n == 5 and b[s][0] > b[s][5]:
        b[s][0] -= 1
        return True
    return False


def _give(b: dict[str, Any], d: str, red: bool) -> None:
    s, n = d[0], int(d[1])
    b[s][n] += 1
    if red:
        b[s][0] += 1


def _qidui(pairs: int, singles: int) -> int:
    """Seven pairs' shanten number from the kinds held twice or more and once (as
    ``xiangting_qidui``: seven pairs at most, and seven kinds in all)."""
    pairs = min(pairs, 7)
    return 13 - pairs * 2 - min(singles, 7 - pairs)


class Lookahead:
    """One decision's three-step values (on top of its ``Evaluator``)."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev
        self._one: dict[tuple[Any, ...], float] = {}
        self._two: dict[tuple[Any, ...], float] = {}

    def steps(self, sp13: Shoupai) -> Steps:
        """For each kind that lowers the shanten number of ``sp13`` (one or two from tenpai), the
        kinds held after drawing it whose discard keeps the lower number."""
        key = _key(sp13)
        got = _STEPS.get(key)
        if got is not None:
            return got
        ev = self.ev
        x = ev.xiangting(sp13)
        work = sp13.clone()
        b = work._bingpai
        # One tile in and one out lowers seven pairs or kokushi by one at most: they are tried only
        # when they are as low as the hand's number already.
        closed = not sp13._fulou
        qidui = closed and xiangting_qidui(sp13) <= x
        guoshi = closed and xiangting_guoshi(sp13) <= x
        out = []
        if x == 1:
            # One from tenpai: a kind lowers the number exactly when some discard after it leaves
            # tenpai, so the walk finds the kinds itself (no shanten numbers), from the suits'
            # masks: with t drawn, a discard changes one suit's mask, and the regular form allows
            # one failing suit at most. Seven pairs and kokushi are asked only when the hand with
            # t drawn is within a discard of them.
            held = [(d, d[0], int(d[1]), _SUIT[d[0]]) for d in KINDS if b[d[0]][int(d[1])]]
            before = [suit_mask(b, 0), suit_mask(b, 1), suit_mask(b, 2), suit_mask(b, 3)]
            # A suit of 3k+2 tiles less one tile holds 3k+1, which never splits: its mask is 0.
            doomed_before = [sum(b[su][1:]) % 3 == 2 for su in "mpsz"]
            doomed_drawn = [sum(b[su][1:]) % 3 == 1 for su in "mpsz"]  # (with t drawn in the suit)
            # Seven pairs from the counts of kinds held twice or more (pairs) and once (singles).
            pairs = sum(1 for d in held if b[d[1]][d[2]] >= 2)
            singles = len(held) - pairs
            for t in candidate_kinds(sp13, qidui, guoshi):
                s, n = t[0], int(t[1])
                c = b[s][n]
                b[s][n] += 1
                masks = before[:]
                masks[_SUIT[s]] = suit_mask(b, _SUIT[s])
                failing = masks.count(0)
                doomed = doomed_before[:]
                doomed[_SUIT[s]] = doomed_drawn[_SUIT[s]]
                pairs_t = pairs + (c == 1)
                singles_t = singles + (c == 0) - (c == 1)
                qidui_t = qidui and _qidui(pairs_t, singles_t) <= 0
                orphans_t = guoshi and xiangting_guoshi(work) <= 0
                keep = []
                if failing <= 2 or qidui_t or orphans_t:
                    for d, ds, dn, i in held:
                        if d == t:
                            continue
                        # With two failing suits, a discard from a third leaves both failing.
                        regular = failing < 2 or (failing == 2 and not masks[i])
                        if not (regular or qidui_t or orphans_t):
                            continue
                        bb = b[ds]
                        left = bb[dn] - 1
                        bb[dn] = left
                        red = ds != "z" and dn == 5 and bb[0] > bb[5]  # a plain five goes first
                        if red:
                            bb[0] -= 1
                        ok = False
                        if regular:
                            saved = masks[i]
                            masks[i] = 0 if doomed[i] else suit_mask(b, i)
                            # (Two suits failing after the discard: not tenpai, without asking.)
                            if failing - (not saved) + (not masks[i]) <= 1:
                                ok = regular_tenpai(masks, b)
                            masks[i] = saved
                        if not ok and qidui_t:
                            ok = _qidui(pairs_t - (left == 1), singles_t - (left == 0) + (left == 1)) == 0
                        if not ok and orphans_t:
                            ok = xiangting_guoshi(work) == 0
                        bb[dn] += 1
                        if red:
                            bb[0] += 1
                        if ok:
                            keep.append(d)
                b[s][n] -= 1
                if keep:
                    out.append((t, tuple(keep)))
            return remember(_STEPS, key, tuple(out), _STEPS_LIMIT)
        # Two from tenpai: the regular form's number from the suits' parts, of which a draw and a
        # discard change one or two.
        n_fulou = len(sp13._fulou)
        before_parts = [suit_parts(b["m"]), suit_parts(b["p"]), suit_parts(b["s"]), honour_parts(b["z"])]
        for t in ev.tingpai(sp13):
            s, n = t[0], int(t[1])
            b[s][n] += 1
            parts = before_parts[:]
            parts[_SUIT[s]] = honour_parts(b["z"]) if s == "z" else suit_parts(b[s])
            keep = []
            for d in KINDS:
                if d == t or not b[d[0]][int(d[1])]:
                    continue
                red = _take(b, d)
                i = _SUIT[d[0]]
                saved = parts[i]
                parts[i] = honour_parts(b["z"]) if i == 3 else suit_parts(b[d[0]])
                ok = (yiban_of_parts(parts[0], parts[1], parts[2], parts[3], n_fulou) == x - 1
                      or (qidui and xiangting_qidui(work) == x - 1) or (guoshi and xiangting_guoshi(work) == x - 1))
                parts[i] = saved
                _give(b, d, red)
                if ok:
                    keep.append(d)
            b[s][n] -= 1
            out.append((t, tuple(keep)))
        return remember(_STEPS, key, tuple(out), _STEPS_LIMIT)

    def _walk(self, sp13: Shoupai, inner: Any) -> float:
        """Over the steps of ``sp13``: unseen copies of the drawn kind x the best ``inner`` value
        of the hands its discards leave."""
        ev = self.ev
        total = 0.0
        work = sp13.clone()
        b = work._bingpai
        for t, keep in self.steps(sp13):
            r = ev.unseen(sp13, t)
            if not r or not keep:
                continue
            s, n = t[0], int(t[1])
            b[s][n] += 1
            best = 0.0
            for d in keep:
                red = _take(b, d)
                v = inner(work)
                _give(b, d, red)
                if v > best:
                    best = v
            b[s][n] -= 1
            total += r * best
        return total

    def tenpai(self, sp13: Shoupai) -> float:
        """``Evaluator.ev0(sp13)``: the better of riichi and dama on each wait, which for a closed
        hand is riichi's (riichi adds a han to every reading, so its points are never fewer), so
        the walk scores a closed hand's waits with riichi alone: one scoring a wait, not two or
        three (``Evaluator.waits`` also scores dama, and a yakuless dama hand's tsumo)."""
        ev = self.ev
        if ev.win_value is not None:
            return ev.ev0(sp13)  # a decision's own worth of points: nothing kept
        key = (ev.context, _key(sp13))
        values = _TENPAI.get(key)
        if values is None:
            param = ev.param_riichi if sp13.menqian else ev.param_dama
            bonus = RIICHI_BONUS if sp13.menqian else 1.0
            values = remember(_TENPAI, key, tuple((w, ev.ron_points(sp13, w, param) * bonus)
                                                  for w in tenpai_waits(sp13)))
        total = 0.0
        furiten = False
        for w, v in values:
            if w in ev.river:
                furiten = True
            r = ev.unseen(sp13, w)
            if r:
                total += r * v
        return total * (FURITEN if furiten else 1.0)

    def _step_value(self, table: dict[tuple[Any, ...], float], sp13: Shoupai, inner: Any, x: int) -> float:
        key = _key(sp13)
        got = table.get(key)
        if got is None:
            got = table[key] = self._walk(sp13, inner) / WIDTH[x]
        return got

    def one(self, sp13: Shoupai) -> float:
        """The value of a hand one from tenpai."""
        return self._step_value(self._one, sp13, self.tenpai, 1)

    def two(self, sp13: Shoupai) -> float:
        """The value of a hand two from tenpai."""
        return self._step_value(self._two, sp13, self.one, 2)

    def value(self, sp13: Shoupai) -> float | None:
        """The hand's value by its shanten number (0, 1 or 2), or None further out."""
        x = self.ev.xiangting(sp13)
        if x == 0:
            return self.ev.ev0(sp13)
        if x == 1:
            return self.one(sp13)
        if x == 2:
            return self.two(sp13)
        return None
