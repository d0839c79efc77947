"""The cribbage and Acquire tables on a desktop window and on two phones (touch): nothing scrolls
sideways, the game's own text stays legible, the whole hand (rack) fits on the screen at once,
the decision panel never lies over it, and touch screens get no keyboard hints.

Each test plays against house bots far enough to reach the states that matter: cribbage's
lay-away with six cards, the pegging and the show; Acquire's share purchase."""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import open_page
from tests.browser.test_acquire_game import decide, open_table_with_bots
from tests.browser.test_acquire_game import wait_ready as acquire_ready
from tests.browser.test_cribbage_game import _PLAY_STATE, dialog_v, lay_away, open_table_with_bot
from tests.browser.test_cribbage_game import wait_ready as cribbage_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# name: (viewport, touch phone?, the smallest text allowed in CSS px)
SIZES = {
    "desktop": ({"width": 1280, "height": 800}, False, 12),
    "phone390": ({"width": 390, "height": 844}, True, 11),
    "phone360": ({"width": 360, "height": 740}, True, 11),
}
SCREENSHOT_SIZES = ("desktop", "phone390")
MAX_DECISIONS = 120


def open_sized_page(browser, errors: list[str], size: str):
    """Like pages.open_page, at one of SIZES: a phone is emulated with touch, as a phone browser
    (meta viewport honoured, no hover) at twice the pixel density."""
    viewport, phone, _ = SIZES[size]
    options = {"viewport": viewport}
    if phone:
        options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
    return open_page(browser, errors, **options)


# Everything measured in one go, so a redraw between two measurements cannot mix two tables.
#   table: the table's wrapper; hand: the elements whose union is the hand (rack);
#   panels: decision panels and prompts that must not lie over the hand.
_MEASURE = """({ table, hand, panels }) => {
  const vw = innerWidth, vh = innerHeight;
  const root = document.querySelector(table);
  const hidden = (el) => Boolean(el.closest('.visually-hidden, [hidden], title'));
  const shown = (el) => {
    const cs = getComputedStyle(el);
    return cs.visibility === "visible" && cs.display !== "none";
  };
  const label = (el) => {
    const cls = typeof el.className === "string" ? el.className : el.className.baseVal;
    return `${el.tagName.toLowerCase()}.${(cls || "").split(" ").filter(Boolean).slice(0, 2).join(".")}`;
  };
  // Elements of the table that stick out of the window sideways (or are wider than it).
  const wide = [];
  for (const el of root.querySelectorAll("*")) {
    if (hidden(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    if (r.width > vw + 0.5 || r.left < -0.5 || r.right > vw + 0.5) {
      wide.push(`${label(el)} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  // The size every visible piece of text is drawn at: the computed size, scaled as an SVG scales it.
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const el = node.parentElement;
    if (!el || hidden(el) || !shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      px *= Math.hypot(m.a, m.b);
    }
    texts.push({ px: Math.round(px * 100) / 100, text: node.data.trim().slice(0, 24), where: label(el) });
  }
  texts.sort((a, b) => a.px - b.px);
  const union = (els) => {
    const rs = els.map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    if (!rs.length) return null;
    return {
      left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)),
      right: Math.max(...rs.map((r) => r.right)), bottom: Math.max(...rs.map((r) => r.bottom)),
    };
  };
  const handBox = union([...document.querySelectorAll(hand)]);
  const panelBoxes = [...document.querySelectorAll(panels)].filter((el) => !hidden(el) && shown(el))
    .map((el) => ({ what: label(el), box: union([el]) })).filter((p) => p.box);
  // Words that only make sense with a keyboard, anywhere on the table or its panel.
  // On a touch screen "click" and "hover" are as foreign as keys.
  const keyWords = /\\b(keyboard|shortcuts?|hotkeys?|keys?|click|hover)\\b/i;
  const keyHints = [...document.querySelectorAll(`${table} kbd, ${table} *, .action-panel *`)]
    .filter((el) => !hidden(el) && shown(el) && el.getClientRects().length)
    .filter((el) => el.tagName === "KBD" || [...el.childNodes].some((n) => n.nodeType === 3 && keyWords.test(n.data)))
    .map((el) => el.textContent.trim().slice(0, 60));
  return {
    vw, vh, scrollWidth: document.documentElement.scrollWidth, wide, texts: texts.slice(0, 8),
    smallest: texts.length ? texts[0].px : null, textCount: texts.length,
    hand: handBox, panels: panelBoxes, keyHints,
  };
}"""


