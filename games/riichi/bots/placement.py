"""What points are worth in the game's last hand: places, not points (the strong bot's ``placement``).

In the last hand of an east-south game (and in the sudden-death extra hands) a win or a deal-in
mostly ends the game, so what it is worth is the final places it leads to, and a point counts
only through them: a 1,000-point win that leaves the seat fourth is worth little more than folding,
a deal-in that costs the leader first place costs far more than its points. ``Placement`` turns a
win's points, and a deal-in's, into that worth on the points' own scale, so the bot's push/fold and
discard comparisons (which weigh points) read it unchanged:

    worth = SHARE x points + PLACE x (places gained)

for each way the hand can end (a ron from each opponent, a tsumo). Where the game goes on after
it (a dealer's win not leading; nobody at 30,000 with extra hands on) the places are not final
and the points still count in full: worth = points + PLACE x (places gained now). The riichi
sticks and counters on the table go to the winner.

Everything here is public: the scores, the round, the sticks and the first dealer (who wins ties,
as Majiang's final ranking does).
"""

from __future__ import annotations

from typing import Any

PLACE = 12000.0  # one place in the final ranking, in points
SHARE = 0.2  # what a point still counts beside the places it moves
RON_SHARE = 0.6  # of the wins, the share by ron (the rest by tsumo), for a win whose payer is unknown
GOAL = 30000  # Majiang's score that ends extra hands (and lets the last dealer stop)


def final_rank(defen: list[int], seat: int, qijia: int) -> int:
    """``seat``'s place (1-4) if the game ended with these scores: ties go to the seat nearer
    the first dealer (``qijia``), as Majiang's ``jieju`` ranks them."""
    order = sorted(range(len(defen)), key=lambda s: (-defen[s], (s - qijia) % len(defen)))
    return order.index(seat) + 1


class Placement:
    """One decision's standings: the worth of a win by this seat, and of a deal-in to another."""

    def __init__(self, view: dict[str, Any], seat: int, place: float = PLACE) -> None:
        self.seat = seat
        self.place = place
        self.defen = list(view.get("defen") or [25000] * 4)
        self.qijia = view.get("qijia", 0)
        rule = view.get("rule") or {}
        self.extra_hands = rule.get("延長戦方式", 0) != 0
        self.dealer_stops = rule.get("オーラス止めあり", True)
        self.dealer = view.get("dealer", next((s["seat"] for s in view.get("seats", []) if s["menfeng"] == 0), -1))
        self.pot = view.get("lizhibang", 0) * 1000 + view.get("changbang", 0) * 300
        self.rank = final_rank(self.defen, seat, self.qijia)
        self._wins: dict[float, float] = {}  # a decision scores the same few values many times

    def _ends(self, after: list[int], winner: int) -> bool:
        """Does the game end after this win? A dealer's win goes on unless the dealer then leads
        (the last dealer may stop); with extra hands on, the game ends only once someone has 30,000."""
        if self.extra_hands and max(after) < GOAL:
            return False
        if winner == self.dealer:
            return self.dealer_stops and final_rank(after, winner, self.qijia) == 1 and max(after) >= GOAL
        return True

    def _payments(self, points: float, winner: int, loser: int | None) -> list[float]:
        """Each seat's change: a ron from ``loser``, or a tsumo (``loser`` None) split as the rules
        split it (the dealer pays half a non-dealer's tsumo, each pays a third of the dealer's)."""
        delta = [0.0] * len(self.defen)
        if loser is not None:
            delta[loser] -= points
        else:
            for s in range(len(delta)):
                if s == winner:
                    continue
                share = 1 / 3 if winner == self.dealer else (0.5 if s == self.dealer else 0.25)
                delta[s] -= points * share
        delta[winner] += points + self.pot
        return delta

    def _worth(self, points: float, winner: int, loser: int | None) -> float:
        """The seat's gain from this ending: places gained (negative when lost) and its points."""
        delta = self._payments(points, winner, loser)
        after = [round(d + x) for d, x in zip(self.defen, delta, strict=True)]
        mine = delta[self.seat]
        places = self.place * (self.rank - final_rank(after, self.seat, self.qijia))
        return (SHARE * mine if self._ends(after, winner) else mine) + places

    def win(self, points: float) -> float:
        """The worth of this seat winning ``points`` (the hand's value without sticks or counters),
        over the ways it may win: a ron from each opponent alike, or a tsumo. Where the places tie,
        the bigger hand is still worth more."""
        if points <= 0:
            return 0.0
        got = self._wins.get(points)
        if got is not None:
            return got
        others = [s for s in range(len(self.defen)) if s != self.seat]
        ron = sum(self._worth(points, self.seat, s) for s in others) / len(others)
        tsumo = self._worth(points, self.seat, None)
        got = self._wins[points] = RON_SHARE * ron + (1 - RON_SHARE) * tsumo
        return got

    def loss(self, points: float, winner: int) -> float:
        """The cost (positive) of dealing ``points`` into ``winner``."""
        return -self._worth(points, winner, self.seat)
