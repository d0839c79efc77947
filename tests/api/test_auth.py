"""Authentication: API tokens, sessions with CSRF, anonymous read-only access, /api/me/."""

from __future__ import annotations

import pytest
from django.utils.crypto import get_random_string
from rest_framework.test import APIClient

from accounts.tokens import token_for
from games.models import Game
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

CREATE = {"game_type": "acquire", "mode": 2}


@pytest.mark.parametrize("path", ["/api/game-types/", "/api/games/", "/api/games/export/"])
def test_anonymous_may_read(api, path):
    assert api.get(path).status_code == 200


def test_anonymous_may_not_write(api):
    response = api.post("/api/games/", CREATE, format="json")
    assert_error(response, 401, "NotAuthenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert not Game.objects.exists()


def test_token_auth(alice):
    client = APIClient()
    response = client.post("/api/games/", CREATE, format="json", HTTP_AUTHORIZATION=f"Token {token_for(alice)}")
    assert response.status_code == 201
    assert Game.objects.get().host == alice


@pytest.mark.parametrize("header", ["Token nope", "Token", "Token a b"])
def test_bad_token_is_401(header):
    response = APIClient().post("/api/games/", CREATE, format="json", HTTP_AUTHORIZATION=header)
    assert_error(response, 401, "AuthenticationFailed")
    assert not Game.objects.exists()


def test_token_of_inactive_user_is_401(alice):
    key = token_for(alice)
    alice.is_active = False
    alice.save()
    response = APIClient().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}")
    assert_error(response, 401, "AuthenticationFailed")


@pytest.fixture
def session(alice) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def test_session_write_without_csrf_is_refused(session):
    response = session.post("/api/games/", CREATE, format="json")
    assert_error(response, 403, "CsrfFailed")
    assert not Game.objects.exists()


def test_session_write_with_wrong_csrf_is_refused(session):
    session.cookies["csrftoken"] = get_random_string(32)
    response = session.post("/api/games/", CREATE, format="json", HTTP_X_CSRFTOKEN=get_random_string(32))
    assert_error(response, 403, "CsrfFailed")
    assert not Game.objects.exists()


def test_session_write_with_csrf(session, alice):
    secret = get_random_string(32)
    session.cookies["csrftoken"] = secret
    response = session.post("/api/games/", CREATE, format="json", HTTP_X_CSRFTOKEN=secret)
    assert response.status_code == 201, response.json()
    assert Game.objects.get().host == alice


def test_session_reads_need_no_csrf(session, alice):
    assert session.get("/api/me/").json()["username"] == "alice"


def test_token_writes_need_no_csrf(alice):
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(alice)}")
    assert client.post("/api/games/", CREATE, format="json").status_code == 201


def test_me(alice, client_for):
    body = client_for(alice).get("/api/me/").json()
    assert body == {"id": alice.id, "username": "alice"}


def test_me_neither_shows_nor_makes_a_token(session, alice):
    # A key is shown once, on the token page when it is made; none can be read back.
    from accounts.models import ApiToken

    assert session.get("/api/me/").json() == {"id": alice.id, "username": "alice"}
    assert not ApiToken.objects.filter(user=alice).exists()


def test_me_anonymous_is_401(api):
    assert_error(api.get("/api/me/"), 401, "NotAuthenticated")


def test_method_not_allowed_has_the_error_shape(alice, client_for):
    assert_error(client_for(alice).delete("/api/games/"), 405, "MethodNotAllowed")
