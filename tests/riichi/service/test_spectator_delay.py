"""A table's spectator delay (docs/riichi-table.md, "Spectators"): spectators see the game
``spectator_delay`` seconds late, in every way they can look at it (pushes, Snapshots, history,
replay steps), so nobody watching can coach a player; the players see it live; bad delays are
refused and create nothing."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from games.core.errors import GameError
from games.models import Game
from games.service import lobby, reads, window
from games.service import moves as write_path
from games.state import replay as state
from tests.served import serve

pytestmark = pytest.mark.django_db(transaction=True)

DELAY = 10


@pytest.mark.parametrize("bad", [-1, lobby.MAX_SPECTATOR_DELAY + 1, "5", 2.0, True, [1]])
def test_a_bad_delay_is_refused_and_creates_nothing(make_user, bad):
    host = make_user()
    with pytest.raises(GameError) as refused:
        lobby.create_table(host, "riichi", 4, spectator_delay=bad)
    assert refused.value.code == "InvalidSpectatorDelay"
    assert not Game.objects.exists()


def test_the_rest_api_takes_and_shows_the_delay(make_user, client):
    host = make_user()
    client.force_login(host)
    created = client.post("/api/games/", {"game_type": "riichi", "mode": 4, "spectator_delay": 30},
                          content_type="application/json")
    assert created.status_code == 201, created.json()
    assert created.json()["spectator_delay"] == 30 and created.json()["setup"]["spectator_delay"] == 30
    refused = client.post("/api/games/", {"game_type": "riichi", "mode": 4, "spectator_delay": 901},
                          content_type="application/json")
    assert refused.status_code == 400 and Game.objects.count() == 1


@pytest.fixture
def delayed_table(make_user, clock):
    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules={"場数": 0}, spectator_delay=DELAY)
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    return game, {s.position: s.user for s in game.seats.all()}, make_user()


def _play(game: Game, by_position, moves: int) -> None:
    for _ in range(moves):
        game.refresh_from_db()
        seat = window.deciding(game, state.replay(game).engine)[0]  # not a seat whose answer is kept
        write_path.apply_action(game.id, by_position[seat], "pass", [])


def test_spectators_read_the_game_as_it_was_delay_seconds_ago(delayed_table, clock):
    game, by_position, watcher = delayed_table
    clock(1)
    _play(game, by_position, 6)
    game.refresh_from_db()
    early = game.seq
    clock(DELAY - 2)
    _play(game, by_position, 6)
    game.refresh_from_db()
    now_seq = game.seq
    clock(3)  # the first six moves are now DELAY + 1 s old, the last six only 3 s

    seen = reads.snapshot(game, watcher)
    assert seen["v"] == early and seen["clocks"] is None and seen["legal"] == []
    assert seen["history"] == reads.replay_step(game, watcher, early)["history"]
    assert reads.history(game, watcher)["v"] == early
    assert reads.replay_step(game, watcher, early)["steps"] == early
    with pytest.raises(GameError, match="InvalidStep"):
        reads.replay_step(game, watcher, early + 1)

    player = by_position[0]
    assert reads.snapshot(game, player)["v"] == now_seq  # the players see it live
    assert reads.history(game, player)["v"] == now_seq

    clock(DELAY)
    assert reads.snapshot(game, watcher)["v"] == now_seq


def test_the_spectators_push_goes_late_and_the_players_at_once(delayed_table, clock, monkeypatch):
    game, by_position, _ = delayed_table
    sent = []
    monkeypatch.setattr(write_path.push, "send_many", lambda deliveries, delay=0: sent.append((deliveries, delay)))
    _play(game, by_position, 1)
    now, late = sent[-2], sent[-1]
    assert now[1] == 0 and all(group.startswith("user-") for group, _, _ in now[0])
    assert late[1] == DELAY and [group for group, _, _ in late[0]] == [f"game-{game.id}"]
    assert late[0][0][1]["clocks"] is None and late[0][0][1]["view"]["viewer"] is None


SETUP = """
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
from games.service import lobby
call_command("migrate", verbosity=0)
users = [User.objects.create_user(username=f"late{i}", password=None) for i in range(5)]
game = lobby.create_table(users[0], "riichi", 4, spectator_delay=2)
for user in users[1:4]:
    lobby.join(user, game.id)
for user in users[:4]:
    lobby.accept(user, game.id)
print(*[token_for(u) for u in users], game.id)
"""


async def _client(port: int, token: str) -> websockets.ClientConnection:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", open_timeout=30, max_queue=None)
    await ws.send(json.dumps({"type": "Login", "version": 1, "token": token, "history": False}))
    return ws


async def _listen(ws, game_id: int, arrivals: dict[int, float], stop: asyncio.Event, answer: bool) -> None:
    """Note when each v first arrives; a player also answers every decision with pass."""
    answered = 0
    while not stop.is_set():
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
        except TimeoutError:
            continue
        if message.get("game") != game_id or message["type"] not in ("Snapshot", "GameMessages"):
            continue
        arrivals.setdefault(message["v"], time.monotonic())
        if answer and message.get("legal") and message["v"] > answered:
            answered = message["v"]
            await asyncio.sleep(0.05)  # a table that moves at a readable pace
            await ws.send(json.dumps({"type": "DoGameAction", "game": game_id, "v": message["v"],
                                      "action": "pass", "params": []}))


def test_a_spectator_over_the_socket_sees_every_move_two_seconds_late(tmp_path):
    with serve(tmp_path, SETUP, cribbage=False, quiet=True) as site:
        *tokens, game_id = site.setup_output.split()[-6:]
        game_id = int(game_id)

        async def run() -> tuple[dict[int, float], dict[int, float], int]:
            stop = asyncio.Event()
            players = [await _client(site.http_port, t) for t in tokens[:4]]
            watcher = await _client(site.http_port, tokens[4])
            live: dict[int, float] = {}
            late: dict[int, float] = {}
            tasks = [asyncio.create_task(_listen(ws, game_id, live, stop, True)) for ws in players]
            for ws in players:
                await ws.send(json.dumps({"type": "Resync", "game": game_id}))
            await asyncio.sleep(3)
            tasks.append(asyncio.create_task(_listen(watcher, game_id, late, stop, False)))
            await watcher.send(json.dumps({"type": "EnterGame", "game": game_id}))
            entered_at = max(live)
            await asyncio.sleep(4)
            stop.set()
            await asyncio.gather(*tasks)
            for ws in (*players, watcher):
                await ws.close()
            return live, late, entered_at

        live, late, entered_at = asyncio.run(run())
    first = min(late)  # the Snapshot on entering: the game as it was two seconds before
    assert first < entered_at, (first, entered_at)
    pushed = [v for v in late if v != first]
    assert len(pushed) > 10, late
    for v in pushed:
        assert late[v] - live[v] >= 2 - 0.05, (v, late[v] - live[v])
