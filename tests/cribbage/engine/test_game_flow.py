"""Whole cribbage games in every mode and counting mode, checked step by step for invariants.

Players: the bot, the engine's ``auto_action``, and a "sloppy" player built on the bot that
mis-claims, calls doubtful muggins, votes at random and pauses, so that manual counting's
disputes (and their score corrections) happen in full games too.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.engine import Event
from games.cribbage.bots.house import choose
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.cards import is_card, new_deck

MAX_ACTIONS = 3000
Chooser = Callable[[CribbageGame, int, random.Random], tuple[str, list[Any]]]


def start(game: CribbageGame) -> list[Event]:
    [(seat, kind, params)] = game.initial_actions()
    return game.apply(seat, kind, params)


def by_bot(game: CribbageGame, seat: int, rng: random.Random) -> tuple[str, list[Any]]:
    return choose(game.view(seat), game.legal_actions(seat), rng)


def by_auto(game: CribbageGame, seat: int, rng: random.Random) -> tuple[str, list[Any]]:
    return game.auto_action(seat)


def sloppy(game: CribbageGame, seat: int, rng: random.Random) -> tuple[str, list[Any]]:
    legal = {action["type"]: action for action in game.legal_actions(seat)}
    if "pause" in legal and rng.random() < 0.03:
        return "pause", []
    if "vote" in legal and rng.random() < 0.3:
        return "vote", [rng.random() < 0.5]
    if "muggins" in legal and rng.random() < 0.1:
        claimed = legal["muggins"]["claimed"]
        return "muggins", [claimed + 1 if claimed < 29 else claimed - 1]
    kind, params = by_bot(game, seat, rng)
    if kind in ("play", "count") and game.rules.manual and rng.random() < 0.25:
        params = list(params)
        params[-1] = max(0, params[-1] + rng.choice((-2, -1, 1, 2)))
    return kind, params


CHOOSERS: dict[str, Chooser] = {"bot": by_bot, "auto": by_auto, "sloppy": sloppy}


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere inside a JSON-like value."""
    if isinstance(value, str):
        return {value} if is_card(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


class Watcher:
    """Checks, as the game goes, what each seat and a spectator may see and the other invariants."""

    def __init__(self, game: CribbageGame) -> None:
        self.game = game
        self.public: set[str] = set()  # cards shown to everyone this hand
        self.own: list[set[str]] = [set() for _ in range(game.seats)]  # each seat's dealt cards this hand
        self.scores = game.result()["scores"]
        self.laid: list[set[str]] = [set() for _ in range(game.seats)]  # each seat's discards
        self.crib: set[str] = set()
        self.shown: dict[tuple[int, str], list[str]] = {}

    def events(self, events: list[Event]) -> None:
        game = self.game
        for event in events:
            if event.type == "Deal":
                seat, cards = event.params
                if seat == 0:
                    self.public = set()
                    self.own = [set() for _ in range(game.seats)]
                self.own[seat] = set(cards)
                self.laid[seat] = set()
                self.crib = set()
            if event.type == "Discarded":
                self.laid[event.player] = set(event.params[0])
                self.crib |= set(event.params[0])
            if event.type == "CribCard":
                self.crib |= set(event.params)
            for viewer in [None, *range(game.seats)]:
                seen = cards_in(event.render(viewer)["params"])
                allowed = self.public | (self.own[viewer] if viewer is not None else set())
                if event.visible_to is None:
                    allowed |= self.revealed(event)
                assert seen <= allowed, (event, viewer, seen - allowed)
            if event.visible_to is None:
                self.public |= self.revealed(event)
            else:
                assert all(v is None for v in cards_in_hidden(event)), event
            if event.type == "Show":
                what, cards, starter = event.params
                self.shown[(event.player, what)] = cards
            if event.type == "MugginsResult":
                self.scores = game.result()["scores"]  # the one place a score may go down
        scores = game.result()["scores"]
        assert all(after >= before for before, after in zip(self.scores, scores)), (self.scores, scores)
        self.scores = scores

    def revealed(self, event: Event) -> set[str]:
        """The cards an event legitimately shows everyone for the first time."""
        if event.type == "Starter":
            return {event.params[0]}
        if event.type == "Played":
            return {event.params[0]}
        if event.type == "Show":
            what, cards, _ = event.params
            expected = self.crib if what == "crib" else self.own[event.player] - self.laid[event.player]
            assert set(cards) == expected and len(cards) == 4
            return set(cards)
        return set()

    def state(self) -> None:
        game = self.game
        truth = game.view(None, reveal_all=True)
        # Every card is in exactly one place.
        places = [*truth["hands"], *truth["played"], truth["crib"], truth["deck"]]
        if truth["starter"]:
            places.append([truth["starter"]])
        if truth["phase"] == "discard":
            places += [d for d in truth["discards"] if d]
        cards = [card for place in places for card in place]
        if truth["phase"] != "deal":
            assert sorted(cards) == sorted(new_deck()), truth
        # Views: a seat sees its own cards and the public ones; a spectator only the public ones.
        for viewer in [None, *range(game.seats)]:
            view = game.view(viewer)
            assert "hands" not in view and "crib" not in view and "deck" not in view
            shows = view.pop("shows"), view.pop("last_show")
            for show in shows[0]:
                assert self.shown[(show["seat"], show["what"])] == show["cards"]
            allowed = self.public | (self.own[viewer] if viewer is not None else set())
            assert cards_in(view) <= allowed, (viewer, cards_in(view) - allowed)
        for seat in game.to_act():
            assert game.legal_actions(seat), seat


def cards_in_hidden(event: Event) -> list[Any]:
    """The hidden rendering's card slots (all must be None)."""
    hidden = event.hidden_params or []
    flat: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and is_card(value):
            flat.append(value)

    walk(hidden)
    return flat


def play_game(mode: int, seed: int, rules: dict[str, Any], chooser: Chooser, *, watch: bool = True,
              try_auto: bool = False) -> tuple[CribbageGame, list[Event]]:
    """A complete game; every event and state checked by a ``Watcher`` when ``watch``."""
    game = CribbageGame(mode, seed, rules)
    watcher = Watcher(game) if watch else None
    events = start(game)
    if watcher:
        watcher.events(events)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return game, events
        if watcher:
            watcher.state()
        if try_auto:
            # The automatic action of every seat the game waits for is legal (tried on copies).
            for waiting in game.to_act():
                kind, params = game.auto_action(waiting)
                assert kind in {a["type"] for a in game.legal_actions(waiting)}
                copy.deepcopy(game).apply(waiting, kind, params)
        seat = rng.choice(game.to_act())
        kind, params = chooser(game, seat, rng)
        new = game.apply(seat, kind, params)
        if watcher:
            watcher.events(new)
        events += new
    raise AssertionError(f"mode {mode} seed {seed}: no end after {MAX_ACTIONS} actions")


def check_finished(game: CribbageGame, events: list[Event]) -> None:
    result = game.result()
    assert game.is_over and result["is_over"] and not game.to_act()
    winner = result["winner"]
    assert result["players"][winner]["score"] == 121 and result["players"][winner]["rank"] == 1
    assert events[-1].type == "GameOver" and events[-1].player == winner
    assert sum(1 for e in events if e.type == "GameOver") == 1
    side = (lambda seat: seat % 2) if game.mode.teams else (lambda seat: seat)
    losers = [p["score"] for p in result["players"] if side(p["seat"]) != side(winner)]
    assert result["margin"] == 121 - max(losers)
    assert result["skunk"] == ("double skunk" if max(losers) < 61 else "skunk" if max(losers) < 91 else "")


RULES = {
    "auto": {},
    "manual": {"counting": "manual"},
    "manual-D": {"counting": "manual", "variants": "D"},
    "manual-N": {"counting": "manual", "variants": "N"},
}


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("counting", ["auto", "manual"])
@pytest.mark.parametrize("player", ["bot", "auto"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_complete_games_keep_every_invariant(mode: int, counting: str, player: str, seed: int) -> None:
    game, events = play_game(mode, seed, RULES[counting], CHOOSERS[player])
    check_finished(game, events)


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("rules", ["manual", "manual-D", "manual-N"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_disputed_games_keep_every_invariant(mode: int, rules: str, seed: int) -> None:
    game, events = play_game(mode, seed, RULES[rules], sloppy)
    check_finished(game, events)


def test_sloppy_games_really_dispute_and_deduct() -> None:
    """The sloppy player exercises muggins both ways, and D's deduction lowers a score."""
    kinds: set[str] = set()
    lowered = False
    for seed in range(6):
        game, events = play_game(2, seed, RULES["manual-D"], sloppy, watch=False)
        kinds |= {e.type for e in events}
        lowered |= any(e.type == "MugginsResult" and not e.params[0] for e in events)
    assert {"Muggins", "Vote", "MugginsResult", "Settled", "Paused", "Unpaused"} <= kinds
    assert lowered


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("counting", ["auto", "manual"])
def test_auto_action_is_always_legal(mode: int, counting: str) -> None:
    game, events = play_game(mode, 7, RULES[counting], sloppy, watch=False, try_auto=True)
    check_finished(game, events)


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("rules", ["auto", "manual-D"])
def test_replay_of_the_action_log_gives_the_same_events(mode: int, rules: str) -> None:
    game, events = play_game(mode, 99, RULES[rules], sloppy, watch=False)
    again = CribbageGame(mode, 99, RULES[rules])
    replayed = [event for seat, kind, params in game.action_log for event in again.apply(seat, kind, params)]
    assert replayed == events
    assert again.result() == game.result()
    assert again.view(0, reveal_all=True) == game.view(0, reveal_all=True)
    # And the same seed and choices play the very same game.
    second, second_events = play_game(mode, 99, RULES[rules], sloppy, watch=False)
    assert second.action_log == game.action_log and second_events == events


def test_different_seeds_deal_differently() -> None:
    first = start(CribbageGame(2, 1, {}))
    second = start(CribbageGame(2, 2, {}))
    assert [e.params for e in first] != [e.params for e in second]


def test_after_the_end_everything_is_revealed() -> None:
    game, events = play_game(2, 3, {}, by_auto, watch=False)
    deal = next(e for e in events if e.type == "Deal" and e.params[0] == 1)
    assert deal.render(0)["params"][1] == [None] * 6
    assert deal.render(0, reveal_all=True)["params"][1] == deal.params[1]
    assert "hands" in game.view(0, reveal_all=True)


def test_the_deal_passes_left_and_scores_are_per_team_in_mode_4() -> None:
    game, events = play_game(4, 5, {"first_dealer": 2}, by_auto, watch=False)
    dealers = [e.player for e in events if e.type == "Deal" and e.params[0] == 0]
    assert dealers == [(2 + k) % 4 for k in range(len(dealers))]
    result = game.result()
    assert result["scores"][0] == result["scores"][2] and result["scores"][1] == result["scores"][3]
    assert [t["seats"] for t in result["teams"]] == [[0, 2], [1, 3]]
    view = game.view(1)
    assert view["team_scores"] == [result["scores"][0], result["scores"][1]]
