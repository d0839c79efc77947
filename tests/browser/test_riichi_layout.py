"""The riichi table at a desktop's and two phones' sizes, in a game against three house bots: the
board fills the felt and its words stay legible, the hand (drawn tile included) is on screen with
the rivers, a decision's bar never lies over the player's river or hand, a hand's result is read
whole without scrolling inside it, and after the game the middle names the round it ended in."""

from __future__ import annotations

import json

import pytest

from tests.browser.pages import open_page, snap
from tests.browser.test_riichi_game import _HAND, _best_discard, choose, open_riichi_table, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
WIDE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
MAX_DECISIONS = 600

# Everything measured at one moment: the table is redrawn at every push, so measurements spread
# over several round trips could mix two tables. ``minFont``: the smallest text allowed (px).
_MEASURE = """(minFont) => {
  const q = (s) => document.querySelector(s);
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, right: r.right };
  };
  const table = q('[data-testid="riichi-table"]');
  const me = q('[data-testid="bottom-seat"]').dataset.seat;
  // The board's own words: every element with text of its own, shown (not display:none, not the
  // screen readers' visually-hidden text), in the table (the hand's result screen excluded: it is
  // measured by itself).
  const small = [];
  let smallest = Infinity;
  for (const el of table.querySelectorAll("*")) {
    if (el.closest(".visually-hidden, [data-testid$='-screen']")) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    smallest = Math.min(smallest, size);
    if (size < minFont) small.push(`${el.className || el.tagName}: ${size}px "${el.textContent.trim().slice(0, 20)}"`);
  }
  const header = q(".site-header");
  const stays = header && getComputedStyle(header).position !== "static";
  const headerBottom = stays ? header.getBoundingClientRect().bottom : 0;
  const tiles = [...document.querySelectorAll('[data-testid="my-hand"] [data-testid="hand-tile"]')].map(box);
  // Rows by the layout's own offsets (a hovered tile is lifted by a transform, not a row).
  const rows = new Set([...document.querySelectorAll('[data-testid="my-hand"] [data-testid="hand-tile"]')]
    .map((t) => Math.round(t.offsetTop + t.offsetHeight))).size;
  const river = q(`[data-testid="river"][data-seat="${me}"]`);
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight, headerBottom,
    small, smallest, rows,
    pond: box(q('[data-testid="pond"]')), felt: box(q(".game-table__felt")),
    hand: box(q('[data-testid="my-hand"]')), tiles,
    drawn: box(q('[data-testid="my-hand"] [data-drawn="true"]')),
    river: river && river.children.length ? box(river) : null,
    riverTile: box(q('[data-testid="river-tile"]')), dora: box(q('[data-testid="dora-indicator"]')),
    bar: box(q('[data-testid="riichi-bar"]')),
    score: parseFloat(getComputedStyle(q('[data-testid="seat-score"]')).fontSize),
    keyHints: [...document.querySelectorAll('[data-testid="riichi-bar"] kbd')].filter((e) => e.offsetParent).length,
  };
}"""

# The hand's result: the card's own overflow, its box, and whether what lies at its bottom edge is
# the card itself (an ancestor that clips it would show something else there).
_SCREEN_FIT = """async () => {
  const card = document.querySelector('[data-testid="screen-card"]');
  if (!card) return null;
  // Its entrance (a slight scale and fade) over first: measured and photographed as it stays.
  await Promise.all(card.getAnimations().map((a) => a.finished.catch(() => null)));
  if (!card.isConnected) return null;
  // Scrolled as a player sees the table: its top just under the site's header when that stays.
  const header = document.querySelector(".site-header");
  const headerBottom = header && getComputedStyle(header).position !== "static" ? header.offsetHeight : 0;
  const table = document.querySelector('[data-testid="riichi-table"]');
  window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY - headerBottom - 4);
  const r = card.getBoundingClientRect();
  const at = document.elementFromPoint(r.x + r.width / 2, r.bottom - 3);
  return { scrollHeight: card.scrollHeight, clientHeight: card.clientHeight,
           top: r.top, bottom: r.bottom, height: r.height,
           width: r.width, innerHeight, innerWidth, headerBottom, scrollWidth: document.documentElement.scrollWidth,
           bottomIsCard: Boolean(at && card.contains(at)), text: card.innerText };
}"""

