"""One game of Acquire, implementing the platform's ``Engine`` contract.

The game is a small state machine. The pending decision (``self._phase``) is named after the
action type that answers it, and ``self._decider`` is the seat that must answer. Every step with
only one possible outcome is taken at once without an action, exactly where the reference engine
takes it, so that the reference's recorded action lists replay one for one.

Every handler validates its whole action before it touches any state, so a ``Rejection`` always
leaves the game exactly as it was without copying anything.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.acquire.engine.board import (
    DEAD,
    DEAD_TILE,
    FOUNDS,
    GROWS,
    LONE,
    MERGES,
    NUM_TILES,
    PLACES_LONE,
    PLAYABLE,
    SAFE_SIZE,
    UNPLAYABLE,
    Board,
    parse_tile,
    tile_name,
)
from games.acquire.engine.chains import (
    CHAIN_NAMES,
    END_SIZE,
    MAX_SHARES_PER_TURN,
    NUM_CHAINS,
    PRICES,
    SHARES_PER_CHAIN,
    STARTING_CASH,
    bonuses,
)
from games.acquire.engine.merger import Merger, holders_in_turn_order, size_groups
from games.acquire.engine.modes import mode_for
from games.acquire.engine.scoring import net_worths, ranks, team_totals
from games.core.engine import Event, Mode, Rejection

RACK_SIZE = 6

# Pending decisions, named after the action type that answers them.
START = "StartGame"
PLAY_TILE = "PlayTile"
NEW_CHAIN = "SelectNewChain"
SURVIVOR = "SelectMergerSurvivor"
DISPOSAL_ORDER = "SelectChainToDisposeOfNext"
DISPOSE = "DisposeOfShares"
PURCHASE = "PurchaseShares"
GAME_OVER = "GameOver"
ACTION_TYPES = (START, PLAY_TILE, NEW_CHAIN, SURVIVOR, DISPOSAL_ORDER, DISPOSE, PURCHASE, GAME_OVER)

# End reasons, named after the game history message that announces them.
ENDED_GAME = "EndedGame"
ALL_TILES_PLAYED = "AllTilesPlayed"
NO_TILES_PLAYED = "NoTilesPlayedForEntireRound"

_CELL_VIEW: tuple[Any, ...] = tuple(range(NUM_CHAINS)) + ("lone", "dead", None)


def _chain_param(params: Sequence[Any], action: str) -> int:
    if len(params) != 1 or type(params[0]) is not int:
        raise Rejection(f"{action} takes [chain]")
    chain = params[0]
    if not 0 <= chain < NUM_CHAINS:
        raise Rejection(f"{chain} is not a chain (0 to 6)")
    return chain


class AcquireGame:
    """The state of one Acquire game. Build it with ``create``, ``from_tile_bag`` or ``from_position``."""

    game_type: ClassVar[str] = "acquire"

    def __init__(
        self,
        mode: Mode | int,
        tile_bag: Sequence[int],
        *,
        host: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        self.mode = mode_for(mode)
        seats = self.mode.seats
        bag = list(tile_bag)
        if sorted(bag) != list(range(NUM_TILES)) or any(type(t) is not int for t in bag):
            raise ValueError("the tile bag must hold each of the 108 tiles (0..107) once")
        if not 0 <= host < seats:
            raise ValueError(f"host seat {host} is not one of the {seats} seats")
        self.seats = seats
        self.host = host
        self.rules: dict[str, Any] = dict(rules or {})  # Acquire has no options yet; kept as given
        self._bag = bag
        self._next = 0  # index in the bag of the next tile to draw
        self._board = Board()
        self._racks: list[list[int | None]] = [[None] * RACK_SIZE for _ in range(seats)]
        self._cash = [STARTING_CASH] * seats
        self._shares = [[0] * NUM_CHAINS for _ in range(seats)]
        self._available = [SHARES_PER_CHAIN] * NUM_CHAINS
        self._phase = START
        self._decider = host
        self._turn = host
        self._idle_turns = 0  # turns in a row whose player had no playable tile
        self._new_chain_tile = -1
        self._new_chain_choices: list[int] = []
        self._merger: Merger | None = None
        self._can_end = False
        self._cannot_afford = False
        self._end_reason: str | None = None
        self._log: list[tuple[int, str, list[Any]]] = []
        self._out: list[Event] = []
        self.opening_events: list[Event] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def create(cls, *, mode: Mode, seed: int, rules: dict[str, Any]) -> AcquireGame:
        """A new game whose tile bag is shuffled from ``seed`` alone.

        An imported game cannot be reshuffled from a seed, so the platform stores its bag (and
        its host's seat, when not 0) in ``rules``: ``rules["tile_bag"]`` is then used as is.
        """
        bag = rules.get("tile_bag") if rules else None
        if bag is None:
            bag = list(range(NUM_TILES))
            random.Random(seed).shuffle(bag)
        host = rules.get("host_seat", 0) if rules else 0
        return cls(mode, bag, host=host, rules=rules)

    @classmethod
    def from_tile_bag(cls, mode: Mode | int, tile_bag: Sequence[int], *, host: int = 0) -> AcquireGame:
        """A new game drawing tiles in exactly this order (for review replay and import)."""
        return cls(mode, tile_bag, host=host)

    @classmethod
    def from_position(
        cls,
        mode: Mode | int,
        *,
        board: Mapping[int | str, int | str],
        racks: Sequence[Sequence[int | str]],
        cash: Sequence[int] | None = None,
        shares: Sequence[Sequence[int]] | None = None,
        bag: Sequence[int | str] | None = None,
        turn: int = 0,
    ) -> AcquireGame:
        """A game already under way, at the start of ``turn``'s turn (for tests and puzzles).

        ``board`` maps tiles (numbers or names like ``"5C"``) to a chain number, a chain name,
        ``"lone"`` or ``"dead"``. ``bag`` is the draw order of the tiles still in the bag; by
        default every tile not on the board or in a rack, in tile order. Bank shares are what the
        players do not hold. Events of beginning the turn are kept in ``opening_events``.
        """

        def tile_of(value: int | str) -> int:
            return parse_tile(value) if isinstance(value, str) else int(value)

        def code_of(value: int | str) -> int:
            if isinstance(value, str):
                if value in CHAIN_NAMES:
                    return CHAIN_NAMES.index(value)
                return {"lone": LONE, "dead": DEAD}[value]
            if not 0 <= int(value) <= DEAD:
                raise ValueError(f"not a cell content: {value!r}")
            return int(value)

        placed = {tile_of(t): code_of(c) for t, c in board.items()}
        rack_tiles = [[tile_of(t) for t in rack] for rack in racks]
        used = set(placed) | {t for rack in rack_tiles for t in rack}
        rest = [tile_of(t) for t in bag] if bag is not None else [t for t in range(NUM_TILES) if t not in used]
        drawn = list(placed) + [t for rack in rack_tiles for t in rack]
        full = drawn + rest
        seen = set(full)
        # Padding to a permutation lets the constructor reject a tile given twice; a shorter
        # ``bag`` then just means fewer tiles left to draw.
        game = cls(mode, full + [t for t in range(NUM_TILES) if t not in seen])
        if len(rack_tiles) != game.seats:
            raise ValueError(f"need {game.seats} racks")
        game._bag = full
        game._next = len(drawn)
        for tile, code in placed.items():
            game._board.place(tile, code)
        for seat, rack in enumerate(rack_tiles):
            if len(rack) > RACK_SIZE:
                raise ValueError("a rack holds at most 6 tiles")
            game._racks[seat] = list(rack) + [None] * (RACK_SIZE - len(rack))
        if cash is not None:
            game._cash = list(cash)
        if shares is not None:
            game._shares = [list(row) for row in shares]
        game._available = [SHARES_PER_CHAIN - sum(row[c] for row in game._shares) for c in range(NUM_CHAINS)]
        game._out = []
        game._begin_turn(turn)
        game.opening_events = game._out
        game._out = []
        return game

    # ------------------------------------------------------------------ the Engine contract

    def initial_actions(self) -> list[tuple[int, str, list[Any]]]:
        return [(self.host, START, [])]

    def apply(self, seat: int, action_type: str, params: list[Any]) -> list[Event]:
        if self._phase == GAME_OVER:
            raise Rejection("the game is over; no more moves can be made")
        if action_type not in ACTION_TYPES:
            raise Rejection(f"unknown action type {action_type!r}")
        if seat != self._decider:
            raise Rejection(f"waiting for seat {self._decider} to {self._phase}, not seat {seat}")
        if action_type != self._phase:
            raise Rejection(f"expected {self._phase}, not {action_type}")
        if not isinstance(params, (list, tuple)):
            raise Rejection("params must be a list")
        out: list[Event] = []
        self._out = out
        self._HANDLERS[action_type](self, seat, params)
        if action_type == PURCHASE:
            logged = [list(params[0]), int(params[1])]
        else:
            logged = list(params)
        self._log.append((seat, action_type, logged))
        return out

    def to_act(self) -> list[int]:
        return [] if self._phase == GAME_OVER else [self._decider]

    @property
    def is_over(self) -> bool:
        return self._phase == GAME_OVER

    @property
    def decision(self) -> tuple[int, str]:
        """(seat, action type) the game waits for; ``GameOver`` once over (it is never accepted)."""
        return self._decider, self._phase

    @property
    def end_reason(self) -> str | None:
        return self._end_reason

    @property
    def tile_bag(self) -> list[int]:
        """The whole bag in draw order, position tiles first."""
        return self._bag[:]

    @property
    def action_log(self) -> list[tuple[int, str, list[Any]]]:
        """Every accepted action as (seat, type, params), in order."""
        return [(seat, kind, list(params)) for seat, kind, params in self._log]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self._phase == GAME_OVER or seat != self._decider:
            return []
        phase = self._phase
        if phase == START:
            return [{"type": START}]
        if phase == PLAY_TILE:
            statuses = self._rack_statuses(seat)
            tiles = sorted(t for t, s in statuses if s in PLAYABLE)
            return [
                {
                    "type": PLAY_TILE,
                    "tiles": tiles,
                    "status": {t: s for t, s in statuses if s in PLAYABLE},
                }
            ]
        if phase == NEW_CHAIN:
            return [{"type": NEW_CHAIN, "chains": self._new_chain_choices[:]}]
        merger = self._merger
        if phase == SURVIVOR:
            assert merger is not None
            return [{"type": SURVIVOR, "chains": merger.candidates[:]}]
        if phase == DISPOSAL_ORDER:
            assert merger is not None
            return [{"type": DISPOSAL_ORDER, "chains": merger.choosing[:]}]
        if phase == DISPOSE:
            assert merger is not None and merger.disposing is not None and merger.survivor is not None
            held = self._shares[seat][merger.disposing]
            max_trade = min(held // 2, self._available[merger.survivor]) * 2
            return [
                {
                    "type": DISPOSE,
                    "chain": merger.disposing,
                    "survivor": merger.survivor,
                    "shares": held,
                    "max_trade": max_trade,
                    "price": merger.prices[merger.disposing],
                }
            ]
        # PURCHASE
        cash = self._cash[seat]
        sizes = self._board.sizes
        chains = []
        affordable: dict[int, int] = {}
        for chain in range(NUM_CHAINS):
            size = sizes[chain]
            if size:
                price = PRICES[chain][size]
                available = self._available[chain]
                chains.append({"chain": chain, "price": price, "available": available})
                most = min(available, cash // price, MAX_SHARES_PER_TURN)
                if most > 0:
                    affordable[chain] = most
        return [
            {
                "type": PURCHASE,
                "max": MAX_SHARES_PER_TURN,
                "cash": cash,
                "chains": chains,
                "affordable": affordable,
                "can_end": self._can_end,
            }
        ]

    def auto_action(self, seat: int) -> tuple[str, list[Any]]:
        if self._phase == GAME_OVER or seat != self._decider:
            raise Rejection(f"seat {seat} has no decision to make")
        phase = self._phase
        if phase == START:
            return START, []
        if phase == PLAY_TILE:
            # Prefer a tile that needs no merger decisions; any playable tile otherwise.
            statuses = self._rack_statuses(seat)
            quiet = sorted(t for t, s in statuses if s in PLAYABLE and s != MERGES)
            loud = sorted(t for t, s in statuses if s == MERGES)
            return PLAY_TILE, [(quiet or loud)[0]]
        if phase == NEW_CHAIN:
            return NEW_CHAIN, [max(self._new_chain_choices)]  # the priciest chain on offer
        if phase == DISPOSE:
            return DISPOSE, [0, 0]  # keeping is always legal and loses nothing
        merger = self._merger
        if phase == SURVIVOR and merger is not None:
            return SURVIVOR, [max(merger.candidates)]
        if phase == DISPOSAL_ORDER and merger is not None:
            return DISPOSAL_ORDER, [merger.choosing[0]]
        # PURCHASE: buy nothing; end the game only if that wins it for the seat (or its team).
        end = 0
        if self._can_end:
            scores = net_worths(self._board.sizes, self._cash, self._shares)
            teams = self.mode.teams
            if teams:
                totals = team_totals(scores, teams)
                mine = totals[seat % teams]
                others = [v for t, v in enumerate(totals) if t != seat % teams]
            else:
                mine = scores[seat]
                others = [v for s, v in enumerate(scores) if s != seat]
            end = int(all(mine > v for v in others))
        return PURCHASE, [[], end]

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        board = self._board
        sizes = board.sizes
        teams = self.mode.teams
        snapshot: dict[str, Any] = {
            "game_type": self.game_type,
            "mode": self.mode.id,
            "seats": self.seats,
            "teams": teams,
            "board": [_CELL_VIEW[c] for c in board.cells],
            "chains": [
                {
                    "chain": c,
                    "name": CHAIN_NAMES[c],
                    "size": sizes[c],
                    "price": PRICES[c][sizes[c]],
                    "available": self._available[c],
                    "safe": sizes[c] >= SAFE_SIZE,
                }
                for c in range(NUM_CHAINS)
            ],
            "players": [
                {
                    "seat": s,
                    "team": s % teams if teams else None,
                    "cash": self._cash[s],
                    "shares": self._shares[s][:],
                    "rack_size": sum(1 for t in self._racks[s] if t is not None),
                }
                for s in range(self.seats)
            ],
            "turn": self._turn,
            "pending": self._pending_view(),
            "tiles_in_bag": len(self._bag) - self._next,
            "is_over": self.is_over,
            "end_reason": self._end_reason,
        }
        if isinstance(viewer, int) and 0 <= viewer < self.seats:
            snapshot["rack"] = self._rack_view(viewer)
        if reveal_all:
            snapshot["racks"] = [self._rack_view(s) for s in range(self.seats)]
            snapshot["tile_bag"] = self._bag[self._next :]
            snapshot["state"] = {
                "next_tile_index": self._next,
                "idle_turns": self._idle_turns,
                "rack_slots": [rack[:] for rack in self._racks],
                "merger": self._merger.describe() if self._merger else None,
                "can_end": self._can_end,
                "cannot_afford": self._cannot_afford,
                "actions": len(self._log),
            }
        return snapshot

    def result(self) -> dict[str, Any]:
        """Scores (cash + shares at final prices + bonuses still owed), ranks and team totals.

        Before the end this is the standing if the game ended now (``is_over`` says which).
        """
        scores = net_worths(self._board.sizes, self._cash, self._shares)
        player_ranks = ranks(scores)
        teams = self.mode.teams
        outcome: dict[str, Any] = {
            "is_over": self.is_over,
            "end_reason": self._end_reason,
            "scores": scores,
            "cash": self._cash[:],
            "players": [
                {
                    "seat": s,
                    "score": scores[s],
                    "cash": self._cash[s],
                    "rank": player_ranks[s],
                    "team": s % teams if teams else None,
                }
                for s in range(self.seats)
            ],
        }
        if teams:
            totals = team_totals(scores, teams)
            team_ranks = ranks(totals)
            outcome["teams"] = [
                {
                    "team": t,
                    "seats": [s for s in range(self.seats) if s % teams == t],
                    "score": totals[t],
                    "rank": team_ranks[t],
                }
                for t in range(teams)
            ]
        return outcome

    # ------------------------------------------------------------------ views

    def _rack_statuses(self, seat: int) -> list[tuple[int, str]]:
        classify = self._board.classify
        return [(t, classify(t)) for t in self._racks[seat] if t is not None]

    def _rack_view(self, seat: int) -> list[dict[str, Any]]:
        return [
            {"tile": t, "name": tile_name(t), "status": s, "playable": s in PLAYABLE}
            for t, s in self._rack_statuses(seat)
        ]

    def _pending_view(self) -> dict[str, Any]:
        pending: dict[str, Any] = {"type": self._phase, "seat": self._decider}
        merger = self._merger
        if self._phase == NEW_CHAIN:
            pending.update(tile=self._new_chain_tile, chains=self._new_chain_choices[:])
        elif self._phase == SURVIVOR and merger:
            pending.update(tile=merger.tile, merging=merger.chains[:], chains=merger.candidates[:])
        elif self._phase == DISPOSAL_ORDER and merger:
            pending.update(chains=merger.choosing[:], survivor=merger.survivor)
        elif self._phase == DISPOSE and merger and merger.disposing is not None:
            pending.update(
                chain=merger.disposing,
                survivor=merger.survivor,
                shares=self._shares[self._decider][merger.disposing],
                price=merger.prices[merger.disposing],
            )
        elif self._phase == PURCHASE:
            pending.update(can_end=self._can_end)
        return pending

    # ------------------------------------------------------------------ events and tiles

    def _emit(self, kind: str, player: int | None, params: list[Any] | None = None) -> None:
        self._out.append(Event(kind, player, params if params is not None else []))

    def _draw(self, seat: int) -> None:
        """Fill the rack's empty slots, in slot order, while the bag lasts."""
        rack = self._racks[seat]
        bag = self._bag
        out = self._out
        only_drawer = frozenset((seat,))
        for slot in range(RACK_SIZE):
            if rack[slot] is not None:
                continue
            if self._next >= len(bag):
                return
            tile = bag[self._next]
            self._next += 1
            rack[slot] = tile
            out.append(Event("DrewTile", seat, [tile], only_drawer, [None]))
            if self._next == len(bag):
                self._emit("DrewLastTile", seat)

    def _replace_dead_tiles(self, seat: int) -> None:
        """Put dead tiles on the board one at a time, drawing a replacement after each.

        A replacement can itself be dead, so the rack is searched again from the start after
        every draw, as the reference does.
        """
        rack = self._racks[seat]
        board = self._board
        replaced = True
        while replaced:
            replaced = False
            for slot in range(RACK_SIZE):
                tile = rack[slot]
                if tile is not None and board.classify(tile) == DEAD_TILE:
                    rack[slot] = None
                    board.place(tile, DEAD)
                    self._emit("ReplacedDeadTile", seat, [tile])
                    self._draw(seat)
                    replaced = True
                    break

    # ------------------------------------------------------------------ turn flow

    def _begin_turn(self, seat: int) -> None:
        self._turn = seat
        self._emit("TurnBegan", seat)
        classify = self._board.classify
        if any(t is not None and classify(t) in PLAYABLE for t in self._racks[seat]):
            self._idle_turns = 0
            self._phase = PLAY_TILE
            self._decider = seat
        else:
            self._idle_turns += 1
            self._emit("HasNoPlayableTile", seat)
            self._enter_purchase()

    def _enter_purchase(self) -> None:
        """Offer the purchase, or skip it when it could only be 'buy nothing, do not end'."""
        seat = self._turn
        cash = self._cash[seat]
        sizes = self._board.sizes
        any_chain = any_small = any_huge = any_available = any_affordable = False
        for chain in range(NUM_CHAINS):
            size = sizes[chain]
            if not size:
                continue
            any_chain = True
            if size < SAFE_SIZE:
                any_small = True
            if size >= END_SIZE:
                any_huge = True
            if self._available[chain] > 0:
                any_available = True
                if PRICES[chain][size] <= cash:
                    any_affordable = True
        self._cannot_afford = any_available and not any_affordable
        self._can_end = any_chain and (not any_small or any_huge)
        self._merger = None
        if not any_affordable and not self._can_end:
            if self._cannot_afford:
                self._emit("CouldNotAffordAnyShares", seat)
            self._complete_turn(False)
        else:
            self._phase = PURCHASE
            self._decider = seat

    def _complete_turn(self, end_game: bool) -> None:
        seat = self._turn
        board = self._board
        if end_game:
            self._emit(ENDED_GAME, seat)
            self._finish(ENDED_GAME)
        elif board.empty == 0:
            self._emit(ALL_TILES_PLAYED, None)
            self._finish(ALL_TILES_PLAYED)
        elif self._idle_turns >= self.seats:
            self._emit(NO_TILES_PLAYED, None)
            self._finish(NO_TILES_PLAYED)
        else:
            self._draw(seat)
            self._replace_dead_tiles(seat)
            if board.empty == 0:
                self._emit(ALL_TILES_PLAYED, None)
                self._finish(ALL_TILES_PLAYED)
            else:
                self._begin_turn((seat + 1) % self.seats)

    def _finish(self, reason: str) -> None:
        # The reference leaves a GameOver decision with the last player, which accepts nothing.
        self._phase = GAME_OVER
        self._decider = self._turn
        self._end_reason = reason
        self._can_end = False
        self._cannot_afford = False

    # ------------------------------------------------------------------ action handlers

    def _start_game(self, seat: int, params: Sequence[Any]) -> None:
        if params:
            raise Rejection("StartGame takes no parameters")
        seats = self.seats
        position_tiles = self._bag[:seats]
        # Each position tile is credited to the seat its rank gives (lowest tile: seat 0); the
        # seating itself was settled by the setup, as in the reference.
        by_tile = sorted(range(seats), key=lambda i: position_tiles[i])
        credited = [0] * seats
        for rank, index in enumerate(by_tile):
            credited[index] = rank
        for index, tile in enumerate(position_tiles):
            self._board.place(tile, LONE)
            self._emit("DrewPositionTile", credited[index], [tile])
        self._next = seats
        self._emit("StartedGame", seat)
        for player in range(seats):
            self._draw(player)
        self._begin_turn(0)

    def _play_tile(self, seat: int, params: Sequence[Any]) -> None:
        if len(params) != 1 or type(params[0]) is not int:
            raise Rejection("PlayTile takes [tile]")
        tile = params[0]
        if not 0 <= tile < NUM_TILES:
            raise Rejection(f"{tile} is not a tile (0 to 107)")
        rack = self._racks[seat]
        if tile not in rack:
            raise Rejection(f"tile {tile_name(tile)} is not in your rack")
        board = self._board
        status = board.classify(tile)
        if status == UNPLAYABLE:
            raise Rejection(f"tile {tile_name(tile)} would found an eighth chain")
        if status == DEAD_TILE:
            raise Rejection(f"tile {tile_name(tile)} would merge two safe chains")

        rack[rack.index(tile)] = None
        if status == PLACES_LONE:
            board.place(tile, LONE)
            self._emit("PlayedTile", seat, [tile])
            self._enter_purchase()
        elif status == GROWS:
            board.fill(tile, board.adjacent_chains(tile)[0])
            self._emit("PlayedTile", seat, [tile])
            self._enter_purchase()
        elif status == FOUNDS:
            choices = [c for c in range(NUM_CHAINS) if board.sizes[c] == 0]
            self._emit("PlayedTile", seat, [tile])
            if len(choices) == 1:
                self._found(seat, tile, choices[0])
            else:
                board.place(tile, LONE)
                self._new_chain_tile = tile
                self._new_chain_choices = choices
                self._phase = NEW_CHAIN
        else:  # MERGES
            sizes = board.sizes
            chains = board.adjacent_chains(tile)
            merger = Merger(
                maker=seat,
                tile=tile,
                chains=chains,
                groups=size_groups(chains, sizes),
                prices={c: PRICES[c][sizes[c]] for c in chains},
            )
            self._merger = merger
            self._emit("PlayedTile", seat, [tile])
            self._emit("MergedChains", seat, chains[:])
            if len(merger.candidates) == 1:
                self._complete_merger(merger.candidates[0])
            else:
                board.place(tile, LONE)
                self._phase = SURVIVOR

    def _select_new_chain(self, seat: int, params: Sequence[Any]) -> None:
        chain = _chain_param(params, NEW_CHAIN)
        if chain not in self._new_chain_choices:
            raise Rejection(f"{CHAIN_NAMES[chain]} is already on the board")
        tile = self._new_chain_tile
        self._new_chain_tile = -1
        self._new_chain_choices = []
        self._found(seat, tile, chain)

    def _found(self, seat: int, tile: int, chain: int) -> None:
        self._board.fill(tile, chain)
        if self._available[chain] > 0:  # the founder's free share, while the bank has one
            self._available[chain] -= 1
            self._shares[seat][chain] += 1
        self._emit("FormedChain", seat, [chain])
        self._enter_purchase()

    def _select_survivor(self, seat: int, params: Sequence[Any]) -> None:
        chain = _chain_param(params, SURVIVOR)
        merger = self._merger
        assert merger is not None
        if chain not in merger.candidates:
            raise Rejection(f"{CHAIN_NAMES[chain]} is not one of the largest merging chains")
        self._emit("SelectedMergerSurvivor", seat, [chain])
        self._complete_merger(chain)

    def _complete_merger(self, survivor: int) -> None:
        merger = self._merger
        assert merger is not None
        merger.survivor = survivor
        self._board.fill(merger.tile, survivor)
        # Every defunct chain's bonuses are paid at once, at its pre-merger price, before anyone
        # disposes of a share.
        shares = self._shares
        cash = self._cash
        paid = [0] * self.seats
        for chain in merger.chains:
            if chain == survivor:
                continue
            holdings = [row[chain] for row in shares]
            for player, amount in bonuses(holdings, merger.prices[chain]):
                paid[player] += amount
                self._emit("ReceivedBonus", player, [chain, amount])
        for player, amount in enumerate(paid):
            cash[player] += amount
        merger.pending_groups = [[c for c in group if c != survivor] for group in merger.groups]
        merger.pending_groups = [group for group in merger.pending_groups if group]
        self._advance_merger()

    def _start_disposal(self, chain: int) -> None:
        merger = self._merger
        assert merger is not None
        merger.disposing = chain
        merger.holders = holders_in_turn_order(merger.maker, [row[chain] for row in self._shares])

    def _advance_merger(self) -> None:
        """Move to the next decision of the merger, taking every forced step on the way."""
        merger = self._merger
        assert merger is not None
        while True:
            if merger.holders:
                self._phase = DISPOSE
                self._decider = merger.holders[0]
                return
            if merger.choosing:
                if len(merger.choosing) == 1:
                    self._start_disposal(merger.choosing.pop())
                    continue
                self._phase = DISPOSAL_ORDER
                self._decider = merger.maker
                return
            if merger.pending_groups:
                merger.choosing = merger.pending_groups.pop(0)
                continue
            merger.disposing = None
            self._enter_purchase()
            return

    def _select_disposal(self, seat: int, params: Sequence[Any]) -> None:
        chain = _chain_param(params, DISPOSAL_ORDER)
        merger = self._merger
        assert merger is not None
        if chain not in merger.choosing:
            raise Rejection(f"{CHAIN_NAMES[chain]} is not a defunct chain to choose now")
        self._emit("SelectedChainToDisposeOfNext", seat, [chain])
        merger.choosing.remove(chain)
        self._start_disposal(chain)
        self._advance_merger()

    def _dispose(self, seat: int, params: Sequence[Any]) -> None:
        if len(params) != 2 or type(params[0]) is not int or type(params[1]) is not int:
            raise Rejection("DisposeOfShares takes [trade_amount, sell_amount]")
        trade, sell = params
        merger = self._merger
        assert merger is not None and merger.disposing is not None and merger.survivor is not None
        defunct = merger.disposing
        survivor = merger.survivor
        if trade < 0 or sell < 0:
            raise Rejection("trade and sell amounts cannot be negative")
        if trade % 2:
            raise Rejection("shares are traded two for one, so the trade amount must be even")
        if trade // 2 > self._available[survivor]:
            raise Rejection(f"the bank has only {self._available[survivor]} {CHAIN_NAMES[survivor]} shares")
        held = self._shares[seat][defunct]
        if trade + sell > held:
            raise Rejection(f"you hold only {held} {CHAIN_NAMES[defunct]} shares")
        row = self._shares[seat]
        row[defunct] -= trade + sell
        self._available[defunct] += trade + sell
        row[survivor] += trade // 2
        self._available[survivor] -= trade // 2
        self._cash[seat] += sell * merger.prices[defunct]
        self._emit("DisposedOfShares", seat, [defunct, trade, sell])
        merger.holders.pop(0)
        self._advance_merger()

    def _purchase(self, seat: int, params: Sequence[Any]) -> None:
        if len(params) != 2 or not isinstance(params[0], (list, tuple)):
            raise Rejection("PurchaseShares takes [[chain, ...], end_game]")
        wanted, end_game = params
        if end_game not in (0, 1) or type(end_game) not in (int, bool):
            raise Rejection("end_game must be 0 or 1")
        if len(wanted) > MAX_SHARES_PER_TURN:
            raise Rejection(f"at most {MAX_SHARES_PER_TURN} shares may be bought in a turn")
        counts = [0] * NUM_CHAINS
        for chain in wanted:
            if type(chain) is not int or not 0 <= chain < NUM_CHAINS:
                raise Rejection(f"{chain!r} is not a chain (0 to 6)")
            counts[chain] += 1
        sizes = self._board.sizes
        cost = 0
        for chain in range(NUM_CHAINS):
            count = counts[chain]
            if not count:
                continue
            if not sizes[chain]:
                raise Rejection(f"{CHAIN_NAMES[chain]} is not on the board")
            if count > self._available[chain]:
                raise Rejection(f"the bank has only {self._available[chain]} {CHAIN_NAMES[chain]} shares")
            cost += count * PRICES[chain][sizes[chain]]
        if cost > self._cash[seat]:
            raise Rejection(f"those shares cost ${cost}; you have ${self._cash[seat]}")
        bought = [[chain, counts[chain]] for chain in range(NUM_CHAINS) if counts[chain]]
        row = self._shares[seat]
        for chain, count in bought:
            row[chain] += count
            self._available[chain] -= count
        self._cash[seat] -= cost
        if self._cannot_afford:
            self._emit("CouldNotAffordAnyShares", seat)
        else:
            self._emit("PurchasedShares", seat, bought)
        # Asking to end when the game may not end yet is ignored, not refused, as the reference does.
        self._complete_turn(bool(end_game) and self._can_end)

    _HANDLERS: ClassVar[dict[str, Any]] = {
        START: _start_game,
        PLAY_TILE: _play_tile,
        NEW_CHAIN: _select_new_chain,
        SURVIVOR: _select_survivor,
        DISPOSAL_ORDER: _select_disposal,
        DISPOSE: _dispose,
        PURCHASE: _purchase,
    }


__all__ = ["ACTION_TYPES", "AcquireGame"]
