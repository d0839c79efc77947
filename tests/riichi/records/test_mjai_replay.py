"""mjai event logs replayed through our engine (games/riichi/exports/mjai_replay.py).

Every game the other export tests use (the 37 games of script.json and the house-bot games of
every preset, readers.BOT_SEEDS): our own mjai export, and the mjai convlog makes of our
tenhou.net/6 export, must both replay through our engine to exactly the same events. Controls
tamper with a log (a discarded tile, a win's payment, a draw) and require the replay to name
the difference. docs/records.md, "Replaying mjai through our engine", says what the replay
infers and what mjai cannot tell it.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from games.riichi.records.exports import mjai_replay, to_mjai, to_tenhou6
from games.riichi.records.exports.mjai_replay import majiang_tile, replay_mjai
from tests.riichi.records.readers import GAME_KEYS, IDS, SCRIPT_RULE, convlog_events, game


@cache
def events(key: tuple[str, int]) -> list[dict[str, Any]]:
    paifu, rule = game(key)
    return to_mjai(paifu, rule)


def text(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# --- every game -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", GAME_KEYS, ids=IDS)
def test_our_mjai_replays_exactly(key):
    _, rule = game(key)
    assert replay_mjai(events(key), rule) == []


@pytest.mark.parametrize("key", GAME_KEYS, ids=IDS)
def test_convlogs_mjai_replays_exactly(key):
    paifu, rule = game(key)
    theirs = convlog_events(to_tenhou6(paifu, rule))
    assert replay_mjai(theirs, rule) == []


@pytest.mark.parametrize("key", [("script", 22), ("east", 3), ("no-red", 2)], ids=["script-22", "east-3", "no-red-2"])
def test_without_a_rule_start_game_says_the_length_and_the_red_fives(key):
    """script.json's rule differs from Majiang's only in 順位点, which mjai never shows; the east
    and no-red presets differ only in what start_game says (kyoku_first, aka_flag)."""
    assert replay_mjai(events(key)) == []


def test_the_rule_decides_the_replay():
    """Controls: an east-only game replayed under an east-south rule deals a fifth hand; a
    no-red game's four plain fives of a suit are one too many for a rule with red fives."""
    differences = replay_mjai(events(("east", 3)), {})
    assert differences[0] == "kyoku 4: the engine deals a hand the events do not have"
    assert [line.split(":")[0] for line in differences] == ["kyoku 4", "game start event 0"]
    assert '"kyoku_first":4' in differences[1].split("the engine wrote")[0]
    differences = replay_mjai(events(("no-red", 2)), {})
    assert "cannot rebuild the wall" in differences[0] and "tiles beyond the rule's set" in differences[0]


def test_an_indicator_mjai_never_announces_is_taken_to_give_no_dora(monkeypatch):
    """script.json game 16, hand 7: a kakan robbed right after it turned the indicator of an
    earlier open kan (p4). mjai never announces that indicator (docs/records.md, mjai 1), yet
    the win is scored with it: mjai lacks what the score needs. The replay fills that slot
    with a tile whose dora the winner never held, exact whenever the real one gave no dora (as
    here); had it been m4 (the winner holds m55), only that win's deltas would differ."""
    key = ("script", 16)
    assert replay_mjai(events(key), SCRIPT_RULE) == []
    monkeypatch.setattr(mjai_replay, "_no_dora_for", lambda spare, avoid: spare.index("m4"))
    differences = replay_mjai(events(key), SCRIPT_RULE)
    assert len(differences) == 1
    assert differences[0].startswith('kyoku 7 (S2-0) event 78: expected {"actor":0,"deltas":[2600,0,0,-2600],')
    assert differences[0].endswith('the engine wrote {"actor":0,"deltas":[8000,0,0,-8000],"target":3,'
                                   '"type":"hora","ura_markers":[]}')


# --- controls -------------------------------------------------------------------------------------

CONTROL = ("majiang", 1)


def first_kyoku_label(log: list[dict[str, Any]]) -> str:
    start = next(e for e in log if e["type"] == "start_kyoku")
    return f"kyoku 0 ({start['bakaze']}{start['kyoku']}-{start['honba']})"


def test_a_discard_of_a_tile_not_held_is_named():
    log = copy.deepcopy(events(CONTROL))
    start = log.index(next(e for e in log if e["type"] == "start_kyoku"))
    i = next(i for i, e in enumerate(log) if e["type"] == "dahai")
    dahai = log[i]
    held = set(log[start]["tehais"][dahai["actor"]]) | {log[i - 1]["pai"]}
    dahai["pai"] = next(p for p in ("C", "F", "P", "N", "1m", "9p") if p not in held)
    dahai["tsumogiri"] = False
    differences = replay_mjai(log, game(CONTROL)[1])
    assert differences, "a discard of a tile the player does not hold replayed"
    assert differences[0].startswith(f"{first_kyoku_label(log)} event {i - start}: expected {text(dahai)}, "
                                     "the engine wrote "), differences[0]


def test_a_changed_payment_is_the_one_difference():
    log = copy.deepcopy(events(CONTROL))
    i = max(i for i, e in enumerate(log) if e["type"] == "hora")
    original = copy.deepcopy(log[i])
    hora = log[i]
    hora["deltas"][hora["actor"]] += 100
    hora["deltas"][hora["target"] if hora["target"] != hora["actor"] else (hora["actor"] + 1) % 4] -= 100
    differences = replay_mjai(log, game(CONTROL)[1])
    start = max(k for k in range(i) if log[k]["type"] == "start_kyoku")
    n = sum(1 for e in log[:i] if e["type"] == "start_kyoku") - 1
    label = f"kyoku {n} ({log[start]['bakaze']}{log[start]['kyoku']}-{log[start]['honba']})"
    assert differences == [f"{label} event {i - start}: expected {text(hora)}, the engine wrote {text(original)}"]


def test_a_removed_draw_is_named():
    log = copy.deepcopy(events(CONTROL))
    i = [i for i, e in enumerate(log) if e["type"] == "tsumo"][4]
    removed = log.pop(i)
    differences = replay_mjai(log, game(CONTROL)[1])
    assert differences, "a hand with a draw missing replayed"
    # The engine makes the draw the log lacks (the next draw's tile, to the same player).
    assert differences[0].startswith(f"{first_kyoku_label(log)} ")
    assert f'"actor":{removed["actor"]}' in differences[0] and '"type":"tsumo"' in differences[0], differences[0]


# --- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("mjai", "majiang"), [
    ("1m", "m1"), ("9p", "p9"), ("5s", "s5"), ("5mr", "m0"), ("5pr", "p0"), ("5sr", "s0"),
    ("E", "z1"), ("S", "z2"), ("W", "z3"), ("N", "z4"), ("P", "z5"), ("F", "z6"), ("C", "z7"),
])
def test_mjai_tiles_as_majiang_tiles(mjai, majiang):
    assert majiang_tile(mjai) == majiang


@pytest.mark.parametrize("bad", ["?", "0m", "5zr", "4mr", "", "10m", None])
def test_what_is_not_an_mjai_tile(bad):
    with pytest.raises(ValueError):
        majiang_tile(bad)
