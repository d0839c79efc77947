"""A person plays a whole east-only riichi game against three house bots through the page, by
clicking only what it shows; the client answers every pass that is no decision by itself. Then the
replay of a bot game with a fixed seed shows a draw; and the tiles are drawn without any font."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from tests.browser.pages import boxes, open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_DECISIONS = 600
PHONE = {"width": 390, "height": 844}


# Something to act on, a hand's result not yet photographed, or the end. Returns "over",
# "screen:<kind>", "bar:<v>" (the decision bar) or "discard:<v>" (live tiles in the hand).
_READY = """([last, shot]) => {
  const final = document.querySelector('[data-testid="final-standings"]');
  if (final && final.offsetParent !== null) return "over";
  for (const kind of ["win", "draw"]) {
    if (!shot.includes(kind) && document.querySelector(`[data-testid="${kind}-screen"]`)) return `screen:${kind}`;
  }
  const table = document.querySelector('[data-testid="riichi-table"]');
  if (!table || table.dataset.v === last) return false;
  const bar = document.querySelector('[data-testid="riichi-bar"]');
  if (bar && [...bar.querySelectorAll("button")].some((b) => !b.disabled)) return `bar:${table.dataset.v}`;
  const live = '[data-testid="my-hand"] button[data-testid="hand-tile"]:not(:disabled)';
  if (document.querySelector(live)) return `discard:${table.dataset.v}`;
  return false;
}"""

# What the page shows when it offers nothing new: a wait for _READY that runs out says why.
_STUCK = """() => {
  const table = document.querySelector('[data-testid="riichi-table"]');
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim().slice(0, 120));
  return { v: table && table.dataset.v, legal: table && table.dataset.legal,
           bar: text('[data-testid="riichi-bar"] button:not(:disabled)'),
           liveTiles: document.querySelectorAll(
             '[data-testid="my-hand"] button[data-testid="hand-tile"]:not(:disabled)').length,
           mode: document.querySelector('[data-testid="my-hand"]')?.dataset.mode,
           screens: text('[data-testid$="-screen"] .rii-screen__round'), toasts: text('[data-testid="toast"]'),
           status: text('[data-testid="game-status"]') };
}"""


def wait_ready(page, last_v: str, shots) -> str:
    """The next moment the test acts on (_READY); if none comes in 30 s, a failure that shows
    the page's state and the server's (a lost click, a decision the page never offered)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_function(_READY, arg=[last_v, list(shots)], timeout=30_000).json_value()
    except PlaywrightTimeout:
        shown = page.evaluate(_STUCK)
        game = page.evaluate("""() => { const m = location.pathname.match(/games\\/(\\d+)/);
          return m ? fetch(`/api/games/${m[1]}/`).then((r) => r.json()).then((g) => ({ seq: g.seq, status: g.status,
            history_size: g.history_size })) : null; }""")
        raise AssertionError(f"nothing to act on after v {last_v!r} for 30 s: page {shown}, server {game}") from None


# What a hand-end screen shows, read at one moment (None once it has closed).
_SCREEN = """(kind) => {
  const screen = document.querySelector(`[data-testid="${kind}-screen"]`);
  if (!screen) return null;
  const all = (id) => screen.querySelectorAll(`[data-testid="${id}"]`);
  const yaku = all("yaku");
  return { yaku: yaku.length, yaku_shown: yaku.length > 0 && yaku[0].offsetParent !== null,
           total: [...all("win-total")].map((e) => e.textContent).join(" "),
           winning: all("winning-tile").length, wins: all("win").length, changes: all("score-change").length };
}"""

_HAND = """() => ({
  tiles: [...document.querySelectorAll('[data-testid="my-hand"] [data-testid="hand-tile"]')].map((t) => ({
    tile: t.dataset.tile, param: t.dataset.param || null, legal: t.dataset.legal === "true",
    drawn: t.dataset.drawn === "true" })),
  melds: [...document.querySelectorAll('[data-testid="my-melds"] [data-testid="meld"]')].map((m) => m.dataset.meld),
})"""


_SCROLL_TO_TABLE = """() => {
  const table = document.querySelector('[data-testid="riichi-table"]');
  const header = document.querySelector(".site-header");
  const below = header && getComputedStyle(header).position !== "static" ? header.offsetHeight : 0;
  window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY - below - 4);
}"""


