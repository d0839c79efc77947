"""/ws/majiang/ under generated frames, in a game in progress (the full ASGI app on the test's
loop): replies of every type with data and ``seq`` of every shape, seating frames with fields of
any type, text that is not JSON, binary frames, nesting; now and then the right answer, so the
game moves and every kind of question comes up.

After each frame a probe (an unknown frame type, always refused) marks where its answers end.
Asserted: the consumer never crashes nor reports ``InternalError``; every frame the server sends is
an object with a string ``type``, an error has a code, a reason and ``seq``; a frame answered with
an error changed nothing in the game's log; the link stays open and usable."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from accounts.tokens import token_for
from games.models import Action
from games.service import lifecycle, lobby, moves
from tests.riichi.transport.link import GAME_FRAMES
from tests.riichi.transport.player import FramePlayer

pytestmark = pytest.mark.django_db(transaction=True)

PROBE = {"type": "probe"}
TILES = ["m1", "m0", "p5", "s9", "z7", "z8", "m1_", "m1*", "m1_*", "x1", "", "m", "m12", "m1-23", "z111=", "m1111",
         "s505+5", "m5550+", "m1\u0000", "\ud800"]


def value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value, often one of the protocol's own."""
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(TILES)
    if roll < 0.45:
        return rng.choice([0, 1, -1, 2**31 - 1, 2**31, 2**53, -(2**63), 10**30, 1.5, -0.0, 1e308])
    if roll < 0.55:
        return rng.choice([None, True, False, "", "-", "x" * 5000])
    if roll < 0.7 and depth < 3:
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if roll < 0.8 and depth < 3:
        return {rng.choice(["type", "data", "seq", "game", "rules", "bots", "token", "x"]): value(rng, depth + 1)
                for _ in range(rng.randrange(4))}
    return "".join(rng.choice("mpsz0123456789_*+=-\u00e9\U0001f600 ") for _ in range(rng.randrange(12)))


def frame(rng: random.Random, seq: int | None) -> str | bytes:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(["not json", "{", "[]", "null", '{"type": 1}', '{"type": "dapai", "seq": NaN}',
                           '{"type": "dapai", "data": "m1", "seq": 1e999}'])
    if roll < 0.08:
        return b'{"type": "dapai"}'
    if roll < 0.1:
        return json.dumps({"type": "dapai", "data": "[" * 50 + "]" * 50, "x": json.loads("[" * 30 + "]" * 30)})
    if roll < 0.2:
        kind = rng.choice(["open", "join", "add_bot", "leave", "login", "Dapai", "chi", "say", "players"])
        if kind == "leave":
            kind = "join"  # leaving would end the example's game
        message: dict[str, Any] = {"type": kind}
    else:
        message = {"type": rng.choice(["dapai", "fulou", "gang", "hule", "pingju", "daopai", ""])}
    for key in ("data", "seq", "game", "rules", "bots", "token"):
        if rng.random() < 0.5:
            message[key] = value(rng)
    if seq is not None and rng.random() < 0.5:
        message["seq"] = rng.choice([seq, seq, seq - 1, seq + 1, 0])
    return json.dumps(message, ensure_ascii=rng.random() < 0.5)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_generated_frames_never_break_the_link_and_refused_ones_change_nothing(clients, db_call, make_user,
                                                                                     settings, seed):
    settings.FRAMES_PER_SECOND, settings.FRAME_BURST = 10_000, 10_000
    rng = random.Random(seed)
    user, other = await db_call(make_user), await db_call(make_user)
    game = await db_call(lobby.create_table, other, "riichi", 4)
    for _ in range(2):
        await db_call(lobby.add_bot, other, game.id)
    client = await clients(path="/ws/majiang/")
    await client.connect()
    await client.send({"type": "login", "token": await db_call(token_for, user)})
    await client.expect("welcome")
    await client.send({"type": "join", "game": game.id})
    await client.expect("table")  # seated (a join resets every acceptance, so the other accepts after it)
    await db_call(lobby.accept, other, game.id)  # the link accepts for its user; the game starts
    player = FramePlayer(seed)
    codes: Counter[str] = Counter()
    question: dict[str, Any] | None = None
    answer: dict[str, Any] | None = None

    def log() -> list[tuple]:
        return list(Action.objects.filter(game_id=game.id).order_by("seq").values_list("seq", "seat", "type",
                                                                                         "params"))

    async def answers_to(payload: str | bytes | dict) -> list[dict[str, Any]]:
        """Send ``payload`` and the probe; every frame up to the probe's error."""
        nonlocal question, answer
        if isinstance(payload, bytes):
            await client.comm.send_to(bytes_data=payload)
        else:
            await client.send(payload)
        await client.send(PROBE)
        out = []
        while True:
            raw = await client.comm.receive_from(timeout=10)
            message = json.loads(raw, parse_constant=lambda name: pytest.fail(f"not JSON: {name}"))
            assert isinstance(message, dict) and isinstance(message.get("type"), str), message
            if message["type"] == "error":
                assert message["code"] != "InternalError", (payload, message)
                assert isinstance(message["reason"], str) and message["reason"] and "seq" in message, message
                if message["code"] == "UnknownMessageType" and "'probe'" in message["reason"]:
                    return out
            if message["type"] in GAME_FRAMES:
                reply = player.on_frame(message)
                if reply is not None:
                    question, answer = message, reply
            out.append(message)

    for _ in range(50):  # the game starts
        if player.frames:
            break
        await answers_to(PROBE)
    # The other person is away: the server plays their seat, and only this link's frames move the game.
    await db_call(lifecycle.set_away, game.id, other, True)
    while question is None:
        await answers_to(PROBE)
    for _ in range(70):
        if answer is not None and rng.random() < 0.25:
            payload: str | bytes | dict = answer
            answer = None
        else:
            payload = frame(rng, question["seq"] if question else None)
        # What the server still owes (more than one step of moves for the bots and the away seat;
        # the sweeper, off in tests, would play it) is played first, so ``before`` is the game's.
        await db_call(moves.play_due, game.id)
        before = await db_call(log)
        got = await answers_to(payload)
        codes.update(m["code"] for m in got if m["type"] == "error")
        if any(m["type"] == "error" for m in got):
            assert await db_call(log) == before, (payload, got)
    # The frames reached every layer: the format check, the codec, the seating, the service, the engine.
    assert {"InvalidMessageFormat", "UnknownMessageType", "InvalidData", "InvalidSeq"} <= set(codes), codes
    assert codes.keys() & {"IllegalAction", "UnexpectedReply"} and codes.keys() & {"DuplicateAction",
                                                                                 "StaleAction"}, codes
    assert len(player.replies) > 3  # and the game moved on
    await db_call(lobby.leave, other, game.id)
    await db_call(lobby.leave, user, game.id)
