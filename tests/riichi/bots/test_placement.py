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


def test_the_baseline_is_where_the_seat_finishes_if_the_hand_ends_without_it() -> None:
    # South 4, seat 3 the dealer: 30,000 / 28,000 / 22,000 / 20,000. For the leader: a draw (a
    # quarter) leaves it first; second's 5,200 win, by tsumo or from third or fourth, puts it
    # second; third's leaves it first; the dealer's 7,800 by tsumo (2,600 each) puts it second, by
    # ron from second or third leaves it first: 0.25 + 0.25 x (2 + 1 + 0.4 x 2 + 0.6 x 1) = 1.35.
    board = standings([30000, 28000, 22000, 20000])
    assert Placement(board, 0).baseline == pytest.approx(1.35)
    # Fourth place 5,000 behind third, at 1,100: no 5,200 win of another seat lifts it.
    assert Placement(standings([40000, 35000, 20000, 5000], dealer=0), 3).baseline == pytest.approx(4.0)


def test_a_win_counts_the_places_it_gains_over_the_baseline() -> None:
    board = standings([30000, 28000, 22000, 20000])
    # The leader's win ends the game in first: 0.35 of a place over the baseline, and a point
    # counts SHARE.
    assert Placement(board, 0).win(2000) == pytest.approx(SHARE * 2000 + PLACE * 0.35)
    # The dealer in fourth: its win does not end the game (it does not lead), so its points count
    # in full, and 1,000 moves it no place (a ron from third leaves a tie, which third wins,
    # nearer the first dealer).
    assert Placement(board, 3).win(1000) == pytest.approx(1000)
    # A riichi stick on the table goes to the winner (to an opponent's win in the baseline too).
    # Second's 1,000 ron from the leader leaves both at 29,000 (the leader nearer the first
    # dealer: still second) and nobody at 30,000, so the game goes on; with the stick it reaches
    # 30,000 and ends the game in first.
    second, stick = Placement(board, 1), Placement({**board, "lizhibang": 1}, 1)
    assert second._worth(1000, 1, 0) == pytest.approx(1000)
    assert stick._worth(1000, 1, 0) == pytest.approx(SHARE * 2000 + PLACE * (stick.baseline - 1))
    assert second.win(1000) < stick.win(1000)


def test_a_deal_in_costs_the_places_it_loses() -> None:
    board = standings([30000, 28000, 22000, 20000])
    leader = Placement(board, 0)
    # 2,000 to second place: it overtakes and the game ends, 0.65 of a place under the baseline.
    assert leader.loss(2000, 1) == pytest.approx(SHARE * 2000 + PLACE * 0.65)
    # 2,000 to third: no place lost, and with nobody at 30,000 the game goes into extra hands, so
    # the points count in full.
    assert leader.loss(2000, 2) == pytest.approx(2000)
    # 8,000 to the dealer in fourth: the game goes on, the points count in full and two places now.
    assert leader.loss(8000, 3) == pytest.approx(8000 + 2 * PLACE)
    # Fourth place with no way up cannot fall: only its points.
    last = Placement(standings([40000, 35000, 20000, 5000], dealer=0), 3)
    assert last.loss(3900, 1) == pytest.approx(SHARE * 3900)


def test_with_extra_hands_a_win_below_30000_does_not_end_the_game() -> None:
    # Nobody reaches 30,000 after a 1,000 win by seat 1 (second, tied with third and nearer the
    # first dealer): the game goes into extra hands, so the points count in full, with the places
    # from where it stands. A ron from the leader takes first; from third or fourth it ties the
    # leader, who is nearer the first dealer; a tsumo (the dealer, seat 3, pays 500) takes first.
    board = standings([26000, 25000, 25000, 24000])
    assert Placement(board, 1).win(1000) == pytest.approx(0.6 * (1000 + PLACE / 3) + 0.4 * (1000 + PLACE))
    # Without extra hands the same win ends the game: a point counts SHARE and the places are
    # counted from the baseline, 2.35 here (first's win leaves seat 1 second; third's or the
    # dealer's, 0.4 x 3 + 0.3 x 2 + 0.3 x 3 = 2.7; a draw second).
    plain = Placement({**board, "rule": {**TENHOU, "延長戦方式": 0}}, 1)
    assert plain.baseline == pytest.approx(2.35)
    first, second = SHARE * 1000 + PLACE * 1.35, SHARE * 1000 + PLACE * 0.35
    assert plain.win(1000) == pytest.approx(0.6 * (first + 2 * second) / 3 + 0.4 * first)


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
