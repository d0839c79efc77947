"""Manual counting (claims, agreement, muggins and votes, variants D and N) and pause/unpause."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.engine import Event, Rejection
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.scoring import peg_points
from tests.cribbage.engine.test_game_pegging import kinds, ready

MANUAL = {"counting": "manual"}
# Seat 1 (first to show) holds 5H 5D 5S 0C with the starter KS: twenty.
KEPT = [["2C", "3C", "4C", "9D"], ["5H", "5D", "5S", "0C"]]
HAND_1 = 20


def to_the_show(rules: dict[str, Any], scores: list[int] | None = None) -> tuple[CribbageGame, list[Event]]:
    """Mode 2, played truthfully up to seat 1's show (its hand turned up, waiting for its count)."""
    game, events = ready(2, KEPT, starter="KS", rules=rules, scores=scores)
    while game.view(0)["showing"] is None:
        [seat] = game.to_act()
        events += game.apply(seat, *game.auto_action(seat))
    return game, events


def score(game: CribbageGame, seat: int) -> int:
    return game.result()["scores"][seat]


def test_claims_in_the_play_are_pegged_as_claimed_and_settled_with_the_truth() -> None:
    game, _ = ready(2, KEPT, starter="KS", rules=MANUAL)
    assert game.legal_actions(1)[0]["claim"] is True
    with pytest.raises(Rejection, match="claimed points"):
        game.apply(1, "play", ["0C"])
    events = game.apply(1, "play", ["0C", 0])
    assert events[0].params == ["0C", 0, 0, 10, []]
    assert game.view(0)["claim"] == {"seat": 1, "kind": "play", "claimed": 0, "cards": ["0C"], "starter": None,
                                     "awaiting": []}
    events = game.apply(0, "play", ["9D", 0])  # playing on accepts the last claim
    assert kinds(events)[:2] == [("Settled", 1), ("Played", 0)]
    assert events[0].params == ["play", 0, 0, []]
    events = game.apply(1, "play", ["5H", 0])  # 24: nothing
    events = game.apply(0, "play", ["2C", 0])  # 26: nothing
    events = game.apply(1, "play", ["5D", 1])  # 31 is two; seat 1 claims one
    assert game.to_act() == [0]  # seat 0 leads after the reset ...
    assert {a["type"] for a in game.legal_actions(0)} == {"play", "muggins", "pause"}  # ... or calls muggins
    events = game.apply(0, "play", ["3C", 0])
    assert events[0].type == "Settled" and events[0].params[:3] == ["play", 1, 2]
    assert [item[0] for item in events[0].params[3]] == ["thirty-one"]
    assert score(game, 1) == 1  # an unchallenged under-claim stands: the point is lost


def test_a_correct_count_agreed_then_the_true_items_are_told() -> None:
    game, _ = to_the_show(MANUAL)
    assert game.to_act() == [1]
    assert game.legal_actions(1)[0] == {"type": "count", "what": "hand", "cards": ["5H", "5D", "5S", "0C"],
                                        "starter": "KS"}
    before = score(game, 1)
    events = game.apply(1, "count", [HAND_1])
    assert [e.type for e in events] == ["Counted", "Review"]
    assert events[0].params == [HAND_1, before + HAND_1, []] and events[1].params == ["hand", HAND_1]
    assert game.to_act() == [0]
    assert [a["type"] for a in game.legal_actions(0)] == ["agree", "muggins", "pause"]
    events = game.apply(0, "agree", [])
    assert kinds(events)[:3] == [("Agreed", 0), ("Settled", 1), ("Show", 0)]
    kind, claimed, points, items = events[1].params
    assert (kind, claimed, points) == ("hand", HAND_1, HAND_1)
    assert [name for name, _, _ in items] == ["fifteen"] * 7 + ["pair royal"]
    assert game.view(1)["last_show"]["items"] == items


