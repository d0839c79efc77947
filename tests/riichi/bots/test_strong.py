"""The strong bot and the levels: legal whole games, decision time, no peeking, danger estimates."""

from __future__ import annotations

import copy
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.bots import danger, house, strong
from games.riichi.bots.levels import LEVELS
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.table import RiichiGame

MODE = Mode(4, "Four players", 4)
ALL_TILES = [s + str(n) for s in "mps" for n in range(1, 10) for _ in range(4)] + [
    "z" + str(n) for n in range(1, 8) for _ in range(4)]


def new_game(seed: int, rules: dict[str, Any] | None = None) -> RiichiGame:
    table = RiichiGame.create(mode=MODE, seed=seed, rules=rules or {"場数": 1})
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    return table


def strong_decisions(seeds: range) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]], Shoupai]]:
    """Every decision of east-only games of four strong bots, one game per seed, as (view, legal,
    the deciding seat's hand); each game goes on by the strong bot's choice once the caller has
    looked (stop iterating to stop)."""
    for seed in seeds:
        table = new_game(seed)
        rng = random.Random(seed)
        while not table.is_over:
            seat = table.to_act()[0]
            view, legal = table.view(seat), table.legal_actions(seat)
            yield view, legal, Shoupai.from_string(view["me"]["shoupai"])
            table.apply(seat, *strong.choose(view, legal, rng))


def is_legal(table: RiichiGame, seat: int, action: str, params: list[Any]) -> bool:
    return any(a["type"] == action and a["params"] == params and a.get("allowed", True)
               for a in table.legal_actions(seat))


def play(table: RiichiGame, choosers: list[Any], rng: random.Random, on_decision: Any = None) -> None:
    while not table.is_over:
        seat = table.to_act()[0]
        view, legal = table.view(seat), table.legal_actions(seat)
        if on_decision is not None:
            on_decision(table, seat, view, legal)
        action, params = choosers[seat](view, legal, rng)
        assert is_legal(table, seat, action, params), (seat, action, params, legal)
        table.apply(seat, action, params)


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [21, 22])
def test_strong_bot_plays_whole_games_legally(seed: int) -> None:
    table = new_game(seed)
    play(table, [strong.choose, house.choose, strong.choose, house.choose], random.Random(seed))
    result = table.result()
    assert sorted(p["rank"] for p in result["players"]) == [1, 2, 3, 4]
    assert sum(result["defen"]) + 1000 * table.game.lizhibang == 100000


def test_every_level_plays_a_whole_game_legally() -> None:
    assert set(LEVELS) == {"beginner", "intermediate", "strong"}
    table = new_game(31)
    levels = [LEVELS["beginner"], LEVELS["intermediate"], LEVELS["strong"], LEVELS["intermediate"]]
    play(table, levels, random.Random(31))
    assert table.is_over


def test_the_house_bot_override_is_read_from_the_environment() -> None:
    """``RIICHI_HOUSE_BOT`` (what ``bench/bot_strength.py --house-bot`` sets for its server)
    names the riichi bot's chooser; unset, the house bot plays."""
    script = ("from games.core.registry import GAME_TYPES; t = GAME_TYPES['riichi']; "
              "print(t.bot_path, t.bot().__module__)")
    root = Path(__file__).resolve().parents[3]
    env = {k: v for k, v in os.environ.items() if k != "RIICHI_HOUSE_BOT"}
    plain = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                           check=True)
    assert plain.stdout.split() == ["games.riichi.bots.house:choose", "games.riichi.bots.house"]
    env["RIICHI_HOUSE_BOT"] = "games.riichi.bots.strong:choose"
    chosen = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                            check=True)
    assert chosen.stdout.split() == ["games.riichi.bots.strong:choose", "games.riichi.bots.strong"]


# -- hidden information -------------------------------------------------------------------------

_CONCEALED = re.compile(r"^_*\*?$")


def test_the_view_holds_only_the_seats_own_hand() -> None:
    table = new_game(51)
    checked = 0
    while not table.is_over and checked < 400:
        seat = table.to_act()[0]
        view = table.view(seat)
        assert "shan" not in view and "fubaopai" not in view and "paifu" not in view
        for other in view.get("seats", []):
            if other["seat"] != seat:
                # Concealed tiles are "_" only; what follows the first comma are public melds.
                assert _CONCEALED.match(other["shoupai"].split(",")[0]), other["shoupai"]
        if "me" in view:
            assert view["me"]["seat"] == seat
        checked += 1
        action, params = strong.choose(view, table.legal_actions(seat), random.Random(checked))
        table.apply(seat, action, params)


