"""A server killed mid-game loses nothing, and the next one carries on where it stopped.

A real Daphne child process serves a file SQLite database (migrated into a temporary directory)
with the clock sweeper on. Two ``websockets`` clients play part of a timed Acquire game; one of
them drops, the other moves on, and the process is killed with SIGKILL (no shutdown of any kind).
A new process on the same database then has to:

* give each reconnecting client (``Login`` with ``games: [{game, history_size}]`` and ``rejoin``)
  exactly the history it lacks: its history plus Greetings' messages is a fresh Snapshot's history,
  and the action log in the database is contiguous and holds every move a client saw applied;
* enforce a deadline stored by the dead process that passed before the new one served anyone: a
  second game whose players never move has its clock run out meanwhile, and the new process plays
  that decision at the stored moment, flagged auto, and the rest of the game as the clocks run out;
* let the two clients play the first game to its end.

Only SQLite and the in-memory channel layer are used, so this runs in either CI configuration.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import websockets

from deploy.cluster import free_port
from tests.acquire.service.test_ws_game import Player, drive, settle
from tests.conftest import unbatch

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server


ROOT = Path(__file__).resolve().parents[3]
CLOCK_S = 30  # the game that is played through the restart
SHORT_CLOCK_S = 3  # the game nobody plays: its first deadline passes while no server is serving

# One interpreter start for both (each costs a second or two): migrate the new file, add two users.
SETUP = """
import json
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", interactive=False, verbosity=0)
accounts = {}
for name in ("north", "south"):
    user = User.objects.create_user(username=name, password=None)
    accounts[name] = {"id": user.id, "username": name, "token": token_for(user)}