def _best_discard(hand: dict) -> str:
    """The legal discard that leaves the fewest tiles from tenpai (honours and terminals first on a
    tie): a plain player's choice, so that riichi and wins come up in the game."""
    from games.riichi.engine.shoupai import Shoupai
    from games.riichi.engine.xiangting import xiangting

    tiles = [t["tile"] for t in hand["tiles"]]
    melds = "".join("," + m for m in hand["melds"])
    best: tuple | None = None
    for i, t in enumerate(hand["tiles"]):
        if not t["legal"]:
            continue
        rest = tiles[:i] + tiles[i + 1:]
        n = xiangting(Shoupai.from_string("".join(rest) + melds))
        edge = 0 if t["tile"][0] == "z" or t["tile"][1] in "19" else 1
        key = (n, edge, -i if t["drawn"] else i)
        if best is None or key < best[0]:
            best = (key, t["param"])
    assert best is not None, hand
    return best[1]


@pytest.fixture
def riichi_server(monkeypatch, request):
    """The served project with a short floor after each discard, so the game is not slowed."""
    monkeypatch.setenv("CALL_FLOOR_MS", "50")
    return request.getfixturevalue("live_server_url")


def open_riichi_table(page, base_url: str, username: str, clock: tuple[int, int] | None = None) -> str:
    """Sign up, open an east-only table with the lobby's create form (``clock``: seconds per
    decision and bank), add three house bots and accept: the game page."""
    from playwright.sync_api import expect

    sign_up(page, base_url, username)
    page.get_by_test_id("create-type").select_option("riichi")
    page.get_by_test_id("create-preset").select_option("east")
    if clock is not None:
        page.get_by_test_id("create-per-decision").fill(str(clock[0]))
        page.get_by_test_id("create-bank").fill(str(clock[1]))
    page.get_by_test_id("create-submit").click()
    table = page.get_by_test_id("setup-table")
    expect(table).to_have_count(1)
    game_id = table.get_attribute("data-game")
    for n in (2, 3, 4):
        table.get_by_test_id("add-bot").click()
        expect(table.get_by_test_id("seat")).to_have_count(n)
    expect(table.locator(".tag--bot")).to_have_count(3)
    table.get_by_test_id("accept-setup").click()
    page.wait_for_url(f"{base_url}/games/{game_id}/")
    expect(page.get_by_test_id("riichi-table")).to_be_visible()
    return game_id


def choose(actions: list[str], called: set[str]) -> str | None:
    """The bar's button a test presses: a win, a draw or riichi when offered; the first pon and the
    first chi (a closed hand keeps riichi possible after that; ``called`` remembers them); else
    skip. None when the bar offers none of these."""
    choice = next((a for a in ("hule", "pingju", "lizhi", "daopai") if a in actions), None)
    if choice is None:
        choice = next((a for a in ("pon", "chi") if a in actions and a not in called), None)
    if choice is None and "pass" in actions:
        choice = "pass"
    if choice in ("pon", "chi"):
        called.add(choice)
    return choice


