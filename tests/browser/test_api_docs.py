"""The API's documentation pages work on a machine without internet and under the site's
Content-Security-Policy: Swagger UI and ReDoc come from this server (drf-spectacular-sidecar).
Both are pages of the site (its header and nav) and link each other; the nav's "API docs" leads
to Swagger UI, and from there to ReDoc."""

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


def test_the_docs_are_pages_of_the_site_that_link_each_other(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    page, errors, elsewhere = watched(browser, live_server_url)
    page.goto(f"{live_server_url}/games/")
    page.get_by_test_id("nav-api-docs").click()
    page.wait_for_url(f"{live_server_url}/api/docs/")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    # The site's header, its nav marking where we are, and the way back to the lobby.
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_test_id("nav-api-docs")).to_have_attribute("aria-current", "page")
    switch = page.get_by_test_id("api-docs-switch")
    expect(switch.get_by_test_id("api-docs-swagger")).to_have_attribute("aria-current", "page")
    # Swagger UI's light sheet keeps its own dark text readable below the site's header.
    assert page.locator("#swagger-ui").evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(250, 250, 250)"
    page.screenshot(path=str(artifacts / "api-docs-swagger.png"))

    switch.get_by_test_id("api-docs-redoc").click()
    page.wait_for_url(f"{live_server_url}/api/redoc/")
    expect(page.locator("#redoc-container h1").first).to_contain_text("Game table API")
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_test_id("nav-api-docs")).to_have_attribute("aria-current", "page")
    switch = page.get_by_test_id("api-docs-switch")
    expect(switch.get_by_test_id("api-docs-redoc")).to_have_attribute("aria-current", "page")
    page.screenshot(path=str(artifacts / "api-docs-redoc.png"))
    # The schema both draw, linked for programs.
    schema = switch.get_by_test_id("api-schema-link").get_attribute("href")
    assert page.request.get(f"{live_server_url}{schema}").ok

    switch.get_by_test_id("api-docs-swagger").click()
    page.wait_for_url(f"{live_server_url}/api/docs/")
    page.locator("a.brand").click()
    page.wait_for_url(f"{live_server_url}/")
    assert not elsewhere, elsewhere
    assert not errors, errors


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_the_docs_fit_a_phone(live_server_url, browser, artifacts, path):
    from playwright.sync_api import expect

    page, errors, elsewhere = watched(browser, live_server_url)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server_url}{path}")
    # ReDoc draws the whole reference before its first heading shows: slow on a busy machine.
    expect(page.locator(".swagger-ui .opblock, #redoc-container h1").first).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("api-docs-switch")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{path} is {width} px wide on a 390 px phone"
    page.screenshot(path=str(artifacts / f"api-docs-phone-{path.strip('/').replace('/', '-')}.png"))
    assert not elsewhere, elsewhere
    assert not errors, errors
