"""One test per Acquire rule, each on a small constructed position.

Every docstring quotes the rule it checks (the rules as the oracle README states them).
"""

from __future__ import annotations

import pytest

from games.acquire.engine import AcquireGame
from games.acquire.engine.board import NEIGHBOURS, NUM_TILES, parse_tile, tile_name
from games.acquire.engine.chains import CHAIN_NAMES, bonuses, share_price, tier
from games.acquire.engine.modes import MODES
from games.acquire.engine.review import Review, ReviewAction, emit_review, parse_review, replay, review_of
from games.core.engine import Rejection
from tests.acquire.engine.helpers import cells, column, find, no_shares, position, types

L, T, A, F, W, C, IMP = range(7)  # Luxor, Tower, American, Festival, Worldwide, Continental, Imperial


def t(name: str) -> int:
    return parse_tile(name)


def snapshot(game: AcquireGame) -> dict:
    return game.view(None, reveal_all=True)


def seven_chains() -> dict[str, int | str]:
    """Every chain on the board, two tiles each, in rows A and C of columns 1-2 and 4-12."""
    board: dict[str, int | str] = {}
    spots = [("1A", "2A"), ("4A", "5A"), ("7A", "8A"), ("10A", "11A"), ("1C", "2C"), ("4C", "5C"), ("7C", "8C")]
    for chain, (a, b) in enumerate(spots):
        board.update(cells(chain, a, b))
    return board


def safe_pair() -> dict[str, int | str]:
    """Luxor and Tower, 11 tiles each: column 1 + 2A-2B, and 3C-3I + 4A-4D. 2C..2I touch both."""
    board: dict[str, int | str] = {}
    board.update(cells(L, *column(1, "ABCDEFGHI"), "2A", "2B"))
    board.update(cells(T, *column(3, "CDEFGHI"), *column(4, "ABCD")))
    return board


# ---------------------------------------------------------------------- board and chains


def test_board_is_12_by_9_with_column_major_numbering() -> None:
    """Rule: 12x9 board, 108 tiles; tile = (column - 1) * 9 + row, rows A-I: 0 = 1A, 8 = 1I, 9 = 2A, 107 = 12I."""
    assert NUM_TILES == 108
    assert [tile_name(n) for n in (0, 8, 9, 107)] == ["1A", "1I", "2A", "12I"]
    assert all(parse_tile(tile_name(n)) == n for n in range(NUM_TILES))
    assert sorted(NEIGHBOURS[0]) == [1, 9]  # a corner touches two cells
    assert sorted(NEIGHBOURS[t("5E")]) == sorted(t(n) for n in ("4E", "6E", "5D", "5F"))
    with pytest.raises(ValueError):
        parse_tile("13A")


def test_seven_chains_in_three_price_tiers() -> None:
    """Rule: 7 chains (Luxor, Tower, American, Festival, Worldwide, Continental, Imperial) in 3 price tiers."""
    assert CHAIN_NAMES == ("Luxor", "Tower", "American", "Festival", "Worldwide", "Continental", "Imperial")
    assert [tier(c) for c in range(7)] == [0, 0, 1, 1, 1, 2, 2]


@pytest.mark.parametrize(
    ("size", "price"),
    [(2, 200), (3, 300), (4, 400), (5, 500), (6, 600), (10, 600), (11, 700), (20, 700), (21, 800), (30, 800)]
    + [(31, 900), (40, 900), (41, 1000), (108, 1000)],
)
def test_price_table(size: int, price: int) -> None:
    """Rule: price by size 2→$200 … 6-10→$600, 11-20→$700, 21-30→$800, 31-40→$900, 41+→$1,000;
    tier 2 adds $100 and tier 3 adds $200."""
    assert share_price(L, size) == share_price(T, size) == price
    assert share_price(A, size) == share_price(W, size) == price + 100
    assert share_price(C, size) == share_price(IMP, size) == price + 200
    assert share_price(IMP, 0) == 0


# ---------------------------------------------------------------------- start of game


