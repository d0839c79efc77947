"""Pushes are encoded with orjson (games/service/push.py): clients must read exactly what ``json`` gave."""

from __future__ import annotations

import json
import random

from games.acquire.bots.house import choose
from games.acquire.engine.game import AcquireGame
from games.acquire.engine.modes import MODES
from games.service import push


def test_every_push_of_a_game_reads_as_json_would_write_it():
    game = AcquireGame.create(mode=MODES[4], seed=11, rules={})
    game.apply(*game.initial_actions()[0])
    rng = random.Random(11)
    checked = 0
    while not game.is_over:
        seat = game.to_act()[0]
        for viewer in (*range(4), None):
            message = {"type": "GameMessages", "v": checked, "view": game.view(viewer),
                       "legal": game.legal_actions(viewer) if viewer is not None else []}
            # The very text json gives, compact, UTF-8 unescaped.
            assert push.encode(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        game.apply(seat, *choose(game.view(seat), game.legal_actions(seat), rng))
        checked += 1
    assert checked > 50


def test_what_orjson_refuses_is_still_encoded():
    for message in ({"id": 2**70}, {"text": "\ud800"}, {"1": "é", 2: [1.5, None, True]}):
        assert json.loads(push.encode(message)) == json.loads(json.dumps(message))
