"""Table chat: listing and posting; the length and content rules are the chat service's."""

from __future__ import annotations

import json

import pytest

from games.models import ChatMessage
from games.service import chat as table_chat
from tests.api.conftest import assert_error, state

pytestmark = pytest.mark.django_db


def chat(game_id: int) -> str:
    return f"/api/games/{game_id}/chat/"


def test_post_and_list(table, alice, bob, api, client_for):
    response = client_for(bob).post(chat(table.id), {"text": "hello"}, format="json")
    assert response.status_code == 201, response.json()
    posted = response.json()
    assert (posted["type"], posted["game"], posted["user"], posted["username"], posted["text"]) == (
        "Chat", table.id, bob.id, "bob", "hello")
    table_chat.post_chat(alice, table.id, "hi bob")
    table_chat.post_chat(alice, None, "lobby chat is not listed")
    listed = api.get(chat(table.id)).json()
    assert listed["count"] == 2
    assert [(m["username"], m["text"]) for m in listed["results"]] == [("bob", "hello"), ("alice", "hi bob")]
    assert listed["results"][0]["id"] == posted["id"]


def test_chat_is_paginated(table, alice, api):
    for n in range(5):
        table_chat.post_chat(alice, table.id, f"message {n}")
    page = api.get(chat(table.id), {"page_size": 2, "page": 3}).json()
    assert page["count"] == 5 and [m["text"] for m in page["results"]] == ["message 4"]


def test_exactly_500_characters_is_accepted(table, alice, client_for):
    assert client_for(alice).post(chat(table.id), {"text": "x" * 500}, format="json").status_code == 201


def test_over_long_chat_is_400_and_not_stored(table, alice, client_for):
    before = state(table)
    assert_error(client_for(alice).post(chat(table.id), {"text": "x" * 501}, format="json"), 400, "ChatTooLong")
    assert state(table) == before
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("text", ["", "   "])
def test_blank_chat_is_400(table, alice, client_for, text):
    assert_error(client_for(alice).post(chat(table.id), {"text": text}, format="json"), 400, "InvalidChat")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(("raw", "code"), [
    ('{"text": "\\ud800"}', "ParseError"), ('{"text": "a\\u0000b"}', "ParseError"),  # no body may carry them
    # No text is the WebSocket's Chat without text.
    ('{}', "InvalidChat"), ('{"text": null}', "InvalidChat"), ('{"text": 5}', "InvalidChat"),
])
def test_malformed_chat_is_400(table, alice, client_for, raw, code):
    response = client_for(alice).post(chat(table.id), raw, content_type="application/json")
    assert_error(response, 400, code)
    assert not ChatMessage.objects.exists()


def test_chat_unknown_game_is_404(alice, api, client_for):
    assert_error(api.get(chat(999)), 404, "UnknownGame")
    assert_error(client_for(alice).post(chat(999), {"text": "hi"}, format="json"), 404, "UnknownGame")
    assert not ChatMessage.objects.exists()


def test_anonymous_cannot_chat(table, api):
    assert_error(api.post(chat(table.id), json.dumps({"text": "hi"}), content_type="application/json"),
                 401, "NotAuthenticated")
    assert not ChatMessage.objects.exists()