def test_start_places_position_tiles_and_deals_racks_of_six() -> None:
    """Rule: the first N bag tiles are position tiles put on the board as lone tiles
    (DrewPositionTile each); then each player in order draws 6; $6,000 each; 25 shares per chain."""
    bag = [50, 3, 77, 20] + [n for n in range(108) if n not in (50, 3, 77, 20)]
    game = AcquireGame.from_tile_bag(4, bag)
    assert game.initial_actions() == [(0, "StartGame", [])]
    events = game.apply(0, "StartGame", [])
    positions = find(events, "DrewPositionTile")
    # In bag order, each credited to the seat its rank gives (lowest tile: seat 0).
    assert [(e.player, e.params) for e in positions] == [(2, [50]), (0, [3]), (3, [77]), (1, [20])]
    assert types(events)[4] == "StartedGame"
    drew = find(events, "DrewTile")
    assert [e.player for e in drew] == [0] * 6 + [1] * 6 + [2] * 6 + [3] * 6
    assert types(events)[-1] == "TurnBegan" and events[-1].player == 0
    view = snapshot(game)
    assert [view["board"][n] for n in (50, 3, 77, 20)] == ["lone"] * 4
    assert all(p["cash"] == 6000 and p["rack_size"] == 6 for p in view["players"])
    assert all(c["available"] == 25 for c in view["chains"])
    assert view["tiles_in_bag"] == 108 - 4 - 24
    assert game.to_act() == [0]


def test_drawn_tiles_are_private_to_the_drawer() -> None:
    """Rule: DrewTile is visible only to the drawing seat; position tiles are public."""
    game = AcquireGame.create(mode=MODES[3], seed=11, rules={})
    events = game.apply(0, "StartGame", [])
    for event in find(events, "DrewTile"):
        assert event.visible_to == frozenset({event.player})
        other = (event.player + 1) % 3
        assert event.render(other) == {"type": "DrewTile", "params": [None], "player": event.player}
        assert event.render(event.player)["params"] == event.params
    assert all(e.visible_to is None for e in find(events, "DrewPositionTile"))


def test_seed_decides_the_tile_bag() -> None:
    """Rule: create() derives the tile bag deterministically from the integer seed."""
    first = AcquireGame.create(mode=MODES[2], seed=42, rules={})
    again = AcquireGame.create(mode=MODES[2], seed=42, rules={})
    other = AcquireGame.create(mode=MODES[2], seed=43, rules={})
    assert first.tile_bag == again.tile_bag != other.tile_bag
    assert sorted(first.tile_bag) == list(range(108))
    assert first.apply(0, "StartGame", []) == again.apply(0, "StartGame", [])


# ---------------------------------------------------------------------- placing, founding, growing


def test_lone_tile_then_growth_absorbs_lone_tiles() -> None:
    """Rule: growth — a tile next to one chain joins it, with every lone tile it connects."""
    game = position(board={**cells(L, "1A", "2A"), "4A": "lone", "4B": "lone"}, racks=[["3A"], []])
    assert game.legal_actions(0)[0]["status"] == {t("3A"): "grows"}
    events = game.apply(0, "PlayTile", [t("3A")])
    assert types(events)[:1] == ["PlayedTile"]
    view = snapshot(game)
    assert view["chains"][L]["size"] == 5
    assert [view["board"][t(n)] for n in ("3A", "4A", "4B")] == [L, L, L]


def test_founding_lets_the_player_choose_and_gives_a_free_share() -> None:
    """Rule: founding — a tile next to lone tiles founds a chain of the player's choice and the
    founder gets one free share (the bank has some)."""
    game = position(board={"1A": "lone", "3A": "lone"}, racks=[["2A"], []])
    events = game.apply(0, "PlayTile", [t("2A")])
    assert types(events) == ["PlayedTile"]
    assert game.decision == (0, "SelectNewChain")
    assert game.legal_actions(0) == [{"type": "SelectNewChain", "chains": list(range(7))}]
    events = game.apply(0, "SelectNewChain", [IMP])
    assert (events[0].type, events[0].params) == ("FormedChain", [IMP])
    view = snapshot(game)
    assert view["chains"][IMP]["size"] == 3
    assert view["players"][0]["shares"][IMP] == 1
    assert view["chains"][IMP]["available"] == 24


