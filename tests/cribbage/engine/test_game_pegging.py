"""The play: the traps of pegging, the go, the last card, the must-play rule and pegging out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.core.engine import Event, Rejection
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.cards import new_deck

LAY_AWAY = {2: 2, 3: 1, 4: 1}


def ready(mode: int, kept: Sequence[Sequence[str]], starter: str = "KD", *, scores: Sequence[int] | None = None,
          rules: dict[str, Any] | None = None, crib_card: str | None = None) -> tuple[CribbageGame, list[Event]]:
    """A game at the start of the play in which each seat kept ``kept[seat]``.

    The cards each seat lays away are filler taken from the rest of the deck (no tens or fives,
    so they do not change what the tests look at); the first dealer is seat 0 unless ``rules`` say.
    """
    used = {card for hand in kept for card in hand} | {starter} | ({crib_card} if crib_card else set())
    filler = [c for c in new_deck() if c not in used and c[0] in "A2346789"]
    if mode == 3 and crib_card is None:
        crib_card = filler.pop()
    away = [[filler.pop(0) for _ in range(LAY_AWAY[mode])] for _ in kept]
    hands = [list(hand) + extra for hand, extra in zip(kept, away)]
    game = CribbageGame.with_hands(mode, hands, starter, scores=scores, rules=rules, crib_card=crib_card)
    events = game.apply(game.rules.first_dealer, "deal", [])
    for seat, extra in enumerate(away):
        events += game.apply(seat, "discard", extra)
    return game, events


def play(game: CribbageGame, *moves: tuple[int, str]) -> list[Event]:
    events: list[Event] = []
    for seat, card in moves:
        params: list[Any] = [card, 0] if game.rules.manual else [card]
        events += game.apply(seat, "play", params)
    return events


def kinds(events: list[Event]) -> list[tuple[str, int | None]]:
    return [(e.type, e.player) for e in events]


def pegged(events: list[Event]) -> list[int]:
    return [e.params[1] for e in events if e.type == "Played"]


def test_the_non_dealer_leads() -> None:
    game, events = ready(2, [["5H", "5D", "KH", "KS"], ["6C", "9C", "QH", "QD"]])
    assert kinds(events)[-2:] == [("Starter", 0), ("Active", 1)]
    assert game.to_act() == [1] and game.view(1)["phase"] == "play"


def test_a_pair_counts_only_when_the_cards_are_adjacent() -> None:
    game, _ = ready(2, [["6C", "9C", "QH", "QD"], ["5H", "5D", "KH", "KS"]])
    events = play(game, (1, "5H"), (0, "6C"), (1, "5D"))
    assert pegged(events) == [0, 0, 0]  # 5, 6, 5: the fives are not adjacent, and 5-6-5 is no run
    assert play(game, (0, "9C"))[0].params[:2] == ["9C", 0]


def test_a_pair_then_a_pair_royal_and_thirty_one_with_a_pair() -> None:
    game, _ = ready(2, [["8H", "8C", "2S", "3S"], ["7H", "8D", "AS", "4C"]])
    events = play(game, (1, "7H"), (0, "8H"), (1, "8D"), (0, "8C"))
    assert [e.params[:2] for e in events if e.type == "Played"] == [["7H", 0], ["8H", 2], ["8D", 2], ["8C", 8]]
    last = [e for e in events if e.type == "Played"][-1]
    assert [item[0] for item in last.params[4]] == ["thirty-one", "pair royal"]
    assert last.params[3] == 31
    # Thirty-one pays its two and no go point; the count resets and the next seat leads.
    assert kinds(events)[-2:] == [("CountReset", None), ("Active", 1)]
    assert not any(e.type == "GoPoint" for e in events)
    assert game.result()["scores"] == [10, 2]


def test_a_duplicate_breaks_a_run() -> None:
    game, _ = ready(2, [["4C", "5S", "KH", "QH"], ["3H", "4D", "KS", "QS"]])
    events = play(game, (1, "3H"), (0, "4C"), (1, "4D"), (0, "5S"))
    assert pegged(events) == [0, 0, 2, 0]


def test_runs_count_in_any_order() -> None:
    game, _ = ready(2, [["6D", "3C", "KH", "QH"], ["4H", "5C", "KS", "QS"]])
    events = play(game, (1, "4H"), (0, "6D"), (1, "5C"), (0, "3C"))
    played = [e.params for e in events if e.type == "Played"]
    assert [p[1] for p in played] == [0, 0, 5, 4]
    assert [item[:2] for item in played[2][4]] == [["fifteen", 2], ["run", 3]]
    assert played[3][4] == [["run", 4, ["4H", "6D", "5C", "3C"]]]


def test_go_then_last_card() -> None:
    game, _ = ready(2, [["QH", "5C", "5D", "6S"], ["KH", "0H", "9H", "2S"]])
    events = play(game, (1, "KH"), (0, "QH"), (1, "0H"))
    # 30: seat 0 holds only fives and a six, seat 1 a nine and a two: nobody can play.
    assert kinds(events)[-5:] == [("Played", 1), ("Go", 0), ("GoPoint", 1), ("CountReset", None), ("Active", 0)]
    go_point = [e for e in events if e.type == "GoPoint"][0]
    assert go_point.params == [1, 1, "go"]
    events = play(game, (0, "5C"), (1, "9H"), (0, "5D"), (1, "2S"), (0, "6S"))
    assert [e.params for e in events if e.type == "GoPoint"] == [[1, 1, "last card"]]
    assert events[-1].type != "GoPoint" and any(e.type == "Show" for e in events)


def test_the_last_card_making_thirty_one_gets_no_extra_point() -> None:
    game, _ = ready(2, [["QC", "KC", "8D", "2C"], ["0H", "KH", "9D", "2S"]])
    play(game, (1, "0H"), (0, "QC"), (1, "KH"))  # 30: both stuck, seat 1 pegs the go
    events = play(game, (0, "KC"), (1, "9D"), (0, "8D"), (1, "2S"), (0, "2C"))
    last = max(i for i, e in enumerate(events) if e.type == "Played")
    assert events[last].params[:4] == ["2C", 4, 4, 31]  # a pair and thirty-one
    assert not any(e.type == "GoPoint" for e in events)
    assert kinds(events)[last + 1] == ("Show", 1)  # straight to the show


def test_three_players_keep_playing_after_a_go() -> None:
    game, _ = ready(3, [["5C", "2C", "4C", "6C"], ["KH", "9H", "8H", "7H"], ["QD", "AS", "2D", "6S"]])
    events = play(game, (1, "KH"), (2, "QD"), (0, "5C"))
    # 25: seat 1's nine, eight and seven all go past 31, so it says go; seat 2 plays on.
    assert kinds(events)[-2:] == [("Go", 1), ("Active", 2)]
    events = play(game, (2, "AS"))
    assert kinds(events)[-1] == ("Active", 0)
    events = play(game, (0, "2C"))
    assert kinds(events)[-1] == ("Active", 2)  # seat 1 has said go and is not asked again
    assert not any(e.type == "Go" for e in events)
    events = play(game, (2, "2D"))
    # 30: seat 0 goes, seat 2 (the last to play) pegs the go, and seat 0, on its left, leads.
    assert kinds(events) == [("Played", 2), ("Go", 0), ("GoPoint", 2), ("CountReset", None), ("Active", 0)]
    assert game.result()["scores"] == [0, 0, 3]  # the pair of twos and the go


def test_pegging_out_mid_play_ends_the_game_at_once() -> None:
    game, _ = ready(2, [["5C", "6C", "7C", "8C"], ["0H", "9H", "2H", "3H"]], scores=[119, 100])
    events = play(game, (1, "0H"), (0, "5C"))
    assert kinds(events)[-2:] == [("Played", 0), ("GameOver", 0)]
    assert game.is_over and not game.to_act() and game.legal_actions(1) == []
    assert events[-1].params == [[121, 100], 21, ""]
    with pytest.raises(Rejection):
        game.apply(1, "play", ["9H"])
    assert game.result()["winner"] == 0 and game.result()["margin"] == 21


def test_a_go_point_can_peg_out() -> None:
    game, _ = ready(2, [["QH", "5C", "5D", "6S"], ["KH", "0H", "9H", "2S"]], scores=[0, 120])
    events = play(game, (1, "KH"), (0, "QH"), (1, "0H"))
    assert kinds(events)[-3:] == [("Go", 0), ("GoPoint", 1), ("GameOver", 1)]
    assert game.result()["skunk"] == "double skunk"


def test_must_play_and_over_thirty_one() -> None:
    game, _ = ready(2, [["QH", "AC", "5D", "6S"], ["KH", "0H", "9H", "2S"]])
    play(game, (1, "KH"), (0, "QH"), (1, "0H"))
    # 30: seat 0 holds the ace, so it is not passed: it must play it, and nothing else fits.
    assert game.to_act() == [0]
    assert game.legal_actions(0)[0] == {"type": "play", "cards": ["AC"], "count": 30, "claim": False}
    with pytest.raises(Rejection, match="past 31"):
        game.apply(0, "play", ["5D"])
    events = play(game, (0, "AC"))
    assert events[0].params[:2] == ["AC", 2]  # thirty-one


def test_partners_share_a_score_in_mode_4() -> None:
    game, _ = ready(4, [["2C", "3C", "4C", "6C"], ["5H", "KH", "QH", "JH"], ["0D", "8D", "9D", "7D"],
                        ["KS", "QS", "JS", "0S"]])
    events = play(game, (1, "5H"), (2, "0D"))
    assert events[-2].params[1:3] == [2, 2]  # seat 2's fifteen is its team's
    assert game.result()["scores"] == [2, 0, 2, 0]
    assert game.view(3)["team_scores"] == [2, 0]
