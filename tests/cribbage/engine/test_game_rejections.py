"""Every way an action can be refused, and that a refused action leaves the game exactly as it was."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from games.core.engine import Rejection
from games.cribbage.engine import CribbageGame
from tests.cribbage.engine.test_game_manual import KEPT, MANUAL, to_the_show
from tests.cribbage.engine.test_game_pegging import ready


def fingerprint(game: CribbageGame) -> dict[str, Any]:
    state = {key: copy.deepcopy(value) for key, value in vars(game).items() if key not in ("_out", "_rng")}
    state["_rng"] = game._rng.getstate()
    return state


def new_game() -> CribbageGame:
    return CribbageGame(2, 1, {})


def dealt() -> CribbageGame:
    game = CribbageGame.with_hands(2, [["2C", "3C", "4C", "9D", "AS", "AD"], ["5H", "5D", "5S", "0C", "AC", "AH"]],
                                   "KS")
    game.apply(0, "deal", [])
    return game


def discarded_by_0() -> CribbageGame:
    game = dealt()
    game.apply(0, "discard", ["AS", "AD"])
    return game


def in_play() -> CribbageGame:
    return ready(2, KEPT, starter="KS")[0]


def at_thirty() -> CribbageGame:
    game = ready(2, [["QH", "AC", "5D", "6S"], ["KH", "0H", "9H", "2S"]])[0]
    for seat, card in ((1, "KH"), (0, "QH"), (1, "0H")):
        game.apply(seat, "play", [card])
    return game


def manual_play() -> CribbageGame:
    game = ready(2, KEPT, starter="KS", rules=MANUAL)[0]
    game.apply(1, "play", ["0C", 2])
    return game


def manual_show() -> CribbageGame:
    return to_the_show(MANUAL)[0]


def manual_review() -> CribbageGame:
    game = manual_show()
    game.apply(1, "count", [20])
    return game


def manual_vote() -> CribbageGame:
    game = manual_review()
    game.apply(0, "muggins", [22])
    return game


def team_claim() -> CribbageGame:
    kept = [["2C", "3C", "4C", "6C"], ["5H", "KH", "QH", "JH"], ["0D", "8D", "9D", "7D"], ["KS", "QS", "JS", "0S"]]
    game = ready(4, kept, rules=MANUAL)[0]
    game.apply(1, "play", ["5H", 1])
    return game


def paused() -> CribbageGame:
    game = dealt()
    game.apply(1, "pause", [])
    return game


def over() -> CribbageGame:
    game = ready(2, [["5C", "6C", "7C", "8C"], ["0H", "9H", "2H", "3H"]], scores=[119, 100])[0]
    game.apply(1, "play", ["0H"])
    game.apply(0, "play", ["5C"])
    assert game.is_over
    return game


CASES: list[tuple[Callable[[], CribbageGame], Any, Any, Any, str]] = [
    # (state, seat, action type, params, reason matched)
    (new_game, 0, "shuffle", [], "unknown action"),
    (new_game, 0, None, [], "unknown action"),
    (new_game, 2, "deal", [], "no seat"),
    (new_game, "0", "deal", [], "no seat"),
    (new_game, 0, "deal", {}, "must be a list"),
    (new_game, 1, "deal", [], "seat 0 deals"),
    (new_game, 0, "deal", [1], "no parameters"),
    (new_game, 0, "discard", ["AS", "AD"], "not the time"),
    (new_game, 0, "play", ["AS"], "not the time"),
    (dealt, 0, "deal", [], "after the first deal"),
    (dealt, 0, "discard", ["AS"], "list of 2 cards"),
    (dealt, 0, "discard", ["AS", "AD", "2C"], "list of 2 cards"),
    (dealt, 0, "discard", ["AS", "ZZ"], "list of 2 cards"),
    (dealt, 0, "discard", ["AS", ["AD"]], "list of 2 cards"),
    (dealt, 0, "discard", ["AS", "AS"], "same card twice"),
    (dealt, 0, "discard", ["AS", "5H"], "5H is not in your hand"),
    (dealt, 0, "play", ["AS"], "not the time"),
    (dealt, 0, "count", [3], "no hand"),
    (dealt, 0, "agree", [], "no claim"),
    (dealt, 0, "muggins", [3], "no claim"),
    (dealt, 0, "vote", [True], "no muggins"),
    (dealt, 0, "pause", ["now"], "no parameters"),
    (dealt, 0, "unpause", [], "not paused"),
    (discarded_by_0, 0, "discard", ["2C", "3C"], "already laid away"),
    (in_play, 0, "play", ["9D"], "seat 1 is to play"),
    (in_play, 1, "play", [], "play takes"),
    (in_play, 1, "play", ["0C", 0], "play takes"),
    (in_play, 1, "play", ["10C"], "play takes"),
    (in_play, 1, "play", [5], "play takes"),
    (in_play, 1, "play", ["9D"], "not in your hand"),
    (in_play, 1, "discard", ["5H", "5D"], "not the time"),
    (at_thirty, 0, "play", ["5D"], "past 31"),
    (at_thirty, 0, "play", ["6S"], "past 31"),
    (manual_play, 0, "play", ["9D"], "claimed points"),
    (manual_play, 0, "play", ["9D", -1], "from 0 to 29"),
    (manual_play, 0, "play", ["9D", 30], "from 0 to 29"),
    (manual_play, 0, "play", ["9D", True], "from 0 to 29"),
    (manual_play, 0, "play", ["9D", 1.0], "from 0 to 29"),
    (manual_play, 0, "muggins", [2], "what was claimed"),
    (manual_play, 1, "muggins", [0], "other side"),
    (manual_play, 0, "muggins", [], "muggins takes"),
    (manual_play, 0, "muggins", ["none"], "from 0 to 29"),
    (manual_play, 0, "agree", [], "no claim to agree"),
    (manual_show, 0, "count", [20], "seat 1 counts"),
    (manual_show, 1, "count", [], "count takes"),
    (manual_show, 1, "count", [20, 1], "count takes"),
    (manual_show, 1, "count", [99], "from 0 to 29"),
    (manual_show, 1, "play", ["5H", 0], "not the time"),
    (manual_review, 1, "agree", [], "nothing to agree"),
    (manual_review, 0, "agree", [1], "no parameters"),
    (manual_review, 1, "count", [20], "no hand"),
    (manual_vote, 0, "vote", [True], "no vote"),
    (manual_vote, 1, "vote", [1], "vote takes"),
    (manual_vote, 1, "vote", [], "vote takes"),
    (manual_vote, 1, "agree", [], "no claim to agree"),
    (manual_vote, 0, "muggins", [21], "no claim"),
    (team_claim, 3, "muggins", [0], "other side"),  # a partner cannot call muggins
    (paused, 0, "discard", ["AS", "AD"], "paused"),
    (paused, 0, "pause", [], "paused"),
    (paused, 1, "unpause", [0], "no parameters"),
    (over, 1, "play", ["9H"], "over"),
    (over, 0, "unpause", [], "over"),
]


@pytest.mark.parametrize(("state", "seat", "kind", "params", "reason"), CASES)
def test_a_rejected_action_changes_nothing(state: Callable[[], CribbageGame], seat: Any, kind: Any, params: Any,
                                           reason: str) -> None:
    game = state()
    before = fingerprint(game)
    views = [game.view(v) for v in (None, *range(game.seats))]
    with pytest.raises(Rejection, match=reason):
        game.apply(seat, kind, params)
    assert fingerprint(game) == before
    assert [game.view(v) for v in (None, *range(game.seats))] == views


def test_a_legal_action_after_rejections_still_works() -> None:
    game = at_thirty()
    with pytest.raises(Rejection):
        game.apply(0, "play", ["5D"])
    events = game.apply(0, "play", ["AC"])
    assert events[0].params[:2] == ["AC", 2]


def test_auto_action_refuses_a_seat_with_nothing_to_decide() -> None:
    game = in_play()
    with pytest.raises(Rejection):
        game.auto_action(0)
    assert game.legal_actions(0) == [{"type": "pause"}]
    assert game.legal_actions(7) == []
