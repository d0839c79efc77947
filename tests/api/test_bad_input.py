"""Bad input to the REST API (``/api/``): every body, header, field value and route a client may get
wrong is refused cleanly, as a JSON error that changed nothing, never a 500, an HTML page or a
coerced value (docs/api.md: "Every error has the same shape", "A refused request changes nothing").

Every request-body field follows the one rule of ``games/core/validation.py`` that the WebSocket
applies: an integer is a JSON integer (never ``"2"``, ``2.0`` or ``true``) within the same range,
text is a JSON string (``5`` is refused, never stored as ``"5"``), and a body is standard JSON
nested at most ``MAX_NESTING`` deep, as ``games.transport.lobby_consumer.parse_frame`` reads a frame.

The suite, from the most specific input to the most general:

- chosen inputs, one case each: bodies that are not UTF-8 JSON (NaN, ``1e999``, broken or other
  encodings, trailing text, nesting to 200,000 deep), bodies over the size limit in every content
  type and over ASGI, queries with too many fields, form bodies, integers that are not JSON
  integers or out of the WebSocket's range, text that is not a string, rules a JSON column cannot
  store; and an unexpected server error, which is a JSON 500 without a traceback;
- property tests (hypothesis): every integer and text field of every body refuses every other
  JSON value, and the game stays as it was;
- generated requests over every write route (found by walking ``games/api/urls.py``, so a new one
  is fuzzed too): fields of the right shape with values of any type, random JSON, raw bytes, other
  content types, deep nesting, with a token, another user's, a bad one or none, at the example
  world's tables (tests/fuzz/worlds.py) or at ids that do not exist: never a 5xx, an error is
  ``{"code", "reason"}`` JSON, and a refused request changed nothing anywhere (games, seats, the
  action log, chat, users, presence, every seat's view of every game in progress);
- Schemathesis against the whole published schema, valid and invalid requests, anonymous and
  with a token: never a 500.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import AsyncClient
from drf_spectacular.views import SpectacularAPIView
from hypothesis import HealthCheck, example, given, note
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.test import APIClient
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from accounts.tokens import token_for
from games.api import urls as api_urls
from games.core import validation
from games.models import ChatMessage, Game
from games.service import chat, door, lifecycle, lobby
from games.site import pages as game_views
from games.transport.link import MAX_NESTING, MAX_SEAT
from tests.api.conftest import state
from tests.fuzz.strategies import GAME_IDS, Body, encode_body, nested, rest_bodies, sym, weighted
from tests.fuzz.support import (
    Sym,
    World,
    bounded,
    bounded_shrinking,
    deterministic,
    print_stats,
    reset_process_state,
    short,
    tally,
    without_local_constants,
    world_state,
)
from tests.fuzz.worlds import lobby_world

pytestmark = pytest.mark.django_db

TEN_MB = 10 * 1024 * 1024
CSRF_SECRET = "s" * 32
FUZZ = hypothesis_settings(max_examples=40, deadline=None, database=None, derandomize=True,
                           suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture
def as_user():
    """A token client whose server errors come back as responses (as a real client sees them)
    instead of being raised into the test."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        client.raise_request_exception = False
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
        return client

    return make


@pytest.fixture
def as_session():
    """A session client that passes the CSRF check (Django's check still reads a form body)."""

    def make(user: Any) -> APIClient:
        client = APIClient(enforce_csrf_checks=True)
        client.raise_request_exception = False
        client.force_login(user)
        client.cookies["csrftoken"] = CSRF_SECRET
        client.defaults["HTTP_X_CSRFTOKEN"] = CSRF_SECRET
        return client

    return make


def send(client: APIClient, url: str, body: Any, content_type: str = "application/json") -> Any:
    """POST ``body``: a str or bytes is sent as it is, anything else as JSON."""
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url, raw, content_type=content_type)


