"""A built-in riichi mahjong bot that plays from what its seat may see.

``choose(view, legal, rng)`` takes ``RiichiGame.view(seat)`` (or a platform snapshot's ``view``)
and that seat's ``legal_actions`` and returns ``(action_type, params)``. It reads its own hand and
the public table only (rivers, melds, dora indicators, riichi flags, scores), never other hands
or the wall.

How it plays:

- it always takes a win it is allowed, and shows a tenpai hand at the exhaustive draw
  (ノーテン宣言);
- discards keep the shanten number lowest and, among those, the acceptance (ukeire: tiles still
  unseen that would lower it) highest; honours and terminals go first on ties, dora last;
- it declares riichi when a closed hand is tenpai with a wait not yet all visible (choosing the
  riichi discard with the widest wait);
- it calls pon on its value honours (dragons, seat and round wind) and chi/pon towards tanyao
  (with クイタンあり) when the call lowers the shanten number and the hand keeps a yaku;
  closed kans when they do not worsen the hand; 九種九牌 whenever offered;
- against a riichi, unless tenpai itself, it folds: genbutsu first (tiles the riichi player
  discarded), then honours already seen, suji, terminals, and middle tiles last.

The ``random.Random`` only breaks exact ties, so the bot is deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.riichi.bots.value import hand_counts, public_counts
from games.riichi.bots.value import kind as _kind
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.tile import zhenbaopai
from games.riichi.engine.xiangting import tingpai, xiangting

_KINDS = tuple(s + str(n) for s in "mps" for n in range(1, 10)) + tuple("z" + str(n) for n in range(1, 8))


def _yaojiu(kind: str) -> bool:
    return kind[0] == "z" or kind[1] in "19"


def _visible(view: dict[str, Any], me: Shoupai) -> Counter[str]:
    """Copies of each kind this seat can see: its hand, every river and meld, dora indicators."""
    return hand_counts(me) + public_counts(view)


def _ukeire(sp: Shoupai, seen: Counter[str]) -> int:
    return sum(max(0, 4 - seen[p]) for p in tingpai(sp) or [])


def _dora(view: dict[str, Any]) -> set[str]:
    return {zhenbaopai(p) for p in view.get("baopai", [])}


def _value_honours(view: dict[str, Any], me: dict[str, Any]) -> set[str]:
    return {"z5", "z6", "z7", "z" + str(view.get("zhuangfeng", 0) + 1), "z" + str(me["menfeng"] + 1)}


def _danger(view: dict[str, Any], me: dict[str, Any], kind: str, seen: Counter[str]) -> float:
    """How likely discarding ``kind`` deals into a riichi (0 = safe)."""
    total = 0.0
    for seat in view.get("seats", []):
        if seat["seat"] == me["seat"] or not seat["lizhi"]:
            continue
        river = {_kind(p) for p in seat["he"]}
        if kind in river:
            continue  # genbutsu
        s, n = kind[0], int(kind[1])
        if s == "z":
            total += {4: 0.0, 3: 0.5, 2: 2.0}.get(seen[kind], 3.5)
            continue
        low = n - 3 >= 1 and s + str(n - 3) in river
        high = n + 3 <= 9 and s + str(n + 3) in river
        if n in (1, 9):
            total += 2.0 if (low or high) else 5.0
        elif n in (2, 3, 7, 8):
            suji = high if n <= 3 else low
            total += 3.0 if suji else 7.0
        else:
            total += 3.5 if (low and high) else 6.0 if (low or high) else 9.0
    return total


def _threatened(view: dict[str, Any], me: dict[str, Any]) -> bool:
    return any(seat["lizhi"] and seat["seat"] != me["seat"] for seat in view.get("seats", []))


def _choose_discard(
    view: dict[str, Any], me: dict[str, Any], sp: Shoupai, options: list[str], rng: random.Random, *, defend: bool
) -> str:
    seen = _visible(view, sp)
    dora = _dora(view)
    best: tuple[Any, ...] | None = None
    choice = options[-1]
    for p in options:
        after = sp.clone().dapai(p)
        shanten = xiangting(after)
        ukeire = _ukeire(after, seen)
        kind = _kind(p)
        # Prefer to discard isolated honours/terminals, keep dora and red fives.
        keep = (2 if kind in dora else 0) + (1 if p[1] == "0" else 0) - (1 if _yaojiu(kind) else 0)
        danger = _danger(view, me, kind, seen) if defend else 0.0
        key = (danger, shanten, -ukeire, keep, rng.random()) if defend else (shanten, -ukeire, keep, rng.random())
        if best is None or key < best:
            best, choice = key, p
    return choice


def _meld_yaku(view: dict[str, Any], me: dict[str, Any], sp: Shoupai) -> bool:
    """Does the open hand have (or keep) an obvious yaku: a value-honour triplet, or tanyao?"""
    values = _value_honours(view, me)
    for m in sp._fulou:
        if m[0] == "z" and "z" + m[1] in values:
            return True
    for s in ("z",):
        for n in range(1, 8):
            if sp._bingpai[s][n] >= 3 and "z" + str(n) in values:
                return True
    if not view.get("rule", {}).get("クイタンあり", True):
        return False
    for m in sp._fulou:
        digits = [c for c in m[1:] if c.isdigit()]
        if m[0] == "z" or any(c in "19" for c in digits):
            return False
    yaojiu = sum(sp._bingpai["z"][1:]) + sum(sp._bingpai[s][1] + sp._bingpai[s][9] for s in "mps")
    return yaojiu <= 1


def _call(view: dict[str, Any], me: dict[str, Any], sp: Shoupai, calls: list[str]) -> str | None:
    """The chi/pon worth making, if any."""
    if _threatened(view, me):
        return None
    before = xiangting(sp)
    values = _value_honours(view, me)
    best: tuple[int, str] | None = None
    for m in calls:
        if sum(c.isdigit() for c in m) == 4:
            continue  # no daiminkan
        after = sp.clone().fulou(m)
        dapai = [p for p in (after.get_dapai() or [])]
        if not dapai:
            continue
        shanten = min(xiangting(after.clone().dapai(p)) for p in dapai)
        value_pon = m[0] == "z" and "z" + m[1] in values
        if value_pon and shanten <= before:
            candidate = (shanten - 1, m)
        elif shanten < before and _meld_yaku(view, me, after):
            candidate = (shanten, m)
        else:
            continue
        if best is None or candidate < best:
            best = candidate
    return best[1] if best else None


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """The bot's action for the seat whose ``view`` and ``legal_actions`` these are."""
    return _choose(view, legal, rng, defence=True)


