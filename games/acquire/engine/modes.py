"""The review format's mode numbers and the seating they mean."""

from __future__ import annotations

from games.core.engine import Mode

MODES: dict[int, Mode] = {n: Mode(n, f"Singles {n}", n) for n in range(1, 7)}
MODES[7] = Mode(7, "Teams 2 vs 2", 4, 2)
MODES[8] = Mode(8, "Teams 2 vs 2 vs 2", 6, 3)
MODES[9] = Mode(9, "Teams 3 vs 3", 6, 2)


def mode_for(mode: Mode | int) -> Mode:
    """Accept a ``Mode`` or a mode number and check the seating is one Acquire supports."""
    if isinstance(mode, Mode):
        if not 1 <= mode.seats <= 6:
            raise ValueError(f"Acquire seats 1 to 6 players, not {mode.seats}")
        if mode.teams and (mode.teams < 2 or mode.seats % mode.teams):
            raise ValueError(f"{mode.seats} seats cannot form {mode.teams} teams")
        return mode
    if isinstance(mode, int) and not isinstance(mode, bool) and mode in MODES:
        return MODES[mode]
    raise ValueError(f"unknown Acquire mode {mode!r}")
