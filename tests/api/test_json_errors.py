"""Every answer under /api/ that is an error is the API's JSON ``{"code", "reason"}``: unknown
paths, wrong methods, the schema asked for in a format it has not; elsewhere the site's HTML 404."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def assert_json_error(response, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code and isinstance(body["reason"], str) and body["reason"], body


@pytest.mark.parametrize("path", [
    "/api/nope/", "/api/nope", "/api/games/1/nope/", "/api/games/x/", "/api/games/export/nope/",
    "/api/schema/nope/", "/api/docs/x", "/api", "/api/%ff/", "/api/games/1/chat/extra",
])
def test_unknown_api_paths_are_json_404(api, path):
    for method in ("get", "post", "delete"):
        assert_json_error(getattr(api, method)(path), 404, "NotFound")


@pytest.mark.parametrize("query", [{"format": "zzz"}, {"format": "html"}, {"format": "yaml/x"}])
def test_the_schema_in_an_unknown_format_is_json_404(api, query):
    response = api.get("/api/schema/", query, HTTP_ACCEPT="application/vnd.oai.openapi")
    assert_json_error(response, 404, "NotFound")


@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/", "/api/redoc/", "/api/game-types/", "/api/games/"])
@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_wrong_methods_are_json_405(api, alice, client_for, path, method):
    assert_json_error(getattr(client_for(alice), method)(path), 405, "MethodNotAllowed")


def test_the_schema_and_its_pages_still_serve(api):
    assert api.get("/api/schema/").status_code == 200
    assert api.get("/api/schema/", {"format": "json"}).json()["openapi"]
    assert api.get("/api/docs/")["Content-Type"].startswith("text/html")
    assert api.get("/api/redoc/")["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/nope/", "/apix/", "/games/nope/x/"])
def test_pages_elsewhere_keep_the_site_html_404(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
