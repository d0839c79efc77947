"""A cribbage game record: one JSON document a player can read and a program can replay.

``build_record(start, actions, players)`` plays the game's action log on a fresh engine and folds
the engine's own events (with every hidden card revealed) into the document described in
docs/records-cribbage.md: the players, the rules, every deal (hands as dealt, discards, crib,
starter, each card pegged with the count and its scores, each show itemised, claims and muggins)
and the result. ``games.cribbage.records.record_check`` replays a document and lists what does not add up.

Everything a record states is what the engine said or computed; nothing is scored here, so the
record cannot disagree with the engine that made it. Pure Python: nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.core.engine import Event, Rejection
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.claims import muggins_outcome
from games.cribbage.engine.rules import DOUBLE_SKUNK, SKUNK, WIN
from games.cribbage.engine.scoring import say

FORMAT = "cribbage-record"
VERSION = 1
# Said in every document, so a reader needs nothing else to read the cards.
CARD_NOTATION = "rank then suit: ranks A 2 3 4 5 6 7 8 9 0 J Q K (0 is the ten), suits H D C S; e.g. 5H, 0S, JC"
DEALS_FROM_SEED = "seed"  # every deal is the engine's shuffle of game.seed (a platform game)
DEALS_FROM_RECORD = "record"  # the deals are only as stated (a puzzle, or a game dealt by hand)

Action = tuple[int, str, list[Any]]


def build_record(start: CribbageGame, actions: Iterable[Sequence[Any]], players: Sequence[str]) -> dict[str, Any]:
    """The record of the game that ``actions`` play from ``start``.

    ``start`` is a fresh engine, exactly as ``CribbageGame.create`` (the platform's
    ``games.state.replay.new_engine``) or ``CribbageGame.with_hands`` returned it, with no action applied:
    it is played on and ends as the game itself. ``actions`` is the game's action log, ``(seat,
    type, params)`` each, the initial ``deal`` included (the platform's ``GameAction`` rows, or a
    finished engine's ``action_log``). ``players`` names the seats, in seat order.
    """
    if start.action_log:
        raise ValueError("build_record needs a fresh engine: it replays the whole action log itself")
    if len(players) != start.seats:
        raise ValueError(f"{len(players)} player names for {start.seats} seats")
    log = [(seat, kind, list(params)) for seat, kind, params in actions]
    start_scores = start.result()["scores"]
    recorder = Recorder(start)
    for seat, kind, params in log:
        recorder.apply(seat, kind, params)
    deals_from = DEALS_FROM_SEED if _seed_deals_the_same(start, log, recorder.deals, start_scores) \
        else DEALS_FROM_RECORD
    return recorder.document(players, deals_from, start_scores)


def _seed_deals_the_same(game: CribbageGame, log: list[Action], deals: list[dict[str, Any]],
                         start_scores: list[int]) -> bool:
    """Does a plain engine on the game's seed deal every hand this game was dealt?

    True for every platform game; false for a game started with ``with_hands``, whose deals only
    the record itself can vouch for (the checker then checks nothing against the seed)."""
    if any(start_scores):
        return False
    seeded = Recorder(CribbageGame(game.mode, game.seed, game.rules.as_dict()))
    try:
        for seat, kind, params in log:
            seeded.apply(seat, kind, params)
    except Rejection:
        return False  # the seed dealt other cards, which the game's decisions do not fit
    return [deal_cards(deal) for deal in seeded.deals] == [deal_cards(deal) for deal in deals]


def deal_cards(deal: dict[str, Any]) -> tuple[Any, ...]:
    """What the shuffle decides about a deal (and nothing a player decides)."""
    return deal["dealer"], deal["dealt"], deal["crib_card"], deal["starter"]


def items_of(items: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
    """The engine's ``[name, points, cards]`` items as named fields, the easier to read."""
    return [{"name": name, "points": points, "cards": list(cards)} for name, points, cards in items]


class Recorder:
    """Plays actions on an engine and folds its events into the record's deals.

    The engine's events carry everything (``Event.params`` are the unhidden parameters); the only
    thing read from the engine's state is the kept hands and the crib at the cut, which no event
    states as such (the crib is shown only if the game lasts to its count).
    """

    def __init__(self, engine: CribbageGame) -> None:
        self.engine = engine
        self.seats = engine.seats
        self.deals: list[dict[str, Any]] = []
        self.scores = engine.result()["scores"]  # per seat, the side's score as the engine shows it
        self.claim: dict[str, Any] | None = None  # manual counting: the entry of the open claim
        self.caller_before = 0  # the muggins caller's score when the call was made

    def apply(self, seat: int, kind: str, params: list[Any]) -> None:
        """Apply one action (``Rejection`` and ``ValueError`` pass through) and record its events."""
        for event in self.engine.apply(seat, kind, params):
            handler = self._HANDLERS.get(event.type)
            if handler is not None:
                handler(self, event)

    # ------------------------------------------------------------------ the document

    def document(self, players: Sequence[str], deals_from: str, start_scores: list[int]) -> dict[str, Any]:
        engine = self.engine
        if self.deals:
            self.deals[-1]["scores"] = self.scores[:]
        return {
            "format": FORMAT,
            "version": VERSION,
            "cards": CARD_NOTATION,
            "game": {"type": engine.game_type, "mode": engine.mode.id, "seed": engine.seed,
                     "deals_from": deals_from, "start_scores": start_scores},
            "rules": rules_section(engine),
            "players": [{"seat": seat, "name": name, "team": self._side(seat) if engine.mode.teams else None}
                        for seat, name in enumerate(players)],
            "deals": self.deals,
            "result": self._result(players, start_scores),
        }

    def _side(self, seat: int) -> int:
        return seat % 2 if self.engine.mode.teams else seat

    def _result(self, players: Sequence[str], start_scores: list[int]) -> dict[str, Any]:
        outcome = self.engine.result()
        winner = outcome["winner"]
        return {
            "finished": outcome["is_over"],
            "winner": winner,
            "winner_name": players[winner] if winner is not None else None,
            "scores": outcome["scores"],
            "margin": outcome["margin"],
            "skunk": outcome["skunk"],
            "hands_dealt": outcome["hands_dealt"],
            "ended_during": self._ended_during() if outcome["is_over"] else None,
            "sides": self._points_by_side(start_scores, outcome["scores"]),
        }

    def _ended_during(self) -> str:
        last = self.deals[-1]
        if last["shows"]:
            return "show"
        return "play" if last["pegging"] else "cut"

    def _points_by_side(self, start_scores: list[int], scores: list[int]) -> list[dict[str, Any]]:
        """Where each side's points came from; ``total`` is their sum, ``score`` the engine's
        (the same, but never past the game hole)."""
        sides = sorted({self._side(seat) for seat in range(self.seats)})
        table = {side: {"side": side, "seats": [s for s in range(self.seats) if self._side(s) == side],
                        "start": 0, "pegging": 0, "his_heels": 0, "hands": 0, "crib": 0, "muggins": 0}
                 for side in sides}
        for side in sides:
            table[side]["start"] = start_scores[table[side]["seats"][0]]
        for deal in self.deals:
            if deal["his_heels"]:
                table[self._side(deal["dealer"])]["his_heels"] += deal["his_heels"]
            for entry in [*deal["pegging"], *deal["shows"]]:
                self._add_entry(table, entry)
        for row in table.values():
            row["total"] = sum(row[key] for key in ("start", "pegging", "his_heels", "hands", "crib", "muggins"))
            row["score"] = scores[row["seats"][0]]
        return [table[side] for side in sides]

    def _add_entry(self, table: dict[int, dict[str, Any]], entry: dict[str, Any]) -> None:
        kind = entry.get("what") or entry["type"]
        if kind == "go point":
            table[self._side(entry["seat"])]["pegging"] += entry["points"]
        elif kind in ("play", "hand", "crib"):
            # A claim still open (an unfinished game) is pegged as claimed until it is settled.
            scored = entry["scored"] if entry["scored"] is not None else entry["claimed"] or 0
            column = {"play": "pegging", "hand": "hands", "crib": "crib"}[kind]
            table[self._side(entry["seat"])][column] += scored
        muggins = entry.get("muggins")
        if muggins and muggins["passed"] is not None:
            table[self._side(muggins["caller"])]["muggins"] += muggins["to_caller"]

    # ------------------------------------------------------------------ events

    def _deal(self) -> dict[str, Any]:
        return self.deals[-1]

    def _score(self, seat: int | None, score: int) -> None:
        """Set the score of ``seat``'s side (every seat of it) as an event announced it."""
        assert seat is not None
        for other in range(self.seats):
            if self._side(other) == self._side(seat):
                self.scores[other] = score

    def _on_deal(self, event: Event) -> None:
        seat, cards = event.params
        if seat == 0:  # the engine deals seat 0's event first: a new hand
            if self.deals:
                self.deals[-1]["scores"] = self.scores[:]
            none: list[Any] = [None] * self.seats
            self.deals.append({"number": len(self.deals) + 1, "dealer": event.player, "dealt": none[:],
                               "crib_card": None, "discards": none[:], "kept": none[:], "crib": None,
                               "starter": None, "his_heels": 0, "pegging": [], "shows": [], "scores": None})
        self._deal()["dealt"][seat] = list(cards)

    def _on_crib_card(self, event: Event) -> None:
        self._deal()["crib_card"] = event.params[0]

    def _on_discarded(self, event: Event) -> None:
        self._deal()["discards"][event.player] = list(event.params[0])

    def _on_starter(self, event: Event) -> None:
        deal = self._deal()
        deal["starter"] = event.params[0]
        # The cut comes in the action of the last discard and no card is played in it, so the
        # engine's kept hands and crib are still this deal's once the action is over.
        table = self.engine.view(None, reveal_all=True)
        deal["kept"] = [list(hand) for hand in table["kept_hands"]]
        deal["crib"] = list(table["crib"])

    def _on_his_heels(self, event: Event) -> None:
        points, score = event.params
        self._deal()["his_heels"] = points
        self._score(event.player, score)

    def _on_played(self, event: Event) -> None:
        card, points, score, count, items = event.params
        manual = self.engine.rules.manual
        entry = {"type": "play", "seat": event.player, "card": card, "count": count, "claimed": points,
                 # Manual counting: the truth is told when the claim is settled (``_on_settled``).
                 "points": None if manual else points, "scored": None if manual else points,
                 "items": None if manual else items_of(items), "score": score, "muggins": None}
        self._deal()["pegging"].append(entry)
        self._score(event.player, score)
        if manual:
            self.claim = entry

    def _on_go(self, event: Event) -> None:
        self._deal()["pegging"].append({"type": "go", "seat": event.player})

    def _on_go_point(self, event: Event) -> None:
        points, score, reason = event.params
        self._deal()["pegging"].append({"type": "go point", "seat": event.player, "reason": reason,
                                        "points": points, "score": score})
        self._score(event.player, score)

    def _on_count_reset(self, event: Event) -> None:
        self._deal()["pegging"].append({"type": "reset"})

    def _on_show(self, event: Event) -> None:
        what, cards, starter = event.params
        self._deal()["shows"].append({"seat": event.player, "what": what, "cards": list(cards), "starter": starter,
                                      "claimed": None, "points": None, "scored": None, "items": None,
                                      "said": None, "score": None, "muggins": None})

    def _on_counted(self, event: Event) -> None:
        points, score, items = event.params
        entry = self._deal()["shows"][-1]
        entry["claimed"] = points
        entry["score"] = score
        self._score(event.player, score)
        if self.engine.rules.manual:
            self.claim = entry
        else:
            self._truth(entry, points, points, items)

    def _truth(self, entry: dict[str, Any], scored: int, points: int, items: list[list[Any]]) -> None:
        entry["scored"] = scored
        entry["points"] = points
        entry["items"] = items_of(items)
        if "what" in entry:
            entry["said"] = say(items)  # a show, counted aloud

    def _on_muggins(self, event: Event) -> None:
        _claimer, _claimed, stated = event.params
        assert self.claim is not None
        self.caller_before = self.scores[event.player]
        self.claim["muggins"] = {"caller": event.player, "stated": stated, "votes": [], "passed": None,
                                 "to_claimer": 0, "to_caller": 0, "claimer_score": None, "caller_score": None}

    def _on_vote(self, event: Event) -> None:
        assert self.claim is not None and self.claim["muggins"] is not None
        self.claim["muggins"]["votes"].append([event.player, event.params[0]])

    def _on_muggins_result(self, event: Event) -> None:
        passed, claimer_score, caller_score = event.params
        assert self.claim is not None
        muggins = self.claim["muggins"]
        to_claimer, to_caller = muggins_outcome(self.claim["claimed"], muggins["stated"], passed,
                                                self.engine.rules.variants)
        # The engine never takes a caller below nothing; the capped score cannot tell us the
        # change (it may pass 121), so the change is the rule's, floored at the score before.
        muggins.update(passed=passed, to_claimer=to_claimer, to_caller=max(to_caller, -self.caller_before),
                       claimer_score=claimer_score, caller_score=caller_score)
        self._score(self.claim["seat"], claimer_score)
        self._score(event.player, caller_score)

    def _on_settled(self, event: Event) -> None:
        _kind, scored, points, items = event.params
        assert self.claim is not None
        self._truth(self.claim, scored, points, items)
        self.claim = None

    _HANDLERS = {
        "Deal": _on_deal,
        "CribCard": _on_crib_card,
        "Discarded": _on_discarded,
        "Starter": _on_starter,
        "HisHeels": _on_his_heels,
        "Played": _on_played,
        "Go": _on_go,
        "GoPoint": _on_go_point,
        "CountReset": _on_count_reset,
        "Show": _on_show,
        "Counted": _on_counted,
        "Muggins": _on_muggins,
        "Vote": _on_vote,
        "MugginsResult": _on_muggins_result,
        "Settled": _on_settled,
        # Active, Review, Agreed, Paused, Unpaused and GameOver add nothing the record keeps:
        # the turn and the agreements follow from the rules, the result comes from the engine.
    }


def rules_section(engine: CribbageGame) -> dict[str, Any]:
    """The rules as the engine plays them; ``counting``, ``variants`` and ``first_dealer`` are
    its own options (what a replay builds the engine from), the rest says what they mean."""
    rules = engine.rules
    return {
        "players": engine.seats,
        "teams": bool(engine.mode.teams),  # partnerships (mode 4): scores are per team
        "counting": rules.counting,
        "muggins": rules.manual,  # a claim can only be wrong, and called, when players count
        "variants": rules.variants,
        "first_dealer": rules.first_dealer,
        "game": WIN,
        "skunk_below": SKUNK,
        "double_skunk_below": DOUBLE_SKUNK,
    }


__all__ = ["CARD_NOTATION", "FORMAT", "VERSION", "Recorder", "build_record", "deal_cards", "rules_section"]
