"""House bots: a host fills empty seats with the game's built-in bot and plays alone."""

from __future__ import annotations

import pytest

from games.models import Action, Game, Seat
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)


def next_move(game_id: int):
    engine = state.replay(Game.objects.get(id=game_id)).engine
    if engine.is_over:
        return None
    seat = engine.to_act()[0]
    return (seat, *engine.auto_action(seat))


async def test_person_plays_a_whole_game_against_three_bots(clients, db_call, make_user):
    alice, bob = await db_call(make_user), await db_call(make_user)
    host = await clients(alice)
    other = await clients(bob)
    await host.send({"type": "CreateGame", "game_type": "acquire", "mode": 4})
    game_id = (await host.expect("GameCreated"))["game"]
    # Only the host adds bots.
    await other.send({"type": "AddBot", "game": game_id})
    assert (await other.expect("Error"))["code"] == "NotHost"
    await host.send({"type": "AcceptSetup", "game": game_id})
    await host.expect("SetupAccepted")
    for n in range(3):
        await host.send({"type": "AddBot", "game": game_id})
        joined = await host.expect("UserJoinedGame")
        assert joined["bot"] is True and joined["username"] == f"house-bot-{n + 1}"
        users = joined["setup"]["users"]
        # Adding a bot changes the setup: the person must accept again; bots accept at once.
        assert [u["accepted"] for u in users] == [False] + [True] * (n + 1)
    await host.send({"type": "AddBot", "game": game_id})
    assert (await host.expect("Error"))["code"] == "GameFull"
    await host.send({"type": "AcceptSetup", "game": game_id})
    await host.expect("GameStarted")
    position = await db_call(lambda: Seat.objects.get(game_id=game_id, user=alice).position)
    moves = 0
    while (move := await db_call(next_move, game_id)) is not None:
        seat, action, params = move
        assert seat == position  # the service plays the bots' turns before returning
        await host.send({"type": "DoGameAction", "game": game_id, "action": action, "params": params})
        await host.expect("ActionApplied")
        moves += 1
        assert moves < 1000
    game = await db_call(Game.objects.get, id=game_id)
    assert game.status == "finished"
    actions = await db_call(lambda: list(Action.objects.filter(game_id=game_id).values_list("seat", "auto")))
    assert {seat for seat, _ in actions} == {0, 1, 2, 3}
    assert not any(auto for _, auto in actions)  # bots' moves are their own, not time-outs


async def test_kicking_a_bot_frees_its_seat(clients, db_call, make_user):
    alice = await db_call(make_user)
    host = await clients(alice)
    await host.send({"type": "CreateGame", "game_type": "acquire", "mode": 3})
    game_id = (await host.expect("GameCreated"))["game"]
    await host.send({"type": "AddBot", "game": game_id})
    bot = (await host.expect("UserJoinedGame"))["user"]
    await host.send({"type": "Kick", "game": game_id, "user": bot})
    left = await host.expect("UserLeftGame")
    assert [u["user"] for u in left["setup"]["users"]] == [alice.id]
    await host.send({"type": "AddBot", "game": game_id})
    assert (await host.expect("UserJoinedGame"))["user"] == bot  # the same house bot is reused


async def test_a_riichi_bot_of_a_level_over_the_lobby_socket(clients, db_call, make_user):
    """AddBot's ``bot`` names a level (docs/bots.md, "Bot levels"); an unknown one is refused and
    seats nobody."""
    alice = await db_call(make_user)
    host = await clients(alice)
    await host.send({"type": "CreateGame", "game_type": "riichi", "mode": 4})
    game_id = (await host.expect("GameCreated"))["game"]
    await host.send({"type": "AddBot", "game": game_id, "bot": "expert"})
    refused = await host.expect("Error")
    assert refused["code"] == "UnknownBot" and "beginner, intermediate, strong" in refused["reason"]
    assert await db_call(lambda: Seat.objects.filter(game_id=game_id).count()) == 1
    await host.send({"type": "AddBot", "game": game_id, "bot": "strong"})
    joined = await host.expect("UserJoinedGame")
    assert joined["bot"] is True and joined["username"] == "house-strong-1"
