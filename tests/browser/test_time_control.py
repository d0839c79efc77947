"""A table's time control from the lobby's form on a phone, shown on its card, its page and the
lobby's list; an untimed game its players all left shows as adjourned, and goes on, live, when
one of them comes back (docs/abandoned-games.md)."""

from __future__ import annotations

import time

import pytest

from tests.browser.pages import PASSWORD, TIMEOUT_MS, open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def phone_page(browser, errors: list[str]):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return page


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_clock_on_the_form_card_page_and_lobby_and_an_adjourned_game(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    alice = phone_page(browser, errors)
    sign_up(alice, live_server_url, "alice")

    # The Fischer clock is offered for Acquire and cribbage; riichi keeps its own clock.
    clock = alice.get_by_test_id("create-clock")
    for game_type, shown in (("cribbage", True), ("riichi", False), ("acquire", True)):
        alice.get_by_test_id("create-type").select_option(game_type)
        if shown:
            expect(clock).to_be_visible()
        else:
            expect(clock).to_be_hidden()
    alice.get_by_test_id("create-mode").select_option(label="Singles 2 (2 seats)")

    # An increment without a starting time is refused by the server, which says why.
    alice.get_by_test_id("create-increment").fill("3")
    alice.get_by_test_id("create-submit").click()
    expect(alice.get_by_test_id("toast").filter(has_text="time_increment needs time_start").first).to_be_visible()
    expect(alice.get_by_test_id("setup-table")).to_have_count(0)

    alice.get_by_test_id("create-start-minutes").fill("5")
    alice.get_by_test_id("create-submit").click()
    card = alice.get_by_test_id("setup-table")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("table-clock")).to_have_text("5 min + 3 s")
    no_sideways_scroll(alice)
    snap(alice, artifacts / "time-control-phone.png")
    timed_id = int(card.get_attribute("data-game"))

    # With a house bot in the other seat the game starts, and its page shows the clock.
    card.get_by_test_id("add-bot").click()
    expect(card.get_by_test_id("seat")).to_have_count(2)
    card.get_by_test_id("accept-setup").click()
    alice.wait_for_url(f"{live_server_url}/games/{timed_id}/")
    expect(alice.get_by_test_id("game-clock")).to_have_text("5 min + 3 s")
    no_sideways_scroll(alice)
    # Logged in on this page's socket before she leaves: a log-in still on its way when the page
    # closed would put her back online after the check below.
    expect(alice.get_by_test_id("connection-status")).to_have_text("Live")

    # An untimed cribbage game of alice's against a house bot, then alice goes away.
    from games.models import Client, Game, Status
    from games.service import abandon, clocks, lobby

    with server_database():
        host = Game.objects.get(id=timed_id).host
        untimed = lobby.create_table(host, "cribbage", 2)
        lobby.add_bot(host, untimed.id)
        lobby.accept(host, untimed.id)
        assert Game.objects.get(id=untimed.id).status == Status.ACTIVE
    alice.context.close()
    with server_database():
        for _ in range(100):
            if not Client.objects.filter(user=host).exists():
                break
            time.sleep(0.05)
        assert not Client.objects.filter(user=host).exists()
        now = clocks.now_ms()
        abandon.watch(now)
        assert abandon.watch(now + 601_000).adjourned == [untimed.id]  # the timed one is never adjourned

    # Someone else sees both in the lobby: each with its clock, the untimed one adjourned.
    bob = open_page(browser, errors)
    sign_up(bob, live_server_url, "bob")
    timed_row = bob.locator(f'[data-testid="active-game"][data-game="{timed_id}"]')
    untimed_row = bob.locator(f'[data-testid="active-game"][data-game="{untimed.id}"]')
    expect(timed_row.get_by_test_id("game-clock")).to_have_text("5 min + 3 s")
    expect(timed_row.get_by_test_id("game-adjourned")).to_have_count(0)
    expect(untimed_row.get_by_test_id("game-clock")).to_have_text("Untimed")
    expect(untimed_row.get_by_test_id("game-adjourned")).to_have_text("Adjourned")
    snap(bob, artifacts / "time-control-lobby.png")

    # Watching the adjourned game: its page says so, and says it live when alice comes back.
    bob.goto(f"{live_server_url}/games/{untimed.id}/")
    expect(bob.get_by_test_id("game-status")).to_have_text("Adjourned")
    expect(bob.get_by_test_id("turn-indicator")).to_contain_text("every player went away")
    expect(bob.get_by_test_id("game-clock")).to_have_text("Untimed")

    back = phone_page(browser, errors)
    back.goto(f"{live_server_url}/accounts/login/")
    back.get_by_label("Username").fill("alice")
    back.get_by_label("Password").fill(PASSWORD)
    back.get_by_test_id("login-submit").click()
    expect(back.get_by_test_id("connection-status")).to_have_text("Live")
    expect(bob.get_by_test_id("game-status")).to_have_text("In progress")
    with server_database():
        assert Game.objects.get(id=untimed.id).status == Status.ACTIVE
    mine = back.locator(f'[data-testid="active-game"][data-game="{untimed.id}"]')
    expect(mine.get_by_test_id("game-adjourned")).to_have_count(0)
    assert errors == []
