"""The service's side of the timing rule: the answer that would close a discard's decision window
too soon is held (``moves.Hold``), changes nothing, and goes through once the floor has passed;
the window's start survives a rebuild from the log (another process, a restart)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.service import clocks, lobby, moves
from games.state import replay as state

pytestmark = pytest.mark.django_db

FLOOR = 500


@pytest.fixture
def table(make_user, settings):
    settings.CALL_FLOOR_MS = FLOOR
    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules={"場数": 0})
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    by_position = {s.position: s.user for s in game.seats.all()}
    return game, by_position


def _window(game: Game, by_position, clock: list[int]) -> list[int]:
    """Play (default discards, at the time ``clock`` says) until a discard waits for the other
    three; their positions."""
    while True:
        game.refresh_from_db()
        entry = state.replay(game)
        waiting = entry.engine.to_act()
        if entry.engine.decision_window():
            return waiting
        seat = waiting[0]
        moves.apply_action(game.id, by_position[seat], "pass", [], answers=game.seq)


def test_the_last_answer_waits_for_the_floor(table, monkeypatch):
    game, by_position = table
    now = [10_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    waiting = _window(game, by_position, now)
    opened = now[0]
    game.refresh_from_db()
    seq = game.seq
    *first, last = waiting
    for seat in first:  # answers that leave the window open are never held, and are kept back
        moves.apply_action(game.id, by_position[seat], "pass", [])
    game.refresh_from_db()
    assert game.seq == seq and [row[0] for row in game.window_answers] == first
    now[0] = opened + FLOOR - 1
    with pytest.raises(moves.Hold) as held:
        moves.apply_action(game.id, by_position[last], "pass", [])
    assert held.value.until_ms == opened + FLOOR
    game.refresh_from_db()
    assert game.seq == seq and game.actions.count() == seq  # nothing changed

    # Rebuilt from the log (as another process would), the window still opened at the discard.
    state.engine_cache.clear()
    with pytest.raises(moves.Hold) as again:
        moves.apply_action(game.id, by_position[last], "pass", [])
    assert again.value.until_ms == opened + FLOOR

    now[0] = opened + FLOOR
    moves.apply_action(game.id, by_position[last], "pass", [])
    game.refresh_from_db()
    # The whole window's answers enter the log together, in the order they came.
    assert game.seq == seq + len(waiting) and game.window_answers == []
    logged = list(game.actions.filter(seq__gt=seq).order_by("seq").values_list("seat", "timestamp_ms"))
    assert logged == [(p, opened + FLOOR) for p in waiting]


def test_no_floor_no_hold(table, settings, monkeypatch):
    game, by_position = table
    settings.CALL_FLOOR_MS = 0
    now = [10_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    for seat in _window(game, by_position, now):
        moves.apply_action(game.id, by_position[seat], "pass", [])


def test_in_time_sends_a_held_answer_again_when_due(table, monkeypatch):
    game, by_position = table
    now = [10_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    waiting = _window(game, by_position, now)
    for seat in waiting[:-1]:
        moves.apply_action(game.id, by_position[seat], "pass", [])
    slept = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += round(seconds * 1000)

    monkeypatch.setattr(moves.time, "sleep", sleep)
    game.refresh_from_db()
    seq = game.seq  # the kept answers are not in the log yet
    assert len(game.window_answers) == len(waiting) - 1
    moves.apply_action_in_time(game.id, by_position[waiting[-1]], "pass", [])
    game.refresh_from_db()
    assert slept == [FLOOR / 1000] and game.seq == seq + len(waiting)


def _timed_table(make_user, **clock):
    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules={"場数": 0}, **clock)
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    return game, {s.position: s.user for s in game.seats.all()}


def test_a_held_answer_is_charged_up_to_when_it_came(make_user, settings, monkeypatch):
    settings.CALL_FLOOR_MS = FLOOR
    now = [10_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    game, by_position = _timed_table(make_user, time_start=100)
    waiting = _window(game, by_position, now)
    opened = now[0]
    for seat in waiting[:-1]:
        moves.apply_action(game.id, by_position[seat], "pass", [])
    last = waiting[-1]
    before = game.seats.get(position=last).clock_ms
    game.refresh_from_db()
    since = game.clock_since_ms
    now[0] = opened + 100  # the answer comes 100 ms after the discard, and is held to the floor

    def sleep(seconds: float) -> None:
        now[0] += round(seconds * 1000)

    monkeypatch.setattr(moves.time, "sleep", sleep)
    moves.apply_action_in_time(game.id, by_position[last], "pass", [])
    game.refresh_from_db()
    assert now[0] == opened + FLOOR
    assert game.seats.get(position=last).clock_ms == before - (opened + 100 - since)
    assert game.clock_since_ms == opened + FLOOR  # the next clocks start when the table moves on


def test_a_hold_never_outlasts_the_seats_own_clock(make_user, settings, monkeypatch):
    settings.CALL_FLOOR_MS = 60_000  # a floor far beyond the seat's time left
    now = [10_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    game, by_position = _timed_table(make_user, time_control={"per_decision": 5, "bank": 0})
    waiting = _window(game, by_position, now)
    for seat in waiting[:-1]:
        moves.apply_action(game.id, by_position[seat], "pass", [])
    game.refresh_from_db()
    deadline = game.deadline_ms
    with pytest.raises(moves.Hold) as held:
        moves.apply_action(game.id, by_position[waiting[-1]], "pass", [])
    assert held.value.until_ms == deadline - 1  # applied before the clock could play for the seat
    now[0] = deadline - 1
    seq = game.seq
    moves.apply_action(game.id, by_position[waiting[-1]], "pass", [])
    game.refresh_from_db()
    assert game.seq == seq + len(waiting) and not game.actions.filter(seq__gt=seq, auto=True).exists()
