"""The codec against the reference: what majiang-core's own ``Majiang.Game`` sends each player.

Games are played on our engine; their paifu are played again by majiang-core
(``bench/majiang/player_messages.js``: ``Majiang.Dev.Game`` with players that record every message
they are handed, in the order they get it). Each seat's frames, made by the codec from the
platform's history messages for that seat, must equal player ``seat``'s messages exactly: the same
messages, masks, ``l``s, the order of ``kaigang``, the whole paifu in ``jieju``. The games cover
every message type and the kan orders seed 001 lists, under both カンドラ後乗せ settings.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter

import pytest

from games.riichi.bots import house as bot
from games.riichi.protocols import majiang as codec
from tests.riichi.reference.corpus import BENCH, ensure_node_modules, npm_missing_reason
from tests.riichi.transport.played import kan_lover, play_actions

GAMES = [
    (1, {"preset": "east"}, bot.choose),
    (3, {"preset": "tenhou-east"}, bot.choose),
    (1, {"preset": "east", "ノーテン宣言あり": True}, kan_lover),
    (3, {"preset": "east", "カンドラ後乗せ": False}, kan_lover),
    (4, {"preset": "east"}, kan_lover),
    (7, {"preset": "no-red", "場数": 1, "ノーテン宣言あり": True}, kan_lover),
    (21, {"preset": "no-red", "場数": 1}, kan_lover),  # a kan on a kan: kaigang before a gang
]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    reason = npm_missing_reason()
    if reason:
        pytest.skip(reason)
    ensure_node_modules()
    games = [play_actions(seed, rules, chooser) for seed, rules, chooser in GAMES]
    path = tmp_path_factory.mktemp("majiang") / "games.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for engine, _ in games:
            out.write(json.dumps({"rule": engine.rule, "paifu": engine.paifu}, ensure_ascii=False) + "\n")
    proc = subprocess.run(["node", str(BENCH / "player_messages.js"), str(path)], cwd=BENCH, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    reference = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(reference) == len(games)
    return list(zip(games, reference, strict=True))


def test_the_games_cover_every_message_and_kan_order(played):
    kinds: Counter[str] = Counter()
    before_kaigang: Counter[str] = Counter()
    draws: Counter[str] = Counter()
    for _, reference in played:
        messages = reference["messages"][0]
        kinds.update(m["type"] for m in messages)
        for here, after in zip(messages, messages[1:], strict=False):
            if here["type"] == "kaigang":
                before_kaigang[after["type"]] += 1
        draws.update(m["data"]["name"] for m in messages if m["type"] == "pingju")
    assert set(kinds) == {"kaiju", "qipai", "zimo", "dapai", "fulou", "gang", "gangzimo", "kaigang", "hule",
                          "pingju", "jieju"}
    assert set(before_kaigang) == {"dapai", "gang", "gangzimo"}, before_kaigang
    assert {"荒牌平局", "九種九牌"} <= set(draws), draws


def test_every_seat_gets_what_majiang_game_sends_that_player(played):
    for (_engine, batches), reference in played:
        revealed = [e.render(None, True) for batch in batches for e in batch]
        paipu = codec.paipu(revealed)
        for seat in range(4):
            expected = reference["messages"][seat]
            # As the platform pushes them: one action's messages at a time, rendered for the seat.
            stream = codec.SeatStream(seat)
            frames = [f for batch in batches for f in stream.frames([e.render(seat) for e in batch], paipu)]
            assert len(frames) == len(expected)
            for i, (ours, theirs) in enumerate(zip(frames, expected, strict=True)):
                assert ours == theirs, (reference["title"], seat, i)
            # A finished game's history is revealed to everyone; the frames are the same.
            assert codec.SeatStream(seat).frames(revealed, paipu) == expected
