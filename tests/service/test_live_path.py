"""The live path stays lean: the queries one action and one Snapshot cost do not grow with the
game's length or the number of games (docs/architecture.md, "The live path")."""

from __future__ import annotations

import copy
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import ChatMessage, Game
from games.service import chat as table_chat
from games.service import door, lobby, moves, reads, window
from games.state import replay as state

# One locked read of the game row, the append, the row update; the rest is the transaction
# itself (BEGIN and COMMIT). A timed game adds the seats' clocks (one bulk update). The tests
# commit for real: the engine returns to the cache only once a change commits.
ACTION_QUERIES = 5
# The game row; the table's recent chat is read only when its ``chat_version`` changed.
SNAPSHOT_QUERIES = 1

GAMES = [("acquire", 4), ("cribbage", 2), ("riichi", 4)]


def open_game(make_user, game_type: str, mode: int, others: int = 0) -> tuple[Game, dict[int, object]]:
    users = [make_user() for _ in range(mode)]
    game = lobby.create_table(users[0], game_type, mode)
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    return game, {s.position: s.user for s in game.seats.select_related("user")}


def play_one(game: Game, players: dict[int, object], *, cold: bool = False) -> int:
    """The engine's automatic move for the first seat the game waits for; its query count, less one
    insert for each answer kept back by a riichi call window that the move logs with it
    (games/service/window.py: the window's answers enter the log together, one row each).
    ``cold``: with the engine cache emptied first (as in a process that did not make the last move)."""
    game = Game.objects.get(id=game.id)
    with reads._reading(game) as entry:
        seat = window.deciding(game, entry.engine)[0]  # not a seat whose call answer is kept back
        action, params = entry.engine.auto_action(seat)
        seq = entry.seq
    if cold:
        state.engine_cache.clear()
    kept = len(game.window_answers)
    with CaptureQueriesContext(connection) as queries:
        moves.apply_action(game.id, players[seat], action, params, answers=seq)
    logged_with_it = kept if Game.objects.get(id=game.id).window_answers == [] else 0
    return len(queries) - logged_with_it


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game_type", "mode"), GAMES)
def test_queries_per_action_and_snapshot_are_bounded(make_user, game_type, mode):
    # Other games on the site cost the action nothing.
    for _ in range(3):
        open_game(make_user, game_type, mode)
    game, players = open_game(make_user, game_type, mode)
    counts = []
    snapshots = []
    for _ in range(60):
        game.refresh_from_db()
        if game.is_over:
            break
        counts.append(play_one(game, players))
        with CaptureQueriesContext(connection) as queries:
            door.snapshot_for(players[0], game.id)
        snapshots.append(len(queries))
    assert len(counts) >= 30, "the game ended too soon to show anything"
    assert max(counts) <= ACTION_QUERIES, counts
    assert max(snapshots) <= SNAPSHOT_QUERIES, snapshots
    # Flat: the last moves cost no more than the first did (a riichi answer kept back by a call
    # window costs one query less than a logged move, so both kinds occur at either end).
    assert max(counts[-5:]) <= max(counts[:5]), counts