_SCROLL_TO_TABLE = """() => {
  const table = document.querySelector('[data-testid="riichi-table"]');
  const header = document.querySelector(".site-header");
  const below = header && getComputedStyle(header).position !== "static" ? header.offsetHeight : 0;
  window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY - below - 4);
}"""


def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["right"] and b["x"] < a["right"] and a["y"] < b["bottom"] and b["y"] < a["bottom"]


def _dora_of(code: str) -> str:
    """The dora an indicator points at (the rule, written again here so the page is checked
    against it, not against itself): the next in suit (9 → 1), E → S → W → N → E, white → green → red."""
    suit, n = code[0], int(code[1]) or 5
    if suit != "z":
        return f"{n % 9 + 1}{suit}"
    names = ["East", "South", "West", "North", "White", "Green", "Red"]
    nxt = n % 4 + 1 if n <= 4 else (n - 4) % 3 + 5
    return names[nxt - 1]


@pytest.fixture
def riichi_server(monkeypatch, request):
    """The served project with test_riichi_game's short floor after each discard."""
    monkeypatch.setenv("CALL_FLOOR_MS", "50")
    return request.getfixturevalue("live_server_url")


class Checker:
    """Measures the page at its size(s) at each moment worth a look, and keeps what it found."""

    def __init__(self, page, artifacts, name: str, sizes: list[dict], min_font: float, touch: bool):
        self.page, self.artifacts, self.name, self.sizes, self.min_font = page, artifacts, name, sizes, min_font
        self.touch = touch
        self.figures: dict[str, dict] = {}
        self.prompts: set[str] = set()
        self.screens = 0

    def _shot(self, tag: str, what: str) -> None:
        path = self.artifacts / f"riichi-layout-{self.name}-{tag}-{what}.png"
        self.page.screenshot(path=str(path), animations="disabled")

    def _each_size(self, look) -> None:
        for size in self.sizes:
            if self.page.viewport_size != size:
                self.page.set_viewport_size(size)
                self.page.wait_for_timeout(150)
            look(f"{size['width']}x{size['height']}")
        if self.page.viewport_size != self.sizes[0]:
            self.page.set_viewport_size(self.sizes[0])
            self.page.wait_for_timeout(150)

    def table(self) -> None:
        def look(tag):
            self.page.evaluate(_SCROLL_TO_TABLE)
            m = self.page.evaluate(_MEASURE, self.min_font)
            assert m["scrollWidth"] <= m["innerWidth"], (tag, m["scrollWidth"])
            assert not m["small"], (tag, m["small"])
            # The board fills the felt's width, and the board and the hand fit the screen together.
            assert m["pond"]["w"] >= m["felt"]["w"] - 60, (tag, m["pond"], m["felt"])
            assert m["pond"]["y"] >= m["headerBottom"] - 1, (tag, m["pond"], m["headerBottom"])
            assert m["hand"]["bottom"] <= m["innerHeight"], (tag, m["pond"], m["hand"])
            # The concealed tiles and the drawn one: one row, or two on a phone.
            assert m["rows"] <= 2, (tag, m["rows"], m["tiles"])
            for t in m["tiles"]:
                assert t["x"] >= 0 and t["right"] <= m["innerWidth"], (tag, t)
                assert t["y"] >= 0 and t["bottom"] <= m["innerHeight"], (tag, t)
            self.figures[f"table {tag}"] = {k: m[k] for k in ("pond", "smallest", "riverTile", "dora", "score")}
            self._shot(tag, "table")
        self._each_size(look)

    def prompt(self, kind: str) -> None:
        def look(tag):
            # Scrolled to the table as a player keeps it: the bar, the hand and the river all on
            # screen at once, and apart.
            self.page.evaluate(_SCROLL_TO_TABLE)
            m = self.page.evaluate(_MEASURE, self.min_font)
            assert m["bar"], (tag, kind)
            assert m["bar"]["y"] >= m["headerBottom"] - 1, (tag, kind, m["bar"])
            assert m["bar"]["bottom"] <= m["innerHeight"], (tag, kind, m["bar"])
            assert m["hand"]["bottom"] <= m["innerHeight"], (tag, kind, m["hand"])
            assert not _overlap(m["bar"], m["hand"]), (tag, kind, m["bar"], m["hand"])
            if m["river"]:
                assert not _overlap(m["bar"], m["river"]), (tag, kind, m["bar"], m["river"])
            assert m["bar"]["x"] >= 0 and m["bar"]["right"] <= m["innerWidth"], (tag, m["bar"])
            assert not m["small"], (tag, m["small"])
            # Key hints on the buttons for a keyboard, none on a touch screen.
            assert (m["keyHints"] == 0) if self.touch else (m["keyHints"] > 0), (tag, m["keyHints"])
            self.figures[f"prompt {kind} {tag}"] = {"bar": m["bar"], "hand": m["hand"], "river": m["river"]}
            self._shot(tag, kind)
        self._each_size(look)
        self.prompts.add(kind)

    def screen(self, kind: str) -> bool:
        found = []

        def look(tag):
            fit = self.page.evaluate(_SCREEN_FIT)
            if fit is None:
                return  # closed by itself meanwhile
            assert fit["scrollHeight"] <= fit["clientHeight"] + 1, (tag, fit)
            assert fit["height"] <= fit["innerHeight"], (tag, fit)
            assert fit["top"] >= fit["headerBottom"] - 1 and fit["bottom"] <= fit["innerHeight"] + 1, (tag, fit)
            assert fit["bottomIsCard"], (tag, fit)
            assert fit["scrollWidth"] <= fit["innerWidth"], (tag, fit)
            if kind == "win":
                assert "received" in fit["text"].lower() and "points" in fit["text"], fit["text"]
            self._shot(tag, kind)
            if not self.page.locator('[data-testid="screen-card"]').count():
                # Closed between the look and the photograph: a picture of the next hand is no
                # picture of a result (the next result is looked at instead).
                (self.artifacts / f"riichi-layout-{self.name}-{tag}-{kind}.png").unlink()
                return
            self.figures[f"{kind} screen {tag}"] = {
                k: fit[k] for k in ("height", "width", "scrollHeight", "clientHeight", "innerHeight")}
            found.append(tag)
        self._each_size(look)
        self.screens += len(found) == len(self.sizes)
        return len(found) == len(self.sizes)