def json_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The API's error shape, without a trace of a debug page or traceback."""
    content = response.content.decode("utf-8", "replace")
    assert response.status_code == status, (response.status_code, content[:300])
    assert response["Content-Type"].startswith("application/json"), (response["Content-Type"], content[:300])
    assert "Traceback" not in content and "<html" not in content.lower()
    body = response.json()
    assert isinstance(body["code"], str) and isinstance(body["reason"], str) and body["reason"]
    if code is not None:
        assert body["code"] == code, body
    return body


def game_url(game_id: int, op: str) -> str:
    return f"/api/games/{game_id}/{op}/"


# Every POST that takes a body, with a body it accepts (ops with a game id get the table's).
OPERATIONS = {
    "create": (None, {"game_type": "acquire", "mode": 2}),
    "accept": ("accept", {"version": 0}),
    "mode": ("mode", {"mode": 4}),
    "arrangement": ("arrangement", {"arrangement": 1}),
    "kick": ("kick", {"user": 1}),
    "moves": ("moves", {"action": "Add", "params": [1]}),
    "chat": ("chat", {"text": "hello"}),
}


def op_url(op: str, table: Game) -> str:
    path = OPERATIONS[op][0]
    return "/api/games/" if path is None else game_url(table.id, path)


def unchanged(table: Game) -> tuple[int, dict[str, Any], int]:
    return Game.objects.count(), state(table), ChatMessage.objects.count()


# --- unparseable bodies -----------------------------------------------------------------------


@pytest.mark.parametrize("op", list(OPERATIONS))
@pytest.mark.parametrize("where", ["top", "field"])
def test_json_nested_1000_deep_is_400_json(table, alice, as_user, settings, op, where):
    settings.DEBUG = True  # as the probe ran: the failure used to be Django's debug page
    before = unchanged(table)
    raw = nested(1000) if where == "top" else f'{{"text": {nested(1000)}, "mode": {nested(1000)}}}'
    json_error(send(as_user(alice), op_url(op, table), raw), 400, "ParseError")
    assert unchanged(table) == before


# (body, content type, code) posted as chat: none is read as a request.
UNREADABLE = {
    "nested-200000": (f'{{"text": {nested(200_000)}}}', "application/json", "ParseError"),
    "NaN": ('{"text": NaN}', "application/json", "ParseError"),
    "Infinity": ('{"text": Infinity}', "application/json", "ParseError"),
    "-Infinity": ('{"text": -Infinity}', "application/json", "ParseError"),
    # Not a constant but a number beyond any float: Python's json reads it as infinity.
    "1e999": ('{"text": 1e999}', "application/json", "ParseError"),
    "-1e400-ignored": ('{"text": "hi", "ignored": -1e400}', "application/json", "ParseError"),
    "not-utf8": (b'{"text": "\xff\xfe"}', "application/json", "ParseError"),
    "broken": (b"{nope", "application/json", "ParseError"),
    "trailing": (b'{"text": "hi"} trailing', "application/json", "ParseError"),
    # JSON between systems is UTF-8 (RFC 8259), as a WebSocket text frame is, whatever is declared.
    "latin-1": ('{"text": "h\u00e9"}'.encode("latin-1"), "application/json; charset=latin-1", "ParseError"),
    "utf-16": ('{"text": "hi"}'.encode("utf-16"), "application/json; charset=utf-16", "ParseError"),
    # An empty body is no parse error but an empty request: the field is then missing, which chat
    # answers as the WebSocket's Chat without text (InvalidChat).
    "empty": (b"", "application/json", "InvalidChat"),
}


@pytest.mark.parametrize("case", list(UNREADABLE))
def test_bodies_that_are_not_utf8_standard_json_are_400_json(table, alice, as_user, case):
    raw, content_type, code = UNREADABLE[case]
    before = unchanged(table)
    json_error(send(as_user(alice), game_url(table.id, "chat"), raw, content_type), 400, code)
    assert not ChatMessage.objects.exists()
    assert unchanged(table) == before


