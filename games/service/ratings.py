"""Ratings (docs/ratings.md): changed in the transaction that ends a rated game (``settle``, called by
``moves``), replayed from every rated game by ``manage.py ratings rebuild`` to the same floats, and
read for the API and the pages. The rating math and which sides placed where are
``games.core.ratings``; this module only reads and writes what it computes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q, QuerySet, Subquery
from django.utils import timezone

from games.core import ratings as model
from games.core.errors import GameError, NotFound
from games.models import Game, Rating, RatingChange, Seat, Status

# The leaderboard lists players who finished a rated game of its type this recently.
ACTIVE_DAYS = 90
LEADERBOARD_LIMIT = 100
MAX_LEADERBOARD_LIMIT = 500
# A rating history is the player's last this many rated games of a type: a page or request costs the
# same however long the player has played.
HISTORY_LIMIT = 200
PLAYER_KINDS = ("people", "bots", "all")


@dataclass(frozen=True)
class Line:
    """One player's change from one game."""

    user_id: int
    position: int
    rank: int
    before: tuple[float, float]
    after: tuple[float, float]


def changes(game: Game, seats: Sequence[Seat], current: Mapping[int, tuple[float, float]]) -> list[Line]:
    """What ``game`` does to its players' ratings, given each one's (mu, sigma) before it
    (``current``, by user id; a player missing from it is new). Empty if the game changes nothing:
    casual, not finished (an aborted game), of a type or size that is not rated, or without ranks."""
    seated = {s.position: s for s in seats if s.position is not None}
    if not game.rated or game.status != Status.FINISHED or not model.ratable(game.game_type, len(seated)):
        return []
    sides = model.standings(game.result, {p for p, s in seated.items() if s.forfeited})
    if not sides or sorted(p for side in sides for p in side.positions) != sorted(seated):
        return []
    teams = [[current.get(seated[p].user_id, (model.MU, model.SIGMA)) for p in side.positions] for side in sides]
    after = model.rate(teams, [side.rank for side in sides])
    lines = [Line(seated[p].user_id, p, side.rank, before, now)
             for side, team, rated in zip(sides, teams, after)
             for p, before, now in zip(side.positions, team, rated)]
    return sorted(lines, key=lambda line: line.position)


def settle(game: Game, seats: Sequence[Seat]) -> list[Line]:
    """A game is ending (``status`` and ``result`` set, in the transaction that ends it): set its end
    time and, if it is rated, change its players' ratings and store what changed.

    The players' rows are locked before the end time is taken, so two games sharing a player end
    (by ``ended``) in the order their changes were made, which is the order ``rebuild`` replays."""
    user_ids = sorted({s.user_id for s in seats if s.position is not None})
    rated = game.rated and model.ratable(game.game_type, len(user_ids))
    if rated:
        list(get_user_model().objects.select_for_update().filter(id__in=user_ids).order_by("id").values_list("id"))
    game.ended = timezone.now()
    if not rated:
        return []
    stored = {r.user_id: r for r in Rating.objects.filter(game_type=game.game_type, user_id__in=user_ids)}
    lines = changes(game, seats, {user_id: (r.mu, r.sigma) for user_id, r in stored.items()})
    if not lines:
        return []
    RatingChange.objects.bulk_create(_change_rows(game, lines))
    fresh, kept = [], []
    for line in lines:
        rating = stored.get(line.user_id)
        if rating is None:
            fresh.append(Rating(user_id=line.user_id, game_type=game.game_type, mu=line.after[0], sigma=line.after[1],
                                games=1, last_played=game.ended))
        else:
            rating.mu, rating.sigma = line.after
            rating.games += 1
            rating.last_played = game.ended
            kept.append(rating)
    Rating.objects.bulk_create(fresh)
    Rating.objects.bulk_update(kept, ["mu", "sigma", "games", "last_played"])
    return lines


def _change_rows(game: Game, lines: Iterable[Line]) -> list[RatingChange]:
    return [RatingChange(game=game, user_id=line.user_id, game_type=game.game_type, position=line.position,
                         rank=line.rank, mu_before=line.before[0], sigma_before=line.before[1],
                         mu_after=line.after[0], sigma_after=line.after[1]) for line in lines]


# --- rebuild ---------------------------------------------------------------------------------------


def rated_games() -> QuerySet[Game]:
    """Every game that may change ratings, in the order they changed them: by end time, then id."""
    return (Game.objects.filter(rated=True, status=Status.FINISHED, game_type__in=model.RATED_GAME_TYPES)
            .order_by("ended", "id"))