def _play(page, check: Checker, *, table_at: int = 6) -> str:
    """Plays the game to its end as test_riichi_game does (wins, riichi and the first calls taken),
    looking at the table once, at the first call or riichi prompt of each kind, and at hand results."""
    from playwright.sync_api import expect

    last_v = ""
    decisions = 0
    shots: list[str] = []
    called: set[str] = set()
    table_done = False
    while True:
        ready = wait_ready(page, last_v, shots)
        if ready == "over":
            # The last hand's result stays up (no next hand closes it): looked at for certain.
            last = page.evaluate("""() => {
              const s = document.querySelector('[data-testid="win-screen"], [data-testid="draw-screen"]');
              return s ? s.dataset.testid.split("-")[0] : null;
            }""")
            if last:
                check.screen(last)
            return "over"
        if ready.startswith("screen:"):
            kind = ready.split(":")[1]
            if check.screen(kind):
                shots.append(kind)
            close = page.locator('[data-testid="screen-close"]')
            if close.count():
                close.first.click()
            continue
        what, v = ready.split(":")
        decisions += 1
        assert decisions < MAX_DECISIONS
        if what == "bar":
            bar = page.get_by_test_id("riichi-bar")
            actions = bar.locator('[data-testid="action-button"]').evaluate_all("els => els.map((e) => e.dataset.kind)")
            kind = "call" if any(a in actions for a in ("chi", "pon", "kan", "hule")) and "pass" in actions else \
                "riichi" if "lizhi" in actions else None
            if kind and kind not in check.prompts:
                check.prompt(kind)
            choice = choose(actions, called)
            if choice is not None:
                bar.locator(f'[data-testid="action-button"][data-kind="{choice}"]').click()
                if choice in ("pon", "chi") and page.get_by_test_id("call-option").count():
                    page.get_by_test_id("call-option").first.click()
                if choice == "lizhi":
                    # Once the hand is in riichi mode: before that every discard glows, and a click
                    # on one that the redraw then darkens is lost.
                    expect(page.locator('[data-testid="my-hand"]')).to_have_attribute("data-mode", "lizhi")
                    page.locator('[data-testid="hand-tile"].rii-tile--legal').first.click()
                last_v = v
                continue
        hand = page.evaluate(_HAND)
        me = page.locator('[data-testid="bottom-seat"]').get_attribute("data-seat")
        mine = page.locator(f'[data-testid="river"][data-seat="{me}"] [data-testid="river-tile"]')
        if not table_done and mine.count() >= table_at:
            check.table()
            table_done = True
            hand = page.evaluate(_HAND)
        param = _best_discard(hand)
        page.locator(f'[data-testid="my-hand"] button[data-testid="hand-tile"][data-param="{param}"]').first.click()
        last_v = v


