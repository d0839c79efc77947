"""HAProxy in front of two ``manage.py serve`` processes on one PostgreSQL and one Redis
(deploy/cluster.py, docs/deployment.md): every client goes through the balancer.

- Two bots of one Acquire game on different processes play it to its end.
- The unmodified ``majiang-bot`` (socket.io, which starts with long polling) and the reference UMP
  client (TCP) play a riichi hand with two house bots: every request of the socket.io session
  reached one process.
- A process is killed (SIGKILL) mid-game: its player comes back through the balancer on the other
  process, resumes from what it holds, sends its unanswered move again, and the game ends with
  every move in the log exactly once.
- A process is drained while moves are being made: new connections go to the other one, and the
  moves in flight on it are in the log exactly once.

The processes get a database of their own (created and dropped here) on the machine's PostgreSQL
and a Redis database number of their own, other than tests/scaleout/test_two_daphnes.py's, so this
runs the same whichever configuration the rest of the suite uses, and beside that module.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from deploy.cluster import HAPROXY, ROOT, Cluster, free_port
from tests.scaleout.lobby_seat import Account, Seat

PG_ADMIN_URL = os.environ.get("SCALEOUT_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/test")
# Not test_two_daphnes.py's number (7) nor test_fanout_layer.py's (8, 9): each module empties its
# own. Each xdist worker's site takes a database of its own (10 to 15): twice a seat here received
# a GameStarted of a game with its own game's number and other players, which only a second site
# (its own PostgreSQL database, the same Redis database and channel prefix) can send.
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
REDIS_URL = os.environ.get("SCALEOUT_BALANCER_REDIS_URL", f"redis://127.0.0.1:6379/{10 + _WORKER % 6}")

pytestmark = [pytest.mark.scaleout, pytest.mark.xdist_group("scaleout-balancer")]

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "mj", "uma")
SETUP_USERS = f"""
import json
from accounts.models import User
from accounts.tokens import token_for
users = {{name: User.objects.create_user(username=name, password=None) for name in {NAMES!r}}}
print(json.dumps({{name: {{"id": u.id, "username": name, "token": token_for(u)}} for name, u in users.items()}}))
"""
GAME_SECONDS = 120  # a whole game, however it goes; a stall fails long before pytest's timeout


@dataclass
class Site:
    cluster: Cluster
    accounts: dict[str, Account]
    database_url: str

    @property
    def ws_url(self) -> str:
        return f"ws://{self.cluster.front.host}:{self.cluster.front.http}/ws/bot/"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    if not os.path.exists(HAPROXY):
        pytest.skip("haproxy is not installed (make haproxy)")
    name = f"balancer_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    database_url = f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    client.close()
    # The clock sweeper and the presence heartbeat run, as in production (the suite turns them off
    # for its own process). Each worker serves its own line ports; the balancer's are chosen free.
    cluster = Cluster(2, port=0, cribbage_port=free_port(), ump_port=free_port(), mmj_port=free_port(),
                      worker_port=0, run_dir=tmp_path_factory.mktemp("balancer"), check_interval=0.5,
                      env={"DATABASE_URL": database_url, "REDIS_URL": REDIS_URL, "GAME_CLOCK_SWEEPER": "1",
                           "PRESENCE_HEARTBEAT": "1"})
    try:
        with cluster:
            out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP_USERS], cwd=ROOT, env=cluster.env,
                                 capture_output=True, text=True, check=True, timeout=120).stdout
            accounts = {n: Account(**a) for n, a in json.loads(out.strip().splitlines()[-1]).items()}
            yield Site(cluster, accounts, database_url)
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def cluster(site: Site) -> Iterator[Cluster]:
    """The cluster, every worker up again after the test (a test kills or drains one)."""
    yield site.cluster
    for i, process in enumerate(site.cluster.processes):
        if process is None or process.poll() is not None:
            site.cluster.start_worker(i)


def rest(cluster: Cluster, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A REST call through the balancer (POST unless ``body`` is None and the path is a read)."""
    request = urllib.request.Request(f"{cluster.url}api/{path}", data=json.dumps(body or {}).encode(), method="POST",
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode() or "null")


def actions(database_url: str, game_id: int) -> list[tuple[int, int | None, str, Any, bool]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT seq, seat, type, params, auto FROM games_action WHERE game_id = %s ORDER BY seq",
                            (game_id,)).fetchall()


def game_status(database_url: str, game_id: int) -> str:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT status FROM games_game WHERE id = %s", (game_id,)).fetchone()[0]


