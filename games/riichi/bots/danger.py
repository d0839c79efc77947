"""How dangerous a discard is against each opponent who may be tenpai, from the public table.

Everything here reads only what a seat may see: the rivers (``he``), the melds (``fulou``), the
riichi flags, the dora indicators and the viewer's own hand (through ``visible``: copies of each
kind the viewer can see, its hand included).

For an opponent ``o`` and a tile kind ``k`` the estimate is

    deal-in probability = P(o is tenpai) x P(k completes o's hand | o is tenpai)

and the second factor counts the waiting shapes that could take ``k``, each with a prior weight
(two-sided waits weigh most), scaled by how many of the tiles the shape needs are still unseen:

- genbutsu (``o`` discarded ``k``, or after ``o``'s riichi someone discarded it and ``o`` let it
  pass) is safe: ``o`` could only win on it by tsumo (furiten);
- suji: a two-sided wait ``(k-3, k)`` or ``(k, k+3)`` is impossible once ``o`` discarded the other
  end, so 4 with 1 and 7 discarded keeps only kanchan, shanpon and tanki;
- kabe / one-chance: a shape needing a kind whose copies are all (or all but one) visible is
  impossible (unlikely);
- shanpon and tanki need copies of ``k`` itself: a kind with all four visible is safe, three
  visible leaves only tanki;
- honours only wait as shanpon or tanki.

The scale (``PER_WEIGHT``) makes a live middle tile against a riichi about 13 %, a suji 3/7 about
5 %, a suji terminal about 2 % — the usual figures from large game records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Deal-in probability (fraction) per unit of shape weight, given the opponent is tenpai.
PER_WEIGHT = 0.0135
RYANMEN, PENCHAN, KANCHAN = 3.5, 1.0, 1.0
SHANPON = {"suit": 1.0, "yaojiu": 1.3, "z": 3.0}
TANKI = {"suit": 0.5, "yaojiu": 0.6, "z": 1.5}
# How much of a shape survives when a tile it needs has this many copies unseen.
_AVAIL = (0.0, 0.35, 0.75, 1.0, 1.0)


def kind(p: str) -> str:
    """The tile kind of a tile or river entry: red fives as fives, marks dropped."""
    return p[0] + ("5" if p[1] == "0" else p[1])


@dataclass
class Threat:
    """An opponent who may be tenpai: how likely, what a deal-in costs, and what is safe."""

    seat: int
    riichi: bool
    tenpai: float  # P(tenpai)
    value: float  # points a deal-in is expected to cost
    safe: set[str] = field(default_factory=set)  # genbutsu kinds (furiten for this player)
    suit_bias: dict[str, float] = field(default_factory=dict)  # per suit letter: a multiplier (honitsu)
    toitoi: bool = False


def _is_after(seat_order: int, index: int, riichi_order: int, riichi_index: int, exact: bool) -> bool:
    """Was discard ``index`` of the seat at turn offset ``seat_order`` made after the riichi
    discard ``riichi_index`` of the seat at ``riichi_order``? Without calls the turns are exact;
    with calls (which skip turns) only a discard a full round later is counted."""
    t, r = 4 * index + seat_order, 4 * riichi_index + riichi_order
    return t > r if exact else t > r + 4


def threats(view: dict[str, Any], me_seat: int, visible: Counter[str]) -> list[Threat]:
    """Every opponent worth defending against, with its P(tenpai) and deal-in cost."""
    seats = view.get("seats", [])
    paishu = view.get("paishu", 70)
    late = max(0.0, min(1.0, 1.0 - paishu / 70))
    dora = dora_kinds(view)
    exact = not any(s["fulou"] for s in seats)
    out: list[Threat] = []
    for seat in seats:
        if seat["seat"] == me_seat:
            continue
        river = seat["he"]
        safe = {kind(p) for p in river}
        dealer = seat["menfeng"] == 0
        melds = seat["fulou"]
        meld_dora = sum(1 for m in melds for c in m[1:] if c.isdigit() and (m[0] + ("5" if c == "0" else c)) in dora)
        meld_dora += sum(1 for m in melds for c in m[1:] if c == "0")
        if seat["lizhi"]:
            riichi_index = next((i for i, p in enumerate(river) if "*" in p), len(river) - 1)
            for other in seats:
                if other["seat"] == seat["seat"]:
                    continue
                for i, p in enumerate(other["he"]):
                    if _is_after(other["menfeng"], i, seat["menfeng"], riichi_index, exact):
                        safe.add(kind(p))
            value = (5200.0 + 1300.0 * meld_dora) * (1.5 if dealer else 1.0)
            out.append(Threat(seat["seat"], True, 1.0, value, safe))
            continue
        if not melds:
            # A closed hand without riichi: a dama tenpai now and then, more often late.
            tenpai = 0.02 + 0.20 * late * late
            if tenpai < 0.05:
                continue
            out.append(Threat(seat["seat"], False, tenpai, 4000.0 * (1.5 if dealer else 1.0), safe))
            continue
        n = len(melds)
        tenpai = min(0.95, (0.12, 0.30, 0.60, 0.90)[min(n, 4) - 1] + 0.35 * late)
        values = {"z5", "z6", "z7", "z" + str(view.get("zhuangfeng", 0) + 1), "z" + str(seat["menfeng"] + 1)}
        yakuhai = sum(1 for m in melds if m[0] == "z" and "z" + m[1] in values)
        suits = {m[0] for m in melds}
        bias: dict[str, float] = {}
        han = meld_dora + yakuhai
        number_suits = suits - {"z"}
        if len(number_suits) == 1 and n >= 2:
            s = next(iter(number_suits))
            # Looks like honitsu / chinitsu: their suit and honours hot, the others cooler; a
            # river empty of that suit says the same.
            in_river = sum(1 for p in river if p[0] == s)
            if in_river <= max(1, len(river) // 6):
                bias = {x: (1.6 if x in (s, "z") else 0.25) for x in "mpsz"}
                han += 2
        toitoi = n >= 2 and all(len(set(m[1:4].replace("0", "5"))) == 1 for m in melds)
        value = (2000.0 + 1600.0 * han) * (1.5 if dealer else 1.0)
        out.append(Threat(seat["seat"], False, tenpai, value, safe, bias, toitoi))
    return out


def dora_kinds(view: dict[str, Any]) -> set[str]:
    from games.riichi.engine.tile import zhenbaopai

    return {zhenbaopai(p) for p in view.get("baopai", [])}


def _avail(unseen: int) -> float:
    return _AVAIL[max(0, min(4, unseen))]


def wait_probability(k: str, threat: Threat, visible: Counter[str]) -> float:
    """P(``k`` completes the hand of ``threat``, if it is tenpai)."""
    if k in threat.safe:
        return 0.0
    s, n = k[0], int(k[1])
    unseen = 4 - visible[k]
    # Copies of k the opponent may hold for a shanpon (2) or tanki (1).
    pair = {0: 0.0, 1: 0.0, 2: 0.3, 3: 0.8}.get(unseen, 1.0)
    single = 0.0 if unseen <= 0 else 1.0
    if s == "z":
        w = SHANPON["z"] * pair + TANKI["z"] * single
    else:
        cls = "yaojiu" if n in (1, 9) else "suit"
        shanpon, tanki = SHANPON[cls], TANKI[cls]
        if threat.toitoi:
            shanpon, tanki = shanpon * 3, tanki * 3
        w = shanpon * pair + tanki * single

        def a(x: int) -> float:
            return _avail(4 - visible[s + str(x)])

        side = 0.3 if threat.toitoi else 1.0
        # The opponent holds (n+1, n+2): a two-sided wait on n and n+3, or an edge wait on 7.
        if n + 2 <= 9:
            if n + 3 <= 9:
                if s + str(n + 3) not in threat.safe:
                    w += side * RYANMEN * a(n + 1) * a(n + 2)
            else:
                w += side * PENCHAN * a(n + 1) * a(n + 2)
        # (n-2, n-1): two-sided on n-3 and n, or an edge wait on 3.
        if n - 2 >= 1:
            if n - 3 >= 1:
                if s + str(n - 3) not in threat.safe:
                    w += side * RYANMEN * a(n - 1) * a(n - 2)
            else:
                w += side * PENCHAN * a(n - 1) * a(n - 2)
        if 2 <= n <= 8:
            w += side * KANCHAN * a(n - 1) * a(n + 1)
    w *= threat.suit_bias.get(s, 1.0)
    return min(0.6, w * PER_WEIGHT)


def deal_in(k: str, threat: Threat, visible: Counter[str], dora: set[str] | None = None) -> float:
    """P(discarding ``k`` deals into ``threat``) — its tenpai chance times the wait chance."""
    p = threat.tenpai * wait_probability(k, threat, visible)
    if dora and k in dora:
        p *= 1.15  # dora are kept, and waited on, more often
    return p


def danger_table(view: dict[str, Any], me_seat: int, visible: Counter[str], kinds: list[str],
                 cost_of: Callable[[Threat], float] | None = None,
                 ) -> tuple[list[Threat], dict[str, float], dict[str, float]]:
    """For each kind: the summed deal-in probability, and the expected cost in points
    (``cost_of(threat)`` a deal-in's cost to that threat, its ``value`` by default)."""
    ts = threats(view, me_seat, visible)
    if cost_of is not None:
        for t in ts:
            t.value = cost_of(t)
    dora = dora_kinds(view)
    prob: dict[str, float] = {}
    cost: dict[str, float] = {}
    for k in kinds:
        p = c = 0.0
        for t in ts:
            d = deal_in(k, t, visible, dora)
            p += d
            c += d * t.value
        prob[k], cost[k] = p, c
    return ts, prob, cost
