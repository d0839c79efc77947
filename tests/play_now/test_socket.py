"""Play now on the lobby WebSocket (docs/protocols/lobby.md, "Play now"): PlayNow, its pushes to
every connection of the player, LeavePlayNow, refusals, and Greetings after a reload."""

from __future__ import annotations

import pytest

from games.models import Game, QueueEntry

pytestmark = pytest.mark.django_db(transaction=True)

PAIR = {"game_type": "cribbage", "players": 2, "bots_after": None}


async def test_two_players_are_told_their_table(make_user, clients, db_call):
    ann, ben = await db_call(make_user, "ann"), await db_call(make_user, "ben")
    a, b = await clients(ann, path="/ws/bot/"), await clients(ben, path="/ws/bot/")
    a2 = await clients(ann, path="/ws/bot/")  # a second tab of ann's hears it too
    await a.send({"type": "PlayNow", **PAIR, "ref": 1})
    waiting = await a.expect("PlayNowWaiting")
    assert waiting["status"] == "waiting" and waiting["players"] == 2 and waiting["bots_after"] is None
    assert waiting["others"] == 0 and waiting["window"] == 2.0
    await a2.expect("PlayNowWaiting")
    await b.send({"type": "PlayNow", **PAIR})
    seated = await b.expect("PlayNowSeated")
    assert (await a.expect("PlayNowSeated"))["game"] == seated["game"] == (await a2.expect("PlayNowSeated"))["game"]
    assert seated["bots"] == 0 and seated["game_type"] == "cribbage" and seated["bot_level"] is None
    game = await db_call(Game.objects.get, id=seated["game"])
    assert game.status == "active"
    # A reload: Greetings say where Play now left the player.
    again = await clients(path="/ws/bot/")
    greetings = await again.login(ann)
    assert greetings["play_now"] == {"status": "seated", "game": game.id, "game_type": "cribbage",
                                     "players": 2, "clock": "untimed"}


async def test_leave_and_refusals(make_user, clients, db_call):
    ann = await db_call(make_user, "ann")
    a = await clients(ann, path="/ws/bot/")
    await a.send({"type": "PlayNow", "game_type": "cribbage", "players": 5, "ref": "x"})
    error = await a.expect("Error")
    assert error["code"] == "InvalidPlayNow" and "players" in error["reason"] and error["ref"] == "x"
    await a.send({"type": "LeavePlayNow", "ref": 2})
    assert (await a.expect("Error"))["code"] == "NotQueued"
    assert not await db_call(QueueEntry.objects.exists)
    await a.send({"type": "PlayNow", **PAIR})
    await a.expect("PlayNowWaiting")
    greetings = await (await clients(path="/ws/bot/")).login(ann)
    assert greetings["play_now"]["status"] == "waiting"
    await a.send({"type": "LeavePlayNow"})
    assert (await a.expect("PlayNowLeft"))["reason"] == "left"
    assert not await db_call(QueueEntry.objects.exists)
    greetings = await (await clients(path="/ws/bot/")).login(ann)
    assert "play_now" not in greetings


async def test_sitting_down_elsewhere_is_said(make_user, clients, db_call):
    from games.service import door

    ann = await db_call(make_user, "ann")
    a = await clients(ann, path="/ws/bot/")
    await a.send({"type": "PlayNow", **PAIR})
    await a.expect("PlayNowWaiting")
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 4})
    assert (await a.expect("PlayNowLeft"))["reason"] == "seated"
    await a.send({"type": "PlayNow", **PAIR})
    assert (await a.expect("Error"))["code"] == "AtTable"
    assert await db_call(door.play_now_status, ann) == {"status": "none"}


async def test_everyone_waiting_hears_who_comes_and_goes(make_user, clients, db_call):
    ann, ben = await db_call(make_user, "ann"), await db_call(make_user, "ben")
    a, b = await clients(ann, path="/ws/bot/"), await clients(ben, path="/ws/bot/")
    riichi = {"type": "PlayNow", "game_type": "riichi", "bots_after": None}
    await a.send(riichi)
    assert (await a.expect("PlayNowWaiting"))["others"] == 0
    await b.send(riichi)
    assert (await b.expect("PlayNowWaiting"))["others"] == 1
    assert (await a.expect("PlayNowWaiting"))["others"] == 1  # ben came
    await b.send({"type": "LeavePlayNow"})
    await b.expect("PlayNowLeft")
    assert (await a.expect("PlayNowWaiting"))["others"] == 0  # and went
    await b.send({**riichi, "length": "east"})  # another table: another queue
    assert (await b.expect("PlayNowWaiting"))["others"] == 0
    assert await a.drain() == []


async def test_a_riichi_bot_level_over_the_socket(make_user, clients, db_call):
    """PlayNow's ``bot_level`` (riichi): the bots seated are of that level, and the player's place,
    in PlayNowWaiting and in Greetings, says which was chosen; a level that does not exist is
    InvalidPlayNow."""
    ann = await db_call(make_user, "ann")
    a = await clients(ann, path="/ws/bot/")
    await a.send({"type": "PlayNow", "game_type": "riichi", "bot_level": "expert"})
    error = await a.expect("Error")
    assert error["code"] == "InvalidPlayNow" and "bot_level" in error["reason"]
    await a.send({"type": "PlayNow", "game_type": "riichi", "bot_level": "strong", "bots_after": 0})
    assert (await a.expect("PlayNowWaiting"))["bot_level"] == "strong"
    seated = await a.expect("PlayNowSeated")
    assert seated["bots"] == 3 and seated["bot_level"] == "strong"
    names = await db_call(lambda: sorted(Game.objects.get(id=seated["game"]).seats.filter(user__is_bot=True)
                                         .values_list("user__username", flat=True)))
    assert names == ["house-strong-1", "house-strong-2", "house-strong-3"]
    greetings = await (await clients(path="/ws/bot/")).login(ann)
    assert greetings["play_now"] == {"status": "seated", "game": seated["game"], "game_type": "riichi",
                                     "preset": "tenhou", "length": "east-south", "clock": "untimed",
                                     "bot_level": "strong"}