def _perturbed(table: RiichiGame, seat: int, rng: random.Random) -> dict[str, Any]:
    """The seat's view with everything it may not see filled in, wrongly: the other hands shown
    as random tiles and a random wall, ura indicators and paifu added (as ``reveal_all`` would)."""
    view = copy.deepcopy(table.view(seat, reveal_all=True))
    honest = table.view(seat)
    for mine, theirs in zip(honest["seats"], view["seats"], strict=True):
        if mine["seat"] == seat:
            theirs["shoupai"] = mine["shoupai"]
            continue
        concealed, _, melds = theirs["shoupai"].partition(",")
        n = sum(1 for c in concealed if c.isdigit())
        fake = rng.sample(ALL_TILES, n)
        text = "".join(p for p in fake)
        theirs["shoupai"] = text + ("," + melds if melds else "")
    view["shan"] = rng.sample(ALL_TILES, len(view.get("shan", [])))
    view["fubaopai"] = rng.sample(ALL_TILES, len(view.get("fubaopai") or []))
    view["paifu"] = {"log": [[{"junk": rng.random()}]]}
    # Everything the seat may see is as in its honest view.
    for key in ("me", "baopai", "paishu", "defen", "zhuangfeng", "jushu", "changbang", "lizhibang"):
        if key in honest:
            view[key] = copy.deepcopy(honest[key])
    return view


@pytest.mark.parametrize("seed", [61, 62])
def test_the_strong_bot_never_uses_hidden_information(seed: int) -> None:
    """Replay whole games: at every decision, the choice from the honest view equals the choice
    from a view whose other hands, wall and ura indicators are random tiles."""
    table = new_game(seed)
    noise = random.Random(seed * 7)
    decisions = 0
    while not table.is_over:
        seat = table.to_act()[0]
        legal = table.legal_actions(seat)
        honest = strong.choose(table.view(seat), legal, random.Random(decisions))
        for _ in range(2):
            leaked = strong.choose(_perturbed(table, seat, noise), legal, random.Random(decisions))
            assert leaked == honest, (decisions, seat, honest, leaked)
        decisions += 1
        table.apply(seat, *honest)
    assert decisions > 200


# -- danger estimates -----------------------------------------------------------------------------


def _seat(seat: int, he: list[str], lizhi: bool = False, fulou: list[str] | None = None) -> dict[str, Any]:
    return {"seat": seat, "menfeng": seat, "he": he, "fulou": fulou or [], "lizhi": lizhi, "shoupai": "",
            "defen": 25000}


def _riichi_view(riichi_river: list[str], other_rivers: list[list[str]] | None = None) -> dict[str, Any]:
    rivers = other_rivers or [["z1", "z2"], ["z1", "z2"]]
    return {
        "seats": [_seat(0, ["m9", "p1"]), _seat(1, riichi_river, lizhi=True), _seat(2, rivers[0]), _seat(3, rivers[1])],
        "baopai": ["s9"], "paishu": 50, "zhuangfeng": 0, "jushu": 0,
    }


def _visible(view: dict[str, Any], hand: str = "") -> Counter[str]:
    seen: Counter[str] = Counter()
    for seat in view["seats"]:
        for p in seat["he"]:
            seen[danger.kind(p)] += 1
    for p in view["baopai"]:
        seen[danger.kind(p)] += 1
    for p in re.findall(r"[mpsz]\d", hand):
        seen[danger.kind(p)] += 1
    return seen


def _risk(view: dict[str, Any], tile: str, hand: str = "") -> float:
    visible = _visible(view, hand)
    (threat,) = [t for t in danger.threats(view, 0, visible) if t.riichi]
    return danger.deal_in(tile, threat, visible)


def test_genbutsu_is_safe_and_safest() -> None:
    view = _riichi_view(["m1", "p4", "s7*"])
    assert _risk(view, "p4") == 0.0
    assert _risk(view, "s7") == 0.0
    assert all(_risk(view, k) > 0.0 for k in ("m5", "p3", "s2", "z5"))


def test_a_tile_discarded_after_the_riichi_is_safe() -> None:
    # Seat 1 riichi with its first discard; seat 2 then discarded m5 twice, well after it.
    view = _riichi_view(["p9*", "z3", "z4"], [["z1", "m5", "m5"], ["z1", "z2"]])
    assert _risk(view, "m5") == 0.0


