"""Whole-game downloads: Acquire's review data (seed 003's array form) and riichi's Majiang paifu.

Both reveal everything hidden during play, so both are served only once the game is over (the paifu
once it has finished) and refused to everybody before (docs/security.md); both are throttled as
exports.
"""

from __future__ import annotations

from django.http import JsonResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request

from games import services
from games.acquire.review_io import review_for_game
from games.errors import Conflict, NotFound
from games.records import has_format
from games.riichi.paifu_io import paifu_filename, paifu_for_game

from .base import ApiView, get_game
from .schema import GAME_ID, errors
from .throttles import AnonymousRate, ExportRate, UserRate


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


class PaifuView(ApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]  # a whole game replayed costs more than a call

    @extend_schema(
        operation_id="games_paifu", tags=["play"], parameters=[GAME_ID],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT,
                                        "The Majiang paifu (with the players' usernames and a `rule` key), "
                                        "as a JSON attachment"),
                   **errors(404, 409)},
    )
    def get(self, request: Request, game_id: int) -> JsonResponse:
        """A finished riichi game's Majiang paifu: every hand, draw and decision, the walls' dora and
        ura dora, the final result; ``player`` holds the usernames and ``rule`` the full
        ``Majiang.rule()`` it was played with. It reveals every hand, so it is served once the game
        has finished, to everyone alike: staff included (docs/security.md)."""
        game = get_game(game_id)
        response = JsonResponse(paifu_for_game(game), json_dumps_params={"ensure_ascii": False})
        response["Content-Disposition"] = f'attachment; filename="{paifu_filename(game)}"'
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
    def get(self, request: Request, game_id: int) -> JsonResponse:
        """The game's own record, as stored when it ended (docs/records.md): Acquire's review array
        (``acquire-review``), riichi's Majiang paifu (``majiang-paifu``) or the cribbage record
        (``cribbage-record``); the response's ``X-Record-Format`` names it. Every record reveals
        what play hid, so it is served once the game is over, to everyone alike: staff included
        (docs/security.md)."""
        game = get_game(game_id)
        if not has_format(game):
            raise NotFound("NoRecord", f"{game.game_type} games have no record format")
        if game.seed is None:
            raise Conflict("GameNotStarted", "the game has not started")
        record = services.stored_record(game)  # refused while the game is on
        document = record.document
        if document is None:  # an aborted riichi game: no paifu can stop halfway through a hand
            raise Conflict("GameAborted", "the game was aborted before its end; its export holds what it has")
        response = JsonResponse(document, safe=False, json_dumps_params={"ensure_ascii": False})
        response["Content-Disposition"] = f'attachment; filename="{record.format}-{game.display_number}.json"'
        response["X-Record-Format"] = f"{record.format}/{record.version}"
        return response
