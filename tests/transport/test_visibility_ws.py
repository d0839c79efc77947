"""Hidden information over a whole game: every frame each seat and a spectator receive is checked.

Test clients play a complete 3-player Acquire game through the WebSocket; a spectator entered the
game. No frame to a seat may carry a tile another seat drew, another seat's rack, or the tile bag
(pushes carry views now, so theirs are checked too); no frame to a spectator may carry any drawn
tile. Snapshots are requested along the way so they are checked too.
"""

from __future__ import annotations

import json

import pytest

from games.models import Game, Seat
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)


def next_move(game_id: int) -> tuple[int, str, list] | None:
    game = Game.objects.get(id=game_id)
    engine = state.replay(game).engine
    if engine.is_over:
        return None
    seat = engine.to_act()[0]
    return (seat, *engine.auto_action(seat))


def drawn_tiles(game_id: int) -> dict[int, set[int]]:
    """Every tile each seat drew into its rack during the game (server side, all visible)."""
    entry = state.replay(Game.objects.get(id=game_id))
    drawn: dict[int, set[int]] = {}
    for event in entry.history:
        if event.type == "DrewTile":
            drawn.setdefault(event.player, set()).add(event.params[0])
    return drawn


def after_the_end(frame: dict) -> bool:
    """The finished game's Snapshot, or the push of the move that ended it: everything revealed."""
    if frame["type"] == "Snapshot":
        return frame["status"] == "finished"
    return frame["to_act"] == [] and bool(frame["view"].get("is_over"))


def check_frame(frame: dict, viewer: int | None) -> None:
    text = json.dumps(frame)
    assert "tile_bag" not in text and "racks" not in text, frame["type"]
    messages = frame.get("messages") or frame.get("history") or []
    for message in messages:
        if message["type"] == "DrewTile" and message.get("player") != viewer:
            assert message["params"] == [None], (viewer, message)
    view = frame.get("view")
    if view:
        if viewer is None:
            assert "rack" not in view
        assert "state" not in view


async def test_no_frame_reveals_hidden_tiles_over_a_whole_game(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(3)]
    watcher = await db_call(make_user)
    conns = [await clients(u) for u in users]
    spectator = await clients(watcher)
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": 3})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for user, conn in zip(users[1:], conns[1:]):
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame", user=user.id)
    for conn in conns:
        await conn.send({"type": "AcceptSetup", "game": game_id})
    for conn in conns:
        await conn.expect("GameStarted")
    await spectator.send({"type": "EnterGame", "game": game_id})  # the game's pushes from now on
    await spectator.expect("Snapshot")
    positions = await db_call(lambda: dict(Seat.objects.filter(game_id=game_id).values_list("user_id", "position")))
    by_seat = {positions[u.id]: c for u, c in zip(users, conns)}

    moves = 0
    while (move := await db_call(next_move, game_id)) is not None:
        seat, action, params = move
        await by_seat[seat].send({"type": "DoGameAction", "game": game_id, "action": action, "params": params})
        await by_seat[seat].expect("ActionApplied")
        moves += 1
        if moves % 15 == 0:
            for conn in (*conns, spectator):
                await conn.send({"type": "Resync", "game": game_id})
                await conn.expect("Snapshot")
        assert moves < 2000
    for conn in (*conns, spectator):
        # A resync after the last move is answered with the finished game, everything revealed.
        await conn.send({"type": "Resync", "game": game_id})
        await conn.expect("Snapshot")
    for conn in (*conns, spectator):
        await conn.seen("GameInactive", game=game_id)
        await conn.drain(0.2)

    game = await db_call(Game.objects.get, id=game_id)
    assert game.status == "finished" and game.result["is_over"]
    drawn = await db_call(drawn_tiles, game_id)
    assert sum(len(t) for t in drawn.values()) >= 18
    checked = 0
    for seat, conn in by_seat.items():
        own_draws = 0
        for frame in conn.received:
            if frame.get("game") != game_id or frame["type"] not in {"GameMessages", "Snapshot"}:
                continue
            checked += 1
            if after_the_end(frame):
                continue  # after the end everything may be seen
            check_frame(frame, seat)
            for message in frame.get("messages", []):
                if message["type"] == "DrewTile" and message["player"] == seat:
                    assert message["params"][0] in drawn[seat]
                    own_draws += 1
        assert own_draws == len(drawn[seat])  # a seat does see every tile it drew itself
    finished = 0
    spectator_pushes = 0
    for frame in spectator.received:
        if frame.get("game") == game_id and frame["type"] in {"GameMessages", "Snapshot"}:
            checked += 1
            spectator_pushes += frame["type"] == "GameMessages"
            if after_the_end(frame):
                # After the end the spectator may see everything, the tile bag included.
                finished += 1
                assert "tile_bag" in json.dumps(frame)
                continue
            check_frame(frame, None)
    assert finished >= 2 and spectator_pushes >= moves
    assert checked > 3 * moves
