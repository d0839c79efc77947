"""Hand value and speed for the strong riichi bot, from what the seat may see.

``Evaluator(view)`` holds one decision's context: the public tile counts (rivers, melds, dora
indicators: ``public``), the dora, the rule, the winds, and caches. Unseen copies of a kind for a
hypothetical hand are ``4 - public - copies in that hand``, so every figure is a function of the
hand alone within one decision.

The scores compare discards (and calls) at equal shanten, on majiang-ai's linear scale:

- tenpai (``ev0``): sum over the waits of unseen copies x the winning hand's points (the engine's
  own scorer, ``hule``, with riichi for a closed hand, dora and red fives); a wait in the seat's
  own river makes the hand furiten (tsumo only, a third of the value);
- one from tenpai (``ev1``): sum over the tiles that bring tenpai of unseen copies x the best
  tenpai score after the best discard, / 72 (majiang-ai's widths: 12 and 72, so tenpai and one
  from tenpai are on one scale);
- further (``far``): the acceptance weighted with a rough value (dora, red fives, value-honour
  pairs), plus small shape terms.

``win_chance`` and ``expected_points`` turn these into absolute points for push/fold decisions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.riichi.engine.hule import hule, hule_param
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import zhenbaopai
from games.riichi.engine.waits import is_tenpai, tenpai_waits
from games.riichi.engine.xiangting import xiangting, xiangting_guoshi, xiangting_qidui, xiangting_yiban

KINDS = tuple(s + str(n) for s in "mps" for n in range(1, 10)) + tuple("z" + str(n) for n in range(1, 8))
RIICHI_BONUS = 1.3  # ura dora, ippatsu and tsumo on top of the ron value with riichi
FURITEN = 0.35  # a furiten wait wins by tsumo only


def kind(p: str) -> str:
    return p[0] + ("5" if p[1] == "0" else p[1])


def public_counts(view: dict[str, Any]) -> Counter[str]:
    """Copies of each kind visible to everyone: rivers (a called discard counted in its meld),
    melds, dora indicators."""
    seen: Counter[str] = Counter()
    for seat in view.get("seats", []):
        for p in seat["he"]:
            if p[-1] not in "+=-":
                seen[kind(p)] += 1
        for m in seat["fulou"]:
            s = m[0]
            for c in m[1:]:
                if c.isdigit():
                    seen[s + ("5" if c == "0" else c)] += 1
    for p in view.get("baopai", []):
        seen[kind(p)] += 1
    return seen


def hand_counts(sp: Shoupai) -> Counter[str]:
    c: Counter[str] = Counter()
    for s in "mpsz":
        b = sp._bingpai[s]
        for n in range(1, len(b)):
            if b[n]:
                c[s + str(n)] = b[n]
    return c


# Figures that depend on the hand alone (shanten numbers, the kinds that lower them) or on the hand
# and the hand's fixed context (a tenpai hand's points under the dora, winds and rule) are kept
# across decisions: a seat's hand changes by a tile a turn, so most of a decision's hands were
# met at its last one. They are pure functions of their keys, so keeping them changes no
# decision. Each table is emptied when it outgrows its limit (bounded memory in a long-running
# server).
_XT: dict[tuple[Any, ...], int | float] = {}
_TING: dict[tuple[Any, ...], list[str]] = {}
_WAITS: dict[tuple[Any, ...], list[tuple[str, float, float]]] = {}
_LIMIT = 100_000


def remember(table: dict[Any, Any], key: Any, value: Any, limit: int = _LIMIT) -> Any:
    """Keep ``value`` under ``key`` in one of the cross-decision tables; returns ``value``."""
    if len(table) >= limit:
        table.clear()
    table[key] = value
    return value


def _key(sp: Shoupai) -> tuple[Any, ...]:
    """A hand's cache key: its concealed tiles and its melds (two open hands with the same tiles
    in hand and different melds score differently)."""
    b = sp._bingpai
    return (tuple(b["m"]), tuple(b["p"]), tuple(b["s"]), tuple(b["z"]), tuple(sp._fulou))


class Evaluator:
    """One decision's context and caches."""

    def __init__(self, view: dict[str, Any], me: dict[str, Any], sp: Shoupai) -> None:
        self.view = view
        self.rule = view.get("rule") or {}
        self.zhuangfeng = view.get("zhuangfeng", 0)
        self.menfeng = me["menfeng"]
        self.public = public_counts(view)
        self.dora = {zhenbaopai(p) for p in view.get("baopai", [])}
        self.river = {kind(p) for p in view["seats"][self.seat_index(me["seat"])]["he"]} if view.get("seats") else set()
        self.paishu = view.get("paishu", 70)
        self.values = {"z5", "z6", "z7", "z" + str(self.zhuangfeng + 1), "z" + str(self.menfeng + 1)}
        base = {"rule": self.rule, "zhuangfeng": self.zhuangfeng, "menfeng": self.menfeng,
                "baopai": list(view.get("baopai", []))}
        self.param_riichi = hule_param(base, lizhi=1)
        self.param_dama = hule_param(base, lizhi=0)
        self.kuitan = self.rule.get("クイタンあり", True)
        self.menqian = sp.menqian
        # The tenpai points' context: what ``hule`` reads besides the hand (see ``_WAITS``).
        self.context = (tuple(view.get("baopai", [])), self.zhuangfeng, self.menfeng,
                         repr(sorted(self.rule.items())))
        self._own_waits: dict[tuple[Any, ...], list[tuple[str, float, float]]] = {}
        self._ev1: dict[tuple[Any, ...], float] = {}
        self._far2: dict[tuple[Any, ...], float] = {}
        self.call_weight = 0.0  # far(): the extra weight of a tile the hand could pon into a yaku
        self.call_shapes = 0.0  # far(): majiang-ai's weights (pon x4, chi x2) instead
        self.call_ev = 0.0  # ev1(): the weight of the calls a tile allows (majiang-ai's eval_fulou: 1)
        self._calls: dict[tuple[Any, ...], tuple[float, float]] = {}
        # A win's points -> what the seat counts them as (the strong bot's placement in the last
        # hand: placement.Placement.win); None counts points as points.
        self.win_value: Callable[[float], float] | None = None

    def seat_index(self, seat: int) -> int:
        return next(i for i, s in enumerate(self.view["seats"]) if s["seat"] == seat)

    # -- counts --------------------------------------------------------------------------------

    def unseen(self, sp: Shoupai, k: str) -> int:
        s, n = k[0], int(k[1])
        return max(0, 4 - self.public[k] - sp._bingpai[s][n])

    def unseen_total(self, sp: Shoupai) -> int:
        return max(1, 136 - sum(self.public.values()) - sum(hand_counts(sp).values()))

    def xiangting(self, sp: Shoupai) -> int | float:
        key = _key(sp)
        x = _XT.get(key)
        if x is None:
            x = remember(_XT, key, xiangting(sp))
        return x

    def tingpai(self, sp: Shoupai) -> list[str]:
        """The kinds that lower the shanten number of a 13-tile hand (``xiangting.tingpai``),
        trying only the kinds that can: within two of a held tile of the suit, held honours, and
        every kind when seven pairs or kokushi may take a new one."""
        key = _key(sp)
        t = _TING.get(key)
        if t is not None:
            return t
        x = self.xiangting(sp)
        b = sp._bingpai
        closed = not sp._fulou
        # A tile lowers seven pairs or kokushi by one at most: they need trying only when they are
        # already as low as the hand's number (the regular form is the common case).
        qidui = closed and xiangting_qidui(sp) <= x
        guoshi = closed and xiangting_guoshi(sp) <= x
        t = []
        for k in candidate_kinds(sp, qidui, guoshi):
            s, n = k[0], int(k[1])
            bb = b[s]
            bb[n] += 1
            lower = (xiangting_yiban(sp) < x or (qidui and xiangting_qidui(sp) < x)
                     or (guoshi and xiangting_guoshi(sp) < x))
            bb[n] -= 1
            if lower:
                t.append(k)
        return remember(_TING, key, t)

    # -- tenpai ---------------------------------------------------------------------------------

    def waits(self, sp13: Shoupai) -> list[tuple[str, float, float]]:
        """(wait, value with riichi (0 for an open hand), value without) of a tenpai hand."""
        # With ``win_value`` set a win's worth is this decision's own: nothing kept across decisions.
        table = _WAITS if self.win_value is None else self._own_waits
        key = (self.context, _key(sp13))
        got = table.get(key)
        if got is not None:
            return got
        out = []
        menqian = sp13.menqian
        worth = self.win_value or _as_is
        for w in tenpai_waits(sp13):
            dama = worth(self.ron_points(sp13, w, self.param_dama))
            riichi = worth(self.ron_points(sp13, w, self.param_riichi) * RIICHI_BONUS) if menqian else 0.0
            if menqian and dama == 0:
                # No yaku without riichi: a dama hand still wins by menzen tsumo.
                zimo = self._tsumo_points(sp13, w)
                dama = worth(zimo) * FURITEN
            out.append((w, riichi, dama))
        return remember(table, key, out)

    def ron_points(self, sp13: Shoupai, w: str, param: dict[str, Any]) -> float:
        try:
            h = hule(sp13, w + "=", param)
        except Exception:  # a shape the scorer refuses: count it as no win
            return 0.0
        return float(h["defen"]) if h else 0.0

    def _tsumo_points(self, sp13: Shoupai, w: str) -> float:
        try:
            h = hule(sp13.clone().zimo(w, False), None, self.param_dama)
        except Exception:
            return 0.0
        return float(h["defen"]) if h else 0.0

    def ev0(self, sp13: Shoupai, riichi: bool | None = None, discarded: tuple[str, ...] = ()) -> float:
        """Sum over the waits of unseen copies x points (riichi: with riichi if closed; None: the
        better of the two). Furiten waits count a third."""
        total = 0.0
        waits = self.waits(sp13)
        furiten = any(w in self.river or w in discarded for w, _, _ in waits)
        for w, v_riichi, v_dama in waits:
            r = self.unseen(sp13, w)
            if not r:
                continue
            if riichi is None:
                v = max(v_riichi, v_dama)
            else:
                v = v_riichi if riichi else v_dama
            total += r * v
        return total * (FURITEN if furiten else 1.0)

    def has_yaku(self, sp13: Shoupai) -> bool:
        """Does the tenpai hand win by ron on some wait without riichi?"""
        return any(self.ron_points(sp13, w, self.param_dama) > 0 for w, _, _ in self.waits(sp13))

    def wait_count(self, sp13: Shoupai) -> int:
        return sum(self.unseen(sp13, w) for w, _, _ in self.waits(sp13))

    def mean_value(self, sp13: Shoupai, riichi: bool | None = None) -> float:
        num = den = 0.0
        for w, v_riichi, v_dama in self.waits(sp13):
            r = self.unseen(sp13, w)
            v = max(v_riichi, v_dama) if riichi is None else (v_riichi if riichi else v_dama)
            num += r * v
            den += r
        return num / den if den else 0.0

    # -- one from tenpai ---------------------------------------------------------------------------

    def ev1(self, sp13: Shoupai, discarded: tuple[str, ...] = ()) -> float:
        key = _key(sp13) + discarded
        got = self._ev1.get(key)
        if got is not None:
            return got

        def score(work: Shoupai, d: str) -> float:
            return self.ev0(work, None, discarded + (d,)) if is_tenpai(work) else 0.0

        total = self._over_draws(sp13, score)
        if self.call_ev:
            # A tile that brings tenpai may also come from another seat's river: a pon from any of
            # the three, a chi from the seat on the left (majiang-ai's eval_fulou and weights).
            # Only an open hand with a yaku on some wait counts, so this values the closed hands
            # that can also be opened into a yaku hand, and makes calling compare with it.
            for t in self.tingpai(sp13):
                r = self.unseen(sp13, t)
                if r:
                    pon, chi = self.call_values(sp13, t, discarded)
                    total += r * self.call_ev * (pon * 3 if pon > chi else pon * 2 + chi)
        # majiang-ai's widths (12 for tenpai, 72 here) on the tenpai score's scale.
        total /= 72.0
        self._ev1[key] = total
        return total

    def call_values(self, sp13: Shoupai, t: str, discarded: tuple[str, ...] = ()) -> tuple[float, float]:
        """The best open tenpai score (``ev0`` without riichi, 0 without a yaku) a pon of ``t``,
        and a chi of it from the left, lead to after the best legal discard; calls that do not
        bring ``sp13`` (one from tenpai) to tenpai score 0."""
        key = _key(sp13) + (t,) + discarded
        got = self._calls.get(key)
        if got is not None:
            return got
        best = [0.0, 0.0]
        for i, melds in enumerate((sp13.get_peng_mianzi(t + "+"), sp13.get_chi_mianzi(t + "-"))):
            for m in melds or ():
                called = sp13.clone().fulou(m, False)
                for p in called.get_dapai() or ():
                    h = after_discard(called, p)
                    if is_tenpai(h):
                        v = self.ev0(h, False, discarded + (kind(p),))
                        if v > best[i]:
                            best[i] = v
        got = self._calls[key] = (best[0], best[1])
        return got

    def _over_draws(self, sp13: Shoupai, score: Callable[[Shoupai, str], float]) -> float:
        """Over each kind t that lowers the shanten number of ``sp13``: its unseen copies x the best
        ``score(work, d)`` (at least 0) over the held kinds d other than t, where ``work`` is the
        hand with t drawn and d let go (a red five goes when only red fives are left), changed in
        place and valid only during the call. ev1 and far2's shared walk."""
        total = 0.0
        work = sp13.clone()
        b = work._bingpai
        for t in self.tingpai(sp13):
            r = self.unseen(sp13, t)
            if not r:
                continue
            s, n = t[0], int(t[1])
            b[s][n] += 1
            best = 0.0
            for d in KINDS:
                ds, dn = d[0], int(d[1])
                if not b[ds][dn] or d == t:
                    continue
                b[ds][dn] -= 1
                red = ds != "z" and dn == 5 and b[ds][0] > b[ds][5]
                if red:
                    b[ds][0] -= 1
                v = score(work, d)
                if v > best:
                    best = v
                if red:
                    b[ds][0] += 1
                b[ds][dn] += 1
            b[s][n] -= 1
            total += r * best
        return total

    # -- further ----------------------------------------------------------------------------------

    def han_hint(self, sp: Shoupai) -> float:
        """A rough count of the han the hand holds already: dora, red fives, value honours."""
        b = sp._bingpai
        h = 0.0
        for d in self.dora:
            h += b[d[0]][int(d[1])]
        for s in "mps":
            h += b[s][0]
        for m in sp._fulou:
            for c in m[1:]:
                if c.isdigit() and (m[0] + ("5" if c == "0" else c)) in self.dora:
                    h += 1
                if c == "0":
                    h += 1
            if m[0] == "z" and "z" + m[1] in self.values:
                h += 1 + ("z" + m[1] == "z" + str(self.zhuangfeng + 1) == "z" + str(self.menfeng + 1))
        for v in self.values:
            c = b["z"][int(v[1])]
            if c >= 3:
                h += 1
            elif c == 2:
                h += 0.4
        return h

    def far(self, sp13: Shoupai) -> float:
        """Acceptance weighted with value, for a hand two or more from tenpai."""
        if self.call_shapes:
            ukeire = self._callable_acceptance(sp13)
        elif self.call_weight:
            b = sp13._bingpai
            ukeire = 0.0
            for t in self.tingpai(sp13):
                w = 1.0
                if b[t[0]][int(t[1])] >= 2 and (t in self.values or (self.kuitan and t[0] != "z" and t[1] not in "19")):
                    w += self.call_weight
                ukeire += self.unseen(sp13, t) * w
        else:
            ukeire = sum(self.unseen(sp13, t) for t in self.tingpai(sp13))
        return ukeire * (1.0 + 0.15 * self.han_hint(sp13))

    def _callable_acceptance(self, sp13: Shoupai) -> float:
        """majiang-ai's far-hand acceptance: each improving tile's unseen copies, x4 when the hand
        could pon it into a yaku hand (a value-honour pair; a pair of simples while open tanyao
        is no slower than the hand), x2 when it could chi it into open tanyao (the left seat's
        discard, with two simples beside it). A hand kept callable reaches an open tenpai when
        the draws do not come."""
        b = sp13._bingpai
        tanyao = self.kuitan and self.tanyao_xiangting(sp13) <= self.xiangting(sp13)
        total = 0.0
        for t in self.tingpai(sp13):
            r = self.unseen(sp13, t)
            if not r:
                continue
            s, n = t[0], int(t[1])
            w = 1.0
            if b[s][n] >= 2 and (t in self.values or (tanyao and s != "z" and 2 <= n <= 8)):
                w = 4.0
            elif tanyao and s != "z" and 2 <= n <= 8 and any(
                    2 <= i and j <= 8 and b[s][i] and b[s][j]
                    for i, j in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2))):
                w = 2.0
            total += r * w
        return total

    def far2(self, sp13: Shoupai) -> float:
        """Two-step acceptance of a closed hand two from tenpai, weighted with value: over each
        kind that brings it within one, its unseen copies x the acceptance of the best hand one
        from tenpai it then allows. Bare counts take a tile that widens a poor shape for one that
        makes a good one; two steps see which one-from-tenpai hands are wide (majiang-ai looks two
        steps ahead at this distance too)."""
        key = _key(sp13)
        got = self._far2.get(key)
        if got is not None:
            return got
        x = self.xiangting(sp13)

        def score(work: Shoupai, d: str) -> float:
            return float(sum(self.unseen(work, k) for k in self.tingpai(work))) if self.xiangting(work) < x else 0.0

        total = self._over_draws(sp13, score)
        total = total * (1.0 + 0.15 * self.han_hint(sp13)) / 20.0  # about far()'s scale
        self._far2[key] = total
        return total

    # -- yaku for open hands -------------------------------------------------------------------------

    def yaku_xiangting(self, sp: Shoupai) -> int | float:
        """Shanten towards a hand with a yaku: closed hands (riichi) as they are; open hands the
        best of value honours, tanyao, toitoi and a one-suit hand (majiang-ai's idea)."""
        if sp.menqian:
            return self.xiangting(sp)
        b = sp._bingpai
        best: int | float = math.inf
        # Value honours: a triplet held or melded; or a pair that may still be ponned.
        have = any(m[0] == "z" and "z" + m[1] in self.values for m in sp._fulou) or any(
            b["z"][int(v[1])] >= 3 for v in self.values)
        if have:
            return self.xiangting(sp)
        for v in self.values:
            if b["z"][int(v[1])] == 2 and 4 - self.public[v] - 2 > 0:
                best = min(best, self.xiangting(sp) + 1)
                break
        best = min(best, self.tanyao_xiangting(sp))
        if all(len(set(m[1:4].replace("0", "5"))) == 1 for m in sp._fulou):
            kezi = len(sp._fulou)
            duizi = 0
            for s in "mpsz":
                bb = b[s]
                for n in range(1, len(bb)):
                    if bb[n] >= 3:
                        kezi += 1
                    elif bb[n] == 2:
                        duizi += 1
            duizi = min(duizi, 5 - kezi)
            best = min(best, 8 - kezi * 2 - duizi)
        suits = {m[0] for m in sp._fulou} - {"z"}
        if len(suits) <= 1:
            for s in "mps":
                if suits and s not in suits:
                    continue
                tmp = sp.clone()
                for o in "mps":
                    if o != s:
                        tmp._bingpai[o] = [0] * 10
                best = min(best, self.xiangting(tmp))
        return best

    def back_xiangting(self, sp: Shoupai) -> int | float:
        """``yaku_xiangting``, except that an open hand whose yaku is still to come from a
        value-honour pair with both other copies unseen counts its plain shanten number: the pon
        of that pair may come from any seat, so majiang-ai calls the other sets first (the yaku comes after)."""
        x = self.yaku_xiangting(sp)
        if sp.menqian or x == math.inf:
            return x
        b = sp._bingpai
        if any(b["z"][int(v[1])] == 2 and self.public[v] == 0 for v in self.values):
            return min(x, self.xiangting(sp))
        return x

    def tanyao_xiangting(self, sp: Shoupai) -> int | float:
        """Shanten towards tanyao (terminals and honours set aside), if the hand may still be
        tanyao: no meld of terminals or honours, and open tanyao allowed for an open hand."""
        if (not sp.menqian and not self.kuitan) or any(
                m[0] == "z" or any(c in "19" for c in m[1:] if c.isdigit()) for m in sp._fulou):
            return math.inf
        tmp = sp.clone()
        for s in "mps":
            tmp._bingpai[s][1] = tmp._bingpai[s][9] = 0
        tmp._bingpai["z"] = [0] * 8
        return self.xiangting(tmp)

    # -- absolute figures -------------------------------------------------------------------------

    def draws_left(self) -> float:
        return max(0.0, self.paishu / 4.0)

    def win_chance_tenpai(self, sp13: Shoupai, discarded: tuple[str, ...] = ()) -> float:
        """P(this tenpai hand wins before the wall ends), ignoring the others' wins."""
        waits = self.waits(sp13)
        if not waits:
            return 0.0
        furiten = any(w in self.river or w in discarded for w, _, _ in waits)
        r = self.wait_count(sp13)
        u = self.unseen_total(sp13)
        turns = self.draws_left()
        per = r / u
        chances = turns * (1.0 if furiten else 2.2)  # own draws, plus the others' discards
        return min(0.85, 1.0 - (1.0 - min(per, 0.5)) ** chances)

    def expected_points(self, sp13: Shoupai, shanten: int | float, discarded: tuple[str, ...] = (),
                        riichi: bool | None = None) -> float:
        """Rough points this hand is worth from here: P(win) x value."""
        if shanten == 0:
            p = self.win_chance_tenpai(sp13, discarded)
            return p * self.mean_value(sp13, riichi)
        if shanten == math.inf:
            return 0.0
        return self.win_chance(sp13, int(shanten)) * self.rough_value(sp13)

    def win_chance(self, sp13: Shoupai, shanten: int) -> float:
        """P(win) of a hand ``shanten`` from tenpai, from the stage and (one from tenpai) its
        acceptance: about 0.38 / 0.25 / 0.14 at the start of a hand, falling as the wall empties."""
        base = (0.55, 0.38, 0.25, 0.14, 0.07, 0.03)[min(shanten, 5)]
        d = self.draws_left()
        stage = max(0.0, min(1.0, (d - 2 * shanten) / (17.0 - 2 * shanten))) ** 1.5
        p = base * stage
        if shanten == 1:
            ukeire = sum(self.unseen(sp13, t) for t in self.tingpai(sp13))
            p *= max(0.4, min(1.4, (ukeire / 20.0) ** 0.5))
        return p

    def rough_value(self, sp13: Shoupai) -> float:
        """Points of a win of this hand before it is tenpai: closed hands count riichi."""
        h = self.han_hint(sp13)
        v = 4000.0 * (1.0 + 0.35 * h) if sp13.menqian else 1800.0 * (1.0 + 0.7 * h)
        v *= 1.5 if self.menfeng == 0 else 1.0
        return self.win_value(v) if self.win_value else v