def test_riichi_full_game_against_bots(riichi_server, browser, artifacts):
    from playwright.sync_api import expect

    base = riichi_server
    errors: list[str] = []
    page = open_page(browser, errors)
    # What the page sends and what the server says is legal, per v.
    sent: list[dict] = []
    legal_at: dict[int, list[str]] = {}

    def on_socket(ws):
        def received(payload):
            message = json.loads(payload)
            if message.get("type") in ("GameMessages", "Snapshot") and "legal" in message:
                legal_at[message["v"]] = [e["type"] for e in message["legal"] if e.get("allowed", True)]

        def out(payload):
            message = json.loads(payload)
            if message.get("type") == "DoGameAction":
                sent.append(message)
        ws.on("framereceived", received)
        ws.on("framesent", out)
    page.on("websocket", on_socket)

    game_id = open_riichi_table(page, base, "rin")
    started = time.monotonic()

    # The table: four rivers, the middle with East 1 and a dora indicator, three opponents with
    # their tiles face down, and the person's own hand of 13 or 14 tiles at the bottom.
    expect(page.get_by_test_id("river")).to_have_count(4)
    expect(page.get_by_test_id("round")).to_contain_text("East 1")
    expect(page.get_by_test_id("dora-indicator")).to_have_count(1)
    expect(page.get_by_test_id("seat-plate")).to_have_count(4)
    expect(page.locator('[data-testid="hand-backs"]')).to_have_count(3)
    assert 13 <= page.get_by_test_id("hand-tile").count() <= 14
    # Play passes counter-clockwise: the next seat (shimocha) sits on the right.
    sides = page.locator('[data-testid="seat-side"]').evaluate_all(
        "els => Object.fromEntries(els.map((e) => [e.dataset.side, Number(e.dataset.seat)]))")
    me = int(page.locator('[data-testid="bottom-seat"]').get_attribute("data-seat"))
    assert sides["bottom"] == me
    winds = {int(seat): wind for seat, wind in page.locator('[data-testid="seat-wind"]').evaluate_all(
        "els => els.map((e) => [e.dataset.seat, e.querySelector('.rii-wind__en').textContent])")}
    order = "ESWN"
    assert order.index(winds[sides["right"]]) == (order.index(winds[me]) + 1) % 4, (sides, winds)
    assert order.index(winds[sides["left"]]) == (order.index(winds[me]) + 3) % 4, (sides, winds)
    # ... and really is drawn there: the right seat's plate right of the middle, the left's left of it.
    middle, right, left = boxes(page, '[data-testid="centre"]',
                                f'[data-testid="seat-plate"][data-seat="{sides["right"]}"]',
                                f'[data-testid="seat-plate"][data-seat="{sides["left"]}"]')
    assert right["x"] > middle["x"] + middle["width"] and left["x"] + left["width"] < middle["x"], (left, middle, right)

    last_v = ""
    decisions = 0
    clicked: list[str] = []  # the v each click answered
    seen: set[str] = set()
    shots: set[str] = set()
    called: set[str] = set()
    phone_done = False

    def click(locator, v: str) -> None:
        locator.click()
        clicked.append(v)
    while True:
        ready = wait_ready(page, last_v, sorted(shots))
        if ready == "over":
            break
        if ready.startswith("screen:"):
            kind = ready.split(":")[1]
            # One look at the whole screen: it closes by itself once the next hand has gone on for
            # a while, so checks spread over several round trips could see half a screen, then none.
            screen = page.evaluate(_SCREEN, kind)
            if screen is None:
                continue  # closed before the test looked: the next hand's end is checked instead
            if kind == "win":
                assert screen["yaku"] >= 1 and screen["yaku_shown"], screen
                assert "points" in screen["total"], screen
                assert screen["winning"] == screen["wins"] >= 1, screen
            assert screen["changes"] == 4, screen
            snap(page, artifacts / f"riichi-{kind}.png")
            shots.add(kind)
            continue
        what, v = ready.split(":")
        # The page asks only for real decisions: the server's legal actions at that v hold more
        # than a pass.
        legal = legal_at.get(int(v))
        assert legal and set(legal) - {"pass"}, (v, legal)
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game should have ended by now"
        if what == "bar":
            bar = page.get_by_test_id("riichi-bar")
            actions = bar.locator('[data-testid="action-button"]').evaluate_all("els => els.map((e) => e.dataset.kind)")
            assert actions and actions != ["pass"], actions
            seen.update(actions)
            if any(a in actions for a in ("chi", "pon", "kan", "hule")) and "call" not in shots and "pass" in actions:
                prompt = page.get_by_test_id("call-prompt").inner_text()
                assert re.search(r"Ron|Chi|Pon|Kan", prompt), prompt
                snap(page, artifacts / "riichi-call.png")
                shots.add("call")
            # Win and riichi when offered; the first pon and the first chi are called (a closed
            # hand keeps riichi possible after that); everything else is skipped.
            choice = choose(actions, called)
            if choice == "pass" and ("key-skip" not in seen or decisions % 3 == 0):
                # The first skip, and now and then another, by the keyboard: Space skips. (Every
                # third decision alone could miss every skip of a game dealt at random.)
                page.keyboard.press("Space")
                clicked.append(v)
                seen.add("key-skip")
                last_v = v
                continue
            if choice is not None:
                click(bar.locator(f'[data-testid="action-button"][data-kind="{choice}"]'), v)
                if choice in ("pon", "chi") and page.get_by_test_id("call-option").count():
                    seen.add(f"{choice}-choice")
                    page.get_by_test_id("call-option").first.click()
                if choice == "lizhi":
                    # Only the tiles that keep the hand tenpai glow; one of them goes sideways.
                    expect(page.locator('[data-testid="my-hand"]')).to_have_attribute("data-mode", "lizhi")
                    page.locator('[data-testid="hand-tile"].rii-tile--legal').first.click()
                last_v = v
                continue
            # Own turn with only a kan on offer besides discarding: the hand is the decision.
        # Discard: the tile the plain strategy picks, among those the page offers.
        hand = page.evaluate(_HAND)
        river = page.locator(f'[data-testid="river"][data-seat="{me}"] [data-testid="river-tile"]')
        if not phone_done and river.count() >= 6:
            snap(page, artifacts / "riichi-table.png")
            page.set_viewport_size(PHONE)
            page.wait_for_timeout(200)
            # What a phone shows while playing: the table scrolled up to just under the site's
            # header (which stays on screen).
            page.evaluate(_SCROLL_TO_TABLE)
            page.screenshot(path=str(artifacts / "riichi-mobile.png"), animations="disabled")
            # The whole table, hand included, fits on the screen.
            table_box, box, widest = boxes(page, '[data-testid="riichi-table"]', '[data-testid="hand-tile"]',
                                           '[data-testid="my-hand"]')
            assert table_box["height"] <= PHONE["height"], table_box
            # The hand is big enough to tap on a phone, and stays within the screen.
            assert box["width"] >= 36, box
            assert widest["x"] >= 0 and widest["x"] + widest["width"] <= PHONE["width"], widest
            page.set_viewport_size({"width": 1280, "height": 900})
            phone_done = True
            # The person acts on a fresh look at the table after the resize.
            hand = page.evaluate(_HAND)
        param = _best_discard(hand)
        tile = page.locator(f'[data-testid="my-hand"] button[data-testid="hand-tile"][data-param="{param}"]').first
        index = int(tile.get_attribute("data-index"))
        if decisions % 4 == 0 and index < 12:
            # By the keyboard: the tile's key picks it, the same key again discards it.
            key = "1234567890-="[index]
            page.keyboard.press(key)
            expect(tile).to_be_focused()
            page.keyboard.press(key)
            clicked.append(v)
            seen.add("key-discard")
        else:
            click(tile, v)
        last_v = v

    elapsed = time.monotonic() - started
    final = page.get_by_test_id("final-standings")
    expect(final.get_by_test_id("standing")).to_have_count(4)
    expect(page.get_by_test_id("game-status")).to_have_text("Finished")
    expect(final.get_by_test_id("watch-replay")).to_have_attribute("href", f"/games/{game_id}/replay/")
    expect(final.get_by_test_id("standings-paifu")).to_have_attribute("href", f"/api/games/{game_id}/paifu/")
    log = page.get_by_test_id("game-log")
    expect(log).to_contain_text(re.compile(r"rin discards"))
    expect(log).to_contain_text(re.compile(r"The game is over"))
    snap(page, artifacts / "riichi-final.png")

    # Every action the page sent for a v the person did not answer was a move it made by itself,
    # and only where there was nothing to decide: a lone pass, or the one discard riichi leaves.
    answered = set(clicked)
    auto = [m for m in sent if str(m["v"]) not in answered]
    for m in auto:
        legal = legal_at[m["v"]]
        assert legal == ["pass"] or (m["action"] == "dapai" and set(legal) == {"dapai", "pass"}), (m, legal)
    # ... and every such moment was answered, without the person.
    lone = {v for v, legal in legal_at.items() if legal == ["pass"]}
    assert lone <= {m["v"] for m in auto}, sorted(lone - {m["v"] for m in auto})
    assert "call" in shots, "no call was offered in a whole game"
    assert phone_done
    assert {"key-discard", "key-skip"} <= seen, seen

    # The replay opens at the last step with the standings, every hand open.
    page.get_by_test_id("watch-replay").click()
    page.wait_for_url(f"{base}/games/{game_id}/replay/")
    step = page.get_by_test_id("replay-step")
    expect(step).to_have_text(re.compile(r"Step ([1-9]\d*) of \1$"))
    expect(page.get_by_test_id("final-standings")).to_be_visible()
    steps = int(re.search(r"of (\d+)", step.inner_text()).group(1))
    page.get_by_test_id("replay-slider").fill(str(steps // 2))
    expect(step).to_have_text(f"Step {steps // 2} of {steps}")
    expect(page.locator('[data-testid="hand-revealed"]')).to_have_count(3)
    snap(page, artifacts / "riichi-replay.png")

    passes = sum(1 for m in auto if m["action"] == "pass")
    print(f"\n{decisions} decisions, {len(clicked)} answered by the person, {len(auto)} moves made by the page "
          f"({passes} passes) in {elapsed:.1f} s; seen {sorted(seen)}; screenshots {sorted(shots)} in {artifacts}")
    assert not errors, errors


def test_riichi_clocks_tick(riichi_server, browser, artifacts):
    """A timed table: every seat's plate has a clock; the person's runs and ticks when it is their
    move, the others' stand still meanwhile."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    # majiang-server's clock: 5 seconds per decision and a bank of 20 (docs/riichi-table.md, "Clocks").
    open_riichi_table(page, riichi_server, "toki", clock=(5, 20))
    expect(page.get_by_test_id("clock")).to_have_count(4)
    # Wait for the person's own turn, passing any call offered before it: a call window waits on
    # every seat it asks, and all their clocks run alike (so they do not tell who could call:
    # docs/riichi-table.md, "The timing rule"); on one's own turn one's clock alone runs.
    last_v = ""
    while True:
        kind, last_v = page.wait_for_function(_OWN_TURN_OR_CALL, arg=last_v, timeout=30_000).json_value().split(":")
        if kind == "turn":
            break
        page.locator('[data-testid="riichi-bar"] button[data-kind="pass"]').click()
    mine = page.locator('[data-testid="bottom-seat"] [data-testid="clock"]')
    expect(mine).to_have_attribute("data-running", "1")
    first = mine.locator(".rii-clock__main").inner_text()
    assert re.fullmatch(r"0:[0-2]\d", first), first
    expect(mine.locator(".rii-clock__main")).not_to_have_text(first, timeout=3000)
    # The split as majiang-server shows it: this decision's seconds + the bank.
    expect(mine).to_contain_text(re.compile(r"5 \+ 20 s"))
    me = page.locator('[data-testid="bottom-seat"]').get_attribute("data-seat")
    others = page.locator(f'[data-testid="seat-plate"]:not([data-seat="{me}"]) [data-testid="clock"][data-running="0"]')
    assert others.count() == 3
    page.screenshot(path=str(artifacts / "riichi-clocks.png"), animations="disabled")
    assert not errors, errors


# At a v not seen yet: "turn:<v>" on the person's own turn (a tile of the hand may go), "call:<v>"
# when a call is offered on another seat's discard (the bar can pass), else nothing yet.
_OWN_TURN_OR_CALL = """(last) => {
  const table = document.querySelector('[data-testid="riichi-table"]');
  if (!table || table.dataset.v === last) return false;
  if (document.querySelector('[data-testid="my-hand"] button[data-testid="hand-tile"]:not(:disabled)')) {
    return `turn:${table.dataset.v}`;
  }
  const pass = document.querySelector('[data-testid="riichi-bar"] button[data-kind="pass"]:not(:disabled)');
  return pass ? `call:${table.dataset.v}` : false;
}"""

_DECIDE_SOMETHING = """() => {
  const pass = document.querySelector('[data-testid="riichi-bar"] button[data-kind="pass"]:not(:disabled)');
  if (pass) { pass.click(); return true; }
  const tile = document.querySelector('[data-testid="my-hand"] button[data-testid="hand-tile"]:not(:disabled)');
  if (tile) { tile.click(); return true; }
  return false;
}"""


def test_riichi_rules_at_the_table(riichi_server, browser, artifacts):
    """The action panel shows the rules in force: the preset's label, the key rules (east only at
    this table) and under "All rules" every option, those that differ from Majiang's defaults
    marked. It stays open while the game moves, and on a phone it sits under the table, within
    the screen."""
    from playwright.sync_api import expect

    from games.riichi.engine.rule import DEFAULT_RULE

    errors: list[str] = []
    page = open_page(browser, errors)
    open_riichi_table(page, riichi_server, "kaze")
    rules = page.get_by_test_id("riichi-rules")
    preset = rules.get_by_test_id("rules-preset")
    expect(preset).to_have_text("East only (東風戦)")
    expect(preset).to_have_attribute("data-preset", "east")
    expect(rules.get_by_test_id("rules-changes")).to_have_count(0)  # nothing set on top of the preset
    expect(rules.locator('[data-testid="rule-key"][data-rule="場数"]')).to_contain_text("East only")
    expect(rules.locator('[data-testid="rule-key"][data-rule="赤牌"]')).to_contain_text("Red fives: 1 per suit")
    expect(rules.locator('[data-testid="rule-key"][data-rule="クイタンあり"]')).to_contain_text("Open tanyao")
    expect(rules.locator('[data-testid="rule-key"][data-rule="最大同時和了数"]')).to_contain_text("Double ron")
    expect(rules.locator('[data-testid="rule-key"][data-rule="トビ終了あり"]')).to_contain_text("Busting ends the game")
    expect(rules.locator('[data-testid="rule-key"][data-rule="喰い替え許可レベル"]')).to_contain_text("No kuikae")
    # Every option, in Majiang's order; only the game length differs from its defaults (so the
    # page's copy of the defaults is rule.py's).
    rules.get_by_test_id("rules-all").locator("summary").click()
    rows = rules.get_by_test_id("rule")
    expect(rows).to_have_count(len(DEFAULT_RULE))
    assert rows.evaluate_all("els => els.map((e) => e.dataset.rule)") == list(DEFAULT_RULE)
    differs = rules.locator('[data-testid="rule"][data-differs="true"]')
    assert differs.evaluate_all("els => els.map((e) => e.dataset.rule)") == ["場数"]
    expect(differs.get_by_test_id("rule-differs")).to_have_text("changed")
    expect(differs).to_contain_text("Majiang: East-south")

    # The panel is redrawn at every move; the open list stays open.
    table = page.get_by_test_id("riichi-table")
    before = table.get_attribute("data-v")
    page.wait_for_function(_DECIDE_SOMETHING, timeout=30_000)
    page.wait_for_function("(v) => document.querySelector('[data-testid=riichi-table]').dataset.v !== v", arg=before)
    expect(page.get_by_test_id("rules-all")).to_have_attribute("open", "")

    # A phone: the rules under the table, never over it, and within the screen.
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    table_box, rules_box = boxes(page, '[data-testid="riichi-table"]', '[data-testid="riichi-rules"]')
    assert rules_box["y"] >= table_box["y"] + table_box["height"], (table_box, rules_box)
    assert rules_box["x"] >= 0 and rules_box["x"] + rules_box["width"] <= PHONE["width"], rules_box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    snap(page, artifacts / "riichi-rules.png")
    assert not errors, errors


def _bot_game_with_a_draw(monkeypatch) -> tuple[int, int]:
    """A finished east-only bot game dealt from a fixed seed, and the step at which one of its
    hands ends in a draw: the first seed (of a few, tried in order) whose game has one."""
    from games.core.engine import Mode
    from games.management.commands.playbots import bot_users, load_bot, play_table
    from games.models import Action, Game
    from games.riichi.engine.table import RiichiGame
    from games.service import lobby

    users = bot_users("riichi", 4)
    choose = load_bot("riichi")
    for seed in range(1, 20):
        monkeypatch.setattr(lobby.secrets, "randbits", lambda bits, seed=seed: seed)
        played = play_table("riichi", Mode(4, "Four players", 4), users, choose, random.Random(seed), {"場数": 0})
        game = Game.objects.get(id=played.game.id)
        engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=game.seed, rules=game.rules)
        for step, action in enumerate(Action.objects.filter(game=game).order_by("seq"), start=1):
            events = engine.apply(action.seat, action.type, action.params)
            if any(e.type == "pingju" for e in events):
                return game.id, step
    raise AssertionError("no draw in the bot games of 19 seeds")


def test_riichi_replay_shows_a_draw(live_server_url, browser, artifacts, monkeypatch):
    """The replay of a bot game (fixed seed) steps to the draw: the draw screen with the hands shown."""
    from playwright.sync_api import expect

    with server_database():
        game_id, step = _bot_game_with_a_draw(monkeypatch)
    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "nagi")
    page.goto(f"{live_server_url}/games/{game_id}/replay/?step={step}")
    # The caption counts visible steps (passes fold into the discard before them); the log's
    # step number stays on the element.
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-log-step", str(step))
    screen = page.get_by_test_id("draw-screen")
    expect(screen).to_be_visible()
    expect(screen.get_by_test_id("draw")).to_contain_text("Draw")
    expect(screen.get_by_test_id("score-change")).to_have_count(4)
    expect(page.get_by_test_id("replay-what")).to_contain_text(re.compile(r"draw|Nine|Four|Triple|Nagashi", re.I))
    snap(page, artifacts / "riichi-draw.png")
    # The next hand's first discard closes it: four steps of the seats' acknowledgements of the
    # draw (hand_end_ack: each one an action, the last of them deals), then the dealer's draw and
    # discard; a few more steps are harmless.
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("draw-screen")).to_have_count(0)
    assert not errors, errors


_TILE_SHEET = """async () => {
  const { tileEl, meldEl } = await import("/static/js/games/riichi/tiles.js");
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/css/riichi.css";
  await new Promise((resolve) => { link.onload = resolve; document.head.append(link); });
  const sheet = document.createElement("div");
  sheet.className = "rii";
  sheet.dataset.testid = "tile-sheet";
  sheet.style.display = "flex";
  sheet.style.flexWrap = "wrap";
  sheet.style.gap = "8px";
  sheet.style.padding = "16px";
  sheet.style.background = "#1e6b3b";
  const codes = [];
  for (const s of "mps") for (const n of "1234567890") codes.push(s + n);
  for (const n of "1234567") codes.push("z" + n);
  for (const code of codes) sheet.append(tileEl(code, { size: "screen" }));
  sheet.append(tileEl("_", { size: "screen" }), tileEl("p3", { size: "screen", sideways: true }),
    meldEl("m1-23"), meldEl("p555="), meldEl("z555-5"), meldEl("s1111"));
  document.body.prepend(sheet);
  return codes.length;
}"""


def test_riichi_tiles_are_drawn_without_fonts(live_server_url, browser, artifacts):
    """Every face is shapes only: no text in any tile, so a machine without CJK (or any) font shows
    the same tiles. The sheet is saved for the eye."""
    errors: list[str] = []
    page = open_page(browser, errors)
    page.goto(f"{live_server_url}/accounts/login/")
    count = page.evaluate(_TILE_SHEET)
    sheet = page.get_by_test_id("tile-sheet")
    tiles = sheet.locator(".rii-tile")
    assert tiles.count() >= count + 2
    assert sheet.locator("svg text").count() == 0
    # Each face has its own drawing (the red fives differ from the fives, no two faces alike).
    faces = sheet.locator(":scope > .rii-tile[data-tile]").evaluate_all(
        "els => els.map((e) => e.querySelector('svg').innerHTML)")[:count]
    assert len(set(faces)) == len(faces) == count, len(set(faces))
    sheet.screenshot(path=str(artifacts / "riichi-tiles.png"), animations="disabled")
    assert not errors, errors


def test_a_player_who_left_is_shown_as_such(riichi_server, browser):
    """The person leaves mid-game: the server plays their seat from then on, and the table marks
    the seat as left (the three house bots play on without them)."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    open_riichi_table(page, riichi_server, "nagi")
    expect(page.get_by_test_id("seat-left")).to_have_count(0)
    page.once("dialog", lambda dialog: dialog.accept())  # "Leave this game?"
    page.get_by_test_id("leave-game").click()
    # The server plays the rest of the game at once, and the page takes in every move of it: on a
    # machine busy with other tests that can outlast expect's 5 s (3.6 s seen), hence the wait
    # this file gives every other step of a game.
    expect(page.locator('[data-testid="bottom-seat"] [data-testid="seat-left"]')).to_have_count(1, timeout=30_000)
    assert not errors, errors
