"""Opening a riichi table from the lobby's form: a rule preset, overrides as JSON and
majiang-server's clock, shown on the set-up card; unreadable or refused options say why."""

from __future__ import annotations

import pytest

from tests.browser.pages import open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_open_a_riichi_table_with_a_preset_overrides_and_a_clock(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "hana")

    # The riichi options appear only for riichi.
    riichi = page.get_by_test_id("create-rules-riichi")
    expect(riichi).to_be_hidden()
    page.get_by_test_id("create-type").select_option("riichi")
    expect(riichi).to_be_visible()

    # Unreadable overrides never leave the page.
    riichi.locator("summary").click()
    page.get_by_test_id("create-overrides").fill("{場数: 1")
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("toast").filter(has_text="not JSON").first).to_be_visible()
    # Overrides the engine refuses come back with its reason.
    page.get_by_test_id("create-overrides").fill('{"場数": 9}')
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("toast").filter(has_text="場数: expected one of").first).to_be_visible()
    # A clock out of range is stopped by the form itself (the server would refuse it too).
    page.get_by_test_id("create-overrides").fill('{"場数": 1}')
    page.get_by_test_id("create-per-decision").fill("0")
    page.get_by_test_id("create-submit").click()
    assert page.get_by_test_id("create-per-decision").evaluate("input => input.validity.valid") is False
    expect(page.get_by_test_id("setup-table")).to_have_count(0)

    page.get_by_test_id("create-preset").select_option("tenhou")
    page.get_by_test_id("create-per-decision").fill("5")
    page.get_by_test_id("create-bank").fill("20")
    page.get_by_test_id("create-spectator-delay").fill("30")
    page.get_by_test_id("create-submit").click()
    card = page.get_by_test_id("setup-table")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("table-rules")).to_have_text("Tenhou-like (東南戦) + 1 override")
    expect(card.get_by_test_id("table-clock")).to_have_text("5 + 20 s")
    expect(card.get_by_test_id("table-spectator-delay")).to_have_text("Spectators 30 s late")
    snap(page, artifacts / "riichi-create.png")

    from games.models import Game

    with server_database():
        game = Game.objects.get(id=int(card.get_attribute("data-game")))
        assert game.rules == {"preset": "tenhou", "場数": 1}
        assert (game.time_per_decision, game.time_bank, game.time_start) == (5, 20, None)
        assert game.spectator_delay == 30
    assert errors == []
