"""CRIBBAGEBBER's introductory and waiting phases, the ready check, wrong-phase commands, chat,
breaches, and who may connect where, over real WebSockets on the full ASGI app."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from accounts.tokens import token_for
from games.models import Game
from tests.cribbage.transport.conftest import host_table, open_table
from tests.cribbage.transport.peer import LineClient

pytestmark = pytest.mark.django_db(transaction=True)


async def test_introduction_waiting_and_ready_check(links, make_user):
    ann, bob, cat = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cat")]
    a = await links(ann, im=False)
    assert await a.line() == "P:0.1/DNM"
    await a.send("NP:2/")
    assert await a.line() == "WA: WRONGPHASE (INTRODUCTORY)"
    await a.send("IM:bob")
    assert await a.line() == "WA:BADNICK(you are logged in as ann)"
    await a.send("IM:ann")
    assert await a.take(3) == ["CO:ann", "NP:2/", "UD:WAITING/1"]
    # Without a table address a link joins the oldest table being set up that has a free seat.
    b = await links(bob)
    assert await b.take(4) == ["WE:bob", "NP:2/", "UD:WAITING/0", "RE:"]
    assert await a.take(3) == ["WE:bob", "UD:WAITING/0", "RE:"]
    await b.send("NP:3/")
    assert await b.line() == "WA:NOTCONTROL(only the control client sets the number of players and the variants)"
    await a.send("NP:3/DM")
    assert await a.take(2) == ["NP:3/DM", "UD:WAITING/1"]
    assert await b.take(2) == ["NP:3/DM", "UD:WAITING/1"]
    await b.send("YE:")
    assert (await b.line()).startswith("WA:BADREADY(")
    await a.send("NP:5")
    assert (await a.line()).startswith("WA:BADNP(")
    await a.send("NP:3/DN")
    assert await a.line() == "WA:BADNP(D (deduct for a failed muggins) and N (no muggins points) exclude each other)"
    await a.send("NP:3/DM")  # the same setting again changes nothing, and says so
    assert await a.line() == "NP:3/DM"
    c = await links(cat)
    assert await c.take(4) == ["WE:cat", "NP:3/DM", "UD:WAITING/0", "RE:"]
    for link in (a, b):
        assert await link.take(3) == ["WE:cat", "UD:WAITING/0", "RE:"]
    await a.send("YE:")
    for link in (a, b, c):
        assert await link.line() == "YE:ann"
    await a.send("YE:")
    assert (await a.line()).startswith("WA:BADREADY(")
    # A change resets every acceptance: the ready check starts over.
    await a.send("NP:3/M")
    for link in (a, b, c):
        assert await link.take(2) == ["NP:3/M", "RE:"]
    await a.send("NP:2")
    assert await a.line() == "WA:BADNP(Two players seats 2, but 3 users are here)"
    for link in (a, b, c):
        await link.send("YE:")
    for link in (a, b, c):
        se = await link.expect("SE:")
        _, players, cards, dealer = se.split(";")
        assert se.startswith("SE:1;") and players == "ann/bob/cat" and dealer == "ann" and len(cards) == 15
    # Commands of other phases are refused with the phase the link is in; the link stays.
    for line in ("NP:3/", "PL:1", "YE:", "AG:", "NO:", "UP:", "CN:3", "IM:bob"):
        await b.send(line)
        assert await b.expect("WA:") == "WA: WRONGPHASE (HAND SETUP)", line
    await b.send("CR:12")
    assert await b.expect("WA:") == "WA:BADCRIB(discard takes a list of 1 card)"
    await b.send("CR:1")
    assert await b.expect("DI:") == "DI:1"
    await b.send("CR:2")
    assert await b.expect("WA:") == "WA:BADCRIB(you have already laid away your cards)"
    assert await a.expect("UD:") == "UD:bob"
    game = await database_sync_to_async(Game.objects.get)(id=await database_sync_to_async(lambda: Game.objects.get(
        host=ann).id)())
    assert game.rules == {"counting": "manual", "variants": ""} and game.mode == 3


async def test_chat_and_breaches(links, make_user):
    ann, bob = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob")]
    a = await links(ann)
    await a.expect("UD:WAITING/1")
    b = await links(bob)
    await b.expect("RE:")
    await a.expect("RE:")
    await a.send("ME:hello / there")
    assert await a.expect("ME:") == "ME:ann/hello / there"
    assert await b.expect("ME:") == "ME:ann/hello / there"
    await b.send("ME:" + "x" * 500)
    assert await a.expect("ME:") == "ME:bob/" + "x" * 500
    await b.send("ME:" + "x" * 501)
    assert await b.expect("WA:") == "WA:BADMSG(at most 500 characters)"
    await b.send("ME:")
    assert await b.expect("WA:") == "WA:BADMSG(a chat message needs some text)"
    # Two malformed lines are mistakes; a good line in between forgives them.
    for line, answer in [
        ("HELLO", "WA:BADCMD(a line is <command>:<arguments>)"),
        ("CR:9", "WA:BADCMD(cards are given by their numbers (1-6), optionally as <n><rank><suit>)"),
        ("ME:still here", "ME:bob/still here"),
        ("XX:", "WA:BADCMD(unknown command 'XX')"),
        ("YE:now", "WA:BADCMD(YE: takes no arguments)"),
    ]:
        await b.send(line)
        assert await b.expect(answer[:3]) == answer
    # ... a third in a row is an egregious breach.
    await b.send("??")
    assert await b.expect("E:") == "E: You Brute!"
    await b.wait_closed()
    # The brute's seat was its link: it has left the table.
    assert [await a.expect("QU:"), await a.expect("UD:")] == ["QU:bob", "UD:WAITING/1"]
    b2 = await links(bob)
    await b2.expect("RE:")
    await b2.send("ME:nul\x00here")
    assert await b2.expect("E:") == "E: You Brute!"
    await b2.wait_closed()
    b3 = await links(bob)
    await b3.expect("RE:")
    await b3.comm.send_to(bytes_data=b"AG:")
    assert await b3.expect("E:") == "E: You Brute!"
    await b3.wait_closed()
    b4 = await links(bob)
    await b4.expect("RE:")
    await b4.send("ME:" + "\u00e9" * 2100)  # over the line limit, whatever it says
    assert await b4.expect("E:") == "E: You Brute!"
    await b4.wait_closed()
    assert not any(line.startswith("E:") for line in a.lines)


async def test_who_may_connect(links, make_user):
    ann, bob, cat, dan = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cat", "dan")]
    table, game_id = await open_table(links, make_user, 2, names="eve fay")
    # A running game: an outsider is told so and the link closes (the seed's "E:GAME").
    outsider = await links(ann, game_id, im=False)
    assert await outsider.line() == "E:GAME"
    await outsider.wait_closed()
    unknown = await links(ann, 987654, im=False)
    assert await unknown.line() == "E:GAME"
    # A full table waiting for its ready check.
    b = await links(bob)
    await b.expect("UD:WAITING/1")
    c = await links(cat, await database_sync_to_async(host_table)(bob.id))
    await c.expect("RE:")
    full = await links(dan, await database_sync_to_async(host_table)(bob.id), im=False)
    assert await full.line() == "E:FULL"
    await full.wait_closed()
    # No token, no browser session: IM must carry the API token.
    anonymous = await links(dan, token=False, im=False)
    assert await anonymous.line() == "P:0.1/DNM"
    await anonymous.send("IM:dan")
    assert await anonymous.line() == "E:LOGIN"
    await anonymous.wait_closed()
    with_token = await links(dan, token=False, im=False)
    await with_token.line()
    await with_token.send(f"IM:dan/{await database_sync_to_async(token_for)(dan)}")
    assert await with_token.line() == "CO:dan"
    await with_token.close()
    # A browser's session counts only with an Origin of this site; without Origin cookies are ignored.
    http = HttpClient()
    await database_sync_to_async(http.force_login)(ann)
    cookie = (b"cookie", f"sessionid={http.cookies['sessionid'].value}".encode())
    browser = LineClient(headers=[cookie, (b"host", b"testserver"), (b"origin", b"http://testserver")], name="ann")
    await browser.connect()
    assert await browser.line() == "P:0.1/DNM"
    await browser.send("IM:ann")
    assert await browser.line() == "CO:ann"
    await browser.close()
    program = LineClient(headers=[cookie], name="ann")
    await program.connect()
    await program.line()
    await program.send("IM:ann")
    assert await program.line() == "E:LOGIN"
    await program.close()
    foreign = LineClient(headers=[cookie, (b"host", b"testserver"), (b"origin", b"http://evil.example")], name="ann")
    connected, _ = await foreign.comm.connect()
    assert not connected
    for link in table:
        assert not any(line.startswith(("WA:", "E:")) for line in link.lines)
