"""The UMP path (seed 004, docs/protocols/ump.md): what one action costs over it, and whether that
cost stays flat as a game goes on and as tables are added.

    .venv/bin/python bench/ump.py [--games 1] [--tables 10] [--warmup 1] [--seed 0]

The server, the two runs and every figure are explained in ``bench/line_bench.py``, shared with
``bench/mmj.py``; this is what is UMP's.

Per table, one UMP client (``tests/riichi/transport/ump_peer.py``'s ``Peer``, deciding with
``games.riichi.clients.umpbot.UmpBot``, the house bot's judgement). Its hello carries ``_bots=3
_preset=tenhou-east``: the server opens a table of its own with three house bots in the other
seats and an East-only game, which starts as soon as the client sits down. The server closes the
link after ``gameend``, so each game is a new link (a new ``UmpBot``, a new table, the same user).

The round trip is timed for the questions the server waits on: ``sutehai?``, ``naki?``,
``tenpai?``; not ``hello``, nor ``ready?``, whose answer nothing waits for. A ``naki?`` answered
waits for the others asked too (the house bots) before the next line comes. There is no
third-party UMP server or client to run against the same load, so there is no peer ratio.

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import time
from functools import partial

import line_bench
from line_bench import LINE_TIMEOUT_SECONDS, PRESET, Bench, Game

from games.riichi.clients.umpbot import UmpBot
from tests.riichi.transport.ump_peer import Peer, command

PREFIX = "bench-ump-"
# The questions the server waits on. ``ready?`` is answered too but nothing waits for that answer
# (games/riichi/transport/ump_consumer.py): the next hand's lines are already on their way, so its "round
# trip" would be the time to read a buffered line (about 20 µs), not a decision's.
QUESTIONS = ("sutehai?", "naki?", "tenpai?")


async def play_game(port: int, name: str, token: str, seed: int) -> Game:
    """One link: log in asking for a table of one's own with three house bots, answer every
    question until the server closes the link after ``gameend``."""
    peer = Peer(UmpBot(name, name, token, seed=seed, options={"_bots": "3", "_preset": PRESET}))
    game = Game()
    await peer.connect(port)
    try:
        asked: tuple[str, float] | None = None  # the question last answered and when
        while (text := await peer.line(LINE_TIMEOUT_SECONDS)) is not None:
            arrived = time.perf_counter()
            if asked is not None:
                game.trips.append((asked[0], arrived - asked[1]))
                asked = None
            game.lines += 1
            _, kind, args = command(text)
            if kind == "seat":
                game.game_id = int(args[0].removeprefix("gameid="))
            elif kind == "error":
                game.errors.append(text)
            elif kind == "gameend":
                game.ended = True
            reply = peer.bot.handle(text)
            if reply is not None:
                await peer.send(reply)
                if kind in QUESTIONS:  # the questions the server waits on
                    # Taken after the write is handed to the socket: the round trip is the
                    # server's answer time, not this client's decision.
                    asked = (kind, time.perf_counter())
        # The close after the last answer is not a line: that question has no round trip.
    finally:
        await peer.close()
    return game


BENCH = Bench(protocol="UMP", doc=__doc__, prefix=PREFIX, questions=QUESTIONS, transport={"ump": True},
              player=lambda served: partial(play_game, served.ump_port), client="one UMP client",
              errors="error lines", ended="ended with gameend")

if __name__ == "__main__":
    line_bench.main(BENCH)