@pytest.mark.parametrize(("variants", "caller_gain"), [("", 2), ("D", 2), ("N", 0)])
def test_an_under_claim_caught_by_muggins(variants: str, caller_gain: int) -> None:
    game, _ = to_the_show({**MANUAL, "variants": variants})
    base = [score(game, 0), score(game, 1)]
    game.apply(1, "count", [HAND_1 - 2])
    events = game.apply(0, "muggins", [HAND_1])
    assert events[0].params == [1, HAND_1 - 2, HAND_1]
    assert game.to_act() == [1]  # everyone but the caller votes: here, the claimer
    assert game.legal_actions(1)[0]["type"] == "vote"
    assert game.auto_action(1) == ("vote", [True])  # the truth
    events = game.apply(1, "vote", [True])
    assert kinds(events)[:3] == [("Vote", 1), ("MugginsResult", 0), ("Settled", 1)]
    # The claim is put right either way; the caller pegs the two missed points, but not under N.
    assert [score(game, 0), score(game, 1)] == [base[0] + caller_gain, base[1] + HAND_1]
    assert events[1].params == [True, base[1] + HAND_1, base[0] + caller_gain]
    assert events[2].params[:3] == ["hand", HAND_1, HAND_1]


def test_an_over_claim_is_corrected() -> None:
    game, _ = to_the_show(MANUAL)
    base = [score(game, 0), score(game, 1)]
    game.apply(1, "count", [HAND_1 + 3])
    assert score(game, 1) == base[1] + HAND_1 + 3
    game.apply(0, "muggins", [HAND_1])
    game.apply(1, "vote", [True])
    assert [score(game, 0), score(game, 1)] == [base[0], base[1] + HAND_1]


@pytest.mark.parametrize(("variants", "loss"), [("", 0), ("D", 3), ("N", 0)])
def test_a_failed_muggins_costs_the_caller_only_under_d(variants: str, loss: int) -> None:
    game, _ = to_the_show({**MANUAL, "variants": variants})
    base = [score(game, 0), score(game, 1)]
    game.apply(1, "count", [HAND_1])
    game.apply(0, "muggins", [HAND_1 + 3])
    assert game.auto_action(1) == ("vote", [False])
    events = game.apply(1, "vote", [False])
    assert events[1].type == "MugginsResult" and events[1].params[0] is False
    assert [score(game, 0), score(game, 1)] == [max(0, base[0] - loss), base[1] + HAND_1]


def test_a_deduction_never_goes_below_zero() -> None:
    game, _ = to_the_show({**MANUAL, "variants": "D"}, scores=[0, 0])
    first = score(game, 0)
    game.apply(1, "count", [HAND_1])
    game.apply(0, "muggins", [29])
    game.apply(1, "vote", [False])
    assert score(game, 0) == max(0, first - 9) >= 0


def three_player_show() -> CribbageGame:
    kept = [["2C", "3C", "4C", "9D"], ["5H", "5D", "5S", "0C"], ["AH", "7S", "8S", "6H"]]
    game, _ = ready(3, kept, starter="KS", rules=MANUAL)
    while game.view(0)["showing"] is None:
        seat = game.to_act()[0]
        game.apply(seat, *game.auto_action(seat))
    return game


def test_every_seat_but_the_callers_must_vote() -> None:
    game = three_player_show()
    assert game.to_act() == [1]
    game.apply(1, "count", [HAND_1 - 2])
    assert game.to_act() == [2, 0]  # both others agree or call
    game.apply(2, "muggins", [HAND_1])
    assert game.to_act() == [0, 1]
    with pytest.raises(Rejection, match="no vote"):
        game.apply(2, "vote", [True])
    events = game.apply(0, "vote", [True])
    assert kinds(events) == [("Vote", 0)]  # one vote is not enough
    assert game.view(0)["muggins"]["votes"] == [[0, True]]
    events = game.apply(1, "vote", [False])
    assert events[1].type == "MugginsResult" and events[1].params[0] is False
    assert game.view(2)["last_show"]["claimed"] == HAND_1 - 2  # the claim stood


def test_muggins_on_a_pegging_claim_by_the_next_player() -> None:
    game, _ = ready(2, KEPT, starter="KS", rules=MANUAL)
    game.apply(1, "play", ["0C", 2])  # nothing to peg, but two claimed
    assert score(game, 1) == 2
    events = game.apply(0, "muggins", [0])
    assert kinds(events) == [("Muggins", 0)]
    with pytest.raises(Rejection):
        game.apply(0, "play", ["9D", 0])  # the vote comes first
    game.apply(1, "vote", [True])
    assert score(game, 1) == 0
    assert game.to_act() == [0] and game.view(0)["claim"] is None
    assert [a["type"] for a in game.legal_actions(0)] == ["play", "pause"]  # settled: nothing to call


