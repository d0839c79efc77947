"""The account pages and the anonymous lobby."""

from __future__ import annotations

import pytest

from tests.browser.pages import PASSWORD, open_page, sign_up, snap

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

    # The token page makes a key and shows it once; the list shows its prefix; Revoke removes it.
    page.get_by_role("link", name="My token").click()
    expect(page.get_by_test_id("no-tokens")).to_be_visible()
    page.get_by_label("Name (optional)").fill("my bot")
    page.get_by_test_id("create-token").click()
    key = page.get_by_test_id("api-token").input_value()
    assert len(key) == 64
    expect(page.get_by_test_id("token-row")).to_have_count(1)
    expect(page.locator("main")).to_contain_text("Authorization: Token")
    expect(page.locator("main")).to_contain_text("/ws/bot/")
    snap(page, artifacts / "token.png")
    page.get_by_role("link", name="My token").click()
    expect(page.get_by_test_id("token-row")).to_contain_text(f"{key[:8]}…")
    expect(page.get_by_test_id("api-token")).to_have_count(0)
    assert key not in page.content()
    # Revoking asks first: dismissed, nothing happens; accepted, the token goes.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_test_id("revoke-token").click()
    expect(page.get_by_test_id("token-row")).to_have_count(1)
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_test_id("revoke-token").click()
    expect(page.get_by_test_id("no-tokens")).to_be_visible()
    assert len(asked) == 2 and key[:8] in asked[0]
    expect(page.locator(".flash")).to_contain_text("revoked")

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
