"""games/service/move_sql.py: the statements every move makes, built once, must read and write exactly
what the ORM would, on whichever database the suite runs on."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Action, Game
from games.service import move_sql


def _fields(game: Game) -> dict:
    return {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}


@pytest.mark.django_db(transaction=True)
def test_a_connection_may_first_read_unlocked_outside_a_transaction():
    """A database thread's first request may be a Snapshot: the locked read is not built for it
    (on PostgreSQL, select_for_update compiles only inside a transaction)."""
    game = Game.objects.create(game_type="acquire", mode=4, status="active", seed=1)
    connection.close()
    if hasattr(connection, move_sql._CACHE_ATTRIBUTE):
        delattr(connection, move_sql._CACHE_ATTRIBUTE)
    assert move_sql.game(game.id).id == game.id
    with transaction.atomic():
        assert move_sql.locked_game(game.id).id == game.id


@pytest.mark.django_db(transaction=True)
def test_the_locked_read_gives_what_the_orm_gives(make_user):
    host = make_user()
    game = Game.objects.create(game_type="acquire", mode=4, host=host, status="active", seed=2**62,
                               rules={"a": [1, "é"], "b": None}, time_start=600, clock_since_ms=5,
                               deadline_ms=2**40, started=timezone.now(), result={"players": [{"rank": 1}]})
    with transaction.atomic():
        read = move_sql.locked_game(game.id)
        assert move_sql.locked_game(game.id + 1000) is None
    assert _fields(read) == _fields(Game.objects.get(id=game.id))
    assert _fields(move_sql.game(game.id)) == _fields(read)  # the unlocked read, outside a transaction
    assert move_sql.game(game.id + 1000) is None
    for beyond in (2**63, -(2**63) - 1, 10**30):  # ids no column holds: no game, as with the ORM
        assert move_sql.game(beyond) is None and not Game.objects.filter(id=beyond).exists()
    assert read._state.adding is False and read._state.db == "default"
    with pytest.raises(RuntimeError):
        move_sql.locked_game(game.id)  # outside a transaction, as select_for_update refuses


@pytest.mark.django_db(transaction=True)
def test_the_writes_store_what_the_orm_would_store(make_user):
    game = Game.objects.create(game_type="acquire", mode=4, status="active", seed=1)
    with transaction.atomic():
        move_sql.insert_action(game, seq=1, seat=2, type="PlayTile", params=[5, {"x": "é"}],
                               timestamp_ms=2**41, auto=True, answers=0)
        move_sql.insert_action(game, seq=2, seat=None, type="Deal", params=[], timestamp_ms=1,
                               auto=False, answers=None)
        assert not Action.objects.filter(game=game).exists()  # written with the row
        game.seq, game.history_size, game.status = 2, 7, "finished"
        game.ended, game.result = timezone.now(), {"players": [1, 2], "1": None}
        move_sql.save_game(game, ("seq", "history_size", "status", "ended", "result"))
    stored = list(Action.objects.filter(game=game).order_by("seq").values("seq", "seat", "type", "params",
                                                                              "timestamp_ms", "auto", "answers"))
    assert stored == [
        {"seq": 1, "seat": 2, "type": "PlayTile", "params": [5, {"x": "é"}], "timestamp_ms": 2**41,
         "auto": True, "answers": 0},
        {"seq": 2, "seat": None, "type": "Deal", "params": [], "timestamp_ms": 1, "auto": False, "answers": None},
    ]
    again = Game.objects.get(id=game.id)
    assert model_to_dict(again) == model_to_dict(game)
    # The log's one-action-per-seq rule still holds.
    with pytest.raises(IntegrityError), transaction.atomic():
        move_sql.insert_action(game, seq=2, seat=1, type="PlayTile", params=[], timestamp_ms=1,
                               auto=False, answers=None)
        move_sql.save_game(game, ("seq",))


@pytest.mark.django_db(transaction=True)
def test_actions_go_with_the_row_or_not_at_all(make_user):
    game = Game.objects.create(game_type="acquire", mode=4, status="active", seed=1)

    def log(read: Game, seq: int) -> None:
        move_sql.insert_action(read, seq=seq, seat=0, type="PlayTile", params=[seq], timestamp_ms=seq,
                               auto=False, answers=None)

    # A transaction that rolls back takes the actions it logged with it: the next one, on a fresh
    # read of the row, writes only its own.
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        log(move_sql.locked_game(game.id), 1)
        raise ZeroDivisionError
    with transaction.atomic():
        read = move_sql.locked_game(game.id)
        log(read, 2)
        move_sql.write_actions(read)  # at once: a read of the log sees it
        assert list(Action.objects.filter(game=game).values_list("seq", flat=True)) == [2]
        for seq in range(3, 3 + move_sql.ROWS_PER_INSERT + 2):  # more than one INSERT's worth
            log(read, seq)
        read.seq = 2 + move_sql.ROWS_PER_INSERT + 2
        with CaptureQueriesContext(connection) as queries:
            move_sql.save_game(read, ("seq",))
        # The last piece of rows and the row's UPDATE share an execute where the driver allows it.
        assert len(queries) == (2 if move_sql._statements()[1].batches else 3)
    assert list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True)) == \
        list(range(2, 3 + move_sql.ROWS_PER_INSERT + 2))
    assert Game.objects.get(id=game.id).seq == read.seq
    with transaction.atomic():  # few rows: one execute on PostgreSQL, two on SQLite
        read = move_sql.locked_game(game.id)
        log(read, read.seq + 1)
        read.seq += 1
        with CaptureQueriesContext(connection) as queries:
            move_sql.save_game(read, ("seq",))
        assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    assert Action.objects.filter(game=game, seq=read.seq).exists()
