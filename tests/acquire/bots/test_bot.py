"""The built-in Acquire bot against the engine alone: legal, complete, deterministic, sensible."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.acquire.bots.house import choose
from games.acquire.engine.game import AcquireGame
from games.acquire.engine.modes import MODES

MAX_ACTIONS = 2000


def assert_within_legal(action_type: str, params: list[Any], legal: dict[str, Any]) -> None:
    """What the bot chose is one of the options ``legal_actions`` offered, not just accepted."""
    assert action_type == legal["type"]
    if action_type == "PlayTile":
        assert params[0] in legal["tiles"]
    elif action_type in ("SelectNewChain", "SelectMergerSurvivor", "SelectChainToDisposeOfNext"):
        assert params[0] in legal["chains"]
    elif action_type == "DisposeOfShares":
        trade, sell = params
        assert trade % 2 == 0 and 0 <= trade <= legal["max_trade"]
        assert 0 <= sell and trade + sell <= legal["shares"]
    elif action_type == "PurchaseShares":
        chains, end = params
        assert len(chains) <= legal["max"] and end in (0, 1)
        prices = {c["chain"]: c["price"] for c in legal["chains"]}
        available = {c["chain"]: c["available"] for c in legal["chains"]}
        assert sum(prices[c] for c in chains) <= legal["cash"]
        assert all(chains.count(c) <= available[c] for c in set(chains))
        assert not end or legal["can_end"]


def play(mode: int, seed: int, bots: set[int] | None = None) -> AcquireGame:
    """A complete game; seats in ``bots`` (all by default) use the bot, the rest auto_action."""
    game = AcquireGame.create(mode=MODES[mode], seed=seed, rules={})
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return game
        [seat] = game.to_act()
        if bots is None or seat in bots:
            view = game.view(seat)
            assert "racks" not in view and "tile_bag" not in view  # only its own seat's view
            legal = game.legal_actions(seat)
            action_type, params = choose(view, legal, rng)
            assert_within_legal(action_type, params, legal[0])
        else:
            action_type, params = game.auto_action(seat)
        game.apply(seat, action_type, params)  # raises Rejection on an illegal move
    raise AssertionError(f"mode {mode} seed {seed}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("mode", sorted(MODES))
def test_bots_play_complete_legal_games_in_every_mode(mode: int) -> None:
    for seed in range(12):
        game = play(mode, seed)
        assert game.is_over and game.end_reason is not None
        assert len(game.result()["scores"]) == MODES[mode].seats


def test_same_rng_seed_same_game() -> None:
    assert play(4, 11).action_log == play(4, 11).action_log


def test_bot_beats_the_auto_player() -> None:
    """One bot against three ``auto_action`` players (buy nothing, keep everything) wins mostly."""
    games = 16
    wins = 0
    for seed in range(games):
        me = seed % 4
        game = play(4, seed, bots={me})
        wins += game.result()["players"][me]["rank"] == 1
    assert wins >= games * 3 // 4


def _turn(board: dict[str, Any], racks: list[list[str]], shares: list[list[int]], **kw: Any) -> AcquireGame:
    return AcquireGame.from_position(2, board=board, racks=racks, shares=shares, **kw)


def _answer(game: AcquireGame, seed: int = 0) -> tuple[str, list[Any]]:
    [seat] = game.to_act()
    return choose(game.view(seat), game.legal_actions(seat), random.Random(seed))


def test_grows_its_own_chain_rather_than_placing_a_lone_tile() -> None:
    game = _turn(
        {"1A": 0, "2A": 0, "9E": 1, "10E": 1},
        [["3A", "6G", "12I"], ["8E"]],
        [[4, 0, 0, 0, 0, 0, 0], [0, 4, 0, 0, 0, 0, 0]],
    )
    assert _answer(game) == ("PlayTile", [18])  # 3A grows Luxor, where it leads


def test_picks_the_survivor_it_holds_most_of() -> None:
    game = _turn(
        {"1A": 0, "2A": 0, "4A": 1, "5A": 1},
        [["3A"], ["12I"]],
        [[0, 5, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0]],
    )
    game.apply(0, "PlayTile", [18])
    assert game.decision == (0, "SelectMergerSurvivor")
    assert _answer(game) == ("SelectMergerSurvivor", [1])


@pytest.mark.parametrize(("mine", "theirs", "end"), [(10, 0, 1), (0, 10, 0)])
def test_ends_the_game_only_when_winning(mine: int, theirs: int, end: int) -> None:
    # Luxor fills column 1 and two more cells: 11 tiles, safe, so the game may be ended.
    luxor = {f"1{r}": 0 for r in "ABCDEFGHI"} | {"2A": 0, "2B": 0}
    game = _turn(luxor, [["12I"], ["12A"]], [[mine, 0, 0, 0, 0, 0, 0], [theirs, 0, 0, 0, 0, 0, 0]])
    game.apply(0, "PlayTile", [107])
    assert game.decision == (0, "PurchaseShares")
    action_type, params = _answer(game)
    assert action_type == "PurchaseShares" and params[1] == end
