"""NDJSON game export, in the manner of lichess's /api/games/user export.

One JSON object per line and per game: the game detail (set-up state, players, progress, result)
plus its history as the requester may see it. ``door.history`` decides visibility: a finished
game is fully revealed, a live one only shows the requester's own view (spectators see no seat's
secrets).

Games are read in keyset-paginated batches so a large export never holds every game in memory.
Under ASGI (Daphne) the body is an async iterator, so Django streams it instead of first
consuming a sync iterator into a list; under WSGI (and Django's test client) it is a plain one.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

from channels.db import database_sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import QuerySet
from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder

from games.api.base import GenericApiView, games_queryset, get_game
from games.api.filters import ExportFilter
from games.api.schema import GAME_ID, GAME_TYPE_FILTER, errors
from games.api.serializers import ExportLineSerializer, ExportQuerySerializer, GameSerializer
from games.api.throttles import AnonymousRate, ExportRate, UserRate
from games.models import Game
from games.service import door

NDJSON = "application/x-ndjson"
BATCH_SIZE = 50


class AlwaysNDJSON(DefaultContentNegotiation):
    """An export is NDJSON whatever the client accepts (a browser following a link sends
    text/html), so the Accept header never causes a 406; errors are rendered as JSON."""

    def select_renderer(self, request: Request, renderers: list[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type


def _dumps(data: Any) -> bytes:
    return json.dumps(data, cls=JSONEncoder, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def game_line(game: Game, user: Any) -> bytes:
    """One export line. ``game`` must come from ``games_queryset`` (seats prefetched)."""
    data = dict(GameSerializer(game).data)
    data["history"] = door.history(game, user)["messages"]
    return _dumps(data)


def _batch(queryset: QuerySet[Game], user: Any, before: int | None, size: int) -> tuple[list[bytes], int | None]:
    """Up to ``size`` lines of games older than ``before``; the next cursor, or None at the end."""
    page = queryset if before is None else queryset.filter(id__lt=before)
    games = list(page[:size])
    cursor = games[-1].id if len(games) == size else None
    return [game_line(game, user) for game in games], cursor


def _sizes(limit: int | None) -> Iterator[int]:
    """Batch sizes adding up to ``limit`` (forever when there is none)."""
    while limit is None or limit > 0:
        size = BATCH_SIZE if limit is None else min(BATCH_SIZE, limit)
        yield size
        if limit is not None:
            limit -= size


def stream_lines(queryset: QuerySet[Game], user: Any, sizes: Iterator[int], lines: list[bytes],
                 cursor: int | None) -> Iterator[bytes]:
    """``lines`` (the first batch, already read), then the batches after ``cursor``."""
    yield from lines
    for size in sizes:
        if cursor is None:
            return
        lines, cursor = _batch(queryset, user, cursor, size)
        yield from lines


async def astream_lines(queryset: QuerySet[Game], user: Any, sizes: Iterator[int], lines: list[bytes],
                        cursor: int | None) -> AsyncIterator[bytes]:
    for line in lines:
        yield line
    for size in sizes:
        if cursor is None:
            return
        # Channels' wrapper closes the worker thread's connection when done, as a request would.
        lines, cursor = await database_sync_to_async(_batch)(queryset, user, cursor, size)
        for line in lines:
            yield line


class ExportView(GenericApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]  # a whole game costs more than a call
    filterset_class = ExportFilter
    pagination_class = None
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysNDJSON

    def get_queryset(self) -> QuerySet[Game]:
        return games_queryset().order_by("-id")

    @extend_schema(
        operation_id="games_export", tags=["export"], filters=True,
        parameters=[ExportQuerySerializer, GAME_TYPE_FILTER],
        responses={(200, NDJSON): OpenApiResponse(ExportLineSerializer, "One game per line, newest first"),
                   **errors(400)},
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        """Export games as NDJSON, filtered like the game list plus a creation-time window."""
        query = ExportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        queryset = self.filter_queryset(self.get_queryset())
        sizes = _sizes(query.validated_data.get("max"))
        # The first batch is read here, so a failing query is still an error response rather
        # than a 200 whose body breaks off.
        lines, cursor = _batch(queryset, request.user, None, next(sizes))
        stream = astream_lines if isinstance(request._request, ASGIRequest) else stream_lines
        response = StreamingHttpResponse(stream(queryset, request.user, sizes, lines, cursor), content_type=NDJSON)
        response["Content-Disposition"] = 'attachment; filename="games.ndjson"'
        return response


class GameExportView(GenericApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]  # a whole game costs more than a call
    pagination_class = None
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysNDJSON

    @extend_schema(
        operation_id="games_export_one", tags=["export"], parameters=[GAME_ID],
        responses={(200, NDJSON): OpenApiResponse(ExportLineSerializer, "The game as one NDJSON line"),
                   **errors(404)},
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        """One game in the export format."""
        game = get_game(game_id)
        response = HttpResponse(game_line(game, request.user), content_type=NDJSON)
        response["Content-Disposition"] = f'attachment; filename="{game.game_type}-{game.display_number}.ndjson"'
        return response