def test_founder_gets_no_share_when_none_remain() -> None:
    """Rule: founding gives the founder one free share only if any remain."""
    shares = no_shares(2)
    shares[1][L] = 25  # kept through an earlier merger; Luxor is off the board
    game = position(board={"1A": "lone"}, racks=[["2A"], []], shares=shares)
    game.apply(0, "PlayTile", [t("2A")])
    events = game.apply(0, "SelectNewChain", [L])
    assert find(events, "FormedChain")[0].params == [L]
    view = snapshot(game)
    assert view["players"][0]["shares"][L] == 0
    assert view["chains"][L]["available"] == 0


def test_last_free_chain_is_founded_without_asking() -> None:
    """Rule: no SelectNewChain when only one chain is left."""
    board = seven_chains()
    for tile in ("7C", "8C"):  # take Imperial off the board
        del board[tile]
    board["12I"] = "lone"
    game = position(board=board, racks=[["12H"], []])
    events = game.apply(0, "PlayTile", [t("12H")])
    assert types(events)[:2] == ["PlayedTile", "FormedChain"]
    assert events[1].params == [IMP]
    assert game.decision == (0, "PurchaseShares")


def test_tile_that_would_found_an_eighth_chain_waits_in_the_rack() -> None:
    """Rule: a tile that would found an 8th chain is temporarily unplayable and stays in the hand;
    a player with no playable tile plays none (HasNoPlayableTile)."""
    board = {**seven_chains(), "12I": "lone"}
    game = position(board=board, racks=[["12H"], ["6I"]], cash=[0, 6000], bag=[])
    assert types(game.opening_events) == ["TurnBegan", "HasNoPlayableTile", "CouldNotAffordAnyShares", "TurnBegan"]
    assert snapshot(game)["racks"][0] == [{"tile": t("12H"), "name": "12H", "status": "unplayable", "playable": False}]
    # Once a chain is off the board the same tile founds it.
    del board["7C"], board["8C"]
    later = position(board=board, racks=[["12H"], []])
    assert later.legal_actions(0)[0]["status"] == {t("12H"): "founds"}


# ---------------------------------------------------------------------- mergers


def test_strictly_largest_chain_survives_without_asking() -> None:
    """Rule: merger — the largest chain survives; no SelectMergerSurvivor when one is strictly largest."""
    game = position(board={**cells(L, "1A", "2A", "3A"), **cells(T, "5A", "6A")}, racks=[["4A"], []])
    events = game.apply(0, "PlayTile", [t("4A")])
    assert types(events)[:2] == ["PlayedTile", "MergedChains"]
    assert events[1].params == [L, T]
    view = snapshot(game)
    assert view["chains"][L]["size"] == 6 and view["chains"][T]["size"] == 0


def test_tied_largest_chains_let_the_maker_choose_the_survivor() -> None:
    """Rule: survivor choice on ties — the merger maker chooses among the equally largest chains."""
    game = position(board={**cells(L, "1A", "2A"), **cells(T, "4A", "5A")}, racks=[["3A"], []])
    game.apply(0, "PlayTile", [t("3A")])
    assert game.decision == (0, "SelectMergerSurvivor")
    assert game.legal_actions(0)[0]["chains"] == [L, T]
    with pytest.raises(Rejection):
        game.apply(0, "SelectMergerSurvivor", [A])
    events = game.apply(0, "SelectMergerSurvivor", [T])
    assert (events[0].type, events[0].params) == ("SelectedMergerSurvivor", [T])
    assert snapshot(game)["chains"][T]["size"] == 5


def test_bonus_sole_holder_takes_both() -> None:
    """Rule: bonuses — majority 10x price, minority 5x price; a sole holder takes both."""
    assert bonuses([5, 0, 0], 300) == [(0, 4500)]


def test_bonus_first_and_second() -> None:
    """Rule: bonuses — the largest holder takes the majority, the second the minority."""
    assert bonuses([3, 5, 1], 300) == [(1, 3000), (0, 1500)]


def test_bonus_tie_for_first_splits_both() -> None:
    """Rule: a tie for first splits both bonuses (no minority paid); splits round up to $100."""
    assert bonuses([4, 4, 1], 300) == [(0, 2300), (1, 2300)]
    assert bonuses([2, 2, 2], 700) == [(0, 3500), (1, 3500), (2, 3500)]


