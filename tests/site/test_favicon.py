"""The site's icon: /favicon.ico leads to it, and the site's pages, the admin's and the API docs
name it, each by an address that answers with the SVG."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

pytestmark = pytest.mark.django_db


class IconLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "link" and "icon" in (named.get("rel") or "").split():
            self.hrefs.append(named.get("href") or "")


def icon_of(client, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, path
    links = IconLinks()
    links.feed(page.content.decode())
    assert len(links.hrefs) == 1, (path, links.hrefs)
    return links.hrefs[0]


def assert_is_the_svg(client, href: str) -> None:
    answer = client.get(href, follow=True)
    assert answer.status_code == 200, href
    assert answer["Content-Type"].startswith("image/svg+xml"), href
    body = b"".join(answer.streaming_content) if answer.streaming else answer.content
    assert body.lstrip().startswith(b"<svg"), href


def test_favicon_ico_leads_to_the_icon(client):
    first = client.get("/favicon.ico")
    assert first.status_code == 302
    assert first["Location"] == "/static/favicon.svg"
    assert_is_the_svg(client, "/favicon.ico")


def test_site_pages_link_the_icon(client, make_user):
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/api/docs/"):
        assert_is_the_svg(client, icon_of(client, path))
    client.force_login(make_user())
    for path in ("/", "/accounts/token/"):
        assert_is_the_svg(client, icon_of(client, path))


def test_admin_pages_link_the_icon(client, make_user):
    assert_is_the_svg(client, icon_of(client, "/admin/login/"))
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for path in ("/admin/", f"/admin/accounts/user/{admin.pk}/change/"):
        assert_is_the_svg(client, icon_of(client, path))
