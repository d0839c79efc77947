"""A person plays a whole game of Acquire against three house bots through the page, then
replays it; and the page never learns the bots' tiles."""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.browser.pages import open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_DECISIONS = 400

# Something to act on (a fresh dialog whose buttons are live) or the final standings.
_READY = """(last) => {
  const standings = document.querySelector('[data-testid="final-standings"]');
  if (standings && standings.offsetParent !== null) return "over";
  const dialog = document.querySelector('[data-testid="acquire-dialog"]');
  if (!dialog || dialog.dataset.v === last) return false;
  const buttons = dialog.querySelectorAll('button[data-testid="action-button"]');
  if (![...buttons].some((b) => !b.disabled)) return false;
  return dialog.dataset.action;
}"""


def open_table_with_bots(page, base_url: str, username: str, mode_label: str, bots: int, shot=None) -> str:
    """Sign up, open an Acquire table, fill it with house bots through "Add bot", accept: the game page."""
    from playwright.sync_api import expect

    sign_up(page, base_url, username)
    page.get_by_test_id("create-type").select_option("acquire")
    page.get_by_test_id("create-mode").select_option(label=mode_label)
    page.get_by_test_id("create-submit").click()
    table = page.get_by_test_id("setup-table")
    expect(table).to_have_count(1)
    game_id = table.get_attribute("data-game")
    for n in range(bots):
        table.get_by_test_id("add-bot").click()
        expect(table.get_by_test_id("seat")).to_have_count(n + 2)
    # Bots are marked, and the full table offers no more "Add bot".
    expect(table.locator(".tag--bot")).to_have_count(bots)
    expect(table.get_by_test_id("add-bot")).to_have_count(0)
    expect(table.get_by_test_id("free-seat")).to_have_count(0)
    if shot:
        snap(page, shot)
    table.get_by_test_id("accept-setup").click()
    page.wait_for_url(f"{base_url}/games/{game_id}/")
    expect(page.get_by_test_id("acquire-table")).to_be_visible()
    return game_id


def wait_ready(page, last_v: str | None, timeout_ms: int = 20_000) -> str:
    """Block until it is our decision (a new one) or the game is over; returns the action or "over"."""
    handle = page.wait_for_function(_READY, arg=last_v or "", timeout=timeout_ms)
    return handle.json_value()


def decide(page, action: str, *, buy: bool = True, end_when_allowed: bool = True, before_submit=None) -> str:
    """Make the current decision with a simple strategy; returns the v the decision answered.

    Play the first legal rack tile; take the first chain offered; at a disposal sell one share
    if there is one; buy one share of the first affordable chain (or nothing); end the game as
    soon as that is allowed.
    """
    dialog = page.get_by_test_id("acquire-dialog")
    v = dialog.get_attribute("data-v")
    if action == "PlayTile":
        page.locator('[data-testid="rack-tile"][data-legal="true"]').first.click()
    elif action in ("SelectNewChain", "SelectMergerSurvivor", "SelectChainToDisposeOfNext", "StartGame"):
        dialog.locator('[data-testid="action-button"]').first.click()
    elif action == "DisposeOfShares":
        sell = dialog.get_by_test_id("sell-plus")
        if sell.is_enabled():
            sell.click()
        if before_submit:
            before_submit()
        dialog.locator('[data-testid="action-button"][data-action="DisposeOfShares"]').click()
    elif action == "PurchaseShares":
        end = dialog.get_by_test_id("end-game")
        if end_when_allowed and end.count():
            end.check()
        plus = dialog.locator('button[data-testid^="buy-"][data-testid$="-plus"]:enabled')
        if buy and plus.count():
            plus.first.click()
        if before_submit:
            before_submit()
        dialog.locator('[data-testid="action-button"][data-action="PurchaseShares"]').click()
    else:  # pragma: no cover - a new decision type would need a strategy
        raise AssertionError(f"no strategy for {action}")
    return v


def rack_tiles(page) -> list[str]:
    return page.locator('[data-testid="rack"] [data-testid="rack-tile"] .acq-tile__name').all_inner_texts()


def text_outside_board(page) -> str:
    """Everything the page says, except the board (whose cells are labelled with every tile name)."""
    return page.evaluate("""() => {
      const copy = document.body.cloneNode(true);
      copy.querySelectorAll('[data-testid="acquire-board"], script').forEach((el) => el.remove());
      return copy.textContent;
    }""")


