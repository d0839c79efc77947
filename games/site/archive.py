"""Games that are over, games in progress, and what a player's finished games add up to: the
queries behind the games page, the player page and their REST twins (docs/browser.md, "Games and
players"; docs/api.md, "Finished games and players"). ORM only, no HTTP.

Everything here reads what the games stored when they ended: ``Game.result`` (each engine's
``result()``) and, for cribbage's hand and pegging averages, the stored cribbage record
(``GameRecord.document``, docs/records-cribbage.md). No game is replayed from its log.

A game in progress is only ever described by what the lobby already shows of it (type, mode,
players, when it started): its ``result`` is empty until it ends, and nothing here reads its
log, views or record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from games.core.registry import GAME_TYPES, get_game_type
from games.models import Game, GameRecord, Seat, Status

OVER = (Status.FINISHED, Status.ABORTED)
# Started and not over: every status between set-up and the end (the lobby's "Games in progress").
IN_PROGRESS = tuple(s for s in Status.values if s != Status.SETUP and s not in OVER)
# The result filter: the chosen player won or lost a finished game, or the game was aborted.
WON, LOST, ABORTED = "won", "lost", "aborted"
RESULTS = (WON, LOST, ABORTED)
CRIBBAGE_RECORD = "cribbage-record"


# ------------------------------------------------------------------ finding games


def over_games() -> QuerySet[Game]:
    """Games played to their end or aborted while being played, the latest to end first. A table
    left empty during set-up is aborted too, but it never started: it was never a game."""
    return Game.objects.filter(status__in=OVER, started__isnull=False).order_by("-ended", "-id")


def active_games() -> QuerySet[Game]:
    """Games in progress, the latest to start first: the lobby's "Games in progress"."""
    return Game.objects.filter(status__in=IN_PROGRESS).order_by("-started", "-id")


