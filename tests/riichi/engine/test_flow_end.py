"""When the game ends (場数, 延長戦方式, トビ終了あり, オーラス止めあり) and the final points (順位点)."""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import random

import pytest

from games.riichi.engine.game import JIEJU, QIPAI, Game, js_round, js_to_fixed
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import Shan


def started(**options) -> Game:
    r = make_rule(options)
    rng = random.Random(3)
    game = Game(r, shan=lambda g: Shan.shuffled(r, rng))
    game.kaiju(0)
    game.next()  # qipai
    return game


def end_of_hand(game: Game, zhuangfeng: int, jushu: int, defen: list[int], *, lianzhuang: bool = False,
                no_game: bool = False) -> str:
    """Put the game at the end of hand (zhuangfeng, jushu) and let Majiang's ``last`` decide."""
    game.zhuangfeng, game.jushu = zhuangfeng, jushu
    game.player_id = [(game.qijia + jushu + l) % 4 for l in range(4)]
    game.defen = list(defen)
    game._lianzhuang, game._no_game = lianzhuang, no_game
    game.last()
    return game.status


EVEN = [25000] * 4
LEADER = [35000, 25000, 20000, 20000]


def test_hanchan_ends_after_south_4() -> None:
    assert end_of_hand(started(), 1, 2, LEADER) == QIPAI
    game = started()
    assert end_of_hand(game, 1, 3, LEADER) == JIEJU and game.end_reason == "last hand"


def test_east_only_ends_after_east_4() -> None:
    game = started(場数=1)
    assert end_of_hand(game, 0, 3, LEADER) == JIEJU


def test_sudden_death_when_nobody_has_30000() -> None:
    game = started()
    assert end_of_hand(game, 1, 3, EVEN) == QIPAI  # 西入
    assert (game.zhuangfeng, game.jushu) == (2, 0)
    assert end_of_hand(game, 2, 0, EVEN) == QIPAI  # still nobody: 西二局
    assert end_of_hand(game, 2, 1, LEADER) == JIEJU  # someone reached 30000


def test_no_extension() -> None:
    assert end_of_hand(started(延長戦方式=0), 1, 3, EVEN) == JIEJU


def test_extension_by_one_or_four_hands() -> None:
    game = started(延長戦方式=2)
    assert end_of_hand(game, 1, 3, EVEN) == QIPAI and game._max_jushu == 8
    assert end_of_hand(game, 2, 0, EVEN, lianzhuang=True) == QIPAI  # the dealer stays, still 西一局
    game = started(延長戦方式=3)
    assert end_of_hand(game, 1, 3, EVEN) == QIPAI and game._max_jushu == 11
    assert end_of_hand(game, 2, 0, EVEN) == QIPAI
    assert end_of_hand(game, 2, 3, EVEN) == JIEJU  # a hanchan never goes past the west round
    game = started(場数=4, 延長戦方式=3)  # 一荘戦: past 北四局 the game always ends
    assert end_of_hand(game, 3, 2, EVEN) == QIPAI
    assert end_of_hand(game, 3, 3, EVEN) == JIEJU


def test_the_round_after_the_extra_wind_ends_it() -> None:
    # (場数 + 1) * 4 - 1: a hanchan never goes beyond the west round.
    game = started(延長戦方式=3)
    game._max_jushu = 15
    assert end_of_hand(game, 2, 3, EVEN) == JIEJU


def test_single_hand_game() -> None:
    game = started(場数=0)
    assert end_of_hand(game, 0, 0, EVEN, lianzhuang=True) == QIPAI  # a draw repeats it
    game = started(場数=0)
    assert end_of_hand(game, 0, 0, LEADER) == JIEJU


@pytest.mark.parametrize("tobi", [True, False])
def test_tobi(tobi: bool) -> None:
    game = started(トビ終了あり=tobi)
    status = end_of_hand(game, 0, 1, [51000, 25000, 24100, -100])
    assert status == (JIEJU if tobi else QIPAI)
    if tobi:
        assert game.end_reason == "tobi"
    # exactly 0 is not below zero
    assert end_of_hand(started(), 0, 1, [50000, 25000, 25000, 0]) == QIPAI


def test_dealer_stops_in_the_last_hand() -> None:
    # 南四局: the dealer is player (0 + 3) % 4 = 3; it won (renchan) and leads with 30000+.
    top_dealer = [20000, 20000, 25000, 35000]
    game = started()
    assert end_of_hand(game, 1, 3, top_dealer, lianzhuang=True) == JIEJU and game.end_reason == "dealer stops"
    assert end_of_hand(started(), 1, 3, top_dealer, lianzhuang=True, no_game=True) == QIPAI  # abortive draw
    assert end_of_hand(started(), 1, 3, [35000, 20000, 25000, 20000], lianzhuang=True) == QIPAI  # not the leader
    assert end_of_hand(started(オーラス止めあり=False), 1, 3, top_dealer, lianzhuang=True) == QIPAI


def finish(defen: list[int], lizhibang: int = 0, qijia: int = 0, **options) -> dict:
    game = started(**options)
    game.qijia = qijia
    game.defen = list(defen)
    game.lizhibang = lizhibang
    game.jieju()
    return game.paipu


def test_points_with_oka_and_uma() -> None:
    paipu = finish([40000, 30000, 20000, 10000])
    assert paipu["rank"] == [1, 2, 3, 4]
    assert paipu["point"] == ["50.0", "10.0", "-20.0", "-40.0"]
    paipu = finish([40000, 30000, 20000, 10000], 順位点=["20", "10", "-10", "-20"])
    assert paipu["point"] == ["50", "10", "-20", "-40"]
    paipu = finish([30000, 30000, 30000, 30000], 順位点=["30.0", "10.0", "-10.0", "-30.0"], 配給原点=30000)
    assert paipu["point"] == ["30.0", "10.0", "-10.0", "-30.0"]


def test_ties_go_to_the_seat_nearest_the_first_dealer_and_sticks_to_the_top() -> None:
    paipu = finish([25000, 25000, 24000, 25000], lizhibang=2, qijia=1)
    # Order from the first dealer (player 1): players 1, 3, 0 tie at 25000 -> 1, 3, 0 (0 comes last).
    assert paipu["rank"] == [3, 1, 4, 2]
    assert paipu["defen"] == [25000, 27000, 24000, 25000]
    assert paipu["point"] == ["-15.0", "36.0", "-26.0", "5.0"]


def test_rounding_is_javascripts() -> None:
    # -37.5 rounds to -37 (Math.round), not -38.
    paipu = finish([42500, 30000, 15000, 12500], 順位点=["20", "10", "-10", "-20"])
    assert paipu["point"][3] == "-37"
    assert js_round(-2.5) == -2 and js_round(2.5) == 3 and js_round(-0.4) == 0
    assert js_to_fixed(1.25, 1) == "1.3" and js_to_fixed(-1.25, 1) == "-1.3"
    assert js_to_fixed(-0.04, 1) == "-0.0" and js_to_fixed(-0.0, 0) == "0" and js_to_fixed(-0.4, 0) == "-0"
    assert js_to_fixed(0.05, 1) == "0.1"
