"""Riichi decision reviews (docs/review.md): one seat's decisions in a finished game beside the
strong bot's, asked for with POST, followed and read with GET, downloaded as a JSON attachment.

A review is built from a finished game only, whose record everybody may already see on its replay
page: reading it is open to all, as the replay is; asking for one starts work on the server, so it
takes a logged-in user (and counts as an export). Reading never replays the game: one row.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import ApiView, get_game
from games.api.schema import GAME_ID, errors
from games.api.throttles import AnonymousRate, ExportRate, UserRate
from games.models import ReviewStatus
from games.service import door

SEAT = OpenApiParameter("seat", OpenApiTypes.INT, OpenApiParameter.PATH,
                        description="The reviewed seat's position (0 to 3), as the replay and the record number them")


class ReviewProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="The seat's actions gone through")
    total = serializers.IntegerField(help_text="The seat's actions in the log (0 until the build starts)")


class DecisionReviewSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    # A string, not an enum: the schema's "status" enum is the game's (its name would collide).
    status = serializers.CharField(help_text=", ".join(ReviewStatus.values))
    progress = ReviewProgressSerializer()
    requested = serializers.DateTimeField(allow_null=True)
    finished = serializers.DateTimeField(allow_null=True)
    error = serializers.CharField(allow_null=True, help_text="Why the build failed (asking again retries it)")
    review = serializers.JSONField(allow_null=True, help_text="The review once built (docs/review.md), else null")


class DecisionReviewView(ApiView):
    throttle_classes = [AnonymousRate, UserRate]

    def get_throttles(self):  # asking builds a review: an export's rate; following it, a call's
        throttles = super().get_throttles()
        return [*throttles, ExportRate()] if self.request.method == "POST" else throttles

    @extend_schema(
        operation_id="games_decision_review", tags=["play"], parameters=[GAME_ID, SEAT],
        responses={200: DecisionReviewSerializer, **errors(400, 404, 409)},
    )
    def get(self, request: Request, game_id: int, seat: int) -> Response:
        """The review of a seat's decisions in a finished riichi game: its state (``pending``,
        ``building`` with its progress, ``done``, ``failed``) and, once built, the review itself.
        404 ``NoReview`` until someone has asked for it."""
        return Response(door.review_status(get_game(game_id), seat))

    @extend_schema(
        operation_id="games_decision_review_request", tags=["play"], parameters=[GAME_ID, SEAT], request=None,
        responses={200: DecisionReviewSerializer, 202: DecisionReviewSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: int, seat: int) -> Response:
        """Ask for the review of a seat's decisions in a finished riichi game: built in the
        background (202, follow it with GET); one already built is answered at once (200).
        Refused for other games (404 ``NoDecisionReview``), a game not finished (409
        ``GameNotFinished``) and a seat not at the game (400 ``InvalidSeat``)."""
        answer = door.request_review(get_game(game_id), seat)
        return Response(answer, status=status.HTTP_200_OK if answer["status"] == "done" else status.HTTP_202_ACCEPTED)


class DecisionReviewDownloadView(ApiView):
    throttle_classes = [AnonymousRate, UserRate, ExportRate]

    @extend_schema(
        operation_id="games_decision_review_download", tags=["play"], parameters=[GAME_ID, SEAT],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, "The review (docs/review.md), as a JSON attachment"),
                   **errors(400, 404, 409)},
    )
    def get(self, request: Request, game_id: int, seat: int) -> HttpResponse:
        """The built review as a JSON file, served as stored. 409 ``ReviewNotReady`` before it is built."""
        game = get_game(game_id)
        response = HttpResponse(door.review_document(game, seat), content_type="application/json")
        response["Content-Disposition"] = (
            f'attachment; filename="riichi-{game.display_number}-seat{seat}-review.json"')
        return response
