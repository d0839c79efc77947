"""Rule options (``CreateGame.rules``, ``POST /api/games/`` ``rules``) go to each game's engine as the
client sent them: the engine accepts them or refuses them with ``InvalidRules``
(games/service/lobby.py:_check_rules). Generated options for every game type, with the engines' own keys
(riichi's Majiang names, cribbage's counting and variants) and values of every kind, over REST
and over the bot WebSocket. Asserted as everywhere in this suite: no 5xx and no InternalError,
and a refused request changes nothing.

The other fuzz tests send rule options too, but rarely with an engine's own keys; here every
request carries some.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import example, given, note
from hypothesis import strategies as st

from tests.api.test_bad_input import ROUTES, Request, send_request
from tests.fuzz.sockets import JsonSocket
from tests.fuzz.strategies import MODES, Body, rule_options
from tests.fuzz.support import (
    Baseline,
    bounded,
    describe,
    print_stats,
    reset_process_state,
    run_async,
    server_errors,
    short,
    tally,
    world_state,
)
from tests.fuzz.worlds import lobby_world

pytestmark = pytest.mark.django_db(transaction=True)

# Found by this suite, kept as explicit examples (run before the generated ones, every time):
# riichi's 順位点 as an integer too large for a float was an OverflowError in
# games/riichi/engine/rule.py, which games/service/lobby.py:_check_rules did not catch (a 500 over REST,
# InternalError over the WebSocket) until 4e7fe3d.
FOUND = [{"game_type": "riichi", "mode": 4, "rules": {"順位点": [10**400, "10.0", "-10.0", "-20.0"]}}]

# ~4 s for both with SQLite, ~8 s with PostgreSQL and Redis.
EXAMPLES = {"rest": 30, "ws": 18}


creates = st.sampled_from(["riichi", "cribbage", "riichi", "acquire"]).flatmap(
    lambda game_type: st.fixed_dictionaries({
        "game_type": st.just(game_type), "mode": st.sampled_from(MODES[game_type]),
        "rules": rule_options(game_type, min_size=1, max_size=1)}))


def test_rule_options_over_rest(fuzz_env):
    route = next(r for r in ROUTES if r.name == "api-games")

    @bounded(EXAMPLES["rest"])
    @given(bodies=st.lists(creates, min_size=2, max_size=6))
    @example(bodies=FOUND)
    def check(bodies: list[dict[str, Any]]) -> None:
        note(f"bodies: {short(bodies, 2000)}")
        reset_process_state(fuzz_env)
        world = lobby_world()
        known = None
        for body in bodies:
            known = send_request(route, Request("me", None, Body(value=body)), world, known)

    check()
    print_stats("rule options over REST")


async def _over_websocket(world: Any, bodies: list[dict[str, Any]]) -> None:
    baseline = Baseline(database_sync_to_async(world_state))
    sock = JsonSocket("/ws/bot/", name="me on /ws/bot/")
    await sock.connect()
    try:
        await sock.send(json.dumps({"type": "Login", "version": 1, "token": world.values["me_token"]}))
        await sock.until(lambda m: m["type"] == "Greetings")
        for n, body in enumerate(bodies):
            await baseline.before()
            ref = f"create-{n}"
            await sock.send(json.dumps({"type": "CreateGame", **body, "ref": ref}))
            await sock.send(json.dumps({"type": "Resync", "game": 0, "ref": f"probe-{n}"}))
            replies = await sock.until(lambda m, n=n: m["type"] == "Error" and m.get("ref") == f"probe-{n}")
            errors = [m for m in replies if m["type"] == "Error" and m.get("ref") == ref]
            tally(errors[0]["code"] if errors else "created")
            if errors:
                assert await baseline.unchanged(), f"a refused CreateGame changed the world: {short(body)}"
            else:
                baseline.changed()
    finally:
        await sock.close()


def test_rule_options_over_the_websocket(fuzz_env):
    @bounded(EXAMPLES["ws"])
    @given(bodies=st.lists(creates, min_size=2, max_size=6))
    @example(bodies=FOUND)
    def check(bodies: list[dict[str, Any]]) -> None:
        note(f"bodies: {short(bodies, 2000)}")
        reset_process_state(fuzz_env)
        world = lobby_world()
        with server_errors() as errors:
            run_async(lambda: _over_websocket(world, bodies))
        assert not errors, f"the server logged errors:\n{describe(errors)}"

    check()
    print_stats("rule options over the WebSocket")