print(json.dumps(accounts))
"""


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    token: str


class Server:
    """Daphne child processes on one file SQLite database, started and killed by the test."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.db = workdir / "db.sqlite3"
        # Nothing of the environment's database or Redis: this test must not depend on them.
        drop = {"DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "SQLITE_TEST_PATH"}
        self.env = {k: v for k, v in os.environ.items() if k not in drop}
        self.env.update(DATABASE_URL=f"sqlite:///{self.db}", GAME_CLOCK_SWEEPER="1", DEBUG="1",
                        DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1")
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Any] = []
        self.port = 0

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def start(self) -> int:
        self.port = free_port()
        log = open(self.workdir / f"daphne-{len(self.processes)}.log", "w")
        self.logs.append(log)
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert process.poll() is None, f"daphne exited with {process.returncode}: {self.log_tail()}"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self.port
            except OSError:
                time.sleep(0.05)
        raise TimeoutError(f"daphne did not listen on {self.port}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no disconnect handlers; only what was committed remains."""
        process = self.processes[-1]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        assert process.returncode == -signal.SIGKILL

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        for log in self.logs:
            log.close()

    def log_tail(self) -> str:
        logs = sorted(self.workdir.glob("daphne-*.log"))
        return logs[-1].read_text()[-3000:] if logs else ""

    def query(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Read the database file directly, as it is on disk (no Django in this process)."""
        with sqlite3.connect(self.db, timeout=20) as conn:
            return conn.execute(sql, args).fetchall()

    def log_of(self, game_id: int) -> list[tuple[int, int, str, bool, int]]:
        rows = self.query("SELECT seq, seat, type, auto, timestamp_ms FROM games_action WHERE game_id = ? ORDER BY seq",
                          game_id)
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), "the action log is not contiguous"
        return [(seq, seat, kind, bool(auto), stamp) for seq, seat, kind, auto, stamp in rows]

    def game_row(self, game_id: int) -> dict[str, Any]:
        (row,) = self.query("SELECT status, seq, deadline_ms, clock_since_ms FROM games_game WHERE id = ?", game_id)
        return dict(zip(("status", "seq", "deadline_ms", "clock_since_ms"), row))


class SocketClient:
    """A protocol client on a real socket, with the interface of ``tests.conftest.Client`` that
    ``Player`` uses (send, recv, received, close)."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.unread: list[dict[str, Any]] = []

    @classmethod
    async def login(cls, port: int, account: Account, **extra: Any) -> tuple[SocketClient, dict[str, Any]]:
        client = cls(await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", max_size=None))
        await client.send({"type": "Login", "version": 1, "token": account.token, **extra})
        return client, await client.expect("Greetings")

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message (one at a time from a ``LobbyMessages`` frame)."""
        if not self.unread:
            async with asyncio.timeout(timeout):
                self.unread.extend(unbatch(json.loads(await self.ws.recv())))
        message = self.unread.pop(0)
        self.received.append(message)
        return message

    async def expect(self, type_: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        while True:
            frame = await self.recv(timeout)
            if frame["type"] == type_ and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def close(self) -> None:
        await self.ws.close()


async def start_game(port: int, accounts: list[Account], time_start: int) -> tuple[int, list[SocketClient]]:
    """Log everyone in, open a 2-player table with that clock, start it; the clients stay open."""
    logins = [await SocketClient.login(port, account) for account in accounts]
    conns = [conn for conn, _ in logins]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": len(accounts),
                         "time_start": time_start, "time_increment": 0})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for conn, greetings in logins[1:]:
        await conn.send({"type": "JoinGame", "game": game_id})
        # Its own entry, not the host's (every client of the lobby hears that one too): accepting
        # before the join is done would be undone by the join.
        await conn.expect("ClientEnteredGame", game=game_id, client=greetings["client"])
    for conn in conns:
        await conn.send({"type": "AcceptSetup", "game": game_id})
    for conn in conns:
        await conn.expect("GameMessages", game=game_id)
    return game_id, conns


def players_of(game_id: int, conns: list[SocketClient], accounts: list[Account]) -> list[Player]:
    players = []
    for conn, account in zip(conns, accounts):
        player = Player(conn, account, game_id)  # type: ignore[arg-type] - same interface as Client
        for frame in conn.received:
            player.learn(frame)
        players.append(player)
    return players


async def back_again(port: int, player: Player) -> tuple[Player, dict[str, Any]]:
    """``player``'s user connects to the new process saying what it holds; returns the new
    client (its history extended by Greetings) and the Greetings' entry for the game."""
    held = len(player.history)
    conn, greetings = await SocketClient.login(
        port, player.user, games=[{"game": player.game_id, "history_size": held}], rejoin=player.game_id)
    assert greetings["entered_game"] == player.game_id
    (entry,) = [g for g in greetings["games"] if g["game"] == player.game_id]
    assert entry["start"] == held and "mode" not in entry  # a known game: no set-up repeated
    again = Player(conn, player.user, player.game_id, list(player.history))  # type: ignore[arg-type]
    again.position = player.position
    again.learn(greetings)
    snapshot = await again.resync()
    # Nothing lost, nothing doubled: what it held plus what Greetings sent is the whole history.
    assert again.history == snapshot["history"] and again.v == snapshot["v"]
    return again, entry


async def test_sigkill_mid_game_loses_nothing_and_the_next_process_carries_on(tmp_path: Path) -> None:
    server = Server(tmp_path)
    created = json.loads(server.manage("shell", "-c", SETUP).strip().splitlines()[-1])
    accounts = [Account(**created[name]) for name in ("north", "south")]
    try:
        port = server.start()
        game_id, conns = await start_game(port, accounts, CLOCK_S)
        north, south = players_of(game_id, conns, accounts)
        seats = {north.position: north, south.position: south}
        await drive(seats, [north, south], 20, tolerate_races=True)

        # South drops while north is to move; north makes its move(s) until it is south's turn.
        while north.to_act == [south.position]:
            await drive(seats, [north, south], 1, tolerate_races=True)
        assert north.to_act == [north.position], "the game must wait for north now"
        await south.client.close()
        south_held = len(south.history)
        while north.to_act == [north.position]:
            applied = await north.act(tolerate_races=True)
            await settle([north], applied or 0)
        assert north.to_act == [south.position]
        clocks_before = north.clocks[-1]

        # A second game, its clock short, that nobody will ever move in.
        idle_id, idle_conns = await start_game(port, accounts, SHORT_CLOCK_S)

        server.kill()
        killed_at = time.time() * 1000
        log = server.log_of(game_id)
        assert len(log) == north.v and north.applied[-1] == north.v  # every applied move was stored
        idle = server.game_row(idle_id)
        assert idle["status"] == "active" and idle["seq"] == 1, "the short clock ran out before the kill"
        idle_deadline = idle["deadline_ms"]

        # The new process starts at once, but serves nobody (and so sweeps nothing: the sweeper starts
        # with the first connection) until the idle game's deadline has passed.
        port = server.start()
        time.sleep(max(0.0, (idle_deadline - time.time() * 1000) / 1000 + 0.2))
        assert server.game_row(idle_id)["seq"] == 1
        south, entry = await back_again(port, south)
        assert len(entry["messages"]) == len(south.history) - south_held > 0  # exactly what it missed
        north, entry = await back_again(port, north)
        assert entry["messages"] == []  # it missed nothing
        assert north.v == south.v == len(log)
        # South's clock kept running while the server was down.
        snapshot = north.client.received[-1]
        assert snapshot["type"] == "Snapshot" and snapshot["to_act"] == [south.position]
        before = next(c["remaining_ms"] for c in clocks_before if c["position"] == south.position)
        now = next(c["remaining_ms"] for c in snapshot["clocks"] if c["position"] == south.position)
        assert now <= before - (time.time() * 1000 - killed_at) + 1000

        # The restarted process enforced the idle game's stored deadline, at the stored moment.
        waited = time.monotonic()
        while server.game_row(idle_id)["seq"] == 1:
            assert time.monotonic() - waited < 20, f"the new process did not enforce the deadline: {server.log_tail()}"
            await asyncio.sleep(0.1)
        idle_log = server.log_of(idle_id)
        assert idle_log[1][3] and idle_log[1][4] == idle_deadline

        # Both play the first game to its end on the new process.
        seats = {north.position: north, south.position: south}
        await drive(seats, [north, south], 10_000, tolerate_races=True)
        for player in (north, south):
            while not player.over:
                await player.read()
        final = server.log_of(game_id)
        assert final[: len(log)] == log and server.game_row(game_id)["status"] == "finished"
        assert north.v == south.v == len(final) and north.applied and south.applied
        assert len(final) > len(log) + 10
        for player in (north, south):
            snapshot = await player.resync()
            assert len(snapshot["history"]) == len(player.history)

        # Nobody moved in the idle game: the new process played every action after StartGame.
        waited = time.monotonic()
        while server.game_row(idle_id)["status"] != "finished":
            assert time.monotonic() - waited < 30, "the idle game was not played to its end"
            await asyncio.sleep(0.2)
        idle_log = server.log_of(idle_id)
        assert [auto for _, _, _, auto, _ in idle_log] == [False] + [True] * (len(idle_log) - 1)
        for conn in (*idle_conns, north.client, south.client):
            await conn.close()
    finally:
        server.stop_all()
