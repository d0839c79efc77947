"""A person finishes a game, then finds it on the games page and on their player page, opens
its replay from there and downloads its record from there.

Playing a whole game through the page takes minutes, so the game is played by the house bot's
judgement for both seats through the game service, in this process, up to the person's last
decision: an Acquire game for two, from a fixed seed, stopped at the first purchase where the
person may end the game (the opponent never ends it). The person then finds the game in
progress on the games page, opens it and ends it through the page, as any player would."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from games.acquire.engine.review import parse_review
from tests.browser.pages import open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SEED = 11
MAX_ACTIONS = 2_000


def play_to_the_last_decision(monkeypatch, person: str) -> int:
    """An Acquire game of ``person`` against "rival", both seats played by the bot, left at
    ``person``'s first purchase that may end the game. Returns the game id."""
    from accounts.models import User
    from games.management.commands.playbots import load_bot
    from games.models import Arrangement, Status
    from games.service import lobby, move_sql, moves, reads

    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: SEED)  # the game's seed
    me = User.objects.get(username=person)
    rival = User.objects.create_user("rival", password="unused-pw-42")
    game = lobby.create_table(me, "acquire", 2)
    lobby.join(rival, game.id)
    lobby.change_arrangement(me, game.id, Arrangement.EXACT)  # the person plays first
    lobby.accept(me, game.id)
    lobby.accept(rival, game.id)
    choose, rng = load_bot("acquire"), random.Random(SEED)
    users = {0: me, 1: rival}
    for _ in range(MAX_ACTIONS):
        game = move_sql.game(game.id)
        assert game.status == Status.ACTIVE, "the game ended before the person could end it"
        seat = reads.snapshot(game, me, start=game.history_size)["to_act"][0]
        snapshot = reads.snapshot(game, users[seat], start=game.history_size)
        legal = snapshot["legal"]
        if legal[0]["type"] == "PurchaseShares" and legal[0].get("can_end"):
            if seat == 0:
                return game.id
        action, params = choose(snapshot["view"], legal, rng)
        if action == "PurchaseShares":
            params = [params[0], 0]  # only the person ends this game
        moves.apply_action(game.id, users[seat], action, params, answers=game.seq, hold=False)
    raise AssertionError(f"no decision to end the game within {MAX_ACTIONS} actions")


def test_find_replay_and_download_a_finished_game(live_server_url, browser, artifacts, monkeypatch):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "ann")
    with server_database():
        game_id = play_to_the_last_decision(monkeypatch, "ann")

    # The lobby's games in progress link each player's page.
    page.goto(f"{live_server_url}/")
    lobby_row = page.locator(f'[data-testid="active-game"][data-game="{game_id}"]')
    expect(lobby_row.locator("a.player-chip", has_text="rival")).to_have_attribute("href", "/players/rival/")

    # Her opponent's page offers her game back to her, in the lobby's words.
    expect(lobby_row.get_by_role("link", name="Return to your game")).to_be_visible()
    page.goto(f"{live_server_url}/players/rival/")
    theirs = page.locator(f'[data-testid="player-active"] [data-game="{game_id}"]')
    expect(theirs.get_by_test_id("return-link")).to_have_text("Return to your game")

    # The games page lists it among the games in progress, with a link back to it: her own game,
    # so it reads as the lobby's does, not "Watch".
    page.get_by_test_id("nav-games").click()
    page.wait_for_url(f"{live_server_url}/games/")
    page.get_by_test_id("tab-active").click()
    live = page.locator(f'[data-testid="archive-game"][data-game="{game_id}"]')
    expect(live).to_have_attribute("data-status", "active")
    expect(live.get_by_test_id("archive-player")).to_have_count(2)
    expect(live.get_by_test_id("player-score")).to_have_count(0)  # nothing the lobby does not show
    expect(live.get_by_test_id("watch-link")).to_have_count(0)
    expect(live.get_by_test_id("return-link")).to_have_text("Return to your game")
    live.get_by_test_id("return-link").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/")

    # The last decision: buy nothing and end the game.
    dialog = page.locator('[data-testid="acquire-dialog"][data-action="PurchaseShares"]')
    expect(dialog).to_be_visible()
    dialog.get_by_test_id("end-game").check()
    dialog.locator('[data-testid="action-button"][data-action="PurchaseShares"]').click()
    expect(page.get_by_test_id("final-standings")).to_be_visible()
    expect(page.get_by_test_id("game-log")).to_contain_text("ended the game")

    # On the games page (finished, the default), with both players, their places and scores.
    page.get_by_test_id("nav-games").click()
    row = page.locator(f'[data-testid="archive-game"][data-game="{game_id}"]')
    expect(row).to_have_attribute("data-status", "finished")
    expect(row.get_by_test_id("player-place")).to_have_count(2)
    expect(row.get_by_test_id("player-score").first).to_have_text(re.compile(r"^\$[\d,]+$"))
    expect(row.get_by_test_id("ended")).to_contain_text("UTC")
    snap(page, artifacts / "games-list.png")
    # Filtered to ann's wins or losses, it is in exactly one of them.
    outcomes = []
    for result in ("won", "lost"):
        page.goto(f"{live_server_url}/games/?player=ann&result={result}")
        if page.locator(f'[data-testid="archive-game"][data-game="{game_id}"]').count():
            outcomes.append(result)
    assert len(outcomes) == 1, outcomes

    # Her name leads to her page, as does "My games": the game is there with her outcome.
    page.goto(f"{live_server_url}/games/")
    row.locator('[data-testid="player-link"]', has_text="ann").click()
    page.wait_for_url(f"{live_server_url}/players/ann/")
    expect(page.get_by_test_id("nav-my-games")).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("player-name")).to_contain_text("ann")
    expect(page.get_by_test_id("count-finished")).to_have_text("1")
    mine = page.locator(f'[data-testid="player-finished"] [data-testid="archive-game"][data-game="{game_id}"]')
    expect(mine).to_have_attribute("data-outcome", outcomes[0])
    stats = page.locator('[data-testid="stats"][data-game-type="acquire"]')
    expect(stats.get_by_test_id("stat").first).to_have_text("1")  # games
    expect(stats.get_by_test_id("stat").nth(1)).to_have_text("1" if outcomes == ["won"] else "0")  # wins
    snap(page, artifacts / "player-page.png")

    # The record downloads from her page and reads back as Acquire review data.
    with page.expect_download() as download:
        mine.get_by_test_id("download-record").click()
    record = json.loads(Path(download.value.path()).read_text())
    parse_review(record)
    assert download.value.suggested_filename == f"acquire-review-{game_id}.json"

    # Its replay opens from there, at the last step.
    mine.get_by_test_id("replay-link").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/replay/")
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"Step ([1-9]\d*) of \1$"))

    # Both pages fit a phone, the logged-in header (five links) included.
    phone = browser.new_context(viewport=PHONE, storage_state=page.context.storage_state()).new_page()
    phone.on("pageerror", lambda error: errors.append(f"{phone.url}: {error}"))
    for path, shot in (("/games/?player=ann", "games-list-phone.png"), ("/players/ann/", "player-phone.png")):
        phone.goto(f"{live_server_url}{path}")
        expect(phone.locator(f'[data-testid="archive-game"][data-game="{game_id}"]').first).to_be_visible()
        expect(phone.get_by_test_id("nav-my-games")).to_be_visible()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (path, width)
        snap(phone, artifacts / shot)
    phone.context.close()
    assert errors == []
