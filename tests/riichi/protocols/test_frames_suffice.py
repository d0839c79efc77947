"""The frames are enough to play: four players that know only their own frames (``FramePlayer``)
play whole games on the engine, each asked exactly when the platform waits for its seat (the last
frame of an action's messages, as the transport marks it), and at every question the actions a
player works out for itself are exactly the engine's ``legal_actions``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.engine.table import RiichiGame
from games.riichi.protocols import majiang as codec
from tests.riichi.transport.played import kan_lover
from tests.riichi.transport.player import FramePlayer


def allowed(legal: list[dict[str, Any]]) -> list[tuple[str, tuple[Any, ...]]]:
    return sorted((a["type"], tuple(a["params"])) for a in legal if a.get("allowed", True))


class Checked(FramePlayer):
    """A FramePlayer whose every list of actions is compared with the engine's."""

    def __init__(self, seed: int, engine: RiichiGame, seat: int) -> None:
        super().__init__(seed)
        self.engine, self.seat, self.questions = engine, seat, 0

    def _legal(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        mine = super()._legal(frame)
        assert allowed(mine) == allowed(self.engine.legal_actions(self.seat)), frame
        self.questions += 1
        return mine


@pytest.mark.parametrize(("seed", "rules", "kans"), [
    (1, {"preset": "east"}, False),
    (2, {"preset": "tenhou-east"}, False),
    (3, {"preset": "east", "ノーテン宣言あり": True}, True),
    (4, {"preset": "east", "カンドラ後乗せ": False, "喰い替え許可レベル": 1}, True),
])
def test_players_that_know_only_their_frames_play_whole_games(seed, rules, kans):
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules=rules)
    streams = [codec.SeatStream(seat) for seat in range(4)]
    players = [Checked(seed * 4 + seat, engine, seat) for seat in range(4)]
    replies: list[dict[str, Any] | None] = [None] * 4
    count = itertools.count(1)

    def deliver(events) -> None:
        waiting = engine.to_act()
        seq = next(count)  # a question's seq: any number that grows will do
        for seat in range(4):
            frames = streams[seat].frames([e.render(seat) for e in events])
            if frames and seat in waiting:
                frames[-1] = streams[seat].question(frames[-1], seq).frame()
            for frame in frames:
                reply = players[seat].on_frame(frame)
                if reply is not None:
                    replies[seat] = reply

    for seat, action, params in engine.initial_actions():
        deliver(engine.apply(seat, action, params))
    while not engine.is_over:
        seat = engine.to_act()[0]
        reply, replies[seat] = replies[seat], None
        assert reply is not None, f"seat {seat} was asked nothing, yet the game waits for it"
        if kans and reply["type"] in ("", "dapai"):
            # Kans and calls as often as allowed, to check those questions too.
            action, params = kan_lover(engine.view(seat), engine.legal_actions(seat), players[seat].rng)
            if action in ("gang", "fulou"):
                reply = {"type": action, "data": params[0], "seq": reply["seq"]}
        decoded = codec.decode_reply(reply, None)
        deliver(engine.apply(seat, decoded.action, decoded.params))
    assert all(p.jieju is not None and p.jieju["defen"] == engine.paifu["defen"] for p in players)
    assert all(p.questions > 100 for p in players)
