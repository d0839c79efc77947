"""Acquire on a phone (390 x 844): a person buys shares with the board and the rack in sight, the
decision panel docked under the rack instead of laid over them."""

from __future__ import annotations

import pytest

from tests.browser.pages import open_page
from tests.browser.test_acquire_game import decide, open_table_with_bots, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MAX_DECISIONS = 80

# For every board cell and rack tile whose centre is on the screen: is the element drawn at that
# point the cell itself (or inside it)? Anything laid over it (a panel, a dialog) answers false.
_UNCOVERED = """() => {
  const out = { cells: 0, tiles: 0, covered: [] };
  const targets = document.querySelectorAll('[data-testid="board-cell"], [data-testid="rack-tile"]');
  for (const el of targets) {
    const r = el.getBoundingClientRect();
    const x = r.x + r.width / 2, y = r.y + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    if (el.dataset.testid === "rack-tile") out.tiles += 1; else out.cells += 1;
    const top = document.elementFromPoint(x, y);
    // A chain's name is written across its cells: that is the board too.
    const board = top && (el.contains(top) || top.closest('[data-testid="board-chain-label"]'));
    const what = top ? top.className || top.tagName : "nothing";
    if (!board) out.covered.push(`${el.dataset.tile || el.textContent} under ${what}`);
  }
  return out;
}"""

_BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    panel: box(document.querySelector('.action-panel')),
    cells: [...document.querySelectorAll('[data-testid="board-cell"]')].map(box),
    rack: box(document.querySelector('[data-testid="rack"]')),
    width: document.documentElement.scrollWidth,
  };
}"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_buying_shares_on_a_phone_leaves_the_board_and_rack_in_sight(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    page.set_viewport_size(PHONE)
    open_table_with_bots(page, live_server_url, "pia", "Singles 2 (2 seats)", bots=1)

    last_v: str | None = None
    for _ in range(MAX_DECISIONS):
        action = wait_ready(page, last_v)
        assert action != "over", "the game ended before a share could be bought"
        dialog = page.get_by_test_id("acquire-dialog")
        plus = dialog.locator('button[data-testid^="buy-"][data-testid$="-plus"]:enabled')
        if action == "PurchaseShares" and plus.count():
            break
        last_v = decide(page, action, buy=False, end_when_allowed=False)
    else:
        pytest.fail("no share could be bought")

    v = dialog.get_attribute("data-v")
    plus.first.click()
    expect(dialog.get_by_test_id("purchase-cost")).not_to_have_text("$0")
    submit = dialog.locator('[data-testid="action-button"][data-action="PurchaseShares"]')
    expect(submit).to_contain_text("Buy 1 share")
    # Scrolled down just far enough to reach the button, as a thumb would.
    submit.evaluate("(el) => el.scrollIntoView({block: 'end'})")

    # In the layout, not over it: the panel's box meets no board cell and not the rack.
    boxes = page.evaluate(_BOXES)
    assert not any(overlaps(boxes["panel"], cell) for cell in boxes["cells"])
    assert not overlaps(boxes["panel"], boxes["rack"])
    assert boxes["width"] <= PHONE["width"], "the page scrolls sideways"
    panel = boxes["panel"]
    assert panel[0] >= 0 and panel[2] <= PHONE["width"], panel
    # With the buy button on the screen, so is the board (its bottom rows at least) and the rack,
    # and nothing covers any of their cells or tiles there.
    seen = page.evaluate(_UNCOVERED)
    assert seen["covered"] == [], seen
    assert seen["tiles"] >= 1 and seen["cells"] >= 12, seen  # a rack tile, a whole row of the board
    page.screenshot(path=str(artifacts / "acquire-phone-purchase.png"), animations="disabled")

    submit.click()
    # The purchase went through: the log says so, and the next decision is not this one.
    expect(page.get_by_test_id("game-log")).to_contain_text("pia bought 1")
    page.wait_for_function("(v) => document.querySelector('[data-testid=\"acquire-dialog\"]')?.dataset.v !== v", arg=v)
    assert errors == []
