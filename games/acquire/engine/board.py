"""The 12 x 9 board: tile numbering and names, neighbours, cells and what a tile would do.

Tiles are numbered column-major, as the seed's review format does: tile = (column - 1) * 9 + row
with rows A..I as 0..8, so 0 is 1A, 8 is 1I, 9 is 2A and 107 is 12I.
"""

from __future__ import annotations

COLUMNS = 12
ROWS = 9
NUM_TILES = COLUMNS * ROWS
ROW_LETTERS = "ABCDEFGHI"

# Cell codes. Chains are 0..6 so that ``code < LONE`` means "belongs to a chain".
LONE = 7  # a tile on the board that belongs to no chain
DEAD = 8  # a dead tile put on the board when it was replaced; joins nothing, ever
EMPTY = 9

# What playing a rack tile would do right now.
PLACES_LONE = "lone"
GROWS = "grows"
FOUNDS = "founds"
MERGES = "merges"
UNPLAYABLE = "unplayable"  # would found an 8th chain; may become playable later
DEAD_TILE = "dead"  # touches two or more safe chains; can never be played
PLAYABLE = frozenset({PLACES_LONE, GROWS, FOUNDS, MERGES})

SAFE_SIZE = 11


def tile_name(tile: int) -> str:
    """``0`` -> ``"1A"``, ``107`` -> ``"12I"``."""
    return f"{tile // ROWS + 1}{ROW_LETTERS[tile % ROWS]}"


def parse_tile(name: str) -> int:
    """``"1A"`` -> ``0``; raises ``ValueError`` for anything that is not a board cell."""
    text = name.strip().upper()
    if len(text) < 2 or text[-1] not in ROW_LETTERS or not text[:-1].isdigit():
        raise ValueError(f"not a tile name: {name!r}")
    column = int(text[:-1])
    if not 1 <= column <= COLUMNS:
        raise ValueError(f"not a tile name: {name!r}")
    return (column - 1) * ROWS + ROW_LETTERS.index(text[-1])


def _neighbours(tile: int) -> tuple[int, ...]:
    column, row = divmod(tile, ROWS)
    found = []
    if column > 0:
        found.append(tile - ROWS)
    if row > 0:
        found.append(tile - 1)
    if row < ROWS - 1:
        found.append(tile + 1)
    if column < COLUMNS - 1:
        found.append(tile + ROWS)
    return tuple(found)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(t) for t in range(NUM_TILES))


class Board:
    """Cell contents plus the running counts the rules keep asking for (chain sizes, empties)."""

    __slots__ = ("cells", "sizes", "empty")

    def __init__(self) -> None:
        self.cells: list[int] = [EMPTY] * NUM_TILES
        self.sizes: list[int] = [0] * 7
        self.empty: int = NUM_TILES

    def adjacent_chains(self, tile: int) -> list[int]:
        """The distinct chains touching ``tile``, in chain order."""
        cells = self.cells
        return sorted({cells[n] for n in NEIGHBOURS[tile] if cells[n] < LONE})

    def classify(self, tile: int) -> str:
        """What playing ``tile`` (not yet on the board) would do."""
        cells = self.cells
        first = -1
        several = False
        lone = False
        for n in NEIGHBOURS[tile]:
            code = cells[n]
            if code < LONE:
                if first < 0:
                    first = code
                elif code != first:
                    several = True
            elif code == LONE:
                lone = True
        if first < 0:
            if not lone:
                return PLACES_LONE
            # Founding needs a chain that is not on the board; otherwise it waits in the rack.
            return FOUNDS if 0 in self.sizes else UNPLAYABLE
        if not several:
            return GROWS
        sizes = self.sizes
        safe = 0
        for chain in self.adjacent_chains(tile):
            if sizes[chain] >= SAFE_SIZE:
                safe += 1
        return DEAD_TILE if safe >= 2 else MERGES

    def place(self, tile: int, code: int) -> None:
        """Set one cell, keeping the counts right."""
        old = self.cells[tile]
        if old == code:
            return
        if old < LONE:
            self.sizes[old] -= 1
        elif old == EMPTY:
            self.empty -= 1
        if code < LONE:
            self.sizes[code] += 1
        elif code == EMPTY:
            self.empty += 1
        self.cells[tile] = code

    def fill(self, tile: int, chain: int) -> None:
        """Put ``tile`` down as part of ``chain`` and absorb everything connected to it.

        Lone tiles and other (defunct) chains joined through ``tile`` all become ``chain``; dead
        tiles never join anything.
        """
        cells = self.cells
        sizes = self.sizes
        pending = [tile]
        self.place(tile, chain)
        while pending:
            current = pending.pop()
            for n in NEIGHBOURS[current]:
                code = cells[n]
                if code <= LONE and code != chain:
                    if code < LONE:
                        sizes[code] -= 1
                    sizes[chain] += 1
                    cells[n] = chain
                    pending.append(n)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.cells = self.cells[:]
        other.sizes = self.sizes[:]
        other.empty = self.empty
        return other