def mentions_tile(text: str, name: str) -> bool:
    """Whether ``name`` (like "2C") appears as a whole tile name ("12C" does not mention "2C")."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(name)}(?![0-9A-Za-z])", text) is not None


def board_states(page) -> list[str]:
    return page.eval_on_selector_all('[data-testid="board-cell"]', "cells => cells.map((c) => c.dataset.state)")


def test_acquire_full_game(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    started = time.monotonic()
    game_id = open_table_with_bots(
        page, live_server_url, "ann", "Singles 4 (4 seats)", bots=3, shot=artifacts / "lobby-bots.png"
    )

    # The table: a 12 x 9 board, four players (three of them bots), seven chains.
    expect(page.get_by_test_id("board-cell")).to_have_count(108)
    expect(page.get_by_test_id("acquire-player")).to_have_count(4)
    expect(page.locator('[data-testid="acquire-players"] .acq-bot')).to_have_count(3)
    expect(page.get_by_test_id("chain-row")).to_have_count(7)
    expect(page.get_by_test_id("rack-tile")).to_have_count(6)
    # Nobody has moved for ann yet: she has her starting $6,000.
    expect(page.locator('.acq-player--me [data-testid="player-cash"]')).to_have_text("$6,000")
    # Untimed: no clocks.
    expect(page.get_by_test_id("clock")).to_have_count(0)

    last_v: str | None = None
    decisions = 0
    seen: set[str] = set()
    shot_table = False
    shot_dialogs: set[str] = set()
    while True:
        action = wait_ready(page, last_v)
        if action == "over":
            break
        seen.add(action)
        if action == "PlayTile":
            legal = page.locator('[data-testid="rack-tile"][data-legal="true"]')
            expect(legal.first).to_be_visible()
            # Hovering a rack tile lights its cell on the board, which is also offered there.
            tile = legal.first.get_attribute("data-tile")
            cell = page.locator(f'[data-testid="board-cell"][data-tile="{tile}"]')
            expect(cell).to_have_class(re.compile("acq-cell--legal"))
            legal.first.hover()
            expect(cell).to_have_class(re.compile("acq-cell--hover"))
            page.mouse.move(0, 0)
            if not shot_table and page.locator('[data-testid="board-chain-label"]').count() >= 2:
                snap(page, artifacts / "acquire-table.png")
                shot_table = True
        # The dialogs as the player sees them, in the panel docked under the rack.
        shoot = None
        if action in ("PurchaseShares", "DisposeOfShares", "SelectNewChain") and action not in shot_dialogs:
            shot_dialogs.add(action)

            def shoot(action=action):
                # The panel is in the page's flow, under the rack: bring it to the bottom of the window.
                page.get_by_test_id("acquire-dialog").evaluate("(el) => el.scrollIntoView({block: 'end'})")
                page.screenshot(path=str(artifacts / f"acquire-{action}.png"), animations="disabled")

            if action == "SelectNewChain":
                shoot()
        last_v = decide(page, action, before_submit=shoot)
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game should have ended by now"

    elapsed = time.monotonic() - started
    assert {"PlayTile", "PurchaseShares"} <= seen, seen

    # Final standings: every player ranked, with the replay and review links.
    standings = page.get_by_test_id("final-standings")
    expect(standings).to_be_visible()
    expect(standings.get_by_test_id("standing")).to_have_count(4)
    expect(standings).to_contain_text("ann")
    expect(page.get_by_test_id("game-status")).to_have_text("Finished")
    expect(page.get_by_test_id("download-review")).to_have_attribute("href", f"/api/games/{game_id}/review/")
    log = page.get_by_test_id("game-log")
    expect(log).to_contain_text(re.compile(r"ann played \d+[A-I]"))
    expect(log).to_contain_text(re.compile(r"founded (Luxor|Tower|American|Festival|Worldwide|Continental|Imperial)"))
    expect(log).to_contain_text(re.compile(r"ended the game|Every tile has been played|Nobody could play"))
    # The finished game's view shows every rack (a rack may be empty by then: count them all).
    expect(page.get_by_test_id("player-rack")).to_have_count(4)
    snap(page, artifacts / "acquire-final.png")

    review = page.request.get(f"{live_server_url}/api/games/{game_id}/review/")
    assert review.ok
    data = json.loads(review.text())
    steps = len(data[8])
    assert data[5][0] and len(data[5]) == 4

    # The replay opens at the end; step back to the very start.
    page.get_by_test_id("watch-replay").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/replay/")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step {steps} of {steps}")
    expect(page.get_by_test_id("final-standings")).to_be_visible()
    expect(page.get_by_test_id("player-rack")).to_have_count(4)
    page.get_by_test_id("replay-back").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step {steps - 1} of {steps}")
    page.get_by_test_id("replay-first").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step 0 of {steps}")
    expect(page.locator('#replay-board[data-step="0"]')).to_have_count(1)
    assert set(board_states(page)) == {"empty"}
    assert page.get_by_test_id("replay-first").is_disabled()
    # One step on (StartGame): the four position tiles, alone on the board.
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step 1 of {steps}")
    expect(page.locator('[data-testid="board-cell"][data-state="lone"]')).to_have_count(4)
    assert board_states(page).count("empty") == 104
    # The middle of the game, by the slider.
    page.get_by_test_id("replay-slider").fill(str(steps // 2))
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step {steps // 2} of {steps}")
    expect(page.locator('[data-testid="player-rack"]')).to_have_count(4)
    snap(page, artifacts / "acquire-replay.png")

    print(f"\n{decisions} decisions by ann, game played in {elapsed:.1f} s, {steps} actions")
    assert not errors, errors


def _bot_racks(game_id: int) -> dict[int, list[str]]:
    """The house bots' racks right now, from the server's own state (the test shares its database)."""
    from games.acquire.engine.board import tile_name
    from games.models import Game
    from games.state import replay as state

    with server_database():
        game = Game.objects.get(id=game_id)
        engine = state.replay(game).engine
        bots = {s.position for s in game.seats.select_related("user") if s.user.is_bot}
    view = engine.view(None, reveal_all=True)
    return {seat: [tile_name(t["tile"]) for t in view["racks"][seat]] for seat in bots}


def test_acquire_page_never_holds_the_bots_tiles(live_server_url, browser):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    game_id = open_table_with_bots(page, live_server_url, "ann", "Singles 4 (4 seats)", bots=3)
    # The page only started listening after the lobby navigated here; reload to see every frame.
    page.reload()
    expect(page.get_by_test_id("acquire-table")).to_be_visible()
    me = int(page.get_by_test_id("acquire-player").and_(page.locator(".acq-player--me")).get_attribute("data-seat"))

    last_v: str | None = None
    turns = 0
    checked = 0
    while turns < 8:
        action = wait_ready(page, last_v)
        if action == "over":
            break
        if action == "PlayTile":
            turns += 1
            racks = _bot_racks(int(game_id))
            mine = rack_tiles(page)
            assert len(mine) == 6 or turns > 1
            page_text = text_outside_board(page)
            for seat, tiles in racks.items():
                assert seat != me
                for name in tiles:
                    assert name not in mine, f"bot seat {seat}'s {name} shows in ann's rack"
                    assert not mentions_tile(page_text, name), f"bot seat {seat}'s {name} appears on ann's page"
                    # No element off the board carries the tile either.
                    outside = page.locator(f'[data-tile="{_number(name)}"]:not([data-testid="board-cell"])')
                    assert outside.count() == 0, f"{name} is in the DOM off the board"
                    checked += 1
        last_v = decide(page, action, end_when_allowed=False)
    assert checked >= 3 * 6 * 4

    # Over the socket, every tile another seat drew came as null.
    for frame in frames:
        message = json.loads(frame)
        batches = []
        if message.get("type") == "GameMessages":
            batches = message["messages"]
        elif message.get("type") == "Snapshot":
            batches = message.get("history") or []
            view = message.get("view") or {}
            assert "racks" not in view and "tile_bag" not in view
        for m in batches:
            if m["type"] == "DrewTile" and m["player"] != me:
                assert m["params"] == [None], m
    assert any(json.loads(f).get("type") == "Snapshot" for f in frames)
    assert not errors, errors


def _number(name: str) -> int:
    return (int(name[:-1]) - 1) * 9 + "ABCDEFGHI".index(name[-1])


_CREATE_TIMED = """async ({mode, start, increment}) => {
  // The lobby's create form has no time control, so this one table is opened over a second
  // lobby socket of the same logged-in page, exactly as the protocol allows.
  const ws = new WebSocket(`ws://${location.host}/ws/lobby/`);
  const next = (test) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer")), 10000);
    ws.addEventListener("message", function listen(event) {
      const frame = JSON.parse(event.data);
      // A LobbyMessages frame holds the lobby messages of one tick (docs/protocols/lobby.md).
      const messages = frame.type === "LobbyMessages" ? frame.messages : [frame];
      const msg = messages.find(test);
      if (msg) { clearTimeout(timer); ws.removeEventListener("message", listen); resolve(msg); }
    });
  });
  await new Promise((resolve) => ws.addEventListener("open", resolve, { once: true }));
  const hello = next((m) => m.type === "Greetings");
  ws.send(JSON.stringify({ type: "Login", version: 1 }));
  const greetings = await hello;
  const created = next((m) => m.type === "GameCreated" && m.host === greetings.user);
  const create = { type: "CreateGame", game_type: "acquire", mode, time_start: start, time_increment: increment };
  ws.send(JSON.stringify(create));
  const game = (await created).game;
  ws.close();
  return game;
}"""


def test_acquire_clocks_count_down(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "tim")
    game_id = page.evaluate(_CREATE_TIMED, {"mode": 2, "start": 300, "increment": 5})
    table = page.locator(f'[data-testid="setup-table"][data-game="{game_id}"]')
    table.get_by_test_id("add-bot").click()
    expect(table.get_by_test_id("seat")).to_have_count(2)
    table.get_by_test_id("accept-setup").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/")

    # Both seats show a clock; the bot moves at once, so only tim's is running, and it ticks.
    clocks = page.get_by_test_id("clock")
    expect(clocks).to_have_count(2)
    running = page.locator('[data-testid="clock"][data-running="1"]')
    expect(running).to_have_count(1)
    me = page.locator(".acq-player--me")
    expect(me.get_by_test_id("clock")).to_have_attribute("data-running", "1")
    first = running.inner_text()
    assert re.fullmatch(r"[45]:\d\d", first), first
    expect(running).not_to_have_text(first, timeout=3000)
    idle = page.locator('[data-testid="clock"][data-running="0"]')
    still = idle.inner_text()
    page.wait_for_timeout(1200)
    assert idle.inner_text() == still

    page.screenshot(path=str(artifacts / "acquire-clocks.png"), animations="disabled")

    # After a move (and the bot's answer) the clocks come back from the server: still one running.
    action = wait_ready(page, None)
    v = decide(page, action)
    wait_ready(page, v)
    expect(clocks).to_have_count(2)
    expect(running).to_have_count(1)

    # No replay while the game is on: the page says so and links back to the table.
    page.goto(f"{live_server_url}/games/{game_id}/replay/")
    message = page.get_by_test_id("replay-message")
    expect(message).to_contain_text("still in progress")
    expect(message.get_by_role("link")).to_have_attribute("href", f"/games/{game_id}/")
    expect(page.get_by_test_id("replay-controls")).to_be_hidden()
    assert not errors, errors


def test_acquire_team_game_standings(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    open_table_with_bots(page, live_server_url, "tess", "Teams 2 vs 2 (4 seats)", bots=3)
    # Team colours on the player cards: two seats each.
    for team in (0, 1):
        expect(page.locator(f'[data-testid="acquire-player"].team-{team}')).to_have_count(2)

    last_v: str | None = None
    for _ in range(MAX_DECISIONS):
        action = wait_ready(page, last_v)
        if action == "over":
            break
        last_v = decide(page, action, buy=False)
    else:  # pragma: no cover
        raise AssertionError("the game should have ended by now")

    teams = page.get_by_test_id("team-standings")
    expect(teams).to_be_visible()
    expect(teams.get_by_test_id("team-standing")).to_have_count(2)
    expect(page.get_by_test_id("final-standings").get_by_test_id("standing")).to_have_count(4)
    # A team's total is the sum of its players' final worths.
    totals = page.evaluate("""() => {
      const money = (el) => Number(el.textContent.replace(/[^0-9]/g, ""));
      const players = [...document.querySelectorAll('[data-testid="standing"]')]
        .map((row) => ({ seat: Number(row.dataset.seat), worth: money(row.querySelector("td:last-child")) }));
      const teams = [...document.querySelectorAll('[data-testid="team-standing"]')]
        .map((row) => ({ team: Number(row.dataset.team), total: money(row.querySelector("td:last-child")) }));
      return { players, teams };
    }""")
    for team in totals["teams"]:
        members = [p["worth"] for p in totals["players"] if p["seat"] % 2 == team["team"]]
        assert team["total"] == sum(members), totals
    snap(page, artifacts / "acquire-teams-final.png")
    # On a phone: the board and the rack fill the width (what the first screen shows).
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_test_id("acquire-board").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "acquire-mobile.png"), animations="disabled")
    assert not errors, errors
