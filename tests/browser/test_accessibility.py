"""axe-core on every kind of page, at a desktop's size and a phone's (390 x 844): none may have a
"serious" or "critical" violation.

axe-core is pinned in tests/js/package-lock.json and installed by `make test` (`make axe`); the
test injects node_modules/axe-core/axe.min.js from there, never from a CDN. Injecting a script
into a page needs the page's Content-Security-Policy bypassed, in this test's browser context only.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import NoReverseMatch, reverse

from tests.browser.pages import TIMEOUT_MS, server_database, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
# Each page is checked in both: a phone's layout is another page to a screen reader and to axe
# (other controls shown, text wrapped onto other backgrounds).
SIZES = {
    "": {"viewport": {"width": 1280, "height": 900}},
    " (phone)": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

_RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(" ")} :: ${n.failureSummary.split("\\n")[1] || ""}`),
  }));
}"""


@pytest.fixture
def server(monkeypatch, request):
    """The served project, riichi's floor after each discard short so the bots reach us quickly."""
    monkeypatch.setenv("CALL_FLOOR_MS", "50")
    return request.getfixturevalue("live_server_url")


def optional_url(name: str, *args: str) -> str | None:
    """Pages other parts of the project may not have yet: checked when their URL names exist."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def make_games(host, monkeypatch) -> dict[str, int]:
    """A table being set up and a game in progress (the host against house bots) of each type,
    and a finished bot game for the replay page: made in this process, on the database the server
    child reads."""
    from games.core.engine import Mode
    from games.management.commands.playbots import bot_users, load_bot, play_table
    from games.service import lobby

    # Fixed deals and seating: the bots then play the same moves (their choices are seeded by the
    # game's seed), so every run checks the same pages.
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 20261127)
    monkeypatch.setattr(lobby, "_random", random.Random(5))
    seats = {"acquire": 2, "cribbage": 2, "riichi": 4}
    games: dict[str, int] = {}
    for game_type, count in seats.items():
        games[f"{game_type}-setup"] = lobby.create_table(host, game_type, count).id
        playing = lobby.create_table(host, game_type, count)
        for _ in range(count - 1):
            lobby.add_bot(host, playing.id)
        lobby.accept(host, playing.id)
        games[f"{game_type}-active"] = playing.id
    played = play_table("acquire", Mode(2, "Singles 2", 2), bot_users("acquire", 2), load_bot("acquire"),
                        random.Random(3))
    games["acquire-finished"] = played.game.id
    return games


# What shows that a page has drawn itself (the live pages are built by their scripts).
LIVE = '[data-testid="connection-status"][data-state="online"]'
ACTIVE_READY = {
    "acquire": '[data-testid="acquire-dialog"]',
    "cribbage": '[data-testid="discard-bar"]',
    # The person's own discard, or a call (or a win) offered on someone else's.
    "riichi": '[data-testid="hand-tile"][data-legal="true"], [data-testid="riichi-bar"] [data-testid="action-button"]',
}


def violations(page, url: str, ready: str | None = None, prepare=None) -> list[dict]:
    """``prepare(page)``: what a person does on the page before it is checked (fill a form)."""
    page.goto(url)
    if ready:
        page.wait_for_selector(ready)
    if prepare is not None:
        prepare(page)
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(_RUN_AXE) if v["impact"] in SERIOUS]


def test_no_serious_violations_on_any_page(server, browser, artifacts, monkeypatch):
    assert AXE.is_file(), f"no {AXE}: run `make axe` (part of `make test`), which installs the pinned axe-core"
    errors: list[str] = []
    pages = {}
    for size, options in SIZES.items():
        context = browser.new_context(bypass_csp=True, reduced_motion="reduce", **options)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.on("pageerror", lambda error, page=page: errors.append(f"{page.url}: {error.stack or error}"))
        pages[size] = page
    page = pages[""]

    found: dict[str, list[dict]] = {}

    def check(label: str, path: str, ready: str | None = None, prepare=None) -> None:
        for size, sized in pages.items():
            try:
                found[label + size] = violations(sized, server + path, ready, prepare)
            except Exception:
                sized.screenshot(path=str(artifacts / "accessibility-failed.png"))
                raise AssertionError(f"{label + size}: the page did not draw itself; script errors: {errors}") from None

    def refused_sign_up(page) -> None:
        # Errors under two fields: a taken name (nobody is signed up yet: two passwords that differ
        # instead) and a password too short.
        page.get_by_label("Username").fill("newcomer")
        page.get_by_label("Password", exact=True).fill("abc")
        page.get_by_label("Password confirmation").fill("abd")
        page.get_by_test_id("signup-submit").click()
        page.wait_for_selector('[data-testid="field-error"]')

    def riichi_form(page) -> None:
        page.get_by_test_id("create-type").select_option("riichi")
        page.get_by_test_id("create-preset-help").wait_for()

    # Logged out.
    check("lobby, logged out", "/")
    check("log-in page", "/accounts/login/")
    check("sign-up page", "/accounts/signup/")
    check("sign-up page, refused", "/accounts/signup/", prepare=refused_sign_up)
    check("404 page", "/no-such-page/")
    check("API docs", "/api/docs/", ".swagger-ui .info")
    redoc = optional_url("api-redoc")
    if redoc is not None:
        check("ReDoc", redoc, "h1")

    # Logged in: signed up through the form, then made an administrator so the admin's pages open.
    sign_up(page, server, "ada")
    pages[" (phone)"].context.add_cookies(page.context.cookies())  # ada on the phone too
    with server_database():
        ada = get_user_model().objects.get(username="ada")
        ada.is_staff = ada.is_superuser = True
        ada.save(update_fields=["is_staff", "is_superuser"])
        games = make_games(ada, monkeypatch)
    check("lobby, logged in", "/", LIVE)
    check("lobby, opening a riichi table", "/", LIVE, riichi_form)
    check("token page", "/accounts/token/")
    for game_type in ("acquire", "cribbage", "riichi"):
        check(f"{game_type}, being set up", f"/games/{games[f'{game_type}-setup']}/", LIVE)
        check(f"{game_type}, in progress", f"/games/{games[f'{game_type}-active']}/", ACTIVE_READY[game_type])
    check("acquire replay", f"/games/{games['acquire-finished']}/replay/", '[data-testid="acquire-table"]')
    check("admin index", "/admin/")
    check("admin change page", f"/admin/accounts/user/{ada.pk}/change/")
    for label, path in (("games list", optional_url("games-list")), ("player page", optional_url("player", "ada"))):
        if path is not None:
            check(label, path)

    for size, sized in pages.items():
        sized.screenshot(path=str(artifacts / ("accessibility-last-phone.png" if size else "accessibility-last.png")))
        sized.context.close()
    bad = {label: v for label, v in found.items() if v}
    assert bad == {}, "\n".join(f"{label}: {v}" for label, vs in bad.items() for v in vs)
    assert errors == []
