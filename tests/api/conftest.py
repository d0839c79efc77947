"""Fixtures for the REST API tests: API clients, tables and started games.

Started games come in two flavours: ``stub`` (tests/api/stub_engine.py, always available, with
a secret per seat so visibility can be checked exactly) and ``acquire`` (the real engine; the
tests are skipped while games/acquire/engine/game.py does not exist yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.tokens import token_for
from games.core.engine import Mode
from games.core.registry import GAME_TYPES, GameType
from games.models import Game, Status
from games.service import lobby

STUB = GameType("stub", "Stub game", (Mode(2, "Two players", 2),), "tests.api.stub_engine:StubGame")


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    # Users are created in nearly every test; the production hasher would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def stub_type(monkeypatch: pytest.MonkeyPatch) -> GameType:
    monkeypatch.setitem(GAME_TYPES, STUB.key, STUB)
    return STUB


@pytest.fixture
def api() -> APIClient:
    """An anonymous client."""
    return APIClient()


@pytest.fixture
def client_for():
    """A token-authenticated client for ``user``."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
        return client

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def table(alice) -> Game:
    """An Acquire table for two, hosted by alice, being set up."""
    return lobby.create_table(alice, "acquire", 2)


@dataclass
class Live:
    game: Game
    players: list[Any]  # users in seat (position) order
    kind: str

    def refresh(self) -> Game:
        self.game.refresh_from_db()
        return self.game

    def user_at(self, position: int) -> Any:
        return self.players[position]


def start_game(kind: str, host: Any, guest: Any) -> Live:
    game = lobby.create_table(host, kind, 2)
    lobby.join(guest, game.id)
    lobby.accept(host, game.id)
    lobby.accept(guest, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    seats = list(game.seats.select_related("user").order_by("position"))
    return Live(game, [s.user for s in seats], kind)


@pytest.fixture(params=["stub", "acquire"])
def live(request: pytest.FixtureRequest, alice, bob, monkeypatch: pytest.MonkeyPatch) -> Live:
    """A started two-player game, with the stub engine and with the real Acquire engine."""
    if request.param == "stub":
        monkeypatch.setitem(GAME_TYPES, STUB.key, STUB)
    return start_game(request.param, alice, bob)


@pytest.fixture
def stub_live(alice, bob, stub_type) -> Live:
    return start_game("stub", alice, bob)


def state(game: Game) -> dict[str, Any]:
    """What a refused request must leave untouched."""
    game.refresh_from_db()
    return {
        "status": game.status, "seq": game.seq, "history_size": game.history_size, "mode": game.mode,
        "arrangement": game.arrangement, "host": game.host_id, "version": game.setup_version,
        "seats": list(game.seats.order_by("id").values_list("user_id", "slot", "position", "accepted",
                                                              "forfeited")),
        "actions": game.actions.count(), "chat": game.chat.count(),
    }


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, getattr(response, "content", b"")[:500])
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["reason"], str) and body["reason"]
    return body
