"""The built-in cribbage bot against the engine alone: legal, complete, deterministic and sensible."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cribbage.bots.house import choose, peg_card
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.discard import best_discard
from tests.cribbage.engine.test_game_manual import MANUAL, to_the_show
from tests.cribbage.engine.test_game_pegging import ready

MAX_ACTIONS = 3000


def assert_within_legal(kind: str, params: list[Any], legal: list[dict[str, Any]]) -> None:
    """What the bot chose is one of the options ``legal_actions`` offered, not just accepted."""
    options = {action["type"]: action for action in legal}
    assert kind in options and kind != "pause"
    option = options[kind]
    if kind == "discard":
        assert len(params) == option["count"] and set(params) <= set(option["cards"])
    elif kind == "play":
        assert params[0] in option["cards"] and len(params) == (2 if option["claim"] else 1)


def random_player(game: CribbageGame, seat: int, rng: random.Random) -> tuple[str, list[Any]]:
    """Any legal discard and card, uniformly; the engine's own answers to everything else."""
    legal = {action["type"]: action for action in game.legal_actions(seat)}
    if "discard" in legal:
        return "discard", rng.sample(legal["discard"]["cards"], legal["discard"]["count"])
    if "play" in legal and not game.rules.manual:
        return "play", [rng.choice(legal["play"]["cards"])]
    return game.auto_action(seat)


def play(mode: int, seed: int, rules: dict[str, Any], bots: set[int] | None = None) -> CribbageGame:
    """A complete game: seats in ``bots`` (all by default) use the bot, the others play at random."""
    game = CribbageGame(mode, seed, {**rules, "first_dealer": seed % mode})
    game.apply(seed % mode, "deal", [])
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return game
        seat = game.to_act()[0]
        if bots is None or seat in bots:
            view = game.view(seat)
            assert "hands" not in view and "crib" not in view  # only its own seat's view
            legal = game.legal_actions(seat)
            kind, params = choose(view, legal, rng)
            assert_within_legal(kind, params, legal)
        else:
            kind, params = random_player(game, seat, rng)
        game.apply(seat, kind, params)
    raise AssertionError(f"mode {mode} seed {seed}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("rules", [{}, {"counting": "manual", "variants": "D"}])
def test_bots_play_complete_legal_games(mode: int, rules: dict[str, Any]) -> None:
    for seed in range(3):
        game = play(mode, seed, rules)
        assert game.is_over and 121 in game.result()["scores"]


def test_same_rng_seed_same_game() -> None:
    assert play(3, 11, {}).action_log == play(3, 11, {}).action_log


def test_bot_beats_a_random_player_clearly() -> None:
    games = 40
    wins = 0
    for seed in range(games):
        me = seed % 2
        wins += play(2, seed, {}, bots={me}).result()["winner"] == me
    assert wins >= 32, wins


def view_for_play(play_cards: list[tuple[int, str]], count: int, hand: list[str], *, seats: int = 2,
                  sizes: list[int] | None = None) -> dict[str, Any]:
    """A bot's-eye view in the middle of the play, for seat 0."""
    played: list[list[str]] = [[] for _ in range(seats)]
    for seat, card in play_cards:
        played[seat].append(card)
    return {"viewer": 0, "seats": seats, "teams": 0, "hand": hand, "discarded": [], "starter": "KD",
            "play": [[seat, card] for seat, card in play_cards], "count": count, "played": played,
            "hand_sizes": sizes or [len(hand)] + [4] * (seats - 1)}


def test_pegging_takes_points_and_does_not_lead_a_five() -> None:
    rng = random.Random(0)
    assert peg_card(view_for_play([], 0, ["5C", "4H", "9S", "KH"]), ["5C", "4H", "9S", "KH"], rng) == "4H"
    # Fifteen for two beats a quiet card.
    view = view_for_play([(1, "0H")], 10, ["5C", "2H", "3S", "AH"], sizes=[4, 3])
    assert peg_card(view, ["5C", "2H", "3S", "AH"], rng) == "5C"
    # A pair for two when nothing else scores.
    view = view_for_play([(1, "8H")], 8, ["8C", "2H", "AS", "3D"], sizes=[4, 3])
    assert peg_card(view, ["8C", "2H", "AS", "3D"], rng) == "8C"


def test_pegging_stays_off_five_and_twenty_one() -> None:
    rng = random.Random(0)
    # At 16, a five leaves 21 (a ten-card makes 31); the six leaves 22.
    view = view_for_play([(1, "9H"), (0, "7C")], 16, ["5C", "6H"], sizes=[2, 3])
    assert peg_card(view, ["5C", "6H"], rng) == "6H"
    # At 0 with only a five and a king: the king leaves 10 (any five makes 15), the five leaves 5
    # (any of sixteen ten-cards makes 15), so the king.
    assert peg_card(view_for_play([], 0, ["5C", "KH"]), ["5C", "KH"], rng) == "KH"


def test_pegging_does_not_give_a_fifteen_away() -> None:
    rng = random.Random(0)
    # At 4, the ace makes 5, where any of sixteen ten-cards makes fifteen; the king makes 14,
    # where only an ace does.
    view = view_for_play([(1, "4H")], 4, ["AC", "KH"], sizes=[2, 3])
    assert peg_card(view, ["AC", "KH"], rng) == "KH"


def test_discard_keeps_the_best_hand() -> None:
    # Three fives and a jack are worth keeping whoever owns the crib.
    for own_crib in (True, False):
        assert sorted(best_discard(["5H", "5D", "5S", "JC", "2C", "9D"], 2, own_crib)) == ["2C", "9D"]
    # Never give the opponents' crib a pair of fives when the rest is as good.
    assert "5H" not in best_discard(["5H", "5D", "KC", "QD", "8S", "2H"], 2, False)


def test_discard_in_three_and_four_player_games() -> None:
    assert best_discard(["4H", "5D", "6S", "KC", "QD"], 1, False) in (["KC"], ["QD"])


def test_manual_claims_are_true_and_wrong_claims_are_called() -> None:
    rng = random.Random(0)
    game, _ = to_the_show(MANUAL)
    kind, params = choose(game.view(1), game.legal_actions(1), rng)
    assert (kind, params) == ("count", [20])
    game.apply(1, "count", [18])
    assert choose(game.view(0), game.legal_actions(0), rng) == ("muggins", [20])
    game.apply(0, "muggins", [20])
    assert choose(game.view(1), game.legal_actions(1), rng) == ("vote", [True])


def test_under_n_the_bot_does_not_call_an_under_claim_but_does_an_over_claim() -> None:
    rng = random.Random(0)
    game, _ = to_the_show({**MANUAL, "variants": "N"})
    game.apply(1, "count", [18])
    assert choose(game.view(0), game.legal_actions(0), rng) == ("agree", [])
    game, _ = to_the_show({**MANUAL, "variants": "N"})
    game.apply(1, "count", [22])
    assert choose(game.view(0), game.legal_actions(0), rng) == ("muggins", [20])


def test_the_bot_calls_a_wrong_pegging_claim_and_unpauses() -> None:
    rng = random.Random(0)
    game, _ = ready(2, [["2C", "3C", "4C", "9D"], ["5H", "5D", "5S", "0C"]], starter="KS", rules=MANUAL)
    game.apply(1, "play", ["0C", 2])
    assert choose(game.view(0), game.legal_actions(0), rng) == ("muggins", [0])
    game.apply(0, "pause", [])
    assert choose(game.view(0), game.legal_actions(0), rng) == ("unpause", [])