def test_nesting_is_bounded_as_on_the_websocket(table, alice, as_user):
    client = as_user(alice)
    # The object is the first level, as in games.transport.lobby_consumer.parse_frame.
    deepest = {"text": "hi", "ignored": json.loads(nested(MAX_NESTING - 1))}
    assert send(client, game_url(table.id, "chat"), deepest).status_code == 201
    too_deep = {"text": "hi", "ignored": json.loads(nested(MAX_NESTING))}
    body = json_error(send(client, game_url(table.id, "chat"), too_deep), 400, "ParseError")
    assert str(MAX_NESTING) in body["reason"]
    assert ChatMessage.objects.count() == 1


def test_infinite_move_params_are_400(stub_live, as_user):
    before = state(stub_live.game)
    json_error(send(as_user(stub_live.players[0]), game_url(stub_live.game.id, "moves"),
                    '{"action": "Add", "params": [1e999]}'), 400, "ParseError")
    assert state(stub_live.game) == before


@pytest.mark.parametrize("rules", ['{"x": "\\ud800"}', '{"\\udfff": 1}', '{"x": ["ok", {"y": "\\ud83d"}]}',
                                   '{"x": "a\\u0000"}', '{"\\u0000": 1}'])
def test_rules_with_lone_surrogates_or_nul_are_400(alice, as_user, stub_type, rules):
    # A JSON column cannot store them (PostgreSQL refuses \ud800 and \u0000 escapes with a server
    # error), so no body may carry them, as no WebSocket frame may.
    raw = f'{{"game_type": "stub", "mode": 2, "rules": {rules}}}'
    json_error(send(as_user(alice), "/api/games/", raw), 400, "ParseError")
    assert not Game.objects.exists()


# --- oversized bodies and queries -------------------------------------------------------------


@pytest.mark.parametrize("op", ["chat", "create", "moves"])
def test_ten_megabyte_json_body_is_413_json(table, alice, as_user, settings, op):
    settings.DEBUG = True
    before = unchanged(table)
    raw = json.dumps({**OPERATIONS[op][1], "text": "x" * TEN_MB})
    body = json_error(send(as_user(alice), op_url(op, table), raw), 413, "RequestTooLarge")
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in body["reason"]
    assert unchanged(table) == before