def replay() -> tuple[list[RatingChange], list[Rating]]:
    """Every rated game replayed in order from new ratings: the changes and the ratings they leave
    (unsaved rows)."""
    current: dict[tuple[int, str], Rating] = {}
    rows: list[RatingChange] = []
    games = rated_games()
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game__in=games, position__isnull=False).order_by("game_id", "position"):
        seats.setdefault(seat.game_id, []).append(seat)
    for game in games.iterator():
        mine = seats.get(game.id, [])
        before = {s.user_id: (r.mu, r.sigma) for s in mine if (r := current.get((s.user_id, game.game_type)))}
        lines = changes(game, mine, before)
        rows += _change_rows(game, lines)
        for line in lines:
            rating = current.setdefault((line.user_id, game.game_type),
                                        Rating(user_id=line.user_id, game_type=game.game_type, games=0))
            rating.mu, rating.sigma = line.after
            rating.games += 1
            rating.last_played = game.ended
    return rows, list(current.values())


def _change_key(row: RatingChange) -> tuple[Any, ...]:
    return (row.game_id, row.user_id, row.game_type, row.position, row.rank,
            row.mu_before, row.sigma_before, row.mu_after, row.sigma_after)


def _rating_key(row: Rating) -> tuple[Any, ...]:
    return (row.user_id, row.game_type, row.mu, row.sigma, row.games, row.last_played)


def verify() -> list[str]:
    """The stored ratings and changes that differ from a replay of the rated games (exactly: the
    floats too). Empty when they all agree."""
    rows, ratings = replay()
    problems = []
    for kind, replayed, stored in (
            ("change", {_change_key(r) for r in rows}, {_change_key(r) for r in RatingChange.objects.all()}),
            ("rating", {_rating_key(r) for r in ratings}, {_rating_key(r) for r in Rating.objects.all()})):
        problems += [f"{kind} stored, not replayed: {key}" for key in sorted(stored - replayed, key=str)]
        problems += [f"{kind} replayed, not stored: {key}" for key in sorted(replayed - stored, key=str)]
    return problems


def rebuild() -> int:
    """Replace every stored rating and change with a replay of the rated games. The number of
    games that changed ratings."""
    with transaction.atomic():
        rows, ratings = replay()
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        RatingChange.objects.bulk_create(rows, batch_size=500)
        Rating.objects.bulk_create(ratings, batch_size=500)
    return len({row.game_id for row in rows})


# --- reads -----------------------------------------------------------------------------------------