@pytest.mark.django_db(transaction=True)
def test_a_timed_game_adds_only_the_clocks(make_user):
    users = [make_user() for _ in range(2)]
    game = lobby.create_table(users[0], "acquire", 2, time_start=600, time_increment=1)
    lobby.join(users[1], game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    players = {s.position: s.user for s in game.seats.select_related("user")}
    counts = [play_one(game, players) for _ in range(20)]
    assert max(counts) <= ACTION_QUERIES + 1, counts


@pytest.mark.django_db(transaction=True)
def test_a_cold_cache_costs_a_replay_once(make_user):
    """A process that did not make the last move (another Daphne) rebuilds once, then is lean."""
    game, players = open_game(make_user, "acquire", 2)
    for _ in range(10):
        play_one(game, players)
    cold = play_one(game, players, cold=True)
    warm = play_one(game, players)
    assert cold > warm and warm <= ACTION_QUERIES


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_is_read_from_its_record_not_replayed(make_user):
    game, players = open_game(make_user, "cribbage", 2)
    for _ in range(3000):
        game.refresh_from_db()
        if game.is_over:
            break
        play_one(game, players)
    assert game.status == "finished"
    state.engine_cache.clear()
    with CaptureQueriesContext(connection) as queries:
        snapshot = door.snapshot_for(players[1], game.id)
        history = reads.history(game, players[0], start=5)
    assert not any("games_action" in q["sql"] for q in queries.captured_queries)
    assert len(queries) <= SNAPSHOT_QUERIES + 3  # the record and the seats, for each
    # What the record says is what the log replayed says, everything revealed.
    entry = state.replay(game)
    revealed = json.loads(json.dumps(state.render_history(entry.history, None, True)))
    assert snapshot["history"] == revealed and history["messages"] == revealed[5:]
    assert snapshot["view"] == json.loads(json.dumps(entry.engine.view(1, reveal_all=True)))
    assert snapshot["position"] == 1 and snapshot["legal"] == [] and snapshot["to_act"] == []


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_reads_the_chat_only_when_it_changed(make_user):
    game, players = open_game(make_user, "acquire", 2)
    first, second = players[0], players[1]

    def snapshot() -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as queries:
            chat = door.snapshot_for(first, game.id)["chat"]
        reads = sum("games_chatmessage" in q["sql"] for q in queries.captured_queries)
        return [item["text"] for item in chat], reads

    assert snapshot() == ([], 0)  # a table that never chatted
    table_chat.post_chat(second, game.id, "hello")
    assert snapshot() == (["hello"], 1)
    assert snapshot() == (["hello"], 0)  # kept, and known current from the row
    table_chat.post_chat(first, game.id, "hi")
    assert snapshot() == (["hello", "hi"], 1)
    # The admin edits and deletes in bulk (queryset.delete); the next Snapshot reads again.
    message = ChatMessage.objects.get(text="hello")
    message.text = "[removed]"
    message.save()
    assert snapshot() == (["[removed]", "hi"], 1)
    ChatMessage.objects.filter(game=game, text="hi").delete()
    assert snapshot() == (["[removed]"], 1)
    # Another game's chat changes nothing here.
    other, other_players = open_game(make_user, "acquire", 2)
    table_chat.post_chat(other_players[0], other.id, "elsewhere")
    assert snapshot() == (["[removed]"], 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game_type", "mode"), GAMES)
def test_an_engine_behind_catches_up_with_the_actions_it_lacks(make_user, game_type, mode):
    """A process whose cached engine is behind (another process moved the game since) applies only
    the actions it lacks, one more query, and reaches the state a replay from the log reaches."""
    game, players = open_game(make_user, game_type, mode)
    for _ in range(8):
        play_one(game, players)
    game.refresh_from_db()
    entry = state.engine_cache.take(game.id, game.seq, game.setup_version)
    assert entry is not None and entry.seq == game.seq
    behind = copy.deepcopy(entry)  # this process's engine, as it was
    state.engine_cache.put(game.id, entry)
    for _ in range(3):  # the other process's moves
        play_one(game, players)
    game.refresh_from_db()
    assert game.seq > behind.seq
    state.engine_cache.put(game.id, behind)
    with CaptureQueriesContext(connection) as queries, reads._reading(game) as caught:
        assert caught is behind and caught.seq == game.seq
    assert len(queries) == 1, queries.captured_queries  # the actions it lacked, nothing else
    replayed = state.replay(game)
    assert caught.history == replayed.history and caught.last_acted == replayed.last_acted
    assert caught.engine.view(None, True) == replayed.engine.view(None, True)
    # The caught-up engine is kept: the next move costs what a move costs.
    assert play_one(game, players) <= ACTION_QUERIES


@pytest.mark.django_db(transaction=True)
def test_an_engine_up_to_date_is_used_as_it_is(make_user, monkeypatch):
    """The usual case of every move: the cached engine is the row's seq. Nothing is asked of the
    log; not even a query is built (building one costs a move a few percent of its time)."""
    game, players = open_game(make_user, "acquire", 4)
    play_one(game, players)
    game.refresh_from_db()
    entry = state.engine_cache.take(game.id, game.seq, game.setup_version)
    assert entry is not None and entry.seq == game.seq
    before = entry.engine.view(None, True)

    def no_query(*args, **kwargs):
        raise AssertionError("a query of the log was built for an engine that is up to date")

    monkeypatch.setattr(type(game.actions), "filter", no_query)
    monkeypatch.setattr(type(game.actions), "order_by", no_query)
    assert state.caught_up(game, entry) is entry and entry.engine.view(None, True) == before
