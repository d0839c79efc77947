"""Manual counting: a player's claim, the table's agreement or muggins, and what a muggins costs.

In manual counting the engine still knows the true count of every claim; it only keeps it to
itself until the claim is settled (agreed, or decided by a muggins vote), then tells everyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.cribbage.engine.scoring import Item

PLAY = "play"
HAND = "hand"
CRIB = "crib"

# What follows a claim's settlement.
RESUME_NOTHING = ""  # a pegging claim closed by the next play: the play goes on as it was
RESUME_ADVANCE = "advance"  # a claim that reached the game hole held the play back: go on with it
RESUME_SHOW = "show"  # the last card's claim: the show begins
RESUME_NEXT = "next"  # a hand or crib: the next one is shown


@dataclass
class Claim:
    seat: int
    kind: str  # PLAY, HAND or CRIB
    claimed: int
    points: int  # the true count, kept from the table until settled
    items: list[Item]
    cards: list[str]  # the play since the last reset, or the hand or crib shown
    starter: str | None
    awaiting: list[int] = field(default_factory=list)  # seats still to agree; empty while merely open
    resume: str = RESUME_NOTHING

    @property
    def under_review(self) -> bool:
        return bool(self.awaiting)

    def describe(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "claimed": self.claimed,
            "cards": self.cards[:],
            "starter": self.starter,
            "awaiting": self.awaiting[:],
        }


@dataclass
class Muggins:
    caller: int
    stated: int
    voters: list[int]
    votes: dict[int, bool] = field(default_factory=dict)

    @property
    def waiting(self) -> list[int]:
        return [seat for seat in self.voters if seat not in self.votes]

    @property
    def passed(self) -> bool:
        # The seed's rule: the motion needs every seat but the caller's vote.
        return all(self.votes.get(seat, False) for seat in self.voters)

    def describe(self) -> dict[str, Any]:
        return {
            "caller": self.caller,
            "stated": self.stated,
            "votes": [[seat, self.votes[seat]] for seat in self.voters if seat in self.votes],
            "waiting": self.waiting,
        }


def muggins_outcome(claimed: int, stated: int, passed: bool, variants: str) -> tuple[int, int]:
    """(change to the claimer's score, change to the caller's score) once the vote is in.

    A passed motion puts the claim right either way; the caller pegs what the claimer missed,
    except under ``N``. A failed one changes nothing, except under ``D``, where the caller loses
    the points the call was about (the difference between stated and claimed).
    """
    if passed:
        return stated - claimed, (0 if "N" in variants else max(0, stated - claimed))
    return 0, (-abs(stated - claimed) if "D" in variants else 0)


def item_list(items: list[Item]) -> list[list[Any]]:
    """Items as JSON-shaped lists: ``[name, points, [cards]]``."""
    return [[name, points, list(cards)] for name, points, cards in items]
