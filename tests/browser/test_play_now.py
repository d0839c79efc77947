"""Play now in the browser (docs/play-now.md): the lobby's panel queues a player, shows the wait,
and takes them to the table it finds; two people are seated together (with house bots after their
wait), one alone plays bots at once, a player leaves the queue; and the panel on phones.

The queue's watch (seating after the bots' wait) runs only where GAME_CLOCK_SWEEPER is not "0",
which tests/conftest.py sets for the suite: these tests turn it on for the served child."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.pages import TIMEOUT_MS, open_page, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "axe-core" / "axe.min.js"
_RUN_AXE = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")}`)"""
# The widest thing on the page against the viewport: anything wider scrolls sideways.
_OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
_HEIGHTS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.dataset.testid || el.closest('[data-testid]')?.dataset.testid || el.className,
                el.getBoundingClientRect().height])"""
_FETCH = "async (path) => { const r = await fetch(path); return { status: r.status, body: await r.json() }; }"
GAME_URL = re.compile(r"/games/(\d+)/$")
# Bots fill in 15 s after the first player queued; the watch looks every second.
SEATED_WITHIN_MS = 30_000


@pytest.fixture
def server(monkeypatch, request):
    """The served project with Play now's watch running (seating after the wait for bots)."""
    monkeypatch.setenv("GAME_CLOCK_SWEEPER", "1")
    return request.getfixturevalue("live_server_url")


def panel(page):
    return page.get_by_test_id("play-now")


def choose(page, **choices: str) -> None:
    """Pick Play now's pills: ``choose(page, game="riichi", preset="tenhou", bots="15")``."""
    for group, value in choices.items():
        radio = panel(page).get_by_test_id(f"pn-{group}-{value}")
        radio.check()


def game_of(page) -> int:
    match = GAME_URL.search(page.url)
    assert match, page.url
    return int(match.group(1))


