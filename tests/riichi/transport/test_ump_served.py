"""UMP (seed 004) against the server `make run` starts (``manage.py serve``: one process, real TCP
sockets, a SQLite file): four UMP clients play whole games under two rule presets, a UMP client
shares a table with a native seed 001 client and house bots, and every line every client was sent
is checked against the true game for hidden tiles. docs/protocols/ump.md."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from typing import Any

import pytest

from games.riichi.clients.umpbot import UmpBot
from games.riichi.protocols import ump as codec
from tests.riichi.reference.corpus import REPO
from tests.riichi.transport.link import Database, Link, api, play
from tests.riichi.transport.player import FramePlayer
from tests.riichi.transport.test_sio_served import replay_both_ways
from tests.riichi.transport.ump_peer import Peer, command, greedy
from tests.served import SiteSpec, serve

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server


NAMES = ("ann", "ben", "cat", "dan", "nat", "uma", "errs", "solo")
SETUP = f"""
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
print(json.dumps({{name: token_for(User.objects.create_user(username=name, password=None)) for name in {NAMES!r}}}))
"""
# What UMP's seed lists as the server's commands, and the extension command.
SERVER_COMMANDS = {"hello", "error", "seat", "player", "gamestart", "gameend", "kyokustart", "kyokuend", "ready?",
                   "point", "richi", "dice", "haipai", "open", "dora", "uradora", "tsumo", "sutehai?", "sutehai",
                   "naki?", "say", "agari", "ryukyoku", "tenpai?", "_ex_"}


# The module's server (the `site` fixture, tests/conftest.py).
SITE = SiteSpec(SETUP, name="ump", ump=True, node=True)


def peer(name: str, token: str, *, game: int | None = None, judgement=None, **options: str) -> Peer:
    """A client of ``name``; ``options``: more hello options (a new table's _preset, its _bots)."""
    return Peer(UmpBot(name, name, token, game=game, seed=len(name), options=options,
                       **({"choose": judgement} if judgement else {})))


async def open_table(port: int, first: Peer) -> int:
    """``first`` logs in and, at no table yet, opens one: its number."""
    await first.connect(port)
    hello = await first.line()
    await first.send(first.bot.hello_reply(hello))
    table = await first.until(lambda text: command(text)[1] == "_ex_")
    return int(re.search(r"gameid=(\d+)", table).group(1))


def check_lines(peer: Peer) -> None:
    """Every line: a serial one more than the last, a command the seed lists, ASCII (read so)."""
    serials = [command(text)[0] for text in peer.lines]
    assert serials == list(range(1, len(serials) + 1))
    assert {command(text)[1] for text in peer.lines} <= SERVER_COMMANDS
    assert not [text for text in peer.lines if command(text)[1] == "error"], peer.lines


def check_hidden(peer: Peer, paifu: dict[str, Any]) -> None:
    """No tile of another player in what ``peer`` was sent, except where the game shows it: its
    own haipai and draws are the paifu's, every other haipai and draw is ``xx``, and another
    player's tiles are opened only by its call, its win, its tenpai at a draw, or an abortive draw
    that shows its hand (nine terminals)."""
    me = next(args[1] for _, name, args in map(command, peer.lines) if name == "seat")
    hands = paifu["log"]
    hand_no, said, shown = -1, {}, []
    for _, name, args in map(command, peer.lines):
        if name == "kyokustart":
            hand_no += 1
            qipai = next(e["qipai"] for e in hands[hand_no] if "qipai" in e)
            draws = iter([e.get("zimo") or e.get("gangzimo") for e in hands[hand_no]
                          if "zimo" in e or "gangzimo" in e])
        elif name == "haipai":
            menfeng = ("ABCD".index(args[0][0]) - qipai["jushu"]) % 4
            if args[0] == me:
                assert codec.tiles(args[1]) == sorted_tiles(qipai["shoupai"][menfeng]), (args, qipai)
            else:
                assert args[1] == "xx" * 13
        elif name == "tsumo":
            truth = next(draws)
            if args[0] == me:
                assert codec.majiang_tile(args[2]) == truth["p"]
            else:
                assert args[2] == "xx", args
        elif name == "say":
            said[args[0]] = args[1]
        elif name == "open" and args[0] != me:
            if args[0] in said:
                assert said.pop(args[0]) in ("chi", "pon", "kan", "ron", "tsumo", "tenpai"), (args, said)
            else:
                shown.append(args[0])  # unsaid: only an abortive draw that shows hands (九種九牌)
        elif name == "ryukyoku":
            drawn = next(e["pingju"] for e in hands[hand_no] if "pingju" in e)
            for who in shown:
                assert drawn["name"] in codec.ABORTIVE_DRAWS, (who, drawn)
                assert drawn["shoupai"][("ABCD".index(who[0]) - qipai["jushu"]) % 4], (who, drawn)
            shown = []


def sorted_tiles(shoupai: str) -> list[str]:
    return codec.tiles(codec.hand(shoupai))


async def four_play(port: int, tokens: dict[str, str], preset: str) -> tuple[int, list[Peer]]:
    first = peer("ann", tokens["ann"], _preset=preset)
    game_id = await open_table(port, first)
    others = [peer(name, tokens[name], game=game_id, judgement=greedy) for name in ("ben", "cat", "dan")]
    for other in others:
        await other.connect(port)
    peers = [first, *others]
    await asyncio.gather(*(p.play() for p in peers))
    for p in peers:
        await p.close()
    return game_id, peers


@pytest.mark.parametrize("preset", ["tenhou-east", "east"])
def test_four_ump_clients_play_a_whole_game(site, tmp_path, preset):
    """The project's bot opens a table; three greedy clients (every win, kan, call and riichi on
    offer) join it by number; the game is played to its end over TCP, its paifu replays through
    our engine and majiang-core, and no client ever saw another's tile before the game showed it."""
    served, tokens, database = site.served, site.setup, site.database
    game_id, peers = asyncio.run(four_play(served.ump_port, tokens, preset))
    assert database.game(game_id)[1] == "finished"
    ends = {next(text.split(" ", 1)[1] for text in p.lines if command(text)[1] == "gameend") for p in peers}
    assert len(ends) == 1  # all four saw the same result
    paifu = replay_both_ways(served.http_port, tokens["ann"], game_id, tmp_path)
    assert paifu["rule"] == api(served.http_port, tokens["ann"], f"games/{game_id}/paifu/")["rule"]
    said = [args[1] for p in peers for _, name, args in map(command, p.lines) if name == "say"]
    assert {"richi", "pon"} <= set(said) or {"chi", "pon"} <= set(said), said  # the greedy ones called
    for p in peers:
        check_lines(p)
        check_hidden(p, paifu)
    # The check catches a leak: another player's dealt hand, or a draw, shown where it was not.
    me = next(args[1] for _, name, args in map(command, peers[0].lines) if name == "seat")
    for leak in (r"haipai (?!{me})(\w\d) (?:xx){{13}}", r"tsumo (?!{me})(\w\d) (\d+) xx"):
        doctored = Peer(peers[0].bot, [re.sub(leak.format(me=me), lambda m: m.group(0)[:-2] + "1m", text, count=1)
                                       for text in peers[0].lines])
        with pytest.raises(AssertionError):
            check_hidden(doctored, paifu)


def test_a_ump_client_a_native_client_and_house_bots_share_a_table(site, tmp_path):
    """nat opens a table on /ws/majiang/ with two house bots; uma joins it over UMP by its number.
    Both play to the end and saw the same game: every discard uma was told of is one nat was."""
    served, tokens = site.served, site.setup

    async def scenario():
        native = await Link.open(served.http_port, tokens["nat"], "nat")
        await native.send({"type": "open", "rules": {"preset": "tenhou-east"}, "bots": 2})
        game_id = (await native.expect("table"))["game"]
        player = FramePlayer(5)
        native_play = asyncio.create_task(play(native, player))
        uma = peer("uma", tokens["uma"], game=game_id)
        await uma.connect(served.ump_port)
        await uma.play()
        end = await native_play
        await native.close()
        await uma.close()
        return game_id, player, uma, end

    game_id, player, uma, end = asyncio.run(scenario())
    assert end == {"type": "end", "game": game_id, "status": "finished"}
    theirs = [codec.tile(f["data"]["p"]) for f in player.frames if f["type"] == "dapai"]
    ours = [args[1] for _, name, args in map(command, uma.lines) if name == "sutehai"]
    assert ours == theirs and len(ours) > 20
    check_lines(uma)
    check_hidden(uma, replay_both_ways(served.http_port, tokens["nat"], game_id, tmp_path))


async def bad_input(served, tokens, database) -> None:
    port = served.ump_port
    # Before the log-in: every refusal ends the link, and says why.
    for text, code in (("garbage", "Malformed"), ("7 hello ump=1 user=errs password=x", "NotLoggedIn"),
                       ("1 hello ump=1 user=errs password=" + "0" * 64, "InvalidToken"),
                       ("1 hello ump=1 user=errs", "MissingPassword"),
                       ("1 hello user=errs password=pw", "MissingVersion"),
                       ("1 hello ump=1 user=errs password=pw _bots=9", "InvalidOption"),
                       ("1 hello ump=1 user=errs password=pw _preset=nonsense", "InvalidOption"),
                       ("1 hello ump=1 user=%FF password=pw", "Malformed"),
                       # Logged in, but the table named cannot be had: the link ends too.
                       (f"1 hello ump=1 user=errs password={tokens['errs']} _game=999999", "UnknownGame")):
        p = Peer(UmpBot("errs", "errs", ""))
        await p.connect(port)
        await p.line()
        await p.send(text)
        answer = await p.line()
        assert command(answer)[1] == "error" and command(answer)[2][0] == code, (text, answer)
        assert await p.line() is None  # closed
        await p.close()
    for raw in (b"1 hello\x00 ump=1\r\n", b"x" * 5000):  # a NUL; a line over the limit with no end
        p = Peer(UmpBot("errs", "errs", ""))
        await p.connect(port)
        await p.line()
        p.writer.write(raw)
        answer = await p.line()
        assert command(answer)[1] == "error" and command(answer)[2][0] == "Breach", answer
        assert await p.line() is None
        await p.close()

    # At a table, with a question open: each bad line is refused and the game does not move.
    solo = peer("solo", tokens["solo"], _bots="3", _preset="tenhou-east")  # another table, played meanwhile
    await solo.connect(port)
    other = asyncio.create_task(solo.play())
    errs = peer("errs", tokens["errs"], _bots="3", _preset="tenhou-east")
    await errs.connect(port)
    await errs.send(errs.bot.hello_reply(await errs.line()))
    while True:  # up to this client's first own-turn question, which it leaves open
        text = await errs.line()
        reply = errs.bot.handle(text)  # the bot follows its hand all along
        if command(text)[1] == "sutehai?":
            break
        if reply:
            await errs.send(reply)
    found = re.search(r" seat gameid=(\d+)", "\n".join(errs.lines))
    assert found, errs.lines
    game_id = int(found.group(1))
    asked = command(text)[0]
    before = database.game(game_id)[0]
    hand = codec.hand(errs.bot.shoupai.to_string())
    absent = next(t for t in ("1z", "2z", "3z", "4z", "5z", "6z", "7z") if t not in hand)
    reasked = asked
    # (line, error code, whether the question is asked again: only for a wrong answer to it)
    for text, code, again in (("abc", "Malformed", False), (f"{asked - 1} sutehai 1m", "WrongSerial", False),
                              (f"{asked + 7} no", "WrongSerial", False),
                              (f"{asked} sutehai 1m \u00e9", "Malformed", False),
                              (f"{asked} frobnicate", "UnexpectedReply", True),
                              (f"{asked} ron", "UnexpectedReply", True), (f"{asked} sutehai 0m", "BadTile", True),
                              (f"{asked} sutehai {absent}", "IllegalReply", True),
                              (f"{asked} chi 1m2m", "UnexpectedReply", True)):
        if again:
            text = text.replace(f"{asked} ", f"{reasked} ", 1)
        errs.writer.write(text.encode("utf-8") + b"\r\n")  # UTF-8: the non-ASCII line goes out as is
        answer = await errs.line()
        assert command(answer)[1] == "error" and command(answer)[2][0] == code, (text, answer)
        if again:  # the question stands, asked again under a new serial
            question = await errs.line()
            assert command(question)[1] == "sutehai?", question
            reasked = command(question)[0]
        assert database.game(game_id)[0] == before, text
    # A flood: refused past the link's allowance, and still nothing moves.
    for _ in range(400):
        errs.writer.write(f"{asked - 1} no\r\n".encode())
    await errs.writer.drain()
    codes = set()
    for _ in range(400):
        answer = await errs.line()
        codes.add(command(answer)[2][0])
    assert codes == {"WrongSerial", "RateLimited"}, codes
    assert database.game(game_id)[0] == before
    await errs.close()
    await other
    assert any(command(t)[1] == "gameend" for t in solo.lines)  # the other table played on, untouched
    assert not [t for t in solo.lines if command(t)[1] == "error"]
    await solo.close()


def test_bad_input_gets_the_documented_answer_and_changes_nothing(site):
    """Malformed lines, unknown commands, wrong serials, illegal and unexpected answers, NUL bytes,
    non-ASCII, an over-long line and a flood, before and after the log-in: each gets its ``error``
    (docs/protocols/ump.md), the game waits on its question unmoved, and another table plays on."""
    asyncio.run(bad_input(site.served, site.setup, site.database))


def test_a_killed_server_restarts_and_the_ump_bot_finishes_its_game(tmp_path):
    """``manage.py umpbot`` opens a table with three house bots; the server is killed (SIGKILL) in
    the middle of the game and started again on the same database and port; the bot reconnects
    by itself, takes its seat up again, and the game is played to its end with nothing lost."""
    with serve(tmp_path, SETUP, cribbage=False, ump=True, quiet=True) as first:
        tokens = json.loads(first.setup_output.strip().splitlines()[-1])
        database = Database(tmp_path / "db.sqlite3")
        log = (tmp_path / "umpbot.log").open("w")
        bot = subprocess.Popen([sys.executable, "manage.py", "umpbot", "127.0.0.1", str(first.ump_port),
                                "--user", "ann", "--token", tokens["ann"], "--bots", "3", "--preset", "tenhou-east",
                                "--retry", "60", "-v", "2"], cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(600):
                rows = database.rows("SELECT id FROM games_game WHERE status = 'active'")
                if rows and len(database.actions(rows[0][0])) >= 60:
                    break
                assert bot.poll() is None, (tmp_path / "umpbot.log").read_text()
                time.sleep(0.05)
            game_id = rows[0][0]
            first.process.kill()  # no shutdown of any kind
            first.process.wait(10)
            logged = database.actions(game_id)
            with serve(tmp_path, "import django", cribbage=False, ump=True, quiet=True, again=first) as second:
                assert bot.wait(120) == 0, (tmp_path / "umpbot.log").read_text()
                after = database.actions(game_id)
                assert database.game(game_id)[1] == "finished"
                assert after[:len(logged)] == logged  # nothing the first server stored was lost
                assert [a[0] for a in after] == list(range(1, len(after) + 1))  # one contiguous log
                replay_both_ways(second.http_port, tokens["ann"], game_id, tmp_path)
        finally:
            if bot.poll() is None:
                bot.kill()
            log.close()
    text = (tmp_path / "umpbot.log").read_text()
    assert text.count(" hello") >= 2  # it logged in again after the restart
    assert tokens["ann"] not in text  # its log shows every line, but never the token
