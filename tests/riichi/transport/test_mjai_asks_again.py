"""The mjai link asks a question again after a refused answer only while the question stands, as
the seat link decides (``SeatLink.reply``: a doubled or late reply must not make a question go out
twice). A question sent twice would put one event twice into the client's stream."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from games.core import limits
from games.riichi.protocols import mjai_seat as codec
from games.riichi.transport.mjai_consumer import MjaiConsumer, Outgoing

QUESTION = {"type": "dahai", "actor": 2, "pai": "3m", "tsumogiri": False}
NEXT = {"type": "tsumo", "actor": 3, "pai": "?"}


class View:
    """The codec's part: the answer checks out and becomes a seed 001 reply."""

    def reply(self, action: dict[str, Any], ask: codec.Ask | None) -> dict[str, Any]:
        return {"type": "fulou", "data": "m1-23"}


class Seat:
    """The seat link's part: the service refuses the reply; the link asks again only if told to."""

    def __init__(self, link: MjaiConsumer, stands: bool) -> None:
        self.link, self.stands, self.replies = link, stands, []

    async def reply(self, message: dict[str, Any]) -> None:
        self.replies.append(message)
        await self.link.refused("IllegalAction", "that call is not allowed now", message["seq"])
        if self.stands:
            await self.link.frames([{"type": "dapai", "data": {"l": 2, "p": "m3"}, "seq": message["seq"]}], None)


def link_waiting(stands: bool) -> tuple[MjaiConsumer, list[dict[str, Any]], Seat]:
    link = MjaiConsumer.__new__(MjaiConsumer)
    sent: list[dict[str, Any]] = []

    async def say(event: dict[str, Any]) -> None:
        sent.append(event)

    link.say = say  # type: ignore[method-assign]
    link.view = View()  # type: ignore[assignment]
    link.outbox = deque([Outgoing(NEXT)])
    link.waiting = Outgoing(QUESTION, codec.Ask("call", QUESTION, [], []), seq=41)
    link.asked_seq, link.refusal, link.asked_again, link.closing = 41, None, False, False
    link.allowance = limits.Bucket()
    link.seat = Seat(link, stands)  # type: ignore[assignment]
    return link, sent, link.seat


@pytest.mark.parametrize("stands", [True, False])
async def test_a_refused_answer_is_asked_again_only_while_its_question_stands(stands):
    link, sent, seat = link_waiting(stands)
    await link.answer({"type": "chi", "actor": 3, "target": 2, "pai": "3m", "consumed": ["1m", "2m"]})
    assert seat.replies == [{"type": "fulou", "data": "m1-23", "seq": 41}]
    assert sent[0] == codec.error_event("IllegalAction: that call is not allowed now")
    if stands:
        assert sent[1:] == [QUESTION]  # once more, and nothing after it until it is answered
        assert link.waiting is not None and link.waiting.event is QUESTION
    else:
        assert sent[1:] == [NEXT]  # the game moved on: the answer was the question's, the stream goes on
        assert QUESTION not in sent
