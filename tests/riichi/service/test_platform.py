"""Riichi on the platform: registry entry, and bots playing through the lobby and game service."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games.core.registry import get_game_type
from games.models import Game, Status
from games.riichi.engine.replay import replay
from games.riichi.engine.rule import rule
from games.state import replay as state


def test_registry() -> None:
    riichi = get_game_type("riichi")
    assert riichi.playable and riichi.describe()["has_bot"]
    assert riichi.engine_class().game_type == "riichi"
    assert callable(riichi.bot())


@pytest.mark.django_db
def test_playbots_plays_a_riichi_game_with_rules() -> None:
    out = io.StringIO()
    call_command("playbots", "riichi", "--games", "1", "--seed", "2", "--rule", '{"場数": 0}', stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("1 Riichi mahjong games, Four players, seed 2")
    game = Game.objects.get(game_type="riichi")
    assert game.status == Status.FINISHED and game.rules["場数"] == 0
    assert game.actions.order_by("seq").first().type == "kaiju"
    rebuilt = state.replay(game)
    engine = rebuilt.engine
    assert engine.is_over and engine.result() == game.result
    assert sorted(game.result["rank"]) == [1, 2, 3, 4]
    # The stored game's paifu replays through the flow without divergence.
    assert replay(engine.paifu, rule({"場数": 0})) is None


@pytest.mark.django_db
def test_playbots_rejects_bad_rules() -> None:
    with pytest.raises(CommandError, match="--rule"):
        call_command("playbots", "riichi", "--rule", "{nope", stdout=io.StringIO())