def _overlap(a: dict, b: dict) -> bool:
    across = a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
    return across and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


def check_table(page, size: str, state: str, *, table: str, hand: str, holder: str, panels: str, figures: list) -> dict:
    """Measure the table in one go and assert everything the brief asks of it at this size."""
    viewport, phone, smallest_allowed = SIZES[size]
    # The hand brought into view as a player would scroll to it (block "nearest": the least scroll).
    page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'nearest'})", holder)
    m = page.evaluate(_MEASURE, {"table": table, "hand": hand, "panels": panels})
    where = f"{size} {state}"
    hand_box = {k: round(v) for k, v in m["hand"].items()} if m["hand"] else None
    figures.append((where, m["scrollWidth"], m["smallest"], hand_box))
    assert m["vw"] == viewport["width"], (where, m["vw"])  # a phone that zoomed out would hide overflow
    assert m["scrollWidth"] <= m["vw"], (where, "the page scrolls sideways", m["scrollWidth"], m["wide"][:8])
    assert m["wide"] == [], (where, "sticks out of the window", m["wide"][:8])
    assert m["textCount"] > 10, (where, m["texts"])  # the walk found the table's text at all
    assert m["smallest"] >= smallest_allowed, (where, "text too small", m["texts"])
    box = m["hand"]
    assert box is not None, (where, "no hand")
    assert box["right"] - box["left"] <= m["vw"] and box["bottom"] - box["top"] <= m["vh"], (where, "hand too big", box)
    # Within a pixel: boxes are measured in fractions of one, scrolling is in whole ones.
    inside = box["left"] >= -1 and box["right"] <= m["vw"] + 1 and box["top"] >= -1 and box["bottom"] <= m["vh"] + 1
    assert inside, (where, "hand not in view", box)
    for panel in m["panels"]:
        assert not _overlap(panel["box"], box), (where, f"{panel['what']} lies over the hand", panel, box)
    if phone:
        assert m["keyHints"] == [], (where, "keyboard hints on a touch screen", m["keyHints"])
    return m


def summary(figures: list) -> str:
    return "; ".join(f"{w}: page {pw}px, smallest text {t}px, hand {h}" for w, pw, t, h in figures)


def shot(page, artifacts, name: str) -> None:
    """The whole page, and the table with its decision panel alone (legible when looked at)."""
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True, animations="disabled")
    page.locator(".game-table-wrap").screenshot(path=str(artifacts / f"{name}-table.png"), animations="disabled")


CRIB_HAND = '[data-testid="my-hand"] [data-testid="hand-card"]'
# The crib's label, when a house bot deals: its text, and whether it stays inside the crib's column.
_CRIB_LABEL = """() => {
  const label = document.querySelector('[data-testid="crib"] .crib-label--owner');
  if (!label) return null;
  const l = label.getBoundingClientRect(), c = label.closest('[data-testid="crib"]').getBoundingClientRect();
  return { text: label.textContent, inside: l.left >= c.left - 0.5 && l.right <= c.right + 0.5 };
}"""

CRIB_PANELS = (
    '.action-panel, [data-testid="cribbage-dialog"], '
    '[data-testid="discard-bar"], [data-testid="play-bar"], [data-testid="hand-hint"]'
)