def test_bonus_tie_for_second_splits_minority() -> None:
    """Rule: a tie for second splits the minority bonus, rounded up to the next $100."""
    assert bonuses([5, 2, 2], 300) == [(0, 3000), (1, 800), (2, 800)]
    assert bonuses([6, 1, 1, 1], 500) == [(0, 5000), (1, 900), (2, 900), (3, 900)]
    assert bonuses([0, 0], 500) == []


def test_bonuses_paid_at_once_before_disposal_at_pre_merger_prices() -> None:
    """Rule: bonuses for every defunct chain are paid at once, before any disposal, at pre-merger prices;
    selling is at the pre-merger price."""
    shares = no_shares(2)
    shares[0][T] = 2
    shares[1][T] = 1
    game = position(board={**cells(L, "1A", "2A", "3A"), **cells(T, "5A", "6A")}, racks=[["4A"], []], shares=shares)
    events = game.apply(0, "PlayTile", [t("4A")])
    assert [(e.type, e.player, e.params) for e in events[2:]] == [
        ("ReceivedBonus", 0, [T, 2000]),  # Tower had 2 tiles: $200 a share before the merger
        ("ReceivedBonus", 1, [T, 1000]),
    ]
    assert game.decision == (0, "DisposeOfShares")
    events = game.apply(0, "DisposeOfShares", [0, 2])
    assert events[0].params == [T, 0, 2]
    assert snapshot(game)["players"][0]["cash"] == 6000 + 2000 + 2 * 200


def test_holders_dispose_in_turn_order_from_the_merger_maker() -> None:
    """Rule: for each defunct chain every holder disposes in turn order starting with the merger maker;
    no DisposeOfShares for a player holding none."""
    shares = no_shares(4)
    for seat in (0, 1, 3):
        shares[seat][T] = 1
    game = position(
        4,
        board={**cells(L, "1A", "2A", "3A"), **cells(T, "5A", "6A")},
        racks=[[], [], ["4A"], []],
        shares=shares,
        turn=2,
    )
    game.apply(2, "PlayTile", [t("4A")])
    order = []
    while game.decision[1] == "DisposeOfShares":
        seat = game.decision[0]
        order.append(seat)
        game.apply(seat, "DisposeOfShares", [0, 0])
    assert order == [3, 0, 1]


def test_trade_two_for_one_limited_by_survivor_shares_available() -> None:
    """Rule: disposal — trade 2-for-1, limited by the survivor's shares still available; sell; keep the rest."""
    shares = no_shares(2)
    shares[0][T] = 6
    shares[1][L] = 24  # the bank has a single Luxor share left
    game = position(board={**cells(L, "1A", "2A", "3A"), **cells(T, "5A", "6A")}, racks=[["4A"], []], shares=shares)
    game.apply(0, "PlayTile", [t("4A")])
    assert game.legal_actions(0)[0]["max_trade"] == 2
    before = snapshot(game)
    for bad in ([4, 0], [3, 0], [2, 5], [-2, 0], [0, -1], ["2", 0], [2]):
        with pytest.raises(Rejection):
            game.apply(0, "DisposeOfShares", bad)
        assert snapshot(game) == before
    game.apply(0, "DisposeOfShares", [2, 1])
    view = snapshot(game)
    assert view["players"][0]["shares"][L] == 1
    assert view["players"][0]["shares"][T] == 3  # kept
    assert view["chains"][L]["available"] == 0
    assert view["chains"][T]["available"] == 25 - 3