def _last_round(page, game_id: str) -> tuple[int, int]:
    """The round of the game's last hand, from its paifu (Majiang's log: a list per hand, opening with qipai)."""
    paipu = page.evaluate("(url) => fetch(url).then((r) => r.json())", f"/api/games/{game_id}/paifu/")
    log = paipu.get("log") or paipu.get("paipu", {}).get("log")
    qipai = log[-1][0]["qipai"]
    return qipai["zhuangfeng"], qipai["jushu"]


def _after_game(page, check: Checker, game_id: str) -> None:
    from playwright.sync_api import expect

    zhuangfeng, jushu = _last_round(page, game_id)
    expected = f"{['East', 'South', 'West', 'North'][zhuangfeng]} {jushu + 1}"
    expect(page.get_by_test_id("round")).to_contain_text(expected)
    expect(page.get_by_test_id("ended-round")).to_have_attribute("data-round", expected)
    for size in check.sizes:
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        snap(page, check.artifacts / f"riichi-layout-{check.name}-{size['width']}x{size['height']}-final.png")


def _dora_named(page) -> None:
    indicators = page.locator('[data-testid="dora-indicator"]').evaluate_all("els => els.map((e) => e.dataset.tile)")
    names = page.get_by_test_id("dora-names").inner_text()
    for code in indicators:
        assert _dora_of(code) in names, (code, names)


def test_riichi_layout_desktop(riichi_server, browser, artifacts):
    """1280 x 800 (and 1920 x 1080): the board fills the felt, nothing under 12 px, results whole;
    the score toggle; the dora named."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    page.set_viewport_size(DESKTOP)
    game_id = open_riichi_table(page, riichi_server, "hana")
    _dora_named(page)
    # Scores as differences from the player's: a click on the middle, remembered for the next table.
    diff = page.locator('[data-testid="seat-score-diff"]')
    expect(diff.first).to_be_hidden()
    page.get_by_test_id("centre").click(position={"x": 30, "y": 40})
    expect(page.get_by_test_id("score-mode")).to_have_attribute("aria-pressed", "true")
    shown = [t for t in diff.evaluate_all("els => els.filter((e) => e.offsetParent).map((e) => e.textContent)")]
    assert len(shown) == 4 and sum(t[0] in "+−±" for t in shown) == 3, shown
    assert page.evaluate("localStorage.getItem('riichi-score-diff')") == "1"
    page.get_by_test_id("score-mode").click()
    expect(page.locator('[data-testid="seat-score"]').first).to_be_visible()

    # Every check at 1280 x 800 and again on a wide screen.
    check = Checker(page, artifacts, "desktop", [DESKTOP, WIDE], 12, touch=False)
    assert _play(page, check) == "over"
    print("\n" + json.dumps(check.figures, indent=1))
    assert "table 1280x800" in check.figures and "table 1920x1080" in check.figures
    assert check.prompts, "no call or riichi prompt in a whole game"
    assert check.screens, "no hand result seen"
    _after_game(page, check, game_id)
    assert not errors, errors


def test_riichi_layout_phones(riichi_server, browser, artifacts):
    """390 x 844 and 360 x 740 with touch: nothing under 11 px, the hand and drawn tile on screen
    with the rivers, prompts clear of the river and hand, results a whole sheet, no key hints."""
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    game_id = open_riichi_table(page, riichi_server, "umi")
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    check = Checker(page, artifacts, "phone", [PHONE, SMALL_PHONE], 11, touch=True)
    _dora_named(page)
    assert _play(page, check, table_at=4) == "over"
    print("\n" + json.dumps(check.figures, indent=1))
    # Nor the action panel's list of keys.
    assert page.evaluate("[...document.querySelectorAll('.rii-keys')].filter((e) => e.offsetParent).length") == 0
    assert "table 390x844" in check.figures and "table 360x740" in check.figures
    assert check.prompts, "no call or riichi prompt in a whole game"
    assert check.screens, "no hand result seen"
    _after_game(page, check, game_id)
    assert not errors, errors