@pytest.mark.parametrize("size", list(SIZES))
def test_cribbage_table_fits(live_server_url, browser, artifacts, size):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_sized_page(browser, errors, size)
    open_table_with_bot(page, live_server_url, f"cleo{size}")
    figures: list = []
    measure = dict(table=".game-table-wrap", hand=CRIB_HAND, holder='[data-testid="hand"]', panels=CRIB_PANELS,
                   figures=figures)

    last_v: str | None = None
    states: set[str] = set()
    for _ in range(MAX_DECISIONS):
        action = cribbage_ready(page, last_v)
        assert action != "over"
        v = dialog_v(page, action)
        if action == "discard":
            expect(page.locator(CRIB_HAND)).to_have_count(6)
            label = page.evaluate(_CRIB_LABEL)
            if label:
                # "house-bot-1’s crib": the possessive joined to the name, not after the bot marker.
                assert re.fullmatch(r"house-bot-\d+’s crib", label["text"]) and label["inside"], label
                states.add("bot's crib")
            if "show" in states or not page.locator('[data-testid="show"] [data-testid="show-items"]').count():
                if "discard" not in states:
                    # Two cards picked: the raised cards and the filled slots are part of the measure.
                    page.locator(CRIB_HAND).nth(0).click()
                    page.locator(CRIB_HAND).nth(5).click()
                    check_table(page, size, "lay-away", **measure)
                    if size in SCREENSHOT_SIZES:
                        shot(page, artifacts, f"phone-tables-cribbage-layaway-{size}")
                    page.get_by_test_id("discard-clear").click()
                    states.add("discard")
            else:
                # The last hand's show stays on the table while the next hand is laid away.
                check_table(page, size, "show", **measure)
                if size in SCREENSHOT_SIZES:
                    shot(page, artifacts, f"phone-tables-cribbage-show-{size}")
                states.add("show")
                break
            lay_away(page)
        elif action == "play":
            play = page.evaluate(_PLAY_STATE)
            if "play" not in states and play["inPlay"] >= 1:
                check_table(page, size, "pegging", **measure)
                if size in SCREENSHOT_SIZES:
                    shot(page, artifacts, f"phone-tables-cribbage-pegging-{size}")
                states.add("play")
            page.locator(f'button[data-testid="hand-card"][data-card="{play["legal"][0]}"]').click()
        else:  # pragma: no cover - auto counting asks for nothing else
            raise AssertionError(action)
        last_v = v
    # The dealer alternates: one of the two hands laid away was the bot's crib.
    assert states == {"discard", "play", "show", "bot's crib"}, states
    print(f"\ncribbage {size}: {summary(figures)}")
    assert errors == []


ACQ_HAND = '[data-testid="rack"] [data-testid="rack-tile"]'
ACQ_PANELS = '.action-panel, [data-testid="acquire-dialog"]'


@pytest.mark.parametrize("size", list(SIZES))
def test_acquire_table_fits(live_server_url, browser, artifacts, size):
    errors: list[str] = []
    page = open_sized_page(browser, errors, size)
    open_table_with_bots(page, live_server_url, f"ada{size}", "Singles 2 (2 seats)", bots=1)
    figures: list = []
    measure = dict(table=".game-table-wrap", hand=ACQ_HAND, holder='[data-testid="rack"]', panels=ACQ_PANELS,
                   figures=figures)

    last_v: str | None = None
    played = False
    for _ in range(MAX_DECISIONS):
        action = acquire_ready(page, last_v)
        assert action != "over", "the game ended before a share could be bought"
        if action == "PlayTile" and not played:
            check_table(page, size, "play a tile", **measure)
            played = True
        dialog = page.get_by_test_id("acquire-dialog")
        plus = dialog.locator('button[data-testid^="buy-"][data-testid$="-plus"]:enabled')
        if action == "PurchaseShares" and plus.count():
            break
        last_v = decide(page, action, buy=False, end_when_allowed=False)
    else:
        pytest.fail("no share could be bought")
    plus.first.click()
    check_table(page, size, "purchase", **measure)
    if size in SCREENSHOT_SIZES:
        shot(page, artifacts, f"phone-tables-acquire-purchase-{size}")
    print(f"\nacquire {size}: {summary(figures)}")
    assert errors == []