def test_defunct_chains_disposed_largest_first_maker_orders_equal_sizes() -> None:
    """Rule: mergers of 2-4 chains; defunct chains are disposed largest first; within a group of equal
    size the merger maker picks the order (no SelectChainToDisposeOfNext for a chain alone in its size)."""
    board = {
        **cells(L, "1E", "2E", "3E", "4E"),
        **cells(T, "6E", "7E", "8E"),
        **cells(A, "5C", "5D"),
        **cells(F, "5F", "5G"),
    }
    shares = no_shares(2)
    shares[0][T] = shares[0][A] = shares[0][F] = 1
    game = position(board=board, racks=[["5E"], []], shares=shares)
    events = game.apply(0, "PlayTile", [t("5E")])
    assert find(events, "MergedChains")[0].params == [L, T, A, F]
    assert len(find(events, "ReceivedBonus")) == 3
    assert game.legal_actions(0)[0] == {
        "type": "DisposeOfShares",
        "chain": T,
        "survivor": L,
        "shares": 1,
        "max_trade": 0,
        "price": 300,
    }
    game.apply(0, "DisposeOfShares", [0, 1])
    assert game.decision == (0, "SelectChainToDisposeOfNext")
    assert game.legal_actions(0)[0]["chains"] == [A, F]
    events = game.apply(0, "SelectChainToDisposeOfNext", [F])
    assert events[0].params == [F]
    assert game.legal_actions(0)[0]["chain"] == F
    game.apply(0, "DisposeOfShares", [0, 0])
    assert game.legal_actions(0)[0]["chain"] == A  # the last of its group: chosen without asking
    game.apply(0, "DisposeOfShares", [0, 0])
    assert game.decision == (0, "PurchaseShares")
    assert snapshot(game)["chains"][L]["size"] == 4 + 3 + 2 + 2 + 1


# ---------------------------------------------------------------------- safe chains and dead tiles


def test_safe_chain_can_absorb_a_smaller_one() -> None:
    """Rule: safe chains (11+) — a safe chain may still merge with an unsafe chain (it survives)."""
    board = {**cells(L, *column(1, "ABCDEFGHI"), "2A", "2B"), **cells(T, "4A", "4B")}
    game = position(board=board, racks=[["3A"], []])
    assert game.legal_actions(0)[0]["status"] == {t("3A"): "merges"}


def test_dead_tiles_are_replaced_one_at_a_time_at_end_of_turn() -> None:
    """Rule: a tile next to two or more safe chains is dead; at the end of the turn it is put on the
    board as dead and replaced from the bag (ReplacedDeadTile), one at a time — a replacement that is
    itself dead is replaced too. Other players' dead tiles wait for their own turn."""
    rack = ["12A", "2C", "12C", "12E", "12G", "10I"]
    game = position(board=safe_pair(), racks=[rack, ["2E"]], bag=["10A", "2D", "10C", "10E"])
    assert t("2C") not in game.legal_actions(0)[0]["tiles"]
    with pytest.raises(Rejection, match="safe"):
        game.apply(0, "PlayTile", [t("2C")])
    game.apply(0, "PlayTile", [t("12A")])
    events = game.apply(0, "PurchaseShares", [[], 0])
    summary = [(e.type, e.player, e.params) for e in events[1:6]]
    assert summary == [
        ("DrewTile", 0, [t("10A")]),
        ("ReplacedDeadTile", 0, [t("2C")]),
        ("DrewTile", 0, [t("2D")]),
        ("ReplacedDeadTile", 0, [t("2D")]),
        ("DrewTile", 0, [t("10C")]),
    ]
    view = snapshot(game)
    assert view["board"][t("2C")] == view["board"][t("2D")] == "dead"
    assert [r["name"] for r in view["racks"][0]] == ["10A", "10C", "12C", "12E", "12G", "10I"]
    # Seat 1's dead tile is still in its rack, and it has nothing playable.
    assert view["racks"][1][0]["status"] == "dead"
    assert types(events)[-2:] == ["TurnBegan", "HasNoPlayableTile"]
    assert game.decision == (1, "PurchaseShares")


# ---------------------------------------------------------------------- buying shares


def test_buy_up_to_three_shares_of_chains_on_the_board_within_cash() -> None:
    """Rule: buying — up to 3 shares in total, chains on the board only, at current prices, within cash,
    and no more than the bank has."""
    shares = no_shares(2)
    shares[1][L] = 23  # the bank has 2 Luxor shares
    game = position(
        board={**cells(L, "1A", "2A"), **cells(A, "1C", "2C", "3C")},
        racks=[["12I"], []],
        cash=[1000, 6000],
        shares=shares,
    )
    game.apply(0, "PlayTile", [t("12I")])
    offer = game.legal_actions(0)[0]
    assert offer["affordable"] == {L: 2, A: 2}
    before = snapshot(game)
    for bad, reason in [
        ([[A, A, A, A], 0], "at most 3"),
        ([[T], 0], "not on the board"),
        ([[L, L, L], 0], "bank has only 2"),
        ([[A, A, A], 0], "cost"),
        ([[9], 0], "not a chain"),
        ([[L], 2], "end_game"),
        ([L, 0], "PurchaseShares takes"),
    ]:
        with pytest.raises(Rejection, match=reason):
            game.apply(0, "PurchaseShares", bad)
        assert snapshot(game) == before
    events = game.apply(0, "PurchaseShares", [[A, L, A], 0])
    assert (events[0].type, events[0].params) == ("PurchasedShares", [[L, 1], [A, 2]])
    view = snapshot(game)
    assert view["players"][0]["cash"] == 1000 - 200 - 2 * 400
    assert view["players"][0]["shares"][A] == 2


