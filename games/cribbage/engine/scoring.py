"""Scoring a shown hand (or crib) with the starter, and scoring a card as it is pegged.

A hand's score splits into two independent parts, and ``score_hand`` is exactly their sum:

- the rank part (fifteens, pairs, runs) depends only on the five ranks. It is worked out once per
  sorted rank tuple (``rank_template``: items over positions in rank order) and cached, so scoring
  many candidate discards (the bot) mostly costs a sort and a dictionary look-up;
- the suit part (flush, his nobs) depends on the suits and on which hand cards are jacks
  (``flush_item``, ``nobs_item``, ``suit_points``).

``games.cribbage.engine.sweep`` counts the distribution of every hand + starter with these same
functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

from games.cribbage.engine.cards import new_deck, rank_of, value_of

Item = tuple[str, int, tuple[str, ...]]  # (name, points, cards), e.g. ("fifteen", 2, ("5H", "0S"))
Template = tuple[tuple[str, int, tuple[int, ...]], ...]  # items over positions in a sorted rank tuple

# Same-rank groups: two, three and four of a kind are 1, 3 and 6 pairs.
_KIND_NAMES = {2: "pair", 3: "pair royal", 4: "double pair royal"}
_KIND_POINTS = {2: 2, 3: 6, 4: 12}


@cache
def rank_template(ranks: tuple[int, ...]) -> Template:
    """Fifteens, pairs and runs of ``ranks`` (sorted ascending), as items naming positions in it."""
    values = [min(rank, 10) for rank in ranks]
    items: list[tuple[str, int, tuple[int, ...]]] = []
    for size in range(2, len(ranks) + 1):
        for combo in combinations(range(len(ranks)), size):
            if sum(values[i] for i in combo) == 15:
                items.append(("fifteen", 2, combo))
    groups: dict[int, list[int]] = {}
    for position, rank in enumerate(ranks):
        groups.setdefault(rank, []).append(position)
    for positions in groups.values():
        if len(positions) >= 2:
            items.append((_KIND_NAMES[len(positions)], _KIND_POINTS[len(positions)], tuple(positions)))
    # Runs: the longest stretch of consecutive distinct ranks; with 5 cards there is at most one
    # of length 3 or more. Each way of picking one card per rank is a separate run.
    distinct = sorted(groups)
    best: list[int] = []
    stretch: list[int] = []
    for rank in distinct:
        stretch = [*stretch, rank] if stretch and rank == stretch[-1] + 1 else [rank]
        if len(stretch) > len(best):
            best = stretch
    if len(best) >= 3:
        for combo in product(*(groups[rank] for rank in best)):
            items.append(("run", len(best), combo))
    return tuple(items)


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """The rank part's points for ``ranks`` (sorted ascending): the sum of ``rank_template``."""
    return sum(points for _, points, _ in rank_template(ranks))


def flush_item(hand: Sequence[str], starter: str, crib: bool = False) -> Item | None:
    suit = hand[0][1]
    for card in hand:
        if card[1] != suit:
            return None
    if starter[1] == suit:
        return ("flush", len(hand) + 1, (*hand, starter))
    if crib:  # the crib's flush must include the starter
        return None
    return ("flush", len(hand), tuple(hand))


def nobs_item(hand: Sequence[str], starter: str) -> Item | None:
    """His nobs: the jack of the starter's suit in the hand (a jack starter is the dealer's heels)."""
    for card in hand:
        if card[0] == "J" and card[1] == starter[1]:
            return ("nobs", 1, (card,))
    return None


def suit_points(hand: Sequence[str], starter: str, crib: bool = False) -> int:
    """The suit part's points: flush and his nobs."""
    flush = flush_item(hand, starter, crib)
    nobs = nobs_item(hand, starter)
    return (flush[1] if flush else 0) + (nobs[1] if nobs else 0)


_CARD_RANK = {card: rank_of(card) for card in new_deck()}


