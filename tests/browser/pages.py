"""Helpers shared by the browser tests: pages with error capture, signing up through the form."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

PASSWORD = "felt-and-brass-42"
VIEWPORT = {"width": 1280, "height": 900}
TIMEOUT_MS = 15_000


def open_page(browser, errors: list[str], **context_options):
    """A page in its own context (its own cookies: one person per context). ``context_options``
    go to Playwright's ``new_context`` (a phone's viewport, touch, pixel density)."""
    context = browser.new_context(**{"viewport": VIEWPORT, **context_options})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    # Uncaught script errors fail the test: a broken module leaves a page that only looks fine.
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    # So does anything the Content-Security-Policy blocked: a page that needs it is broken.
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}")
            if message.type == "error" and "Content Security Policy" in message.text else None)
    return page


def sign_up(page, base_url: str, username: str, password: str = PASSWORD) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(f"{base_url}/")
    expect(page.get_by_test_id("current-user")).to_contain_text(username)
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")


def snap(page, path) -> None:
    """A full-page screenshot from the top, with CSS animations finished (no half-faded cards)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True, animations="disabled")


@contextlib.contextmanager
def server_database() -> Iterator[None]:
    """For ORM calls in a browser test's body, which shares the live server's database.

    Under Playwright's sync API those calls open a connection that pytest-django's teardown does
    not close, and PostgreSQL will not drop a test database someone is still connected to.
    """
    from django.db import connections

    try:
        yield
    finally:
        connections.close_all()


_BOXES = """(selectors) => selectors.map((selector) => {
  const element = document.querySelector(selector);
  if (!element) return null;
  const r = element.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
})"""


def boxes(page, *selectors: str) -> list[dict]:
    """The boxes of the first element matching each selector, measured in one go inside the page.
    A table that is redrawn at every move replaces its elements: measured one by one (a locator's
    ``bounding_box``), an element can be gone between finding and measuring it (None)."""
    found = page.evaluate(_BOXES, list(selectors))
    assert all(box is not None for box in found), (selectors, found)
    return found

