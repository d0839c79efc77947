"""The built-in bot: legal, sensible choices from its own seat's view."""

from __future__ import annotations

import random

from games.riichi.bots.house import choose
from tests.riichi.engine.flowkit import Table, random_wall, rule, wall

J0 = "m1478p1478s1478z1"
J2 = "m1699p1699s1699z3"
J3 = "m2p2s2z2223344556"
H1 = "m34p234456s55678"
J3B = "m578p578s2579z467"


def table(hands: list[str], zimo: str = "", **options) -> Table:
    r = rule(**options)
    return Table([wall(r, hands, zimo), random_wall(r, 1), random_wall(r, 2)], r)


def bot(t: Table, seat: int, seed: int = 0) -> tuple[str, list]:
    return choose(t.game.view(seat), t.legal(seat), random.Random(seed))


def test_takes_a_ron() -> None:
    t = table([J0, H1, J2, J3], "m2")
    t.act(0, "dapai", "m2_")
    assert bot(t, 1) == ("hule", [])
    assert bot(t, 2) == ("pass", [])


def test_takes_a_tsumo() -> None:
    t = table([J0, H1, J2, J3], "z7 m5")
    t.discard(0, "z7_")
    assert bot(t, 1) == ("hule", [])


def test_declares_riichi_when_closed_and_tenpai() -> None:
    t = table([J0, H1, J2, J3], "z7 z6")
    t.discard(0, "z7_")
    assert bot(t, 1) == ("dapai", ["z6_*"])


def test_discards_the_isolated_tile() -> None:
    # m34 p234456 s5567 + z6: the honour goes.
    t = table([J0, "m34p234456s5567z6", J2, J3], "z7 s1")
    t.discard(0, "z7_")
    action, params = bot(t, 1)
    assert action == "dapai" and params[0] in ("z6", "s1_")


def test_pons_a_dragon_pair() -> None:
    t = table([J0, "m34p234456s567z55", J2, J3B], "z5")
    t.act(0, "dapai", "z5_")
    assert bot(t, 1) == ("fulou", ["z555-"])


def test_folds_against_riichi() -> None:
    # Seat 0 declares riichi; seat 1, far from tenpai, throws a tile seat 0 discarded (genbutsu).
    t = table(["m234p234s234z1112", "m1599p1599s1599m5", J3B, J0], "m9 m1")
    t.discard(0, "m9_*")
    action, params = bot(t, 1)
    assert action == "dapai" and params[0].startswith("m9")


def test_every_choice_is_legal_over_whole_games() -> None:
    rng = random.Random(4)
    from games.core.engine import Mode
    from games.riichi.engine.table import RiichiGame

    table = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=11, rules={"場数": 1})
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    while not table.is_over:
        seat = table.to_act()[0]
        action, params = choose(table.view(seat), table.legal_actions(seat), rng)
        assert any(a["type"] == action and a["params"] == params and a.get("allowed", True)
                   for a in table.legal_actions(seat))
        table.apply(seat, action, params)
    assert table.result()["players"][0]["rank"] in (1, 2, 3, 4)