def test_no_purchase_when_nothing_is_affordable() -> None:
    """Rule: no PurchaseShares when the player can afford no share and cannot end the game
    (CouldNotAffordAnyShares when shares exist but none is affordable)."""
    game = position(board=cells(L, "1A", "2A"), racks=[["12I"], ["12A"]], cash=[100, 6000])
    events = game.apply(0, "PlayTile", [t("12I")])
    assert types(events)[:2] == ["PlayedTile", "CouldNotAffordAnyShares"]
    assert game.decision == (1, "PlayTile")


def test_no_purchase_and_no_message_without_chains_or_shares() -> None:
    """Rule: no PurchaseShares when no share can be bought; CouldNotAffordAnyShares only when shares exist."""
    game = position(board={}, racks=[["12I"], ["12A"]])
    events = game.apply(0, "PlayTile", [t("12I")])
    assert "CouldNotAffordAnyShares" not in types(events)
    assert game.decision == (1, "PlayTile")
    shares = no_shares(2)
    shares[1][L] = 25
    game = position(board=cells(L, "1A", "2A"), racks=[["12I"], ["12A"]], shares=shares)
    events = game.apply(0, "PlayTile", [t("12I")])
    assert "CouldNotAffordAnyShares" not in types(events)
    assert game.decision == (1, "PlayTile")


# ---------------------------------------------------------------------- the end


def big_chain() -> dict[str, int | str]:
    """Luxor with 41 tiles: columns 1-4 and 5A-5E."""
    tiles = [f"{c}{r}" for c in range(1, 5) for r in "ABCDEFGHI"] + column(5, "ABCDE")
    return cells(L, *tiles)


def test_declared_end_honoured_with_a_41_tile_chain() -> None:
    """Rule: end declared — PurchaseShares end_game=1 is honoured when some chain has 41+ tiles."""
    game = position(board={**big_chain(), **cells(T, "12A", "12B")}, racks=[["10I"], []], cash=[0, 0])
    game.apply(0, "PlayTile", [t("10I")])
    assert game.legal_actions(0)[0]["can_end"] is True
    events = game.apply(0, "PurchaseShares", [[], 1])
    assert types(events) == ["CouldNotAffordAnyShares", "EndedGame"]
    assert game.is_over and game.end_reason == "EndedGame"


def test_declared_end_honoured_when_every_chain_is_safe() -> None:
    """Rule: end declared — honoured when every chain on the board is safe (11+)."""
    game = position(board=safe_pair(), racks=[["12I"], []])
    game.apply(0, "PlayTile", [t("12I")])
    events = game.apply(0, "PurchaseShares", [[], 1])
    assert types(events)[-1] == "EndedGame" and game.is_over


def test_declared_end_ignored_otherwise() -> None:
    """Rule: end_game=1 is honoured only if some chain has 41+ tiles or all chains on the board are
    safe; otherwise the request is ignored (as the reference does) and play goes on."""
    board = {**cells(L, *column(1, "ABCDEFGHI"), "2A", "2B"), **cells(T, "12A", "12B")}
    game = position(board=board, racks=[["10I"], ["8I"]])
    game.apply(0, "PlayTile", [t("10I")])
    assert game.legal_actions(0)[0]["can_end"] is False
    events = game.apply(0, "PurchaseShares", [[], 1])
    assert "EndedGame" not in types(events)
    assert not game.is_over and game.decision == (1, "PlayTile")


