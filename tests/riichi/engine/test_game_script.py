"""The 37 scripted games of Majiang's test data (script.json): every edge case of the flow.

Each paifu must replay record for record (``replay``), our flow fed the same walls and decisions
must write the identical paifu (``regenerate``), and so must the platform table
(``RiichiGame``) when every decision is played as a legal action.
"""

from __future__ import annotations

import pytest

from games.riichi.engine.replay import regenerate, replay
from games.riichi.engine.rule import rule
from tests.riichi.engine.oracle import script_games
from tests.riichi.engine.scripted import play_on_table

RULE = rule({"順位点": ["20", "10", "-10", "-20"]})
GAMES = script_games()
IDS = [g["title"].split(" (")[0] for g in GAMES]


def test_there_are_37_games() -> None:
    assert len(GAMES) == 37


@pytest.mark.parametrize("index", range(len(GAMES)), ids=IDS)
def test_replays_without_divergence(index: int) -> None:
    assert replay(GAMES[index], RULE) is None


@pytest.mark.parametrize("index", range(len(GAMES)), ids=IDS)
def test_flow_writes_the_identical_paifu(index: int) -> None:
    assert regenerate(GAMES[index], RULE) == GAMES[index]


@pytest.mark.parametrize("index", range(len(GAMES)), ids=IDS)
def test_table_plays_the_identical_paifu(index: int) -> None:
    table = play_on_table(GAMES[index], RULE)
    assert table.is_over
    assert table.paifu == GAMES[index]
    result = table.result()
    assert result["defen"] == GAMES[index]["defen"]
    assert result["rank"] == GAMES[index]["rank"]
    assert result["point"] == GAMES[index]["point"]
