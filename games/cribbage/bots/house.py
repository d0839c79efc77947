"""The built-in cribbage bot: ``choose(view, legal, rng)`` from its own seat's view only.

- Discard: keep the split with the best expected hand over every possible starter, adding or
  subtracting a rough crib value depending on whose crib it is (``engine.discard``).
- Pegging: take the most points now, less what the next player can expect to peg in reply with
  the cards still unseen (which is what keeps it off 5 and 21, and off giving 15 or 31 away).
- Manual counting: claim the true count, call muggins on the other side's wrong claims when that
  pays, vote truthfully, and agree otherwise. It never pauses, and unpauses when asked.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.cribbage.engine.cards import new_deck, rank_of, value_of
from games.cribbage.engine.claims import CRIB, PLAY
from games.cribbage.engine.discard import best_discard
from games.cribbage.engine.pegging import LIMIT
from games.cribbage.engine.scoring import peg_points, score_hand

# How much of the next player's expected reply to hold against a card: they will not always
# hold the card, and pegging back is only half the story of a count.
REPLY_WEIGHT = 0.8


def true_count(claim: dict[str, Any]) -> int:
    """What a claim (as the view shows it) is really worth."""
    if claim["kind"] == PLAY:
        return peg_points(claim["cards"])[0]
    return score_hand(claim["cards"], claim["starter"], crib=claim["kind"] == CRIB)[0]


def _side(view: dict[str, Any], seat: int) -> int:
    return seat % 2 if view.get("teams") else seat


def _unseen(view: dict[str, Any]) -> list[str]:
    """Cards the bot has not seen this hand: those the other players may still hold."""
    seen = set(view.get("hand") or []) | set(view.get("discarded") or [])
    for cards in view.get("played") or []:
        seen.update(cards)
    if view.get("starter"):
        seen.add(view["starter"])
    return [card for card in new_deck() if card not in seen]


def reply_risk(play: Sequence[str], count: int, unseen: Sequence[str], their_cards: int) -> float:
    """The points the next player can expect to peg straight after ``play`` (at ``count``)."""
    if not unseen or their_cards <= 0:
        return 0.0
    by_rank = Counter(rank_of(card) for card in unseen)
    examples = {rank_of(card): card for card in unseen}
    risk = 0.0
    for rank, copies in by_rank.items():
        card = examples[rank]
        if count + value_of(card) > LIMIT:
            continue
        points = peg_points([*play, card])[0]
        if points:
            # The chance they hold one of ``copies``, roughly: their cards times its share of the unseen.
            risk += points * min(1.0, their_cards * copies / len(unseen))
    return risk


def peg_card(view: dict[str, Any], cards: Sequence[str], rng: random.Random) -> str:
    """The card to play: points now, less the reply it invites."""
    play = [card for _, card in view["play"]]
    count = view["count"]
    me = view["viewer"]
    seats = view["seats"]
    unseen = _unseen(view)
    # The next seat still holding cards replies first; a partner's reply is no risk.
    sizes = view["hand_sizes"]
    nxt = next(((me + step) % seats for step in range(1, seats) if sizes[(me + step) % seats]), None)
    best: tuple[float, str] | None = None
    for card in cards:
        after = [*play, card]
        value = float(peg_points(after)[0])
        if nxt is not None and _side(view, nxt) != _side(view, me):
            value -= REPLY_WEIGHT * reply_risk(after, count + value_of(card), unseen, sizes[nxt])
        # Small preferences: shed high cards while the count is low, keep low ones for the go.
        value += 0.01 * value_of(card) + rng.random() * 1e-6
        if best is None or value > best[0]:
            best = (value, card)
    assert best is not None
    return best[1]


def _worth_calling(view: dict[str, Any], claim: dict[str, Any]) -> int | None:
    """The correct count to call muggins with, if calling helps the bot's side."""
    truth = true_count(claim)
    if truth == claim["claimed"]:
        return None
    if truth > claim["claimed"] and "N" in view["rules"]["variants"]:
        return None  # under N the caller wins nothing and the claimer would get the missed points
    return truth


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """The bot's action for the seat whose ``view`` and ``legal_actions`` these are."""
    options = {action["type"]: action for action in legal}
    if not options or set(options) == {"pause"}:
        raise ValueError("the bot was asked to act without a decision to make")
    if "unpause" in options:
        return "unpause", []
    if "deal" in options:
        return "deal", []
    claim = view.get("claim")
    if "vote" in options:
        return "vote", [options["vote"]["stated"] == true_count(claim)]
    if "muggins" in options and claim is not None:
        stated = _worth_calling(view, claim)
        if stated is not None:
            return "muggins", [stated]
    if "agree" in options:
        return "agree", []
    if "discard" in options:
        action = options["discard"]
        me = view["viewer"]
        own_crib = _side(view, me) == _side(view, view["dealer"])
        return "discard", best_discard(action["cards"], action["count"], own_crib)
    if "count" in options:
        action = options["count"]
        return "count", [score_hand(action["cards"], action["starter"], crib=action["what"] == CRIB)[0]]
    if "play" in options:
        action = options["play"]
        card = peg_card(view, action["cards"], rng)
        if action["claim"]:
            return "play", [card, peg_points([*(c for _, c in view["play"]), card])[0]]
        return "play", [card]
    raise ValueError(f"the cribbage bot cannot answer {sorted(options)}")


__all__ = ["choose", "peg_card", "reply_risk", "true_count"]
