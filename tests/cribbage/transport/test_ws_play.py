"""CRIBBAGEBBER during a game: wrong-phase commands, refused moves, a pause by a user, the end of
the game, and a new game from the ENDGAME phase (``N:``), over real WebSockets."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from tests.cribbage.transport.conftest import Driver, Truth, check_lines, open_table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_wrong_phase_bad_moves_pause_and_a_new_game(links, make_user):
    table, game_id = await open_table(links, make_user, 2)
    a, b = table
    truth = await database_sync_to_async(Truth)(game_id)
    driver = Driver(truth, table)
    engine = await database_sync_to_async(truth.sync)()
    while engine.view(None)["phase"] == "discard":
        await driver.step(*driver.decide(engine))
        engine = await database_sync_to_async(truth.sync)()
    view = engine.view(None)
    active, other = driver.by_seat[view["active"]], driver.by_seat[1 - view["active"]]
    assert active is b  # the control client deals first; the play starts on its left
    for link, line, answer in [
        (other, "PL:1", "WA: WRONGPHASE (PLAY-INACTIVE)"),
        (active, "CR:1", "WA: WRONGPHASE (PLAY-ACTIVE)"),
        (active, "CN:5", "WA: WRONGPHASE (PLAY-ACTIVE)"),
        (active, "NO:", "WA: WRONGPHASE (PLAY-ACTIVE)"),
        (active, "UP:", "WA: WRONGPHASE (PLAY-ACTIVE)"),
        (other, "AG:", "WA:BADAGREE(there is no claim to agree to)"),
        (other, "MU:bob/3", "WA:BADMUGGINS(there is no open claim by bob)"),
        (other, "MU:3", "WA:BADMUGGINS(there is no claim of the other side to call muggins on)"),
        (active, "NP:2/", "WA: WRONGPHASE (PLAY-ACTIVE)"),
    ]:
        await link.send(line)
        assert await link.expect("WA:") == answer, line
    # A card laid away is no longer in the hand; a number beyond the hand is no card at all.
    discarded = int(active.last("DI:")[3])
    await active.send(f"PL:{discarded}")
    assert (await active.expect("WA:")).startswith("WA:BADPLAY(") and "is not in your hand" in active.lines[-1]
    sixth = active.last("SE:").split(";")[2][15:]  # the sixth card as dealt, e.g. "6KS"
    await active.send("PL:6" + ("AH" if sixth != "6AH" else "KS"))
    assert await active.expect("WA:") == f"WA:BADPLAY(card 6 is {sixth}, not 6{'AH' if sixth != '6AH' else 'KS'})"
    # A pause by a user (any player, at any time of the play): everyone is told, and the game waits
    # until any player unpauses it.
    await other.send("PA:")
    for link in table:
        assert await link.expect("PA:") == f"PA:{other.name}"
    for link, line in ((other, "PL:1"), (active, "PL:1"), (other, "PA:")):
        await link.send(line)
        assert await link.expect("WA:") == "WA: WRONGPHASE (USERPAUSED)", line
    await active.send("UP:")
    for link in table:
        assert await link.expect("UP:") == f"UP:{active.name}"
    await active.send("UP:")
    assert await active.expect("WA:") == "WA: WRONGPHASE (PLAY-ACTIVE)"
    await database_sync_to_async(truth.sync)()  # the pause and unpause, sent outside the driver
    await driver.play()
    for seat, link in driver.by_seat.items():
        check_lines(truth, link, seat)
    # ENDGAME: moves are out of phase; the control client may start a new game for everyone here.
    await b.send("PL:1")
    assert await b.expect("WA:") == "WA: WRONGPHASE (ENDGAME)"
    await b.send("N:")
    assert await b.expect("WA:") == "WA:NOTCONTROL(only the control client may go back to waiting)"
    await a.send("N:")
    assert await a.expect("N:") == "N:ann"
    assert await a.expect("CO:") == "CO:ann"
    assert await a.expect("NP:") == "NP:2/"
    assert await b.expect("N:") == "N:ann"
    assert await b.expect("WE:") == "WE:bob"
    for link in table:
        await link.expect("RE:")
        await link.send("YE:")
    for link in table:
        await link.expect("SE:")
    new_id = await database_sync_to_async(lambda: Game.objects.filter(status="active").get().id)()
    assert new_id != game_id
    assert (await database_sync_to_async(Game.objects.get)(id=game_id)).status == "finished"