def test_all_tiles_played_ends_the_game() -> None:
    """Rule: the game ends when every cell is filled (dead tiles count): AllTilesPlayed."""
    board = {n: "dead" for n in range(108) if n != t("6E")}
    game = position(board=board, racks=[["6E"], []], bag=[])
    events = game.apply(0, "PlayTile", [t("6E")])
    assert types(events) == ["PlayedTile", "AllTilesPlayed"]
    assert events[-1].player is None
    assert game.is_over and game.end_reason == "AllTilesPlayed"


def test_whole_round_without_a_tile_played_ends_the_game() -> None:
    """Rule: the game ends when a whole round passes with no tile played (NoTilesPlayedForEntireRound)."""
    board = {**seven_chains(), "12I": "lone"}
    game = position(board=board, racks=[["12H"], ["11I"]], cash=[0, 0], bag=[])
    assert types(game.opening_events) == [
        "TurnBegan",
        "HasNoPlayableTile",
        "CouldNotAffordAnyShares",
        "TurnBegan",
        "HasNoPlayableTile",
        "CouldNotAffordAnyShares",
        "NoTilesPlayedForEntireRound",
    ]
    assert game.is_over and game.end_reason == "NoTilesPlayedForEntireRound"


def test_a_played_tile_restarts_the_round_count() -> None:
    """Rule: only a *whole* round with no tile played ends the game."""
    board = {**seven_chains(), "12I": "lone"}
    game = position(board=board, racks=[["12H"], ["6I", "11I"]], cash=[0, 0], bag=[])
    assert not game.is_over and game.decision == (1, "PlayTile")
    events = game.apply(1, "PlayTile", [t("6I")])
    # Seat 0's idle turn before the tile no longer counts: the round needs both idle turns after it.
    assert [(e.type, e.player) for e in events] == [
        ("PlayedTile", 1),
        ("CouldNotAffordAnyShares", 1),
        ("TurnBegan", 0),
        ("HasNoPlayableTile", 0),
        ("CouldNotAffordAnyShares", 0),
        ("TurnBegan", 1),
        ("HasNoPlayableTile", 1),
        ("CouldNotAffordAnyShares", 1),
        ("NoTilesPlayedForEntireRound", None),
    ]


def test_drawing_the_last_tile_is_announced() -> None:
    """Rule: DrewLastTile is recorded when the bag's last tile is drawn."""
    game = position(board={}, racks=[["12I"], []], bag=["1A"])
    events = game.apply(0, "PlayTile", [t("12I")])
    assert [(e.type, e.player) for e in events[1:3]] == [("DrewTile", 0), ("DrewLastTile", 0)]
    assert snapshot(game)["tiles_in_bag"] == 0


def test_final_score_is_cash_shares_and_bonuses_owed() -> None:
    """Rule: final score = cash + shares x final price + the bonuses each chain on the board would pay;
    shares of a chain no longer on the board are worth nothing."""
    shares = no_shares(2)
    shares[0][L] = 3
    shares[1][L] = 1
    shares[1][T] = 4  # Tower is not on the board
    game = position(board=cells(L, "1A", "2A", "3A", "4A", "5A"), racks=[[], []], cash=[1000, 2000], shares=shares)
    outcome = game.result()
    assert outcome["scores"] == [1000 + 3 * 500 + 5000, 2000 + 500 + 2500]
    assert [p["rank"] for p in outcome["players"]] == [1, 2]


@pytest.mark.parametrize(("mode", "teams"), [(7, 2), (8, 3), (9, 2)])
def test_team_is_seat_mod_teams_and_team_score_is_the_sum(mode: int, teams: int) -> None:
    """Rule: team = player index mod number of teams; a team's score is the sum of its members' scores."""
    seats = MODES[mode].seats
    cash = [1000 * (s + 1) for s in range(seats)]
    game = position(seats, board={}, racks=[[] for _ in range(seats)], cash=cash, mode=mode)
    outcome = game.result()
    assert [team["score"] for team in outcome["teams"]] == [sum(cash[k::teams]) for k in range(teams)]
    assert [p["team"] for p in outcome["players"]] == [s % teams for s in range(seats)]
    assert outcome["teams"][0]["seats"] == list(range(0, seats, teams))


# ---------------------------------------------------------------------- the contract


