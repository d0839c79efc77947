"""A refused sign-up says each thing wrong under the field it concerns, and a screen reader hears it
as that field's description: a password too short under the password, not under its confirmation."""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import open_page, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_sign_up_error_under_its_field(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server_url}/accounts/signup/")
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Password", exact=True).fill("abc")
    page.get_by_label("Password confirmation").fill("abc")
    page.get_by_test_id("signup-submit").click()

    password = page.get_by_label("Password", exact=True)
    confirmation = page.get_by_label("Password confirmation")
    error = page.locator('[data-testid="field-error"][data-field="password1"]')
    expect(error).to_contain_text("too short")
    expect(page.get_by_test_id("field-error")).to_have_count(1)  # nothing under the confirmation
    expect(password).to_have_attribute("aria-invalid", "true")
    expect(password).to_have_accessible_description(re.compile("This password is too short"))
    expect(confirmation).not_to_have_attribute("aria-invalid", "true")
    # Right under the password's box, above the confirmation.
    field, said, second = (el.bounding_box() for el in (password, error, confirmation))
    assert field["y"] + field["height"] <= said["y"] < second["y"], (field, said, second)
    snap(page, artifacts / "signup-short-password.png")

    # Two passwords that differ: that is said under the confirmation.
    page.get_by_label("Password", exact=True).fill("long-enough-1")
    page.get_by_label("Password confirmation").fill("long-enough-2")
    page.get_by_test_id("signup-submit").click()
    mismatch = page.locator('[data-testid="field-error"][data-field="password2"]')
    expect(mismatch).to_contain_text("match")
    expect(page.get_by_test_id("field-error")).to_have_count(1)
    expect(page.get_by_label("Password confirmation")).to_have_accessible_description(re.compile("didn.t match"))
    assert errors == []
