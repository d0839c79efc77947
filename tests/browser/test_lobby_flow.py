"""Two people sign up in their own browsers, meet in the lobby and start an Acquire game."""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import open_page, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_open_join_accept_and_start(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    alice = open_page(browser, errors)
    bob = open_page(browser, errors)

    sign_up(alice, live_server_url, "alice")
    sign_up(bob, live_server_url, "bob")

    # Both see each other online, live.
    expect(alice.get_by_test_id("online-list")).to_contain_text("bob")
    expect(bob.get_by_test_id("online-list")).to_contain_text("alice")

    # Lobby chat arrives as text, markup and all.
    alice.get_by_test_id("chat-input").fill("<b>anyone for Acquire?</b>")
    alice.get_by_test_id("chat-input").press("Enter")
    expect(bob.get_by_test_id("chat-list")).to_contain_text("<b>anyone for Acquire?</b>")

    # Alice opens a two-seat Acquire table.
    alice.get_by_test_id("create-type").select_option("acquire")
    alice.get_by_test_id("create-mode").select_option(label="Singles 2 (2 seats)")
    alice.get_by_test_id("create-submit").click()
    alice_table = alice.get_by_test_id("setup-table")
    expect(alice_table).to_have_count(1)
    expect(alice_table.get_by_test_id("table-mode")).to_have_text("Singles 2")
    game_id = alice_table.get_attribute("data-game")
    assert game_id and game_id.isdigit()

    # Bob sees it appear without reloading, and takes the free seat.
    bob_table = bob.locator(f'[data-testid="setup-table"][data-game="{game_id}"]')
    expect(bob_table).to_be_visible()
    expect(bob_table.get_by_test_id("seat")).to_have_count(1)
    bob_table.get_by_test_id("join-table").click()

    expect(alice_table.get_by_test_id("seat")).to_have_count(2)
    expect(bob_table.get_by_test_id("seat")).to_have_count(2)
    expect(alice_table.get_by_test_id("free-seat")).to_have_count(0)

    # Alice accepts; Bob sees her tick before accepting himself.
    alice_table.get_by_test_id("accept-setup").click()
    expect(alice_table.get_by_test_id("accept-setup")).to_be_disabled()
    alice_row = bob_table.locator('[data-testid="seat"]', has_text="alice")
    expect(alice_row.get_by_test_id("seat-state")).to_have_text(re.compile("Accepted"))
    snap(bob, artifacts / "lobby.png")

    bob_table.get_by_test_id("accept-setup").click()

    # Both are taken to the game page, which shows the started game and both players.
    for page in (alice, bob):
        page.wait_for_url(f"{live_server_url}/games/{game_id}/")
        expect(page.get_by_test_id("game-status")).to_have_text(re.compile(r"Game started|In progress"))
        players = page.get_by_test_id("players")
        expect(players.get_by_test_id("player")).to_have_count(2)
        expect(players).to_contain_text("alice")
        expect(players).to_contain_text("bob")
        expect(page.get_by_test_id("game-title")).to_contain_text("Acquire")
        expect(page.get_by_test_id("game-log").locator("li").first).to_be_visible()
        expect(page.get_by_test_id("turn-indicator")).to_have_text(re.compile(r"Your turn|Waiting for"))

    # Exactly one of them is to act, and gets buttons for it; the other watches the log grow.
    mover, watcher = (alice, bob) if alice.get_by_test_id("action-button").count() else (bob, alice)
    expect(mover.get_by_test_id("turn-indicator")).to_have_text(re.compile("Your turn"))
    expect(watcher.get_by_test_id("action-button")).to_have_count(0)
    snap(alice, artifacts / "game-alice.png")
    snap(bob, artifacts / "game-bob.png")
    bob.set_viewport_size({"width": 390, "height": 844})
    snap(bob, artifacts / "game-mobile.png")
    bob.set_viewport_size({"width": 1280, "height": 900})

    # A third person finds the game in the lobby and watches it without any actions.
    carol = open_page(browser, errors)
    sign_up(carol, live_server_url, "carol")
    row = carol.locator(f'[data-testid="active-game"][data-game="{game_id}"]')
    expect(row).to_contain_text("alice")
    expect(row).to_contain_text("bob")
    snap(carol, artifacts / "lobby-in-progress.png")
    row.get_by_role("link", name="Watch").click()
    carol.wait_for_url(f"{live_server_url}/games/{game_id}/")
    expect(carol.get_by_test_id("game-status")).to_have_text("In progress")
    # The panel's heading says she watches (game.js); the panel offers her nothing to do.
    expect(carol.get_by_test_id("actions-title")).to_have_text("Spectating")
    expect(carol.get_by_test_id("legal-actions").get_by_role("button")).to_have_count(0)
    expect(carol.get_by_test_id("game-log").locator("li").first).to_be_visible()

    # One move: the other player and the spectator both see the log grow.
    before = {page: page.get_by_test_id("game-log").locator("li").count() for page in (watcher, carol)}
    mover.get_by_test_id("action-button").first.click()
    for page, count in before.items():
        expect(page.get_by_test_id("game-log").locator("li")).not_to_have_count(count)
    expect(mover.get_by_test_id("game-status")).to_have_text("In progress")
    expect(carol.get_by_test_id("action-button")).to_have_count(0)
    snap(carol, artifacts / "game-spectator.png")

    # Leaving a game in progress is a forfeit that everyone at the table sees.
    watcher.once("dialog", lambda dialog: dialog.accept())
    watcher.get_by_test_id("leave-game").click()
    expect(watcher.get_by_test_id("leave-game")).to_be_hidden()
    for page in (mover, carol):
        expect(page.get_by_test_id("players").locator(".tag--warn")).to_have_text("left")

    assert not errors, errors
