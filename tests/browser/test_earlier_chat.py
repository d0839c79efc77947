"""Someone arriving sees the chat said before they came: the lobby draws Greetings' `chat`, the
game page draws Snapshot's `chat`, oldest first, and a reconnect or a reload never shows a
message twice."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.pages import open_page, server_database, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Keeps every WebSocket the page opens and the types of the messages each received, so a test
# can drop the connection (the page then reconnects by itself) and wait for what comes back.
_TRACK_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.__received = [];
      window.__sockets.push(this);
      this.addEventListener("message", (event) => {
        try { this.__received.push(JSON.parse(event.data).type); } catch { /* not JSON */ }
      });
    }
  };
})();"""

# The newest socket is open and has received a message of this type.
_RECEIVED = """([count, type]) => {
  const sockets = window.__sockets || [];
  const ws = sockets[sockets.length - 1];
  return sockets.length === count && ws.readyState === WebSocket.OPEN && ws.__received.includes(type);
}"""


def post_earlier_chat():
    """Alice and Bob chat in the lobby and at their Acquire table before anyone else arrives.

    In a thread of its own: the services announce what they did with ``async_to_sync``, which
    refuses to run in the test's thread, where Playwright's event loop is running.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_post_earlier_chat).result()


def _post_earlier_chat():
    from django.contrib.auth import get_user_model

    from games.service import chat as table_chat
    from games.service import lobby

    with server_database():
        users = get_user_model().objects
        alice = users.create_user(username="alice", password="secret-pw")
        bob = users.create_user(username="bob", password="secret-pw")
        game = lobby.create_table(alice, "acquire", 2)
        lobby.join(bob, game.id)
        lobby.accept(alice, game.id)
        lobby.accept(bob, game.id)
        lobby_lines = [
            (alice, "anyone for Acquire?"),
            (bob, "<b>me</b> & my brass"),
            (alice, "table is up, join me"),
        ]
        table_lines = [
            (alice, "good luck"),
            (bob, "<script>alert(1)</script> you too"),
            (alice, "nice merger"),
        ]
        for user, text in lobby_lines:
            table_chat.post_chat(user, None, text)
        for user, text in table_lines:
            table_chat.post_chat(user, game.id, text)
        return game.id, [t for _, t in lobby_lines], [t for _, t in table_lines], [u.username for u, _ in table_lines]


def drop_connection(page, sockets_before: int, wait_for: str) -> None:
    """Close the page's socket as a network failure would; wait until it is back and got ``wait_for``."""
    page.evaluate("window.__sockets[window.__sockets.length - 1].close()")
    page.wait_for_function(_RECEIVED, arg=[sockets_before + 1, wait_for])


def test_lobby_shows_earlier_chat_in_order_once(live_server_url, browser):
    from playwright.sync_api import expect

    _game_id, lobby_texts, _table_texts, _authors = post_earlier_chat()
    errors: list[str] = []
    carol = open_page(browser, errors)
    carol.context.add_init_script(_TRACK_SOCKETS)
    sign_up(carol, live_server_url, "carol")  # lands on the lobby

    chat = carol.get_by_test_id("chat-list")
    lines = chat.locator(".chat-line__text")
    expect(lines).to_have_text(lobby_texts)
    expect(chat.locator(".chat-line__user")).to_have_text(["alice", "bob", "alice"])
    # User text is text: no element came out of "<b>me</b>".
    expect(chat.locator("b")).to_have_count(0)
    # The table's chat stays at the table.
    expect(chat).not_to_contain_text("good luck")

    # A reconnect brings Greetings (and its chat) again: nothing is drawn twice.
    carol.wait_for_function(_RECEIVED, arg=[1, "Greetings"])
    drop_connection(carol, 1, "Greetings")
    expect(carol.get_by_test_id("connection-status")).to_have_text("Live")
    carol.get_by_test_id("chat-input").fill("hello all")
    carol.get_by_test_id("chat-input").press("Enter")
    expect(lines).to_have_text([*lobby_texts, "hello all"])

    # So does a reload, with the live line now among the earlier ones.
    carol.reload()
    carol.wait_for_function(_RECEIVED, arg=[1, "Greetings"])
    expect(lines).to_have_text([*lobby_texts, "hello all"])
    drop_connection(carol, 1, "Greetings")
    expect(lines).to_have_text([*lobby_texts, "hello all"])
    assert not errors, errors


def test_game_page_shows_earlier_table_chat_in_order_once(live_server_url, browser):
    from playwright.sync_api import expect

    game_id, lobby_texts, table_texts, authors = post_earlier_chat()
    errors: list[str] = []
    carol = open_page(browser, errors)
    carol.context.add_init_script(_TRACK_SOCKETS)
    sign_up(carol, live_server_url, "carol")

    carol.goto(f"{live_server_url}/games/{game_id}/")
    expect(carol.get_by_test_id("game-status")).to_have_text("In progress")
    carol.wait_for_function(_RECEIVED, arg=[1, "Snapshot"])
    chat = carol.get_by_test_id("game-chat-list")
    lines = chat.locator(".chat-line__text")
    expect(lines).to_have_text(table_texts)
    expect(chat.locator(".chat-line__user")).to_have_text(authors)
    expect(chat.locator("script")).to_have_count(0)
    # The lobby's chat (in the Greetings this page also gets) is not the table's.
    expect(chat).not_to_contain_text(lobby_texts[0])

    # A reconnect: Greetings, then a fresh Snapshot with the same chat; nothing is drawn twice.
    drop_connection(carol, 1, "Snapshot")
    expect(carol.get_by_test_id("connection-status")).to_have_text("Live")
    expect(lines).to_have_text(table_texts)
    carol.locator("#game-chat-input").fill("watching, gl")
    carol.locator("#game-chat-input").press("Enter")
    expect(lines).to_have_text([*table_texts, "watching, gl"])
    # A resync (any Snapshot) is just as harmless.
    drop_connection(carol, 2, "Snapshot")
    expect(lines).to_have_text([*table_texts, "watching, gl"])

    carol.reload()
    carol.wait_for_function(_RECEIVED, arg=[1, "Snapshot"])
    expect(lines).to_have_text([*table_texts, "watching, gl"])
    assert not errors, errors
