"""Opening a riichi table from the lobby's form: a rule preset (the recommended one unless chosen,
each explained in a line under the list), overrides as JSON and majiang-server's clock, shown on
the set-up card; unreadable or refused options say why. On a phone the card tells its bots apart."""

from __future__ import annotations

import pytest

from tests.browser.pages import open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


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

    # The form starts on Tenhou's rules, the common online standard, and says what they are; the
    # page sends them although the engine's default (a table naming no preset) is Majiang's.
    preset = page.get_by_test_id("create-preset")
    expect(preset).to_have_value("tenhou")
    expect(preset.locator("option:checked")).to_have_text("Tenhou-like (東南戦) (recommended)")
    help_line = page.get_by_test_id("create-preset-help")
    expect(help_line).to_be_visible()
    expect(help_line).to_contain_text("Tenhou's standard rules")
    expect(help_line).to_contain_text("start here if unsure")
    assert preset.get_attribute("aria-describedby") == "create-preset-help"
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


def test_each_preset_explained_and_bots_told_apart_on_a_phone(live_server_url, browser, artifacts):
    """390 px wide: the chosen preset's line follows the choice; Majiang's defaults, the engine's
    own, go as no preset at all; three house bots on the set-up card read in full, the default one
    and two of the level chosen beside "Add bot" (docs/bots.md, "Bot levels")."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    page.set_viewport_size(PHONE)
    sign_up(page, live_server_url, "kenji")
    page.get_by_test_id("create-type").select_option("riichi")
    preset = page.get_by_test_id("create-preset")
    help_line = page.get_by_test_id("create-preset-help")
    # Every preset has its own line, shown (not only a tooltip) while it is chosen.
    lines = {}
    for name in preset.locator("option").evaluate_all("options => options.map((o) => o.value)"):
        preset.select_option(name)
        expect(help_line).to_be_visible()
        lines[name] = help_line.inner_text()
        assert lines[name].strip(), name
    assert len(set(lines.values())) == len(lines), lines
    assert "Majiang" in lines["majiang"] and "east" in lines["east"].lower()
    preset.select_option("majiang")
    expect(help_line).to_have_text(lines["majiang"])
    no_sideways_scroll(page)

    page.get_by_test_id("create-submit").click()
    card = page.get_by_test_id("setup-table")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("table-rules")).to_have_text("Majiang default")
    level = card.get_by_test_id("bot-level")
    expect(level).to_have_value("")  # the house bot, unless the host picks a level
    assert level.locator("option").all_inner_texts() == ["House bot", "Beginner", "Intermediate", "Strong"]
    for n in (2, 3, 4):
        card.get_by_test_id("add-bot").click()
        expect(card.get_by_test_id("seat")).to_have_count(n)
        if n == 2:
            no_sideways_scroll(page)
            card.get_by_test_id("bot-level").select_option("intermediate")
    no_sideways_scroll(page)
    snap(page, artifacts / "riichi-create-phone.png")

    # Each name in the seat list and under each chair of the little table: its whole text shown
    # (nothing cut by an ellipsis), so "house-intermediate-1" and "-2" read differently.
    shown = card.locator(".seat-row__name, .chair__name").evaluate_all(
        "els => els.map((el) => ({text: el.textContent,"
        " cut: [el, ...el.children].some((e) => e.scrollWidth > e.clientWidth + 0.5),"
        " list: el.classList.contains('seat-row__name')}))")
    bots = [s for s in shown if s["text"].startswith("house-")]
    assert len(bots) == 6, shown  # three in the list, three round the table
    assert not [s for s in shown if s["cut"]], shown
    assert sorted(s["text"] for s in bots if s["list"]) == ["house-bot-1", "house-intermediate-1",
                                                               "house-intermediate-2"], bots

    from games.models import Game

    with server_database():
        assert Game.objects.get(id=int(card.get_attribute("data-game"))).rules == {}
    assert errors == []
