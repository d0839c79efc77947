"""majiang-server's clock (games/service/clocks.py, per decision plus a bank), as arithmetic: unsaved
rows, a stand-in engine and moments given by hand. The service's use of it (riichi tables,
time-outs, new hands) is tested in tests/riichi/service/test_clocks.py."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.models import Game, Seat
from games.service import clocks

T0 = 1_700_000_000_000


class Engine:
    """What the clocks ask an engine: who it waits for, whether it is over, hands dealt."""

    def __init__(self, to_act: list[int], hands: int = 1) -> None:
        self.waiting = to_act
        self.hands = hands
        self.is_over = False

    def to_act(self) -> list[int]:
        return list(self.waiting)

    def hands_dealt(self) -> int:
        return self.hands


def table(per_decision: int = 5, bank: int = 20, seats: int = 4) -> tuple[Game, dict[int, Seat]]:
    game = Game(game_type="riichi", mode=4, time_per_decision=per_decision, time_bank=bank)
    by_position = {p: Seat(position=p, slot=p) for p in range(seats)}
    clocks.start(game, by_position.values(), T0)
    return game, by_position


def act(game: Game, by_position: dict[int, Seat], engine: Engine, mover: int, at_seconds: float,
        then: list[int], new_hand: bool = False) -> None:
    """``mover`` answers at T0 + ``at_seconds``; the engine then waits for ``then``."""
    before = engine.to_act()
    hand = engine.hands_dealt()
    engine.waiting = then
    if new_hand:
        engine.hands += 1
    clocks.charge(game, by_position, before, mover, T0 + round(at_seconds * 1000), engine, hand)


def banks(by_position: dict[int, Seat]) -> list[int]:
    return [by_position[p].bank_ms for p in sorted(by_position)]


def test_a_decision_has_its_limit_the_bank_and_half_a_second() -> None:
    game, seats = table()
    assert banks(seats) == [20_000] * 4
    assert all(s.clock_ms == 25_500 for s in seats.values()) and game.clock_since_ms == T0
    assert clocks.first_expiry(game, seats, [0]) == (T0 + 25_500, 0)
    assert clocks.seat_fields(game) == ["clock_ms", "bank_ms"]


@pytest.mark.parametrize(
    ("seconds", "bank_left"),
    [
        (0.0, 20_000),
        (5.0, 20_000),  # within the limit: the bank is untouched
        (5.5, 20_000),  # the grace: half a second over costs nothing
        (5.6, 20_000),  # 19.9 s left, rounded up to whole seconds
        (7.0, 19_000),  # 18.5 s left -> 19 (majiang-server: Math.ceil)
        (12.3, 14_000),
        (25.4, 1_000),
        (25.5, 0),  # the deadline itself: nothing left
    ],
)
def test_time_beyond_the_limit_comes_out_of_the_bank_rounded_up(seconds: float, bank_left: int) -> None:
    game, seats = table()
    engine = Engine([0])
    act(game, seats, engine, 0, seconds, then=[1, 2, 3])
    assert seats[0].bank_ms == bank_left
    # The next decisions start now, each with its own limit and bank.
    assert [seats[p].clock_ms for p in (1, 2, 3)] == [25_500] * 3
    assert game.clock_since_ms == T0 + round(seconds * 1000)


def test_seats_asked_together_keep_their_own_decision_running() -> None:
    game, seats = table()
    engine = Engine([0])
    act(game, seats, engine, 0, 1, then=[1, 2, 3])  # a discard: three seats answer
    act(game, seats, engine, 3, 3, then=[1, 2])  # seat 3 passes after 2 s
    # Seats 1 and 2 were charged those 2 s: their decision goes on, it does not restart.
    assert seats[1].clock_ms == seats[2].clock_ms == 23_500
    act(game, seats, engine, 2, 9, then=[1])  # seat 2 answers 8 s after the discard
    assert seats[2].bank_ms == 18_000  # 25.5 - 8 = 17.5 s left -> 18
    assert clocks.first_expiry(game, seats, [1]) == (T0 + 1_000 + 25_500, 1)
    act(game, seats, engine, 1, 10, then=[1])  # seat 1 calls and must discard: a new decision
    assert seats[1].bank_ms == 17_000 and seats[1].clock_ms == 5_000 + 17_000 + 500


def test_a_used_up_bank_leaves_the_limit_alone() -> None:
    game, seats = table(per_decision=3, bank=2)
    engine = Engine([0])
    act(game, seats, engine, 0, 5.5, then=[0])  # timed out (the service plays it at the deadline)
    assert seats[0].bank_ms == 0 and seats[0].clock_ms == 3_500
    assert clocks.first_expiry(game, seats, [0]) == (T0 + 5_500 + 3_500, 0)


def test_a_new_hand_fills_every_bank_again() -> None:
    game, seats = table()
    engine = Engine([0])
    act(game, seats, engine, 0, 20, then=[1, 2, 3])
    act(game, seats, engine, 1, 30, then=[2, 3])
    assert banks(seats) == [6_000, 16_000, 20_000, 20_000]
    # Seat 2's win ends the hand; the next hand is dealt in the same action.
    act(game, seats, engine, 2, 31, then=[1], new_hand=True)
    assert banks(seats) == [20_000] * 4
    assert seats[1].clock_ms == 25_500 and game.clock_since_ms == T0 + 31_000


class PlainEngine:
    """An engine without the optional ``hands_dealt`` (Acquire's, cribbage's)."""

    is_over = False

    def to_act(self) -> list[int]:
        return [0]


def test_a_game_without_hands_keeps_one_bank_for_the_whole_game() -> None:
    game, seats = table(seats=2)
    engine = PlainEngine()
    assert clocks.hands_dealt(engine) is None
    clocks.charge(game, seats, [0], 0, T0 + 10_000, engine, clocks.hands_dealt(engine))
    clocks.charge(game, seats, [0], 0, T0 + 20_000, engine, clocks.hands_dealt(engine))
    assert seats[0].bank_ms == 12_000  # 16 s left after the first decision, 11.5 (so 12) after the second


def test_describe_splits_each_clock_into_decision_and_bank() -> None:
    game, seats = table()
    engine = Engine([0])
    act(game, seats, engine, 0, 7, then=[1, 2, 3])
    now = T0 + 7_000 + 2_000
    described = {c["position"]: c for c in clocks.describe(game, seats.values(), [1, 2, 3], now)}
    assert described[0] == {"position": 0, "remaining_ms": 24_000, "running": False,
                            "per_decision_ms": 5_000, "bank_ms": 19_000}
    assert described[1] == {"position": 1, "remaining_ms": 23_000, "running": True,
                            "per_decision_ms": 3_000, "bank_ms": 20_000}
    later = {c["position"]: c for c in clocks.describe(game, seats.values(), [1, 2, 3], now + 10_000)}
    assert later[2] == {"position": 2, "remaining_ms": 13_000, "running": True, "per_decision_ms": 0, "bank_ms": 13_000}
    # Past the deadline (the sweeper has not played yet) nothing is negative.
    gone = clocks.describe(game, seats.values(), [1, 2, 3], now + 60_000)
    assert all(c["remaining_ms"] == c["per_decision_ms"] == c["bank_ms"] == 0 for c in gone if c["running"])


def test_fischer_clocks_are_unchanged() -> None:
    game = Game(game_type="acquire", mode=2, time_start=60, time_increment=5)
    seats = {p: Seat(position=p, slot=p) for p in range(2)}
    clocks.start(game, seats.values(), T0)
    clocks.charge(game, seats, [0], 0, T0 + 7_500, Engine([1]), 1)
    assert seats[0].clock_ms == 60_000 - 7_500 + 5_000 and seats[0].bank_ms is None
    assert clocks.seat_fields(game) == ["clock_ms"]
    assert clocks.describe(game, seats.values(), [1], T0 + 8_500) == [
        {"position": 0, "remaining_ms": 57_500, "running": False},
        {"position": 1, "remaining_ms": 59_000, "running": True},
    ]
    assert clocks.describe_control(game) is None


def test_untimed() -> None:
    game = Game(game_type="riichi", mode=4)
    assert not clocks.is_timed(game) and clocks.describe(game, [], [], T0) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ({"per_decision": 5, "bank": 20}, (5, 20)),
        ({"per_decision": 10}, (10, 0)),
        ({"per_decision": 1, "bank": 0}, (1, 0)),
        ({"per_decision": 3600, "bank": 3600}, (3600, 3600)),
    ],
)
def test_time_control_accepted(value, expected) -> None:
    assert clocks.time_control(value) == expected


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ({"per_decision": -5, "bank": 20}, "per_decision is a whole number of seconds from 1 to 3600, not -5"),
        ({"per_decision": 0}, "per_decision is a whole number of seconds from 1 to 3600, not 0"),
        ({"per_decision": 5, "bank": -1}, "bank is a whole number of seconds from 0 to 3600, not -1"),
        ({"per_decision": 10**12, "bank": 20}, "not 1000000000000"),
        ({"per_decision": 5, "bank": 3601}, "not 3601"),
        ({"per_decision": "5"}, "not '5'"),
        ({"per_decision": 5.0}, "not 5.0"),
        ({"per_decision": True}, "not True"),
        ({"per_decision": 5, "bank": None}, "not None"),
        ({"per_decision": [5]}, "not [5]"),
        ({"per_decision": "x" * 100}, "not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
        ({"bank": 20}, "time_control needs per_decision"),
        ({"per_decision": 5, "bonus": 1}, "time_control has no 'bonus'"),
        ({}, "time_control needs per_decision"),
        ([5, 20], "time_control is an object"),
        ("5+20", "time_control is an object"),
        (5, "time_control is an object"),
    ],
)
def test_time_control_refused_with_its_reason(value, reason) -> None:
    with pytest.raises(GameError) as refused:
        clocks.time_control(value)
    assert refused.value.code == "InvalidTimeControl" and reason in refused.value.reason