def body_of(content_type: str, fields: dict[str, str]) -> str:
    """``fields`` encoded (without escaping: tests only) as a body of ``content_type``."""
    if content_type == "application/json":
        return json.dumps(fields)
    if content_type.startswith("multipart/"):
        parts = [f'--B\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()]
        return "".join(parts) + "--B--\r\n"
    return "&".join(f"{k}={v}" for k, v in fields.items())


BODY_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=B"]


@pytest.mark.parametrize("auth", ["token", "session"])
@pytest.mark.parametrize("content_type", BODY_TYPES)
def test_ten_megabyte_bodies_of_every_kind_are_413_json(table, alice, as_user, as_session, settings, auth,
                                                        content_type):
    # A session write is CSRF-checked, and Django's check reads a form body before the view does;
    # a form body has no parser, yet its size is what is wrong with it.
    client = as_user(alice) if auth == "token" else as_session(alice)
    response = send(client, game_url(table.id, "chat"), body_of(content_type, {"text": "x" * TEN_MB}), content_type)
    body = json_error(response, 413, "RequestTooLarge")
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in body["reason"]
    assert not ChatMessage.objects.exists()


def test_the_size_limit_is_djangos_to_the_byte(table, alice, as_user, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    client = as_user(alice)
    at_limit = json.dumps({"text": "x" * (100 - len('{"text": ""}'))})
    assert len(at_limit) == 100
    assert send(client, game_url(table.id, "chat"), at_limit).status_code == 201
    body = json_error(send(client, game_url(table.id, "chat"), at_limit + " "), 413, "RequestTooLarge")
    assert "100 bytes" in body["reason"]
    assert ChatMessage.objects.count() == 1


@pytest.mark.django_db(transaction=True)
async def test_ten_megabyte_body_over_asgi_is_413_json(db_call, make_user):
    # Daphne serves through Django's ASGI handler rather than the test client's WSGI one.
    alice = await db_call(make_user, "alice")
    table = await db_call(lobby.create_table, alice, "acquire", 2)
    token = await db_call(token_for, alice)
    response = await AsyncClient(raise_request_exception=False).post(
        game_url(table.id, "chat"), json.dumps({"text": "x" * TEN_MB}), content_type="application/json",
        headers={"authorization": f"Token {token}"})
    json_error(response, 413, "RequestTooLarge")
    assert not await db_call(ChatMessage.objects.exists)


def test_a_query_with_too_many_fields_is_400_json(api):
    # Django refuses it as suspicious (DATA_UPLOAD_MAX_NUMBER_FIELDS) when the view reads the query.
    api.raise_request_exception = False
    response = api.get("/api/games/?" + "&".join(f"f{i}=1" for i in range(1001)))
    json_error(response, 400, "BadRequest")


@pytest.mark.parametrize("content_type", BODY_TYPES[1:])
def test_form_bodies_cannot_smuggle_strings_into_integer_fields(alice, as_user, content_type):
    # A form field is always a string; the API reads JSON only.
    response = send(as_user(alice), "/api/games/", body_of(content_type, {"game_type": "acquire", "mode": "2"}),
                    content_type)
    json_error(response, 415, "UnsupportedMediaType")
    assert not Game.objects.exists()


# --- integers are JSON integers ---------------------------------------------------------------


# Each of these was taken for 2 (DRF's IntegerField reads numeric strings and whole floats).
@pytest.mark.parametrize("mode", ["2", "+2", " 2", "2.0", 2.0], ids=repr)
def test_create_refuses_a_mode_that_is_not_an_integer(alice, as_user, mode):
    client = as_user(alice)
    body = json_error(send(client, "/api/games/", {"game_type": "acquire", "mode": mode}), 400, "InvalidMessage")
    assert "mode" in body["errors"]
    assert body["reason"] == "'mode' must be an integer"  # the WebSocket's reason
    assert not Game.objects.exists()
    created = send(client, "/api/games/", {"game_type": "acquire", "mode": 2, "time_start": None})
    assert created.status_code == 201 and created.json()["mode"] == 2 and created.json()["time_start"] is None


@pytest.mark.parametrize("mode", ["4", 4.0], ids=repr)
def test_change_mode_refuses_a_mode_that_is_not_an_integer(table, alice, as_user, mode):
    client = as_user(alice)
    before = state(table)
    json_error(send(client, game_url(table.id, "mode"), {"mode": mode}), 400, "InvalidMessage")
    assert state(table) == before
    assert send(client, game_url(table.id, "mode"), {"mode": 4}).json()["mode"] == 4


# (operation, field, lowest, highest): the bounds games.transport.lobby_consumer applies to the same field; a
# seating order holds user ids, bounded as Kick's user.
RANGES = [
    ("create", "mode", -validation.MAX_INT, validation.MAX_INT),
    ("mode", "mode", -validation.MAX_INT, validation.MAX_INT),
    ("arrangement", "arrangement", -validation.MAX_INT, validation.MAX_INT),
    ("arrangement", "order", 1, validation.MAX_INT),
    ("accept", "version", 0, validation.MAX_DB_INT),
    ("kick", "user", 1, validation.MAX_INT),
    ("moves", "seat", 0, MAX_SEAT),
    ("moves", "v", 0, validation.MAX_DB_INT),
]


@pytest.mark.parametrize(("op", "field", "lowest", "highest"), RANGES)
def test_integer_ranges_are_the_websockets(table, bob, alice, as_user, op, field, lowest, highest):
    lobby.join(bob, table.id)
    client = as_user(alice)
    before = unchanged(table)

    def body(value: int) -> dict[str, Any]:
        if field == "order":
            return {"arrangement": 2, "order": [value]}
        return {**OPERATIONS[op][1], field: value}

    for value in (lowest - 1, highest + 1):
        refused = json_error(send(client, op_url(op, table), body(value)), 400, "InvalidMessage")
        assert field in refused["errors"], value
    for value in (lowest, highest):
        # Within range the lobby or the game service decides (here: always a refusal of its own).
        response = send(client, op_url(op, table), body(value))
        assert response.status_code >= 400 and response.json()["code"] != "InvalidMessage", (value, response.json())
    assert unchanged(table) == before


# --- text is a JSON string --------------------------------------------------------------------


# Each of these was stored as its string ("5", "5.5").
@pytest.mark.parametrize("text", [5, 5.5, -1])
def test_chat_text_that_is_not_a_string_is_400_and_not_stored(table, alice, as_user, text):
    client = as_user(alice)
    # The WebSocket's Chat answers anything but text as it answers no text.
    body = json_error(send(client, game_url(table.id, "chat"), {"text": text}), 400, "InvalidChat")
    assert body["reason"] == "a chat message needs some text"
    assert not ChatMessage.objects.exists()
    # A string is taken as it is, spaces and all.
    assert send(client, game_url(table.id, "chat"), {"text": "  spaced  "}).json()["text"] == "  spaced  "


# --- unexpected errors ------------------------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_error_is_a_json_500_without_traceback(table, alice, as_user, settings, monkeypatch, caplog,
                                                             debug):
    settings.DEBUG = debug

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(door, "post_chat", broken)
    with caplog.at_level(logging.ERROR):
        response = send(as_user(alice), game_url(table.id, "chat"), {"text": "hi"})
    body = json_error(response, 500, "InternalError")
    assert "secret internal detail" not in response.content.decode()
    assert set(body) == {"code", "reason"}
    # The traceback goes to the log, not to the client.
    logged = [r for r in caplog.records if r.exc_info and "secret internal detail" in str(r.exc_info[1])]
    assert logged


def test_an_unexpected_error_in_a_read_is_a_json_500(table, api, monkeypatch):
    api.raise_request_exception = False

    def broken(*args: Any, **kwargs: Any) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(door, "snapshot", broken)
    json_error(api.get(game_url(table.id, "snapshot")), 500, "InternalError")


def test_a_server_error_outside_the_api_views_is_json_under_api_only(api, monkeypatch):
    api.raise_request_exception = False

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret internal detail")

    # The schema is served by drf-spectacular's view, not one of the API's: Django's handler500.
    monkeypatch.setattr(SpectacularAPIView, "get", broken)
    response = api.get("/api/schema/")
    json_error(response, 500, "InternalError")
    assert "secret internal detail" not in response.content.decode()
    # The site's pages keep Django's page.
    monkeypatch.setattr(game_views, "render", broken)
    page = api.get("/")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


# --- properties: every field refuses every value of another JSON type -------------------------


# Any JSON value; the wrong ones for an integer field are filtered from it.
# Strings a body may carry at all (no NUL, no lone surrogate: those are a ParseError whatever the field).
TEXT = st.characters(exclude_categories=("Cs",), exclude_characters="\x00")
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(TEXT, max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(TEXT, max_size=5), inner, max_size=3),
    max_leaves=6,
)
SMALL = st.integers(min_value=-1000, max_value=1000)
# What a lax integer field would take: "2", 2.0, true.
LOOKS_INTEGER = SMALL.map(str) | SMALL.map(float) | st.booleans()


