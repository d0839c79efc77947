"""Records of whole bot games (2, 3 and 4 players; automatic and manual counting with muggins):
they verify, and every field agrees with the engine and with arithmetic done here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.cribbage.engine import CribbageGame
from games.cribbage.records.record import DEALS_FROM_SEED, FORMAT, VERSION, build_record
from games.cribbage.records.record_check import replay_record, verify_record
from tests.cribbage.records.checks import check_all
from tests.cribbage.records.players import NAMES, play_game, record_of

RULES = {
    "auto": {},
    "manual": {"counting": "manual"},
    "manual D": {"counting": "manual", "variants": "D"},
    "manual N": {"counting": "manual", "variants": "N"},
}


def round_trip(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a file holds it: JSON text, read back."""
    return json.loads(json.dumps(record))


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("rules", list(RULES))
def test_a_bot_game_record_verifies_and_matches_the_engine(mode: int, rules: str) -> None:
    for seed in (3, 8):
        game = play_game(mode, seed, RULES[rules], sloppy={0: 0.25})
        record = round_trip(record_of(game))
        assert record["format"] == FORMAT and record["version"] == VERSION
        assert record["game"] == {"type": "cribbage", "mode": mode, "seed": seed, "deals_from": DEALS_FROM_SEED,
                                  "start_scores": [0] * mode}
        assert record["players"] == [{"seat": s, "name": NAMES[s], "team": s % 2 if mode == 4 else None}
                                     for s in range(mode)]
        assert record["rules"]["muggins"] is (rules != "auto") and record["rules"]["teams"] is (mode == 4)
        check_all(game, record)
        assert verify_record(record) == []


def test_manual_games_record_muggins_of_every_outcome() -> None:
    """The sloppy player makes the bots call muggins, and calls some itself: calls that pass,
    calls that fail, on claims in the play and in the show, all recorded and verified."""
    outcomes = set()
    for mode in (2, 3):
        game = play_game(mode, 11, RULES["manual D"], sloppy={0: 0.3})
        record = round_trip(record_of(game))
        for deal in record["deals"]:
            for entry in [*deal["pegging"], *deal["shows"]]:
                if entry.get("muggins"):
                    outcomes.add((entry.get("what", "play"), entry["muggins"]["passed"]))
        check_all(game, record)
        assert verify_record(record) == []
    assert {("play", True), ("play", False), ("hand", True), ("hand", False)} <= outcomes


def test_the_record_is_deterministic() -> None:
    game = play_game(3, 5, RULES["manual"], sloppy={1: 0.2})
    first = json.dumps(record_of(game))
    assert json.dumps(record_of(play_game(3, 5, RULES["manual"], sloppy={1: 0.2}))) == first
    assert json.dumps(record_of(game)) == first


def test_the_replay_ends_where_the_game_ended() -> None:
    game = play_game(2, 4, RULES["manual N"], sloppy={1: 0.2})
    replayed = replay_record(round_trip(record_of(game)))
    assert replayed.refusal is None
    assert replayed.engine.result() == game.result()
    table, again = game.view(None, reveal_all=True), replayed.engine.view(None, reveal_all=True)
    # The record keeps no order for the cards never dealt nor cut: the rest of the deck differs.
    assert {**again, "deck": None} == {**table, "deck": None} and sorted(again["deck"]) == sorted(table["deck"])


def test_build_record_wants_a_fresh_engine_and_a_name_per_seat() -> None:
    game = play_game(2, 1, {})
    with pytest.raises(ValueError, match="fresh engine"):
        build_record(game, game.action_log, NAMES[:2])
    with pytest.raises(ValueError, match="3 player names for 2 seats"):
        build_record(CribbageGame(2, 1, game.rules.as_dict()), game.action_log, NAMES[:3])


def test_an_unfinished_game_has_a_record_too() -> None:
    game = CribbageGame(3, 9, {"counting": "manual"})
    game.apply(0, "deal", [])
    for _ in range(20):
        seat = game.to_act()[0]
        game.apply(seat, *game.auto_action(seat))
    record = round_trip(record_of(game))
    assert record["result"]["finished"] is False and record["result"]["winner"] is None
    assert verify_record(record) == []


def test_pauses_leave_no_trace() -> None:
    """A pause changes nothing in the game, so the record leaves it out and still replays."""
    game = play_game(2, 6, {})
    log = game.action_log
    paused = [log[0], (1, "pause", []), (0, "unpause", []), *log[1:]]
    fresh = CribbageGame(2, 6, game.rules.as_dict())
    record = round_trip(build_record(fresh, paused, NAMES[:2]))
    assert record == round_trip(record_of(game))
    assert verify_record(record) == []
