"""The OpenAPI description: valid, warning-free, and covering every API route."""

from __future__ import annotations

import re

import pytest
import yaml
from django.core.management import call_command

from games.api.urls import urlpatterns


def test_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    # --fail-on-warn turns any unannotated view or unresolvable field into an error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    documented = set(schema["paths"])
    # A route's <converter:name> is the schema's {name}.
    routes = {"/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(p.pattern)) for p in urlpatterns}
    assert routes <= documented
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])


@pytest.mark.django_db
def test_schema_is_served(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/games/{game_id}/moves/" in response.json()["paths"]