def choose_without_defence(view: dict[str, Any], legal: list[dict[str, Any]],
                           rng: random.Random) -> tuple[str, list[Any]]:
    """The house bot that never folds (the beginner level, ``levels.py``): it plays its hand on
    against any riichi, as a beginner does, but still calls nothing while one is declared."""
    return _choose(view, legal, rng, defence=False)


def obvious_answer(view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[str, list[Any]] | None:
    """The answer every level gives without weighing anything, or None: nothing allowed (pass),
    the game's start (kaiju), a legal win (always taken), showing tenpai at the draw, no hand to
    look at (pass)."""
    types = {a["type"] for a in legal if a.get("allowed", True)}
    if not types:
        return ("pass", [])
    if types == {"kaiju"}:
        return ("kaiju", [])
    for kind in ("hule", "daopai"):
        if kind in types:
            return (kind, [])
    if view.get("me") is None:
        return ("pass", [])
    return None


def _choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, *,
            defence: bool) -> tuple[str, list[Any]]:
    answer = obvious_answer(view, legal)
    if answer is not None:
        return answer
    actions = [a for a in legal if a.get("allowed", True)]
    types = {a["type"] for a in actions}
    me = view["me"]
    sp = Shoupai.from_string(me["shoupai"])
    if "pingju" in types:
        return ("pingju", [])

    discards = [a["params"][0] for a in actions if a["type"] == "dapai" and not a.get("lizhi")]
    riichi = [a["params"][0] for a in actions if a["type"] == "dapai" and a.get("lizhi")]
    if discards or riichi:
        defend = defence and _threatened(view, me) and xiangting(sp) >= 1
        kans = [a["params"][0] for a in actions if a["type"] == "gang"]
        if kans and not defend:
            best_now = min(xiangting(sp.clone().dapai(p)) for p in discards or [p[:-1] for p in riichi])
            for m in kans:
                if xiangting(sp.clone().gang(m)) <= best_now:
                    return ("gang", [m])
        if riichi:
            seen = _visible(view, sp)
            scored = []
            for p in riichi:
                after = sp.clone().dapai(p[:-1])
                scored.append((-_ukeire(after, seen), rng.random(), p))
            scored.sort()
            if scored[0][0] < 0:
                return ("dapai", [scored[0][2]])
        options = discards or [p[:-1] for p in riichi]
        return ("dapai", [_choose_discard(view, me, sp, options, rng, defend=defend)])

    calls = [a["params"][0] for a in actions if a["type"] == "fulou"]
    if calls:
        m = _call(view, me, sp, calls)
        if m is not None:
            return ("fulou", [m])
    return ("pass", [])
