"""The API's documentation pages work on a machine without internet and under the site's
Content-Security-Policy: Swagger UI comes from this server (drf-spectacular-sidecar)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from .pages import open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])  # the old Redoc address leads to Swagger UI
def test_api_docs_render_from_this_server_only(live_server_url, browser, path):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    elsewhere: list[str] = []
    here = urlsplit(live_server_url).netloc
    page.on("request", lambda request: None if urlsplit(request.url).netloc in (here, "")
            or request.url.startswith("data:") else elsewhere.append(request.url))
    page.goto(f"{live_server_url}{path}")
    expect(page.locator(".swagger-ui .info .title").first).to_contain_text("Game table API")
    assert not elsewhere, elsewhere
    assert not errors, errors
