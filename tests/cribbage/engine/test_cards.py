import pytest

from games.cribbage.engine.cards import RANKS, SUITS, is_card, new_deck, rank_of, suit_of, value_of


def test_deck_is_52_distinct_valid_cards_in_a_fixed_order():
    deck = new_deck()
    assert len(deck) == 52 == len(set(deck))
    assert all(is_card(card) for card in deck)
    assert deck == new_deck()
    assert {suit_of(card) for card in deck} == set(SUITS)
    assert {card[0] for card in deck} == set(RANKS)


@pytest.mark.parametrize(
    ("card", "rank", "value"),
    [("AH", 1, 1), ("2D", 2, 2), ("5C", 5, 5), ("9S", 9, 9), ("0D", 10, 10), ("JH", 11, 10), ("QC", 12, 10),
     ("KS", 13, 10)],
)
def test_rank_and_value(card, rank, value):
    assert rank_of(card) == rank
    assert value_of(card) == value


def test_suit():
    assert [suit_of(card) for card in ("AH", "0D", "JC", "KS")] == ["H", "D", "C", "S"]


@pytest.mark.parametrize("text", ["1H", "10H", "TH", "AX", "ah", "0d", "A", "AHS", "", None, 5, ["A", "H"]])
def test_is_card_rejects(text):
    assert not is_card(text)


@pytest.mark.parametrize("text", ["1H", "XS", "", None])
def test_rank_and_value_of_a_non_card_raise_value_error(text):
    with pytest.raises(ValueError):
        rank_of(text)
    with pytest.raises(ValueError):
        value_of(text)