def test_suji_is_safer_than_a_live_middle_tile() -> None:
    view = _riichi_view(["m1", "m7", "z6*"])  # m4 is suji both ways (1-4-7)
    both = _risk(view, "m4")
    assert both < _risk(view, "p4") and both < _risk(view, "m5")
    half = _risk(_riichi_view(["m1", "z6*"]), "m4")  # only 1-4
    assert both < half < _risk(_riichi_view(["z6*"]), "m4")
    # Suji 3/7 and 2/8 against their live counterparts.
    view = _riichi_view(["p6", "s5", "z7*"])
    assert _risk(view, "p3") < _risk(view, "m3")
    assert _risk(view, "s2") < _risk(view, "m2")
    # Live middle tiles are the most dangerous, terminals less.
    live = _riichi_view(["z7*"])
    assert _risk(live, "m5") > _risk(live, "m3") > _risk(live, "m1")


def test_a_tile_whose_four_copies_are_visible_is_safe_as_a_wait() -> None:
    # Three North in the rivers and one in the hand: nobody can wait on it.
    # (Seat 1 declares riichi on its third discard, after the others' North.)
    view = _riichi_view(["z1", "z3", "m2*"], [["z4", "z1"], ["z4", "z4"]])
    assert _risk(view, "z4", hand="m123z4") == 0.0
    # Three visible: only a tanki is possible; two visible: a shanpon too.
    tanki = _risk(view, "z4", hand="m123")
    two = _risk(_riichi_view(["z1", "z3", "m2*"], [["z4", "z1"], ["z4", "z2"]]), "z4", hand="m123")
    assert 0.0 < tanki < two


def test_kabe_no_chance_makes_a_terminal_safer() -> None:
    # All four s8 visible: nobody holds s7-s8 waiting on s9 (or s6-s9), only shanpon/tanki remain.
    plain = _riichi_view(["z7*"])
    kabe = _riichi_view(["z7*", "s8", "s8"], [["s8", "z1"], ["s8", "z2"]])
    assert _risk(kabe, "s9") < 0.5 * _risk(plain, "s9")


def test_open_honitsu_hand_makes_its_suit_hot() -> None:
    seats = [_seat(0, ["m9"]), _seat(1, ["m1", "s3", "m2", "s9"], fulou=["p123-", "p777=", "p456-"]),
             _seat(2, ["z1"]), _seat(3, ["z2"])]
    view = {"seats": seats, "baopai": ["s9"], "paishu": 40, "zhuangfeng": 0, "jushu": 0}
    visible = _visible(view)
    (threat,) = [t for t in danger.threats(view, 0, visible) if t.seat == 1]
    assert not threat.riichi and threat.tenpai > 0.5
    assert danger.deal_in("p5", threat, visible) > 2 * danger.deal_in("s5", threat, visible)


def test_the_strong_bot_folds_a_slow_hand_to_genbutsu() -> None:
    from tests.riichi.bots.test_bot import J0, J3B, table

    # Seat 0 declares riichi; seat 1's hand is far from tenpai and holds the riichi tile m9.
    t = table(["m234p234s234z1112", "m1479p258s369z567", J3B, J0], "m9 m1")
    t.discard(0, "m9_*")
    action, params = strong.choose(t.game.view(1), t.legal(1), random.Random(0))
    assert action == "dapai" and params[0].startswith("m9")


def test_the_strong_bot_wins_and_riichis() -> None:
    from tests.riichi.bots.test_bot import H1, J0, J2, J3, table

    t = table([J0, H1, J2, J3], "m2")
    t.act(0, "dapai", "m2_")
    assert strong.choose(t.game.view(1), t.legal(1), random.Random(0)) == ("hule", [])
    t = table([J0, H1, J2, J3], "z7 z6")
    t.discard(0, "z7_")
    assert strong.choose(t.game.view(1), t.legal(1), random.Random(0)) == ("dapai", ["z6_*"])


# -- calls, push and fold in constructed positions ---------------------------------------------------


def _stacked(hands: list[str], zimo: str, baopai: str = "") -> Any:
    from tests.riichi.engine.flowkit import Table, random_wall, rule, wall

    r = rule()
    return Table([wall(r, hands, zimo, baopai=baopai), random_wall(r, 1), random_wall(r, 2)], r)


