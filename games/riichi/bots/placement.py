"""What points are worth in the game's last hand: places, not points (the strong bot's ``placement``).

In the last hand of an east-south game (and in the sudden-death extra hands) a win or a deal-in
mostly ends the game, so what it is worth is the final places it leads to, and a point counts
only through them: a 1,000-point win that leaves the seat fourth is worth no more than folding,
a deal-in that costs the leader first place costs far more than its points. ``Placement`` turns a
win's points, and a deal-in's, into that worth on the points' own scale, so the bot's push/fold and
discard comparisons (which weigh points) read it unchanged:

    worth = SHARE x points + PLACE x (places gained)

for each way the hand can end (a ron from each opponent, a tsumo). Places gained are counted from
where the seat would finish if the hand ended without it (``baseline``: an opponent's win of a
typical size, by tsumo or from another opponent, or a draw), not from where it stands now: the
leader 1,000 ahead who folds is often overtaken, so its own win is worth a good part of a place.
A win that ends the game below the baseline is worth less than nothing (a cheap win that leaves
the seat fourth, where folding left it a chance). Where the game goes on after the hand (a
dealer's win not leading; nobody at 30,000 with extra hands on) the places are not final and the
points still count in full: worth = points + PLACE x (places gained from where it stands). The
riichi sticks and counters on the table go to the winner.

Everything here is public: the scores, the round, the sticks and the first dealer (who wins ties,
as Majiang's final ranking does).
"""

from __future__ import annotations

from typing import Any

PLACE = 12000.0  # one place in the final ranking, in points
SHARE = 0.2  # what a point still counts beside the places it moves
RON_SHARE = 0.6  # of the wins, the share by ron (the rest by tsumo), for a win whose payer is unknown
GOAL = 30000  # Majiang's score that ends extra hands (and lets the last dealer stop)
TYPICAL_WIN = 5200.0  # an opponent's win, for the baseline (a dealer's counts half again)
DRAW_SHARE = 0.25  # of the hands that end without this seat, the share that end in a draw


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
        self.baseline = self._baseline()
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

    def _after(self, points: float, winner: int, loser: int | None) -> tuple[float, list[int]]:
        """This seat's change and everyone's scores after that win."""
        delta = self._payments(points, winner, loser)
        return delta[self.seat], [round(d + x) for d, x in zip(self.defen, delta, strict=True)]

    def _baseline(self) -> float:
        """The seat's expected final place if the hand ends without it winning or dealing in: a
        draw, or one opponent's typical win, by tsumo or by ron from another opponent."""
        others = [s for s in range(len(self.defen)) if s != self.seat]
        total = DRAW_SHARE * self.rank
        for winner in others:
            points = TYPICAL_WIN * (1.5 if winner == self.dealer else 1.0)
            losers = [s for s in others if s != winner]
            outcomes = [(None, 1 - RON_SHARE)] + [(s, RON_SHARE / len(losers)) for s in losers]
            for loser, weight in outcomes:
                _, after = self._after(points, winner, loser)
                total += (1 - DRAW_SHARE) / len(others) * weight * final_rank(after, self.seat, self.qijia)
        return total

    def _worth(self, points: float, winner: int, loser: int | None) -> float:
        """The seat's gain from this ending: places gained (negative when lost) and its points."""
        mine, after = self._after(points, winner, loser)
        if self._ends(after, winner):
            return SHARE * mine + self.place * (self.baseline - final_rank(after, self.seat, self.qijia))
        return mine + self.place * (self.rank - final_rank(after, self.seat, self.qijia))

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
        """The cost of dealing ``points`` into ``winner``; never below 0 (a deal-in that ends the
        game in a place better than the baseline is not sought: the baseline is rough)."""
        return max(0.0, -self._worth(points, winner, self.seat))
