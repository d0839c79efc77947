"""A player away (``lifecycle.set_away``): the client went without leaving the game. The server
plays the seat's defaults, flagged auto, as it plays a forfeited seat, until the player comes back
and decides again; a forfeit stays a forfeit. (The native Majiang protocol marks a seat away when
its link drops: docs/protocols/majiang.md.)"""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.models import Action, Game, Seat
from games.service import door, lifecycle, lobby, reads
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: engines go back to the cache


def moves(game: Game) -> list[tuple[int, str, list, bool]]:
    return list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "type", "params", "auto"))


def test_a_seat_away_has_its_decision_played_at_once(scripted, riichi_table):
    game, users = riichi_table()  # the dealer (position 0) has drawn m2
    assert lifecycle.set_away(game.id, users[0], True) is True
    assert Seat.objects.get(game=game, user=users[0]).away
    # The default after a draw: tsumogiri, flagged as played by the server.
    assert moves(game)[-1] == (0, "dapai", ["m2_"], True)
    assert reads.snapshot(Game.objects.get(id=game.id), users[1])["to_act"] == [1, 2, 3]


def test_while_away_every_decision_is_the_servers_and_back_the_player_decides(scripted, riichi_table):
    game, users = riichi_table()
    assert lifecycle.set_away(game.id, users[1], True) is True
    assert lifecycle.set_away(game.id, users[1], True) is False  # nothing changes twice
    before = len(moves(game))
    door.apply_action(game.id, users[0], "dapai", ["m2_"])
    # Seat 1 could chi m2 (docs of ``scripted``): away, it passes, in the same step as the discard;
    # the pass is kept back with the window's other answers (games/service/window.py) until the last comes.
    assert moves(game)[before:] == [(0, "dapai", ["m2_"], False)]
    game.refresh_from_db()
    assert [(row[0], row[1], row[5]) for row in game.window_answers] == [(1, "pass", True)]
    door.apply_action(game.id, users[2], "pass", [])
    door.apply_action(game.id, users[3], "pass", [])
    assert moves(game)[before:before + 4] == [(0, "dapai", ["m2_"], False), (1, "pass", [], True),
                                              (2, "pass", [], False), (3, "pass", [], False)]
    # Seat 1's draw is played at once too (its tsumogiri), and the others are asked about it.
    assert moves(game)[-1][0] == 1 and moves(game)[-1][1] == "dapai" and moves(game)[-1][3] is True
    game.refresh_from_db()
    assert reads.snapshot(game, users[1])["to_act"] == [0, 2, 3]

    assert lifecycle.set_away(game.id, users[1], False) is True
    assert not Seat.objects.get(game=game, user=users[1]).away
    for position in (0, 2, 3):
        door.apply_action(game.id, users[position], "pass", [])
    # Seat 2 draws and discards; then seat 1 is asked about it, and the game waits for it.
    game.refresh_from_db()
    to_act = reads.snapshot(game, users[2])["to_act"]
    assert to_act == [2]
    door.apply_action(game.id, users[2], "pass", [])
    game.refresh_from_db()
    assert 1 in reads.snapshot(game, users[1])["to_act"]
    assert not any(seat == 1 and auto for seat, _, _, auto in moves(game)[-3:])
    door.apply_action(game.id, users[1], "pass", [])  # its own decision again (kept back: 0 and 3 to answer)
    game.refresh_from_db()
    assert [(row[0], row[1], row[5]) for row in game.window_answers] == [(1, "pass", False)]


def test_away_survives_a_rebuild_from_the_log(scripted, riichi_table):
    game, users = riichi_table()
    lifecycle.set_away(game.id, users[2], True)
    state.engine_cache.clear()  # another process, or a restart: the flag is in the database
    door.apply_action(game.id, users[0], "dapai", ["m2_"])
    game.refresh_from_db()  # seat 2's pass, played by the server, is kept back until the window closes
    assert [2, "pass", [], None] == game.window_answers[0][:4] and game.window_answers[0][5] is True


def test_a_forfeit_is_not_taken_back_and_only_players_are_away(scripted, riichi_table, make_user):
    game, users = riichi_table()
    lobby.leave(users[3], game.id)
    assert lifecycle.set_away(game.id, users[3], False) is False
    assert lifecycle.set_away(game.id, users[3], True) is False
    seat = Seat.objects.get(game=game, user=users[3])
    assert seat.forfeited and not seat.away
    with pytest.raises(GameError) as refused:
        lifecycle.set_away(game.id, make_user(), True)
    assert refused.value.code == "NotInGame"
    with pytest.raises(GameError) as refused:
        lifecycle.set_away(10**6, users[0], True)
    assert refused.value.code == "UnknownGame"


def test_nothing_is_away_outside_a_game_in_progress(make_user):
    host = make_user()
    game = lobby.create_table(host, "riichi", 4)
    assert lifecycle.set_away(game.id, host, True) is False
    assert not Seat.objects.get(game=game).away


def test_another_process_with_the_old_seat_flags_rebuilds(scripted, riichi_table):
    """Going away plays no move when the seat is not asked: the seq stays, so a second process's
    cached engine of that seq, read before, still thinks the seat is there. It must not be used
    (it would wait for the seat); the row's setup_version tells it that the seats changed."""
    import copy

    game, users = riichi_table()
    game.refresh_from_db()
    stale = copy.deepcopy(state.engine_cache.take(game.id, game.seq, game.setup_version))
    assert stale is not None and not any(s.away for s in stale.seats)
    seq = Game.objects.get(id=game.id).seq
    assert lifecycle.set_away(game.id, users[2], True) is True
    assert Game.objects.get(id=game.id).seq == seq  # nothing played: seat 2 was not asked
    state.engine_cache.put(game.id, stale)  # what the other process holds
    door.apply_action(game.id, users[0], "dapai", ["m2_"])
    game.refresh_from_db()  # seat 2's pass, played by the server, is kept back until the window closes
    assert [2, "pass", [], None] == game.window_answers[0][:4] and game.window_answers[0][5] is True
