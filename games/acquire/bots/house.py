"""A built-in Acquire bot that plays from what its seat may see.

``choose(view, legal, rng)`` takes the engine's view for the bot's seat (``AcquireGame.view(seat)``
or the ``view`` of a platform snapshot) and that seat's ``legal_actions``, and returns
``(action_type, params)``. It reads only public information plus its own rack: the board, chain
sizes and prices, the bank's shares, every player's cash and shares (all public in Acquire). It
never sees other racks or the bag, so it can sit at any table a person could.

The bot judges a move by its *standing*: its net worth (or its team's), valued as if the game
ended now, minus the best opponent's. That one yardstick makes it grow chains it leads in, found
chains (the free share makes it sole holder), pick the survivor it holds most of, trade or sell
at a merger, and buy where a share changes a majority. A little hand-tuned foresight is added
where "as if it ended now" is blind: unsafe chains are expected to grow, kept defunct shares
may come back, and cash in hand keeps later options open.

Every choice is deterministic given the ``random.Random`` it is handed: the generator only breaks
ties, so two bots with the same seed make the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.acquire.engine.board import DEAD, EMPTY, FOUNDS, GROWS, LONE, MERGES, NUM_TILES, SAFE_SIZE, Board
from games.acquire.engine.chains import END_SIZE, MAX_SHARES_PER_TURN, NUM_CHAINS, PRICES, bonuses
from games.acquire.engine.scoring import net_worths, team_totals

_CELL_CODES: dict[Any, int] = {"lone": LONE, "dead": DEAD, None: EMPTY}

# Hand-tuned weights, in dollars of standing.
_TIE_NOISE = 1.0  # far below any real difference; only orders equal options
_GROWTH_LOOKAHEAD = 3  # tiles an unsafe chain is expected to gain while a share is held
_KEPT_SHARE_HOPE = 0.25  # share of the pre-merger price a kept defunct share is worth if refounded
_RESERVE_SHARE = 2000  # cash held back early for later majorities, shrinking as the bag empties
_LOCK_IN = 0.25  # weight of a merger bonus taken now over the same bonus still on paper


@dataclass
class _Position:
    """The public position as plain lists, ready to be changed in a what-if."""

    me: int
    teams: int
    board: Board
    cash: list[int]
    shares: list[list[int]]
    available: list[int]
    tiles_in_bag: int

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> _Position:
        board = Board()
        board.cells = [cell if isinstance(cell, int) else _CELL_CODES[cell] for cell in view["board"]]
        board.sizes = [board.cells.count(chain) for chain in range(NUM_CHAINS)]
        board.empty = board.cells.count(EMPTY)
        players = view["players"]
        me = view["pending"]["seat"]
        return cls(
            me=me,
            teams=view.get("teams") or 0,
            board=board,
            cash=[p["cash"] for p in players],
            shares=[list(p["shares"]) for p in players],
            available=[c["available"] for c in view["chains"]],
            tiles_in_bag=view.get("tiles_in_bag", 0),
        )

    def copy(self) -> _Position:
        return _Position(
            self.me,
            self.teams,
            self.board.copy(),
            self.cash[:],
            [row[:] for row in self.shares],
            self.available[:],
            self.tiles_in_bag,
        )

    @property
    def sizes(self) -> list[int]:
        return self.board.sizes

    def price(self, chain: int) -> int:
        return PRICES[chain][self.sizes[chain]]

    def standing(self) -> float:
        """Own (or own team's) net worth minus the best rival's, as if the game ended now."""
        return self.standing_of(net_worths(self.sizes, self.cash, self.shares))

    def standing_of(self, scores: Sequence[int]) -> float:
        if self.teams:
            totals = team_totals(scores, self.teams)
            mine = totals[self.me % self.teams]
            rivals = [v for t, v in enumerate(totals) if t != self.me % self.teams]
        else:
            mine = scores[self.me]
            rivals = [v for s, v in enumerate(scores) if s != self.me]
        return mine - max(rivals) if rivals else mine

    def is_friend(self, seat: int) -> bool:
        return seat == self.me or bool(self.teams and seat % self.teams == self.me % self.teams)

    def progress_left(self) -> float:
        """Roughly how much of the game is still to come (1 at the start, 0 with the bag empty)."""
        return max(0.0, min(1.0, self.tiles_in_bag / NUM_TILES))


# ---------------------------------------------------------------------- what-ifs


def _found(pos: _Position, tile: int, chain: int) -> None:
    pos.board.fill(tile, chain)
    if pos.available[chain] > 0:
        pos.available[chain] -= 1
        pos.shares[pos.me][chain] += 1


def _merge(pos: _Position, tile: int, survivor: int) -> tuple[int, int]:
    """Play out a merger as if every holder sold out; returns (friendly, rival) bonuses paid."""
    sizes = pos.sizes
    chains = pos.board.adjacent_chains(tile)
    prices = {c: PRICES[c][sizes[c]] for c in chains}
    friendly = rival = 0
    for chain in chains:
        if chain == survivor:
            continue
        holdings = [row[chain] for row in pos.shares]
        for seat, amount in bonuses(holdings, prices[chain]):
            pos.cash[seat] += amount
            if pos.is_friend(seat):
                friendly += amount
            else:
                rival = max(rival, amount)
        for seat, count in enumerate(holdings):
            pos.cash[seat] += count * prices[chain]
            pos.shares[seat][chain] = 0
        pos.available[chain] += sum(holdings)
    pos.board.fill(tile, survivor)
    return friendly, rival


def _best_survivor(pos: _Position, tile: int, candidates: Sequence[int], rng: random.Random) -> tuple[int, float]:
    best: tuple[float, int] | None = None
    for chain in candidates:
        after = pos.copy()
        friendly, rival = _merge(after, tile, chain)
        score = after.standing() + _LOCK_IN * (friendly - rival) + rng.random() * _TIE_NOISE
        if best is None or score > best[0]:
            best = (score, chain)
    assert best is not None
    return best[1], best[0]


def _founding_choice(pos: _Position, choices: Sequence[int], rng: random.Random) -> int:
    """The priciest chain the founder can still back with a couple of bought shares."""
    cash = pos.cash[pos.me]
    affordable = [c for c in choices if 2 * PRICES[c][2] <= cash]
    pool = affordable or list(choices)
    if affordable:
        return max(pool, key=lambda c: (PRICES[c][2], rng.random()))
    return min(pool, key=lambda c: (PRICES[c][2], rng.random()))


def _tile_value(pos: _Position, tile: int, status: str, rng: random.Random) -> float:
    after = pos.copy()
    if status == GROWS:
        after.board.fill(tile, after.board.adjacent_chains(tile)[0])
    elif status == FOUNDS:
        choices = [c for c in range(NUM_CHAINS) if after.sizes[c] == 0]
        _found(after, tile, _founding_choice(after, choices, rng))
    elif status == MERGES:
        sizes = after.sizes
        chains = after.board.adjacent_chains(tile)
        largest = max(sizes[c] for c in chains)
        candidates = [c for c in chains if sizes[c] == largest]
        _, score = _best_survivor(after, tile, candidates, rng)
        return score
    else:  # a lone tile changes nothing now
        after.board.place(tile, LONE)
    return after.standing() + rng.random() * _TIE_NOISE


# ---------------------------------------------------------------------- decisions


def _play_tile(pos: _Position, view: dict[str, Any], legal: dict[str, Any], rng: random.Random) -> list[Any]:
    playable = set(legal["tiles"])
    statuses = {entry["tile"]: entry["status"] for entry in view.get("rack", []) if entry["tile"] in playable}
    best = max(sorted(playable), key=lambda t: _tile_value(pos, t, statuses.get(t, "lone"), rng))
    return [best]


def _select_new_chain(pos: _Position, legal: dict[str, Any], rng: random.Random) -> list[Any]:
    return [_founding_choice(pos, legal["chains"], rng)]


def _select_survivor(pos: _Position, view: dict[str, Any], legal: dict[str, Any], rng: random.Random) -> list[Any]:
    tile = view["pending"].get("tile")
    candidates = legal["chains"]
    if tile is None:  # no tile in the view: side with the chain it holds most of
        return [max(candidates, key=lambda c: (pos.shares[pos.me][c], PRICES[c][pos.sizes[c]], rng.random()))]
    survivor, _ = _best_survivor(pos, tile, candidates, rng)
    return [survivor]


def _select_disposal(pos: _Position, legal: dict[str, Any], rng: random.Random) -> list[Any]:
    # Order changes only who trades into the survivor first; go first where its stake is biggest.
    return [max(legal["chains"], key=lambda c: (pos.shares[pos.me][c], rng.random()))]


def _dispose(pos: _Position, legal: dict[str, Any], rng: random.Random) -> list[Any]:
    defunct, survivor = legal["chain"], legal["survivor"]
    held, max_trade, price = legal["shares"], legal["max_trade"], legal["price"]
    free_chains = sum(1 for c in range(NUM_CHAINS) if pos.sizes[c] == 0)
    # A kept share pays only if the chain is founded again, which needs time and free names.
    hope = _KEPT_SHARE_HOPE * price * pos.progress_left() * (1 if free_chains > 1 else 0.5)
    options = {(0, 0), (0, held), (max_trade, 0), (max_trade, held - max_trade)}
    half = max_trade // 4 * 2  # trade half of what it could, sell the rest
    options.add((half, held - half))
    best: tuple[float, tuple[int, int]] | None = None
    for trade, sell in sorted(options):
        after = pos.copy()
        after.shares[pos.me][defunct] -= trade + sell
        after.shares[pos.me][survivor] += trade // 2
        after.available[survivor] -= trade // 2
        after.cash[pos.me] += sell * price
        kept = held - trade - sell
        score = after.standing() + kept * hope + rng.random() * _TIE_NOISE
        if best is None or score > best[0]:
            best = (score, (trade, sell))
    assert best is not None
    return list(best[1])


def _chain_worth(holdings: Sequence[int], price: int) -> list[int]:
    """Each seat's shares of one chain at ``price`` plus the bonus it would be paid now."""
    worth = [count * price for count in holdings]
    for seat, amount in bonuses(holdings, price):
        worth[seat] += amount
    return worth


def _share_value(pos: _Position, scores: Sequence[int], chain: int) -> float:
    """What one more share of ``chain`` is worth beyond its price: majority gained plus growth.

    Only this chain's part of each net worth changes, so ``scores`` (the net worths now) are
    adjusted rather than recomputed; purchases are the bot's most frequent question.
    """
    price = pos.price(chain)
    holdings = [row[chain] for row in pos.shares]
    before = _chain_worth(holdings, price)
    holdings[pos.me] += 1
    after = _chain_worth(holdings, price)
    # Buying moves ``price`` from cash into the share, so net worth gains only the bonus change.
    changed = [s + a - b for s, a, b in zip(scores, after, before)]
    changed[pos.me] -= price
    gain = pos.standing_of(changed) - pos.standing_of(scores)
    size = pos.sizes[chain]
    if size < SAFE_SIZE:
        # Small chains grow and their shares with them; the earlier, the more of that is left.
        grown = PRICES[chain][min(size + _GROWTH_LOOKAHEAD, END_SIZE)] - PRICES[chain][size]
        gain += grown * pos.progress_left() * 2
    return gain


def _purchase(pos: _Position, legal: dict[str, Any], rng: random.Random) -> list[Any]:
    bought: list[int] = []
    cash = pos.cash[pos.me]
    reserve = _RESERVE_SHARE * pos.progress_left()
    work = pos.copy()
    for _ in range(min(legal.get("max", MAX_SHARES_PER_TURN), MAX_SHARES_PER_TURN)):
        best: tuple[float, int] | None = None
        scores = net_worths(work.sizes, work.cash, work.shares)
        for entry in legal["chains"]:
            chain = entry["chain"]
            price = work.price(chain)
            if work.available[chain] <= 0 or price <= 0 or price > cash:
                continue
            value = _share_value(work, scores, chain)
            # A share that wins nothing now must leave enough cash for the fights to come.
            if value <= price * 0.05 or (cash - price < reserve and value < price):
                continue
            score = value / price + rng.random() * 1e-6
            if best is None or score > best[0]:
                best = (score, chain)
        if best is None:
            break
        chain = best[1]
        price = work.price(chain)
        bought.append(chain)
        cash -= price
        work.cash[pos.me] -= price
        work.shares[pos.me][chain] += 1
        work.available[chain] -= 1
    # End the game when allowed and the bot (or its team) is ahead once these shares are bought.
    end = int(bool(legal.get("can_end")) and work.standing() > 0)
    return [sorted(bought), end]


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """The bot's action for the seat whose ``view`` and ``legal_actions`` these are."""
    if not legal:
        raise ValueError("the bot was asked to act without a legal action")
    action = legal[0]
    kind = action["type"]
    if kind == "StartGame":
        return kind, []
    pos = _Position.from_view(view)
    if kind == "PlayTile":
        return kind, _play_tile(pos, view, action, rng)
    if kind == "SelectNewChain":
        return kind, _select_new_chain(pos, action, rng)
    if kind == "SelectMergerSurvivor":
        return kind, _select_survivor(pos, view, action, rng)
    if kind == "SelectChainToDisposeOfNext":
        return kind, _select_disposal(pos, action, rng)
    if kind == "DisposeOfShares":
        return kind, _dispose(pos, action, rng)
    if kind == "PurchaseShares":
        return kind, _purchase(pos, action, rng)
    raise ValueError(f"the Acquire bot cannot answer {kind!r}")


__all__ = ["choose"]
