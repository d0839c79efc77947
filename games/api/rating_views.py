"""Ratings over REST (docs/ratings.md): a player's, a game's changes, and a leaderboard per game type.
Read through the service's door; these views only translate."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.archive_views import USERNAME
from games.api.base import ApiView, get_game
from games.api.rating_serializers import (
    GameRatingsSerializer,
    LeaderboardSerializer,
    PlayerRatingsSerializer,
    RatingHistorySerializer,
)
from games.api.schema import GAME_ID, errors
from games.api.serializers import ErrorSerializer
from games.core.errors import GameError, NotFound
from games.core.ratings import RATED_GAME_TYPES
from games.service import door

RATED_TYPE = OpenApiParameter("game_type", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(RATED_GAME_TYPES),
                              description="A rated game type")
PLAYERS = OpenApiParameter("players", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=list(door.PLAYER_KINDS),
                           description="people (the default): accounts that are not bots; bots; or all")
LIMIT = OpenApiParameter("limit", OpenApiTypes.INT, OpenApiParameter.QUERY,
                         description=f"At most this many entries, 1-{door.MAX_LEADERBOARD_LIMIT} "
                                     f"(default {door.LEADERBOARD_LIMIT})")


def _player(username: str) -> Any:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound("UnknownPlayer", f"no player {username}")
    return user


class PlayerRatingsView(ApiView):
    @extend_schema(operation_id="players_ratings_retrieve", tags=["ratings"], parameters=[USERNAME],
                   responses={200: PlayerRatingsSerializer, 404: OpenApiResponse(ErrorSerializer, "Unknown player")})
    def get(self, request: Request, username: str) -> Response:
        """A player's rating in each game type they finished a rated game of, and their place on its
        leaderboard."""
        user = _player(username)
        return Response({"username": user.username, "bot": user.is_bot, "ratings": door.player_ratings(user)})


class RatingHistoryView(ApiView):
    @extend_schema(operation_id="players_ratings_history", tags=["ratings"], parameters=[USERNAME, RATED_TYPE],
                   responses={200: RatingHistorySerializer,
                              404: OpenApiResponse(ErrorSerializer, "Unknown player or not a rated game type")})
    def get(self, request: Request, username: str, game_type: str) -> Response:
        """A player's rating after each of their last rated games of a type (the last 200 at
        most: the response's `limit`), oldest first."""
        user = _player(username)
        return Response({"username": user.username, "bot": user.is_bot, **door.rating_history(user, game_type)})


class GameRatingsView(ApiView):
    @extend_schema(operation_id="games_ratings_retrieve", tags=["ratings"], parameters=[GAME_ID],
                   responses={200: GameRatingsSerializer, **errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        """What a finished game did to its players' ratings: before and after, and the place each
        was rated at."""
        game = get_game(game_id)
        return Response({"game": game.id, "rated": game.rated, "changes": door.game_rating_changes(game)})


class LeaderboardView(ApiView):
    @extend_schema(operation_id="ratings_leaderboard", tags=["ratings"], parameters=[RATED_TYPE, PLAYERS, LIMIT],
                   responses={200: LeaderboardSerializer, **errors(400),
                              404: OpenApiResponse(ErrorSerializer, "Not a rated game type")})
    def get(self, request: Request, game_type: str) -> Response:
        """The players of a game type who finished a rated game of it in the last 90 days, highest
        rating (mu - 3 sigma) first."""
        players = request.query_params.get("players") or "people"
        limit = request.query_params.get("limit") or str(door.LEADERBOARD_LIMIT)
        if not (limit.isascii() and limit.isdigit() and len(limit) <= 6):
            raise GameError("InvalidLimit", f"limit is 1 to {door.MAX_LEADERBOARD_LIMIT}")
        entries = door.leaderboard(game_type, players, limit=int(limit))
        return Response({"game_type": game_type, "players": players, "active_days": door.RATING_ACTIVE_DAYS,
                         "entries": entries})