def axe(page) -> list[str]:
    """axe-core's violations on the page as it is (its context must bypass the page's CSP)."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(_RUN_AXE)


def api(page, path: str) -> dict:
    answer = page.evaluate(_FETCH, path)
    assert answer["status"] == 200, answer
    return answer["body"]


def test_two_players_are_seated_together_with_bots_after_their_wait(server, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    alice = open_page(browser, errors)
    bob = open_page(browser, errors)
    sign_up(alice, server, "alice")
    sign_up(bob, server, "bob")

    for page, level in ((alice, "strong"), (bob, "beginner")):
        choose(page, game="riichi", preset="tenhou", length="east", level=level, clock="untimed", bots="15")
        expect(panel(page).get_by_test_id("pn-bots-15")).to_be_checked()
    alice.get_by_test_id("play-now-submit").click()
    waiting = alice.get_by_test_id("play-now-waiting")
    expect(waiting).to_be_visible()
    expect(alice.get_by_test_id("play-now-form")).to_be_hidden()
    expect(waiting.get_by_test_id("play-now-status")).to_have_text("Looking for players…")
    expect(waiting.get_by_test_id("play-now-what")).to_have_text(
        "Riichi mahjong · Tenhou-like · East only (東風) · Strong bots · Untimed")
    expect(waiting.get_by_test_id("play-now-bots-in")).to_have_text(re.compile(r"^join in 0:\d\d$"))
    expect(waiting.get_by_test_id("play-now-window")).to_have_text(re.compile(r"^± \d+\.\d$"))

    bob.get_by_test_id("play-now-submit").click()
    expect(bob.get_by_test_id("play-now-waiting")).to_be_visible()
    # Bob queued second: alice waits for the same table.
    expect(bob.get_by_test_id("play-now-others")).to_have_text("1")
    expect(bob.get_by_test_id("play-now-elapsed")).to_have_text(re.compile(r"^0:\d\d$"))
    snap(bob, artifacts / "play-now-waiting.png")

    # Alice's wait for bots ends: both are seated at one table, two house bots with them, and
    # both pages go there.
    for page in (alice, bob):
        page.wait_for_url(GAME_URL, timeout=SEATED_WITHIN_MS)
    game_id = game_of(alice)
    assert game_of(bob) == game_id
    for page in (alice, bob):
        players = page.get_by_test_id("players")
        expect(players.locator('[data-testid="player"][data-position]')).to_have_count(4)
        expect(players).to_contain_text("alice")
        expect(players).to_contain_text("bob")
    game = api(alice, f"/api/games/{game_id}/")
    assert game["status"] == "active" and game["game_type"] == "riichi"
    assert game["setup"]["rules"]["preset"] == "tenhou-east"  # Tenhou-like, east only
    people = sorted(p["username"] for p in game["players"] if not p["bot"])
    bots = sorted(p["username"] for p in game["players"] if p["bot"])
    # Bob chose other bots, and still sat with alice: the first player's level decides.
    assert people == ["alice", "bob"] and bots == ["house-strong-1", "house-strong-2"], game["players"]
    assert api(bob, "/api/play-now/") == {"status": "seated", "game": game_id, "game_type": "riichi",
                                          "preset": "tenhou", "length": "east", "clock": "untimed",
                                          "bot_level": "beginner"}
    assert errors == [], errors


def test_play_against_bots_now_seats_at_once_and_the_lobby_shows_ratings(server, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    watcher = open_page(browser, errors)
    sign_up(watcher, server, "wanda")
    solo = open_page(browser, errors)
    sign_up(solo, server, "sol")

    choose(solo, game="cribbage", players="2")
    # A game's own clock labels: cribbage's Fischer clock, not riichi's seconds a decision.
    expect(panel(solo).get_by_test_id("pn-clock")).to_contain_text("3 min + 5 s a move")
    solo.get_by_test_id("play-now-bots-now").click()
    solo.wait_for_url(GAME_URL, timeout=10_000)
    game_id = game_of(solo)
    players = solo.get_by_test_id("players")
    expect(players.locator('[data-testid="player"][data-position]')).to_have_count(2)
    expect(players.locator(".tag--bot")).to_have_count(1)
    game = api(solo, f"/api/games/{game_id}/")
    assert game["status"] == "active" and game["game_type"] == "cribbage"
    assert sorted((p["username"] == "sol", p["bot"]) for p in game["players"]) == [(False, True), (True, False)]

    # Someone in the lobby saw the game start, each player with their rating (from its set-up).
    row = watcher.locator(f'[data-testid="active-game"][data-game="{game_id}"]')
    expect(row.get_by_test_id("game-player")).to_have_count(2)
    expect(row.get_by_test_id("seat-rating")).to_have_text(["rating 0.0 provisional"] * 2)

    # Back in the lobby, the game is listed with the ratings (Greetings), and Play now offers it.
    solo.goto(f"{server}/")
    expect(solo.get_by_test_id("connection-status")).to_have_text("Live")
    mine = solo.locator(f'[data-testid="active-game"][data-game="{game_id}"]')
    expect(mine.get_by_test_id("seat-rating")).to_have_text(["rating 0.0 provisional"] * 2)
    seated = solo.get_by_test_id("play-now-seated")
    expect(seated).to_be_visible()
    expect(seated.get_by_test_id("play-now-go")).to_have_attribute("href", f"/games/{game_id}/")
    snap(solo, artifacts / "play-now-seated.png")
    seated.get_by_test_id("play-now-dismiss").click()
    expect(solo.get_by_test_id("play-now-form")).to_be_visible()
    # The form remembers the last choices.
    expect(panel(solo).get_by_test_id("pn-game-cribbage")).to_be_checked()
    assert errors == [], errors


def test_leave_the_queue_and_refusals_in_words(server, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors, bypass_csp=True, reduced_motion="reduce")  # bypass: axe
    sign_up(page, server, "lee")
    choose(page, game="acquire", players="3", clock="fast", bots="never")
    panel(page).screenshot(path=str(artifacts / "play-now-form.png"), animations="disabled")
    assert axe(page) == []
    # From the keyboard: the card that answers takes the focus from the button pressed.
    page.get_by_test_id("play-now-submit").press("Enter")
    card = page.get_by_test_id("play-now-waiting")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("play-now-status")).to_be_focused()
    expect(card.get_by_test_id("play-now-what")).to_have_text("Acquire · 3 players · Fast: 5 min + 5 s a move")
    expect(card.get_by_test_id("play-now-bots-in")).to_have_text("waiting for people only")
    expect(card.get_by_test_id("play-now-others")).to_have_text("0")
    expect(card.get_by_test_id("play-now-elapsed")).to_have_text("0:02", timeout=5_000)

    # A reload keeps the place: Greetings says where it stands, and the time waited goes on from
    # where it was (the server's count, not the page's).
    page.reload()
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")
    expect(card).to_be_visible()
    minutes, seconds = card.get_by_test_id("play-now-elapsed").text_content().split(":")
    assert int(minutes) * 60 + int(seconds) >= 2
    assert api(page, "/api/play-now/")["status"] == "waiting"
    assert axe(page) == []

    card.get_by_test_id("play-now-leave").press("Enter")
    expect(page.get_by_test_id("play-now-form")).to_be_visible()
    expect(card).to_be_hidden()
    expect(page.get_by_test_id("play-now-submit")).to_be_focused()
    expect(page.get_by_test_id("play-now-note")).to_have_text("You left the queue.")
    assert api(page, "/api/play-now/") == {"status": "none"}

    # Sitting at a table being set up, Play now is refused, in words under its buttons.
    page.get_by_test_id("create-type").select_option("cribbage")
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("setup-table")).to_have_count(1)
    page.get_by_test_id("play-now-submit").click()
    refusal = page.get_by_test_id("play-now-error")
    expect(refusal).to_have_text(re.compile("You have a seat at a table being set up"))
    expect(page.get_by_test_id("play-now-form")).to_be_visible()
    expect(page.get_by_test_id("play-now-submit")).to_be_enabled()
    assert api(page, "/api/play-now/") == {"status": "none"}
    assert errors == [], errors


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_the_panel_on_a_phone(server, browser, artifacts, width, height):
    """At a phone's size: nothing scrolls sideways, every button is a thumb's size, and axe-core
    finds nothing wrong, with the choices and while waiting."""
    from playwright.sync_api import expect

    assert AXE.is_file(), f"no {AXE}: run `make axe` (part of `make test`)"
    errors: list[str] = []
    page = open_page(browser, errors, viewport={"width": width, "height": height}, is_mobile=True,
                     has_touch=True, bypass_csp=True, reduced_motion="reduce")
    page.context.set_default_timeout(TIMEOUT_MS)
    sign_up(page, server, f"phone{width}")

    def check(state: str) -> None:
        assert page.evaluate(_OVERFLOW) <= 0, f"{state}: the page scrolls sideways"
        heights = page.evaluate(_HEIGHTS, '[data-testid="play-now"] .btn, [data-testid="play-now"] .pn-pill__face')
        assert heights and all(h >= 44 for _, h in heights), (state, [x for x in heights if x[1] < 44])
        assert axe(page) == [], state

    expect(page.get_by_test_id("play-now-submit")).to_be_enabled()
    check("form")
    panel(page).screenshot(path=str(artifacts / f"play-now-phone-{width}.png"), animations="disabled")
    choose(page, game="acquire", players="6")
    check("form, Acquire")
    choose(page, game="riichi", preset="no-red", length="east-south", clock="normal", bots="never")
    page.get_by_test_id("play-now-submit").click()
    expect(page.get_by_test_id("play-now-waiting")).to_be_visible()
    expect(page.get_by_test_id("play-now-bots-in")).to_have_text("waiting for people only")
    check("waiting")
    panel(page).screenshot(path=str(artifacts / f"play-now-phone-{width}-waiting.png"), animations="disabled")
    page.get_by_test_id("play-now-leave").click()
    expect(page.get_by_test_id("play-now-form")).to_be_visible()
    assert errors == [], errors
