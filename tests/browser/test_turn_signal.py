"""Turn signals (static/js/turn_signal.js): Alice's Acquire table sits in a background tab while Bob
moves through the REST API; when the turn comes to her the hidden tab's title says so, and once
she switches the title signal off (and notifications on) it does not, while a notification and a
beep come instead."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.acquire.bots.house import choose
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.pages import PASSWORD, TIMEOUT_MS, VIEWPORT, server_database, snap
from tests.served import stop

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# The indicator on Bob's turn; a game module may add what he is to do ("… to play a tile").
WAITING_FOR_BOB = re.compile(r"^Waiting for bob\b")

# Counts what the page asks of the browser's notification and audio APIs. The real APIs still
# run: this only records the calls, so the test sees whether the page signalled.
_SPY = """(() => {
  window.__notifications = [];
  window.__tones = 0;
  const Native = window.Notification;
  if (Native) {
    window.Notification = class extends Native {
      constructor(title, options) {
        window.__notifications.push({ title, body: options && options.body });
        super(title, options);
      }
    };
  }
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__tones += 1;
    return start.apply(this, args);
  };
})();"""

# The open menu's panel lies wholly on a screen this wide.
_PANEL_FITS = """(width) => {
  const r = document.querySelector("[data-signal-form]").getBoundingClientRect();
  return r.width > 0 && r.left >= 0 && r.right <= width;
}"""


class Rest:
    """One player's REST client (an API token, as a bot would use)."""

    def __init__(self, base_url: str, game_id: int, token: str) -> None:
        self.api = f"{base_url}/api"
        self.game = f"/games/{game_id}"
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, headers=self.headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def snapshot(self) -> dict:
        return self.call(f"{self.game}/snapshot/")

    def move(self, rng: random.Random) -> None:
        snapshot = self.snapshot()
        action, params = choose(snapshot["view"], snapshot["legal"], rng)
        self.call(f"{self.game}/moves/", {"action": action, "params": params, "v": snapshot["v"]})


def play_until_waiting_for(players: dict[int, Rest], waited: int, rng: random.Random) -> None:
    """Play the other seats' moves, as their bots would, until the game waits for seat ``waited``."""
    for _ in range(40):
        to_act = players[waited].snapshot()["to_act"]
        if to_act == [waited]:
            return
        players[to_act[0]].move(rng)
    raise AssertionError("the game never came round to the seat")


