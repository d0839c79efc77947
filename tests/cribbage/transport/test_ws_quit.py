"""Leaving a CRIBBAGEBBER table: the control client's ejections (EJ:), a quit during a game (the table
is PAUSED until the player comes back or the control client goes back to waiting with N:)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Action, Game
from tests.cribbage.transport.conftest import Driver, Truth, check_lines, host_table, open_table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_eject_while_waiting_and_during_a_game(links, make_user):
    ann, bob, cat, dan = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cat", "dan")]
    a = await links(ann)
    await a.send("NP:3/")
    await a.expect("UD:WAITING/2")
    game_id = await database_sync_to_async(host_table)(ann.id)
    b = await links(bob, game_id)
    c = await links(cat, game_id)
    await a.expect("RE:")
    await b.send("EJ:cat")
    assert await b.expect("WA:") == "WA:NOTCONTROL(only the control client may eject a player)"
    await a.send("EJ:ann")
    assert await a.expect("WA:") == "WA:BADEJECT(the control client quits (QU:) instead of ejecting itself)"
    await a.send("EJ:zed")
    assert await a.expect("WA:") == "WA:BADEJECT(zed is not at this table)"
    await a.send("EJ:cat")
    assert await c.expect("EJ:") == "EJ:cat"
    await c.wait_closed()
    for link in (a, b):
        assert [await link.expect("EJ:"), await link.expect("UD:")] == ["EJ:cat", "UD:WAITING/1"]
    d = await links(dan, game_id)
    for link in (a, b, d):
        await link.expect("RE:")
        await link.send("YE:")
    for link in (a, b, d):
        await link.expect("SE:")
    truth = await database_sync_to_async(Truth)(game_id)
    # During the game an ejected player forfeits: the server plays that seat from then on.
    await a.send("EJ:dan")
    assert await d.expect("FF:") == "FF:dan"
    assert await d.expect("EJ:") == "EJ:dan"
    await d.wait_closed()
    for link in (a, b):
        assert [await link.expect("FF:"), await link.expect("EJ:")] == ["FF:dan", "EJ:dan"]
    await a.send("EJ:dan")
    assert await a.expect("WA:") == "WA:BADEJECT(dan has already left the game)"
    # The game goes on: the server plays dan's seat (its moves flagged auto-played).
    driver = Driver(truth, [a, b], mirror=False)
    while driver.steps < 30:
        await driver.step(*driver.decide(await driver.current()))
    await driver.current()  # the log up to the last line the links can have seen
    dan_seat = next(seat for seat, name in truth.names.items() if name == "dan")
    assert await database_sync_to_async(Action.objects.filter(game_id=game_id, seat=dan_seat, auto=True).exists)()
    for seat, name in truth.names.items():
        if name != "dan":
            check_lines(truth, a if name == "ann" else b, seat)
    assert [x for x in b.lines if x.startswith("WA:")] == ["WA:NOTCONTROL(only the control client may eject a player)"]


async def test_quit_pauses_the_game_until_the_player_returns_or_the_control_client_restarts(links, make_user):
    table, game_id = await open_table(links, make_user, 3)
    a, b, c = table
    truth = await database_sync_to_async(Truth)(game_id)
    driver = Driver(truth, table)
    for _ in range(4):  # everyone lays away and the first card is played
        await driver.step(*driver.decide(await database_sync_to_async(truth.sync)()))
    await c.drain()
    await c.close()
    for link in (a, b):
        assert await link.expect("QU:") == "QU:cat"
    engine = await database_sync_to_async(truth.sync)()
    seat = engine.to_act()[0]
    waiting = driver.by_seat[seat] if driver.by_seat[seat] is not c else a
    await waiting.send("PL:1")
    assert await waiting.expect("WA:") == "WA: WRONGPHASE (PAUSED)"
    # The player comes back (to any address): welcomed, and told the whole game again.
    c2 = await links(await database_sync_to_async(lambda: c_user(game_id, "cat"))())
    assert await c2.expect("WE:") == "WE:cat"
    first_se = next(i for i, line in enumerate(c.lines) if line.startswith("SE:"))
    await c2.take(len(c.lines) - first_se)
    assert c2.lines[2:] == c.lines[first_se:]
    for link in (a, b):
        assert await link.expect("WE:") == "WE:cat"
    driver = Driver(truth, [a, b, c2])
    for _ in range(3):
        await driver.step(*driver.decide(await database_sync_to_async(truth.sync)()))
    check_lines(truth, c2, next(s for s, n in truth.names.items() if n == "cat"))
    # Quitting on purpose: the link hears its own QU: and closes.
    await c2.send("QU:")
    assert await c2.expect("QU:") == "QU:cat"
    await c2.wait_closed()
    for link in (a, b):
        assert await link.expect("QU:") == "QU:cat"
    await b.send("N:")
    assert await b.expect("WA:") == "WA:NOTCONTROL(only the control client may go back to waiting)"
    await a.send("N:")
    for link, welcome in ((a, "CO:ann"), (b, "WE:bob")):
        assert [await link.expect("N:"), await link.expect(welcome[:3]), await link.expect("NP:")] == [
            "N:ann", welcome, "NP:3/"]
    await a.expect("UD:WAITING/1")
    await b.expect("UD:WAITING/1")
    assert (await database_sync_to_async(Game.objects.get)(id=game_id)).status == "aborted"
    # The abandoned game is over; the player who left finds the new table waiting for one more.
    cat = await database_sync_to_async(lambda: c_user(game_id, "cat"))()
    late = await links(cat, game_id, im=False)
    assert await late.line() == "E:GAME"
    back = await links(cat)
    assert await back.expect("WE:") == "WE:cat"
    for link in (a, b, back):
        await link.expect("RE:")


async def test_anyone_may_go_back_to_waiting_when_the_control_client_has_quit(links, make_user):
    table, game_id = await open_table(links, make_user, 2)
    a, b = table
    await b.send("N:")
    assert await b.expect("WA:") == "WA: WRONGPHASE (HAND SETUP)"
    await a.close()
    assert await b.expect("QU:") == "QU:ann"
    await b.send("N:")
    assert [await b.expect("N:"), await b.expect("CO:"), await b.expect("NP:"), await b.expect("UD:")] == [
        "N:bob", "CO:bob", "NP:2/", "UD:WAITING/1"]


def c_user(game_id: int, name: str):
    return Game.objects.get(id=game_id).seats.get(user__username=name).user


async def test_control_passes_on_when_the_control_client_quits_while_waiting(links, make_user):
    ann, bob, cat = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cat")]
    a = await links(ann)
    await a.send("NP:3/")
    await a.expect("UD:WAITING/2")
    game_id = await database_sync_to_async(host_table)(ann.id)
    b = await links(bob, game_id)
    await b.expect("UD:WAITING/1")
    await a.send("QU:")
    assert await a.expect("QU:") == "QU:ann"
    await a.wait_closed()
    assert [await b.expect("QU:"), await b.expect("CO:"), await b.expect("UD:")] == [
        "QU:ann", "CO:bob", "UD:WAITING/2"]
    await b.send("NP:2/N")
    assert [await b.expect("NP:"), await b.expect("UD:")] == ["NP:2/N", "UD:WAITING/1"]
    c = await links(cat)
    assert await c.take(4) == ["WE:cat", "NP:2/N", "UD:WAITING/0", "RE:"]


async def test_an_aborted_game_ends_the_links(links, make_user):
    from games.service import lifecycle

    table, game_id = await open_table(links, make_user, 2)
    await database_sync_to_async(lifecycle.abort)(game_id)
    for link in table:
        assert await link.expect("E:") == "E:ABORTED"
        await link.wait_closed()
