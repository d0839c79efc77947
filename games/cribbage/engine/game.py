"""One game of cribbage, implementing the platform's ``Engine`` contract (docs/cribbage-engine.md).

A game is a sequence of hands: the deal, the discard to the crib, the cut, the play (pegging) and
the show. Every step with only one possible outcome is taken at once without an action: the cut,
a go (the must-play rule makes it a fact), the go point, the reset of the count, the automatic
count of the show and the next deal. So the only actions are the players' real decisions.

Every handler validates its whole action before it touches any state, so a ``Rejection`` always
leaves the game exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from games.core.engine import Event, Mode, Rejection
from games.cribbage.engine.cards import is_card, new_deck, value_of
from games.cribbage.engine.claims import (
    CRIB,
    HAND,
    PLAY,
    RESUME_ADVANCE,
    RESUME_NEXT,
    RESUME_SHOW,
    Claim,
    Muggins,
    item_list,
    muggins_outcome,
)
from games.cribbage.engine.discard import best_discard
from games.cribbage.engine.pegging import LIMIT, card_order, lowest, playable
from games.cribbage.engine.rules import DEALS, DOUBLE_SKUNK, MAX_CLAIM, SKUNK, WIN, mode_for, parse_rules
from games.cribbage.engine.scoring import peg_points, score_hand

# Phases of a hand, plus the two ends of the game.
DEAL = "deal"  # before the first deal: the first dealer's ``deal`` starts the game
DISCARD = "discard"
PLAY_PHASE = "play"
SHOW = "show"
OVER = "over"


def _claimed_points(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_CLAIM:
        raise Rejection(f"{what} must be a whole number of points from 0 to {MAX_CLAIM}")
    return value


class CribbageGame:
    """The state of one cribbage game. Build it with ``create``."""

    game_type: ClassVar[str] = "cribbage"

    def __init__(self, mode: Mode | int, seed: int, rules: dict[str, Any] | None = None) -> None:
        self.mode = mode_for(mode)
        self.seats = self.mode.seats
        self.shape = DEALS[self.mode.id]
        self.rules = parse_rules(rules, self.seats)
        self.seed = seed
        self._rng = random.Random(seed)  # only ever used to shuffle, once per deal
        self._sides = 2 if self.mode.teams else self.seats
        self._phase = DEAL
        self._dealer = self.rules.first_dealer
        self._hands_dealt = 0
        self._scores = [0] * self._sides  # per side: a seat, or a partnership in mode 4
        self._hands: list[list[str]] = [[] for _ in range(self.seats)]  # cards still held
        self._kept: list[list[str]] = [[] for _ in range(self.seats)]  # the hand as it will be shown
        self._discarded: list[list[str] | None] = [None] * self.seats
        self._crib: list[str] = []
        self._deck: list[str] = []  # the undealt cards, the starter on top
        self._starter: str | None = None
        # The play.
        self._count = 0
        self._run: list[tuple[int, str]] = []  # (seat, card) since the last reset
        self._played: list[list[str]] = [[] for _ in range(self.seats)]
        self._gone: list[int] = []  # seats that said go in this count
        self._active: int | None = None
        self._last_player: int | None = None
        # The show.
        self._to_show: list[tuple[int, str]] = []
        self._showing: tuple[int, str, list[str]] | None = None  # manual: shown, waiting for its count
        self._shows: list[dict[str, Any]] = []  # the latest show's counts, for the view
        # Manual counting.
        self._claim: Claim | None = None
        self._muggins: Muggins | None = None
        self._paused_by: int | None = None
        self._winner: int | None = None  # the seat that pegged out
        self._stacked: list[str] | None = None  # a prepared deck for the next deal (``with_hands``)
        self._log: list[tuple[int, str, list[Any]]] = []
        self._out: list[Event] = []

    # ------------------------------------------------------------------ the Engine contract

    @classmethod
    def create(cls, *, mode: Mode, seed: int, rules: dict[str, Any]) -> CribbageGame:
        return cls(mode, seed, rules)

    @classmethod
    def with_hands(
        cls,
        mode: Mode | int,
        hands: Sequence[Sequence[str]],
        starter: str,
        *,
        crib_card: str | None = None,
        scores: Sequence[int] | None = None,
        rules: dict[str, Any] | None = None,
        seed: int = 0,
    ) -> CribbageGame:
        """A game whose first deal gives these hands (and starter, and in mode 3 crib card), for
        tests and puzzles; later deals are shuffled from ``seed``. ``scores`` are per side (a seat,
        or a partnership in mode 4) at the start. The first dealer is ``rules["first_dealer"]``."""
        game = cls(mode, seed, rules)
        seats = game.seats
        size = game.shape.hand
        if len(hands) != seats or any(len(hand) != size for hand in hands):
            raise ValueError(f"mode {game.mode.id} deals {seats} hands of {size}")
        if (crib_card is not None) != bool(game.shape.from_deck):
            raise ValueError("a crib card comes from the deck in mode 3, and only there")
        chosen = [card for hand in hands for card in hand] + ([crib_card] if crib_card else []) + [starter]
        if not all(is_card(card) for card in chosen) or len(set(chosen)) != len(chosen):
            raise ValueError("every card must be a distinct card code")
        dealt = [list(hand) for hand in hands]
        deck = [dealt[(game._dealer + 1 + index) % seats].pop(0) for index in range(size * seats)]
        deck += ([crib_card] if crib_card else []) + [starter]
        deck += [card for card in new_deck() if card not in chosen]
        game._stacked = deck
        if scores is not None:
            if len(scores) != game._sides or any(type(v) is not int or not 0 <= v < WIN for v in scores):
                raise ValueError(f"scores: one number under {WIN} per side ({game._sides})")
            game._scores = list(scores)
        return game

    def initial_actions(self) -> list[tuple[int, str, list[Any]]]:
        return [(self.rules.first_dealer, "deal", [])]

    def apply(self, seat: int, action_type: str, params: list[Any]) -> list[Event]:
        if self._phase == OVER:
            raise Rejection("the game is over; no more moves can be made")
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise Rejection(f"there is no seat {seat!r}")
        handler = self._HANDLERS.get(action_type) if isinstance(action_type, str) else None
        if handler is None:
            raise Rejection(f"unknown action type {action_type!r}")
        if not isinstance(params, (list, tuple)):
            raise Rejection("params must be a list")
        if self._paused_by is not None and action_type != "unpause":
            raise Rejection("the game is paused; only unpause is accepted")
        out: list[Event] = []
        self._out = out
        handler(self, seat, list(params))
        self._log.append((seat, action_type, list(params)))
        return out

    def to_act(self) -> list[int]:
        if self._phase == OVER:
            return []
        if self._paused_by is not None:
            # Only the seat that paused owes the unpause: its clock runs, and if it has left the
            # table the server unpauses for it, so a pause can never hold a game for ever.
            return [self._paused_by]
        if self._phase == DEAL:
            return [self._dealer]
        if self._muggins is not None:
            return self._muggins.waiting
        if self._claim is not None and self._claim.under_review:
            return self._claim.awaiting[:]
        if self._phase == DISCARD:
            return [s for s in range(self.seats) if self._discarded[s] is None]
        if self._phase == PLAY_PHASE:
            return [self._active] if self._active is not None else []
        if self._phase == SHOW and self._showing is not None:
            return [self._showing[0]]
        return []

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def action_log(self) -> list[tuple[int, str, list[Any]]]:
        """Every accepted action as (seat, type, params), in order."""
        return [(seat, kind, list(params)) for seat, kind, params in self._log]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self._phase == OVER or type(seat) is not int or not 0 <= seat < self.seats:
            return []
        if self._paused_by is not None:
            return [{"type": "unpause", "paused_by": self._paused_by}]
        actions: list[dict[str, Any]] = []
        if seat in self.to_act():
            actions += self._decisions(seat)
        elif self._may_challenge(seat):
            actions.append(self._muggins_option())
        if self._phase != DEAL:
            actions.append({"type": "pause"})
        return actions

    def auto_action(self, seat: int) -> tuple[str, list[Any]]:
        if seat not in self.to_act():
            raise Rejection(f"seat {seat} has no decision to make")
        if self._paused_by is not None:
            return "unpause", []
        if self._phase == DEAL:
            return "deal", []
        if self._muggins is not None:
            assert self._claim is not None
            return "vote", [self._muggins.stated == self._claim.points]  # the truth
        if self._claim is not None and self._claim.under_review:
            return "agree", []
        if self._phase == DISCARD:
            hand = self._hands[seat]
            return "discard", best_discard(hand, self.shape.discard, self._owns_crib(seat))
        if self._phase == PLAY_PHASE:
            card = lowest(playable(self._hands[seat], self._count))
            if self.rules.manual:
                return "play", [card, peg_points([*self._run_cards(), card])[0]]
            return "play", [card]
        assert self._showing is not None
        _, what, cards = self._showing
        return "count", [score_hand(cards, self._starter_card, crib=what == CRIB)[0]]

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        seat = viewer if type(viewer) is int and 0 <= viewer < self.seats else None
        scores = self._display_scores()
        snapshot: dict[str, Any] = {
            "game_type": self.game_type,
            "mode": self.mode.id,
            "seats": self.seats,
            "teams": self.mode.teams,
            "viewer": seat,
            "phase": self._phase,
            "dealer": self._dealer,
            "hands_dealt": self._hands_dealt,
            "scores": [scores[self._side(s)] for s in range(self.seats)],
            "hand": sorted(self._hands[seat], key=card_order) if seat is not None else None,
            "kept": sorted(self._kept[seat], key=card_order) if seat is not None else None,
            "discarded": list(self._discarded[seat] or []) if seat is not None else None,
            "hand_sizes": [len(hand) for hand in self._hands],
            "discards_in": [d is not None for d in self._discarded],
            "crib_size": len(self._crib),
            "starter": self._starter,
            "count": self._count,
            "play": [[s, card] for s, card in self._run],
            "played": [cards[:] for cards in self._played],
            "gone": self._gone[:],
            "active": self._active,
            "showing": self._showing_view(),
            "shows": [dict(show) for show in self._shows],
            "last_show": dict(self._shows[-1]) if self._shows else None,
            "claim": self._claim.describe() if self._claim is not None else None,
            "muggins": self._muggins.describe() if self._muggins is not None else None,
            "paused": self._paused_by is not None,
            "paused_by": self._paused_by,
            "to_act": self.to_act(),
            "rules": self.rules.as_dict(),
            "is_over": self.is_over,
            "winner": self._winner,
        }
        if self.mode.teams:
            snapshot["team_scores"] = scores[:]
        if reveal_all:
            snapshot["hands"] = [sorted(hand, key=card_order) for hand in self._hands]
            snapshot["kept_hands"] = [hand[:] for hand in self._kept]
            snapshot["discards"] = [list(d) if d is not None else None for d in self._discarded]
            snapshot["crib"] = self._crib[:]
            snapshot["deck"] = self._deck[:]
        return snapshot

    def result(self) -> dict[str, Any]:
        """Scores, ranks, the winner's margin over the runner-up and whether that is a skunk.

        Before the end this is the standing so far (``is_over`` says which).
        """
        scores = self._display_scores()
        winning_side = self._side(self._winner) if self._winner is not None else None
        order = sorted(range(self._sides), key=lambda side: (side != winning_side, -scores[side]))
        ranks = [0] * self._sides
        for place, side in enumerate(order):
            before = order[place - 1] if place else None
            # Equal scores share a rank, but nobody shares the winner's (who pegged out first).
            tied = before is not None and before != winning_side and scores[side] == scores[before]
            ranks[side] = ranks[before] if tied and before is not None else place + 1
        runner_up = max((scores[s] for s in range(self._sides) if s != order[0]), default=0)
        margin = scores[order[0]] - runner_up
        outcome: dict[str, Any] = {
            "is_over": self.is_over,
            "end_reason": "121" if self.is_over else None,
            "winner": self._winner,
            "scores": [scores[self._side(s)] for s in range(self.seats)],
            "margin": margin if self.is_over else None,
            "skunk": self._skunk(runner_up) if self.is_over else "",
            "hands_dealt": self._hands_dealt,
            "players": [
                {"seat": s, "score": scores[self._side(s)], "rank": ranks[self._side(s)],
                 "team": self._side(s) if self.mode.teams else None}
                for s in range(self.seats)
            ],
        }
        if self.mode.teams:
            outcome["teams"] = [
                {"team": t, "seats": [s for s in range(self.seats) if self._side(s) == t], "score": scores[t],
                 "rank": ranks[t]}
                for t in range(self._sides)
            ]
        return outcome

    # ------------------------------------------------------------------ small helpers

    def _side(self, seat: int) -> int:
        return seat % 2 if self.mode.teams else seat

    def _owns_crib(self, seat: int) -> bool:
        return self._side(seat) == self._side(self._dealer)

    def _display_scores(self) -> list[int]:
        # A side is never shown past the game hole, even while a manual claim over it is disputed.
        return [min(score, WIN) for score in self._scores]

    def _score_of(self, seat: int) -> int:
        return min(self._scores[self._side(seat)], WIN)

    @property
    def _starter_card(self) -> str:
        assert self._starter is not None
        return self._starter

    def _run_cards(self) -> list[str]:
        return [card for _, card in self._run]

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % self.seats

    @staticmethod
    def _skunk(runner_up: int) -> str:
        if runner_up < DOUBLE_SKUNK:
            return "double skunk"
        return "skunk" if runner_up < SKUNK else ""

    def _emit(self, kind: str, player: int | None, params: list[Any] | None = None) -> None:
        self._out.append(Event(kind, player, params if params is not None else []))

    def _peg(self, seat: int, points: int) -> bool:
        """Add ``points`` to ``seat``'s side; True once that side has reached the game hole."""
        side = self._side(seat)
        self._scores[side] += points
        return self._scores[side] >= WIN

    def _showing_view(self) -> dict[str, Any] | None:
        if self._showing is None:
            return None
        seat, what, cards = self._showing
        return {"seat": seat, "what": what, "cards": cards[:], "starter": self._starter}

    # ------------------------------------------------------------------ legal decisions

    def _decisions(self, seat: int) -> list[dict[str, Any]]:
        """The actions of a seat the game waits for (the pause aside)."""
        if self._phase == DEAL:
            return [{"type": "deal"}]
        if self._muggins is not None:
            assert self._claim is not None
            return [{"type": "vote", "caller": self._muggins.caller, "claimer": self._claim.seat,
                     "claimed": self._claim.claimed, "stated": self._muggins.stated}]
        claim = self._claim
        if claim is not None and claim.under_review:
            agree = {"type": "agree", "claimer": claim.seat, "claimed": claim.claimed}
            return [agree, self._muggins_option()] if self._may_challenge(seat) else [agree]
        if self._phase == DISCARD:
            return [{"type": "discard", "count": self.shape.discard,
                     "cards": sorted(self._hands[seat], key=card_order)}]
        if self._phase == PLAY_PHASE:
            cards = sorted(playable(self._hands[seat], self._count), key=card_order)
            play = {"type": "play", "cards": cards, "count": self._count, "claim": self.rules.manual}
            return [play, self._muggins_option()] if self._may_challenge(seat) else [play]
        assert self._showing is not None
        _, what, cards = self._showing
        return [{"type": "count", "what": what, "cards": cards[:], "starter": self._starter}]

    def _may_challenge(self, seat: int) -> bool:
        """May ``seat`` call muggins now: a claim open to dispute, and made by the other side."""
        claim = self._claim
        if claim is None or self._muggins is not None or self._side(seat) == self._side(claim.seat):
            return False
        if claim.under_review:
            return seat in claim.awaiting
        return self._phase == PLAY_PHASE  # a pegging claim stays open until the next card

    def _muggins_option(self) -> dict[str, Any]:
        assert self._claim is not None
        return {"type": "muggins", "claimer": self._claim.seat, "claimed": self._claim.claimed,
                "kind": self._claim.kind, "max": MAX_CLAIM}

    # ------------------------------------------------------------------ the deal, discard and cut

    def _deal_hand(self) -> None:
        deck, self._stacked = self._stacked, None
        if deck is None:
            deck = new_deck()
            self._rng.shuffle(deck)
        seats = self.seats
        size = self.shape.hand
        hands: list[list[str]] = [[] for _ in range(seats)]
        for index in range(size * seats):  # one at a time, starting on the dealer's left
            hands[(self._dealer + 1 + index) % seats].append(deck[index])
        rest = deck[size * seats:]
        self._crib = [rest.pop(0) for _ in range(self.shape.from_deck)]
        self._deck = rest
        self._hands = hands
        self._kept = [[] for _ in range(seats)]
        self._discarded = [None] * seats
        self._starter = None
        self._count = 0
        self._run = []
        self._played = [[] for _ in range(seats)]
        self._gone = []
        self._active = None
        self._last_player = None
        self._phase = DISCARD
        self._hands_dealt += 1
        for seat in range(seats):
            self._out.append(Event("Deal", self._dealer, [seat, hands[seat][:]], frozenset({seat}),
                                   [seat, [None] * size]))
        for card in self._crib:
            self._out.append(Event("CribCard", None, [card], frozenset(), [None]))

    def _cut(self) -> None:
        # The crib gathers the laid-away cards from the dealer's left round to the dealer.
        for step in range(1, self.seats + 1):
            self._crib += self._discarded[(self._dealer + step) % self.seats] or []
        self._kept = [hand[:] for hand in self._hands]
        self._starter = self._deck.pop(0)
        self._emit("Starter", self._dealer, [self._starter])
        if self._starter[0] == "J":
            won = self._peg(self._dealer, 2)
            self._emit("HisHeels", self._dealer, [2, self._score_of(self._dealer)])
            if won:
                self._finish(self._dealer)
                return
        self._phase = PLAY_PHASE
        self._set_active(self._left_of(self._dealer))

    # ------------------------------------------------------------------ the play

    def _set_active(self, seat: int) -> None:
        self._active = seat
        self._emit("Active", seat)

    def _advance(self) -> None:
        """After a card: the next seat that can play, or the go, the reset, or the end of the play."""
        last = self._last_player
        assert last is not None
        self._active = None
        for step in range(1, self.seats):
            seat = (last + step) % self.seats
            hand = self._hands[seat]
            if not hand:
                continue  # out of cards: nothing to say
            if playable(hand, self._count):
                self._set_active(seat)
                return
            if seat not in self._gone:
                self._gone.append(seat)
                self._emit("Go", seat)
        if playable(self._hands[last], self._count):
            self._set_active(last)  # everyone else is stuck: the last player plays on alone
            return
        # Nobody can play: the last to play pegs one, unless thirty-one already paid them two.
        out_of_cards = not any(self._hands)
        if self._count != LIMIT:
            won = self._peg(last, 1)
            self._emit("GoPoint", last, [1, self._score_of(last), "last card" if out_of_cards else "go"])
            if won:
                self._finish(last)
                return
        if out_of_cards:
            self._end_play()
            return
        self._count = 0
        self._run = []
        self._gone = []
        self._emit("CountReset", None)
        for step in range(1, self.seats + 1):
            seat = (last + step) % self.seats
            if self._hands[seat]:
                self._set_active(seat)
                return

    def _end_play(self) -> None:
        claim = self._claim
        if claim is not None:
            # Manual counting: the last card's claim is open to the table before the hands are turned.
            self._review(claim, RESUME_SHOW)
        else:
            self._begin_show()

    # ------------------------------------------------------------------ the show

    def _begin_show(self) -> None:
        self._phase = SHOW
        self._active = None
        self._shows = []
        dealer = self._dealer
        self._to_show = [((dealer + step) % self.seats, HAND) for step in range(1, self.seats + 1)]
        self._to_show.append((dealer, CRIB))
        self._next_show()

    def _next_show(self) -> None:
        starter = self._starter_card
        while self._to_show:
            seat, what = self._to_show.pop(0)
            cards = self._crib[:] if what == CRIB else self._kept[seat][:]
            self._emit("Show", seat, [what, cards, starter])
            if self.rules.manual:
                self._showing = (seat, what, cards)
                return
            points, items = score_hand(cards, starter, crib=what == CRIB)
            won = self._peg(seat, points)
            self._emit("Counted", seat, [points, self._score_of(seat), item_list(items)])
            self._record_show(seat, what, cards, points, points, item_list(items))
            if won:
                self._finish(seat)
                return
        self._dealer = self._left_of(self._dealer)
        self._deal_hand()

    def _record_show(self, seat: int, what: str, cards: list[str], claimed: int, points: int,
                     items: list[list[Any]]) -> None:
        self._shows.append({"seat": seat, "what": what, "cards": cards[:], "starter": self._starter,
                            "claimed": claimed, "points": points, "items": items})

    # ------------------------------------------------------------------ claims (manual counting)

    def _review(self, claim: Claim, resume: str) -> None:
        claim.awaiting = [(claim.seat + step) % self.seats for step in range(1, self.seats)]
        claim.resume = resume
        # Announced so every client (and protocol) knows the table now owes an answer to this claim.
        self._emit("Review", claim.seat, [claim.kind, claim.claimed])

    def _settle(self, claim: Claim, caller: int | None = None) -> None:
        """Close a claim, tell everyone its true count, and go on (or end the game)."""
        self._claim = None
        self._emit("Settled", claim.seat, [claim.kind, claim.claimed, claim.points, item_list(claim.items)])
        if claim.kind != PLAY:
            self._record_show(claim.seat, claim.kind, claim.cards, claim.claimed, claim.points,
                              item_list(claim.items))
        # The claimer's points were counted before the caller's award, so they peg out first.
        for seat in (claim.seat, caller):
            if seat is not None and self._scores[self._side(seat)] >= WIN:
                self._finish(seat)
                return
        if claim.resume == RESUME_ADVANCE:
            self._advance()
        elif claim.resume == RESUME_SHOW:
            self._begin_show()
        elif claim.resume == RESUME_NEXT:
            self._next_show()

    def _finish(self, seat: int) -> None:
        if self._claim is not None:
            # An engine-awarded point ended the game under an open pegging claim: it stands as made.
            claim, self._claim = self._claim, None
            self._emit("Settled", claim.seat, [claim.kind, claim.claimed, claim.points, item_list(claim.items)])
        self._phase = OVER
        self._winner = seat
        self._active = None
        self._showing = None
        self._muggins = None
        scores = self._display_scores()
        side = self._side(seat)
        runner_up = max(score for other, score in enumerate(scores) if other != side)
        self._emit("GameOver", seat, [[scores[self._side(s)] for s in range(self.seats)],
                                      scores[side] - runner_up, self._skunk(runner_up)])

    # ------------------------------------------------------------------ action handlers

    def _deal(self, seat: int, params: Sequence[Any]) -> None:
        if self._phase != DEAL:
            raise Rejection("the cards are dealt by the game after the first deal")
        if seat != self._dealer:
            raise Rejection(f"seat {self._dealer} deals first, not seat {seat}")
        if params:
            raise Rejection("deal takes no parameters")
        self._deal_hand()

    def _discard(self, seat: int, params: Sequence[Any]) -> None:
        if self._phase != DISCARD or self._claim is not None or self._muggins is not None:
            raise Rejection("this is not the time to lay away cards")
        if self._discarded[seat] is not None:
            raise Rejection("you have already laid away your cards")
        wanted = self.shape.discard
        hand = self._hands[seat]
        if len(params) != wanted or not all(is_card(card) for card in params):
            raise Rejection(f"discard takes a list of {wanted} card{'s' if wanted > 1 else ''}")
        if len(set(params)) != len(params):
            raise Rejection("the same card twice")
        missing = [card for card in params if card not in hand]
        if missing:
            raise Rejection(f"{missing[0]} is not in your hand")
        for card in params:
            hand.remove(card)
        self._discarded[seat] = list(params)
        self._out.append(Event("Discarded", seat, [list(params)], frozenset({seat}), [[None] * wanted]))
        if all(d is not None for d in self._discarded):
            self._cut()

    def _play(self, seat: int, params: Sequence[Any]) -> None:
        if self._phase != PLAY_PHASE or self._muggins is not None or (self._claim and self._claim.under_review):
            raise Rejection("this is not the time to play a card")
        if seat != self._active:
            raise Rejection(f"seat {self._active} is to play, not seat {seat}")
        manual = self.rules.manual
        if len(params) != (2 if manual else 1) or not is_card(params[0]):
            raise Rejection("play takes [card, claimed points]" if manual else "play takes [card]")
        card = params[0]
        claimed = _claimed_points(params[1], "the claim") if manual else 0
        if card not in self._hands[seat]:
            raise Rejection(f"{card} is not in your hand")
        if self._count + value_of(card) > LIMIT:
            raise Rejection(f"{card} would take the count past {LIMIT} (it is {self._count})")
        if self._claim is not None:
            self._settle(self._claim)  # playing on accepts the last claim
        self._hands[seat].remove(card)
        self._played[seat].append(card)
        self._run.append((seat, card))
        self._count += value_of(card)
        self._last_player = seat
        points, items = peg_points(self._run_cards())
        if manual:
            won = self._peg(seat, claimed)
            self._emit("Played", seat, [card, claimed, self._score_of(seat), self._count, []])
            claim = Claim(seat, PLAY, claimed, points, items, self._run_cards(), None)
            self._claim = claim
            if won:
                self._active = None
                self._review(claim, RESUME_ADVANCE)  # the table checks a game-ending claim first
                return
        else:
            won = self._peg(seat, points)
            self._emit("Played", seat, [card, points, self._score_of(seat), self._count, item_list(items)])
            if won:
                self._finish(seat)
                return
        self._advance()

    def _count_hand(self, seat: int, params: Sequence[Any]) -> None:
        showing = self._showing
        if showing is None or self._claim is not None:
            raise Rejection("no hand is waiting to be counted")
        if seat != showing[0]:
            raise Rejection(f"seat {showing[0]} counts this {showing[1]}, not seat {seat}")
        if len(params) != 1:
            raise Rejection("count takes [claimed points]")
        claimed = _claimed_points(params[0], "the count")
        _, what, cards = showing
        points, items = score_hand(cards, self._starter_card, crib=what == CRIB)
        self._showing = None
        self._peg(seat, claimed)
        self._emit("Counted", seat, [claimed, self._score_of(seat), []])
        claim = Claim(seat, what, claimed, points, items, cards, self._starter)
        self._claim = claim
        self._review(claim, RESUME_NEXT)

    def _agree(self, seat: int, params: Sequence[Any]) -> None:
        claim = self._claim
        if claim is None or not claim.under_review or self._muggins is not None:
            raise Rejection("there is no claim to agree to")
        if seat not in claim.awaiting:
            raise Rejection("you have nothing to agree to")
        if params:
            raise Rejection("agree takes no parameters")
        claim.awaiting.remove(seat)
        self._emit("Agreed", seat)
        if not claim.awaiting:
            self._settle(claim)

    def _call_muggins(self, seat: int, params: Sequence[Any]) -> None:
        claim = self._claim
        if claim is None or not self._may_challenge(seat):
            raise Rejection("there is no claim of the other side to call muggins on")
        if len(params) != 1:
            raise Rejection("muggins takes [correct points]")
        stated = _claimed_points(params[0], "the correct count")
        if stated == claim.claimed:
            raise Rejection(f"{claim.claimed} is what was claimed")
        voters = [(seat + step) % self.seats for step in range(1, self.seats)]
        self._muggins = Muggins(seat, stated, voters)
        self._emit("Muggins", seat, [claim.seat, claim.claimed, stated])

    def _vote(self, seat: int, params: Sequence[Any]) -> None:
        muggins = self._muggins
        if muggins is None:
            raise Rejection("there is no muggins to vote on")
        if seat not in muggins.waiting:
            raise Rejection("you have no vote to cast")
        if len(params) != 1 or type(params[0]) is not bool:
            raise Rejection("vote takes [true] (the caller is right) or [false]")
        muggins.votes[seat] = params[0]
        self._emit("Vote", seat, [params[0]])
        if muggins.waiting:
            return
        claim = self._claim
        assert claim is not None
        passed = muggins.passed
        to_claimer, to_caller = muggins_outcome(claim.claimed, muggins.stated, passed, self.rules.variants)
        self._scores[self._side(claim.seat)] += to_claimer
        caller_side = self._side(muggins.caller)
        self._scores[caller_side] = max(0, self._scores[caller_side] + to_caller)
        if passed:
            claim.claimed = muggins.stated
        self._muggins = None
        self._emit("MugginsResult", muggins.caller,
                   [passed, self._score_of(claim.seat), self._score_of(muggins.caller)])
        self._settle(claim, muggins.caller)

    def _pause(self, seat: int, params: Sequence[Any]) -> None:
        if self._phase == DEAL:
            raise Rejection("the game has not started")
        if self._paused_by is not None:
            raise Rejection("the game is already paused")
        if params:
            raise Rejection("pause takes no parameters")
        self._paused_by = seat
        self._emit("Paused", seat)

    def _unpause(self, seat: int, params: Sequence[Any]) -> None:
        if self._paused_by is None:
            raise Rejection("the game is not paused")
        if params:
            raise Rejection("unpause takes no parameters")
        self._paused_by = None
        self._emit("Unpaused", seat)

    _HANDLERS: ClassVar[dict[str, Callable[[CribbageGame, int, Sequence[Any]], None]]] = {
        "deal": _deal,
        "discard": _discard,
        "play": _play,
        "count": _count_hand,
        "agree": _agree,
        "muggins": _call_muggins,
        "vote": _vote,
        "pause": _pause,
        "unpause": _unpause,
    }