def _sorted_cards(hand: Sequence[str], starter: str) -> tuple[list[str], tuple[int, ...]]:
    """The five cards in rank order (stable: equal ranks keep hand order, starter last), and their ranks."""
    if len(hand) != 4:
        raise ValueError(f"a hand to score has 4 cards, not {len(hand)}")
    try:
        cards = sorted((*hand, starter), key=_CARD_RANK.__getitem__)
    except (KeyError, TypeError):
        raise ValueError(f"not a hand and starter: {hand!r}, {starter!r}") from None
    return cards, tuple(map(_CARD_RANK.__getitem__, cards))


def score_hand(hand: Sequence[str], starter: str, crib: bool = False) -> tuple[int, list[Item]]:
    """A 4-card hand (or crib, ``crib=True``) with the starter: total points and itemised score.

    Items come in the order they are counted aloud: fifteens, pairs, runs, flush, nobs. Cards in
    rank items are in rank order (equal ranks in hand order, the starter last).
    """
    cards, ranks = _sorted_cards(hand, starter)
    items: list[Item] = [
        (name, points, tuple(cards[i] for i in positions)) for name, points, positions in rank_template(ranks)
    ]
    for extra in (flush_item(hand, starter, crib), nobs_item(hand, starter)):
        if extra is not None:
            items.append(extra)
    return sum(points for _, points, _ in items), items


def hand_points(hand: Sequence[str], starter: str, crib: bool = False) -> int:
    """``score_hand``'s total without building the items (for evaluating many discards)."""
    return rank_points(_sorted_cards(hand, starter)[1]) + suit_points(hand, starter, crib)


def peg_points(play: Sequence[str]) -> tuple[int, list[Item]]:
    """What the last card of ``play`` (the cards since the last count reset, in order) pegs.

    Go and last-card points are the game's business, not this function's.
    """
    if not play:
        return 0, []
    items: list[Item] = []
    count = sum(value_of(card) for card in play)
    if count == 15:
        items.append(("fifteen", 2, tuple(play)))
    elif count == 31:
        items.append(("thirty-one", 2, tuple(play)))
    ranks = [rank_of(card) for card in play]
    # Pairs: only the unbroken stretch of the last card's rank at the end of the play counts.
    same = 1
    while same < len(ranks) and ranks[-same - 1] == ranks[-1]:
        same += 1
    if same >= 2:
        items.append((_KIND_NAMES[same], _KIND_POINTS[same], tuple(play[-same:])))
    # Runs: the longest tail of distinct, consecutive ranks in any order.
    for length in range(len(ranks), 2, -1):
        tail = ranks[-length:]
        if len(set(tail)) == length and max(tail) - min(tail) == length - 1:
            items.append(("run", length, tuple(play[-length:])))
            break
    return sum(points for _, points, _ in items), items


_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """0..999 in words ("twenty-nine")."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")


def say(items: Sequence[Item], empty: str = "nineteen") -> str:
    """The score in words with running totals, as a player counts it aloud.

    "fifteen two, fifteen four, a pair is six, a run of three is nine, flush is thirteen, one for his
    nobs is fourteen". A hand scoring nothing is traditionally called "nineteen" (no hand can score
    19); pass ``empty="nothing"`` for pegging.
    """
    if not items:
        return empty
    words = []
    total = 0
    for name, points, _cards in items:
        total += points
        said = number_words(total)
        if name == "fifteen":
            words.append(f"fifteen {said}")
        elif name == "thirty-one":
            words.append(f"thirty-one for {said}")
        elif name == "run":
            words.append(f"a run of {number_words(points)} is {said}")
        elif name == "flush":
            words.append(f"a flush of {number_words(points)} is {said}")
        elif name == "nobs":
            words.append(f"one for his nobs is {said}")
        elif name in ("pair", "pair royal", "double pair royal"):
            words.append(f"a {name} is {said}")
        else:
            words.append(f"{name} {number_words(points)} is {said}")
    return ", ".join(words)
