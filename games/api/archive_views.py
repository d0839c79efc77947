"""A player's page over REST: their counts and per-game-type numbers (games.site.archive). Their games
are the game list's, filtered: ``GET /api/games/?player=<username>``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.archive_serializers import PlayerProfileSerializer
from games.api.base import ApiView
from games.api.serializers import ErrorSerializer
from games.core.errors import NotFound
from games.site import archive

USERNAME = OpenApiParameter("username", OpenApiTypes.STR, OpenApiParameter.PATH, description="The player's username")


def player_profile(user: Any) -> dict[str, Any]:
    record = archive.player_record(user)
    return {
        "username": user.username,
        "bot": user.is_bot,
        "joined": user.date_joined,
        "games": record.counts,
        "stats": [stats.as_dict() for stats in record.stats],
    }


class PlayerView(ApiView):
    @extend_schema(operation_id="players_retrieve", tags=["games"], parameters=[USERNAME],
                   responses={200: PlayerProfileSerializer,
                              404: OpenApiResponse(ErrorSerializer, "Unknown player")})
    def get(self, request: Request, username: str) -> Response:
        """A player's numbers: how many games they finished, had aborted and are playing, and per
        game type their finished games, wins, average placement and final score (cribbage: also
        the average hand and pegging). Read from the games' stored results and records."""
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise NotFound("UnknownPlayer", f"no player {username}")
        return Response(player_profile(user))
