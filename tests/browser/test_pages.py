"""The account pages and the anonymous lobby."""

from __future__ import annotations

import pytest

from .pages import PASSWORD, open_page, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_anonymous_lobby_signup_token_logout_login(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)

    # Anonymous visitors are invited in; no socket is opened for them.
    page.goto(f"{live_server_url}/")
    expect(page.get_by_test_id("cta-signup")).to_be_visible()
    expect(page.get_by_test_id("connection-status")).to_have_count(0)
    snap(page, artifacts / "lobby-anonymous.png")

    # The sign-up form reports its errors next to the fields.
    page.get_by_test_id("cta-signup").click()
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD + "x")
    page.get_by_test_id("signup-submit").click()
    expect(page.locator(".field__error")).to_contain_text("match")
    snap(page, artifacts / "signup-error.png")

    sign_up(page, live_server_url, "dora")

    # The token page shows a key and rotates it on request.
    page.get_by_role("link", name="My token").click()
    token = page.get_by_test_id("api-token")
    first = token.input_value()
    assert len(first) == 40
    expect(page.locator("main")).to_contain_text("Authorization: Token")
    expect(page.locator("main")).to_contain_text("/ws/bot/")
    snap(page, artifacts / "token.png")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("rotate-token").click()
    expect(token).not_to_have_value(first)

    # Log out (a POST with the CSRF token) and back in.
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("cta-login")).to_be_visible()
    page.get_by_test_id("cta-login").click()
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill(PASSWORD)
    snap(page, artifacts / "login.png")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("connection-status")).to_have_text("Live")

    assert not errors, errors
