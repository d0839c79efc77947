"""The mmj path (seed 000, docs/protocols/mmj.md): what one action costs over it, and whether that
cost stays flat as a game goes on and as tables are added.

    .venv/bin/python bench/mmj.py [--games 1] [--tables 10] [--warmup 1] [--seed 0]

The server, the two runs and every figure are explained in ``bench/line_bench.py``, shared with
``bench/ump.py``; this is what is mmj's.

Per table, one mmj terminal (``tests/riichi/transport/mmj_peer.py``'s ``Peer`` with the reference
``games.riichi.clients.mmj_terminal.Terminal(bot=True, seed=...)``, a new seed each game). An mmj login
has no bots option, so each game's table is readied over REST first, as a player readies one for
a terminal (``mmj_peer.table_with_bots``: ``POST /api/games/`` with preset ``tenhou-east``, then
``POST /api/games/<id>/add-bot/`` three times, made in a thread so the other tables' terminals
are not held up), and the terminal logs in with NAME ``user/token/<game id>``; the game starts as
it sits down. The server closes the link after the last hand's ``ack``, so each game is a new
table and a new link (the same user).

The round trip is timed for the questions the server waits on: ``play``, ``claim`` (asked after
every discard, even when all the terminal can do is pass, so they are most of the questions) and
``ack`` (the next hand starts when every mmj seat has acked): from writing the answer until the
next message arrives (the moment the read that carried it returned). A question the terminal
answers nothing to is not timed; a question asked again after a ``reject`` is a new question, and
the round trip of the refused answer ends at the ``reject``. Rejects are normal here: the terminal
cannot know furiten, the scores or every yaku condition, so it tries and falls back
(docs/protocols/mmj.md); they are counted (``rejects``) and the first few shown. The figures also
count the questions left unanswered (``questions_unanswered``) and the answers whose next message
had already been read before the answer was written, so have no round trip
(``next_message_read_before_answer``); both should be 0. There is no third-party mmj server or
terminal to run against the same load, so there is no peer ratio.

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial

import line_bench
from line_bench import LINE_TIMEOUT_SECONDS, Bench, Game

from games.riichi.clients.mmj_terminal import Terminal
from games.riichi.protocols import mmj
from tests.riichi.transport.mmj_peer import Peer, table_with_bots

PREFIX = "bench-mmj-"
# The questions the server waits on, by message type; timed under their keywords.
QUESTION_TYPES = (mmj.Play, mmj.ClaimOffer, mmj.AckRequest)
QUESTIONS = tuple(kind.KEYWORD for kind in QUESTION_TYPES)


class Arrivals:
    """A link's stream reader that notes when its last read returned: a message's arrival is that
    of the bytes that carried it (one read may carry several messages)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader
        self.at = 0.0

    async def read(self, n: int) -> bytes:
        data = await self.reader.read(n)
        self.at = time.perf_counter()
        return data


async def play_game(http_port: int, mmj_port: int, name: str, token: str, seed: int) -> Game:
    """A table of one's own with three house bots, readied over REST; one link to it, answering
    every question with the terminal's bot until the server closes the link."""
    game_id = await asyncio.to_thread(table_with_bots, http_port, token)
    peer = Peer(name, token, game_id, Terminal(bot=True, seed=seed))
    game = Game(game_id=game_id)
    game.counts.update(rejects=0, questions_unanswered=0, next_message_read_before_answer=0)
    await peer.connect(mmj_port)  # and log in
    assert peer.reader is not None
    arrivals = peer.reader = Arrivals(peer.reader)  # type: ignore[assignment]
    try:
        asked: tuple[str, float] | None = None  # the question last answered and when
        started = False  # ``game`` received
        last_question: str | None = None
        while (message := await peer.message(LINE_TIMEOUT_SECONDS)) is not None:
            if asked is not None:
                if arrivals.at >= asked[1]:
                    game.trips.append((asked[0], arrivals.at - asked[1]))
                else:  # read before the answer went out: the answer did not bring it
                    game.counts["next_message_read_before_answer"] += 1
                asked = None
            game.lines += 1
            if isinstance(message, mmj.Game):
                started = True
            elif isinstance(message, mmj.Reject):
                game.counts["rejects"] += 1
                game.errors.append(f"reject {message.explanation.decode('utf-8', 'replace')}")
            answers = peer.terminal.feed(message)
            for answer in answers:
                await peer.send(answer)
            if isinstance(message, QUESTION_TYPES):
                last_question = message.KEYWORD
                if answers:
                    # Taken after the write is handed to the socket: the round trip is the
                    # server's answer time, not this terminal's decision.
                    asked = (message.KEYWORD, time.perf_counter())
                else:
                    game.counts["questions_unanswered"] += 1
        # The close after the last ``ack`` is not a message: that question has no round trip.
        game.ended = started and last_question == "ack"
    finally:
        await peer.close()
    return game


BENCH = Bench(protocol="mmj", doc=__doc__, prefix=PREFIX, questions=QUESTIONS, transport={"mmj": True},
              player=lambda served: partial(play_game, served.http_port, served.mmj_port),
              client="one mmj terminal (the reference Terminal, bot mode; table readied over REST)",
              errors="rejects (the terminal's tries refused; normal)",
              ended="closed by the server after the last ack",
              notes={"client": "games.riichi.clients.mmj_terminal.Terminal(bot=True), one per table",
                     "table": "readied over REST (POST /api/games/, add-bot x3), joined as user/token/<game id>"})

if __name__ == "__main__":
    line_bench.main(BENCH)
