"""Whole-game downloads: Acquire's review data (seed 003's array form) and riichi's Majiang paifu.

Both reveal everything hidden during play, so both are served only once the game is over (the paifu
once it has finished) and refused to everybody before (docs/security.md); both are throttled as
exports.
"""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from games.acquire.records.review_io import review_for_game
from games.api.base import ApiView, get_game
from games.api.schema import GAME_ID, errors
from games.api.throttles import AnonymousRate, ExportRate, UserRate
from games.core.errors import Conflict, GameError, NotFound
from games.riichi.records.exports import to_mjai, to_tenhou6
from games.riichi.records.paifu_io import paifu_filename, paifu_for_game
from games.service import door


class ReviewView(ApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]  # a whole game costs more than a call

    @extend_schema(
        operation_id="games_review", tags=["play"], parameters=[GAME_ID],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, "The review array, as a JSON attachment"),
                   **errors(404, 409)},
    )
    def get(self, request: Request, game_id: int) -> JsonResponse:
        """The game's review data: mode, arrangement, time control, players, host, the whole tile
        bag and every action with its timestamp and auto-played flag. It reveals the tile bag, so
        it is served once the game is over, to everyone alike: staff included (docs/security.md)."""
        game = get_game(game_id)
        if game.game_type != "acquire":
            raise NotFound("NoReview", "review data exists for Acquire games")
        if game.seed is None:
            raise Conflict("GameNotStarted", "the game has not started")
        if not game.is_over:
            raise Conflict("GameNotOver", "the review holds the tile bag; it is available when the game ends")
        response = JsonResponse(review_for_game(game), safe=False)
        response["Content-Disposition"] = f'attachment; filename="acquire-{game.id}-review.json"'
        return response


class IgnoreFormatParameter(DefaultContentNegotiation):
    """Always JSON, errors included. REST framework reads ``?format=`` as a renderer's name and
    answers 404 for one it lacks; here ``format`` names the paifu's export format instead."""

    def select_renderer(self, request: Request, renderers: list[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type


# ?format= of the paifu download: the written file (games/riichi/exports, docs/records.md).
PAIFU_FORMATS = ("majiang", "tenhou6", "mjai")


class PaifuView(ApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]  # a whole game costs more than a call
    renderer_classes = [JSONRenderer]
    content_negotiation_class = IgnoreFormatParameter

    @extend_schema(
        operation_id="games_paifu", tags=["play"],
        parameters=[GAME_ID, OpenApiParameter(
            "format", str, enum=list(PAIFU_FORMATS), default="majiang",
            description="majiang: the Majiang paifu (JSON, usernames and `rule` added); tenhou6: the "
                        "tenhou.net/6 JSON log; mjai: mjai events, one JSON object per line")],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, "The paifu in the asked format, as an attachment"),
                   **errors(400, 404, 409)},
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        """A finished riichi game's record: Majiang's paifu (every hand, draw and decision, the
        walls' dora and ura dora, the final result; ``player`` holds the usernames and ``rule`` the
        full ``Majiang.rule()`` it was played with), or the same game as a tenhou.net/6 log or as
        mjai events for the analysers that read those (docs/records.md). It reveals every hand, so
        it is served once the game has finished, to everyone alike: staff included
        (docs/security.md)."""
        kind = request.query_params.get("format", "majiang")
        if kind not in PAIFU_FORMATS:
            raise GameError("InvalidFormat", f"format is one of {', '.join(PAIFU_FORMATS)}")
        game = get_game(game_id)
        paifu = paifu_for_game(game)
        name = paifu_filename(game).removesuffix(".json")
        if kind == "mjai":
            lines = "".join(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
                            for event in to_mjai(paifu))
            response: HttpResponse = HttpResponse(lines, content_type="application/x-ndjson; charset=utf-8")
            filename = f"{name}.mjai.jsonl"
        else:
            document = to_tenhou6(paifu) if kind == "tenhou6" else paifu
            response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
            filename = f"{name}.tenhou6.json" if kind == "tenhou6" else f"{name}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class RecordView(ApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]  # a whole game costs more than a call

    @extend_schema(
        operation_id="games_record", tags=["play"], parameters=[GAME_ID],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT,
                                        "The game's native record as a JSON attachment: Acquire's review "
                                        "array, riichi's Majiang paifu or the cribbage record"),
                   **errors(404, 409)},
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        """The game's own record, as stored when it ended (docs/records.md): Acquire's review array
        (``acquire-review``), riichi's Majiang paifu (``majiang-paifu``) or the cribbage record
        (``cribbage-record``); the response's ``X-Record-Format`` names it. Every record reveals
        what play hid, so it is served once the game is over, to everyone alike: staff included
        (docs/security.md)."""
        game = get_game(game_id)
        if not door.has_record(game):
            raise NotFound("NoRecord", f"{game.game_type} games have no record format")
        if game.seed is None:
            raise Conflict("GameNotStarted", "the game has not started")
        record = door.stored_record(game)  # refused while the game is on
        if not record.document:  # an aborted riichi game: no paifu can stop halfway through a hand
            raise Conflict("GameAborted", "the game was aborted before its end; its export holds what it has")
        # Served as stored: no parsing, no encoding.
        response = HttpResponse(record.document, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{record.format}-{game.display_number}.json"'
        response["X-Record-Format"] = f"{record.format}/{record.version}"
        return response
