"""The figures of one riichi choice, from what the deciding seat saw (docs/review.md).

``Position(view)`` reads one decision's view once: the seat's hand, the public tile counts, the
strong bot's evaluator (``value.Evaluator``) and the danger table (``danger.danger_table``), so the
player's choice and the bot's are measured against the same picture. ``measure(position, action)``
gives, for an action ``(type, params)``:

- ``shanten`` and ``acceptance`` of the hand the choice keeps (13 tiles: after the discard, the
  call and its best discard, the kan, or the hand as it is after a pass); acceptance is every kind
  that lowers the shanten number and how many copies of them the seat cannot see (4 less those in
  the rivers, melds, dora indicators and its own hand, the tile it lets go included);
- ``danger``: for a discard, its deal-in chance against each opponent in riichi or with an open
  hand likely tenpai, with the reason it is safe when it is (genbutsu, suji);
- ``value``: the hand's expected points from here (``Evaluator.expected_points``: the chance to
  win times what it is worth), and ``win_value`` (the mean win) when tenpai;
- ``equity``: ``value`` less the discard's expected deal-in cost in points, the one number two
  choices are compared by (the review's ``cost``).

Nothing here reads another seat's hand or the wall: the view is the seat's own, never revealed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.riichi.bots.danger import Threat, danger_table, deal_in, dora_kinds
from games.riichi.bots.strong import OPEN_THREAT
from games.riichi.bots.value import KINDS, Evaluator, after_discard, hand_counts, kind, public_counts
from games.riichi.engine.hule import hule
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import tingpai, xiangting

Action = tuple[str, list[Any]]


@dataclass
class Position:
    """One decision's picture, shared by every choice measured at it."""

    view: dict[str, Any]
    me: dict[str, Any]
    hand: Shoupai
    evaluator: Evaluator
    public: Counter[str]  # copies of each kind everyone sees
    visible: Counter[str]  # ... and the seat's own hand (what the danger estimate counts out)
    threats: list[Threat]  # every opponent the danger table weighs
    cost: dict[str, float]  # kind -> expected deal-in cost in points (every threat, summed)
    dora: set[str]


def position(view: dict[str, Any]) -> Position:
    """The picture of a decision from the seat's own view (``RiichiGame.view(seat)``)."""
    me = view["me"]
    hand = Shoupai.from_string(me["shoupai"])
    public = public_counts(view)
    visible = public + hand_counts(hand)
    threats, _prob, cost = danger_table(view, me["seat"], visible, list(KINDS))
    return Position(view, me, hand, Evaluator(view, me, hand), public, visible, threats, cost, dora_kinds(view))


def shown_threats(pos: Position) -> list[Threat]:
    """The opponents a discard's danger is shown against: in riichi, or open and likely tenpai (the
    strong bot's own line between pushing freely and weighing push against fold). The quieter
    threats (a closed hand late in the hand) still count in ``equity``."""
    return [t for t in pos.threats if t.riichi or (t.tenpai >= OPEN_THREAT and _open(pos, t.seat))]


def _open(pos: Position, seat: int) -> bool:
    return any(s["seat"] == seat and s["fulou"] for s in pos.view.get("seats", []))


def _safety(k: str, threat: Threat) -> str | None:
    """Why a kind is safe or safer against ``threat``, in the usual words: genbutsu (it let that
    kind pass, so it cannot win on it by ron), suji (both two-sided waits on it are ruled out by
    its genbutsu), else None. The estimate itself weighs more than this (kabe, visible copies)."""
    if k in threat.safe:
        return "genbutsu"
    if k[0] == "z":
        return None
    n = int(k[1])
    sides = [m for m in (n - 3, n + 3) if 1 <= m <= 9]
    if all(f"{k[0]}{m}" in threat.safe for m in sides):
        return "suji"
    return None


def danger(pos: Position, tile: str) -> list[dict[str, Any]]:
    """The deal-in chance of discarding ``tile`` against each shown threat."""
    k = kind(tile)
    return [{"seat": t.seat, "riichi": t.riichi, "tenpai": round(t.tenpai, 3),
             "deal_in": round(deal_in(k, t, pos.visible, pos.dora), 4), "safety": _safety(k, t),
             "deal_in_cost": round(t.value)} for t in shown_threats(pos)]


def acceptance(pos: Position, hand13: Shoupai, let_go: str | None = None) -> dict[str, Any]:
    """The kinds that lower the shanten number of a 13-tile hand, and the copies of them the seat
    cannot see (the tile it lets go, ``let_go``, is seen: it lies in its river)."""
    kinds = tingpai(hand13) or []
    seen = pos.public + hand_counts(hand13)
    if let_go is not None:
        seen[kind(let_go)] += 1
    return {"kinds": kinds, "count": sum(max(0, 4 - seen[k]) for k in kinds)}


def _riichi(hand13: Shoupai, shanten: int | float, declares: bool, already: bool) -> bool | None:
    """How the evaluator should value a hand: with riichi when declared (now or before), dama when
    tenpai and not declaring, either (the better) for a closed hand not yet tenpai."""
    if declares or already:
        return True
    if shanten == 0 or not hand13.menqian:
        return False
    return None


