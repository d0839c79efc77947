"""The turn-signal preferences on /api/me/preferences/ (accounts/preferences.py): the defaults
without a stored row, partial changes, strict validation that changes nothing, no access without a
login, and the table page drawn with them."""

from __future__ import annotations

import pytest
from django.utils.crypto import get_random_string
from rest_framework.test import APIClient

from accounts.models import Preferences
from accounts.tokens import token_for
from games.service import lobby

pytestmark = pytest.mark.django_db

URL = "/api/me/preferences/"
DEFAULTS = {"turn_title": True, "turn_notification": False, "turn_sound": True}


@pytest.fixture
def alice(make_user):
    return make_user("alice")


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def stored(user) -> dict[str, bool] | None:
    row = Preferences.objects.filter(user=user).values("turn_title", "turn_notification", "turn_sound").first()
    return dict(row) if row else None


def test_defaults_without_a_row(alice):
    response = client_for(alice).get(URL)
    assert response.status_code == 200
    assert response.json() == DEFAULTS
    # Reading writes nothing.
    assert stored(alice) is None


def test_change_some_and_keep_the_others(alice, make_user):
    client = client_for(alice)
    response = client.patch(URL, {"turn_sound": False}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json() == {**DEFAULTS, "turn_sound": False}
    assert stored(alice) == {**DEFAULTS, "turn_sound": False}

    response = client.patch(URL, {"turn_title": False, "turn_notification": True}, format="json")
    assert response.json() == {"turn_title": False, "turn_notification": True, "turn_sound": False}
    assert client.get(URL).json() == {"turn_title": False, "turn_notification": True, "turn_sound": False}

    # Back on again, and another user is untouched by any of it.
    assert client.patch(URL, {"turn_sound": True}, format="json").json()["turn_sound"] is True
    bob = make_user("bob")
    assert client_for(bob).get(URL).json() == DEFAULTS


def test_empty_change_answers_the_current_preferences(alice):
    client = client_for(alice)
    client.patch(URL, {"turn_title": False}, format="json")
    response = client.patch(URL, {}, format="json")
    assert response.status_code == 200
    assert response.json() == {**DEFAULTS, "turn_title": False}


@pytest.mark.parametrize(("body", "field", "reason"), [
    ({"turn_title": "false"}, "turn_title", "turn_title: 'turn_title' must be true or false"),
    ({"turn_title": 0}, "turn_title", "turn_title: 'turn_title' must be true or false"),
    ({"turn_sound": None}, "turn_sound", "turn_sound: This field may not be null."),
    ({"turn_notification": [True]}, "turn_notification",
     "turn_notification: 'turn_notification' must be true or false"),
    # A misspelt name is refused, with the valid ones changing nothing either.
    ({"turn_title": False, "turn_sond": False}, "turn_sond",
     "turn_sond: unknown preference; known: turn_title, turn_notification, turn_sound"),
])
@pytest.mark.parametrize("has_row", [False, True])
def test_invalid_changes_are_refused_and_change_nothing(alice, body, field, reason, has_row):
    client = client_for(alice)
    before = {"turn_title": True, "turn_notification": True, "turn_sound": False}
    if has_row:
        client.patch(URL, before, format="json")
    response = client.patch(URL, body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "InvalidRequest"
    assert error["reason"] == reason
    assert list(error["errors"]) == [field]
    assert stored(alice) == (before if has_row else None)


def test_a_body_that_is_not_an_object_is_refused(alice):
    response = client_for(alice).patch(URL, [True], format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "InvalidRequest"
    assert "Expected a dictionary" in response.json()["reason"]
    assert stored(alice) is None


def test_anonymous_is_refused(alice):
    anonymous = APIClient()
    for response in (anonymous.get(URL), anonymous.patch(URL, {"turn_title": False}, format="json")):
        assert response.status_code == 401
        assert response.json()["code"] == "NotAuthenticated"
    assert not Preferences.objects.exists()


def test_only_get_and_patch(alice):
    response = client_for(alice).put(URL, DEFAULTS, format="json")
    assert response.status_code == 405
    assert response.json()["code"] == "MethodNotAllowed"


def test_session_change_needs_the_csrf_token(alice):
    # What the table page does: its session cookie and the form's CSRF token.
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    refused = client.patch(URL, {"turn_sound": False}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "CsrfFailed"
    assert stored(alice) is None
    secret = get_random_string(32)
    client.cookies["csrftoken"] = secret
    response = client.patch(URL, {"turn_sound": False}, format="json", HTTP_X_CSRFTOKEN=secret)
    assert response.status_code == 200
    assert stored(alice) == {**DEFAULTS, "turn_sound": False}


def test_the_table_page_is_drawn_with_the_preferences(alice, client):
    game = lobby.create_table(alice, "acquire", 2)
    client_for(alice).patch(URL, {"turn_title": False, "turn_notification": True}, format="json")
    client.force_login(alice)
    page = client.get(f"/games/{game.id}/").content.decode()
    assert ('<script id="turn-signal-preferences" type="application/json">'
            '{"turn_title": false, "turn_notification": true, "turn_sound": true}</script>') in page
    assert 'name="turn_title" data-testid="signal-turn_title">' in page
    assert 'name="turn_notification" data-testid="signal-turn_notification" checked>' in page
    # A visitor who is not logged in has no turn, and gets no menu.
    client.logout()
    assert "turn-signal-preferences" not in client.get(f"/games/{game.id}/").content.decode()
