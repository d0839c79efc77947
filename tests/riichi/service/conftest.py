"""Riichi tables on the platform, dealt from stacked walls.

``scripted`` makes every riichi game the service builds deal ``HANDS`` in its first hand (first
dealer: position 0) and random walls after, so a test knows who may call, win or not: the
lobby, the consumers and the service run as they do for any table; only the walls are chosen.

The first hand, position 0 dealing:

- 0 (dealer) ``p1368s1368m6z1234``, draws ``m2``: its only sensible move is ``m2_``;
- 1 ``m345p234567s2345``: may chi ``m2-34`` on it, after which ``m5`` is kuikae (forbidden);
- 2 ``m13p456s789s123z11``: ``m2`` completes the hand but it has no yaku (hule not allowed);
- 3 ``m34p234567s23455``: may ron ``m2`` (tanyao, pinfu).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from games.riichi.engine import presets
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.table import PLATFORM_RULES, RiichiGame
from games.service import lobby
from games.state import replay as state
from tests.riichi.engine.flowkit import random_wall, wall

HANDS = ["p1368s1368m6z1234", "m345p234567s2345", "m13p456s789s123z11", "m34p234567s23455"]
FIRST_DRAWS = "m2"


def scripted_engine(game: Game) -> Any:
    """The engine ``state.new_engine`` would build for ``game``, over the stacked walls."""
    if game.game_type != "riichi":
        return _real_new_engine(game)
    overrides = presets.expand({k: v for k, v in game.rules.items() if k not in PLATFORM_RULES or k == "preset"})
    rule = make_rule(overrides)
    walls = [wall(rule, HANDS, FIRST_DRAWS)] + [random_wall(rule, seed) for seed in range(1, 20)]
    engine = RiichiGame.from_walls(walls, rule=rule, qijia=0)
    engine.host = game.rules.get("host_seat", 0)
    engine.preset = presets.preset_name(game.rules)
    return engine


_real_new_engine = state.new_engine


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(state, "new_engine", scripted_engine)


@pytest.fixture
def riichi_table(make_user):
    """``open(rules=..., time_control=...)``: a started riichi game of four new users, and its
    users by position."""

    def open_table(**options: Any) -> tuple[Game, dict[int, Any]]:
        users = [make_user() for _ in range(4)]
        game = lobby.create_table(users[0], "riichi", 4, **options)
        for user in users[1:]:
            lobby.join(user, game.id)
        for user in users:
            lobby.accept(user, game.id)
        game.refresh_from_db()
        assert game.status == "active"
        return game, {s.position: s.user for s in game.seats.select_related("user")}

    return open_table