async def seats_on_both_processes(site: Site, first: str, second: str) -> tuple[Seat, Seat]:
    """Two logged-in bots, one on each process (the balancer's leastconn gives the second
    connection to the other process; it is checked, and the second tries again if not)."""
    one = Seat(site.ws_url, site.accounts[first], 0)
    two = Seat(site.ws_url, site.accounts[second], 0)
    await one.connect()
    for _ in range(6):
        await two.connect()
        if two.served_by[-1] != one.served_by[-1]:
            return one, two
        await two.close()
    raise AssertionError(f"every connection went to {one.served_by[-1]}")


async def start_acquire(site: Site, host: Seat, guest: Seat) -> int:
    """An Acquire table for the two, opened, joined and accepted over REST through the balancer;
    the seats learn it from their pushes."""
    cluster, token = site.cluster, host.user.token
    game_id = (await asyncio.to_thread(rest, cluster, token, "games/", {"game_type": "acquire", "mode": 2}))["id"]
    await asyncio.to_thread(rest, cluster, guest.user.token, f"games/{game_id}/join/")
    for seat in (host, guest):
        seat.game_id = game_id
        await asyncio.to_thread(rest, cluster, seat.user.token, f"games/{game_id}/accept/")
    return game_id


def check_exactly_once(site: Site, game_id: int, seats: list[Seat]) -> list[tuple[Any, ...]]:
    """The log holds every move of every seat once, and nothing else: contiguous, as long as
    every seat's history says, each row a decision of the seat that made it, each decision a row."""
    log = actions(site.database_url, game_id)
    assert [row[0] for row in log] == list(range(1, len(log) + 1)), "the action log is not contiguous"
    assert game_status(site.database_url, game_id) == "finished"
    # The rows before the first move a client decided are the engine's own start (the host's
    # StartGame), made when the last seat accepted.
    first = min(seq for seat in seats for seq in seat.moves())
    for seat in seats:
        assert seat.v == len(log), (seat.user.username, seat.v, len(log))
        assert seat.pending is None
        # Every move it decided was applied, once: answered, or found applied when sent again.
        assert seat.acknowledged | seat.duplicates == set(seat.decided), seat.user.username
        mine = {seq: (kind, params) for seq, position, kind, params, auto in log
                if position == seat.position and not auto and seq >= first}
        assert mine == {seq: (kind, list(params)) for seq, (kind, params) in seat.moves().items()}
    assert not [row for row in log if row[4]], "the server played a move for a seat"
    return log


async def play_out(*seats: Seat) -> None:
    try:
        await asyncio.wait_for(asyncio.gather(*(seat.play() for seat in seats)), GAME_SECONDS)
    except TimeoutError as error:
        # A stuck game once, under a full suite's load, after a drain (cause not found): say
        # what every seat was waiting for, not only the one that gave up first.
        raise TimeoutError(f"{error}; " + "; ".join(seat.state() for seat in seats)) from error


async def moves_sent(seat: Seat, count: int) -> None:
    """Return right after ``seat`` sends its ``count``-th move (or a later one): it is in flight."""
    async with asyncio.timeout(GAME_SECONDS):
        while True:
            seat.sent.clear()
            await seat.sent.wait()
            if len(seat.decided) >= count:
                return


async def test_players_on_two_processes_play_a_whole_game(site: Site, cluster: Cluster) -> None:
    north, south = await seats_on_both_processes(site, "eve", "fay")
    try:
        game_id = await start_acquire(site, north, south)
        await play_out(north, south)
        log = check_exactly_once(site, game_id, [north, south])
        assert len(log) > 20
        # Nobody was cut off: one connection each, on its own process, the whole game.
        assert len(north.served_by) == len(south.served_by) == 1 and north.served_by != south.served_by
    finally:
        await north.close()
        await south.close()


