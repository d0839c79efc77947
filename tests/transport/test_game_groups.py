"""Pushes go only to those who look: a game's moves reach its seated users and the clients that
entered it, never the rest of the lobby (docs/architecture.md, "Groups")."""

from __future__ import annotations

import asyncio

import pytest

from games.models import Game
from games.service import reads

pytestmark = pytest.mark.django_db(transaction=True)

LOBBY = 100
PLAYERS = 4
MOVES = 30


def next_move(game_id: int) -> tuple[int, str, list, int]:
    game = Game.objects.get(id=game_id)
    with reads._reading(game) as entry:
        seat = entry.engine.to_act()[0]
        return (seat, *entry.engine.auto_action(seat), entry.seq)


def positions(game_id: int) -> dict[int, int]:
    return {s.user_id: s.position for s in Game.objects.get(id=game_id).seats.all()}


async def test_only_the_table_and_its_spectators_hear_its_moves(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(LOBBY)]
    conns = [await clients(user) for user in users]
    players, spectator, others = conns[:PLAYERS], conns[PLAYERS], conns[PLAYERS + 1:]
    host, *guests = players
    await host.send({"type": "CreateGame", "game_type": "acquire", "mode": PLAYERS})
    game_id = (await host.expect("GameCreated"))["game"]
    for user, conn in zip(users[1:PLAYERS], guests):
        await conn.send({"type": "JoinGame", "game": game_id})
        await host.expect("UserJoinedGame", user=user.id)
    for conn in players:
        await conn.send({"type": "AcceptSetup", "game": game_id})
    await host.expect("GameStarted", game=game_id)
    await spectator.send({"type": "EnterGame", "game": game_id})
    snapshot = await spectator.expect("Snapshot", game=game_id)
    await spectator.send({"type": "Chat", "game": game_id, "text": "good luck"})

    seat_of = await db_call(positions, game_id)
    by_seat = {seat_of[users[i].id]: players[i] for i in range(PLAYERS)}
    for _ in range(MOVES):
        seat, action, params, v = await db_call(next_move, game_id)
        await by_seat[seat].send({"type": "DoGameAction", "game": game_id, "v": v, "action": action,
                                  "params": params})
        await by_seat[seat].expect("ActionApplied")

    # The spectator got every move, each push continuing the last (no gap, no overlap needed),
    # and each push is enough to follow the game: the spectators' view, nothing to act on.
    held = len(snapshot["history"])
    v = snapshot["v"]
    while v < snapshot["v"] + MOVES:
        push = await spectator.expect("GameMessages", game=game_id)
        assert push["start"] == held and push["legal"] == [] and "view" in push
        held += len(push["messages"])
        v = push["v"]
    assert v == snapshot["v"] + MOVES

    # Each seat's own push names its legal actions whenever the game waits for it.
    for seat, conn in by_seat.items():
        pushes = [m for m in conn.received + await conn.drain() if m["type"] == "GameMessages"]
        assert pushes and all(("legal" in m and "view" in m) for m in pushes)
        assert all(bool(m["legal"]) == (seat in m["to_act"]) for m in pushes)

    # Everyone else: the lobby's news of the table, never one of its moves or its table chat.
    await asyncio.sleep(0.2)
    for conn in others:
        heard = conn.received + await conn.drain(timeout=0.01)
        kinds = {m["type"] for m in heard if m.get("game") == game_id}
        assert "GameMessages" not in kinds and "Chat" not in kinds, kinds
        assert "GameStarted" in kinds
