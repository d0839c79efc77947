"""The strong bot's ``placement`` knob (``strong.STYLE``; ``games/riichi/bots/placement.py``): in the
game's last hand a win and a deal-in count by the final places they lead to."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.riichi.bots import strong
from games.riichi.bots.placement import PLACE, SHARE, Placement, final_rank
from games.riichi.engine.rule import rule as make_rule
from tests.riichi.bots.test_strong import _stacked, strong_decisions

PLACED = {"placement": 1.0}
TENHOU = {**make_rule(), "延長戦方式": 1, "オーラス止めあり": True}


def standings(defen: list[int], dealer: int = 3, **extra: Any) -> dict[str, Any]:
    seats = [{"seat": s, "menfeng": (s - dealer) % 4} for s in range(4)]
    return {"defen": defen, "qijia": 0, "rule": TENHOU, "seats": seats, "dealer": dealer,
            "lizhibang": 0, "changbang": 0, **extra}


def test_ties_go_to_the_seat_nearer_the_first_dealer() -> None:
    assert final_rank([25000] * 4, 0, 0) == 1 and final_rank([25000] * 4, 3, 0) == 4
    assert final_rank([25000] * 4, 0, 2) == 3  # seats 2, 3, 0, 1
    assert final_rank([20000, 30000, 30000, 20000], 2, 0) == 2


def test_a_win_counts_the_places_it_gains() -> None:
    # South 4, seat 3 the dealer: 30,000 / 28,000 / 22,000 / 20,000.
    board = standings([30000, 28000, 22000, 20000])
    # The leader gains no place: a point counts SHARE.
    assert Placement(board, 0).win(2000) == pytest.approx(SHARE * 2000)
    # Second place, 2,000 behind: a 2,000 ron from the leader, or any tsumo (the leader pays 500),
    # takes first; a ron from third or fourth does not.
    second = Placement(board, 1)
    ron = (SHARE * 2000 + PLACE + 2 * SHARE * 2000) / 3
    assert second.win(2000) == pytest.approx(0.6 * ron + 0.4 * (SHARE * 2000 + PLACE))
    # The dealer in fourth: a win does not end the game, so its points count in full (1,000 moves
    # no place: a ron from third leaves a tie, which third wins, nearer the first dealer).
    assert Placement(board, 3).win(1000) == pytest.approx(1000)
    # A riichi stick on the table goes to the winner: a 1,000 win with it is a 2,000 win without.
    assert second.win(1000) < Placement({**board, "lizhibang": 1}, 1).win(1000) == second.win(2000)


def test_a_deal_in_costs_the_places_it_loses() -> None:
    board = standings([30000, 28000, 22000, 20000])
    leader = Placement(board, 0)
    # 2,000 to second place: it overtakes (and the game ends).
    assert leader.loss(2000, 1) == pytest.approx(SHARE * 2000 + PLACE)
    # 2,000 to third: no place lost, and with nobody at 30,000 the game goes into extra hands, so
    # the points count in full.
    assert leader.loss(2000, 2) == pytest.approx(2000)
    # 8,000 to the dealer in fourth: the game goes on, the points count in full and two places now.
    assert leader.loss(8000, 3) == pytest.approx(8000 + 2 * PLACE)
    # Fourth place cannot fall: only its points.
    assert Placement(standings([30000, 28000, 22000, 20000], dealer=0), 3).loss(8000, 1) == pytest.approx(SHARE * 8000)


def test_with_extra_hands_a_win_below_30000_does_not_end_the_game() -> None:
    # Nobody reaches 30,000 after a 1,000 win by seat 1 (second, tied with third and nearer the
    # first dealer): the game goes into extra hands, so the points count in full. A ron from the
    # leader takes first; from third or fourth it ties the leader, who is nearer the first dealer;
    # a tsumo (the dealer, seat 3, pays 500) takes first.
    board = standings([26000, 25000, 25000, 24000])
    assert Placement(board, 1).win(1000) == pytest.approx(0.6 * (1000 + PLACE / 3) + 0.4 * (1000 + PLACE))
    # Without extra hands the same win ends the game: a point counts SHARE.
    plain = {**board, "rule": {**TENHOU, "延長戦方式": 0}}
    assert Placement(plain, 1).win(1000) == pytest.approx(0.6 * (SHARE * 1000 + PLACE / 3)
                                                          + 0.4 * (SHARE * 1000 + PLACE))


def _riichi_position(hand: str, defen: list[int], last: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 0 (the dealer) has declared riichi discarding m9; seat 1 has drawn a live m5."""
    from tests.riichi.bots.test_bot import J0, J3B

    t = _stacked(["m234p234s234z1112", hand, J3B, J0], "m9 m5", baopai="p4")
    t.discard(0, "m9_*")
    view = t.game.view(1)
    view["defen"] = defen
    view["rule"] = TENHOU
    if last:
        view["zhuangfeng"], view["jushu"] = 1, 3
    return view, t.legal(1)


def test_the_leader_folds_a_valuable_tenpai_when_a_deal_in_loses_first_place() -> None:
    """Tenpai with the red p5 and the dora: pushed (the live m5 goes) anywhere but in the last hand
    as the leader 1,000 ahead of the riichi, where a deal-in loses first place and a win gains none:
    then the genbutsu m9 goes."""
    hand = "m789p406s23467z55"
    close = [28000, 29000, 22000, 21000]
    placed = strong.make_choose(style=PLACED)
    for last in (False, True):
        view, legal = _riichi_position(hand, close, last)
        want = "m9" if last else "m5"
        action, params = placed(view, legal, random.Random(0))
        assert action == "dapai" and params[0].startswith(want), (last, params)
        # Without the knob the strong level pushes there too.
        action, params = strong.choose(view, legal, random.Random(0))
        assert action == "dapai" and params[0].startswith("m5"), (last, params)
    # Far ahead, a deal-in costs no place: it pushes.
    view, legal = _riichi_position(hand, [12000, 50000, 20000, 18000], True)
    action, params = placed(view, legal, random.Random(0))
    assert action == "dapai" and params[0].startswith("m5"), params


def test_the_last_place_pushes_a_cheap_hand_whose_win_gains_a_place() -> None:
    """One from tenpai with nothing of value folds to the genbutsu against the riichi, unless this
    is the last hand and the seat is last, close behind third: a deal-in costs it no place, a win
    gains one."""
    hand = "m789p136s23468z25"
    placed = strong.make_choose(style=PLACED)
    view, legal = _riichi_position(hand, [40000, 18000, 21000, 21000], False)
    assert placed(view, legal, random.Random(0)) == ("dapai", ["m9"])
    view, legal = _riichi_position(hand, [40000, 18000, 21000, 21000], True)
    action, params = placed(view, legal, random.Random(0))
    assert action == "dapai" and not params[0].startswith("m9"), params
    assert strong.choose(view, legal, random.Random(0)) == ("dapai", ["m9"])  # the knob off: it folds


def test_before_the_last_hand_placement_changes_no_decision() -> None:
    """Whole east-only games: outside the last hand the knob leaves every decision as it was."""
    placed = strong.make_choose(style=PLACED)
    checked = 0
    for view, legal, _sp in strong_decisions(range(2)):
        if strong._standing(view, view["me"]["seat"])[0]:
            continue
        assert placed(view, legal, random.Random(1)) == strong.choose(view, legal, random.Random(1))
        checked += 1
    assert checked > 500
