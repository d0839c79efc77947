"""/ws/majiang/ against the server `make run` starts (``manage.py serve``: Daphne, real sockets, a
SQLite file): players that know only their frames (``FramePlayer``) open tables, join them, play
whole games against house bots, drop and come back; malformed, doubled and late replies get the
documented answers and change nothing in the game's log. docs/protocols/majiang.md."""

from __future__ import annotations

import asyncio

import pytest
import websockets

from games.riichi.protocols import majiang as codec
from tests.riichi.transport.link import GAME_FRAMES, Database, Link, api, play
from tests.riichi.transport.player import FramePlayer
from tests.served import SiteSpec

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server


NAMES = ("solo", "errs", "ann", "bob", "cal", "dee")
SETUP = f"""
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
from games.service import lobby
call_command("migrate", verbosity=0)
tokens = {{name: token_for(User.objects.create_user(username=name, password=None)) for name in {NAMES!r}}}
cribbage = lobby.create_table(User.objects.get(username="dee"), "cribbage", 2)
print(json.dumps({{"tokens": tokens, "cribbage": cribbage.id}}))
"""
EAST = {"preset": "east"}


# The module's server (the `site` fixture, tests/conftest.py).
SITE = SiteSpec(SETUP, name="majiang-served")


async def open_game(port: int, token: str, name: str, bots: int = 3, rules: dict | None = None) -> tuple[Link, int]:
    link = await Link.open(port, token, name)
    await link.send({"type": "open", "rules": rules or EAST, "bots": bots})
    table = await link.expect("table")
    return link, table["game"]


def seat_frames(history: list[dict], seat: int, names: list[str]) -> list[dict]:
    """What the codec makes of a finished game's (revealed) history for ``seat``."""
    return codec.SeatStream(seat, names).frames(history, codec.paipu(history, names))


def without_seq(frames: list[dict]) -> list[dict]:
    return [{k: v for k, v in f.items() if k != "seq"} for f in frames]


