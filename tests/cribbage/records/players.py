"""Whole cribbage games for the record tests: the built-in bot, and a sloppy player who miscounts.

The bot always claims the truth, so on its own it never makes a muggins happen. ``Sloppy`` plays
like the bot but now and then claims a wrong count and calls muggins on a right one, which makes
the other side's bots call muggins (and vote), and so puts every muggins outcome into the records.
"""

from __future__ import annotations

import random
from typing import Any

from games.cribbage.bots.house import choose
from games.cribbage.engine import CribbageGame
from games.cribbage.records.record import build_record

MAX_ACTIONS = 3000
NAMES = ["ann", "bob", "cy", "di"]


def rules_for(mode: int, seed: int, rules: dict[str, Any]) -> dict[str, Any]:
    return {**rules, "first_dealer": seed % mode}


class Sloppy:
    """Claims a wrong count with probability ``rate``, and calls muggins on a right one as often."""

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, game: CribbageGame, seat: int, rng: random.Random) -> tuple[str, list[Any]]:
        legal = game.legal_actions(seat)
        kind, params = choose(game.view(seat), legal, rng)
        if not game.rules.manual or rng.random() >= self.rate:
            return kind, params
        options = {action["type"]: action for action in legal}
        if kind in ("play", "count"):
            return kind, [*params[:-1], self._wrong(params[-1], rng)]
        if kind == "agree" and "muggins" in options:
            return "muggins", [self._wrong(options["muggins"]["claimed"], rng)]
        return kind, params

    @staticmethod
    def _wrong(points: int, rng: random.Random) -> int:
        wrong = points + rng.choice([-2, -1, 1, 2])
        return wrong if 0 <= wrong <= 29 else points + 1 if points < 29 else points - 1


def bot(game: CribbageGame, seat: int, rng: random.Random) -> tuple[str, list[Any]]:
    return choose(game.view(seat), game.legal_actions(seat), rng)


def play_game(mode: int, seed: int, rules: dict[str, Any], sloppy: dict[int, float] | None = None) -> CribbageGame:
    """A finished game on the seed: bots everywhere, ``Sloppy(rate)`` at the seats in ``sloppy``."""
    players = {seat: Sloppy(rate) for seat, rate in (sloppy or {}).items()}
    game = CribbageGame(mode, seed, rules_for(mode, seed, rules))
    game.apply(game.rules.first_dealer, "deal", [])
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return game
        seat = game.to_act()[0]
        game.apply(seat, *players.get(seat, bot)(game, seat, rng))
    raise AssertionError(f"mode {mode} seed {seed}: no end after {MAX_ACTIONS} actions")


def record_of(game: CribbageGame) -> dict[str, Any]:
    """The record of a finished game made on its seed (what the platform stores: seed, rules, log)."""
    fresh = CribbageGame(game.mode, game.seed, game.rules.as_dict())
    return build_record(fresh, game.action_log, NAMES[:game.seats])
