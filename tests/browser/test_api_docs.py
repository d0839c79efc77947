"""The API's documentation pages work on a machine without internet and under the site's
Content-Security-Policy: Swagger UI and ReDoc come from this server (drf-spectacular-sidecar)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.pages import open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watched(browser, live_server_url):
    """A page, the console errors it logs and every request it makes to another host."""
    errors: list[str] = []
    page = open_page(browser, errors)
    elsewhere: list[str] = []
    here = urlsplit(live_server_url).netloc
    page.on("request", lambda request: None if urlsplit(request.url).netloc in (here, "")
            or request.url.startswith(("data:", "blob:")) else elsewhere.append(request.url))
    return page, errors, elsewhere


def test_swagger_ui_renders_from_this_server_only(live_server_url, browser):
    from playwright.sync_api import expect

    page, errors, elsewhere = watched(browser, live_server_url)
    page.goto(f"{live_server_url}/api/docs/")
    expect(page.locator(".swagger-ui .info .title").first).to_contain_text("Game table API")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    assert not elsewhere, elsewhere
    assert not errors, errors


def test_redoc_renders_from_this_server_only(live_server_url, browser):
    from playwright.sync_api import expect

    page, errors, elsewhere = watched(browser, live_server_url)
    page.goto(f"{live_server_url}/api/redoc/")
    expect(page.locator("h1").first).to_contain_text("Game table API")
    expect(page.get_by_text("/api/games/{game_id}/replay/").first).to_be_attached()
    assert not elsewhere, elsewhere
    assert not errors, errors
    # The bundle's logo on Redocly's CDN is shown from this site instead (static/js/redoc_init.js).
    expect(page.locator('img[alt="redocly logo"]')).to_have_attribute("src", "/static/favicon.svg")