def set_up_game() -> dict:
    """Alice and Bob at a started two-player Acquire table; a token each. In a thread of its own:
    the lobby announces what it did with ``async_to_sync``, which refuses to run in the test's
    thread, where Playwright's event loop runs."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_set_up_game).result()


def _set_up_game() -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from accounts.tokens import token_for
    from games.models import Game
    from games.service import lobby

    with server_database():
        users = get_user_model().objects
        # Hashed as the server checks it: this process's fast test hasher is not in the server's list.
        alice = users.create_user(username="alice")
        alice.password = PBKDF2PasswordHasher().encode(PASSWORD, "turn-signal-salt", iterations=1000)
        alice.save(update_fields=["password"])
        bob = users.create_user(username="bob")
        game = lobby.create_table(alice, "acquire", 2)
        lobby.join(bob, game.id)
        lobby.accept(alice, game.id)
        lobby.accept(bob, game.id)
        game = Game.objects.get(id=game.id)
        positions = {seat.user_id: seat.position for seat in game.seats.all()}
        return {"id": game.id, "number": game.display_number,
                "alice": (positions[alice.id], token_for(alice)), "bob": (positions[bob.id], token_for(bob))}


@pytest.fixture
def tabs(monkeypatch):
    """A browser context whose pages are tabs of one window, hidden when another tab is in front.

    Playwright's own contexts keep every page visible (it emulates focus, which Chromium answers
    by treating the page as captured, hence shown), so a background tab cannot be had there. Here
    Debian's Chromium is started by the test and Playwright connects to it without its defaults:
    its default context then behaves as a person's browser does.
    """
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: run `make test`, which installs it"
    from playwright import sync_api

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # as the browser fixture does
    profile = tempfile.mkdtemp(prefix="turn-signal-")
    process = subprocess.Popen(
        [CHROMIUM, "--headless", "--remote-debugging-port=0", f"--user-data-dir={profile}", *CHROMIUM_ARGS,
         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)  # its own process group, so that its helpers end with it
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            assert process.poll() is None, "Chromium exited"
            assert time.monotonic() < deadline, "Chromium did not open its debugging port"
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}", no_defaults=True)
            try:
                context = browser.contexts[0]
                context.set_default_timeout(TIMEOUT_MS)
                yield context
            finally:
                browser.close()
    finally:
        stop(process)
        # A helper process left behind would go on writing into the profile removed below.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(profile, ignore_errors=True)


def hide(page, other) -> None:
    """Put ``page`` in the background the way a person does: another tab of the window in front."""
    other.bring_to_front()
    page.wait_for_function("document.visibilityState === 'hidden'")
    assert page.evaluate("document.visibilityState") == "hidden"


def show(page) -> None:
    page.bring_to_front()
    page.wait_for_function("document.visibilityState === 'visible'")


def test_a_hidden_table_signals_the_turn(live_server_url, tabs, artifacts):
    from playwright.sync_api import expect

    game = set_up_game()
    rng = random.Random(7)
    alice_seat, alice_token = game["alice"]
    bob_seat, bob_token = game["bob"]
    players = {alice_seat: Rest(live_server_url, game["id"], alice_token),
               bob_seat: Rest(live_server_url, game["id"], bob_token)}
    own_title = f"Acquire #{game['number']} · Game Table"
    marked_title = f"● Your turn — Acquire #{game['number']}"

    errors: list[str] = []
    tabs.grant_permissions(["notifications"], origin=live_server_url)
    tabs.add_init_script(_SPY)
    page = tabs.pages[0] if tabs.pages else tabs.new_page()
    page.set_viewport_size(VIEWPORT)
    # As pages.open_page: script errors and anything the Content-Security-Policy blocked fail the test.
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}")
            if message.type == "error" and "Content Security Policy" in message.text else None)
    page.goto(f"{live_server_url}/accounts/login/?next=/games/{game['id']}/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    page.wait_for_url(f"{live_server_url}/games/{game['id']}/")
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")
    expect(page.get_by_test_id("turn-signals")).to_have_attribute("data-ready", "true")
    # Defaults, as stored (none yet) and drawn.
    expect(page.get_by_test_id("signal-turn_title")).to_be_checked()
    expect(page.get_by_test_id("signal-turn_notification")).not_to_be_checked()
    expect(page.get_by_test_id("signal-turn_sound")).to_be_checked()

    # Bob's turn, the table in front: nothing to signal.
    play_until_waiting_for(players, bob_seat, rng)
    expect(page.get_by_test_id("turn-indicator")).to_have_text(WAITING_FOR_BOB)
    assert page.title() == own_title
    other = tabs.new_page()
    hide(page, other)
    assert page.title() == own_title

    # Bob moves while Alice's table is in the background: the turn comes to her.
    play_until_waiting_for(players, alice_seat, rng)
    expect(page).to_have_title(marked_title)
    assert page.evaluate("document.visibilityState") == "hidden"
    # No notification (off by default) and no beep: nobody has touched this page yet, and the page
    # sets its audio up only at a gesture on it (browsers allow no sound before one).
    assert page.evaluate("[window.__notifications.length, window.__tones]") == [0, 0]
    # Looking at the tab restores the title, though it is still her turn.
    show(page)
    expect(page).to_have_title(own_title)
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn")

    # The title signal off, notifications on (the browser allows them here), through the menu,
    # on a phone's screen: the menu opens inside it.
    page.set_viewport_size(PHONE)
    page.get_by_test_id("turn-signals-toggle").click()
    page.wait_for_function(_PANEL_FITS, arg=PHONE["width"])
    snap(page, artifacts / "turn-signals-phone.png")
    status = page.locator("[data-signal-status]")
    page.get_by_test_id("signal-turn_title").uncheck()
    expect(status).to_have_text("Saved for every table.")
    page.get_by_test_id("signal-turn_notification").check()
    expect(status).to_have_text("Saved for every table.")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("turn-signals")).not_to_have_attribute("open", "")
    assert players[alice_seat].call("/me/preferences/") == {
        "turn_title": False, "turn_notification": True, "turn_sound": True}

    # Alice plays her turn (through her token), hides the table, and the turn comes again.
    play_until_waiting_for(players, bob_seat, rng)
    expect(page.get_by_test_id("turn-indicator")).to_have_text(WAITING_FOR_BOB)
    hide(page, other)
    play_until_waiting_for(players, alice_seat, rng)
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn")
    # The indicator and the signals are drawn in the same repaint: the title stayed the page's own.
    assert page.title() == own_title
    # Instead: one notification, and one two-tone beep (the menu's clicks allowed the audio).
    page.wait_for_function("window.__notifications.length === 1 && window.__tones === 2")
    notification = page.evaluate("window.__notifications[0]")
    assert notification == {"title": "Your turn", "body": f"Acquire #{game['number']}: the game waits for you."}
    assert not errors, errors
