"""Schemathesis against the whole /api/: generated requests, valid and invalid, must never get a 500.

Requests go through Django's WSGI handler in this thread, so they see the test's database
transaction. Bounded: a few examples per operation and generation mode.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from accounts.tokens import token_for
from games.service import chat, lifecycle, lobby

pytestmark = pytest.mark.django_db

EXAMPLES = {GenerationMode.POSITIVE: 15, GenerationMode.NEGATIVE: 20}


@pytest.fixture
def wsgi_app():
    # Django closes "old" connections around each request, which would end the test transaction;
    # the test client disconnects the same handlers for the same reason.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def world(make_user) -> dict[str, Any]:
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
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)

    @given(case=strategy)
    @settings(max_examples=EXAMPLES[mode], deadline=None, database=None, derandomize=True,
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
def test_api_never_answers_500(wsgi_app, world, who):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app, headers={"Accept": "application/json"})
    headers = {"Authorization": f"Token {world['token']}"} if who == "token" else {}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    for operation in operations:
        has_id = any(p.name == "game_id" for p in operation.path_parameters)
        # Generated ids almost never exist, so valid requests are also aimed at real games. Invalid
        # ones need not be: bodies and queries are validated before the game is looked up.
        real = [{"game_id": game_id} for game_id in world["game_ids"]] if has_id else []
        for target in [None, *real]:
            run_operation(operation, GenerationMode.POSITIVE, headers, target)
        run_operation(operation, GenerationMode.NEGATIVE, headers, None)
