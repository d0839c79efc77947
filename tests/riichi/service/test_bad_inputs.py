"""Bad input at a riichi table, over the real lobby WebSocket: malformed and illegal decisions,
bad rule overrides and bad time controls. Each is answered with its documented code (and a reason
that says what was wrong) and changes nothing: the game's seq, history and log stay as they were,
or no table is created. The table is dealt from stacked walls (conftest.py's ``HANDS``), so
who may call or win is known."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Action, Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def world() -> dict[str, Any]:
    """Everything a refused request must leave alone."""
    return {
        "games": list(Game.objects.order_by("id").values_list(
            "id", "status", "seq", "history_size", "deadline_ms", "clock_since_ms", "rules")),
        "seats": list(Seat.objects.order_by("id").values_list("game_id", "position", "clock_ms", "bank_ms")),
        "log": list(Action.objects.order_by("game_id", "seq").values_list(
            "game_id", "seq", "seat", "type", "params", "auto")),
    }


class Table:
    """Four players on the lobby WebSocket at one riichi table, by position."""

    def __init__(self, conns: dict[int, Any], game: int, db_call: Any) -> None:
        self.conns = conns
        self.game = game
        self.db_call = db_call
        self.v = 0

    async def move(self, position: int, action: str, params: list[Any], **extra: Any) -> None:
        conn = self.conns[position]
        await conn.send({"type": "DoGameAction", "game": self.game, "action": action, "params": params,
                         "v": self.v, **extra})
        applied = await conn.expect("ActionApplied")
        self.v = applied["v"]

    async def refused(self, position: int, frame: dict[str, Any], code: str, reason: str | None = None) -> None:
        before = await self.db_call(world)
        conn = self.conns[position]
        await conn.send({"type": "DoGameAction", "game": self.game, "v": self.v, **frame, "ref": "bad"})
        error = await conn.expect("Error", ref="bad")
        assert error["code"] == code, (frame, error)
        assert error["reason"]
        if reason is not None:
            assert reason in error["reason"], (frame, error)
        assert await self.db_call(world) == before, frame

    async def legal(self, position: int) -> list[dict[str, Any]]:
        conn = self.conns[position]
        await conn.send({"type": "Resync", "game": self.game, "from": 0})
        return (await conn.expect("Snapshot", game=self.game))["legal"]


@pytest.fixture
async def table(scripted, clients, db_call, make_user) -> Table:
    users = [await db_call(make_user) for _ in range(4)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "riichi", "mode": 4})
    game = (await conns[0].expect("GameCreated"))["game"]
    for conn in conns[1:]:
        await conn.send({"type": "JoinGame", "game": game})
        me = next(m for m in conn.received if m["type"] == "Greetings")["client"]
        await conn.expect("ClientEnteredGame", game=game, client=me)
    for conn in conns:
        await conn.send({"type": "AcceptSetup", "game": game})
    started = await conns[0].expect("GameStarted", game=game)
    by_user = {c: u for c, u in zip(conns, users, strict=True)}
    by_position = {p["position"]: next(c for c in conns if by_user[c].id == p["user"]) for p in started["players"]}
    for conn in conns:
        await conn.expect("GameMessages", game=game)
    result = Table(by_position, game, db_call)
    result.v = await db_call(lambda: Game.objects.get(id=game).seq)  # the host's kaiju: 1
    return result


async def test_malformed_and_illegal_decisions_change_nothing(table):
    # Position 0 deals and has drawn m2: the game waits for it alone.
    await table.refused(1, {"action": "dapai", "params": ["m3"]}, "NotYourTurn")
    await table.refused(0, {"action": "fly", "params": []}, "IllegalAction", "unknown action 'fly'")
    await table.refused(0, {"action": 5, "params": []}, "InvalidMessage")
    await table.refused(0, {"action": "dapai", "params": "m2_"}, "InvalidMessage", "'params' must be a list")
    for params in ([5], ["m2_", "m6"], [["m2_"]], [{"p": "m2_"}], [], ["M2_"], ["m2_ "]):
        await table.refused(0, {"action": "dapai", "params": params}, "IllegalAction", "is not legal now")
    await table.refused(0, {"action": "dapai", "params": ["z7"]}, "IllegalAction", "dapai ['z7'] is not legal now")
    await table.refused(0, {"action": "dapai", "params": ["m6*"]}, "IllegalAction")  # no riichi from there
    await table.refused(0, {"action": "hule", "params": []}, "IllegalAction", "hule [] is not legal now")
    await table.refused(0, {"action": "kaiju", "params": []}, "IllegalAction")
    await table.refused(0, {"action": "pass", "params": [1]}, "IllegalAction", "pass takes no params")
    await table.refused(0, {"action": "dapai", "params": ["m2_"], "v": table.v + 5}, "StaleAction")
    await table.refused(0, {"action": "dapai", "params": ["m2_"], "seat": 1}, "NotYourSeat")
    await table.refused(0, {"action": "dapai", "params": ["m2_"], "game": 987654}, "UnknownGame")
    asked = table.v
    await table.move(0, "dapai", ["m2_"])
    # The same reply again (a double click, a retry): refused, applied once.
    await table.refused(0, {"action": "dapai", "params": ["m2_"], "v": asked}, "DuplicateAction")
    await table.refused(0, {"action": "dapai", "params": ["m6"]}, "NotYourTurn")

    # Seats 1-3 answer the discard. Seat 2's hand is complete with m2 but has no yaku.
    assert {"type": "hule", "params": [], "allowed": False, "reason": "no yaku"} in await table.legal(2)
    await table.refused(2, {"action": "hule", "params": []}, "IllegalAction", "hule [] is not legal now")
    await table.refused(1, {"action": "fulou", "params": ["m1-23"]}, "IllegalAction")  # not in its hand
    await table.refused(2, {"action": "fulou", "params": ["m2-34"]}, "IllegalAction")  # chi is for the next seat
    asked = table.v
    await table.move(3, "pass", [])
    await table.refused(3, {"action": "pass", "params": [], "v": asked}, "DuplicateAction")
    await table.refused(3, {"action": "hule", "params": [], "v": asked}, "DuplicateAction")
    await table.move(2, "pass", [])
    await table.move(1, "fulou", ["m2-34"])

    # Seat 1 called m2 with m34: m5 would complete the same run (kuikae), and riichi needs a closed hand.
    await table.refused(1, {"action": "dapai", "params": ["m5"]}, "IllegalAction", "dapai ['m5'] is not legal now")
    await table.refused(1, {"action": "dapai", "params": ["m2"]}, "IllegalAction")
    await table.refused(1, {"action": "dapai", "params": ["p2*"]}, "IllegalAction")
    await table.move(1, "dapai", ["p2"])


@pytest.mark.parametrize(
    ("create", "code", "reason"),
    [
        # Rule overrides: unknown key, wrong type, bad value, bad preset, a key the platform keeps.
        ({"rules": {"赤ドラ": 1}}, "InvalidRules", "unknown rule option '赤ドラ'"),
        ({"rules": {"クイタンあり": "yes"}}, "InvalidRules", "クイタンあり: expected true or false, got 'yes'"),
        ({"rules": {"赤牌": {"m": 5, "p": 1, "s": 1}}}, "InvalidRules", "赤牌: m must be 0..4, got 5"),
        ({"rules": {"順位点": ["20", "10"]}}, "InvalidRules", "順位点: expected 4 numbers"),
        ({"rules": {"preset": "speedy"}}, "InvalidRules", "unknown rule preset 'speedy'; presets: majiang"),
        ({"rules": {"preset": ["tenhou"]}}, "InvalidRules", "unknown rule preset ['tenhou']"),
        ({"rules": {"preset": "tenhou", "場数": 7}}, "InvalidRules", "場数: expected one of (0, 1, 2, 3, 4), got 7"),
        ({"rules": {"tile_bag": [1, 2]}}, "InvalidRules", "rules may not set ['tile_bag']"),
        ({"rules": "tenhou"}, "InvalidMessage", "'rules' must be an object"),
        # Time controls: negative, huge, wrong type, a shape of neither kind, both kinds at once.
        ({"time_control": {"per_decision": -5, "bank": 20}}, "InvalidTimeControl", "from 1 to 3600, not -5"),
        ({"time_control": {"per_decision": 5, "bank": -20}}, "InvalidTimeControl", "from 0 to 3600, not -20"),
        ({"time_control": {"per_decision": 10**15}}, "InvalidTimeControl", "not 1000000000000000"),
        ({"time_control": {"per_decision": 5, "bank": 86400}}, "InvalidTimeControl", "not 86400"),
        ({"time_control": {"per_decision": "5", "bank": 20}}, "InvalidTimeControl", "not '5'"),
        ({"time_control": {"per_decision": 5.5}}, "InvalidTimeControl", "not 5.5"),
        ({"time_control": {"per_decision": True}}, "InvalidTimeControl", "not True"),
        ({"time_control": {"limit": 5, "allowed": 20}}, "InvalidTimeControl", "time_control has no 'allowed', 'limit'"),
        ({"time_control": [5, 20]}, "InvalidTimeControl", "time_control is an object"),
        ({"time_control": {"per_decision": 5}, "time_start": 300}, "InvalidTimeControl", "not both"),
        ({"time_start": -5}, "InvalidTimeControl", "time_start is 1 to 86400 seconds"),
        ({"time_start": 10**6}, "InvalidTimeControl", "time_start is 1 to 86400 seconds"),
        ({"time_start": 2**40}, "InvalidMessage", "'time_start' must be between"),
        ({"time_start": "600"}, "InvalidMessage", "'time_start' must be an integer"),
        ({"time_increment": -1, "time_start": 60}, "InvalidTimeControl", "time_increment is 0 to 86400 seconds"),
    ],
)
async def test_bad_tables_are_refused_and_none_is_created(clients, db_call, make_user, create, code, reason):
    conn = await clients(await db_call(make_user))
    before = await db_call(world)
    await conn.send({"type": "CreateGame", "game_type": "riichi", "mode": 4, **create, "ref": 1})
    error = await conn.expect("Error", ref=1)
    assert (error["code"], reason in error["reason"]) == (code, True), error
    assert await db_call(world) == before
    # The connection is still usable.
    await conn.send({"type": "CreateGame", "game_type": "riichi", "mode": 4, "rules": {"preset": "tenhou"}})
    assert (await conn.expect("GameCreated"))["setup"]["rules"] == {"preset": "tenhou"}
