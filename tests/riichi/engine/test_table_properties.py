"""Property tests of the platform table over random games.

Random players pick uniformly among the legal actions (and sometimes try an illegal one, which
must be rejected without any change). Every event and view each seat receives must hide the
other hands and draws exactly as Majiang hides them; the game must end; the same seed and actions
give the same events; the paifu written replays without divergence.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.engine import Mode, Rejection
from games.riichi.bots.house import choose
from games.riichi.engine.replay import replay
from games.riichi.engine.rule import rule
from games.riichi.engine.table import RiichiGame

MODE = Mode(4, "Four players", 4)
PRESETS = [
    {"場数": 0},
    {"場数": 0, "ノーテン宣言あり": True, "最大同時和了数": 3, "喰い替え許可レベル": 2},
    {"場数": 1, "途中流局あり": False, "カンドラ後乗せ": False, "リーチ後暗槓許可レベル": 1, "連荘方式": 1},
    {"場数": 0, "赤牌": {"m": 0, "p": 2, "s": 4}, "最大同時和了数": 1, "カンドラあり": False},
    {"場数": 1, "連荘方式": 0},
]
MASKED_HAND = re.compile(r"_*\*?")
SEEDS = st.integers(0, 2**31 - 1)


def random_action(legal: list[dict], rng: random.Random) -> tuple[str, list]:
    """Any legal action; a win is always taken (so that hands end before the wall does) and
    九種九牌 rarely (it repeats the hand)."""
    playable = [a for a in legal if a.get("allowed", True)]
    if any(a["type"] == "hule" for a in playable) and rng.random() < 0.9:
        return "hule", []
    if rng.random() < 0.9:
        playable = [a for a in playable if a["type"] != "pingju"] or playable
    special = [a for a in playable if a["type"] not in ("dapai", "pass")]
    action = rng.choice(special) if special and rng.random() < 0.6 else rng.choice(playable)
    return action["type"], action["params"]


def state(table: RiichiGame) -> str:
    return json.dumps([table.view(None, reveal_all=True), table.to_act(),
                       [table.legal_actions(s) for s in range(4)]], sort_keys=True, ensure_ascii=False)


def check_event_masks(table: RiichiGame, events: list) -> None:
    game = table.game
    for event in events:
        for viewer in (0, 1, 2, 3, None):
            message = event.render(viewer)
            kind = message["type"]
            data = message["params"][0] if message["params"] else {}
            if kind == "qipai":
                mine = None if viewer is None else (viewer - game.qijia - data["jushu"]) % 4
                assert all(h == "" for l, h in enumerate(data["shoupai"]) if l != mine)
                if mine is not None:
                    assert data["shoupai"][mine]
            elif kind in ("zimo", "gangzimo"):
                assert (data["p"] != "") is (viewer == event.player)
            elif kind == "kaiju":
                assert data["id"] == viewer


def check_views(table: RiichiGame) -> None:
    for viewer in (0, 1, 2, 3, None):
        view = table.view(viewer)
        assert "shan" not in view and "paifu" not in view
        for seat in view.get("seats", []):
            concealed = seat["shoupai"].split(",")[0]
            if seat["seat"] == viewer:
                assert view["me"]["shoupai"] == seat["shoupai"]
            else:
                assert MASKED_HAND.fullmatch(concealed), seat["shoupai"]
        if viewer is None:
            assert "me" not in view


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, preset=st.sampled_from(range(len(PRESETS))))
def test_random_games_hide_what_they_must_reject_cleanly_and_end(seed: int, preset: int) -> None:
    rng = random.Random(seed)
    rules = PRESETS[preset]
    table = RiichiGame.create(mode=MODE, seed=seed, rules=rules)
    twin = RiichiGame.create(mode=MODE, seed=seed, rules=rules)
    events = []
    for seat, action, params in table.initial_actions():
        events += table.apply(seat, action, params)
        twin.apply(seat, action, params)
    check_event_masks(table, events)
    rejections = 0
    for step in range(60_000):
        if table.is_over:
            break
        waiting = table.to_act()
        seat = rng.choice(waiting)
        assert all(table.legal_actions(s) for s in waiting)
        assert all(not table.legal_actions(s) for s in range(4) if s not in waiting)
        if rejections < 25 and rng.random() < 0.02:
            rejections += 1
            before = state(table)
            bad_seat = rng.choice([s for s in range(4) if s not in waiting] or [seat])
            for attempt in ((bad_seat, "dapai", ["m1"]), (seat, "fulou", ["z777="]), (seat, "hule", ["x"]),
                            (seat, "dapai", ["q9"]), (seat, "gang", []), (seat, "kaiju", [])):
                if attempt[0] in waiting and attempt[1:] in [(a["type"], a["params"]) for a in
                                                             table.legal_actions(attempt[0])]:
                    continue
                try:
                    table.apply(*attempt)
                except Rejection:
                    pass
                else:
                    raise AssertionError(f"{attempt} was accepted")
                assert state(table) == before
        if step % 97 == 0:
            check_views(table)
        action, params = random_action(table.legal_actions(seat), rng)
        new = table.apply(seat, action, params)
        twin_events = twin.apply(seat, action, params)
        assert [e.render(v) for e in new for v in (0, 1, 2, 3, None)] == \
            [e.render(v) for e in twin_events for v in (0, 1, 2, 3, None)]
        check_event_masks(table, new)
    assert table.is_over
    result = table.result()
    assert sorted(result["rank"]) == [1, 2, 3, 4]
    assert sum(result["defen"]) + 0 == 4 * rule(rules)["配給原点"]  # sticks left over go to the top
    assert replay(table.paifu, rule(rules)) is None


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_bot_games_end_and_replay(seed: int) -> None:
    rng = random.Random(seed)
    table = RiichiGame.create(mode=MODE, seed=seed, rules={"場数": 1})
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    actions = 0
    while not table.is_over:
        seat = table.to_act()[0]
        table.apply(seat, *choose(table.view(seat), table.legal_actions(seat), rng))
        actions += 1
        assert actions < 20_000
    assert replay(table.paifu, rule({"場数": 1})) is None
