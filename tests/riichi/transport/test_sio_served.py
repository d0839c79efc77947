"""majiang-server's dialect (socket.io under /majiang) against the server `make run` starts
(``manage.py serve``: Daphne, real sockets, a SQLite file), with real third-party peers: the
unmodified ``majiang-bot`` of @kobalab/majiang-server (majiang-ai playing) and socket.io-client
driven by the test (``sio_pipe.js``). Four bots play a whole game; a bot, two house bots and a
native /ws/majiang/ client share another, where the bot is killed, its seat played by the server,
and a restarted bot takes the seat again mid-hand; both games' paifu replay through our engine and
majiang-core. Log-in, refusals and revocation get the documented answers and change nothing.
docs/protocols/majiang.md, "The majiang-server dialect (socket.io)"."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path
from typing import Any

import pytest

from tests.riichi.reference.corpus import BENCH, REPO
from tests.riichi.transport.link import GAME_FRAMES, Database, Link, api
from tests.riichi.transport.player import FramePlayer
from tests.riichi.transport.sio import SioPeer, login, start_bot, to_frame, to_reply
from tests.served import SiteSpec
from tests.transport.test_token_revocation import revoke_on_the_token_page

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server


NAMES = ("ann", "ben", "cat", "dan", "eve", "nat", "bot", "errs")
SETUP = f"""
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import create_token, token_for
call_command("migrate", verbosity=0)
tokens = {{name: token_for(User.objects.create_user(username=name, password=None)) for name in {NAMES!r}}}
# alice logs in on the token page (with a password) to revoke the token her client uses.
alice = User.objects.create_user(username="alice", password="secret-pw")
token, key = create_token(alice, "sio")
print(json.dumps({{"tokens": tokens, "alice": {{"id": token.id, "key": key}}}}))
"""
EAST = {"preset": "east"}


# The module's server (the `site` fixture, tests/conftest.py).
SITE = SiteSpec(SETUP, name="majiang-sio", node=True)


def rest(port: int, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/{path}", method="POST",
                                     data=json.dumps(body or {}).encode(),
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode() or "null")


def seat_of(database: Database, game_id: int, username: str) -> int | None:
    rows = database.rows("SELECT position FROM games_seat s JOIN accounts_user u ON u.id = s.user_id "
                         "WHERE s.game_id = ? AND u.username = ?", game_id, username)
    return rows[0][0] if rows else None


def away(database: Database, game_id: int, username: str) -> bool:
    return bool(database.rows("SELECT away FROM games_seat s JOIN accounts_user u ON u.id = s.user_id "
                              "WHERE s.game_id = ? AND u.username = ?", game_id, username)[0][0])


def replay_both_ways(port: int, token: str, game_id: int, directory: Path) -> dict[str, Any]:
    """The game's paifu download through ``manage.py paifu verify`` (our engine) and
    ``bench/majiang/replay_paifu.js`` (majiang-core): zero divergences both ways."""
    paifu = api(port, token, f"games/{game_id}/paifu/")
    path = directory / f"riichi-{game_id}.json"
    path.write_text(json.dumps(paifu, ensure_ascii=False), encoding="utf-8")
    ours = subprocess.run([sys.executable, "manage.py", "paifu", "verify", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert ours.returncode == 0 and "0 divergences" in ours.stdout, ours.stdout + ours.stderr
    theirs = subprocess.run(["node", "replay_paifu.js", str(path)], cwd=BENCH, capture_output=True, text=True,
                            timeout=120)
    assert theirs.returncode == 0 and '"divergences":0' in theirs.stdout, theirs.stdout + theirs.stderr
    return paifu


@contextmanager
def stopped_at_the_end(processes: list[subprocess.Popen]) -> Iterator[None]:
    """Whatever happens in the block, no bot outlives the test."""
    try:
        yield
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)


async def wait_for(predicate, seconds: float = 60) -> None:
    for _ in range(int(seconds * 20)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_four_unmodified_majiang_bots_play_a_whole_east_game(site, tmp_path):
    """ann opens a table over REST (and so sits at it, as its host); four majiang-bots, ann's among
    them, take the seats by its number, accept by sitting down, play to the end and log out."""
    port, setup, database = site.port, site.setup, site.database
    tokens = setup["tokens"]
    players = ("ann", "ben", "cat", "dan")
    game_id = rest(port, tokens["ann"], "games/", {"game_type": "riichi", "mode": 4, "rules": EAST})["id"]
    started = time.monotonic()
    bots = [start_bot(port, game_id, f"{name}:{tokens[name]}", tmp_path / f"{name}.log") for name in players]
    with stopped_at_the_end(bots):
        for bot in bots:
            bot.wait(timeout=280)
    elapsed = time.monotonic() - started
    print(f"\nfour majiang-bots, a whole east game: {elapsed:.1f} s")  # noqa: T201 - the figure the issue asks for
    logs = {name: (tmp_path / f"{name}.log").read_text() for name in players}
    assert [bot.returncode for bot in bots] == [0, 0, 0, 0], logs
    assert not any("ERROR" in text or "ログインエラー" in text for text in logs.values()), logs
    assert database.game(game_id)[1] == "finished"
    assert sorted(seat_of(database, game_id, name) for name in players) == [0, 1, 2, 3]
    actions = database.actions(game_id)
    assert len(actions) > 200 and not any(a[4] for a in actions)  # every decision was a bot's own
    paifu = replay_both_ways(port, tokens["ann"], game_id, tmp_path)
    assert sorted(paifu["player"]) == sorted(players) and paifu["rule"]["場数"] == 1


def test_a_bot_house_bots_and_a_native_client_share_a_table_and_a_restarted_bot_takes_its_seat_again(site, tmp_path):
    """nat opens a table on /ws/majiang/ with two house bots; a majiang-bot joins it by its number.
    The bot is killed mid-game: its seat is away and played by the server. nat then ponders a
    question (the game waits mid-hand), a new majiang-bot process of the same user starts, takes
    its seat again (START, kaiju with the log, the hand so far, the question) and plays to the end."""
    port, setup, database = site.port, site.setup, site.database
    tokens = setup["tokens"]
    name = f"bot:{tokens['bot']}"

    bots: list[subprocess.Popen] = []

    async def scenario():
        native = await Link.open(port, tokens["nat"], "nat")
        await native.send({"type": "open", "rules": EAST, "bots": 2})
        game_id = (await native.expect("table"))["game"]
        player, pause, paused = FramePlayer(11), asyncio.Event(), asyncio.Event()
        native_task = asyncio.create_task(play_native(native, player, pause, paused))
        first = start_bot(port, game_id, name, tmp_path / "first.log")
        bots.append(first)
        await wait_for(lambda: database.game(game_id)[1] == "active")
        seat = seat_of(database, game_id, "bot")
        await wait_for(lambda: sum(a[1] == seat and not a[4] for a in database.actions(game_id)) >= 20)
        first.kill()  # dropped, as a crash drops it: no log-out
        first.wait(10)
        await wait_for(lambda: away(database, game_id, "bot"))
        await wait_for(lambda: sum(a[1] == seat and a[4] for a in database.actions(game_id)) >= 5)
        # nat ponders her next draw: the game waits for her alone, in the middle of a hand.
        pause.set()
        await paused.wait()
        hands_at_restart = player.hands
        log_at_restart = len(database.actions(game_id))
        assert database.game(game_id)[0] == player.asked
        second = start_bot(port, game_id, name, tmp_path / "second.log")
        bots.append(second)
        await wait_for(lambda: not away(database, game_id, "bot"))
        await asyncio.sleep(0.5)
        assert len(database.actions(game_id)) == log_at_restart  # still waiting for nat
        pause.clear()
        end = await native_task
        await native.close()
        second.wait(60)
        return game_id, seat, second, player, end, hands_at_restart, log_at_restart

    with stopped_at_the_end(bots):
        game_id, seat, second, player, end, hands_at_restart, log_at_restart = asyncio.run(scenario())
    assert end == {"type": "end", "game": game_id, "status": "finished"}
    assert second.returncode == 0, (tmp_path / "second.log").read_text()
    actions = database.actions(game_id)
    mine = [a for a in actions if a[1] == seat]
    auto = [a for a in mine if a[4]]
    assert auto and all(a[0] <= log_at_restart for a in auto)  # played by the server only while away
    back = [a for a in mine if not a[4] and a[0] > log_at_restart]
    assert back, "the restarted bot made no decision"
    # Its first decision came in the hand it came back to (on nat's discard, every seat is asked):
    # nat's questions, asked about every discard, place each seq in a hand.
    hands, timeline = 0, []
    for frame in player.frames:
        hands += frame["type"] == "qipai"
        if "seq" in frame:
            timeline.append((frame["seq"], hands))
    assert max(h for s, h in timeline if s <= back[0][5]) == hands_at_restart
    assert player.jieju is not None
    replay_both_ways(port, tokens["nat"], game_id, tmp_path)


async def play_native(link: Link, player: FramePlayer, pause: asyncio.Event, paused: asyncio.Event,
                      ) -> dict[str, Any]:
    """``play`` of a native client that, while ``pause`` is set, holds its next plain discard after a
    draw (``paused`` says it does): the game then waits for it alone, and goes on in that hand."""
    while True:
        frame = await link.recv()
        assert frame["type"] != "error", frame
        if frame["type"] == "end":
            return frame
        reply = player.on_frame(frame) if frame["type"] in GAME_FRAMES else None
        if reply is None:
            continue
        if pause.is_set() and frame["type"] == "zimo" and reply["type"] == "dapai" and "*" not in reply["data"]:
            paused.set()
            while pause.is_set():
                await asyncio.sleep(0.05)
        await link.send(reply)


def test_log_in_and_log_out(site, tmp_path):
    port, setup, database = site.port, site.setup, site.database
    tokens = setup["tokens"]
    # username:token logs in; a bare name, a wrong token, another user's token are refused, no cookie.
    status, cookie, _ = login(port, f"eve:{tokens['eve']}")
    assert status == 204 and cookie
    # The wrong token differs from eve's in its last digit whatever that digit is (a fixed "0" matched one token in 16).
    wrong = tokens["eve"][:-1] + ("1" if tokens["eve"].endswith("0") else "0")
    for name in ("eve", f"eve:{wrong}", f"eve:{tokens['ann']}", f"nobody:{tokens['eve']}", ""):
        status, refused, text = login(port, name)
        assert (status, refused) == (403, None), name
        assert "username:token" in text
    # majiang-bot with a wrong token prints its log-in error and quits, sitting nowhere.
    game_id = rest(port, tokens["eve"], "games/", {"game_type": "riichi", "mode": 4, "rules": EAST})["id"]
    bot = start_bot(port, game_id, f"ben:{tokens['eve']}", tmp_path / "wrong.log")
    with stopped_at_the_end([bot]):
        assert bot.wait(60) == 0
    assert "ログインエラー" in (tmp_path / "wrong.log").read_text()
    assert seat_of(database, game_id, "ben") is None
    # POST /majiang/logout clears the cookie and ends it on the server: a kept copy logs in no more.
    request = urllib.request.Request(f"http://127.0.0.1:{port}/majiang/logout", method="POST",
                                     headers={"Cookie": f"MAJIANG={cookie}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 204
        assert response.headers["Set-Cookie"].startswith('MAJIANG=""; expires=Thu, 01 Jan 1970')

    async def scenario():
        # No cookie, a forged one, the logged-out one: HELLO null, ERROR, and the server disconnects.
        forged = cookie[:-2] + ("aa" if not cookie.endswith("aa") else "bb")
        for value in (None, forged, cookie):
            peer = await SioPeer.open(port, value, "no login")
            assert await peer.expect("connect") == []
            assert await peer.expect("HELLO") == [None]
            assert (await peer.expect("ERROR"))[0].startswith("NotLoggedIn: ")
            assert await peer.expect("disconnect") == ["io server disconnect"]
            await peer.close()
        _, fresh, _ = login(port, f"eve:{tokens['eve']}")
        peer = await SioPeer.open(port, fresh, "eve")
        await peer.expect("connect")
        assert await peer.expect("HELLO") == [{"uid": peer_uid(database, "eve"), "name": "eve"}]
        await peer.close()

    asyncio.run(scenario())


def peer_uid(database: Database, username: str) -> str:
    return str(database.rows("SELECT id FROM accounts_user WHERE username = ?", username)[0][0])


def test_refusals_get_the_documented_answer_and_change_nothing(site):
    """errs opens a timed table over REST with three house bots and sits down with socket.io-client;
    every malformed, wrong, doubled or late message is answered as documented and the game's log
    stays as it was."""
    port, setup, database = site.port, site.setup, site.database
    token = setup["tokens"]["errs"]
    game_id = rest(port, token, "games/", {"game_type": "riichi", "mode": 4, "rules": EAST,
                                           "time_control": {"per_decision": 30, "bank": 60}})["id"]
    for _ in range(3):
        rest(port, token, f"games/{game_id}/add-bot/")
    _, cookie, _ = login(port, f"errs:{token}")

    async def scenario():
        peer = await SioPeer.open(port, cookie, "errs")
        await peer.expect("connect")
        await peer.expect("HELLO")
        before = database.rows("SELECT COUNT(*) FROM games_seat")
        # An unknown room, a room that is no number: ERROR, with what to do; nobody sat anywhere.
        await peer.emit("ROOM", "999999")
        error = (await peer.expect("ERROR"))[0]
        assert error.startswith("UnknownGame: no game 999999") and "majiang-bot -r <game id>" in error
        await peer.emit("ROOM", "A1234")
        assert (await peer.expect("ERROR"))[0].startswith("InvalidRoom: ")
        assert database.rows("SELECT COUNT(*) FROM games_seat") == before
        # Events this server does not take: REFUSED, and the link goes on.
        for event, code in (("START", "NotSupported"), ("CHAT", "UnknownMessageType")):
            await peer.emit(event, "x")
            refused = (await peer.expect("REFUSED"))[0]
            assert refused["code"] == code and refused["seq"] is None and refused["reason"]
        await peer.emit("GAME", {"seq": 1})
        assert (await peer.expect("REFUSED"))[0]["code"] == "NotInGame"

        # The table: ROOM with the users, START, then the game.
        await peer.emit("ROOM", str(game_id))
        room = (await peer.expect("ROOM"))[0]
        assert room["room_no"] == str(game_id) and room["user"][0] == {"uid": peer_uid(database, "errs"),
                                                                       "name": "errs"}
        assert [u.get("bot", False) for u in room["user"]] == [False, True, True, True]
        await peer.until("START")
        player = FramePlayer(5)
        while True:
            event, args = await peer.recv()
            if event != "GAME":
                continue
            message = args[0]
            reply = player.on_frame(to_frame(message))
            if "zimo" in message and "seq" in message:
                question, answer = message, to_reply(reply)
                break
            if reply is not None:
                await peer.emit("GAME", to_reply(reply))
        seq = question["seq"]
        assert question["timer"] == [30, 60]  # majiang-server's [limit, allowed]
        log = database.actions(game_id)
        assert database.game(game_id)[0] == seq

        async def refused(send, code: str, *, again: bool, seq_in_error: int | None = seq) -> None:
            await send()
            args = await peer.expect("REFUSED")
            assert (args[0]["code"], args[0]["seq"]) == (code, seq_in_error), args
            if again:
                assert await peer.expect("GAME") == [question]  # asked again, the same message
            await peer.nothing(0.2)
            assert database.actions(game_id) == log

        def emit(*args):
            return lambda: peer.emit(*args)

        await refused(lambda: peer.raw("2[oops"), "InvalidMessageFormat", again=False, seq_in_error=None)
        await refused(lambda: peer.raw('2["GAME",NaN]'), "InvalidMessageFormat", again=False, seq_in_error=None)
        await refused(lambda: peer.raw('2["disconnect"]'), "InvalidMessageFormat", again=False, seq_in_error=None)
        await refused(emit("GAME", "m1"), "InvalidMessageFormat", again=False, seq_in_error=None)
        await refused(emit("GAME", {"dapai": "m1", "gang": "m1111", "seq": seq}), "InvalidMessageFormat",
                      again=False)
        await refused(emit("GAME", {"chi": "m1-23", "seq": seq}), "UnknownMessageType", again=False)
        await refused(emit("GAME", {"dapai": "x9", "seq": seq}), "InvalidData", again=True)
        await refused(emit("GAME", {"dapai": "m1"}), "MissingSeq", again=True, seq_in_error=None)
        await refused(emit("GAME", {"dapai": "m1", "seq": "x"}), "InvalidSeq", again=True, seq_in_error=None)
        await refused(emit("GAME", {"fulou": "m1-23", "seq": seq}), "UnexpectedReply", again=True)
        counts = player.shoupai._bingpai
        absent = next(s + str(n) for s in "mpsz" for n in range(1, 8) if not counts[s][n])
        await refused(emit("GAME", {"dapai": absent, "seq": seq}), "IllegalAction", again=True)
        await refused(emit("GAME", {**answer, "seq": seq + 50}), "StaleAction", again=False, seq_in_error=seq + 50)
        await refused(emit("ROOM", str(game_id + 1)), "AlreadyAtTable", again=False, seq_in_error=None)
        await peer.emit("GAME", {})  # nothing, answering nothing: no answer either
        await peer.nothing(0.3)
        assert database.actions(game_id) == log

        # The good answer twice at once: applied once, the second is a duplicate; later, once more.
        async def next_refused() -> dict[str, Any]:
            while (item := await peer.recv())[0] != "REFUSED":
                if item[0] == "GAME":  # the game goes on; the player takes it in, answering nothing
                    player.on_frame({k: v for k, v in to_frame(item[1][0]).items() if k != "seq"})
            return item[1][0]

        await peer.emit("GAME", answer)
        await peer.emit("GAME", answer)
        assert itemgetter("code", "seq")(await next_refused()) == ("DuplicateAction", seq)
        await peer.emit("GAME", answer)  # a reply to an old message
        assert itemgetter("code", "seq")(await next_refused()) == ("DuplicateAction", seq)
        seat = database.seat(game_id, "errs")
        assert [a[5] for a in database.actions(game_id) if a[1] == seat].count(seq) == 1
        await peer.close()
        return seat

    seat = asyncio.run(scenario())
    # The link dropped mid-game: the server plays the seat (flagged auto) and the game ends.
    asyncio.run(wait_for(lambda: database.game(game_id)[1] == "finished", 60))
    assert any(a[1] == seat and a[4] for a in database.actions(game_id))


def test_a_revoked_token_ends_the_connection_and_its_cookie(site):
    port, setup, database = site.port, site.setup, site.database
    alice = setup["alice"]
    _, cookie, _ = login(port, f"alice:{alice['key']}")
    game_id = rest(port, alice["key"], "games/", {"game_type": "riichi", "mode": 4, "rules": EAST})["id"]
    rest(port, alice["key"], f"games/{game_id}/add-bot/")
    # A second person, who never answers: the game waits for them, so it is still on later.
    other = setup["tokens"]["dan"]
    rest(port, other, f"games/{game_id}/join/")
    rest(port, alice["key"], f"games/{game_id}/add-bot/")

    async def scenario():
        peer = await SioPeer.open(port, cookie, "alice")
        await peer.expect("connect")
        await peer.expect("HELLO")
        await peer.emit("ROOM", game_id)  # a number does as well as majiang-bot's string
        assert (await peer.expect("ROOM"))[0]["room_no"] == str(game_id)
        rest(port, other, f"games/{game_id}/accept/")
        await peer.until("START")
        page = await asyncio.to_thread(revoke_on_the_token_page, f"http://127.0.0.1:{port}", alice["id"])
        assert "revoked" in page
        assert (await peer.until("ERROR"))[0].startswith("TokenRevoked: ")
        assert await peer.until("disconnect") == ["io server disconnect"]
        await peer.close()
        await wait_for(lambda: away(database, game_id, "alice"))
        # The cookie named that token: it logs in no more.
        again = await SioPeer.open(port, cookie, "alice again")
        await again.expect("connect")
        assert await again.expect("HELLO") == [None]
        await again.close()

    asyncio.run(scenario())

