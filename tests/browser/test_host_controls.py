"""The host's side of a table: teams, seating order, acceptances reset by changes, kicks, modes."""

from __future__ import annotations

import pytest

from tests.browser.pages import open_page, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def team_of(table, username: str) -> str | None:
    """The team colour class on a user's seat row, as the page draws it."""
    dot = table.locator('[data-testid="seat"]', has_text=username).locator(".team-dot")
    classes = (dot.get_attribute("class") or "").split()
    return next((c for c in classes if c.startswith("team-") and c != "team-dot"), None)


def test_host_arranges_teams_reorders_kicks_and_changes_mode(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    alice, bob, carol = (open_page(browser, errors) for _ in range(3))
    for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        sign_up(page, live_server_url, name)

    # A team game with the teams chosen by the host.
    alice.get_by_test_id("create-mode").select_option(label="Teams 2 vs 2 (4 seats)")
    alice.get_by_test_id("create-arrangement").select_option(label="Specify teams")
    alice.get_by_test_id("create-submit").click()
    table = alice.get_by_test_id("setup-table")
    expect(table.get_by_test_id("host-arrangement")).to_have_value("3")
    game_id = table.get_attribute("data-game")
    selector = f'[data-testid="setup-table"][data-game="{game_id}"]'

    bob.locator(selector).get_by_test_id("join-table").click()
    expect(table.get_by_test_id("seat")).to_have_count(2)
    carol.locator(selector).get_by_test_id("join-table").click()
    expect(table.get_by_test_id("seat")).to_have_count(3)
    expect(table.get_by_test_id("free-seat")).to_have_count(1)

    # Slots alternate between the teams.
    assert [team_of(table, n) for n in ("alice", "bob", "carol")] == ["team-0", "team-1", "team-0"]

    # Bob accepts, then the host moves him down a seat: the teams change and so does what
    # Bob accepted, so his acceptance is gone.
    bob_table = bob.locator(selector)
    bob_table.get_by_test_id("accept-setup").click()
    expect(bob_table.get_by_test_id("accept-setup")).to_be_disabled()
    table.get_by_role("button", name="Move bob down").click()
    expect(bob_table.get_by_test_id("accept-setup")).to_be_enabled()
    carol_table = carol.locator(selector)
    expect(carol_table.locator('[data-testid="seat"]').nth(1)).to_contain_text("carol")
    assert [team_of(carol_table, n) for n in ("alice", "carol", "bob")] == ["team-0", "team-1", "team-0"]

    # With three people seated only modes of three or more seats are offered.
    mode_labels = table.get_by_test_id("host-mode").locator("option").all_inner_texts()
    assert "Singles 2" not in mode_labels and "Singles 3" in mode_labels
    snap(alice, artifacts / "lobby-host.png")

    # The host removes Carol; she is told, and the table no longer lists her anywhere.
    alice.once("dialog", lambda dialog: dialog.accept())
    table.get_by_role("button", name="Kick carol").click()
    expect(carol.get_by_test_id("toast")).to_contain_text("removed you")
    expect(carol_table.get_by_test_id("join-table")).to_be_visible()
    expect(bob_table.get_by_test_id("seat")).to_have_count(2)

    # Two left: a two-seat mode is possible again, and leaving team play drops the teams.
    table.get_by_test_id("host-mode").select_option(label="Singles 2")
    expect(bob_table.get_by_test_id("table-mode")).to_have_text("Singles 2")
    expect(table.get_by_test_id("host-arrangement")).to_have_value("1")
    expect(table.get_by_test_id("host-arrangement").locator("option")).to_have_count(2)
    expect(bob_table.get_by_test_id("free-seat")).to_have_count(0)

    # Only the host has the host's tools.
    expect(bob_table.get_by_test_id("host-mode")).to_have_count(0)
    expect(bob_table.get_by_test_id("kick")).to_have_count(0)

    assert not errors, errors
