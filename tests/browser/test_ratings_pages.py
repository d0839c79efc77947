"""Ratings in the browser (docs/ratings.md): the lobby's form opens a casual table and its card says
so; the leaderboard page is in the menu."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.pages import TIMEOUT_MS, open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_open_a_casual_table_and_find_the_leaderboard(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "rina")
    rated = page.get_by_test_id("create-rated")
    expect(rated).to_have_value("rated")
    rated.select_option("casual")
    page.get_by_test_id("create-submit").click()
    card = page.get_by_test_id("setup-table")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("table-rated")).to_have_text("Casual")
    from games.models import Game

    with server_database():
        game = Game.objects.get(id=int(card.get_attribute("data-game")))
        assert (game.rated, game.rated_people_only) == (False, False)

    page.get_by_test_id("nav-ratings").click()
    expect(page.get_by_role("heading", name="Ratings", exact=True)).to_be_visible()
    expect(page.get_by_test_id("ratings-tab")).to_have_count(3)
    snap(page, artifacts / "ratings-leaderboard.png")
    assert errors == []


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
AXE = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "axe-core" / "axe.min.js"
_RUN_AXE = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id}: ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")}`)"""
# The widest thing on the page against the viewport: anything wider scrolls sideways.
_OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
# Each chart label's size on screen: its font size scaled as its SVG is scaled to fit.
_CHART_TEXT = """() => [...document.querySelectorAll('[data-testid="rating-chart"] svg')].flatMap((svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
})"""


def test_player_page_and_leaderboard_on_a_phone(live_server_url, browser, artifacts, make_user):
    """A player's chart and rank, and the leaderboard, at 390 x 844: nothing scrolls sideways, the
    chart's labels are at least 12 px, and axe finds nothing serious."""
    from playwright.sync_api import expect

    from tests.ratings.games import end, singles

    assert AXE.is_file(), f"no {AXE}: run `make axe`"
    with server_database():
        ann, bob = make_user("annabel-longname"), make_user("bob")
        for i in range(12):
            end([ann, bob], singles(1 + i % 3 // 2, 2 - i % 3 // 2))
        end([ann, bob], singles(2, 1), game_type="cribbage", mode=2)
    errors: list[str] = []
    context = browser.new_context(bypass_csp=True, reduced_motion="reduce", **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))

    page.goto(f"{live_server_url}/players/annabel-longname/")
    charts = page.get_by_test_id("rating-chart")
    expect(charts).to_have_count(2)
    expect(page.get_by_test_id("rating-rank").first).to_have_text("#1 of 2 active people")
    sizes = page.evaluate(_CHART_TEXT)
    assert len(sizes) == 6 + 5 and min(sizes) >= 12, sizes  # one game: one x label
    for chart in charts.all():
        box = chart.locator("svg").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate(_OVERFLOW) <= 0
    snap(page, artifacts / "ratings-player-phone.png")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(_RUN_AXE) == []

    for path in ("/ratings/", "/"):
        page.goto(live_server_url + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(_OVERFLOW) <= 0, path
    page.goto(f"{live_server_url}/ratings/")
    expect(page.get_by_test_id("rating")).to_have_count(2)
    snap(page, artifacts / "ratings-leaderboard-phone.png")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(_RUN_AXE) == []
    context.close()
    assert errors == []


def test_ratings_beside_names_at_a_table_and_in_its_players_panel(live_server_url, browser, artifacts, make_user):
    """A table's seats in the lobby and its game page's Players panel show each player's rating in
    that game type, a newcomer's marked provisional; a bot added later comes with its own. At 390 px
    nothing scrolls sideways."""
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from games.core import ratings as model
    from games.models import Rating
    from tests.ratings.games import end, singles

    errors: list[str] = []
    context = browser.new_context(bypass_csp=True, reduced_motion="reduce", **PHONE)  # bypass: axe
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    sign_up(page, live_server_url, "rina")
    with server_database():
        rina, bob = get_user_model().objects.get(username="rina"), make_user("bob")
        for i in range(10):
            end([rina, bob], singles(1 + i % 2, 2 - i % 2))
        r = Rating.objects.get(user=rina, game_type="acquire")
        shown = f"{model.conservative(r.mu, r.sigma):.1f}"
    assert shown != "0.0"

    page.reload()
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")
    page.get_by_test_id("create-type").select_option("acquire")
    page.get_by_test_id("create-submit").click()
    card = page.get_by_test_id("setup-table")
    expect(card).to_have_count(1)
    mine = card.locator(f'[data-testid="seat"][data-user="{rina.id}"]').get_by_test_id("seat-rating")
    expect(mine).to_have_text(f"rating {shown}")  # ten games: no longer provisional
    card.get_by_test_id("add-bot").click()
    expect(card.get_by_test_id("seat")).to_have_count(2)
    expect(card.get_by_test_id("seat").nth(1).get_by_test_id("seat-rating")).to_have_text("rating 0.0 provisional")
    assert page.evaluate(_OVERFLOW) <= 0
    snap(page, artifacts / "ratings-lobby-phone.png")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(_RUN_AXE) == []

    page.goto(f"{live_server_url}/games/{card.get_attribute('data-game')}/")
    # The rows the page's script drew (they carry data-position; the template's do not).
    row = page.locator(f'[data-testid="player"][data-user="{rina.id}"][data-position]')
    expect(row.get_by_test_id("seat-rating")).to_have_text(f"rating {shown}")
    expect(page.locator('[data-testid="player"][data-position]').get_by_test_id("seat-rating")).to_have_text(
        [f"rating {shown}", "rating 0.0 provisional"])
    assert page.evaluate(_OVERFLOW) <= 0
    context.close()
    assert errors == []
