"""The fuzz suite generates every field each request accepts, on both transports.

Which fields a request accepts is read off the very function both the lobby consumer and the REST
serializer call (games/core/validation.py): it is run on a valid request that records every key it
looks up. A field added there and not to the fuzz strategies (or to the REST schema) fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from games.api import serializers
from games.api.play_now_views import PlayNowSerializer
from games.core import validation
from tests.fuzz import strategies

# rule: (lobby message, REST route name, REST serializer, a request the rule accepts)
REQUESTS: dict[Callable[..., Any], tuple[str, str, type[serializers.RuleSerializer], dict[str, Any]]] = {
    validation.create_game: ("CreateGame", "api-games", serializers.CreateGameSerializer, {"mode": 2}),
    validation.accept: ("AcceptSetup", "api-game-accept", serializers.AcceptSerializer, {}),
    validation.change_mode: ("ChangeMode", "api-game-mode", serializers.ModeChangeSerializer, {"mode": 2}),
    validation.change_arrangement: ("ChangeArrangement", "api-game-arrangement", serializers.ArrangementSerializer,
                                    {"arrangement": 1}),
    validation.kick: ("Kick", "api-game-kick", serializers.KickSerializer, {"user": 1}),
    validation.game_action: ("DoGameAction", "api-game-moves", serializers.MoveSerializer, {"action": "x"}),
    validation.chat: ("Chat", "api-game-chat", serializers.ChatPostSerializer, {"text": "x"}),
    validation.add_bot: ("AddBot", "api-game-add-bot", serializers.AddBotSerializer, {}),
    validation.play_now: ("PlayNow", "api-play-now", PlayNowSerializer, {"game_type": "riichi"}),
}


class Recording(dict):
    """A request that notes every field read from it."""

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def accepted(rule: Callable[..., Any], valid: dict[str, Any]) -> set[str]:
    request = Recording(valid)
    rule(request)  # a refusal here: the valid request above no longer is one
    assert request.read, f"{rule.__name__} read no field"
    return request.read


def test_every_request_the_rest_api_reads_by_a_rule_is_listed():
    listed = {serializer for _, _, serializer, _ in REQUESTS.values()}
    assert set(serializers.RuleSerializer.__subclasses__()) <= listed
    assert all(serializer.rule in REQUESTS for serializer in listed)


@pytest.mark.parametrize("rule", list(REQUESTS), ids=lambda rule: rule.__name__)
def test_every_accepted_field_is_generated_on_both_transports(rule):
    message, route, serializer, valid = REQUESTS[rule]
    fields = accepted(rule, valid)
    assert serializer.rule is rule
    assert not fields - set(serializer().fields), "the REST schema does not describe these"
    assert not fields - set(strategies.MESSAGES[message]), f"{message}: the lobby fuzz does not send these"
    assert not fields - set(strategies.REST_FIELDS[route]), f"{route}: the REST fuzz does not send these"
    assert not fields - set(strategies.LOBBY_FIELDS), "no strategy generates these"


def test_the_create_game_strategy_sets_every_field():
    """``create_game`` (the CreateGame that makes sense up to its rules) carries each field too."""
    seen: set[str] = set()

    @given(strategies.create_game)
    @settings(max_examples=60, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    def draw(table: dict[str, Any]) -> None:
        seen.update(table)

    draw()
    assert not accepted(validation.create_game, {"mode": 2}) - seen, "never set by strategies.create_game"
