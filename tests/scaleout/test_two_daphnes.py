"""Scale-out: two Daphne processes sharing one PostgreSQL database and one Redis channel layer.

The processes get a database of their own (created and dropped here) on the machine's
PostgreSQL and a Redis database number of their own, so this test runs the same whichever
configuration the rest of the suite uses.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
import websockets

from tests.conftest import unbatch
from tests.served import free_port

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get("SCALEOUT_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("SCALEOUT_REDIS_URL", "redis://127.0.0.1:6379/7")

# Both modules use Redis database SCALEOUT_REDIS_URL, which test_two_daphnes.py empties: under
# pytest-xdist they run on one worker, one after the other.
pytestmark = [pytest.mark.scaleout, pytest.mark.xdist_group("scaleout-redis")]


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"daphne did not listen on {port}")


SETUP_USERS = """
import json
from accounts.models import User
from accounts.tokens import token_for
tokens = {}
for name in ("north", "south", "east", "west", "up"):
    user = User.objects.create_user(username=name, password="secret-pw")
    tokens[name] = token_for(user)
print(json.dumps(tokens))
"""


@pytest.fixture(scope="module")
def cluster():
    name = f"scaleout_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    # The watches run (Play now's queue among them): this is a server as `make run` serves it.
    env = {**os.environ, "DATABASE_URL": f"{base}/{name}", "REDIS_URL": REDIS_URL, "DEBUG": "1",
           "DJANGO_SETTINGS_MODULE": "config.settings", "GAME_CLOCK_SWEEPER": "1"}
    processes: list[subprocess.Popen] = []
    # Each server's log goes to a file (a pipe nobody reads would stall a server once it filled),
    # and a failing test shows its tail.
    logs = [tempfile.NamedTemporaryFile(prefix=f"{name}-", suffix=".log", delete=False) for _ in range(2)]
    try:
        subprocess.run([sys.executable, "-c", "import redis, sys; redis.Redis.from_url(sys.argv[1]).flushdb()",
                        REDIS_URL], check=True, cwd=ROOT)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], check=True, cwd=ROOT, env=env)
        out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP_USERS], check=True, cwd=ROOT,
                             env=env, capture_output=True, text=True).stdout
        tokens = json.loads(out.strip().splitlines()[-1])
        ports = [free_port(), free_port()]
        for port, log in zip(ports, logs):
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            ))
        for port, process in zip(ports, processes):
            _wait_for_port(port, process)
        yield {"ports": ports, "tokens": tokens, "database_url": env["DATABASE_URL"],
               "logs": [Path(log.name) for log in logs]}
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for log in logs:
            log.close()
            os.unlink(log.name)


def _servers_said(cluster: dict) -> str:
    """The last lines each server logged, for a failing assertion's message."""
    return "\n".join(f"--- server {n}:\n" + "\n".join(path.read_text(errors="replace").splitlines()[-40:])
                     for n, path in enumerate(cluster["logs"], 1))


class Peer:
    def __init__(self, socket_: websockets.ClientConnection) -> None:
        self.ws = socket_
        self.unread: list[dict] = []

    async def next(self) -> dict:
        """The next message (one at a time from a ``LobbyMessages`` frame)."""
        if not self.unread:
            self.unread.extend(unbatch(json.loads(await self.ws.recv())))
        return self.unread.pop(0)

    @classmethod
    async def login(cls, port: int, token: str) -> tuple[Peer, dict]:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/")
        peer = cls(ws)
        await peer.send({"type": "Login", "version": 1, "token": token})
        return peer, await peer.expect("Greetings")

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def expect(self, type_: str, timeout: float = 10, **match) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next()
                if message["type"] == type_ and all(message.get(k) == v for k, v in match.items()):
                    return message

    async def reply(self, types: set[str], timeout: float = 10) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next()
                if message["type"] in types:
                    return message

    async def join_outcome(self, client: int, timeout: float = 10) -> dict:
        """This client's own answer to JoinGame: an Error, or the lobby's ClientEnteredGame naming
        this client (another client's ClientEnteredGame reaches every client of the lobby too, and
        may arrive first)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next()
                if message["type"] == "Error" or (message["type"] == "ClientEnteredGame"
                                                  and message["client"] == client):
                    return message


def _actions(database_url: str, game_id: int) -> list[tuple[int, int, str]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT seq, seat, type FROM games_action WHERE game_id = %s ORDER BY seq", (game_id,)
        ).fetchall()


def _snapshot_move(snapshot: dict) -> tuple[int, str, list] | None:
    """A legal PlayTile for the seat a snapshot belongs to, if it is that seat's turn to play one."""
    for legal in snapshot["legal"]:
        if legal["type"] == "PlayTile" and legal.get("tiles"):
            return snapshot["position"], "PlayTile", [legal["tiles"][0]]
    return None