async def wait_for(predicate, seconds: float = 30) -> None:
    for _ in range(int(seconds * 20)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_a_player_with_only_its_frames_plays_a_whole_east_game_against_three_house_bots(site):
    port, setup, database = site.port, site.setup, site.database
    token = setup["tokens"]["solo"]

    async def scenario():
        link, game_id = await open_game(port, token, "solo")
        player = FramePlayer(1)
        end = await play(link, player)
        # Over, the game can still be looked back at: kaiju, the last hand, jieju, end.
        await link.send({"type": "join", "game": game_id})
        last = [await link.expect("kaiju")]
        while last[-1]["type"] != "end":
            last.append(await link.recv())
        await link.close()
        return link, game_id, player, end, last

    link, game_id, player, end, last = asyncio.run(scenario())
    assert end == {"type": "end", "game": game_id, "status": "finished"}
    assert database.game(game_id)[1] == "finished"
    seat = database.seat(game_id, "solo")
    frames = link.game_frames()[:len(player.frames)]
    assert last[-1] == end and last[0] == frames[0]
    hand = frames[max(i for i, f in enumerate(frames) if f["type"] == "qipai"):]
    assert last[1:-1] == without_seq(hand)
    kaiju = frames[0]["data"]
    assert frames[0]["type"] == "kaiju" and kaiju["id"] == seat and kaiju["rule"]["場数"] == 1
    assert kaiju["player"][seat] == "solo" and sorted(kaiju["player"]) == ["house-bot-1", "house-bot-2",
                                                                          "house-bot-3", "solo"]
    # Every frame the client got is the codec's translation of the stored game, in order, none
    # missing, none twice; every question was answered once, in order.
    history = api(port, token, f"games/{game_id}/history/")["messages"]
    assert without_seq(frames) == seat_frames(history, seat, kaiju["player"])
    questions = [f["seq"] for f in frames if "seq" in f]
    assert questions == sorted(set(questions)) and len(questions) == len(player.replies) > 100
    mine = [a for a in database.actions(game_id) if a[1] == seat and a[2] != "kaiju"]
    assert [a[5] for a in mine] == questions and not any(a[4] for a in mine)  # none played for it
    # jieju carries Majiang's whole paifu: the same as the download, less the rule it adds.
    paifu = api(port, token, f"games/{game_id}/paifu/")
    assert player.jieju == {k: v for k, v in paifu.items() if k != "rule"}
    assert player.hands == len(paifu["log"])


def test_bad_replies_are_refused_with_the_documented_answer_and_change_nothing(site):
    port, setup, database = site.port, site.setup, site.database
    token = setup["tokens"]["errs"]

    async def scenario():
        link = await Link.open(port, None, "errs")
        await link.send({"type": "login", "token": token})  # the other way to log in
        assert (await link.expect("welcome"))["username"] == "errs"
        await link.send({"type": "open", "rules": EAST, "bots": 3})
        game_id = (await link.expect("table"))["game"]
        player = FramePlayer(2)
        # Play on to the first question about the player's own draw.
        while True:
            frame = await link.recv()
            if frame["type"] not in GAME_FRAMES:
                continue
            reply = player.on_frame(frame)
            if frame["type"] == "zimo" and "seq" in frame:
                question, answer = frame, reply
                break
            if reply is not None:
                await link.send(reply)
        seq = question["seq"]
        log = database.actions(game_id)
        assert database.game(game_id)[0] == seq  # the game waits for this seat, at this seq

        async def refused(frame, code: str, *, again: bool, seq_in_error=seq) -> None:
            await link.send(frame)
            error = await link.expect("error")
            assert (error["code"], error["seq"]) == (code, seq_in_error), error
            assert error["reason"]
            if again:
                assert await link.expect("zimo") == question  # asked again, the same frame
            await link.nothing(0.2)
            assert database.actions(game_id) == log

        await refused("not json", "InvalidMessageFormat", again=False, seq_in_error=None)
        await refused("[1, 2]", "InvalidMessageFormat", again=False, seq_in_error=None)
        await refused({"type": "chi", "data": "m1-23", "seq": seq}, "UnknownMessageType", again=False)
        await refused({"type": "dapai", "data": "x9", "seq": seq}, "InvalidData", again=True)
        await refused({"type": "dapai", "data": 5, "seq": seq}, "InvalidData", again=True)
        await refused({"type": "dapai", "data": "m1"}, "MissingSeq", again=True, seq_in_error=None)
        await refused({"type": "dapai", "data": "m1", "seq": "x"}, "InvalidSeq", again=True, seq_in_error=None)
        await refused({"type": "fulou", "data": "m1-23", "seq": seq}, "UnexpectedReply", again=True)
        counts = player.shoupai._bingpai
        absent = next(s + str(n) for s in "mpsz" for n in range(1, 8) if not counts[s][n])  # not in the hand
        await refused({"type": "dapai", "data": absent, "seq": seq}, "IllegalAction", again=True)
        await refused({"type": "dapai", "data": answer.get("data") or "m1", "seq": seq + 50}, "StaleAction",
                      again=False, seq_in_error=seq + 50)
        await refused({"type": "login", "token": token}, "AlreadyLoggedIn", again=False, seq_in_error=None)
        await refused({"type": "open"}, "AlreadyAtTable", again=False, seq_in_error=None)
        # An empty reply without seq answers nothing and is not answered (a Majiang.Player port).
        await link.send({"type": "", "data": None})
        await link.nothing(0.3)
        assert database.actions(game_id) == log

        # Taking the seat up again while asked (the same link, then a second one of the same user):
        # kaiju, the hand so far, and the question last, with its seq.
        hand = player.frames[max(i for i, f in enumerate(player.frames) if f["type"] == "qipai"):]
        second = await Link.open(port, token, "errs again")
        for taker in (link, second):
            await taker.send({"type": "join", "game": game_id})
            frames = [await taker.until("kaiju")]
            while "seq" not in frames[-1]:
                frames.append(await taker.recv())
            assert frames[0] == player.frames[0] and frames[-1] == question
            assert without_seq(frames[1:]) == without_seq(hand)
        await second.close()
        await asyncio.sleep(0.3)  # the first link still follows the game: the seat is not away
        assert database.actions(game_id) == log

        # The good answer, sent twice at once: applied once, the second is a duplicate.
        await link.send(answer)
        await link.send(answer)
        errors = []
        while not errors:
            frame = await link.recv()
            if frame["type"] == "error":
                errors.append(frame)
            elif frame["type"] in GAME_FRAMES:
                player.on_frame({k: v for k, v in frame.items() if k != "seq"})  # answers nothing more
        assert (errors[0]["code"], errors[0]["seq"]) == ("DuplicateAction", seq)
        mine = [a for a in database.actions(game_id) if a[1] == question_seat(database, game_id)]
        assert [a[5] for a in mine].count(seq) == 1

        # Later, a reply to that old question again: refused, nothing applied.
        await link.send(answer)
        while (frame := await link.recv())["type"] != "error":
            pass
        assert (frame["code"], frame["seq"]) == ("DuplicateAction", seq)
        assert [a[5] for a in database.actions(game_id) if a[1] == question_seat(database, game_id)].count(seq) == 1
        await link.close()
        return game_id

    game_id = asyncio.run(scenario())
    # The link dropped mid-game: the server plays the seat (flagged auto) and the game ends.
    asyncio.run(wait_for(lambda: database.game(game_id)[1] == "finished", 60))
    seat = question_seat(database, game_id)
    assert any(a[1] == seat and a[4] for a in database.actions(game_id))


def question_seat(database: Database, game_id: int) -> int:
    return database.seat(game_id, "errs")


def test_a_dropped_player_is_played_by_the_server_and_comes_back_to_finish(site):
    """ann opens a table with two house bots, bob joins it by its number (both accept by sitting
    down); ann's link drops, the server plays her seat while bob plays on; bob then takes his
    time over a decision while ann comes back: kaiju, her current hand, and she finishes."""
    port, setup, database = site.port, site.setup, site.database
    tokens = setup["tokens"]

    async def scenario():
        ann, game_id = await open_game(port, tokens["ann"], "ann", bots=2)
        bob = await Link.open(port, tokens["bob"], "bob")
        await bob.send({"type": "join", "game": game_id})
        assert (await bob.expect("table"))["game"] == game_id
        bob_player, gate = FramePlayer(4), asyncio.Event()
        gate.set()
        bob_task = asyncio.create_task(play(bob, bob_player, gate=gate))
        assert await play(ann, FramePlayer(3), questions=15) is None
        ann_seat = database.seat(game_id, "ann")
        await ann.close()
        await wait_for(lambda: any(a[1] == ann_seat and a[4] for a in database.actions(game_id)))
        gate.clear()  # bob ponders: the game waits for him
        await wait_for(lambda: bob_waiting(database, game_id, bob_player))
        back = await Link.open(port, tokens["ann"], "ann again")
        welcome = back.received[0]
        assert {"game": game_id, "status": "active"} in welcome["games"]
        await back.send({"type": "join", "game": game_id})
        ann_player = FramePlayer(5)
        ann_task = asyncio.create_task(play(back, ann_player))
        await wait_for(lambda: ann_player.hands >= 1)
        gate.set()
        ends = await asyncio.gather(ann_task, bob_task)
        await back.close()
        await bob.close()
        return game_id, back, ann_player, ends

    game_id, back, ann_player, ends = asyncio.run(scenario())
    assert [e["status"] for e in ends] == ["finished", "finished"]
    ann_seat = database.seat(game_id, "ann")
    frames = without_seq(back.game_frames())
    assert frames[0]["type"] == "kaiju" and frames[0]["data"]["id"] == ann_seat and frames[1]["type"] == "qipai"
    # Her frames on coming back: kaiju, then the game from the deal of the hand she came back to.
    history = api(port, tokens["ann"], f"games/{game_id}/history/")["messages"]
    whole = seat_frames(history, ann_seat, frames[0]["data"]["player"])
    assert frames[1:] == whole[len(whole) - len(frames) + 1:]
    actions = database.actions(game_id)
    auto = [a for a in actions if a[1] == ann_seat and a[4]]
    assert auto, "nothing was played for the seat while its player was away"
    # After she came back, she decided again.
    assert any(a[1] == ann_seat and not a[4] and a[0] > auto[-1][0] for a in actions)
    assert ann_player.jieju is not None


def bob_waiting(database: Database, game_id: int, bob_player: FramePlayer) -> bool:
    """bob holds a question he has not answered: his last reply is not yet in the log."""
    if not bob_player.replies:
        return False
    asked = bob_player.replies[-1]["seq"]
    bob_seat = database.seat(game_id, "bob")
    return not any(a[1] == bob_seat and a[5] == asked for a in database.actions(game_id))


def test_seating_and_session_errors(site):
    port, setup, database = site.port, site.setup, site.database
    tokens = setup["tokens"]

    async def scenario():
        # Logging in.
        link = await Link.open(port, None, "anon")
        await link.send({"type": "join", "game": 1})
        error = await link.expect("error")
        assert error["code"] == "NotLoggedIn"
        link = await Link.open(port, None, "bad token")
        await link.send({"type": "login", "token": "nope"})
        assert (await link.expect("error"))["code"] == "InvalidToken"
        bad = Link(await websockets.connect(f"ws://127.0.0.1:{port}/ws/majiang/?token=nope"), "bad token on the URL")
        assert (await bad.expect("error"))["code"] == "InvalidToken"

        cal = await Link.open(port, tokens["cal"], "cal")
        for frame, code in [
            ({"type": "join", "game": 10**6}, "UnknownGame"),
            ({"type": "join", "game": "one"}, "InvalidMessage"),
            ({"type": "join", "game": setup["cribbage"]}, "NotRiichi"),
            ({"type": "open", "rules": {"preset": "nope"}}, "InvalidRules"),
            ({"type": "open", "rules": EAST, "bots": 4}, "InvalidMessage"),
            ({"type": "open", "rules": "east"}, "InvalidMessage"),
            ({"type": "add_bot"}, "NotAtTable"),
            ({"type": "leave"}, "NotAtTable"),
            ({"type": "dapai", "data": "m1", "seq": 1}, "NotInGame"),
            ({"type": "hello"}, "UnknownMessageType"),
        ]:
            await cal.send(frame)
            error = await cal.expect("error")
            assert error["code"] == code, (frame, error)

        # A table for two people and two bots: the host adds the bots one by one.
        await cal.send({"type": "open", "rules": EAST})
        table = await cal.expect("table")
        game_id = table["game"]
        assert [u["username"] for u in table["setup"]["users"]] == ["cal"]
        dee = await Link.open(port, tokens["dee"], "dee")
        await dee.send({"type": "add_bot", "game": game_id})  # not at the table: nothing to add to
        assert (await dee.expect("error"))["code"] == "NotAtTable"
        await dee.send({"type": "join", "game": game_id})
        assert len((await dee.until("table"))["setup"]["users"]) == 2
        await dee.send({"type": "add_bot"})
        assert (await dee.until("error"))["code"] == "NotHost"  # past the table's own push of the join
        await cal.send({"type": "add_bot"})
        await cal.send({"type": "add_bot"})
        # Every seat taken: both links accept by themselves and the game starts.
        kaiju = await cal.until("kaiju")
        assert (await dee.until("kaiju"))["data"]["player"] == kaiju["data"]["player"]
        assert database.game(game_id)[1] == "active"
        # dee leaves the game for good: the server plays her seat to the end, the link is done.
        await dee.send({"type": "leave"})
        assert await dee.until("end") == {"type": "end", "game": game_id, "status": "left"}
        await dee.send({"type": "join", "game": game_id})
        assert (await dee.expect("error"))["code"] == "Forfeited"
        await dee.close()
        # cal leaves too; a second table of his own, left while it is being set up, is gone.
        await cal.send({"type": "leave"})
        await cal.until("end")
        await cal.send({"type": "open"})
        second = (await cal.expect("table"))["game"]
        await cal.send({"type": "leave"})
        assert await cal.until("end") == {"type": "end", "game": second, "status": "left"}
        await cal.close()
        return game_id, second

    game_id, second = asyncio.run(scenario())
    asyncio.run(wait_for(lambda: database.game(game_id)[1] == "finished", 60))
    assert database.game(second)[1] == "aborted"
