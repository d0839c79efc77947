"""The decision review on a finished riichi game's replay page (docs/review.md), at a desktop's and
a phone's size: asked for by the player, its progress shown while it builds, then at a decision's
step the player's choice beside the bot's, the costliest decisions jumping to their steps, and the
download. Nothing is wider than the screen.

The game is the reference game of tests/riichi/review/ (its rows made from its kept log); the
review is built by the server's own worker thread. The first poll's answer is held at a build in
progress (the build of an east-only game takes about a second, too short to watch reliably)."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.pages import TIMEOUT_MS, boxes, open_page, server_database, sign_up, snap
from tests.browser.test_accessibility import _RUN_AXE, AXE, SERIOUS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
_RUN_AXE_ON_PANEL = _RUN_AXE.replace("axe.run(document,", "axe.run(document.getElementById('replay-review'),")
PHONE = {"width": 390, "height": 844}


def _game(username: str) -> int:
    from accounts.models import User
    from tests.riichi.review.games import reference_game

    me = User.objects.get(username=username)
    others = [User.objects.create_user(username=f"{username}-{i}", password="x-pass-12345") for i in range(3)]
    return reference_game([me, *others]).id


def _fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    (box,) = boxes(page, '[data-testid="review-panel"]')
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


def test_the_review_opens_on_the_replay_page(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors, viewport=DESKTOP)
    # Every console error, a failed request's among them: the page asks only for reviews that
    # were asked for, so a seat without one costs no 404.
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    sign_up(page, live_server_url, "kaze")
    with server_database():
        game_id = _game("kaze")
    review_url = f"/api/games/{game_id}/review/0/"
    seen = {"posted": False, "held": False}

    def hold_first_poll(route) -> None:
        request = route.request
        if request.method == "POST":
            seen["posted"] = True
        elif seen["posted"] and not seen["held"]:
            seen["held"] = True
            route.fulfill(status=200, content_type="application/json", body=json.dumps({
                "game": game_id, "seat": 0, "status": "building", "progress": {"done": 7, "total": 160},
                "requested": None, "finished": None, "error": None, "review": None}))
            return
        route.continue_()

    page.route(re.compile(rf".*{re.escape(review_url)}$"), hold_first_poll)
    page.goto(f"{live_server_url}/games/{game_id}/replay/")
    # The panel comes last on the page (after the first step is drawn, its module loaded): on a
    # loaded machine that takes more than expect's default 5 s, so the page's own time allowance.
    expect(page.get_by_test_id("review-panel")).to_be_visible(timeout=TIMEOUT_MS)
    start = page.get_by_test_id("review-start")
    expect(start).to_have_text("Review my decisions")
    expect(page.get_by_test_id("review-seat")).to_have_value("0")
    # Another seat, never reviewed either, then back: nothing asked of the server, nothing logged.
    page.get_by_test_id("review-seat").select_option("1")
    expect(start).to_have_text(re.compile(r"^Review kaze-0's decisions$"))
    page.get_by_test_id("review-seat").select_option("0")
    expect(start).to_have_text("Review my decisions")
    assert not console, console
    start.click()
    # While it builds: the bar and how far it is.
    expect(page.get_by_test_id("review-progress")).to_be_visible()
    expect(page.get_by_test_id("review-status")).to_contain_text("Building the review… 7 of 160 actions")
    snap(page, artifacts / "riichi-review-building.png")
    # Built: the summary, the download, the costliest decisions.
    download = page.get_by_test_id("review-download")
    expect(download).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("review-progress")).to_be_hidden()
    assert download.get_attribute("href") == f"/api/games/{game_id}/review/0/download/"
    costly = page.get_by_test_id("review-costly")
    assert 1 <= costly.count() <= 5

    # The costliest jumps to its step, where the panel sets the two choices side by side.
    first = costly.first
    step = int(first.get_attribute("data-step"))
    first.click()
    expect(page).to_have_url(re.compile(r"[?&]step=\d+$"))
    decision = page.locator(f'[data-testid="review-decision"][data-step="{step}"]')
    expect(decision).to_be_visible()
    expect(decision).to_contain_text("Cost ≈")
    for row in ("Choice", "Shanten", "Acceptance", "Value", "Danger"):
        expect(decision.locator("th", has_text=row)).to_have_count(1)
    expect(decision.locator('td[data-who="bot"]').first).not_to_have_text("same")
    _fits(page, DESKTOP["width"])
    snap(page, artifacts / "riichi-review-desktop.png")

    # A step without a decision of the player's offers the next one.
    page.get_by_test_id("replay-first").click()
    expect(page.get_by_test_id("review-step")).to_contain_text("No decision of kaze at this step.")
    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("review-decision").first).to_be_visible()

    # The download is the stored review.
    answer = page.request.get(f"{live_server_url}/api/games/{game_id}/review/0/download/")
    assert answer.ok and "attachment" in answer.headers["content-disposition"]
    assert json.loads(answer.body())["seat"] == 0

    # On a phone, not logged in: built already (the cache, open to all), opened at the decision's
    # step; it fits the screen.
    # (Its Content-Security-Policy bypassed to inject axe-core below, as test_accessibility does.)
    phone = open_page(browser, errors, viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    phone.goto(f"{live_server_url}/games/{game_id}/replay/?step={step}")
    expect(phone.get_by_test_id("review-download")).to_be_visible(timeout=TIMEOUT_MS)
    expect(phone.get_by_test_id("review-start")).to_be_hidden()
    decision = phone.locator(f'[data-testid="review-decision"][data-step="{step}"]')
    expect(decision).to_be_visible()
    decision.scroll_into_view_if_needed()
    _fits(phone, PHONE["width"])
    (card,) = boxes(phone, f'[data-testid="review-decision"][data-step="{step}"]')
    assert card["x"] >= 0 and card["x"] + card["width"] <= PHONE["width"], card
    snap(phone, artifacts / "riichi-review-phone.png")
    # No serious accessibility violation in the panel (colours on parchment, labels, the table).
    assert AXE.is_file(), f"no {AXE}: run `make axe` (part of `make test`)"
    phone.add_script_tag(path=str(AXE))
    found = phone.evaluate(_RUN_AXE_ON_PANEL)
    assert not [v for v in found if v["impact"] in SERIOUS], found
    assert not errors, errors
    assert not console, console
