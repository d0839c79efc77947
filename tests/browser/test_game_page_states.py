"""The game page's shared chrome follows the game's state (static/js/game.js, ``panelText``).

A two-player Acquire table: "newbie" watches it in the browser while both seats are played through
the REST API (as their bots would). At set-up, on the other player's turn, on newbie's turn and
after the game ends, the action panel's heading and turn indicator say what the panel holds, never
the same thing twice and never "Your move" / "Your turn" unless the panel offers a move. The
Players panel shows newbie and a twelve-character name with at least eight characters visible,
on a desktop and on a phone; the page has no horizontal scroll at 360 px; keyboard hints
(``.kbd-hint``) are hidden on a touch screen.
"""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.pages import PASSWORD, TIMEOUT_MS, open_page, server_database, snap
from tests.browser.test_turn_signal import Rest, play_until_waiting_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
LONG_NAME = "ludwig_maxim"  # twelve characters
assert len(LONG_NAME) == 12

# The action panel's texts as a person reads them: the heading, the indicator (if shown) and every
# visible line of the panel's body, with whether the body offers an enabled control.
_PANEL = """() => {
  const visible = (el) => el && !el.hidden && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const heading = document.getElementById("actions-title");
  const turn = document.getElementById("turn-indicator");
  const body = document.getElementById("legal-actions");
  const lines = [heading.innerText];
  const said = visible(turn) && turn.innerText.trim() !== "";
  if (said) lines.push(turn.innerText);
  const controls = [...body.querySelectorAll("button, input, select")]
    .filter((el) => visible(el) && !el.disabled);
  if (visible(body)) {
    // The panel's messages, less the labels of its controls (a row of tile buttons each saying
    // "plays alone" repeats nothing a person reads as a message).
    const labels = [...body.querySelectorAll("button, label, select, summary")].filter(visible)
      .flatMap((el) => el.innerText.split("\\n")).map((l) => l.trim()).filter(Boolean);
    for (const line of body.innerText.split("\\n").map((l) => l.trim()).filter(Boolean)) {
      const at = labels.indexOf(line);
      if (at >= 0) labels.splice(at, 1);
      else lines.push(line);
    }
  }
  return {
    heading: heading.innerText.trim(),
    turn: said ? turn.innerText.trim() : null,
    mine: turn.classList.contains("turn--mine"),
    lines: lines.map((l) => l.trim()).filter(Boolean),
    controls: controls.length,
  };
}"""

# How much of each player's name the Players panel shows: the characters whose boxes lie inside
# the name's visible box (an ellipsis hides the rest), and whether the box is cut at all.
_NAMES = """() => [...document.querySelectorAll('[data-testid="player-name"]')].map((el) => {
  const box = el.getBoundingClientRect();
  const text = el.firstChild;
  let shown = 0;
  for (let i = 0; i < text.length; i += 1) {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const r = range.getBoundingClientRect();
    if (r.width > 0 && r.right <= box.right + 0.5 && r.left >= box.left - 0.5) shown += 1;
  }
  return { name: el.textContent, title: el.title, shown, cut: el.scrollWidth > el.clientWidth, width: box.width };
})"""

