"""The strong riichi bot: value-weighted efficiency, tile-by-tile defence, calls by value and speed.

``choose(view, legal, rng)`` has the house bot's interface (``games/riichi/bots/house.py``): it
takes ``RiichiGame.view(seat)`` and that seat's ``legal_actions`` and returns ``(action_type,
params)``. It reads the seat's own hand and the public table only (rivers, melds, dora indicators,
riichi flags, scores, the round); never other hands or the wall.

How it plays:

- discards (``value.py``): among the discards that keep the shanten number lowest, the one with
  the best expected value — tenpai: unseen copies of each wait x the points of the win (the
  engine's scorer, with riichi for a closed hand, dora, red fives; furiten waits discounted);
  one from tenpai: over each tile that brings tenpai, its unseen copies x the best tenpai value it
  allows; further: acceptance weighted with the dora, red fives and value honours held. Open
  hands count shanten towards a hand with a yaku (value honours, tanyao, toitoi, one suit);
- defence (``danger.py``): for each opponent who may be tenpai (riichi; open hands by their calls
  and the stage; late closed hands a little) a deal-in probability per tile kind (genbutsu, suji,
  kabe and one-chance, visible copies, honitsu-looking melds) and a deal-in cost. When threatened,
  every discard is scored ``P(win) x value - P(deal-in) x cost - the risk of pushing on``, so a
  cheap slow hand folds (genbutsu first) and a valuable tenpai pushes;
- riichi unless a closed hand with a yaku already wins a mangan dama, riichi would add little,
  few draws are left, it is the last hand and the seat leads, or (against a riichi) fewer than
  four winning tiles are left — then dama, which may still fold; a yakuless tenpai riichis unless
  its wait is nearly dead against a riichi; never riichi on a wait with no copies left;
- calls: value-honour pons, also at an unchanged shanten number (the pair becomes the meld and
  the hand gets its yaku) from two or more from tenpai, and from one when the open hand scores
  as well as the closed one, unless someone threatens; chi/pon towards tanyao (クイタンあり),
  honitsu or toitoi only when the called hand keeps a yaku path and either scores better by the
  expected-value measure (near tenpai) or brings a valuable hand (dora, value honours) or a late
  hand closer; never into a yakuless hand, and against a riichi only into a tenpai with a yaku;
  at the last hand, leading, any call that brings a yaku hand closer (a win ends the game);
- kans when they do not worsen the hand and nobody threatens; 九種九牌 with four or more from
  a regular hand and no kokushi in sight; always takes a legal win; shows tenpai at the draw;
- placement: at the last hand the leader folds sooner and prefers dama, the last place pushes more
  (the ``placement`` knob, off, counts the final places a result leads to instead: ``placement.py``).

``make_choose(defence=..., noise=..., value=..., style=...)`` builds weaker variants
(``levels.py``) and, with ``style`` (``STYLE``'s knobs), the variants the tuning runs pitted against
this one (docs/performance.md, issue 31, second pass). Without ``value`` the discards are by
shanten and acceptance alone but push/fold still weighs the hand's expected points. The
``random.Random`` only breaks ties and draws the variants' noise.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.riichi.bots import house
from games.riichi.bots.danger import danger_table
from games.riichi.bots.lookahead import Lookahead
from games.riichi.bots.placement import PLACE, Placement
from games.riichi.bots.value import KINDS, Evaluator, after_discard, hand_counts, kind
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting, xiangting_guoshi, xiangting_qidui, xiangting_yiban

# How many of the coming discards, pushing on, are as dangerous as an average unseen tile: tenpai,
# one from tenpai, further (scaled by the draws left).
FUTURE = (0.0, 0.2, 0.5)
# An open hand this likely to be tenpai makes the seat weigh push against fold (a riichi always).
OPEN_THREAT = 0.5

# The knobs of the strong level (make_choose's ``style``): ``push`` scales the deal-in risk weighed
# against offence when threatened; ``open_threat`` is OPEN_THREAT; ``far_calls`` lets a hand three
# or more from tenpai call whenever the call brings a yaku hand closer (majiang-ai's rule);
# ``call_weight`` is the extra weight, in the far-hand acceptance, of a tile the hand could pon
# into a yaku (a value-honour pair; a pair of simples when open tanyao is allowed); ``yakuhai_pon``
# pons a value-honour pair even when the shanten number stays (see ``_choose_call``); ``two_step``
# values a closed hand two from tenpai by two-step acceptance (``Evaluator.far2``); ``call_ev``
# weighs, in a hand one from tenpai, the pons and chis its tiles allow into an open hand with a
# yaku (``Evaluator.call_values``, majiang-ai's eval_fulou; 1 is majiang-ai's weight); ``dama``
# keeps a tenpai with a yaku dama once its dama value reaches that many points (the dealer 1.5
# times as many: majiang-ai folds against a riichi only, so a dama hand's waits keep coming);
# ``call_shapes`` weighs a far hand's improving tiles as majiang-ai does (x4 a pon into a yaku, x2
# a chi into open tanyao: ``Evaluator._callable_acceptance``); ``riichi_always`` declares riichi
# whenever the discard chosen allows it, as majiang-ai does; ``back_calls`` lets a call count the
# plain shanten number of an open hand whose yaku is still to come from a value-honour pair with
# both other copies unseen (``Evaluator.back_xiangting``: majiang-ai calls so); ``placement``, in
# the game's last hand, counts a win's points and a deal-in's cost by the final places they lead
# to (``placement.py``; the knob's value x PLACE points a place) in place of the leader's and the
# last place's fixed push scales; ``three_step`` values a hand two from tenpai by majiang-ai's
# three-step expected value over real wins (``lookahead.py``) where ``far`` weighs acceptance, and
# lets a call from two from tenpai compare those values before and after (a call that keeps the
# shanten number may then be taken when it raises the value). All are off:
# the strong level plays as the first pass measured it against majiang-ai (level with it: +0.085,
# 95% CI -0.090 to +0.260, over 400 seats a side). Their self-play A/B runs and the runs against
# majiang-ai are in docs/performance.md (issue 31, second, fourth, fifth and sixth passes): none separated from
# the unchanged bot in self-play; against majiang-ai ``yakuhai_pon`` placed worse (+0.26 in mean
# rank over 150 tables), ``two_step`` the same (+0.100 over 200 tables) and ``call_ev`` worse (+0.200,
# +0.026 to +0.374, over 200 tables: fifth pass); ``far_calls`` +0.200 (-0.051 to +0.451) over
# 100 tables; ``dama`` 2000 +0.055 (-0.124 to +0.234) over 200 tables, and with ``call_shapes``
# and ``far_calls`` +0.118 (-0.128 to +0.365) over 110 tables; ``riichi_always`` +0.080 (-0.093
# to +0.253) over 200 tables (sixth pass); ``placement`` +0.000 (-0.180 to +0.180) over 200 tables,
# and within +-0.04 of a place of the fixed scales over 1,000 last hands (eighth pass);
# ``three_step`` -0.105 (-0.285 to +0.075) over 200 tables and +0.071 (-0.177 to +0.320) over 112
# more, -0.042 over the 312 (tenth pass), with decisions at p99 48-50 ms instead of 6 ms.
STYLE: dict[str, float] = {"push": 1.0, "open_threat": OPEN_THREAT, "far_calls": 0.0, "call_weight": 0.0,
                           "yakuhai_pon": 0.0, "two_step": 0.0, "call_ev": 0.0, "dama": 0.0,
                           "call_shapes": 0.0, "riichi_always": 0.0, "back_calls": 0.0, "placement": 0.0,
                           "three_step": 0.0}

Choose = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]


def _standing(view: dict[str, Any], me_seat: int) -> tuple[bool, int, int]:
    """(is this the last hand, my rank 1-4 now, points to the next place up or down)."""
    rule = view.get("rule") or {}
    last_wind = max(0, rule.get("場数", 2) - 1)
    last = view.get("zhuangfeng", 0) > last_wind or (
        view.get("zhuangfeng", 0) == last_wind and view.get("jushu", 0) == 3)
    defen = view.get("defen") or [0, 0, 0, 0]
    mine = defen[me_seat]
    rank = 1 + sum(1 for s, d in enumerate(defen) if s != me_seat and d > mine)
    others = sorted((d for s, d in enumerate(defen) if s != me_seat), reverse=True)
    gap = (mine - others[0]) if rank == 1 else (others[rank - 2] - mine)
    return last, rank, gap


class _Decision:
    """One decision: the hand, the evaluator, the dangers."""

    def __init__(self, view: dict[str, Any], me: dict[str, Any], sp: Shoupai, defence: bool, value: bool,
                 style: dict[str, float] | None = None) -> None:
        self.view, self.me, self.sp = view, me, sp
        self.style = style = {**STYLE, **(style or {})}
        self.ev = Evaluator(view, me, sp)
        self.ev.call_weight = style["call_weight"]
        self.ev.call_ev = style["call_ev"]
        self.ev.call_shapes = style["call_shapes"]
        self.value = value
        self.look = Lookahead(self.ev) if style["three_step"] else None
        visible: Counter[str] = Counter(self.ev.public)
        visible.update(hand_counts(sp))
        self.visible = visible
        self.last, self.rank, self.gap = _standing(view, me["seat"])
        places = Placement(view, me["seat"], PLACE * style["placement"]) if self.last and style["placement"] else None
        cost_of = None
        if places is not None:
            self.ev.win_value = places.win
            cost_of = lambda t: places.loss(t.value, t.seat)  # noqa: E731
        if defence:
            self.threats, self.prob, self.cost = danger_table(view, me["seat"], visible, list(KINDS), cost_of)
        else:
            self.threats, self.prob, self.cost = [], dict.fromkeys(KINDS, 0.0), dict.fromkeys(KINDS, 0.0)
        self.risk_scale = style["push"]
        self.offence_scale = 1.0
        if self.last and places is None:
            if self.rank == 1:
                self.risk_scale *= 1.8
            elif self.rank == 4:
                self.risk_scale, self.offence_scale = 0.7 * self.risk_scale, 1.3
        self.riichi_threat = any(t.riichi for t in self.threats)
        self.threatened = any(t.riichi or t.tenpai >= style["open_threat"] for t in self.threats)

    def shanten(self, sp13: Shoupai) -> int | float:
        if sp13.menqian:
            return self.ev.xiangting(sp13)
        return self.ev.yaku_xiangting(sp13)

    def offence(self, sp13: Shoupai, x: int | float, k: str) -> float:
        """The fine offence score of a 13-tile hand at shanten ``x`` (comparable at equal x)."""
        ev = self.ev
        if x == 0:
            score = ev.ev0(sp13, None if sp13.menqian else False, (k,))
            return score if self.value else float(ev.wait_count(sp13)) * 1000
        if x == 1:
            return ev.ev1(sp13, (k,)) if self.value else float(self._ukeire(sp13)) * 100
        if self.value:
            if x == 2 and self.look is not None:
                v = self.look.value(sp13)
                if v is not None:
                    return v
            if x == 2 and sp13.menqian and self.style["two_step"]:
                return ev.far2(sp13)
            return ev.far(sp13)
        return float(self._ukeire(sp13))

    def _ukeire(self, sp13: Shoupai) -> int:
        return sum(self.ev.unseen(sp13, t) for t in self.ev.tingpai(sp13))

    def ambient(self) -> float:
        """The expected deal-in cost of an average unseen tile (the risk of each further discard)."""
        num = den = 0.0
        for k in KINDS:
            u = max(0, 4 - self.visible[k])
            num += u * self.cost[k]
            den += u
        return num / den if den else 0.0


def _keep_value(d: _Decision, p: str) -> float:
    """A small preference to keep dora, red fives and value honours (to break ties)."""
    k = kind(p)
    v = 0.0
    if k in d.ev.dora:
        v += 1.0
    if p[1] == "0":
        v += 1.0
    if k in d.ev.values:
        v += 0.3
    if k[0] == "z" or k[1] in "19":
        v -= 0.2
    return v


def _choose_discard(d: _Decision, options: list[str], riichi_options: dict[str, str], rng: random.Random,
                    noise: float) -> str:
    sp = d.sp
    rows = []
    for p in options:
        after = after_discard(sp, p)
        x = d.shanten(after)
        rows.append([p, after, x])
    finite = [r[2] for r in rows if r[2] != math.inf]
    if not finite:
        # No yaku path at all (an open hand gone wrong): plain shanten then.
        for r in rows:
            r[2] = d.ev.xiangting(r[1])
        finite = [r[2] for r in rows]
    min_x = min(finite)
    scored = []
    for p, after, x in rows:
        k = kind(p)
        off = d.offence(after, x, k) if x == min_x else -1.0
        scored.append((p, after, x, k, off))
    best_off = max(s[4] for s in scored) or 1.0
    if noise and rng.random() < noise:
        return rng.choice(options)

    if not d.threatened:
        def key(s: tuple[Any, ...]) -> tuple[Any, ...]:
            p, after, x, k, off = s
            return (x == min_x, off, -d.cost[k], _keep_value(d, p), rng.random())
        return max(scored, key=key)[0]

    ambient = d.ambient()
    draws = d.ev.draws_left()
    best_u, choice = -math.inf, options[-1]
    for p, after, x, k, off in scored:
        riichi = True if (after.menqian and p in riichi_options) else None
        if x == 0 and not after.menqian:
            riichi = False
        # Without the value weighting (the intermediate level) the push/fold judgement still weighs
        # the hand's worth: folding every threatened hand made that level the weakest of the three.
        gain = d.ev.expected_points(after, x, (k,), riichi) * d.offence_scale
        if d.riichi_threat:
            gain *= 0.85  # the riichi may win first
        if x == 0:
            gain += 700.0 * max(0.0, 1.0 - draws / 6.0)  # tenpai at the draw
            future = ambient * min(draws, 4.0) * FUTURE[0]
        elif x == 1:
            future = ambient * min(draws, 6.0) * FUTURE[1]
        else:
            future = ambient * min(draws, 8.0) * FUTURE[2]
        # Pushing on costs the future risk; folding later gives the hand's gain up instead.
        u = max(gain - future * d.risk_scale, 0.0) - d.cost[k] * d.risk_scale
        if x == min_x and best_off > 0:
            u += 80.0 * off / best_off
        u += 5.0 * _keep_value(d, p) + rng.random() * 1e-3
        if u > best_u:
            best_u, choice = u, p
    return choice


def _riichi_or_dama(d: _Decision, p: str) -> bool:
    """Declare riichi with discard ``p`` (already legal), or stay dama?"""
    after = after_discard(d.sp, p)
    ev = d.ev
    if ev.wait_count(after) == 0:
        return False
    waits = ev.wait_count(after)
    if not ev.has_yaku(after):
        # Without riichi only a tsumo wins; against a riichi a bad wait stays dama (and may fold).
        return not (d.riichi_threat and waits <= 2)
    if d.riichi_threat and waits < 4:
        return False  # against a riichi a dama hand can still fold
    dama = ev.mean_value(after, False)
    riichi = ev.mean_value(after, True)
    if d.last and d.rank == 1:
        return False
    dealer = d.me["menfeng"] == 0
    if d.style["dama"] and dama >= d.style["dama"] * (1.5 if dealer else 1.0):
        return False
    if dama >= (11600 if dealer else 7700):
        return False
    if d.ev.paishu < 12 and dama >= 2000:
        return False  # few draws left: riichi adds little and costs a stick
    return dama < 0.75 * (riichi - 1000)


def _choose_call(d: _Decision, calls: list[str]) -> str | None:
    sp, ev = d.sp, d.ev
    if d.riichi_threat and ev.xiangting(sp) >= 2:
        return None
    x_before = d.shanten(sp)
    if sp.menqian and x_before >= 1:
        # Seven pairs count one slower here: a pon of a value pair from four pairs is progress.
        x_before = min(xiangting_yiban(sp), xiangting_qidui(sp) + 1)
    if x_before == 0:
        before = ev.ev0(sp, None if sp.menqian else False)
    elif x_before == 1:
        before = ev.ev1(sp)
    elif x_before == 2 and d.look is not None:
        before = d.look.value(sp)  # None when seven pairs made the number look lower
    else:
        before = None
    best: tuple[float, str] | None = None
    for m in calls:
        if sum(c.isdigit() for c in m) == 4:
            continue  # no open kan
        after = sp.clone().fulou(m, False)
        dapai = after.get_dapai() or []
        top_x: int | float = math.inf
        top_ev = -1.0
        for p in dapai:
            h = after_discard(after, p)
            yx = ev.back_xiangting(h) if d.style["back_calls"] else ev.yaku_xiangting(h)
            if yx == math.inf:
                continue
            if yx == 0:
                v = ev.ev0(h, False, (kind(p),))
                if v <= 0:
                    continue  # tenpai without a yaku on any wait
                v -= d.cost[kind(p)] * 4 if d.threatened else 0.0
            elif yx == 1:
                v = ev.ev1(h, (kind(p),))
            elif yx == 2 and x_before == 2 and before is not None and d.look is not None:
                # (Only from two: from nearer, a call leaving two from tenpai is never taken.)
                v = d.look.value(h) or 0.0
            else:
                v = ev.far(h) * 0.01
            if yx < top_x or (yx == top_x and v > top_ev):
                top_x, top_ev = yx, v
        honour = m[0] == "z" and "z" + m[1] in ev.values
        if top_x == math.inf or top_x > x_before:
            continue
        if top_x == x_before and before is not None and d.look is not None:
            pass  # with three-step values a call that keeps the number may still raise the value
        elif top_x == x_before:
            # A pon of a value-honour pair keeps the shanten number (the pair becomes the meld) but
            # gives the hand its yaku and opens the way to further calls: taken from two or more
            # from tenpai, and from one when the open hand scores as well as the closed one.
            if not (honour and d.style["yakuhai_pon"] and x_before >= 1 and not d.threatened):
                continue
        if d.riichi_threat and top_x > 0:
            continue
        if d.last and d.rank == 1 and d.gap > 0:
            pass  # the last hand, leading: any win ends the game, so speed first
        elif before is not None:
            if top_ev <= before:
                continue
        elif not honour:
            # Far from tenpai: a call for speed when it keeps a yaku path and brings the hand
            # within two of tenpai, or the hand is worth it (dora, red fives, value honours).
            hint = ev.han_hint(after)
            if top_x >= 3 and hint < 1 and not d.style["far_calls"]:
                continue

        score = -top_x * 1e6 + top_ev
        if best is None or score > best[0]:
            best = (score, m)
    return best[1] if best else None


def _choose_kan(d: _Decision, kans: list[str], options: list[str]) -> str | None:
    if d.threatened and d.ev.xiangting(d.sp) > 0:
        return None
    best_now = min(d.ev.xiangting(after_discard(d.sp, p)) for p in options) if options else 0
    for m in kans:
        after = d.sp.clone().gang(m, False)
        if xiangting(after) > best_now:
            continue
        return m
    return None


def make_choose(defence: bool = True, noise: float = 0.0, value: bool = True,
                style: dict[str, float] | None = None) -> Choose:
    """A chooser: ``defence`` off plays as if no one threatened; ``noise`` is the chance of a
    random discard; ``value`` off compares discards by acceptance only."""

    def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
        answer = house.obvious_answer(view, legal)
        if answer is not None:
            return answer
        actions = [a for a in legal if a.get("allowed", True)]
        types = {a["type"] for a in actions}
        me = view["me"]
        sp = Shoupai.from_string(me["shoupai"])
        if "pingju" in types:
            if xiangting(sp) >= 4 and xiangting_guoshi(sp) >= 3:
                return ("pingju", [])
        discards = [a["params"][0] for a in actions if a["type"] == "dapai" and not a.get("lizhi")]
        riichi = {a["params"][0][:-1]: a["params"][0] for a in actions if a["type"] == "dapai" and a.get("lizhi")}
        if discards or riichi:
            d = _Decision(view, me, sp, defence, value, style)
            options = discards or list(riichi)
            kans = [a["params"][0] for a in actions if a["type"] == "gang"]
            if kans:
                m = _choose_kan(d, kans, options)
                if m is not None:
                    return ("gang", [m])
            p = _choose_discard(d, options, riichi, rng, noise)
            if p in riichi and (d.style["riichi_always"] or _riichi_or_dama(d, p)):
                return ("dapai", [riichi[p]])
            if p not in discards:  # only riichi discards were legal (cannot happen in practice)
                return ("dapai", [riichi[p]])
            return ("dapai", [p])
        calls = [a["params"][0] for a in actions if a["type"] == "fulou"]
        if calls:
            d = _Decision(view, me, sp, defence, value, style)
            m = _choose_call(d, calls)
            if m is not None:
                return ("fulou", [m])
        return ("pass", [])

    return choose


choose: Choose = make_choose()