def test_majiang_bot_and_a_ump_client_play_through_the_balancer(site: Site, cluster: Cluster, tmp_path: Path) -> None:
    from tests.riichi.reference.corpus import ensure_node_modules, npm_missing_reason
    from tests.riichi.transport.sio import start_bot

    reason = npm_missing_reason()
    if reason:
        pytest.skip(reason)
    ensure_node_modules()
    mj, uma = site.accounts["mj"], site.accounts["uma"]
    # One hand (場数 0) with two house bots: the game is short, its seats come through both doors.
    table = {"game_type": "riichi", "mode": 4, "rules": {"preset": "east", "場数": 0}}
    game_id = rest(cluster, mj.token, "games/", table)["id"]
    for _ in range(2):
        rest(cluster, mj.token, f"games/{game_id}/add-bot/")

    def served(backend: str) -> dict[str, int]:
        return {r["svname"]: int(r["stot"]) for r in cluster.stats()
                if r["pxname"] == backend and r["svname"] != "BACKEND"}

    before = {backend: served(backend) for backend in ("majiang", "ump")}
    bot = start_bot(cluster.front.http, game_id, f"mj:{mj.token}", tmp_path / "majiang-bot.log")
    ump = subprocess.Popen([sys.executable, "manage.py", "umpbot", cluster.front.host, str(cluster.front.ump),
                            "--user", uma.username, "--token", uma.token, "--game", str(game_id)],
                           cwd=ROOT, env=cluster.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        bot.wait(GAME_SECONDS)
        ump_output = ump.communicate(timeout=GAME_SECONDS)[0]
    finally:
        for process in (bot, ump):
            if process.poll() is None:
                process.kill()
                process.wait(10)
    bot_output = (tmp_path / "majiang-bot.log").read_text()
    assert bot.returncode == 0 and "ERROR" not in bot_output and "エラー" not in bot_output, bot_output
    assert ump.returncode == 0 and "game over" in ump_output, ump_output
    assert game_status(site.database_url, game_id) == "finished"
    log = actions(site.database_url, game_id)
    assert [row[0] for row in log] == list(range(1, len(log) + 1))
    assert not [row for row in log if row[4]], "the server played a move for a person's seat"
    # majiang-bot's session (the long-polling requests, then its WebSocket) all reached one
    # process, by its MAJIANG cookie; UMP went through the balancer's TCP port.
    majiang = {name: count - before["majiang"][name] for name, count in served("majiang").items()}
    assert sorted(majiang.values())[0] == 0 and sorted(majiang.values())[-1] >= 3, majiang
    assert sum(served("ump").values()) > sum(before["ump"].values())


async def test_a_killed_process_s_player_comes_back_through_the_balancer_and_finishes(
        site: Site, cluster: Cluster) -> None:
    north, south = await seats_on_both_processes(site, "ann", "ben")
    try:
        game_id = await start_acquire(site, north, south)
        playing = asyncio.ensure_future(play_out(north, south))
        victim = cluster.names.index(north.served_by[-1])
        await moves_sent(north, 6)
        cluster.kill(victim)  # right after north sent a move: it may or may not have been applied
        await playing
        log = check_exactly_once(site, game_id, [north, south])
        # North came back on the other process; south, there from the start, never dropped.
        assert len(north.served_by) >= 2 and north.served_by[-1] == south.served_by[0]
        assert len(south.served_by) == 1
        assert len(log) > 20
    finally:
        await north.close()
        await south.close()


async def test_a_drained_process_finishes_its_moves_and_new_connections_go_elsewhere(
        site: Site, cluster: Cluster) -> None:
    north, south = await seats_on_both_processes(site, "cat", "dan")
    try:
        game_id = await start_acquire(site, north, south)
        playing = asyncio.ensure_future(play_out(north, south))
        drained = cluster.names.index(north.served_by[-1])
        other = cluster.names[1 - drained]
        await moves_sent(north, 6)
        # While moves are being made: HAProxy stops giving it connections, then it gets SIGTERM.
        await asyncio.to_thread(cluster.drain, drained, 10)
        assert cluster.processes[drained].returncode == 0  # it stopped, not killed
        assert cluster.status(drained) == "MAINT"
        probe = Seat(site.ws_url, site.accounts["eve"], 0)
        await probe.connect()
        await probe.close()
        assert probe.served_by == [other]
        await playing
        check_exactly_once(site, game_id, [north, south])
        assert len(north.served_by) >= 2 and north.served_by[-1] == other and south.served_by == [other]
        # The drained worker sent the pushes of the moves it finished: nobody had to ask for them.
        assert north.lost_pushes == south.lost_pushes == 0
        # Back in service, it takes new connections again (it has the fewest).
        await asyncio.to_thread(cluster.start_worker, drained)
        again = Seat(site.ws_url, site.accounts["eve"], 0)
        await again.connect()
        await again.close()
        assert again.served_by == [cluster.names[drained]]
    finally:
        await north.close()
        await south.close()


def test_the_generated_configuration_is_valid(site: Site) -> None:
    """HAProxy itself checks the file the cluster runs on."""
    checked = subprocess.run([HAPROXY, "-c", "-f", str(site.cluster.run_dir / "haproxy.cfg")], capture_output=True,
                             text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr
