"""mjai over TCP (docs/protocols/mjai.md) against the server `make run` starts (``manage.py
serve``: real sockets, a SQLite file): four clients that speak gimite's mjsonp, each answering
every event, play a whole east-only game at one table. Every event a seat is sent hides what it
may not see, and the events are the game's own mjai export but for the hidden tiles; the log-in
and bad lines get the documented answers and change nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from games.riichi.records.exports.mjai import to_mjai
from tests.riichi.protocols.test_mjai_seat import export_differences, masked
from tests.riichi.transport.link import api
from tests.riichi.transport.mmj_peer import post
from tests.served import SiteSpec

pytestmark = pytest.mark.own_server

NAMES = ("ann", "ben", "cat", "dan", "eve")
SETUP = f"""
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
print(json.dumps({{name: token_for(User.objects.create_user(username=name, password=None)) for name in {NAMES!r}}}))
"""
# The clocks run (GAME_CLOCK_SWEEPER), as under `make run`: the silent bot's seat is played at its time-out.
SITE = SiteSpec(SETUP, name="mjai", mjai=True, env={"GAME_CLOCK_SWEEPER": "1"})


class Peer:
    """An mjsonp client: one JSON object a line each way."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def connect(cls, port: int) -> Peer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def line(self, timeout: float = 30) -> dict[str, Any] | None:
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        if not raw:
            return None
        event = json.loads(raw)
        self.received.append(event)
        return event

    async def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        self.writer.write(text.encode() + b"\n")
        await self.writer.drain()

    async def join(self, name: str, token: str, game: int | None = None) -> None:
        assert await self.line() == {"type": "hello", "protocol": "mjsonp", "protocol_version": 3}
        await self.send({"type": "join", "name": name, "room": f"{name}:{token}" + (f"@{game}" if game else "")})

    async def play(self, me: int | None = None) -> list[dict[str, Any]]:
        """Discard every tile as drawn, answer everything else with none, until the server closes
        (``me``: the seat, when its start_game was read already)."""
        while (event := await self.line()) is not None:
            if event["type"] == "error":
                raise AssertionError(f"refused: {event}")
            if event["type"] == "start_game":
                me = event["id"]
            if event["type"] == "tsumo" and event["actor"] == me:
                await self.send({"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True})
            else:
                await self.send({"type": "none"})
        return [e for e in self.received if e["type"] not in ("hello", "error")]

    def close(self) -> None:
        self.writer.close()


async def whole_game(port: int, tokens: dict[str, str]) -> list[list[dict[str, Any]]]:
    peers = []
    for name in NAMES[:4]:
        peer = await Peer.connect(port)
        await peer.join(name, tokens[name])
        peers.append(peer)
        await asyncio.sleep(0.2)  # the first opens the table, the others take its free seats in turn
    try:
        return await asyncio.wait_for(asyncio.gather(*(p.play() for p in peers)), 300)
    finally:
        for peer in peers:
            peer.close()


def test_four_mjai_clients_play_a_whole_game(site):
    tokens = site.setup
    seats = asyncio.run(whole_game(site.served.mjai_port, tokens))
    ids = [events[0]["id"] for events in seats]
    assert sorted(ids) == [0, 1, 2, 3] and all(events[-1]["type"] == "end_game" for events in seats)
    games = api(site.port, tokens["ann"], "games/?game_type=riichi")["results"]
    game = games[0]
    assert game["status"] == "finished"
    paifu = api(site.port, tokens["ann"], f"games/{game['id']}/paifu/")
    export = to_mjai(paifu)  # as GET .../paifu/?format=mjai makes it
    for me, events in zip(ids, seats, strict=True):
        check_hidden(events, me)
        # What the seat was sent is the game's mjai export but for what it may not see.
        seat_export = [dict(e, pai="?") if e["type"] == "tsumo" and e["actor"] != me else
                       dict(e, tehais=[h if i == me else ["?"] * 13 for i, h in enumerate(e["tehais"])])
                       if e["type"] == "start_kyoku" else e for e in export]
        export_differences(events, seat_export)
    # Every seat saw the same game, but its own tiles.
    reference = masked(seats[0], ids[0])
    assert all(masked(events, me) == reference for me, events in zip(ids, seats, strict=True))


def check_hidden(events: list[dict[str, Any]], me: int) -> None:
    for e in events:
        if e["type"] == "tsumo" and e["actor"] != me:
            assert e["pai"] == "?", e
        if e["type"] == "start_kyoku":
            assert all(h == ["?"] * 13 for i, h in enumerate(e["tehais"]) if i != me), e
            assert "?" not in e["tehais"][me]
        assert not {"pipais", "wanpais", "haiyama"} & e.keys(), e


def code_of(event: dict[str, Any] | None) -> str:
    assert event is not None and event["type"] == "error", event
    return event["message"].split(":", 1)[0]


async def refused_before_log_in(port: int, tokens: dict[str, str]) -> None:
    token = tokens["eve"]
    for line, code in (("garbage", "Malformed"), ('{"type":"none"}', "NotLoggedIn"),
                       ('[1, 2]', "Malformed"),
                       (json.dumps({"type": "join", "room": f"eve:{token}"}), "BadName"),
                       (json.dumps({"type": "join", "name": "eve", "room": "eve"}), "BadRoom"),
                       (json.dumps({"type": "join", "name": "eve", "room": f"eve:{token}@x"}), "BadRoom"),
                       (json.dumps({"type": "join", "name": "eve", "room": f"eve:{token}+9"}), "BadRoom"),
                       (json.dumps({"type": "join", "name": "eve", "room": f"eve:{token}+3+nonsense"}), "BadRoom"),
                       (json.dumps({"type": "join", "name": "eve", "room": "eve:" + "0" * 64}), "InvalidToken"),
                       (json.dumps({"type": "join", "name": "eve", "room": f"eve:{token}@999999"}), "UnknownGame")):
        peer = await Peer.connect(port)
        await peer.line()
        await peer.send(line)
        assert code_of(await peer.line()) == code, line
        assert await peer.line() is None  # closed
        peer.close()
    # Seated at a table still waiting for players: a line when no event waits for an answer.
    peer = await Peer.connect(port)
    await peer.line()
    await peer.send({"type": "join", "name": "eve", "room": f"eve:{token}+0"})
    await asyncio.sleep(0.3)
    await peer.send({"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False})
    assert code_of(await peer.line()) == "Unexpected"
    peer.close()
    for raw in (b'{"type":"join"\x00}\n', b"x" * 5000):  # a NUL; a line over the limit with no end
        peer = await Peer.connect(port)
        await peer.line()
        peer.writer.write(raw)
        assert code_of(await peer.line()) == "Breach"
        assert await peer.line() is None
        peer.close()


async def refused_at_a_table(port: int, tokens: dict[str, str], database) -> None:
    """At the first question of its own draw: each bad answer gets an error and the question again;
    the game does not move. A flood is cut off past the link's allowance. Then it plays on."""
    peer = await Peer.connect(port)
    await peer.line()
    await peer.send({"type": "join", "name": "eve", "room": f"eve:{tokens['eve']}+3+tenhou-east"})
    me, hand = None, []
    first = await peer.line()
    assert first["type"] == "start_game"
    await peer.send("not json")  # a bad answer to an event that asks nothing is its answer
    assert code_of(await peer.line()) == "Malformed"
    me = first["id"]
    while True:
        event = await peer.line()
        if event["type"] == "start_kyoku":
            hand = list(event["tehais"][me])
        if event["type"] == "tsumo" and event["actor"] == me:
            break
        await peer.send({"type": "none"})
    asked = event
    game_id = database.rows("SELECT id FROM games_game WHERE status = 'active'")[-1][0]
    before = database.game(game_id)
    held = set(hand) | {asked["pai"]}
    absent = next(t for t in ("E", "S", "W", "N", "P", "F", "C", "1m", "9p") if t not in held)
    for line, code in (("abc", "Malformed"), ('{"type": 5}', "Malformed"), ('{"type":"none"} trailing', "Malformed"),
                       ('{"x": NaN, "type": "none"}', "Malformed"),
                       (json.dumps({"type": "frobnicate"}), "Refused"), (json.dumps({"type": "none"}), "Refused"),
                       (json.dumps({"type": "dahai", "actor": me, "pai": absent, "tsumogiri": False}), "Refused"),
                       (json.dumps({"type": "dahai", "actor": (me + 1) % 4, "pai": asked["pai"], "tsumogiri": True}),
                        "Refused"),
                       (json.dumps({"type": "chi", "actor": me, "target": (me + 3) % 4, "pai": "3m",
                                    "consumed": ["1m", "2m"]}), "Refused"),
                       (json.dumps({"type": "hora", "actor": me, "target": me, "pai": asked["pai"]}), "Refused"),
                       (json.dumps({"type": "join", "name": "eve", "room": "x"}), "Refused")):
        await peer.send(line)
        error = await peer.line()
        assert error["type"] == "error" and (code == "Refused" or code_of(error) == code), (line, error)
        assert await peer.line() == asked, line  # the question again
        assert database.game(game_id) == before, line
    # A flood: every line gets its error (and the question again) until the allowance is spent.
    for _ in range(300):
        peer.writer.write(b"abc\n")
    await peer.writer.drain()
    codes: set[str] = set()
    for _ in range(300):
        error = await peer.line()
        codes.add(code_of(error))
        assert await peer.line() == asked
    assert codes == {"Malformed", "RateLimited"}, codes
    assert database.game(game_id) == before
    peer.close()


def test_bad_lines_get_an_error_and_change_nothing(site):
    asyncio.run(refused_before_log_in(site.served.mjai_port, site.setup))
    asyncio.run(refused_at_a_table(site.served.mjai_port, site.setup, site.database))


async def silent(port: int, http_port: int, token: str, database) -> None:
    """A bot that says nothing at its draw: the clock plays for it (a timed table, 1 s a decision);
    its late answer to the question gone is passed over, and it plays on in step to the end."""
    game_id = post(http_port, token, "games/", {"game_type": "riichi", "mode": 4, "rules": {"preset": "tenhou-east"},
                                                "time_control": {"per_decision": 1, "bank": 0}})["id"]
    for _ in range(3):
        post(http_port, token, f"games/{game_id}/add-bot/", {})
    peer = await Peer.connect(port)
    await peer.join("dan", token, game_id)
    me = None
    while True:
        event = await peer.line()
        if event["type"] == "start_game":
            me = event["id"]
        if event["type"] == "tsumo" and event["actor"] == me:
            break
        await peer.send({"type": "none"})
    before = database.game(game_id)[0]
    deadline = asyncio.get_running_loop().time() + 15
    while database.game(game_id)[0] == before:  # the server played the discard for the seat
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.1)
    auto = [a for a in database.actions(game_id) if a[1] is not None and a[4]]
    assert auto, database.actions(game_id)[-3:]
    # The late answer (a discard that is no longer the seat's to make): passed over, no error.
    await peer.send({"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True})
    events = await peer.play(me)
    assert not [e for e in peer.received if e["type"] == "error"]
    assert events[-1]["type"] == "end_game" and database.game(game_id)[1] == "finished"
    peer.close()


def test_a_silent_bot_is_played_for_and_stays_in_step(site):
    asyncio.run(silent(site.served.mjai_port, site.port, site.setup["dan"], site.database))


async def back_again(port: int, tokens: dict[str, str], database) -> None:
    """Four clients at an untimed table; the others hold their answers (the game waits for them)
    while one goes away mid-hand and joins again: it is sent start_game and the hand under way
    from its start_kyoku, the events it saw the first time first, and all four play to the end.
    Its answers to the replayed draws, which ask nothing now, are passed over."""
    players = ("cat", "ann", "ben", "dan")
    first = await Peer.connect(port)
    await first.line()
    await first.send({"type": "join", "name": "cat", "room": f"cat:{tokens['cat']}+0+tenhou-east"})
    await asyncio.sleep(0.5)
    game_id = database.rows("SELECT id FROM games_game WHERE status = 'setup'")[-1][0]
    others = []
    for name in players[1:]:
        peer = await Peer.connect(port)
        await peer.join(name, tokens[name], game_id)
        others.append(peer)
    hold = asyncio.Event()
    hold.set()

    async def play(peer: Peer) -> list[dict[str, Any]]:
        me = None
        while (event := await peer.line()) is not None:
            await hold.wait()
            assert event["type"] != "error", event
            me = event["id"] if event["type"] == "start_game" else me
            mine = event["type"] == "tsumo" and event["actor"] == me
            await peer.send({"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True} if mine
                            else {"type": "none"})
        return peer.received

    tasks = [asyncio.create_task(play(p)) for p in others]
    me, draws = None, 0
    while True:
        event = await first.line()
        me = event["id"] if event["type"] == "start_game" else me
        if event["type"] == "tsumo" and event["actor"] == me:
            draws += 1
            if draws == 3:
                break  # gone with its question open
            await first.send({"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True})
        else:
            await first.send({"type": "none"})
    hold.clear()  # the others stop answering: the game waits for them
    seen = [e for e in first.received if e["type"] != "hello"]
    hand = seen[max(i for i, e in enumerate(seen) if e["type"] == "start_kyoku"):]
    first.close()
    await asyncio.sleep(0.5)
    again = await Peer.connect(port)
    await again.join("cat", tokens["cat"])  # no table named: its game in progress
    start = await again.line()
    assert start["type"] == "start_game" and start["id"] == me
    await again.send({"type": "none"})
    replayed = []
    for _ in hand:
        replayed.append(await again.line())
        await again.send({"type": "none"} if replayed[-1]["type"] != "tsumo" or replayed[-1]["actor"] != me else
                         {"type": "dahai", "actor": me, "pai": replayed[-1]["pai"], "tsumogiri": True})
    assert replayed[:len(hand) - 1] == hand[:-1]  # the same hand, event for event
    assert replayed[-1]["type"] == "tsumo" and replayed[-1]["actor"] == me  # the draw it left (played for it)
    hold.set()
    events = await asyncio.wait_for(again.play(me), 120)
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert events[-1]["type"] == "end_game" and database.game(game_id)[1] == "finished"
    assert not [e for e in again.received if e["type"] == "error"]
    again.close()
    for peer in others:
        peer.close()


def test_a_client_that_comes_back_gets_the_hand_under_way(site):
    asyncio.run(back_again(site.served.mjai_port, site.setup, site.database))
