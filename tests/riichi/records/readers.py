"""The two independent readers our exports are checked with, and the games they are fed.

- convlog (``convlog_rs``, mjai-reviewer's Rust crate): parses a tenhou.net/6 log and converts it
  to mjai; it rebuilds the turn order from the per-seat lists and fails on any call that does not
  fit the discards.
- jansou: parses a tenhou.net/6 log (``jansou.io.tenhou_json.parse_tenhou_json``), replays every
  round through its own game engine (``jansou.io.replay.replay_paifu``: the wall rebuilt, every
  recorded decision checked against the menu its engine offers) and re-scores every win
  (``jansou.validation.check.check_paifu``: the value read back from the deltas, and the fu).

jansou reads no rule from a tenhou.net/6 file: it always takes its ``tenhou`` preset. The game's
own rules are handed to it here (``jansou_rules``), option by option where jansou has one, so
that its scoring and its menus are those the game was played under (docs/records.md).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any

import convlog_rs
from jansou.core.rules import Rules, preset
from jansou.core.tiles import Wind
from jansou.io.paifu import Paifu, replay_round
from jansou.io.replay import ReplayError, replay_round_decisions
from jansou.io.tenhou_json import parse_tenhou_json
from jansou.validation.check import Verdict, check_win

from games.core.engine import Mode
from games.riichi.bots.house import choose
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.table import RiichiGame
from tests.riichi.engine.oracle import script_games

MODE = Mode(4, "Four players", 4)
# Whole bot games, by preset (every preset of games/riichi/engine/presets.py). An east-south game takes
# about 1.5 s to play on this machine, an east-only one half that. What they reach (the bots' kans
# among it) is checked by test_readers.test_the_games_reach_the_edge_cases.
BOT_SEEDS = {"majiang": (1, 7), "east": (3, 11), "no-red": (2,), "tenhou": (5,), "tenhou-east": (4, 9)}


# --- games ----------------------------------------------------------------------------------------


@cache
def bot_game(preset_name: str, seed: int) -> dict[str, Any]:
    """A whole game of four house bots under a preset, as the site's download writes its paifu
    (with ``player`` names and the full ``rule``)."""
    rng = random.Random(seed)
    table = RiichiGame.create(mode=MODE, seed=seed, rules={"preset": preset_name})
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    while not table.is_over:
        seat = table.to_act()[0]
        table.apply(seat, *choose(table.view(seat), table.legal_actions(seat), rng))
    paifu = json.loads(json.dumps(table.paifu))
    paifu["player"] = [f"bot {preset_name} {seed}/{i}" for i in range(4)]
    paifu["rule"] = table.rule
    return paifu


SCRIPT_RULE = make_rule({"順位点": ["20", "10", "-10", "-20"]})


# --- convlog --------------------------------------------------------------------------------------


def convlog_events(tenhou: Mapping[str, Any]) -> list[dict[str, Any]]:
    """convlog's mjai events for a tenhou.net/6 log (it raises on a log it cannot read)."""
    return [json.loads(line) for line in convlog_rs.tenhou_to_mjai(json.dumps(tenhou, ensure_ascii=False))]


# --- jansou ---------------------------------------------------------------------------------------


def jansou_rules(rule: Mapping[str, Any]) -> Rules:
    """jansou's rules for a game played under a ``Majiang.rule()``: each Majiang option mapped to
    jansou's equivalent. Options jansou does not have (several red fives per suit, 連荘方式 0,
    喰い替え levels 1 and 2, リーチ後暗槓 level 1) are mapped to the nearest looser setting, so that
    what the game allowed stays within jansou's menus."""
    return dataclasses.replace(
        preset("tenhou"),
        starting_points=rule["配給原点"],
        game_length=Wind.EAST if rule["場数"] <= 1 else Wind.SOUTH,
        double_wind_fu=2 if rule["連風牌は2符"] else 4,
        aka_dora=any(rule["赤牌"][suit] for suit in "mps"),
        kuitan=rule["クイタンあり"],
        kuikae_ban=rule["喰い替え許可レベル"] == 0,
        abort_kyuushu_kyuuhai=rule["途中流局あり"],
        abort_suufon_renda=rule["途中流局あり"],
        abort_suucha_riichi=rule["途中流局あり"],
        abort_suukaikan=rule["途中流局あり"],
        # Majiang aborts on three rons only when at most two may win (三家和); with three, all win.
        abort_sanchahou=rule["最大同時和了数"] == 2,
        multiple_ron=rule["最大同時和了数"] >= 2,
        nagashi_mangan=rule["流し満貫あり"],
        tenpai_declaration=rule["ノーテン宣言あり"],
        noten_penalty_pool=3000 if rule["ノーテン罰あり"] else 0,
        dealer_repeat_on_tenpai=rule["連荘方式"] == 2,
        allow_negative_scores=not rule["トビ終了あり"],
        agari_yame=rule["オーラス止めあり"],
        sudden_death=rule["延長戦方式"] != 0,
        ippatsu=rule["一発あり"],
        ura_dora=rule["裏ドラあり"],
        kan_dora=rule["カンドラあり"],
        open_kan_indicator_immediate=not rule["カンドラ後乗せ"],
        riichi_without_draw=rule["ツモ番なしリーチあり"],
        closed_kan_after_riichi=rule["リーチ後暗槓許可レベル"] > 0,
        multiple_yakuman=rule["役満の複合あり"],
        double_yakuman=rule["ダブル役満あり"],
        kazoe_yakuman=rule["数え役満あり"],
        pao_daisangen=rule["役満パオあり"],
        pao_daisuushi=rule["役満パオあり"],
        kiriage_mangan=rule["切り上げ満貫あり"],
    )


def jansou_paifu(tenhou: Mapping[str, Any], rule: Mapping[str, Any]) -> Paifu:
    return dataclasses.replace(parse_tenhou_json(dict(tenhou)), rules=jansou_rules(rule))


def jansou_replay_errors(paifu: Paifu) -> dict[int, ReplayError]:
    """Each round jansou's engine cannot replay as recorded, by round index."""
    errors = {}
    for index in range(len(paifu.rounds)):
        try:
            for _ in replay_round_decisions(paifu, index):
                pass
        except ReplayError as error:
            errors[index] = error
    return errors


def jansou_verdicts(paifu: Paifu) -> list[tuple[int, Verdict]]:
    """jansou's verdict on each win, with its round index (``check_paifu`` without losing where
    each verdict comes from)."""
    return [(index, check_win(record))
            for index, round_log in enumerate(paifu.rounds)
            for record in replay_round(round_log, paifu.rules, paifu.player_count)]


# --- the games every test of this directory reads --------------------------------------------------

GAME_KEYS = [("script", i) for i in range(len(script_games()))] + [
    (preset, seed) for preset, seeds in BOT_SEEDS.items() for seed in seeds
]
IDS = [f"{source}-{number}" for source, number in GAME_KEYS]


@cache
def game(key: tuple[str, int]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The paifu and its rule. The bot games' paifu carry their rule (as the site's download
    does); script.json's do not, so theirs is passed explicitly."""
    source, number = key
    if source == "script":
        return script_games()[number], SCRIPT_RULE
    paifu = bot_game(source, number)
    return paifu, paifu["rule"]

