"""The rating model, pure: which sides a finished game had and how they placed, and the OpenSkill
update of those sides' ratings (docs/ratings.md). No Django here: the service
(``games.service.ratings``) reads and writes the stored ratings and calls these functions, both when a
game ends and when ``manage.py ratings rebuild`` replays every rated game.

OpenSkill's Plackett-Luce model (Weng and Lin) with the library's defaults: a new player has
mu 25 and sigma 25/3; its ranks accept any number of sides of any size and equal ranks as ties.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

# The game types that are rated. Riichi is rated four-player only: its ranks mean something else
# with three, and a rating shared by both would compare unlike games.
RATED_GAME_TYPES = ("acquire", "riichi", "cribbage")
RIICHI_SEATS = 4

# Below this many rated games a rating is shown as provisional: sigma is still large, so one game
# moves it far.
PROVISIONAL_GAMES = 10

_DEFAULTS = PlackettLuce()
MU: float = _DEFAULTS.mu
SIGMA: float = _DEFAULTS.sigma


@dataclass(frozen=True)
class Side:
    """The seats that placed together (a player, or a team of partners) and their place: 1 is
    first, and sides that tied share a place (competition ranking, 1 2 2 4)."""

    positions: tuple[int, ...]
    rank: int


def ratable(game_type: str, seats: int) -> bool:
    """Is a game of this type with this many seats rated at all (before its result is looked at)?"""
    if game_type not in RATED_GAME_TYPES:
        return False
    if game_type == "riichi" and seats != RIICHI_SEATS:
        return False
    return seats >= 2


def standings(result: Mapping[str, Any] | None, forfeited: Collection[int] = ()) -> list[Side]:
    """The sides of a finished game and their places, from its engine's result: the teams' ranks
    when the game has teams (Acquire's and cribbage's partnerships rank as one), else each
    player's. A side with a player who forfeited places below every side without one (tied with
    the other such sides): leaving is losing, whatever the server's play for the seat then scored.
    Empty if the result names no ranks, or fewer than two sides: nothing to rate."""
    if not result:
        return []
    if result.get("teams"):
        groups = [(tuple(team["seats"]), team.get("rank")) for team in result["teams"]]
    else:
        groups = [((player["seat"],), player.get("rank")) for player in result.get("players", [])]
    if len(groups) < 2 or any(rank is None or not positions for positions, rank in groups):
        return []
    left = set(forfeited)
    # Forfeiting sides share one key below everyone else's; the others keep the engine's order.
    keys = [(1, 0) if left.intersection(positions) else (0, rank) for positions, rank in groups]
    return [Side(positions, 1 + sum(other < key for other in keys)) for (positions, _), key in zip(groups, keys)]


def rate(teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """The sides' (mu, sigma) after a game they placed in at ``ranks`` (lower is better, equal is a
    tie), in the same shape as ``teams``."""
    model = PlackettLuce()  # one per call: the model object keeps options that ``rate`` may set
    rated = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
                       ranks=[float(rank) for rank in ranks])
    return [[(player.mu, player.sigma) for player in team] for team in rated]


def conservative(mu: float, sigma: float) -> float:
    """The value shown and ranked by: mu - 3 sigma, a skill the player very probably has at least.
    0 for a new player (25 - 3 x 25/3); it rises as games make sigma smaller."""
    return mu - 3 * sigma


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES
