"""Time control: clocks charged while a seat is waited for, increments, time-outs played
automatically and flagged, deadlines that survive a restart, clocks shown to every player."""

from __future__ import annotations

import asyncio

import pytest

from games.acquire.records.review_io import review_for_game
from games.models import Action, Game, Seat
from games.service import lobby, moves, reads, sweeper
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)



def timed_game(make_user, time_start=60, time_increment=5, n=2):
    users = [make_user() for _ in range(n)]
    game = lobby.create_table(users[0], "acquire", n, time_start=time_start, time_increment=time_increment)
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    by_position = {s.position: s.user for s in game.seats.select_related("user")}
    return game, by_position


def to_act(game: Game) -> int:
    return state.replay(Game.objects.get(id=game.id)).engine.to_act()[0]


def clock_of(game: Game, position: int) -> int:
    return Seat.objects.get(game=game, position=position).clock_ms


def test_clocks_charge_the_waiting_seat_and_add_the_increment(make_user, clock):
    game, users = timed_game(make_user)
    game.refresh_from_db()
    assert game.deadline_ms is not None
    mover = to_act(game)
    starter = Action.objects.get(game=game, seq=1).seat
    # 60 s each; the host's StartGame was a move of theirs, so it earned them the 5 s increment.
    assert clock_of(game, starter) == 65_000
    start_clock = clock_of(game, mover)
    assert start_clock == (65_000 if mover == starter else 60_000)
    assert game.deadline_ms == game.clock_since_ms + start_clock
    clock(7.5)
    action_type, params = state.replay(game).engine.auto_action(mover)
    moves.apply_action(game.id, users[mover], action_type, params)
    assert clock_of(game, mover) == start_clock - 7_500 + 5_000
    game.refresh_from_db()
    waiting = state.replay(game).engine.to_act()  # the mover again if it now buys shares
    snapshot = reads.snapshot(game, users[1 - mover])
    assert {c["position"] for c in snapshot["clocks"] if c["running"]} == set(waiting)
    assert game.deadline_ms == game.clock_since_ms + min(clock_of(game, p) for p in waiting)


def test_time_out_plays_automatically_and_is_flagged(make_user, clock):
    game, users = timed_game(make_user, time_start=30, time_increment=0)
    mover = to_act(game)
    before = Game.objects.get(id=game.id).seq
    clock(29)
    assert not moves.expire_due(game.id)
    clock(2)
    assert moves.expire_due(game.id)
    game.refresh_from_db()
    timed_out = Action.objects.get(game=game, seq=before + 1)
    assert timed_out.auto and timed_out.seat == mover
    # Played at the moment the clock ran out, not when the sweeper noticed.
    assert timed_out.timestamp_ms == clock.now() - 1000
    assert clock_of(game, mover) == 0
    # A move the player sends now is too late for that decision.
    engine = state.replay(game).engine
    if not engine.is_over and mover not in engine.to_act():
        with pytest.raises(moves.GameError) as refused:
            moves.apply_action(game.id, users[mover], "PlayTile", [0])
        assert refused.value.code == "NotYourTurn"


def test_clocks_out_for_everyone_ends_the_game_and_review_flags_auto(make_user, clock):
    game, users = timed_game(make_user, time_start=10, time_increment=0)
    clock(3600)
    assert moves.expire_all_due() == 1
    game.refresh_from_db()
    assert game.status == "finished" and game.deadline_ms is None
    review = review_for_game(game)
    actions = review[8]
    assert len(actions) == game.seq
    # StartGame was the host's own move; every later action was played on time-out, flagged 1.
    assert all(a[-1] == 1 for a in actions[1:]) and actions[0][-1] != 1
    # Timestamps: the first is ms since the epoch, the rest deltas from the previous action.
    assert actions[0][1] > 1_600_000_000_000 and all(0 <= a[1] < 60_000 for a in actions[1:])


def test_deadline_survives_a_restart(make_user, clock):
    game, users = timed_game(make_user, time_start=20, time_increment=0)
    deadline = Game.objects.get(id=game.id).deadline_ms
    state.engine_cache.clear()  # a new process knows only the database
    clock(21)
    assert moves.expire_all_due() == 1
    assert Action.objects.filter(game=game, auto=True).first().timestamp_ms == deadline


def test_untimed_games_have_no_clocks(make_user):
    game, users = timed_game(make_user, time_start=None, time_increment=0)
    game.refresh_from_db()
    assert game.deadline_ms is None and game.clock_since_ms is None
    assert reads.snapshot(game, users[0])["clocks"] is None


async def test_sweeper_thread_times_out_a_live_game_over_websocket(clients, db_call, make_user):
    alice, bob = await db_call(make_user), await db_call(make_user)
    a = await clients(alice)
    b = await clients(bob)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 2, "time_start": 1, "time_increment": 0})
    game_id = (await a.expect("GameCreated"))["game"]
    await b.send({"type": "JoinGame", "game": game_id})
    await a.expect("UserJoinedGame")
    for conn in (a, b):
        await conn.send({"type": "AcceptSetup", "game": game_id})
    first = await a.expect("GameMessages", game=game_id)
    assert all(900 < c["remaining_ms"] <= 1000 for c in first["clocks"])
    assert sum(c["running"] for c in first["clocks"]) == 1
    stop = asyncio.Event()
    task = asyncio.get_running_loop().create_task(sweeper.sweep(0.05, stop))
    try:
        # Nobody moves: both clocks run out and the sweeper plays the game to its end.
        inactive = await a.expect("GameInactive", game=game_id, timeout=30)
        assert inactive["status"] == "finished"
    finally:
        stop.set()
        await task
    autos = await db_call(lambda: Action.objects.filter(game_id=game_id, auto=True).count())
    assert autos == await db_call(lambda: Game.objects.get(id=game_id).seq) - 1