def describe(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the API and pages show it: the conservative value, and whether it is provisional."""
    return {"mu": mu, "sigma": sigma, "rating": model.conservative(mu, sigma), "games": games,
            "provisional": model.provisional(games)}


def player_ratings(user: Any, *, now: datetime | None = None) -> list[dict[str, Any]]:
    """A player's rating in each game type they finished a rated game of, with their place on that
    type's leaderboard (``rank``, None when they are not on it)."""
    return [{"game_type": r.game_type, **describe(r.mu, r.sigma, r.games), "last_played": r.last_played,
             "rank": rank(r, user.is_bot, now=now)}
            for r in Rating.objects.filter(user=user).order_by("game_type")]


def shown_ratings(tables: Iterable[tuple[str, Iterable[int]]]) -> dict[tuple[int, str], dict[str, Any]]:
    """The rating each player shows at a table, as the lobby and a game's page list players: the
    conservative value rounded to one decimal and whether it is provisional, by (user id, game
    type). ``tables``: each table's game type and user ids. One query however many tables and
    players, so a message about a table, or a list of tables, costs the same per player.

    A player with no rating in a rated type shows a newcomer's (0.0, provisional); a type that is
    not rated has none (``rating`` null)."""
    wanted = {(user_id, game_type) for game_type, users in tables for user_id in users}
    if not wanted:
        return {}
    rated = {t for _, t in wanted if t in model.RATED_GAME_TYPES}
    found = {(r.user_id, r.game_type): r for r in Rating.objects.filter(
        user_id__in={u for u, _ in wanted}, game_type__in=rated).only("user_id", "game_type", "mu", "sigma", "games")}
    shown = {}
    for user_id, game_type in wanted:
        if game_type not in rated:
            shown[user_id, game_type] = {"rating": None, "provisional": False}
            continue
        r = found.get((user_id, game_type))
        mu, sigma, games = (r.mu, r.sigma, r.games) if r else (model.MU, model.SIGMA, 0)
        # + 0.0 turns a rounded -0.0 into 0.0: the same JSON for the same value.
        shown[user_id, game_type] = {"rating": round(model.conservative(mu, sigma), 1) + 0.0,
                                     "provisional": model.provisional(games)}
    return shown


def _active(game_type: str, now: datetime | None) -> QuerySet[Rating]:
    since = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    return (Rating.objects.filter(game_type=game_type, last_played__gte=since)
            .annotate(conservative=F("mu") - 3 * F("sigma")))


def rank(rating: Rating, bot: bool, *, now: datetime | None = None) -> dict[str, Any] | None:
    """A rating's place on the leaderboard the player is listed on (people's, or bots' for a bot):
    among the active players of that kind, in the leaderboard's order (conservative value, then
    id), with how many are listed. None when the player is not active, so not listed.

    Two counts, whatever the number of players: a player page asks this once per game type."""
    if rating.last_played < (now or timezone.now()) - timedelta(days=ACTIVE_DAYS):
        return None
    kind = _active(rating.game_type, now).filter(user__is_bot=bot)
    # The value is compared in SQL, computed there as the leaderboard computes it, so equal
    # ratings order by id exactly as the leaderboard lists them.
    mine = kind.filter(id=rating.id).values("conservative")
    above = kind.filter(Q(conservative__gt=Subquery(mine))
                        | Q(conservative=Subquery(mine), user_id__lt=rating.user_id)).count()
    return {"place": above + 1, "of": kind.count(), "players": "bots" if bot else "people"}


def history(user: Any, game_type: str, *, limit: int = HISTORY_LIMIT) -> dict[str, Any]:
    """A player's rating after each of their last ``limit`` rated games of a type, oldest first,
    with the number of rated games they finished of it (``games``: points are numbered from
    ``games - len(points) + 1``)."""
    if game_type not in model.RATED_GAME_TYPES:
        raise NotFound("UnknownGameType", f"the rated game types are {', '.join(model.RATED_GAME_TYPES)}")
    rows = list(RatingChange.objects.filter(user=user, game_type=game_type).select_related("game")
                .order_by("-game__ended", "-game_id")
                .values_list("game_id", "game__ended", "rank", "mu_after", "sigma_after")[:limit])
    rows.reverse()
    stored = Rating.objects.filter(user=user, game_type=game_type).values_list("games", flat=True).first()
    return {"game_type": game_type, "games": stored or 0, "limit": limit,
            "points": [{"game": game_id, "ended": ended, "place": place, "mu": mu, "sigma": sigma,
                        "rating": model.conservative(mu, sigma)}
                       for game_id, ended, place, mu, sigma in rows]}


def game_changes(game: Game) -> list[dict[str, Any]]:
    """What a game did to its players' ratings, by position (empty for a casual or unfinished game)."""
    return [{"user": c.user_id, "username": c.user.username, "bot": c.user.is_bot, "position": c.position,
             "rank": c.rank, "mu_before": c.mu_before, "sigma_before": c.sigma_before, "mu_after": c.mu_after,
             "sigma_after": c.sigma_after,
             "rating_before": model.conservative(c.mu_before, c.sigma_before),
             "rating_after": model.conservative(c.mu_after, c.sigma_after)}
            for c in RatingChange.objects.filter(game=game).select_related("user").order_by("position")]


def leaderboard(game_type: str, players: str = "people", *, limit: int = LEADERBOARD_LIMIT,
                now: datetime | None = None) -> list[dict[str, Any]]:
    """The active players of a game type (a rated game finished in the last ``ACTIVE_DAYS``),
    highest conservative rating first, numbered from 1. ``players``: people, bots or all."""
    if game_type not in model.RATED_GAME_TYPES:
        raise NotFound("UnknownGameType", f"the rated game types are {', '.join(model.RATED_GAME_TYPES)}")
    if players not in PLAYER_KINDS:
        raise GameError("InvalidPlayers", f"players is one of {', '.join(PLAYER_KINDS)}")
    if not 1 <= limit <= MAX_LEADERBOARD_LIMIT:
        raise GameError("InvalidLimit", f"limit is 1 to {MAX_LEADERBOARD_LIMIT}")
    rows = _active(game_type, now).select_related("user").order_by("-conservative", "user_id")
    if players != "all":
        rows = rows.filter(user__is_bot=players == "bots")
    return [{"place": place, "user": r.user_id, "username": r.user.username, "bot": r.user.is_bot,
             **describe(r.mu, r.sigma, r.games), "last_played": r.last_played}
            for place, r in enumerate(rows[:limit], start=1)]
