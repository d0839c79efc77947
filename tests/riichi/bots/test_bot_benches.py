"""The bot benches' own logic: bench/bot_offence.py's passive table and hand counts, and
bench/bot_flow.py's sorting of score changes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

import bot_flow  # noqa: E402
import bot_offence  # noqa: E402

from games.riichi.bots import strong  # noqa: E402


def test_passive_players_never_win_call_or_declare() -> None:
    paifu = bot_offence.play_one(bot_offence.passive, 7, "tenhou")
    kinds = {kind for hand in paifu["log"] for message in hand for kind in message}
    assert "hule" not in kinds and "fulou" not in kinds and "gang" not in kinds, kinds
    assert all(message["dapai"]["p"].endswith("_") for hand in paifu["log"] for message in hand
               if "dapai" in message)  # every discard the tile just drawn


def test_the_hero_hands_are_the_heros_wins_and_only_the_hero_wins() -> None:
    calls: dict[str, list[int]] = {}
    paifu = bot_offence.play_one(strong.choose, 8, "tenhou", calls)
    hands = bot_offence.hero_hands(paifu)
    assert len(hands) == len(paifu["log"])
    wins = [message["hule"] for hand in paifu["log"] for message in hand if "hule" in message]
    assert wins, "the strong bot wins some hands against passive players"
    assert sum(h["won"] for h in hands) == len(wins)
    assert sum(h["points"] for h in hands) == sum(w["defen"] for w in wins)
    for hand, log in zip(hands, paifu["log"], strict=True):
        me = (bot_offence.HERO - paifu["qijia"] - log[0]["qipai"]["jushu"]) % 4
        assert all(m["hule"]["l"] == me for m in log if "hule" in m)
        assert hand["called"] == any(m["fulou"]["l"] == me for m in log if "fulou" in m)
    assert sum(c[0] for c in calls.values()) >= sum(c[1] for c in calls.values())
    assert sum(c[1] for c in calls.values()) == sum(1 for h in paifu["log"] for m in h if "fulou" in m)


def test_flow_sorts_each_score_change() -> None:
    """One hand: player 0 (a house seat, East) declares riichi and wins 8,000 and the stick by ron
    off player 1 (majiang-ai); then a draw where player 0 alone is tenpai."""
    paifu = {"player": ["house-a", "strength-0", "house-b", "strength-1"], "qijia": 0, "log": [
        [{"qipai": {"jushu": 0}}, {"dapai": {"l": 0, "p": "m1*"}}, {"dapai": {"l": 1, "p": "p5"}},
         {"hule": {"l": 0, "baojia": 1, "defen": 8000, "fenpei": [9000, -8000, 0, 0]}}],
        [{"qipai": {"jushu": 1}}, {"pingju": {"name": "流局", "fenpei": [-1000, -1000, -1000, 3000]}}],
    ]}
    figures = bot_flow.flow([paifu])
    # Each side has two seats over two hands: four seat-hands. In the second hand East is player 1,
    # so the dealer-relative fenpei [.., .., .., 3000] pays player 0 (house-a).
    assert figures["house"] == {"riichi stick": -250.0, "won: riichi, ron": 2250.0, "draw": (3000 - 1000) / 4,
                                "total": 2500.0}
    assert figures["majiang_ai"] == {"paid: ron to house": -2000.0, "draw": -2000 / 4, "total": -2500.0}
