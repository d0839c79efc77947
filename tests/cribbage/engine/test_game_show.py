"""The cut, the show and the end of the game: his heels, order of counting, crib flush, pegging out."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.engine import Event
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.scoring import score_hand
from tests.cribbage.engine.test_game_pegging import kinds, play, ready


def play_out(game: CribbageGame) -> list[Event]:
    """Play the current hand's cards with ``auto_action`` until the next deal (or the end)."""
    events: list[Event] = []
    while not game.is_over and game.view(0)["phase"] == "play":
        [seat] = game.to_act()
        events += game.apply(seat, *game.auto_action(seat))
    return events


def shows(events: list[Event]) -> list[tuple[int | None, str]]:
    return [(e.player, e.params[0]) for e in events if e.type == "Show"]


@pytest.mark.parametrize(
    ("mode", "dealer", "order"),
    [
        (2, 0, [(1, "hand"), (0, "hand"), (0, "crib")]),
        (2, 1, [(0, "hand"), (1, "hand"), (1, "crib")]),
        (3, 2, [(0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]),
        (4, 1, [(2, "hand"), (3, "hand"), (0, "hand"), (1, "hand"), (1, "crib")]),
    ],
)
def test_the_show_goes_from_the_dealers_left_to_the_dealer_then_the_crib(mode: int, dealer: int,
                                                                          order: list[tuple[int, str]]) -> None:
    game = CribbageGame(mode, 11, {"first_dealer": dealer})
    events = game.apply(dealer, "deal", [])
    for seat in range(mode):
        events += game.apply(seat, *game.auto_action(seat))
    events += play_out(game)
    assert not game.is_over
    assert shows(events) == order
    counted = [e for e in events if e.type == "Counted"]
    assert [e.player for e in counted] == [seat for seat, _ in order]
    # Then the deal passes to the left.
    assert next(e for e in events if e.type == "Deal" and e.player != dealer).player == (dealer + 1) % mode


def test_the_crib_scores_a_flush_only_with_the_starter() -> None:
    # Seat 0 deals; seat 1 lays away 2H 4H, seat 0 lays away 8H QH: a four-heart crib.
    hands = [["3C", "5S", "7D", "9S", "8H", "QH"], ["AC", "6D", "KS", "JD", "2H", "4H"]]
    for starter, flush in (("KC", None), ("KH", 5)):
        game = CribbageGame.with_hands(2, hands, starter)
        game.apply(0, "deal", [])
        game.apply(1, "discard", ["2H", "4H"])
        events = game.apply(0, "discard", ["8H", "QH"])
        events += play_out(game)
        shown = next(i for i, e in enumerate(events) if e.type == "Show" and e.params[0] == "crib")
        crib = events[shown + 1]
        assert crib.type == "Counted"
        names = {item[0]: item[1] for item in crib.params[2]}
        assert names.get("flush") == flush
        expected = score_hand(["2H", "4H", "8H", "QH"], starter, crib=True)[0]
        assert crib.params[0] == expected


def test_a_hand_flushes_with_four() -> None:
    hands = [["3C", "5S", "7D", "9S", "8C", "QC"], ["2H", "4H", "8H", "QH", "AC", "6D"]]
    game = CribbageGame.with_hands(2, hands, "KS")
    game.apply(0, "deal", [])
    game.apply(1, "discard", ["AC", "6D"])
    events = game.apply(0, "discard", ["8C", "QC"])
    events += play_out(game)
    counted = next(e for e in events if e.type == "Counted" and e.player == 1)
    assert ["flush", 4, ["2H", "4H", "8H", "QH"]] in counted.params[2]


def test_his_heels_pegs_two_for_the_dealer() -> None:
    game, events = ready(2, [["5C", "6C", "7C", "8C"], ["0H", "9H", "2H", "3H"]], starter="JS")
    assert kinds(events)[-3:] == [("Starter", 0), ("HisHeels", 0), ("Active", 1)]
    assert events[-2].params == [2, 2]


def test_his_heels_can_win_the_game_on_the_cut() -> None:
    game, events = ready(2, [["5C", "6C", "7C", "8C"], ["0H", "9H", "2H", "3H"]], starter="JS",
                         scores=[119, 90])
    assert kinds(events)[-3:] == [("Starter", 0), ("HisHeels", 0), ("GameOver", 0)]
    assert game.is_over and game.result()["margin"] == 31 and game.result()["skunk"] == "skunk"


def test_pegging_out_in_the_show_counts_nothing_after() -> None:
    # Seat 1 shows first and its hand (20) takes it out; the dealer's hand (7) would have too.
    game, _ = ready(2, [["2C", "3C", "4C", "9D"], ["5H", "5D", "5S", "0C"]], starter="KS", scores=[110, 99])
    events = play(game, (1, "0C"), (0, "9D"), (1, "5H"), (0, "2C"), (1, "5D"), (0, "3C"), (1, "5S"), (0, "4C"))
    assert game.is_over and game.result()["winner"] == 1
    assert shows(events) == [(1, "hand")]
    assert kinds(events)[-2:] == [("Counted", 1), ("GameOver", 1)]
    assert events[-2].params[:2] == [20, 121]
    assert game.result()["scores"] == [114, 121]  # the run of three and the last card, nothing more


def test_three_players_crib_takes_a_card_from_the_deck_and_keeps_it_hidden() -> None:
    game = CribbageGame.with_hands(3, [["AC", "2C", "3C", "4C", "5C"], ["AD", "2D", "3D", "4D", "5D"],
                                       ["AH", "2H", "3H", "4H", "5H"]], "KS", crib_card="QS")
    events = game.apply(0, "deal", [])
    crib_card = next(e for e in events if e.type == "CribCard")
    assert crib_card.params == ["QS"]
    assert all(crib_card.render(v)["params"] == [None] for v in (None, 0, 1, 2))
    assert game.view(0)["crib_size"] == 1 and "QS" not in str(game.view(0))
    for seat, card in ((0, "5C"), (1, "5D"), (2, "5H")):
        events += game.apply(seat, "discard", [card])
    assert game.view(1)["crib_size"] == 4
    events += play_out(game)
    crib = next(e for e in events if e.type == "Show" and e.params[0] == "crib")
    assert sorted(crib.params[1]) == ["5C", "5D", "5H", "QS"]


def test_mode_4_partners_show_into_one_score() -> None:
    game, _ = ready(4, [["2C", "3C", "4C", "6C"], ["5H", "KH", "QH", "JH"], ["0D", "8D", "9D", "7D"],
                        ["KS", "QS", "JS", "0S"]], starter="AS")
    events = play_out(game)
    counted = [e for e in events if e.type == "Counted"]
    assert [e.player for e in counted] == [1, 2, 3, 0, 0]
    # Each partner's count goes on the running total the other one left.
    assert counted[2].params[1] == counted[0].params[1] + counted[2].params[0]
    assert counted[3].params[1] == counted[1].params[1] + counted[3].params[0]
    result = game.result()
    assert result["teams"][0]["score"] == result["scores"][0] == result["scores"][2]


def rules_of(game: CribbageGame) -> dict[str, Any]:
    return game.view(None)["rules"]


def test_rules_have_defaults_and_reject_nonsense() -> None:
    assert rules_of(CribbageGame(2, 0, {})) == {"counting": "auto", "variants": "", "first_dealer": 0}
    assert rules_of(CribbageGame(3, 0, {"host_seat": 2}))["first_dealer"] == 2  # the host deals first
    from games.core.engine import Rejection

    for bad in ({"counting": "loud"}, {"variants": "X"}, {"first_dealer": 4}, {"first_dealer": True},
                {"colour": "red"}, {"variants": 1}):
        with pytest.raises(Rejection):
            CribbageGame(4, 0, bad)
        with pytest.raises(ValueError):  # what the lobby catches
            CribbageGame(4, 0, bad)
