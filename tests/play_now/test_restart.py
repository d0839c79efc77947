"""Play now against the server `make run` starts (``manage.py serve``, real sockets, a SQLite file):
a place in the queue outlives a restart of the server, the reconnecting page hears it is still
waiting, and a player who goes away for good is taken out (docs/play-now.md)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest
import websockets

from tests.conftest import unbatch
from tests.riichi.transport.link import Database
from tests.served import serve

pytestmark = pytest.mark.own_server

SETUP = """
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
print(json.dumps({name: token_for(User.objects.create_user(username=name, password=None)) for name in ("ann", "ben")}))
"""
# The queue's watch runs, as under `make run`; a short grace so the test sees a place lapse.
ENV = {"GAME_CLOCK_SWEEPER": "1", "PLAY_NOW_GRACE_SECONDS": "2"}
PAIR = {"game_type": "cribbage", "players": 2, "bots_after": None}


class Peer:
    def __init__(self, ws) -> None:
        self.ws, self.unread = ws, []

    @classmethod
    async def login(cls, port: int, token: str) -> tuple[Peer, dict]:
        peer = cls(await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/"))
        await peer.ws.send(json.dumps({"type": "Login", "version": 1, "token": token}))
        return peer, await peer.expect("Greetings")

    async def expect(self, type_: str, timeout: float = 10) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                if not self.unread:
                    self.unread.extend(unbatch(json.loads(await self.ws.recv())))
                message = self.unread.pop(0)
                if message["type"] == type_:
                    return message


def rest(port: int, token: str, method: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/play-now/", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def places(database: Database) -> list[tuple]:
    return database.rows("SELECT user_id, game_id FROM games_queueentry ORDER BY id")


def test_a_place_outlives_a_restart_and_lapses_when_its_player_is_gone(tmp_path):
    database = Database(tmp_path / "db.sqlite3")
    with serve(tmp_path, SETUP, cribbage=False, quiet=True, env=ENV) as first:
        tokens = json.loads(first.setup_output.strip().splitlines()[-1])

        async def before() -> None:
            # Over REST: the poll's hold (a minute) outlasts any restart, however slow the machine;
            # a WebSocket's place outlasts one of up to the grace (15 s by default, 2 s here).
            assert (await asyncio.to_thread(rest, first.http_port, tokens["ann"], "POST", PAIR))["status"] == "waiting"
            ann, greetings = await Peer.login(first.http_port, tokens["ann"])
            assert greetings["play_now"]["status"] == "waiting"
            await ann.ws.close()

        asyncio.run(before())
        first.process.terminate()  # stopped as an operator restarts it
        first.process.wait(10)
    assert len(places(database)) == 1
    with serve(tmp_path, "import django", cribbage=False, quiet=True, env=ENV, again=first) as second:

        async def after() -> None:
            # The page reconnects to the restarted server: still waiting, and matched from there.
            ann, greetings = await Peer.login(second.http_port, tokens["ann"])
            assert greetings["play_now"]["status"] == "waiting", greetings.get("play_now")
            seated = await asyncio.to_thread(rest, second.http_port, tokens["ben"], "POST", PAIR)
            assert seated["status"] == "seated"
            assert (await ann.expect("PlayNowSeated"))["game"] == seated["game"]
            # Waiting again, then gone for good (the tab closed): out of the queue after the grace.
            await ann.ws.send(json.dumps({"type": "PlayNow", **PAIR}))
            await ann.expect("PlayNowWaiting")
            await ann.ws.close()

        asyncio.run(after())
        assert any(game is None for _, game in places(database))
        deadline = time.monotonic() + 20
        while any(game is None for _, game in places(database)):
            assert time.monotonic() < deadline, places(database)
            time.sleep(0.2)
