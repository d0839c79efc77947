"""mmj (seed 000) against the server `make run` starts (``manage.py serve``: one process, real TCP
sockets, a SQLite file): four mmj terminals play whole games, an mmj terminal shares a table with
a UMP client, a native seed 001 client and a house bot, every byte every terminal was sent is
checked against the true game for hidden tiles, and bad input is refused without changing a
thing. docs/protocols/mmj.md."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.clients.mmj_terminal import Terminal
from games.riichi.engine.game import DAPAI, FULOU, GANG, GANGZIMO, HULE, PINGJU, ZIMO
from games.riichi.engine.table import RiichiGame
from games.riichi.protocols import mmj
from games.riichi.protocols.ump import suited
from tests.riichi.protocols.test_mmj_seat import expected_picture, terminal_picture
from tests.riichi.reference.corpus import REPO
from tests.riichi.transport.link import Database, Link, api, play
from tests.riichi.transport.mmj_peer import Peer, table_with_bots
from tests.riichi.transport.player import FramePlayer
from tests.riichi.transport.test_sio_served import replay_both_ways
from tests.riichi.transport.test_ump_served import peer as ump_peer
from tests.served import SiteSpec

# Its server is a child on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server

NAMES = ("ann", "ben", "cat", "dan", "nat", "uma", "mo", "errs", "solo", "nova")
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


# The module's server (the `site` fixture, tests/conftest.py).
SITE = SiteSpec(SETUP, name="mmj", ump=True, mmj=True, node=True)


def plain(p: str) -> str:
    return mmj.majiang_to_mmj(p[:2]).code


def consistent(peer: Peer, message: mmj.ServerMessage) -> None:
    """After every message: the terminal's 19 places hold the 136 tiles once the wall is built,
    and whenever it is asked to play, its hand is a hand of 14 (melds counted as three)."""
    places = peer.terminal.places
    assert places.total == 136
    if isinstance(message, mmj.Play):
        me = peer.terminal.you
        melds = [places[m] for m in places.melds(me)]
        assert places.count(f"h{me}") + 3 * len(melds) == 14, peer.terminal.render()
        assert not any(t.hidden for t in places[f"h{me}"])


class Pictures:
    """A watch on a terminal: its picture of the places (``test_mmj_seat.terminal_picture``) at
    every question it is asked (a question asked again after a reject is the same question), with
    the hands and ura indicators its moves revealed so far in the hand."""

    def __init__(self) -> None:
        self.taken: list[tuple[str, dict[str, Counter[str]], dict[int, list[str]], int]] = []
        self.revealed: dict[int, list[str]] = {}
        self.ura = 0
        self.after_reject = False

    def __call__(self, peer: Peer, message: mmj.ServerMessage) -> None:
        if isinstance(message, mmj.NewHand):
            self.revealed, self.ura = {}, 0
        elif isinstance(message, mmj.Move) and message.src == message.dst and not message.tile.hidden:
            if message.src.kind == "h":
                self.revealed.setdefault(message.src.player, []).append(message.tile.code)
            elif message.src.kind == "a" and message.src.number % 2:
                self.ura += 1
        if isinstance(message, mmj.Play | mmj.ClaimOffer | mmj.AckRequest) and not self.after_reject:
            self.taken.append((message.KEYWORD, terminal_picture(peer.terminal.places),
                               {k: list(v) for k, v in self.revealed.items()}, self.ura))
        self.after_reject = isinstance(message, mmj.Reject)


def asked(engine: RiichiGame, seat: int) -> str | None:
    """The mmj question the game now puts to ``seat``, if any (docs/protocols/mmj.md)."""
    if seat not in engine.to_act():
        return None
    game = engine.game
    own = game.seat_of(seat) == game.lunban
    status = game.status
    if status in (ZIMO, GANGZIMO, FULOU):
        return "play" if own else None
    if status == DAPAI:
        return None if own else "claim"
    if status == GANG:
        robs = any(a["type"] == "hule" and a.get("allowed", True) for a in engine.legal_actions(seat))
        return "claim" if robs and not own else None
    return "ack" if status in (HULE, PINGJU) else None


def check_pictures(database: Database, game_id: int, watched: dict[str, Pictures]) -> int:
    """The game rebuilt from the server's own log (its seed, rules and every action, as the
    service rebuilds it) and, at every question each watched terminal was asked, that
    terminal's picture equals the engine's state as its seat may see it. Returns the number of
    pictures compared."""
    seed, rules = database.rows("SELECT seed, rules FROM games_game WHERE id = ?", game_id)[0]
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules=json.loads(rules))
    seats = {name: database.seat(game_id, name) for name in watched}
    taken = {name: iter(w.taken) for name, w in watched.items()}
    compared = 0
    for _, seat, kind, params, _, _ in database.actions(game_id):
        if not engine.apply(seat, kind, json.loads(params)):
            continue  # an answer the game still waits on others after: no new question
        for name in watched:
            question = asked(engine, seats[name])
            if question is None:
                continue
            got, picture, revealed, ura = next(taken[name])
            assert got == question, (name, got, question)
            assert picture == expected_picture(engine, seats[name], revealed, ura), (name, question)
            compared += 1
    for name in watched:
        assert next(taken[name], None) is None, name  # no question the game did not put
    return compared


def check_hidden(messages: list[mmj.ServerMessage], paifu: dict[str, Any]) -> int:
    """No tile of another player, or of the wall, in what a terminal was sent, except where the
    game shows it: its own deal and draws are the paifu's, every other is ``?``; another hand is
    revealed only by its win or its tenpai at a draw, an ura indicator only by a riichi win.
    Returns how many moves it checked."""
    me = next(m.you for m in messages if isinstance(m, mmj.Game))
    hands = paifu["log"]
    hand_no = -1
    checked = 0
    showing: set[int] = set()
    ura = False
    for m in messages:
        if isinstance(m, mmj.NewHand):
            hand_no += 1
            log = hands[hand_no]
            qipai = next(e["qipai"] for e in log if "qipai" in e)
            draws = iter([e.get("zimo") or e.get("gangzimo") for e in log if "zimo" in e or "gangzimo" in e])
            ends = iter([e for e in log if "hule" in e or "pingju" in e])
            mine = m.seat_winds[me - 1]
            l_of = {p + 1: mmj.WINDS.index(w) for p, w in enumerate(m.seat_winds)}
            dealt: list[str] = []
            showing, ura = set(), False
        elif isinstance(m, mmj.Win | mmj.Draw):
            end = next(ends)
            if isinstance(m, mmj.Win):
                assert l_of[m.winner] == end["hule"]["l"]
                showing = {m.winner}
                ura = bool(end["hule"].get("fubaopai"))
            else:
                showing = {p for p, seat in l_of.items() if end["pingju"]["shoupai"][seat]}
        elif isinstance(m, mmj.Move):
            checked += 1
            src, dst, tile = m.src, m.dst, m.tile
            if src.kind == "k" or (src.kind == "w" and dst.kind == "r"):
                assert tile.hidden, m  # building the wall, a kan's wall tile to the dead wall
            elif src.kind == "w" and src.number < 52:
                if dst.player == me:
                    dealt.append(tile.code)
                    if len(dealt) == 13:
                        assert Counter(dealt) == Counter(plain(p) for p in suited(qipai["shoupai"][
                            mmj.WINDS.index(mine)])), (dealt, qipai)
                else:
                    assert tile.hidden, m
            elif src.kind in "wr" and dst.kind == "h":
                draw = next(draws)
                assert l_of[dst.player] == draw["l"], (m, draw)
                assert (tile.code == plain(draw["p"])) if dst.player == me else tile.hidden, (m, draw)
            elif src == dst and src.kind == "h" and dst.player != me:
                assert tile.hidden or dst.player in showing, m
            elif src == dst and src.kind == "a" and src.number % 2:
                assert tile.hidden or ura, m
            elif src.kind == "h" and dst.kind == "m" and dst.player != me and tile.hidden:
                pass  # a concealed kan's two hidden tiles
            elif src.kind == "h" and dst.kind not in "dm" and src != dst:
                raise AssertionError(f"a tile out of a hand to {dst}: {m}")
    return checked


async def four_play(port: int, http_port: int, tokens: dict[str, str]) -> tuple[int, list[Peer]]:
    # ann readies an East-only table on the site, and her terminal, naming no game, takes it up
    # (the user's table being set up); the three others name it.
    game_id = table_with_bots(http_port, tokens["ann"], bots=0)
    first = Peer("ann", tokens["ann"], chat="良い勝負を / good game".encode())
    first.watch += [consistent, Pictures()]
    await first.connect(port)
    others = [Peer(name, tokens[name], game_id, Terminal(bot=True, greedy=True, seed=i))
              for i, name in enumerate(("ben", "cat", "dan"))]
    for other in others:
        other.watch += [consistent, Pictures()]
        await other.connect(port)
    peers = [first, *others]
    await asyncio.gather(*(p.play() for p in peers))
    for p in peers:
        await p.close()
    return game_id, peers


def test_four_mmj_terminals_play_a_whole_game(site, tmp_path):
    """ann's terminal takes up her table (no game in its name); three greedy terminals join it by
    number. The game is played to its end over TCP, every terminal's picture holds together after
    every message, its paifu replays through our engine and majiang-core, and no terminal ever
    saw a tile before the game showed it."""
    served, tokens, database = site.served, site.setup, site.database
    game_id, peers = asyncio.run(four_play(served.mmj_port, served.http_port, tokens))
    assert database.game(game_id)[1] == "finished"
    watched = {p.name: p.watch[1] for p in peers}
    assert check_pictures(database, game_id, watched) > 4 * 100
    paifu = replay_both_ways(served.http_port, tokens["ann"], game_id, tmp_path)
    assert paifu["rule"] == api(served.http_port, tokens["ann"], f"games/{game_id}/paifu/")["rule"]
    wins = sum(isinstance(m, mmj.Win) for m in peers[0].messages)
    assert wins == sum(1 for hand in paifu["log"] for e in hand if "hule" in e)
    for p in peers:
        assert mmj.decode(bytes(p.received), "client") == p.messages  # the bytes are the grammar's
        assert check_hidden(p.messages, paifu) > 500
        assert isinstance(p.messages[0], mmj.ServerHello) and isinstance(p.messages[1], mmj.Game)
        assert sum(isinstance(m, mmj.NewHand) for m in p.messages) == len(paifu["log"])
    # ann's chat line reached the three others, from ann's player ID, and not ann.
    ann = peers[0].messages[1].you
    for p in peers:
        heard = [m for m in p.messages if isinstance(m, mmj.ChatFrom)]
        expected = [] if p is peers[0] else [
            mmj.ChatFrom(ann, tuple(x for x in range(1, 5) if x not in (ann, p.messages[1].you)),
                         "良い勝負を / good game".encode())]
        assert heard == expected
    greedy = [m for p in peers[1:] for m in p.sent]
    assert any(isinstance(m, mmj.Claim) for m in greedy)  # the greedy ones called
    # The check catches a leak: another player's draw shown.
    me = peers[0].messages[1].you
    doctored = list(peers[0].messages)
    i = next(i for i, m in enumerate(doctored) if isinstance(m, mmj.Move) and m.src.kind == "w"
             and m.src.number >= 52 and m.dst.player != me)
    doctored[i] = mmj.Move(mmj.Tile("c1"), doctored[i].src, doctored[i].dst)
    with pytest.raises(AssertionError):
        check_hidden(doctored, paifu)


def test_an_mmj_terminal_a_ump_client_a_native_client_and_a_house_bot_share_a_table(site, tmp_path):
    """nat opens a table on /ws/majiang/ with one house bot; uma joins it over UMP and mo over mmj,
    both by its number. All play to the end and saw the same game."""
    served, tokens = site.served, site.setup

    async def scenario():
        native = await Link.open(served.http_port, tokens["nat"], "nat")
        await native.send({"type": "open", "rules": {"preset": "tenhou-east"}, "bots": 1})
        game_id = (await native.expect("table"))["game"]
        player = FramePlayer(5)
        native_play = asyncio.create_task(play(native, player))
        uma = ump_peer("uma", tokens["uma"], game=game_id)
        await uma.connect(served.ump_port)
        mo = Peer("mo", tokens["mo"], game_id)
        mo.watch.append(consistent)
        await mo.connect(served.mmj_port)
        await asyncio.gather(uma.play(), mo.play())
        end = await native_play
        for link in (native, uma, mo):
            await link.close()
        return game_id, player, mo, end

    game_id, player, mo, end = asyncio.run(scenario())
    assert end == {"type": "end", "game": game_id, "status": "finished"}
    theirs = [plain(f["data"]["p"]) for f in player.frames if f["type"] == "dapai"]
    ours = [m.tile.code for m in mo.messages if isinstance(m, mmj.Move) and m.dst.kind == "d"]
    assert ours == theirs and len(ours) > 20
    check_hidden(mo.messages, replay_both_ways(served.http_port, tokens["nat"], game_id, tmp_path))


async def refused(port: int, data: bytes, says: str) -> None:
    """Before (or at) the log-in: ``data`` gets a reject saying ``says``, and the link closes (a
    login naming a table that cannot be had too, with no ``mmj1s`` before the reject)."""
    p = Peer("errs", "")
    await p.connect(port, hello=False)
    await p.write(data)
    answer = await p.message()
    assert isinstance(answer, mmj.Reject) and says in answer.explanation.decode(), (data, answer)
    assert await p.message() is None
    await p.close()


async def bad_input(served, tokens, database) -> None:
    port = served.mmj_port
    token = tokens["errs"]
    for data, says in ((b"hello", "unknown_keyword"), (b"discard c1", "NotLoggedIn"),
                       (b"mmj1c 5:errs/", "BadName"), (b"mmj1c 10:errs/x/y/z", "BadName"),
                       (mmj.encode(mmj.ClientHello(f"errs/{'0' * 64}".encode())), "InvalidToken"),
                       (mmj.encode(mmj.ClientHello(f"errs/{token}/x".encode())), "BadName"),
                       (mmj.encode(mmj.ClientHello(f"nobody/{token}".encode())), "Invalid"),
                       (mmj.encode(mmj.ClientHello(f"errs/{token}/999999".encode())), "UnknownGame"),
                       (b"mmj1c 3:a\x00b", "nul"), (b"mmj1c 999999999:x", "count_too_long"),
                       (b"mmj1c 300:", "string_too_long"), (b"mmj1c 2:\xff\xfe", "not UTF-8")):
        await refused(port, data, says)

    # A user at no table who names none opens one (preset majiang, no bots), as a UMP link does.
    nova = Peer("nova", tokens["nova"])
    await nova.connect(port)
    await nova.until(mmj.ServerHello)
    for _ in range(100):
        opened = database.rows("SELECT g.id, g.rules FROM games_game g JOIN accounts_user u ON u.id = g.host_id "
                               "WHERE u.username = 'nova' AND g.status = 'setup' AND g.game_type = 'riichi'")
        if opened:
            break
        await asyncio.sleep(0.1)
    assert len(opened) == 1 and json.loads(opened[0][1]) == {}, opened
    await nova.close()

    # At a table, with a question open: each bad operation is refused and the game does not move.
    solo = Peer("solo", tokens["solo"], table_with_bots(served.http_port, tokens["solo"]))
    await solo.connect(port)  # another table, played meanwhile
    other = asyncio.create_task(solo.play())
    game_id = table_with_bots(served.http_port, token)
    errs = Peer("errs", token, game_id)
    await errs.connect(port)
    while True:  # up to this terminal's first play, which it leaves open
        message = await errs.message()
        answers = errs.terminal.feed(message)
        if isinstance(message, mmj.Play):
            break
        for answer in answers:
            await errs.send(answer)
    before = database.game(game_id)[0]
    me = errs.terminal.you
    hand = {t.code for t in errs.terminal.places[f"h{me}"]}
    absent = next(t for t in ("we", "ws", "ww", "wn", "dr", "dg", "dw") if t not in hand)
    for op, says in ((mmj.Discard(mmj.Tile(absent)), "not a tile you may discard"),
                     (mmj.Discard(mmj.UNKNOWN), "name the tile"), (mmj.Discard(mmj.Tile("f1")), "no such tile"),
                     (mmj.Pass(), "on play"), (mmj.Ron(), "on play"), (mmj.Ack(), "nothing to acknowledge"),
                     (mmj.Swap(mmj.Tile("c1")), "no swaps"), (mmj.Ckong(mmj.Tile(absent)), "no such kong"),
                     (mmj.Claim((mmj.Tile("c1"), mmj.Tile("c2"), mmj.UNKNOWN)), "on play"),
                     (mmj.ChatTo((2,), b"   "), "InvalidChat"), (mmj.ChatTo((2,), b"x" * 600), "ChatTooLong"),
                     (mmj.ClientHello(b"x"), "already logged in")):
        await errs.send(op)
        answer = await errs.message()
        assert isinstance(answer, mmj.Reject) and says in answer.explanation.decode(), (op, answer)
        if not isinstance(op, mmj.ChatTo):
            assert isinstance(await errs.message(), mmj.Play)  # the question stands, asked again
        assert database.game(game_id)[0] == before, op
    # A flood: refused past the link's allowance, and still nothing moves.
    await errs.write(mmj.encode(mmj.Pass()) * 400)
    rejects = 0
    while rejects < 400:
        message = await errs.message()
        if isinstance(message, mmj.Reject):
            rejects += 1
            if "too many" in message.explanation.decode():
                break
    assert database.game(game_id)[0] == before
    # Bytes the grammar refuses: a reject saying where, then the link closes.
    await errs.write(b"discard zz")
    while not isinstance(message := await errs.message(), mmj.Reject) or b"bad_tile" not in message.explanation:
        assert message is not None
    assert await errs.message() is None
    await errs.close()
    assert database.game(game_id)[0] == before
    other.cancel()
    await solo.close()


def test_bad_input_is_refused_and_changes_nothing(site):
    served, tokens, database = site.served, site.setup, site.database
    asyncio.run(bad_input(served, tokens, database))


def test_manage_py_mmjclient_plays_at_a_table_with_bots(site):
    """The reference terminal's command line, in bot mode, at a table with three house bots: it
    plays the game to its end and exits 0."""
    served, tokens, database = site.served, site.setup, site.database
    game_id = table_with_bots(served.http_port, tokens["mo"])
    done = subprocess.run([sys.executable, "manage.py", "mmjclient", "127.0.0.1", str(served.mmj_port),
                           "--user", "mo", "--token", tokens["mo"], "--game", str(game_id), "--bot", "--quiet"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert tokens["mo"] not in done.stdout + done.stderr
    assert database.game(game_id)[1] == "finished"
