"""The bot benches' own logic: bench/bot_offence.py's passive table and hand counts,
bench/bot_flow.py's sorting of score changes, bench/bot_strength.py's pairs of tables dealt
alike, bench/bot_calls.py's count of majiang-ai's call decisions put to ours, and
bench/bot_last_hand.py's last hands played twice."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

import bot_calls  # noqa: E402
import bot_flow  # noqa: E402
import bot_last_hand  # noqa: E402
import bot_offence  # noqa: E402
import bot_strength  # noqa: E402

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


def test_duplicate_pairs_are_dealt_alike_with_the_sides_swapped() -> None:
    seeds, plan = bot_strength.deal_seeds(12, 3), bot_strength.seating_plan(12, 3)
    swap = str.maketrans("HM", "MH")
    for k in range(6):
        assert seeds[2 * k] == seeds[2 * k + 1]
        assert plan[2 * k + 1] == plan[2 * k].translate(swap)
    assert len(set(seeds)) == 6 and all(0 <= s < 2**63 for s in seeds)
    assert bot_strength.deal_seeds(12, 4) != seeds


def _table(index: int, pattern: str, ranks: str, seed: int) -> bot_strength.Table:
    table = bot_strength.Table(index, pattern, (("a", "t"), ("b", "t")), deal_seed=seed)
    table.seats = [{"side": side, "rank": int(rank), "point": 10.0 * (2.5 - int(rank))}
                   for side, rank in zip(pattern, ranks, strict=True)]
    return table


def test_the_paired_difference_is_over_pairs_both_of_whose_tables_finished() -> None:
    tables = [
        _table(0, "HMHM", "1234", 5),  # house ranks 1 and 3, majiang-ai 2 and 4: -1
        _table(1, "MHMH", "1234", 5),  # house 2 and 4: +1; the pair's mean 0
        _table(2, "HHMM", "1243", 6),  # house 1 and 2: -2
        _table(3, "MMHH", "1234", 6),  # house 3 and 4: +2; the pair's mean 0
        _table(4, "MHHM", "4123", 7),  # house 1 and 2 against 4 and 3: -2; its partner failed
    ]
    paired = bot_strength.paired_difference(tables, "rank")
    assert paired["pairs"] == 2 and paired["mean"] == 0.0
    tables[1].seats = [{"side": s, "rank": r, "point": 0.0} for s, r in zip("MHMH", (4, 1, 3, 2), strict=True)]
    # The first pair: -1 and (1.5 - 3.5) = -2, so -1.5; the second still 0.
    paired = bot_strength.paired_difference(tables, "rank")
    assert paired["mean"] == -0.75
    # The first tables' differences (-1, -2) against their partners' (-2, +2).
    assert paired["correlation"] == -1.0
    assert bot_strength.difference(tables, "rank")["tables"] == 5


def _position(shoupai: str, offered: list[str], called: str | None, key: str) -> dict:
    return {"key": key, "shoupai": shoupai, "offered": offered, "called": called, "menfeng": 1, "zhuangfeng": 0,
            "jushu": 1, "baopai": ["m1"], "paishu": 60, "he": [["z4_"], [], ["s9"], []],
            "fulou": [[], [], [], []], "defen": [25000] * 4}


def test_bot_calls_counts_each_answer_against_majiang_ais() -> None:
    positions = [
        _position("m122p067s12589z55", ["s7-89"], "s7-89", "2c"),  # a haku pair: 後付け
        _position("m122p067s12589z44", ["s7-89"], "s7-89", "2c"),  # north: no value honour for South
        _position("m122p067s12589z11", ["s7-89"], None, "2c"),  # east: the round wind
        _position("m34p38s2244566z23", ["s666="], None, "3c"),
    ]
    assert [bot_calls.holds_value_pair(p) for p in positions] == [True, False, True, False]

    def first_meld(view, legal, rng):
        assert view["me"]["shoupai"] in {p["shoupai"] for p in positions} and view["seats"][2]["he"] == ["s9"]
        return ("fulou", legal[0]["params"])

    rows = bot_calls.compare(first_meld, positions, {})
    assert rows["2c"] == {"offered": 3, "majiang_ai": 2, "ours": 3, "both": 2, "same": 2, "missed_with_value_pair": 0}
    assert rows["3c"] == {"offered": 1, "majiang_ai": 0, "ours": 1, "both": 0, "same": 0, "missed_with_value_pair": 0}
    rows = bot_calls.compare(lambda view, legal, rng: ("pass", []), positions, {})
    assert rows["2c"] == {"offered": 3, "majiang_ai": 2, "ours": 0, "both": 0, "same": 1, "missed_with_value_pair": 1}


def test_last_hand_standings_sum_to_the_table_and_start_at_south_4() -> None:
    import random

    for n in range(200):
        scores = bot_last_hand.standings(random.Random(n))
        assert sum(scores) == 100000 and min(scores) >= 1000 and all(x % 100 == 0 for x in scores)
    scores = [31000, 27000, 22000, 20000]
    game = bot_last_hand.play_out("strong", "strong", 1, scores, 5, "tenhou")
    assert game["first_hand"] == [1, 3] and game["decisions"]
    assert 1 <= game["rank"] <= 4


def test_a_last_hand_played_twice_by_the_same_bot_does_not_differ() -> None:
    base = "games.riichi.bots.strong:choose"
    rows = [bot_last_hand.position((base, base, 3, i, "tenhou")) for i in range(2)]
    assert all(not r["differed"] and r["with"] == r["without"] for r in rows)
    # A different bot at the hero seat makes different decisions.
    row = bot_last_hand.position(("beginner", base, 3, 0, "tenhou"))
    assert row["differed"]
