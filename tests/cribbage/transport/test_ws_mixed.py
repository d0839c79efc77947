"""A table shared by a JSON lobby client (the browser's protocol) and a CRIBBAGEBBER link: the
platform's lobby and game messages reach each in its own protocol, and a whole game is played."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.cribbage.transport.conftest import Driver, Truth, check_lines

pytestmark = pytest.mark.django_db(transaction=True)


class MixedDriver(Driver):
    def __init__(self, truth: Truth, link, json_client, json_seat: int) -> None:
        super().__init__(truth, [link])
        self.json_client, self.json_seat = json_client, json_seat

    async def step(self, seat: int, action: str, params: list[Any]) -> None:
        if seat != self.json_seat:
            await super().step(seat, action, params)
            return
        await self.json_client.send({"type": "DoGameAction", "game": self.truth.game_id, "action": action,
                                     "params": params})
        await self.json_client.expect("ActionApplied")
        self.steps += 1
        self.truth.apply(seat, action, params)


async def test_a_browser_user_and_a_protocol_client_play_one_game(clients, links, make_user):
    ann, bob = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob")]
    browser = await clients(ann)
    await browser.send({"type": "CreateGame", "game_type": "cribbage", "mode": 2})
    game_id = (await browser.expect("GameCreated"))["game"]
    link = await links(bob, game_id)
    assert await link.take(4) == ["WE:bob", "NP:2/", "UD:WAITING/0", "RE:"]
    joined = await browser.expect("UserJoinedGame")
    assert joined["username"] == "bob"
    await browser.send({"type": "Chat", "game": game_id, "text": "two\nlines"})
    assert await link.expect("ME:") == "ME:ann/two lines"
    await link.send("ME:hi ann")
    assert (await browser.expect("Chat", game=game_id, user=bob.id))["text"] == "hi ann"
    await browser.send({"type": "AcceptSetup", "game": game_id})
    assert await link.expect("YE:") == "YE:ann"
    await link.send("YE:")
    assert await link.expect("YE:") == "YE:bob"
    await browser.expect("GameStarted")
    assert (await link.expect("SE:")).startswith("SE:2;")
    truth = await database_sync_to_async(Truth)(game_id)
    ann_seat = next(seat for seat, name in truth.names.items() if name == "ann")
    await MixedDriver(truth, link, browser, ann_seat).play()
    check_lines(truth, link, 1 - ann_seat)
    assert not any(line.startswith(("WA:", "E:")) for line in link.lines)
    await browser.expect("GameInactive", game=game_id)