def _kept(pos: Position, hand13: Shoupai, let_go: str | None, declares: bool = False) -> dict[str, Any]:
    """Shanten, acceptance and value of the 13-tile hand a choice keeps."""
    ev = pos.evaluator
    shanten = xiangting(hand13)
    # Open hands are valued by the shanten to a hand with a yaku, as the strong bot plays them.
    valued = shanten if hand13.menqian else ev.yaku_xiangting(hand13)
    riichi = _riichi(hand13, shanten, declares, pos.hand.lizhi)
    discarded = (kind(let_go),) if let_go else ()
    value = ev.expected_points(hand13, valued, discarded, riichi) if valued != math.inf else 0.0
    figures: dict[str, Any] = {"shanten": shanten, "acceptance": acceptance(pos, hand13, let_go),
                               "value": round(value)}
    if shanten == 0:
        figures["win_value"] = round(ev.mean_value(hand13, riichi))
    return figures


def _discard(pos: Position, hand: Shoupai, tile: str, declares: bool = False) -> dict[str, Any]:
    figures = _kept(pos, after_discard(hand, tile), tile, declares)
    figures["danger"] = danger(pos, tile)
    figures["deal_in"] = round(sum(d["deal_in"] for d in figures["danger"]), 4)
    figures["equity"] = round(figures["value"] - pos.cost[kind(tile)])
    return figures


def _call(pos: Position, meld: str) -> dict[str, Any]:
    """A chi, pon or open kan: the hand after it, with its best discard to follow (by equity)."""
    after = pos.hand.clone().fulou(meld, False)
    if sum(c.isdigit() for c in meld) == 4:  # an open kan: a replacement draw comes, no discard
        figures = _kept(pos, after, None)
        figures["equity"] = figures["value"]
        return figures
    best: dict[str, Any] | None = None
    for tile in after.get_dapai() or []:
        figures = _discard(pos, after, tile)
        if best is None or figures["equity"] > best["equity"]:
            best = {**figures, "then": tile}
    return best if best is not None else {"shanten": None, "acceptance": None, "value": 0, "equity": 0}


def _win_points(pos: Position) -> int:
    """What taking the win now scores (the engine's scorer; riichi counted, ura dora not)."""
    ev, hand, view = pos.evaluator, pos.hand, pos.view
    param = ev.param_riichi if hand.lizhi else ev.param_dama
    try:
        if hand.zimo_pai is not None:  # tsumo: the drawn tile is in the hand
            won = hule(hand, None, param)
        else:
            won = hule(hand, _ron_tile(view) + "=", param)
    except Exception:  # noqa: BLE001 - a shape the scorer refuses counts as no figure, not a failed review
        return 0
    return int(won["defen"]) if won else 0


def _ron_tile(view: dict[str, Any]) -> str:
    """The tile a ron would take: the last discard, or the tile added to a kan (chankan)."""
    if view.get("status") == "gang":
        # The added kan's tile: the view does not say which kan was just made, so the last one of
        # that shape (a pon with a fourth tile after its mark) stands for it.
        turn = next(s for s in view["seats"] if s["seat"] == view.get("turn"))
        added = [m for m in turn["fulou"] if re.fullmatch(r"[mpsz]\d{3}[+=-]\d", m)]
        meld = added[-1] if added else turn["fulou"][-1]
        return meld[0] + meld[-1]
    last = view.get("last_dapai") or ""
    return last[:2]


def measure(pos: Position, action: Action) -> dict[str, Any]:
    """The figures of ``action`` (a legal ``(type, params)`` at ``pos``; the own turn's ``pass``
    already turned into the discard it stands for)."""
    kind_, params = action
    if kind_ == "dapai":
        tile = params[0]
        return _discard(pos, pos.hand, tile.rstrip("*"), declares=tile.endswith("*"))
    if kind_ == "fulou":
        return _call(pos, params[0])
    if kind_ == "gang":  # a closed or added kan: the replacement draw comes next
        figures = _kept(pos, pos.hand.clone().gang(params[0], False), None)
        figures["equity"] = figures["value"]
        return figures
    if kind_ == "hule":
        points = _win_points(pos)
        return {"shanten": -1, "acceptance": None, "value": points, "equity": points}
    if kind_ == "pingju":  # nine terminals: the hand ends, nothing won or lost
        return {"shanten": None, "acceptance": None, "value": 0, "equity": 0}
    # A pass on another's discard (or showing a tenpai hand): the hand stays as it is.
    figures = _kept(pos, pos.hand, None)
    figures["equity"] = figures["value"]
    return figures


def label(action: Action) -> str:
    """The choice in a few words (tiles in Majiang's notation: m5, p0 a red five, z1 East)."""
    kind_, params = action
    first = params[0] if params else ""
    if kind_ == "dapai":
        return f"riichi, discard {first[:2]}" if first.endswith("*") else f"discard {first[:2]}"
    if kind_ == "fulou":
        digits = sum(c.isdigit() for c in first)
        what = "kan" if digits == 4 else "pon" if len(set(first[1:4].replace("0", "5"))) == 1 else "chi"
        return f"{what} {first}"
    return {"gang": f"kan {first}", "hule": "win", "pingju": "nine terminals draw", "daopai": "show tenpai",
            "pass": "pass"}.get(kind_, kind_)