# Elements of the shared chrome reaching past the window's right edge (or its left). The result
# panel is the shared frame of a game's own standings: it must fit, what it holds may scroll in it.
_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const chrome = document.querySelectorAll(
    ".site-header *, .page-head *, .action-panel__head *, .game-side *, #game-result");
  const out = [...chrome].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5);
  }).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} `
    + `${Math.round(el.getBoundingClientRect().right)}`);
  return { scroll: document.documentElement.scrollWidth, width, out };
}"""


def _set_up() -> dict:
    """newbie hosts a two-player Acquire table (still being set up); ludwig_maxim exists."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from accounts.tokens import token_for
    from games.service import lobby

    with server_database():
        users = get_user_model().objects
        newbie = users.create_user(username="newbie")
        # Hashed as the server checks it: this process's fast test hasher is not in the server's list.
        newbie.password = PBKDF2PasswordHasher().encode(PASSWORD, "page-states-salt", iterations=1000)
        newbie.save(update_fields=["password"])
        other = users.create_user(username=LONG_NAME)
        game = lobby.create_table(newbie, "acquire", 2)
        return {"id": game.id, "newbie": newbie.id, "other": other.id,
                "tokens": {"newbie": token_for(newbie), LONG_NAME: token_for(other)}}


def start_through_the_api(base_url: str, game_id: int, tokens: dict[str, str]) -> dict[str, int]:
    """The other player joins, both accept: through the REST API, so the server process itself
    starts the game and pushes GameStarted to the open page (pushes made in the test's process
    would not reach it). The seats by name."""
    clients = {name: Rest(base_url, game_id, token) for name, token in tokens.items()}
    clients[LONG_NAME].call(f"{clients[LONG_NAME].game}/join/", {})
    for client in clients.values():
        client.call(f"{client.game}/accept/", {})
    return {name: client.snapshot()["position"] for name, client in clients.items()}


def in_thread(fn, *args):
    """The lobby announces what it did with ``async_to_sync``, which refuses to run in the test's
    thread, where Playwright's event loop runs."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def play_to_the_end(players: dict[int, Rest], rng: random.Random) -> None:
    """Both seats play as the house bot would until the game is over."""
    from games.acquire.bots.house import choose

    seat = next(iter(players))
    for _ in range(2000):
        snapshot = players[seat].snapshot()
        if snapshot["status"] != "active" or not snapshot["to_act"]:
            return
        if snapshot["to_act"][0] != seat:
            seat = snapshot["to_act"][0]
            snapshot = players[seat].snapshot()
        action, params = choose(snapshot["view"], snapshot["legal"], rng)
        players[seat].call(f"{players[seat].game}/moves/", {"action": action, "params": params, "v": snapshot["v"]})
    raise AssertionError("the game did not end in 2000 moves")


def panel(page) -> dict:
    return page.evaluate(_PANEL)


def assert_said_once(state: dict) -> None:
    """No line of the panel repeats another, nor contains it (a heading "Game over" above a line
    "The game is over." says it twice as surely as two equal lines)."""
    def norm(line: str) -> str:
        return line.lower().strip(" .…!")

    lines = [norm(line) for line in state["lines"]]
    for i, a in enumerate(lines):
        for b in lines[i + 1:]:
            assert a != b and a not in b and b not in a, state
    text = " ".join(lines)
    assert not ("game over" in text and "game is over" in text), state


def _settle(page, heading: str, turn) -> None:
    page.wait_for_function(
        """([heading, turn]) => {
          const t = document.getElementById("turn-indicator");
          const shown = t.innerText.trim() !== "";
          return document.getElementById("actions-title").innerText.trim() === heading
            && (turn === null ? !shown : shown && t.innerText.trim().startsWith(turn));
        }""", arg=[heading, turn])


def assert_panel(page, heading: str, turn, *, mine: bool) -> dict:
    """The heading reads ``heading`` and the indicator ``turn`` (a prefix; None: empty), once
    the page has settled there; then the panel says nothing twice, and offers a move exactly when
    it says it is the viewer's."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        _settle(page, heading, turn)
    except PlaywrightTimeout:
        raise AssertionError(f"the panel never read {heading!r} / {turn!r}: {panel(page)}") from None
    state = panel(page)
    assert state["mine"] is mine, state
    assert_said_once(state)
    said = " ".join(state["lines"]).lower()
    if mine:
        assert state["controls"] > 0, state
    else:
        assert state["controls"] == 0, state
        assert not re.search(r"(?<!not )your (turn|move)", said), state
    return state


def assert_names_readable(page, *names: str) -> None:
    page.wait_for_function("(n) => document.querySelectorAll('[data-testid=\"player-name\"]').length === n",
                           arg=len(names))
    shown = {row["name"]: row for row in page.evaluate(_NAMES)}
    assert set(shown) == set(names), shown
    for name, row in shown.items():
        assert row["title"] == name, row
        assert row["shown"] >= min(8, len(name)), row
        # A name of eight characters or fewer is never cut at all.
        if len(name) <= 8:
            assert not row["cut"] and row["shown"] == len(name), row


def assert_fits(page) -> None:
    found = page.evaluate(_OVERFLOW)
    assert found["out"] == [], found
    assert found["scroll"] <= found["width"], found


def test_heading_and_turn_follow_the_state(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    setup = in_thread(_set_up)
    game_id = setup["id"]
    page = open_page(browser, errors)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server_url}/accounts/login/?next=/games/{game_id}/")
    page.get_by_label("Username").fill("newbie")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/")
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")

    # Set-up: the table waits for players; there is no turn to show, and nothing to decide.
    expect(page.get_by_test_id("game-status")).to_have_text("Being set up")
    assert_panel(page, "Waiting for players", None, mine=False)
    assert_names_readable(page, "newbie")

    seats = start_through_the_api(live_server_url, game_id, setup["tokens"])
    players = {seats[name]: Rest(live_server_url, game_id, token) for name, token in setup["tokens"].items()}
    rng = random.Random(7)

    # The other player's turn: newbie's heading says it is not theirs, the indicator whom the
    # game waits for (a "Your turn" or "Your move" anywhere would contradict it).
    play_until_waiting_for(players, seats[LONG_NAME], rng)
    state = assert_panel(page, "Not your turn", f"Waiting for {LONG_NAME}", mine=False)
    # The game module names what is awaited (its pendingDecision), once, in the indicator.
    assert re.fullmatch(rf"Waiting for {LONG_NAME} to [a-z’ ]+", state["turn"]), state

    # Newbie's turn: "Your move" above the controls, and the indicator says whose turn.
    play_until_waiting_for(players, seats["newbie"], rng)
    state = assert_panel(page, "Your move", "Your turn", mine=True)
    assert state["turn"] == "Your turn", state
    # Names with every badge in the row (you, host, to act), on a desktop and on a phone.
    expect(page.locator('[data-testid="player"] .tag--turn')).to_have_count(1)
    assert_names_readable(page, "newbie", LONG_NAME)
    page.set_viewport_size(PHONE)
    assert_names_readable(page, "newbie", LONG_NAME)
    snap(page, artifacts / "game-states-your-move-phone.png")
    page.set_viewport_size(SMALL_PHONE)
    assert_names_readable(page, "newbie", LONG_NAME)
    page.set_viewport_size(DESKTOP)

    # The game ends: "Game over", said once; no turn, nothing to decide.
    play_to_the_end(players, rng)
    expect(page.get_by_test_id("game-status")).to_have_text("Finished", timeout=TIMEOUT_MS * 2)
    assert_panel(page, "Game over", None, mine=False)
    expect(page.locator("#game-result")).to_be_visible()

    # Loaded afresh once over (the downloads appear), on a small phone: the shared chrome fits.
    page.set_viewport_size(SMALL_PHONE)
    page.reload()
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")
    expect(page.get_by_test_id("downloads")).to_be_visible()
    assert_panel(page, "Game over", None, mine=False)
    assert_names_readable(page, "newbie", LONG_NAME)
    assert_fits(page)
    snap(page, artifacts / "game-states-over-360.png")
    assert errors == []


def test_setup_page_fits_a_small_phone(live_server_url, browser):
    """The shared chrome of a table being set up fits 360 px: page head, status, tools, panels."""
    from playwright.sync_api import expect

    errors: list[str] = []
    setup = in_thread(_set_up)
    page = open_page(browser, errors)
    page.set_viewport_size(SMALL_PHONE)
    page.goto(f"{live_server_url}/accounts/login/?next=/games/{setup['id']}/")
    page.get_by_label("Username").fill("newbie")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")
    assert_panel(page, "Waiting for players", None, mine=False)
    assert_fits(page)
    # The turn-signal menu opened on the phone stays inside it too.
    page.get_by_test_id("turn-signals-toggle").click()
    assert_fits(page)
    assert errors == []


@pytest.mark.parametrize("touch", [False, True])
def test_keyboard_hints_hidden_on_touch(live_server_url, browser, touch):
    """``.kbd-hint`` (site.css) is shown with a mouse and hidden on a touch screen."""
    context = browser.new_context(viewport=PHONE if touch else DESKTOP, has_touch=touch, is_mobile=touch)
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/")
        assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches") is touch
        shown = page.evaluate("""() => {
          const hint = document.createElement("kbd");
          hint.className = "kbd-hint";
          hint.textContent = "D";
          document.body.append(hint);
          return hint.getClientRects().length > 0;
        }""")
        assert shown is not touch
    finally:
        context.close()