def not_integers(*, null_allowed: bool) -> st.SearchStrategy[Any]:
    return (LOOKS_INTEGER | JSON_VALUES).filter(
        lambda v: not validation.is_integer(v) and not (null_allowed and v is None))


def not_strings() -> st.SearchStrategy[Any]:
    return (SMALL | SMALL.map(float) | JSON_VALUES).filter(lambda v: not isinstance(v, str))


# (operation, field, null allowed): every integer field of every request body.
INTEGER_FIELDS = [
    ("create", "mode", False), ("create", "time_start", True), ("create", "time_increment", True),
    ("accept", "version", True), ("mode", "mode", False), ("arrangement", "arrangement", False),
    ("kick", "user", False),
]


@pytest.mark.parametrize(("op", "field", "null_allowed"), INTEGER_FIELDS)
def test_integer_fields_refuse_every_other_json_value(table, alice, bob, as_user, op, field, null_allowed):
    lobby.join(bob, table.id)
    client = as_user(alice)
    before = unchanged(table)

    @FUZZ
    @given(value=not_integers(null_allowed=null_allowed))
    def check(value: Any) -> None:
        body = {**OPERATIONS[op][1], field: value}
        refused = json_error(send(client, op_url(op, table), body), 400, "InvalidMessage")
        assert field in refused["errors"]
        assert unchanged(table) == before

    check()
    if null_allowed:
        accepted = send(client, op_url(op, table), {**OPERATIONS[op][1], field: None})
        assert accepted.status_code < 300, accepted.json()


