"""Every write of the REST API (each POST/PUT/PATCH route of games/api/urls.py, found by walking the
routes, so a new one is fuzzed too) under generated bodies: fields of the right shape with values
of any type, random JSON, raw bytes (broken UTF-8, NaN, forms, multipart), other content types,
and JSON nested deeper than any request.

Each request goes through Django's whole stack (middleware, DRF, the views) with a token, another
user's token, a bad token or none, at the example world's tables and games (worlds.py) or at ids
that do not exist. Asserted (docs/api.md: "Every error has the same shape", "A refused request
changes nothing"):

- never a 5xx;
- an error is JSON ``{"code": ..., "reason": ...}``;
- a refused request changed nothing: games, seats, the action log, chat, users, presence, and
  every seat's view of every game in progress.

``test_deep_nesting_is_refused_cleanly`` holds the bodies nested 200 to 100,000 deep apart, so a
failure there (a 500 from the JSON parser's recursion) is reported on its own and does not hide
the other cases.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import example, given, note
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.api import urls as api_urls
from tests.fuzz.strategies import GAME_IDS, Body, encode_body, nested, rest_bodies, sym, weighted
from tests.fuzz.support import Sym, World, bounded, print_stats, reset_process_state, short, tally, world_state
from tests.fuzz.worlds import lobby_world

pytestmark = pytest.mark.django_db(transaction=True)

WRITE_METHODS = ("post", "put", "patch")
# Mostly the host of the world's tables; also other users, nobody, and credentials that are wrong.
AUTH = weighted((12, st.just("me")), (1, st.sampled_from(["friend", "stranger"])),
                (1, st.sampled_from(["anonymous", "bad-token", "malformed-header"])))
# Per route (2 to 6 requests an example): ~8 s for all routes on two cores with SQLite, ~15 s with
# PostgreSQL.
EXAMPLES = {"bodies": 10, "deep": 3}


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


def client_for(auth: str, world: World) -> APIClient:
    # One client per credential for the whole run: a client builds Django's handler (and with it
    # every middleware, whitenoise's scan of the static files included) on its first request.
    key = (auth, world.values["me_token"])
    if key not in _clients:
        _clients[key] = _client(auth, world)
    return _clients[key]


def _client(auth: str, world: World) -> APIClient:
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
    path = route.route.replace("<int:game_id>", str(world.resolve(game)))
    return f"/api/{path}"


def send(route: Route, request: Request, world: World, known: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """One request: never a 5xx; an error is the API's JSON error and changed nothing. ``known``:
    the world before it, if already read; returns the world after it when it was refused (the
    world before the next request), else None."""
    url = url_for(route, request.game, world)
    data = encode_body(request.body, world)
    before = world_state() if known is None else known
    response = client_for(request.auth, world).generic(route.method.upper(), url, data=data,
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


@pytest.mark.parametrize("route", ROUTES, ids=repr)
def test_generated_bodies_never_get_a_server_error_and_refusals_change_nothing(route, fuzz_env):
    @bounded(EXAMPLES["bodies"], salt=route.name)
    @given(batch=st.lists(requests(route, deep=False), min_size=2, max_size=6))
    def check(batch: list[Request]) -> None:
        note(f"requests: {batch!r}")
        reset_process_state(fuzz_env)
        world = lobby_world()
        known = None
        for request in batch:
            known = send(route, request, world, known)

    check()
    print_stats(repr(route))


@pytest.mark.parametrize("route", ROUTES, ids=repr)
def test_deep_nesting_is_refused_cleanly(route, fuzz_env):
    @bounded(EXAMPLES["deep"], salt=route.name)
    @given(request=requests(route, deep=True))
    @example(request=Request("me", Sym("my_table"), Body(raw=nested(100_000).encode())))
    @example(request=Request("me", Sym("my_table"), Body(raw=b'{"text": ' + nested(1000, "dict").encode() + b"}")))
    def check(request: Request) -> None:
        note(f"request: {request!r}")
        reset_process_state(fuzz_env)
        world = lobby_world()
        send(route, request, world)

    check()
    print_stats(f"deep {route!r}")
