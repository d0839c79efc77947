"""Records of games dealt by hand (``with_hands``): known counts, his heels, the mode-3 crib card,
a muggins with known numbers, and a puzzle's starting scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.cribbage.engine import CribbageGame
from games.cribbage.records.record import DEALS_FROM_RECORD, build_record
from games.cribbage.records.record_check import verify_record
from tests.cribbage.records.checks import check_items, check_pegging, check_totals

# Seat 1 (the first to show, seat 0 dealing) keeps 5H 5S 5D JC; the starter 5C makes it 29.
HAND_29 = [["AC", "2D", "3S", "7H", "8C", "9H"], ["5H", "5S", "5D", "JC", "KD", "QS"]]


def finish(game: CribbageGame) -> CribbageGame:
    """Play on to the end with the engine's automatic answers."""
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, *game.auto_action(seat))
    return game


def to_the_first_show(game: CribbageGame) -> CribbageGame:
    """Manual counting: play on until the first hand is turned up, waiting for its count."""
    while game.view(0)["showing"] is None:
        seat = game.to_act()[0]
        game.apply(seat, *game.auto_action(seat))
    return game


def hand_dealt(**options: Any) -> tuple[CribbageGame, CribbageGame]:
    """The game to play and an identical fresh one to record it from."""
    return CribbageGame.with_hands(**options), CribbageGame.with_hands(**options)


def recorded(game: CribbageGame, fresh: CribbageGame) -> dict[str, Any]:
    names = ["north", "east", "south", "west"][:game.seats]
    record = json.loads(json.dumps(build_record(fresh, game.action_log, names)))
    assert verify_record(record) == []
    return record


def test_five_fives_and_nobs_is_twenty_nine() -> None:
    setup = {"mode": 2, "hands": HAND_29, "starter": "5C", "scores": [90, 90], "rules": {"first_dealer": 0}, "seed": 5}
    game, fresh = hand_dealt(**setup)
    game.apply(0, "deal", [])
    game.apply(1, "discard", ["KD", "QS"])
    record = recorded(finish(game), fresh)
    deal = record["deals"][0]
    assert deal["kept"][1] == ["5H", "5S", "5D", "JC"] and deal["starter"] == "5C"
    show = deal["shows"][0]
    assert (show["seat"], show["what"], show["points"], show["claimed"], show["scored"]) == (1, "hand", 29, 29, 29)
    names = [item["name"] for item in show["items"]]
    assert names == ["fifteen"] * 8 + ["double pair royal", "nobs"]
    assert show["items"][-1]["cards"] == ["JC"]
    check_items(show["items"], 29)
    assert show["said"].startswith("fifteen two, fifteen four") and show["said"].endswith("is twenty-nine")
    # 90 plus what seat 1 pegged plus 29 passes 121 at its show: nothing after it is counted.
    assert len(deal["shows"]) == 1 and record["result"]["ended_during"] == "show"
    assert record["result"]["winner"] == 1 and record["game"]["start_scores"] == [90, 90]
    assert record["game"]["deals_from"] == DEALS_FROM_RECORD  # not the seed's shuffle
    check_totals(record)


def test_his_heels_can_win_at_the_cut() -> None:
    hands = [["AC", "2D", "3S", "7H", "8C", "9H"], ["5H", "5S", "5D", "4C", "KD", "QS"]]
    game, fresh = hand_dealt(mode=2, hands=hands, starter="JD", scores=[119, 50], rules={"first_dealer": 0})
    record = recorded(finish(game), fresh)
    deal = record["deals"][0]
    assert deal["his_heels"] == 2 and deal["pegging"] == [] and deal["shows"] == []
    result = record["result"]
    assert (result["winner"], result["scores"], result["ended_during"]) == (0, [121, 50], "cut")
    assert (result["margin"], result["skunk"]) == (71, "double skunk")
    assert result["sides"][0]["his_heels"] == 2 and result["sides"][0]["total"] == 121


def test_three_players_record_the_crib_card_from_the_deck() -> None:
    hands = [["AC", "2D", "3S", "7H", "8C"], ["5H", "5S", "5D", "4C", "KD"], ["6H", "6S", "9D", "0C", "QH"]]
    game, fresh = hand_dealt(mode=3, hands=hands, starter="2H", crib_card="7S", rules={"first_dealer": 2})
    record = recorded(finish(game), fresh)
    deal = record["deals"][0]
    assert deal["dealer"] == 2 and deal["crib_card"] == "7S" and deal["crib"][0] == "7S"
    assert deal["crib"] == ["7S", *deal["discards"][0], *deal["discards"][1], *deal["discards"][2]]
    assert record["deals"][1]["dealer"] == 0  # the deal passes left
    check_pegging(record)


def test_a_muggins_with_known_numbers() -> None:
    rules = {"counting": "manual", "variants": "", "first_dealer": 0}
    game, fresh = hand_dealt(mode=2, hands=HAND_29, starter="5C", rules=rules)
    game.apply(0, "deal", [])
    game.apply(1, "discard", ["KD", "QS"])
    to_the_first_show(game).apply(1, "count", [27])
    game.apply(0, "agree", [])
    record = recorded(finish(game), fresh)
    show = record["deals"][0]["shows"][0]
    # Agreed to as claimed: the two points are lost for good, but the truth is told.
    assert (show["claimed"], show["points"], show["scored"], show["muggins"]) == (27, 29, 27, None)
    # Seat 0 calls muggins, stating 29, and seat 1 votes that it is right.
    game, fresh = hand_dealt(mode=2, hands=HAND_29, starter="5C", rules=rules)
    game.apply(0, "deal", [])
    game.apply(1, "discard", ["KD", "QS"])
    to_the_first_show(game)
    before = game.result()["scores"]
    game.apply(1, "count", [27])
    game.apply(0, "muggins", [29])
    game.apply(1, "vote", [True])
    show = recorded(finish(game), fresh)["deals"][0]["shows"][0]
    assert (show["claimed"], show["points"], show["scored"]) == (27, 29, 29)
    assert show["muggins"] == {"caller": 0, "stated": 29, "votes": [[1, True]], "passed": True, "to_claimer": 2,
                               "to_caller": 2, "claimer_score": before[1] + 29, "caller_score": before[0] + 2}


def test_the_documented_example_is_what_build_record_writes() -> None:
    """docs/records-cribbage.md's example is this game's record, and it verifies."""
    text = (Path(__file__).resolve().parents[3] / "docs" / "records-cribbage.md").read_text()
    documented = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    setup = {"mode": 2, "hands": [["AC", "2D", "3S", "7H", "8C", "9H"], HAND_29[1]], "starter": "5C",
             "scores": [100, 96], "rules": {"counting": "manual", "first_dealer": 0}, "seed": 7}
    game, fresh = hand_dealt(**setup)
    game.apply(0, "deal", [])
    game.apply(0, "discard", ["8C", "9H"])
    game.apply(1, "discard", ["KD", "QS"])
    to_the_first_show(game).apply(1, "count", [27])
    game.apply(0, "muggins", [29])
    game.apply(1, "vote", [True])
    assert game.is_over
    made = json.loads(json.dumps(build_record(fresh, game.action_log, ["ann", "bob"])))
    assert documented == made
    assert verify_record(documented) == []
