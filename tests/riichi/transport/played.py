"""Whole riichi games played on the engine alone (no platform), for the codec tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.core.engine import Event, Mode
from games.riichi.bots import house as bot
from games.riichi.engine.table import RiichiGame

Chooser = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]


def kan_lover(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """The house bot, but every kan it may make it makes, and now and then a chi or pon: games
    with many kans, so the dora turned after them (kaigang) come in every order Majiang has."""
    for action in legal:
        if action.get("allowed", True) and (action["type"] == "gang" or (
                action["type"] == "fulou" and sum(c.isdigit() for c in action["params"][0]) == 4)):
            return action["type"], action["params"]
    calls = [a for a in legal if a["type"] == "fulou"]
    if calls and rng.random() < 0.3:
        call = rng.choice(calls)
        return call["type"], call["params"]
    return bot.choose(view, legal, rng)


def play_actions(seed: int, rules: dict[str, Any], chooser: Chooser = bot.choose,
                 ) -> tuple[RiichiGame, list[list[Event]]]:
    """A whole game of four ``chooser`` players: the engine, and the events of each action in turn
    (what the platform pushes at a time, when nobody is played by the server)."""
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules=rules)
    batches: list[list[Event]] = []
    play_through(engine, seed, chooser, batches.append)
    return engine, batches


def play_through(engine: RiichiGame, seed: int, chooser: Chooser, deliver: Callable[[list[Event]], None]) -> None:
    """Play ``engine`` to its end with four ``chooser`` players, each action's events handed to
    ``deliver`` as soon as it is applied (while the engine is in the state they led to)."""
    for seat, action, params in engine.initial_actions():
        deliver(engine.apply(seat, action, params))
    rng = random.Random(seed)
    while not engine.is_over:
        seat = engine.to_act()[0]
        action, params = chooser(engine.view(seat), engine.legal_actions(seat), rng)
        deliver(engine.apply(seat, action, params))


def play(seed: int, rules: dict[str, Any], chooser: Chooser = bot.choose) -> tuple[RiichiGame, list[Event]]:
    """A whole game of four ``chooser`` players; the engine and every event it made."""
    engine, batches = play_actions(seed, rules, chooser)
    return engine, [event for batch in batches for event in batch]
