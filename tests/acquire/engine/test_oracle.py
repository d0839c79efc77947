"""Every reference game replays from its review array alone to the reference's results.

The games live in the shared oracle directory next to the repository and are read in place.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games.acquire.engine.review import emit_review, parse_review, replay

ORACLE = Path(__file__).resolve().parents[3] / ".." / "shared" / "oracle" / "acquire" / "games.jsonl"


@cache
def oracle_games() -> list[dict[str, Any]]:
    with ORACLE.resolve().open() as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_oracle_has_100_games() -> None:
    assert len(oracle_games()) == 100


@pytest.mark.parametrize("index", range(100))
def test_reference_game_replays_exactly(index: int) -> None:
    record = oracle_games()[index]
    # Replay from the review alone: the engine decides each action's type itself.
    game = replay(record["review"])
    assert [kind for _, kind, _ in game.action_log] == record["action_types"]
    assert game.is_over
    assert game.end_reason == record["end_reason"]
    outcome = game.result()
    assert outcome["scores"] == record["final_net_dollars"]
    assert outcome["cash"] == record["final_cash_dollars"]
    assert game.to_act() == []


def test_replay_cross_checks_action_types() -> None:
    record = oracle_games()[0]
    replay(record["review"], record["action_types"])
    wrong = list(record["action_types"])
    wrong[1] = "SelectNewChain"
    with pytest.raises(ValueError, match="action 1"):
        replay(record["review"], wrong)


def test_review_arrays_round_trip() -> None:
    for record in oracle_games():
        assert emit_review(parse_review(record["review"])) == record["review"]


def test_team_games_total_team_scores() -> None:
    for record in oracle_games():
        mode = record["review"][0]
        if mode < 7:
            continue
        teams = {7: 2, 8: 3, 9: 2}[mode]
        outcome = replay(record["review"]).result()
        expected = [sum(record["final_net_dollars"][t::teams]) for t in range(teams)]
        assert [team["score"] for team in outcome["teams"]] == expected