def test_seating_order_holds_only_integers(table, alice, bob, as_user):
    lobby.join(bob, table.id)
    client = as_user(alice)
    before = unchanged(table)

    @FUZZ
    @given(item=not_integers(null_allowed=False))
    def check(item: Any) -> None:
        body = {"arrangement": 2, "order": [alice.id, item]}
        json_error(send(client, game_url(table.id, "arrangement"), body), 400, "InvalidMessage")
        assert unchanged(table) == before

    check()
    response = send(client, game_url(table.id, "arrangement"), {"arrangement": 2, "order": [bob.id, alice.id]})
    assert response.status_code == 200, response.json()


@pytest.mark.parametrize("field", ["v", "seat"])
def test_move_integers_refuse_every_other_json_value(stub_live, as_user, field):
    client = as_user(stub_live.players[0])
    before = state(stub_live.game)

    @FUZZ
    @given(value=not_integers(null_allowed=True))
    def check(value: Any) -> None:
        body = {"action": "Add", "params": [1], field: value}
        refused = json_error(send(client, game_url(stub_live.game.id, "moves"), body), 400, "InvalidMessage")
        assert field in refused["errors"]
        assert state(stub_live.game) == before

    check()
    accepted = send(client, game_url(stub_live.game.id, "moves"), {"action": "Add", "params": [1], field: None})
    assert accepted.status_code == 200, accepted.json()


# (operation, field, code): chat answers anything but text with its own code, as the WebSocket does;
# a game_type left null is the default one, so null is no refusal there.
@pytest.mark.parametrize(("op", "field", "code"), [("chat", "text", "InvalidChat"),
                                                   ("create", "game_type", "InvalidMessage"),
                                                   ("moves", "action", "InvalidMessage")])
def test_text_fields_refuse_every_other_json_value(table, alice, as_user, op, field, code):
    client = as_user(alice)
    before = unchanged(table)

    @FUZZ
    @given(value=not_strings().filter(lambda v: not (field == "game_type" and v is None)))
    def check(value: Any) -> None:
        body = {**OPERATIONS[op][1], field: value}
        refused = json_error(send(client, op_url(op, table), body), 400, code)
        assert code != "InvalidMessage" or field in refused["errors"]
        assert unchanged(table) == before

    check()


# --- generated requests on every write route --------------------------------------------------


@pytest.fixture
def fuzz_env(settings, monkeypatch):
    """As in tests/fuzz/conftest.py: rate limits out of the way, clocks frozen, the lobby's randomness
    seeded; hypothesis's examples independent of the product's literals, and a failure shrunk for a
    bounded time (tests/fuzz/support.py)."""
    with without_local_constants(monkeypatch), bounded_shrinking(monkeypatch):
        yield deterministic(monkeypatch, settings)


WRITE_METHODS = ("post", "put", "patch")
# Mostly the host of the world's tables; also other users, nobody, and credentials that are wrong.
AUTH = weighted((12, st.just("me")), (1, st.sampled_from(["friend", "stranger"])),
                (1, st.sampled_from(["anonymous", "bad-token", "malformed-header"])))
# Per route (2 to 6 requests an example): ~8 s for all routes on two cores with SQLite, ~15 s with
# PostgreSQL.
ROUTE_EXAMPLES = {"bodies": 10, "deep": 3}


@dataclass(frozen=True)
class Route:
    name: str
    route: str  # as in urls.py, e.g. "games/<int:game_id>/kick/"
    method: str

    def __repr__(self) -> str:
        return f"{self.method.upper()} /api/{self.route}"


