"""Cribbage on the platform: lobby tables, ``games.service.moves.apply_action``, house bots and ``playbots``."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.core.errors import GameError
from games.cribbage.bots.house import choose
from games.models import Game, Status
from games.service import lobby, reads
from games.service import moves as write_path
from games.state import replay as state

# Transactional, so that on-commit hooks run and the service keeps its engine cached between moves
# (otherwise every move replays the whole log).
pytestmark = pytest.mark.django_db(transaction=True)


def start_table(users: list, mode: int, rules: dict[str, Any] | None = None) -> Game:
    game = lobby.create_table(users[0], "cribbage", mode, rules=rules)
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    return game


def play_to_the_end(game: Game, users: list, rng: random.Random) -> int:
    """Every seat's decisions made by the bot from that user's own snapshot, through the service."""
    by_position = {s.position: s.user for s in game.seats.select_related("user")}
    moves = 0
    seat = 0
    while True:
        game.refresh_from_db()
        if game.status != Status.ACTIVE:
            return moves
        mine = reads.snapshot(game, by_position[seat])
        if seat not in mine["to_act"]:
            seat = mine["to_act"][0]
            mine = reads.snapshot(game, by_position[seat])
        assert mine["position"] == seat and "hands" not in mine["view"]
        kind, params = choose(mine["view"], mine["legal"], rng)
        write_path.apply_action(game.id, by_position[seat], kind, params, answers=game.seq)
        moves += 1
        assert moves < 3000


@pytest.mark.parametrize(("mode", "rules"), [(2, {"counting": "manual"}), (3, None),
                                             (4, {"counting": "manual", "variants": "D"})])
def test_a_lobby_table_is_played_to_the_end_through_the_service(make_user, mode: int,
                                                                rules: dict[str, Any] | None) -> None:
    users = [make_user() for _ in range(mode)]
    game = start_table(users, mode, rules)
    assert game.actions.first().type == "deal"  # the platform's initial action: the first deal
    play_to_the_end(game, users, random.Random(mode))
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert 121 in game.result["scores"] and game.result["margin"] > 0
    rebuilt = state.replay(game)
    assert rebuilt.engine.is_over and rebuilt.engine.result() == game.result
    assert len(rebuilt.history) == game.history_size
    if mode == 4:
        assert [t["seats"] for t in game.result["teams"]] == [[0, 2], [1, 3]]


def test_histories_hide_other_hands_until_the_end(make_user) -> None:
    alice, bob = make_user(), make_user()
    game = start_table([alice, bob], 2)
    seats = {s.user_id: s.position for s in game.seats.all()}
    mine = reads.history(game, alice)["messages"]
    deals = [m for m in mine if m["type"] == "Deal"]
    for message in deals:
        seat, cards = message["params"]
        assert (None in cards) == (seat != seats[alice.id])
    spectator = reads.snapshot(game, None)
    assert spectator["view"]["hand"] is None and spectator["legal"] == []
    assert all(None in m["params"][1] for m in spectator["history"] if m["type"] == "Deal")


def test_house_bots_answer_for_themselves(make_user) -> None:
    alice = make_user()
    game = lobby.create_table(alice, "cribbage", 3, rules={"counting": "manual"})
    lobby.add_bot(alice, game.id)
    lobby.add_bot(alice, game.id)
    lobby.accept(alice, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    moves = play_to_the_end_as(game, alice)
    game.refresh_from_db()
    assert game.status == Status.FINISHED and moves > 0


def play_to_the_end_as(game: Game, user) -> int:
    rng = random.Random(1)
    moves = 0
    while True:
        game.refresh_from_db()
        if game.status != Status.ACTIVE:
            return moves
        snap = reads.snapshot(game, user)
        assert snap["position"] in snap["to_act"]  # the service has played the bots' turns
        kind, params = choose(snap["view"], snap["legal"], rng)
        write_path.apply_action(game.id, user, kind, params, answers=game.seq)
        moves += 1
        assert moves < 3000


def test_pause_through_the_service(make_user) -> None:
    alice, bob = make_user(), make_user()
    game = start_table([alice, bob], 2)
    by_position = {s.position: s.user for s in game.seats.select_related("user")}
    first, second = by_position[0], by_position[1]
    write_path.apply_action(game.id, first, "pause", [])
    game.refresh_from_db()
    snap = reads.snapshot(game, second)
    assert snap["view"]["paused"] and snap["to_act"] == [0]
    with pytest.raises(GameError) as refused:
        write_path.apply_action(game.id, first, "discard", ["AS", "AD"])
    assert refused.value.code == "IllegalAction"
    # Any seat may unpause (the seed: "any user may now unpause"), not only the one waited for.
    write_path.apply_action(game.id, second, "unpause", [])
    game.refresh_from_db()
    assert reads.snapshot(game, second)["to_act"] == [0, 1]
    write_path.apply_action(game.id, second, "pause", [])
    write_path.apply_action(game.id, first, "unpause", [])
    game.refresh_from_db()
    assert not reads.snapshot(game, first)["view"]["paused"]


def test_bad_rules_are_refused_by_the_lobby(make_user) -> None:
    with pytest.raises(GameError) as refused:
        lobby.create_table(make_user(), "cribbage", 2, rules={"counting": "shouted"})
    assert refused.value.code == "InvalidRules"


def playbots(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("playbots", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.mark.parametrize(("players", "mode", "name"), [("2", 2, "Two players"), ("3", 3, "Three players"),
                                                       ("4", 4, "Teams 2 vs 2")])
def test_playbots_plays_every_mode(players: str, mode: int, name: str) -> None:
    lines = playbots("cribbage", "--players", players, "--games", "1", "--seed", "3")
    [game] = Game.objects.filter(game_type="cribbage")
    assert game.mode == mode and game.status == Status.FINISHED
    assert lines[0].startswith(f"game {game.id}  mode {mode}  121  ")
    assert lines[-1].startswith(f"1 Cribbage games, {name}, seed 3")
    assert state.replay(game).engine.result() == game.result


def test_playbots_takes_manual_counting_rules() -> None:
    playbots("cribbage", "--players", "2", "--rule", '{"counting": "manual", "variants": "N"}')
    game = Game.objects.get(game_type="cribbage")
    assert game.rules["counting"] == "manual" and game.status == Status.FINISHED


def test_playbots_still_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(CommandError, match="no singles mode for 5 players"):
        playbots("cribbage", "--players", "5")