def test_the_yakuhai_pon_style_pons_a_value_pair_at_two_from_tenpai() -> None:
    """Two from tenpai with a pair of White: the pon keeps the shanten number (the pair becomes
    the meld) but gives the hand its yaku, so the ``yakuhai_pon`` style takes it; a pair of West
    (no yaku for South in the East round) is left alone."""
    from tests.riichi.bots.test_bot import J0, J3B

    ponning = strong.make_choose(style={"yakuhai_pon": 1.0})  # off in the strong level (STYLE)
    t = _stacked([J0, "m134p367s45789z55", "m1699p1699s1699z3", J3B], "z5")
    t.act(0, "dapai", "z5_")
    assert ponning(t.game.view(1), t.legal(1), random.Random(0)) == ("fulou", ["z555-"])
    t = _stacked([J0, "m134p367s45789z33", "m1699p1699s1699z5", J3B], "z3")
    t.act(0, "dapai", "z3_")
    assert any(a["type"] == "fulou" for a in t.legal(1))
    assert ponning(t.game.view(1), t.legal(1), random.Random(0)) == ("pass", [])


def test_against_a_riichi_a_valuable_tenpai_pushes_and_a_cheap_slow_hand_folds() -> None:
    """Seat 0 declares riichi discarding m9. Seat 1 draws a live m5. Tenpai on s5-s8 with the red
    p5 and the dora p5 (indicator p4): it keeps the tenpai and discards the m5. One from tenpai
    with nothing of value: it breaks m789 for the genbutsu m9."""
    from tests.riichi.bots.test_bot import J0, J3B

    for name, choose in (("strong", strong.choose), ("without value", strong.make_choose(value=False))):
        t = _stacked(["m234p234s234z1112", "m789p406s23467z55", J3B, J0], "m9 m5", baopai="p4")
        t.discard(0, "m9_*")
        action, params = choose(t.game.view(1), t.legal(1), random.Random(0))
        assert action == "dapai" and params[0].startswith("m5"), (name, params)
        t = _stacked(["m234p234s234z1112", "m789p136s23468z25", J3B, J0], "m9 m5", baopai="p4")
        t.discard(0, "m9_*")
        action, params = choose(t.game.view(1), t.legal(1), random.Random(0))
        assert action == "dapai" and params[0].startswith("m9"), (name, params)


def test_the_beginner_plays_on_against_a_riichi_where_the_intermediate_folds() -> None:
    """The same cheap one-from-tenpai hand against the riichi: the intermediate level (the house
    bot) folds to the genbutsu m9; the beginner, which misses defence, keeps its best shape."""
    from tests.riichi.bots.test_bot import J0, J3B

    t = _stacked(["m234p234s234z1112", "m789p136s23468z25", J3B, J0], "m9 m5", baopai="p4")
    t.discard(0, "m9_*")
    view, legal = t.game.view(1), t.legal(1)
    assert LEVELS["intermediate"](view, legal, random.Random(0)) == ("dapai", ["m9"])
    action, params = LEVELS["beginner"](view, legal, random.Random(0))
    assert action == "dapai" and not params[0].startswith("m9"), params


# -- the levels bench -----------------------------------------------------------------------------------


def test_the_levels_bench_plays_a_table_and_reports_the_pair() -> None:
    """bench/bot_levels.py: one game of two levels on the engine, seated by its pattern, and the
    pair's figures over the complementary table (same walls, seats swapped)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    import bot_levels

    tables = [bot_levels.play_table(("beginner", "intermediate", pattern, 5, n, "tenhou"))
              for n, pattern in enumerate(("ABAB", "BABA"))]
    for t in tables:
        assert sorted(s["rank"] for s in t["seats"]) == [1, 2, 3, 4]
        assert "".join(s["side"] for s in sorted(t["seats"], key=lambda s: s["position"])) == t["pattern"]
        assert sum(s["point"] for s in t["seats"]) == pytest.approx(0)
    figures = bot_levels.pair_figures(tables)
    assert figures["first_side"]["seats"] == figures["second_side"]["seats"] == 4
    assert figures["rank_difference"]["tables"] == 2 and figures["rank_difference_by_wall"]["pairs"] == 1
    order = bot_levels.order_levels(["beginner", "intermediate"], [figures])
    assert {row["level"] for row in order} == {"beginner", "intermediate"}
