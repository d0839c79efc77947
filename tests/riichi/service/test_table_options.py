"""Creating a riichi table with a rule preset, rule overrides and majiang-server's clock: the same
acceptance and the same refusals on the lobby WebSocket, the REST API and the lobby page, and the
rules in force shown at the table."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from accounts.tokens import token_for
from games.core.errors import GameError
from games.management.commands.playbots import parse_rules
from games.models import Game, Status
from games.riichi.engine import presets
from games.riichi.engine.rule import rule as make_rule
from games.service import lobby, reads
from games.state import replay as state

TENHOU_EAST = {"preset": "tenhou", "場数": 1}


def rest(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


# --- the lobby service -------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_preset_with_overrides_is_stored_as_sent_and_shown_to_the_lobby(make_user):
    host = make_user()
    game = lobby.create_table(host, "riichi", 4, rules=TENHOU_EAST, time_control={"per_decision": 5, "bank": 20})
    assert game.rules == TENHOU_EAST
    setup = lobby.setup_state(game)
    assert setup["rules"] == TENHOU_EAST
    assert (setup["time_control"], setup["time_start"], setup["time_increment"]) == (
        {"per_decision": 5, "bank": 20}, None, 0)


@pytest.mark.django_db(transaction=True)
def test_the_table_shows_the_preset_and_the_rules_in_force(riichi_table):
    game, users = riichi_table(rules=TENHOU_EAST)
    view = reads.snapshot(game, users[0])["view"]
    assert view["preset"] == "tenhou"
    assert view["rule"] == make_rule(presets.expand(TENHOU_EAST))
    assert view["rule"]["場数"] == 1 and view["rule"]["ダブル役満あり"] is False
    plain, users = riichi_table()
    assert reads.snapshot(plain, users[0])["view"]["preset"] == "majiang"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        ({"preset": "speedy"}, "unknown rule preset 'speedy'; presets: majiang, east, no-red, tenhou, tenhou-east"),
        ({"preset": 1}, "unknown rule preset 1; presets: majiang, east, no-red, tenhou, tenhou-east"),
        ({"preset": "tenhou", "場数": "1"}, "場数: expected one of (0, 1, 2, 3, 4), got '1'"),
        ({"赤ドラ": True}, "unknown rule option '赤ドラ'"),
        ({"クイタンあり": 1}, "クイタンあり: expected true or false, got 1"),
        ({"host_seat": 2}, "rules may not set ['host_seat']"),
    ],
)
def test_bad_rules_are_refused_with_the_engine_s_reason(make_user, rules, reason):
    with pytest.raises(GameError) as refused:
        lobby.create_table(make_user(), "riichi", 4, rules=rules)
    assert (refused.value.code, refused.value.reason) == ("InvalidRules", reason)
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"time_control": {"per_decision": -5}}, "per_decision is a whole number of seconds from 1 to 3600, not -5"),
        ({"time_control": {"per_decision": 5, "bank": 10**9}}, "bank is a whole number of seconds from 0 to 3600"),
        ({"time_control": "5+20"}, "time_control is an object"),
        ({"time_control": {"per_decision": 5}, "time_start": 600}, "give time_control or time_start"),
        ({"time_control": {"per_decision": 5}, "time_increment": 3}, "give time_control or time_start"),
    ],
)
def test_bad_time_controls_are_refused_with_a_reason(make_user, options, reason):
    with pytest.raises(GameError) as refused:
        lobby.create_table(make_user(), "riichi", 4, **options)
    assert refused.value.code == "InvalidTimeControl" and reason in refused.value.reason
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_per_decision_clock_is_not_riichi_only(make_user):
    # The platform knows no game: Acquire gets the same clock, its bank lasting the whole game.
    game = lobby.create_table(make_user(), "acquire", 2, time_control={"per_decision": 30, "bank": 120})
    assert (game.time_per_decision, game.time_bank) == (30, 120)


# --- REST --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_rest_creates_a_table_with_a_preset_and_a_clock(make_user):
    host = make_user()
    response = rest(host).post("/api/games/", {"game_type": "riichi", "mode": 4, "rules": TENHOU_EAST,
                                               "time_control": {"per_decision": 5, "bank": 20}}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["time_control"] == body["setup"]["time_control"] == {"per_decision": 5, "bank": 20}
    assert body["setup"]["rules"] == TENHOU_EAST and body["time_start"] is None
    untimed = rest(host).post("/api/games/", {"game_type": "riichi", "mode": 4, "time_control": None}, format="json")
    assert untimed.status_code == 201 and untimed.json()["time_control"] is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code", "reason"),
    [
        ({"rules": {"preset": "speedy"}}, "InvalidRules", "unknown rule preset 'speedy'"),
        ({"rules": {"preset": "tenhou", "場数": True}}, "InvalidRules", "場数: expected one of"),
        ({"rules": {"no such rule": 1}}, "InvalidRules", "unknown rule option 'no such rule'"),
        ({"time_control": {"per_decision": -1}}, "InvalidTimeControl", "per_decision is a whole number"),
        ({"time_control": {"per_decision": 2**40}}, "InvalidTimeControl", "per_decision is a whole number"),
        ({"time_control": {"per_decision": "5"}}, "InvalidTimeControl", "not '5'"),
        ({"time_control": [5, 20]}, "InvalidTimeControl", "time_control is an object"),
        ({"time_control": {"per_decision": 5}, "time_start": 60}, "InvalidTimeControl", "not both"),
    ],
)
def test_rest_refuses_what_the_websocket_refuses(make_user, body, code, reason):
    response = rest(make_user()).post("/api/games/", {"game_type": "riichi", "mode": 4, **body}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and reason in response.json()["reason"]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_schema_documents_time_control():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    create = schema["components"]["schemas"]["CreateGameRequest"]["properties"]
    assert "time_control" in create and "TimeControl" in schema["components"]["schemas"]


# --- the lobby WebSocket -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_websocket_table_with_preset_and_clock_shows_every_clock_to_everyone(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(4)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "riichi", "mode": 4, "rules": TENHOU_EAST,
                         "time_control": {"per_decision": 5, "bank": 20}})
    created = await conns[0].expect("GameCreated")
    assert created["setup"]["rules"] == TENHOU_EAST
    assert created["setup"]["time_control"] == {"per_decision": 5, "bank": 20}
    game_id = created["game"]
    for conn in conns[1:]:
        await conn.send({"type": "JoinGame", "game": game_id})
        # Its own entering, not the host's (every lobby client hears that one): the join is done.
        me = next(m for m in conn.received if m["type"] == "Greetings")["client"]
        await conn.expect("ClientEnteredGame", game=game_id, client=me)
    for conn in conns:
        await conn.send({"type": "AcceptSetup", "game": game_id})
    for conn in conns:
        push = await conn.expect("GameMessages", game=game_id)
        assert push["view"]["preset"] == "tenhou" and push["view"]["rule"]["場数"] == 1
        assert sorted(c["position"] for c in push["clocks"]) == [0, 1, 2, 3]
        for entry in push["clocks"]:
            assert entry["remaining_ms"] == entry["per_decision_ms"] + entry["bank_ms"]
            assert entry["bank_ms"] == 20_000 and entry["per_decision_ms"] <= 5_000
        assert sum(c["running"] for c in push["clocks"]) == 1


@pytest.mark.django_db(transaction=True)
async def test_websocket_refusals_name_the_problem(clients, db_call, make_user):
    conn = await clients(await db_call(make_user))
    await conn.send({"type": "CreateGame", "game_type": "riichi", "mode": 4, "rules": {"preset": "speedy"}})
    error = await conn.expect("Error")
    assert error["code"] == "InvalidRules" and "presets: majiang, east" in error["reason"]
    await conn.send({"type": "CreateGame", "game_type": "riichi", "mode": 4, "time_control": {"per_decision": 0}})
    error = await conn.expect("Error")
    assert error["code"] == "InvalidTimeControl" and "from 1 to 3600, not 0" in error["reason"]
    assert not await db_call(Game.objects.exists)


# --- the lobby page and playbots ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_create_form_offers_the_presets_and_the_clock(client, make_user):
    client.force_login(make_user())
    html = client.get("/").content.decode()
    assert 'data-testid="create-rules-riichi"' in html and 'data-testid="create-preset"' in html
    for preset in presets.PRESETS.values():
        assert f'value="{preset.name}"' in html
    for testid in ("create-per-decision", "create-bank", "create-overrides"):
        assert f'data-testid="{testid}"' in html
    assert 'id="riichi-presets"' in html  # the labels the set-up cards show


def test_playbots_reads_a_preset_name_or_json():
    assert parse_rules("riichi", "tenhou") == {"preset": "tenhou"}
    assert parse_rules("riichi", '{"preset": "no-red", "場数": 0}') == {"preset": "no-red", "場数": 0}
    with pytest.raises(CommandError, match=r"not JSON or a preset \(majiang, east"):
        parse_rules("riichi", "speedy")
    with pytest.raises(CommandError, match="not JSON: "):
        parse_rules("cribbage", "tenhou")


@pytest.mark.django_db
def test_playbots_plays_a_preset_and_refuses_a_bad_one():
    out = io.StringIO()
    call_command("playbots", "riichi", "--games", "1", "--seed", "3", "--rule",
                 '{"preset": "tenhou", "場数": 0}', stdout=out)
    game = Game.objects.get(game_type="riichi")
    assert game.status == Status.FINISHED and game.rules["preset"] == "tenhou"
    assert state.replay(game).engine.rule == make_rule({**presets.get("tenhou").overrides, "場数": 0})
    with pytest.raises(CommandError, match="--rule: InvalidRules: unknown rule preset 'speedy'"):
        call_command("playbots", "riichi", "--rule", '{"preset": "speedy"}', stdout=io.StringIO())