def test_a_game_ending_claim_waits_for_the_table() -> None:
    game, _ = ready(2, KEPT, starter="KS", rules=MANUAL, scores=[100, 119])
    game.apply(1, "play", ["5H", 2])  # false: a lead pegs nothing
    assert not game.is_over and game.to_act() == [0]
    assert score(game, 1) == 121
    game.apply(0, "muggins", [0])
    events = game.apply(1, "vote", [True])
    assert not game.is_over and score(game, 1) == 119
    assert kinds(events)[-1] == ("Active", 0)  # the play goes on where it was held


def test_a_true_game_ending_claim_agreed_ends_the_game() -> None:
    game, _ = ready(2, KEPT, starter="KS", rules=MANUAL, scores=[100, 119])
    game.apply(1, "play", ["5H", 0])
    game.apply(0, "play", ["9D", 0])
    events = game.apply(1, "play", ["5D", 0])  # 19: nothing
    game.apply(0, "play", ["2C", 0])  # 21
    events = game.apply(1, "play", ["0C", 2])  # 31 for two: 121
    assert game.to_act() == [0] and not game.is_over
    assert [a["type"] for a in game.legal_actions(0)] == ["agree", "muggins", "pause"]
    events = game.apply(0, "agree", [])
    assert kinds(events) == [("Agreed", 0), ("Settled", 1), ("GameOver", 1)]
    assert game.result()["scores"] == [100, 121]


def test_the_last_cards_claim_is_agreed_before_the_show() -> None:
    game, _ = ready(2, KEPT, starter="KS", rules=MANUAL)
    for seat, card in ((1, "0C"), (0, "9D"), (1, "5H"), (0, "2C"), (1, "5D"), (0, "3C"), (1, "5S")):
        truth = peg_points([*(c for _, c in game.view(seat)["play"]), card])[0]
        game.apply(seat, "play", [card, truth])
    events = game.apply(0, "play", ["4C", 3])  # the run of three; the last card's point is the engine's
    assert kinds(events) == [("Settled", 1), ("Played", 0), ("GoPoint", 0), ("Review", 0)]
    assert game.to_act() == [1] and game.legal_actions(1)[0]["type"] == "agree"
    events = game.apply(1, "agree", [])
    assert kinds(events)[:3] == [("Agreed", 1), ("Settled", 0), ("Show", 1)]


def test_pause_holds_everything_but_unpause() -> None:
    game = CribbageGame(2, 4, MANUAL)
    with pytest.raises(Rejection, match="not started"):
        game.apply(0, "pause", [])
    game.apply(0, "deal", [])
    assert game.to_act() == [0, 1]
    discard = game.auto_action(1)
    assert {"type": "pause"} in game.legal_actions(1)
    events = game.apply(1, "pause", [])
    assert kinds(events) == [("Paused", 1)]
    # Only the seat that paused is waited for (its clock runs, and the server unpauses for it
    # if it has left); every seat may unpause.
    assert game.to_act() == [1]
    assert game.legal_actions(0) == game.legal_actions(1) == [{"type": "unpause", "paused_by": 1}]
    assert game.auto_action(1) == ("unpause", [])
    assert game.view(0)["paused"] is True and game.view(0)["paused_by"] == 1
    with pytest.raises(Rejection, match="paused"):
        game.apply(1, *discard)
    with pytest.raises(Rejection, match="paused"):
        game.apply(0, "pause", [])
    with pytest.raises(Rejection):
        game.apply(0, "unpause", [1])
    events = game.apply(0, "unpause", [])
    assert kinds(events) == [("Unpaused", 0)]
    assert game.to_act() == [0, 1]
    with pytest.raises(Rejection, match="not paused"):
        game.apply(0, "unpause", [])
    game.apply(1, *discard)
    assert game.to_act() == [0]