def write_routes() -> list[Route]:
    routes = []
    for pattern in api_urls.urlpatterns:
        view = getattr(pattern.callback, "view_class", None)
        for method in WRITE_METHODS:
            if view is not None and hasattr(view, method):
                routes.append(Route(pattern.name, str(pattern.pattern), method))
    return routes


ROUTES = write_routes()


def test_every_write_route_is_fuzzed():
    names = {r.name for r in ROUTES}
    # The writes docs/api.md lists; any route added later is picked up by write_routes().
    assert names >= {"api-games", "api-game-join", "api-game-leave", "api-game-accept", "api-game-mode",
                     "api-game-arrangement", "api-game-kick", "api-game-add-bot", "api-game-moves", "api-game-chat"}


@dataclass(frozen=True)
class Request:
    auth: str
    game: Any
    body: Body

    def __repr__(self) -> str:
        return f"Request(auth={self.auth!r}, game={self.game!r}, body={self.body!r})"


def requests(route: Route, *, deep: bool) -> st.SearchStrategy[Request]:
    games = weighted((6, sym(GAME_IDS)), (1, st.sampled_from([0, 999, 2**31, 2**63 - 1, 2**63])))
    return st.builds(Request, st.just("me") if deep else AUTH, games, rest_bodies(route.name, deep=deep))


_clients: dict[tuple[str, str], APIClient] = {}


def fuzz_client(auth: str, world: World) -> APIClient:
    # One client per credential for the whole run: a client builds Django's handler (and with it
    # every middleware, whitenoise's scan of the static files included) on its first request.
    key = (auth, world.values["me_token"])
    if key not in _clients:
        _clients[key] = _new_fuzz_client(auth, world)
    return _clients[key]


def _new_fuzz_client(auth: str, world: World) -> APIClient:
    client = APIClient()
    client.raise_request_exception = False  # a server error comes back as the 500 a client sees
    if auth in ("me", "friend", "stranger"):
        client.credentials(HTTP_AUTHORIZATION=f"Token {world.values[f'{auth}_token']}")
    elif auth == "bad-token":
        client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 64)
    elif auth == "malformed-header":
        client.credentials(HTTP_AUTHORIZATION="Token a b c")
    return client


def url_for(route: Route, game: Any, world: World) -> str:
    path = route.route.replace("<int:game_id>", str(world.resolve(game))).replace("<int:seat>", "0")
    return f"/api/{path}"


def send_request(route: Route, request: Request, world: World,
                 known: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """One request: never a 5xx; an error is the API's JSON error and changed nothing. ``known``:
    the world before it, if already read; returns the world after it when it was refused (the
    world before the next request), else None."""
    url = url_for(route, request.game, world)
    data = encode_body(request.body, world)
    before = world_state() if known is None else known
    response = fuzz_client(request.auth, world).generic(route.method.upper(), url, data=data,
                                                        content_type=request.body.content_type)
    content = response.content.decode("utf-8", "replace")
    where = f"{route.method.upper()} {url} as {request.auth}, body {short(data, 200)} ({request.body.content_type!r})"
    tally(str(response.status_code))
    if os.environ.get("FUZZ_SHOW"):
        print(response.status_code, where[:160], content[:100])
    assert response.status_code < 500, f"{response.status_code} for {where}:\n{content[:500]}"
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), (
            f"{response.status_code} is not JSON for {where}: {response['Content-Type']} {content[:300]}")
        error = json.loads(content)
        assert isinstance(error.get("code"), str) and isinstance(error.get("reason"), str) and error["reason"], (
            f"not the API's error shape for {where}: {content[:300]}")
        after = world_state()
        assert after == before, f"a refused request ({response.status_code} {error['code']}) changed the world: " \
                                f"{where}"
        return after
    return None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", ROUTES, ids=repr)