def test_illegal_actions_are_rejected_and_change_nothing() -> None:
    """Rule: illegal actions (wrong seat, wrong phase, bad params, unplayable tile) raise Rejection and
    leave the state exactly as it was."""
    board = {**seven_chains(), "12I": "lone"}
    game = position(board=board, racks=[["12H", "6I"], ["9I"]])
    before = snapshot(game)
    attempts = [
        (1, "PlayTile", [t("9I")]),  # not seat 1's turn
        (0, "PurchaseShares", [[], 0]),  # not the pending decision
        (0, "PlayTile", ["6I"]),  # tile given as a name
        (0, "PlayTile", [True]),
        (0, "PlayTile", [t("6I"), 1]),
        (0, "PlayTile", [200]),
        (0, "PlayTile", [t("9I")]),  # someone else's tile
        (0, "PlayTile", [t("12H")]),  # would found an eighth chain
        (0, "Pass", []),
        (0, "PlayTile", "6I"),
        (0, "GameOver", []),
    ]
    for seat, kind, params in attempts:
        with pytest.raises(Rejection) as caught:
            game.apply(seat, kind, params)
        assert caught.value.reason
        assert snapshot(game) == before
    assert game.apply(0, "PlayTile", [t("6I")])


def test_game_over_accepts_no_action() -> None:
    """Rule: after the end the reference leaves a GameOver decision with the last player that
    accepts nothing; nobody is waited for."""
    game = position(board=safe_pair(), racks=[["12I"], []])
    game.apply(0, "PlayTile", [t("12I")])
    game.apply(0, "PurchaseShares", [[], 1])
    assert game.is_over and game.to_act() == [] and game.decision == (0, "GameOver")
    assert game.legal_actions(0) == []
    for kind in ("GameOver", "PlayTile"):
        with pytest.raises(Rejection, match="over"):
            game.apply(0, kind, [])


def test_views_show_only_the_viewers_rack() -> None:
    """Rule: a seat's view shows its own rack only and the bag as a count; reveal_all shows everything."""
    game = AcquireGame.create(mode=MODES[3], seed=5, rules={})
    game.apply(0, "StartGame", [])
    full = snapshot(game)
    for seat in range(3):
        view = game.view(seat)
        assert "racks" not in view and "tile_bag" not in view
        assert view["rack"] == full["racks"][seat]
        assert view["tiles_in_bag"] == len(full["tile_bag"]) == 108 - 3 - 18
    assert "rack" not in game.view(None)
    statuses = {r["status"] for r in game.view(0)["rack"]}
    assert statuses <= {"lone", "grows", "founds", "merges", "unplayable", "dead"}


def test_auto_action_plays_a_whole_game() -> None:
    """Rule: auto_action gives a legal action for whichever seat the game waits for, until the end."""
    for seed in range(3):
        game = AcquireGame.create(mode=MODES[4], seed=seed, rules={})
        steps = 0
        while not game.is_over:
            (seat,) = game.to_act()
            kind, params = game.auto_action(seat)
            game.apply(seat, kind, params)
            steps += 1
            assert steps < 2000
        assert game.result()["end_reason"] in ("EndedGame", "AllTilesPlayed", "NoTilesPlayedForEntireRound")


def test_review_round_trip_and_replay() -> None:
    """Rule: the review array — params, then a timestamp (epoch ms first, then ms since the previous)
    and 1 for automatically played actions; replaying it rebuilds the game."""
    game = AcquireGame.create(mode=MODES[2], seed=9, rules={})
    while not game.is_over:
        (seat,) = game.to_act()
        game.apply(seat, *game.auto_action(seat))
    stamps = [1_700_000_000_000 + 1000 * i for i in range(len(game.action_log))]
    flags = [i % 5 == 0 for i in range(len(game.action_log))]
    review = review_of(game, user_ids=[7, 9], usernames=["ann", "bob"], timestamps_ms=stamps, auto=flags)
    data = emit_review(review)
    assert data[8][0] == [[], stamps[0], 1]
    assert data[8][1] == [data[8][1][0], 1000]
    assert parse_review(data) == review
    again = replay(data, [kind for _, kind, _ in game.action_log])
    assert again.result() == game.result()
    untimed = Review(2, 2, None, 0, [1, 2], ["a", "b"], 1, list(range(108)), [ReviewAction([], None, True)])
    assert emit_review(untimed)[8] == [[[], None, 1]]