async def test_two_processes_share_lobby_and_serialise_conflicting_moves(cluster):
    p1, p2 = cluster["ports"]
    tokens = cluster["tokens"]
    north, _ = await Peer.login(p1, tokens["north"])
    south, south_greetings = await Peer.login(p2, tokens["south"])
    east, east_greetings = await Peer.login(p2, tokens["east"])
    try:
        # A table opened on process 1 appears live on process 2.
        await north.send({"type": "CreateGame", "game_type": "acquire", "mode": 2})
        game_id = (await south.expect("GameCreated"))["game"]

        # Two users race for the last seat through different processes: exactly one gets it.
        await asyncio.gather(south.send({"type": "JoinGame", "game": game_id}),
                             east.send({"type": "JoinGame", "game": game_id}))
        results = [await south.join_outcome(south_greetings["client"]),
                   await east.join_outcome(east_greetings["client"])]
        assert sorted(r["type"] for r in results) == ["ClientEnteredGame", "Error"], \
            (results, _servers_said(cluster))
        assert next(r for r in results if r["type"] == "Error")["code"] == "GameFull", \
            (results, _servers_said(cluster))
        seated = south if results[0]["type"] == "ClientEnteredGame" else east
        joined = await north.expect("UserJoinedGame")  # process 1 hears of the join made on process 2

        await north.send({"type": "AcceptSetup", "game": game_id})
        await seated.send({"type": "AcceptSetup", "game": game_id})
        await north.expect("GameStarted")
        await seated.expect("GameStarted")

        # Find who moves first, and give that user a second client on the other process.
        await north.send({"type": "Resync", "game": game_id})
        snapshot = await north.expect("Snapshot")
        mover_name = "north" if snapshot["to_act"] == [snapshot["position"]] else \
            ("south" if seated is south else "east")
        first, first_port = (north, p1) if mover_name == "north" else (seated, p2)
        other_port = p2 if first_port == p1 else p1
        twin, _ = await Peer.login(other_port, tokens[mover_name])
        try:
            await twin.send({"type": "Resync", "game": game_id})
            snapshot = await twin.expect("Snapshot")
            move = _snapshot_move(snapshot)
            assert move is not None
            _, action, params = move
            v = snapshot["v"]
            frame = {"type": "DoGameAction", "game": game_id, "action": action, "params": params, "v": v}
            await asyncio.gather(first.send(frame), twin.send(frame))
            replies = [await first.reply({"ActionApplied", "Error"}), await twin.reply({"ActionApplied", "Error"})]
            assert sorted(r["type"] for r in replies) == ["ActionApplied", "Error"]
            assert next(r for r in replies if r["type"] == "Error")["code"] in {"DuplicateAction", "NotYourTurn"}
            # The other player, on whichever process, sees the move live.
            watcher = seated if first is north else north
            pushed = await watcher.expect("GameMessages", game=game_id, v=v + 1)
            assert any(m["type"] == "PlayedTile" for m in pushed["messages"])
        finally:
            await twin.ws.close()
        actions = await asyncio.to_thread(_actions, cluster["database_url"], game_id)
        assert [seq for seq, _, _ in actions] == list(range(1, len(actions) + 1))
        assert [t for _, _, t in actions].count("PlayTile") == 1
        assert joined["user"] != 0
    finally:
        for peer in (north, south, east):
            await peer.ws.close()


async def test_play_now_matches_across_processes(cluster):
    """docs/play-now.md: the queue is the database's, so a place taken on one process is matched
    by a request, or by the watch, of the other; each player hears of the table on their own."""
    p1, p2 = cluster["ports"]
    tokens = cluster["tokens"]
    west, _ = await Peer.login(p1, tokens["west"])
    up, _ = await Peer.login(p2, tokens["up"])
    try:
        pair = {"type": "PlayNow", "game_type": "cribbage", "players": 2, "bots_after": None}
        await west.send(pair)
        await west.expect("PlayNowWaiting")
        await up.send(pair)  # on the other process: its request finds west's place and seats both
        seated = await up.expect("PlayNowSeated")
        assert (await west.expect("PlayNowSeated"))["game"] == seated["game"] and seated["bots"] == 0

        # Riichi with bots after 2 s: nobody's request seats them; a watch does, on either process.
        riichi = {"type": "PlayNow", "game_type": "riichi", "length": "east", "bots_after": 2}
        await west.send(riichi)
        await west.expect("PlayNowWaiting")
        await up.send(riichi)
        assert (await up.expect("PlayNowWaiting"))["others"] == 1
        table = await west.expect("PlayNowSeated", timeout=15)
        assert (await up.expect("PlayNowSeated", timeout=15))["game"] == table["game"] and table["bots"] == 2
        users = await asyncio.to_thread(_seated_users, cluster["database_url"], table["game"])
        # Play now's default bot level (docs/play-now.md).
        assert sorted(users) == [("house-intermediate-1", True), ("house-intermediate-2", True), ("up", False),
                                 ("west", False)]
    finally:
        for peer in (west, up):
            await peer.ws.close()


def _seated_users(database_url: str, game_id: int) -> list[tuple[str, bool]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT u.username, u.is_bot FROM games_seat s JOIN accounts_user u ON u.id = s.user_id "
            "WHERE s.game_id = %s", (game_id,)).fetchall()