def test_generated_bodies_never_get_a_server_error_and_refusals_change_nothing(route, fuzz_env):
    @bounded(ROUTE_EXAMPLES["bodies"], salt=route.name)
    @given(batch=st.lists(requests(route, deep=False), min_size=2, max_size=6))
    def check(batch: list[Request]) -> None:
        note(f"requests: {batch!r}")
        reset_process_state(fuzz_env)
        world = lobby_world()
        known = None
        for request in batch:
            known = send_request(route, request, world, known)

    check()
    print_stats(repr(route))


# Held apart from the test above, so a failure here (a 500 from the JSON parser's recursion) is
# reported on its own and does not hide the other cases: bodies nested 200 to 100,000 deep.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", ROUTES, ids=repr)
def test_deep_nesting_is_refused_cleanly(route, fuzz_env):
    @bounded(ROUTE_EXAMPLES["deep"], salt=route.name)
    @given(request=requests(route, deep=True))
    @example(request=Request("me", Sym("my_table"), Body(raw=nested(100_000).encode())))
    @example(request=Request("me", Sym("my_table"), Body(raw=b'{"text": ' + nested(1000, "dict").encode() + b"}")))
    def check(request: Request) -> None:
        note(f"request: {request!r}")
        reset_process_state(fuzz_env)
        world = lobby_world()
        send_request(route, request, world)

    check()
    print_stats(f"deep {route!r}")


# --- Schemathesis: the whole published schema -------------------------------------------------

SCHEMA_EXAMPLES = {GenerationMode.POSITIVE: 15, GenerationMode.NEGATIVE: 20}


@pytest.fixture
def wsgi_app():
    """Requests go through Django's WSGI handler in this thread, so they see the test's database
    transaction. Django closes "old" connections around each request, which would end that
    transaction; the test client disconnects the same handlers for the same reason."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def schema_world(make_user) -> dict[str, Any]:
    """A host with a table being set up (with a chat line), a live game and an aborted table."""
    host, guest, other = make_user("fuzzhost"), make_user("fuzzguest"), make_user("fuzzother")
    table = lobby.create_table(host, "acquire", 3)
    lobby.join(guest, table.id)
    chat.post_chat(host, table.id, "hello")
    live = lobby.create_table(host, "acquire", 2)
    lobby.join(other, live.id)
    try:
        lobby.accept(host, live.id)
        lobby.accept(other, live.id)
    except ImportError:  # the Acquire engine is not there: the game stays in set-up
        pass
    aborted = lobby.create_table(other, "acquire", 2)
    lifecycle.abort(aborted.id)
    return {"token": token_for(host), "game_ids": [table.id, live.id, aborted.id]}


def run_operation(operation: Any, mode: GenerationMode, headers: dict[str, str],
                  path_parameters: dict[str, Any] | None) -> None:
    """A few examples of one operation in one generation mode (bounded: ``SCHEMA_EXAMPLES``)."""
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)

    @given(case=strategy)
    @hypothesis_settings(max_examples=SCHEMA_EXAMPLES[mode], deadline=None, database=None, derandomize=True,
                         suppress_health_check=list(HealthCheck))
    def check(case: schemathesis.Case) -> None:
        response = case.call(headers=headers)
        case.validate_response(response, checks=[not_a_server_error])

    try:
        check()
    except Unsatisfiable:
        # An operation without inputs (GET /api/game-types/) has no invalid variant to generate.
        if mode is not GenerationMode.NEGATIVE:
            raise


@pytest.mark.parametrize("who", ["anonymous", "token"])
def test_api_never_answers_500(wsgi_app, schema_world, who):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app, headers={"Accept": "application/json"})
    headers = {"Authorization": f"Token {schema_world['token']}"} if who == "token" else {}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    for operation in operations:
        has_id = any(p.name == "game_id" for p in operation.path_parameters)
        # Generated ids almost never exist, so valid requests are also aimed at real games. Invalid
        # ones need not be: bodies and queries are validated before the game is looked up.
        real = [{"game_id": game_id} for game_id in schema_world["game_ids"]] if has_id else []
        for target in [None, *real]:
            run_operation(operation, GenerationMode.POSITIVE, headers, target)
        run_operation(operation, GenerationMode.NEGATIVE, headers, None)
