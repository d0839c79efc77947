"""Games that share players and end at the same moment, on database threads of their own: each
ending locks its players' rows before it takes its end time (games/service/ratings.py, ``settle``),
so the changes chain (each game's "before" is the last game's "after") and ``ratings rebuild``,
which replays the games by end time, reproduces every stored value. Without the lock, two endings
on PostgreSQL read the same rating of their shared player and one update is lost; ``verify`` then
finds the stored values off the replayed ones."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games.models import RatingChange
from games.service import door
from tests.ratings.games import end, singles

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 4
ROUNDS = 8


def test_games_sharing_players_that_end_at_once_rebuild_to_the_stored_ratings(make_user):
    if connections["default"].vendor != "postgresql":
        # SQLite runs one write transaction at a time (BEGIN IMMEDIATE): nothing ends at once there.
        pytest.skip("transactions that run at once: PostgreSQL (the scale-out run)")
    users = [make_user() for _ in range(PLAYERS)]
    start = threading.Barrier(PLAYERS)
    failures: list[BaseException] = []

    def play(i: int) -> None:
        try:
            for round_ in range(ROUNDS):
                start.wait(timeout=60)  # every thread's game ends at the same moment
                pair = [users[i], users[(i + 1) % PLAYERS]]  # each player is in two of the games
                end(pair, singles(1, 2) if (i + round_) % 2 else singles(2, 1))
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            failures.append(error)
            start.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(i,)) for i in range(PLAYERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not failures, failures
    assert RatingChange.objects.count() == PLAYERS * ROUNDS * 2
    assert door.verify_ratings() == []