def _as_is(points: float) -> float:
    return points


def candidate_kinds(sp: Shoupai, qidui: bool, guoshi: bool) -> list[str]:
    """The kinds worth trying as a tile that lowers the shanten number of a 13-tile hand (its
    ``tingpai`` lie among them): not held four times; within two of a held tile of the suit, or a
    held honour; every kind when kokushi, or seven pairs with fewer than seven kinds held, is as
    low as the hand's number (``qidui``, ``guoshi``: those forms are)."""
    b = sp._bingpai
    wide = guoshi or (qidui and sum(1 for s in "mpsz" for n in range(1, len(b[s])) if b[s][n]) < 7)
    if wide:
        return [k for k in KINDS if b[k[0]][int(k[1])] < 4]
    out = []
    for s in "mps":
        bb = b[s]
        near = [False] * 13  # near[n + 1]: a tile of the suit is held within two of n
        for n in range(1, 10):
            if bb[n]:
                near[n - 1] = near[n] = near[n + 1] = near[n + 2] = near[n + 3] = True
        out.extend(s + str(n) for n in range(1, 10) if near[n + 1] and bb[n] < 4)
    bz = b["z"]
    out.extend("z" + str(n) for n in range(1, 8) if 0 < bz[n] < 4)
    return out


def after_discard(sp: Shoupai, p: str) -> Shoupai:
    """The 13-tile hand after discarding ``p`` (``'m1'``, ``'m0'``, ``'m1_'``, ``'m1*'``)."""
    return sp.clone().dapai(p[:2], False)


def is_tenpai13(sp13: Shoupai) -> bool:
    return is_tenpai(sp13)
