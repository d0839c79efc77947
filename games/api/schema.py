"""Pieces of the OpenAPI description shared by several views."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from games.api.serializers import ErrorSerializer, ValidationErrorSerializer
from games.core.registry import GAME_TYPES

GAME_ID = OpenApiParameter("game_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Game id")
# The filter reads its choices at request time, which the schema generator cannot see.
GAME_TYPE_FILTER = OpenApiParameter("game_type", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=list(GAME_TYPES),
                                    description="Only games of this type (a key from /api/game-types/)")


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """Error responses, all in the ``{"code", "reason"}`` shape."""
    described = {
        400: "Invalid request or refused by the game rules",
        401: "Not authenticated",
        403: "Not allowed (not the host, not your seat, CSRF failure)",
        404: "Unknown game",
        409: "Conflicts with the table's or game's current state",
    }
    return {
        status: OpenApiResponse(ValidationErrorSerializer if status == 400 else ErrorSerializer, described[status])
        for status in statuses
    }


# Writes need an authenticated user; reads are open.
WRITE_ERRORS = (400, 401, 403, 404, 409)
