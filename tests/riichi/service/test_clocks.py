"""majiang-server's clock on a riichi table, through the lobby and the game service with a clock
moved by hand: the bank spent and kept, renewed when a hand is dealt, the default played when
both run out (flagged auto), deadlines the sweeper enforces, and every clock in every push."""

from __future__ import annotations

import pytest

from games.models import Action, Game, Seat
from games.service import moves, reads
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)

FIVE_PLUS_TWENTY = {"per_decision": 5, "bank": 20}


def seats_of(game: Game) -> dict[int, Seat]:
    return {s.position: s for s in Seat.objects.filter(game=game)}


def banks(game: Game) -> list[int]:
    return [s.bank_ms for _, s in sorted(seats_of(game).items())]


def clocks_in(snapshot: dict) -> dict[int, dict]:
    return {c["position"]: c for c in snapshot["clocks"]}


def test_the_table_starts_with_full_banks_and_a_deadline(scripted, riichi_table, clock):
    start = clock.now()
    game, users = riichi_table(time_control=FIVE_PLUS_TWENTY)
    assert (game.time_per_decision, game.time_bank, game.time_start) == (5, 20, None)
    assert banks(game) == [20_000] * 4
    # The dealer (position 0) draws first: 5 s, the 20 s bank and majiang-server's half second.
    assert game.deadline_ms == start + 25_500
    snapshot = reads.snapshot(game, users[2])  # every player sees every clock
    assert clocks_in(snapshot) == {
        0: {"position": 0, "remaining_ms": 25_000, "running": True, "per_decision_ms": 5_000, "bank_ms": 20_000},
        **{p: {"position": p, "remaining_ms": 25_000, "running": False, "per_decision_ms": 5_000, "bank_ms": 20_000}
           for p in (1, 2, 3)},
    }


def test_a_slow_decision_spends_the_bank_and_the_rest_carry_on(scripted, riichi_table, clock):
    game, users = riichi_table(time_control=FIVE_PLUS_TWENTY)
    clock(10)
    running = clocks_in(reads.snapshot(game, users[1]))[0]
    assert (running["per_decision_ms"], running["bank_ms"]) == (0, 15_000)
    moves.apply_action(game.id, users[0], "dapai", ["m2_"])
    # 10 s on a 5 s limit: 15.5 s were left, rounded up to 16.
    assert banks(game) == [16_000, 20_000, 20_000, 20_000]
    clock(2)
    moves.apply_action(game.id, users[3], "pass", [])
    clock(0.5)
    moves.apply_action(game.id, users[2], "pass", [])
    clock(4.7)  # seat 1 answers 7.2 s after the discard, on the same decision as the others
    moves.apply_action(game.id, users[1], "pass", [])
    assert banks(game) == [16_000, 19_000, 20_000, 20_000]
    game.refresh_from_db()
    # Seat 1 draws next: a new decision with what is left of its bank.
    assert seats_of(game)[1].clock_ms == 5_000 + 19_000 + 500
    assert game.deadline_ms == clock.now() + 24_500
    # Stored, so another process (or a restart) goes on from the same clocks.
    state.engine_cache.clear()
    clock(24.5)
    assert moves.expire_due(game.id)
    assert Action.objects.filter(game=game, auto=True).get().seat == 1


def test_a_new_hand_renews_every_bank(scripted, riichi_table, clock):
    game, users = riichi_table(time_control=FIVE_PLUS_TWENTY)
    clock(12)
    moves.apply_action(game.id, users[0], "dapai", ["m2_"])
    clock(9)
    moves.apply_action(game.id, users[1], "pass", [])
    moves.apply_action(game.id, users[2], "pass", [])
    # Their answers are kept back until the window closes (games/service/window.py): nothing is charged yet.
    assert banks(game) == [14_000, 20_000, 20_000, 20_000]
    clock(1)
    moves.apply_action(game.id, users[3], "hule", [])  # ron: the hand ends, the next is dealt
    game.refresh_from_db()
    engine = state.replay(game).engine
    assert engine.hands_dealt() == 2 and engine.to_act() == [1]  # seat 1 deals now
    assert banks(game) == [20_000] * 4
    assert seats_of(game)[1].clock_ms == 25_500 and game.deadline_ms == clock.now() + 25_500


def test_run_out_clocks_play_the_default_flagged_auto(scripted, riichi_table, clock):
    game, users = riichi_table(time_control={"per_decision": 3, "bank": 4})
    start = clock.now()
    clock(7.4)
    assert not moves.expire_due(game.id)  # 3 + 4 s and the half second: not yet
    clock(0.2)
    assert moves.expire_due(game.id)
    tsumogiri = Action.objects.get(game=game, seq=2)
    assert (tsumogiri.seat, tsumogiri.type, tsumogiri.params, tsumogiri.auto) == (0, "dapai", ["m2_"], True)
    assert tsumogiri.timestamp_ms == start + 7_500  # at the deadline, not when it was noticed
    assert banks(game)[0] == 0
    # Three seats answer the discard; nobody does, and the three passes are played for them.
    clock(7.5)
    assert moves.expire_due(game.id)
    passes = list(Action.objects.filter(game=game, seq__gt=2).order_by("seq").values_list("seat", "type", "auto"))
    assert sorted(passes) == [(1, "pass", True), (2, "pass", True), (3, "pass", True)]
    assert banks(game) == [0, 0, 0, 0]
    # With its bank gone seat 1 has its 3 s (and the grace) per decision; a move after that is late.
    game.refresh_from_db()
    assert game.deadline_ms == start + 15_000 + 3_500  # the passes were played at 15 s
    clock(4)
    with pytest.raises(moves.GameError) as late:
        moves.apply_action(game.id, users[1], "dapai", [state.replay(game).engine.auto_action(1)[1][0]])
    assert late.value.code == "NotYourTurn"
    assert Action.objects.filter(game=game).order_by("-seq").first().auto


def test_the_sweeper_pass_enforces_every_due_table(scripted, riichi_table, clock):
    timed, _ = riichi_table(time_control={"per_decision": 1, "bank": 0})
    untimed, _ = riichi_table()
    assert untimed.deadline_ms is None and reads.snapshot(untimed, None)["clocks"] is None
    clock(2)
    assert moves.expire_all_due() == 1
    assert Action.objects.filter(game=timed, auto=True).exists()
    assert not Action.objects.filter(game=untimed, auto=True).exists()