def with_players(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` with their seated players (and users) in one more query per page."""
    seats = Seat.objects.select_related("user").exclude(position=None).order_by("position")
    return games.prefetch_related(Prefetch("seats", queryset=seats, to_attr="players"))


def played_by(games: QuerySet[Game], username: str) -> QuerySet[Game]:
    return games.filter(seats__user__username=username)


def ended_between(games: QuerySet[Game], after: datetime | None = None,
                  before: datetime | None = None) -> QuerySet[Game]:
    """Games that ended at or after ``after`` and strictly before ``before`` (half-open, so
    consecutive windows never count a game twice)."""
    if after is not None:
        games = games.filter(ended__gte=after)
    if before is not None:
        games = games.filter(ended__lt=before)
    return games


def by_result(games: QuerySet[Game], username: str | None, result: str) -> QuerySet[Game]:
    """``aborted``: aborted games (of ``username`` if given). ``won`` / ``lost``: finished games
    of ``username`` that they won / did not win (a player is needed: a game has a winner, not a
    result of its own)."""
    if result == ABORTED:
        games = games.filter(status=Status.ABORTED)
        return played_by(games, username) if username else games
    if not username:
        raise ValueError(f"the result {result!r} needs a player")
    won = _won_seats(username).values("game_id")
    finished = games.filter(status=Status.FINISHED)
    if result == WON:
        return finished.filter(id__in=won)
    if result == LOST:
        return played_by(finished, username).exclude(id__in=won)
    raise ValueError(f"unknown result {result!r}")


def _won_seats(username: str) -> QuerySet[Seat]:
    """The seats of ``username`` that won their finished game, read from ``Game.result`` by the
    seat's position: the same rule as ``standing`` (tests compare the two), in SQL so that a
    filtered page is counted and cut by the database. A seat's entry in ``result.players`` (and
    its team's in ``result.teams``) is at the index of its position."""
    seats = Seat.objects.filter(user__username=username, game__status=Status.FINISHED)
    team_modes = Q(pk__in=[])
    team_wins = Q(pk__in=[])
    most = 0
    for key, game_type in GAME_TYPES.items():
        for mode in game_type.modes:
            most = max(most, mode.seats)
            if not mode.teams:
                continue
            this_mode = Q(game__game_type=key, game__mode=mode.id)
            team_modes |= this_mode
            for position in range(mode.seats):
                team_wins |= this_mode & Q(position=position,
                                           **{f"game__result__teams__{mode.team_of(position)}__rank": 1})
    solo_wins = Q(pk__in=[])
    for position in range(most):
        solo_wins |= Q(position=position, **{f"game__result__players__{position}__rank": 1})
    return seats.filter(team_wins | (solo_wins & ~team_modes))


# ------------------------------------------------------------------ one game's outcome


@dataclass(frozen=True)
class Standing:
    """How one seat did in a finished game, from ``Game.result``."""

    place: int | None  # 1 = first; equal scores share a place (Acquire)
    score: int | float | None  # the final score: Acquire's money, riichi's points, cribbage's holes
    won: bool  # placed first (a team game: their team did)


def standing(game_type: str, mode_id: int, result: dict[str, Any] | None, position: int | None) -> Standing | None:
    """The seat at ``position``'s standing in a finished game's ``result``; None where the result
    does not say (no result, or a game type whose result names no players)."""
    players = (result or {}).get("players")
    if position is None or not isinstance(players, list) or not 0 <= position < len(players):
        return None
    me = players[position]
    place = me.get("rank")
    known = get_game_type(game_type)
    mode = known.mode(mode_id) if known else None
    team = mode.team_of(position) if mode else None
    teams = (result or {}).get("teams")
    if team is not None and isinstance(teams, list) and team < len(teams):
        won = teams[team].get("rank") == 1
    else:
        won = place == 1
    return Standing(place, me.get("score"), won)


@dataclass
class PlayerLine:
    username: str
    position: int
    bot: bool
    standing: Standing | None


@dataclass
class GameSummary:
    """A row of the games page: the game (its type, number, links) and its players in seat
    order, with their standings once it has finished."""

    game: Game
    type_name: str
    mode_name: str
    players: list[PlayerLine]
    duration: timedelta | None

    def of(self, username: str) -> PlayerLine | None:
        return next((p for p in self.players if p.username == username), None)


def summarise(game: Game) -> GameSummary:
    """``game`` must come through ``with_players``. A game in progress gets no standings: its
    result is empty until it ends, and nothing else is read."""
    known = get_game_type(game.game_type)
    mode = known.mode(game.mode) if known else None
    finished = game.status == Status.FINISHED
    players = [
        PlayerLine(seat.user.username, seat.position, seat.user.is_bot,
                   standing(game.game_type, game.mode, game.result, seat.position) if finished else None)
        for seat in game.players
    ]
    duration = game.ended - game.started if game.ended and game.started and game.is_over else None
    return GameSummary(game, known.name if known else game.game_type, mode.name if mode else f"Mode {game.mode}",
                       players, duration)


# ------------------------------------------------------------------ a player's numbers


@dataclass
class TypeStats:
    """One game type's numbers for one player, over their finished games of that type."""

    game_type: str
    name: str
    played: int = 0
    wins: int = 0
    _places: list[int] = field(default_factory=list, repr=False)
    _scores: list[float] = field(default_factory=list, repr=False)
    # Cribbage, from the stored records: hands shown, their points, points pegged, records read.
    hands: int = 0
    hand_points: int = 0
    pegging_points: int = 0
    recorded: int = 0

    def add(self, mine: Standing | None) -> None:
        self.played += 1
        if mine is None:
            return
        self.wins += mine.won
        if isinstance(mine.place, int):
            self._places.append(mine.place)
        if isinstance(mine.score, int | float):
            self._scores.append(mine.score)

    def as_dict(self) -> dict[str, Any]:
        numbers: dict[str, Any] = {
            "game_type": self.game_type,
            "name": self.name,
            "played": self.played,
            "wins": self.wins,
            "average_placement": _mean(self._places),
            "average_score": _mean(self._scores),
        }
        if self.game_type == "cribbage":
            numbers["hands_shown"] = self.hands
            numbers["average_hand"] = self.hand_points / self.hands if self.hands else None
            numbers["average_pegging"] = self.pegging_points / self.recorded if self.recorded else None
        return numbers


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def cribbage_points(document: dict[str, Any], position: int) -> tuple[int, int, int]:
    """(hands shown, their points, points pegged) of the seat at ``position`` in a cribbage
    record: each hand's show as it stood (``scored``: a passed muggins corrects it), and pegging as
    the record's sides count it, the points of the seat's cards and its go points."""
    hands = hand_points = pegged = 0
    for deal in document.get("deals", []):
        for entry in deal.get("pegging", []):
            if entry.get("seat") != position:
                continue
            if entry.get("type") == "play":
                pegged += entry.get("scored", 0)
            elif entry.get("type") == "go point":
                pegged += entry.get("points", 0)
        for show in deal.get("shows", []):
            if show.get("seat") == position and show.get("what") == "hand":
                hands += 1
                hand_points += show.get("scored", 0)
    return hands, hand_points, pegged


@dataclass
class PlayerRecord:
    counts: dict[str, int]
    stats: list[TypeStats]


def player_record(user: Any) -> PlayerRecord:
    """Counts of the player's games and, per game type, the numbers over their finished games.

    The cost is one pass over the player's finished games (one row each: position, type, mode,
    result) and one over the stored records of their finished cribbage games, plus one count
    query: it grows with how many games the player has finished, not with the site, and holds
    one record at a time (both passes are streamed)."""
    counts = {"finished": 0, "aborted": 0, "active": 0}
    statuses = (Seat.objects.filter(user=user, position__isnull=False, game__status__in=[*OVER, *IN_PROGRESS])
                .values("game__status").order_by().annotate(games=Count("id")))
    for row in statuses:
        status = row["game__status"]
        counts[status if status in OVER else "active"] += row["games"]
    by_type: dict[str, TypeStats] = {}
    cribbage_positions: dict[int, int] = {}
    finished = (Seat.objects.filter(user=user, position__isnull=False, game__status=Status.FINISHED)
                .values_list("game_id", "position", "game__game_type", "game__mode", "game__result")
                .order_by("game_id"))
    for game_id, position, game_type, mode_id, result in finished.iterator(chunk_size=500):
        stats = by_type.get(game_type)
        if stats is None:
            known = get_game_type(game_type)
            stats = by_type[game_type] = TypeStats(game_type, known.name if known else game_type)
        stats.add(standing(game_type, mode_id, result, position))
        if game_type == "cribbage":
            cribbage_positions[game_id] = position
    if cribbage_positions:
        stats = by_type["cribbage"]
        records = (GameRecord.objects.filter(game__seats__user=user, game__status=Status.FINISHED,
                                             game__game_type="cribbage", format=CRIBBAGE_RECORD)
                   .exclude(document="").values_list("game_id", "document"))
        for game_id, document in records.iterator(chunk_size=50):
            position = cribbage_positions.get(game_id)
            if position is None:
                continue
            hands, points, pegged = cribbage_points(json.loads(document), position)
            stats.hands += hands
            stats.hand_points += points
            stats.pegging_points += pegged
            stats.recorded += 1
    order = list(GAME_TYPES)
    ranked = sorted(by_type.values(), key=lambda s: (order.index(s.game_type) if s.game_type in order else len(order),
                                                     s.game_type))
    return PlayerRecord(counts, ranked)

