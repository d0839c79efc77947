"""Table set-up over HTTP: each view validates the body's types and calls one lobby operation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import ApiView, get_game
from games.api.schema import GAME_ID, WRITE_ERRORS, errors
from games.api.serializers import (
    AcceptSerializer,
    AddBotSerializer,
    ArrangementSerializer,
    GameSerializer,
    KickSerializer,
    ModeChangeSerializer,
)
from games.service import door


def _body(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _game_response(game_id: int) -> Response:
    # Re-read: the lobby's instance does not carry the refreshed seats.
    return Response(GameSerializer(get_game(game_id)).data)


def _schema(operation_id: str, request: type[serializers.Serializer] | None = None) -> Callable[[Any], Any]:
    return extend_schema(operation_id=operation_id, tags=["lobby"], parameters=[GAME_ID], request=request,
                         responses={200: GameSerializer, **errors(*WRITE_ERRORS)})


class JoinView(ApiView):
    @_schema("games_join")
    def post(self, request: Request, game_id: int) -> Response:
        """Take a free seat at a table being set up."""
        door.join(request.user, game_id)
        return _game_response(game_id)


class LeaveView(ApiView):
    @_schema("games_leave")
    def post(self, request: Request, game_id: int) -> Response:
        """Leave a table being set up, or forfeit a game in progress (the server then plays for you)."""
        door.leave(request.user, game_id)
        return _game_response(game_id)


class AcceptView(ApiView):
    @_schema("games_accept", AcceptSerializer)
    def post(self, request: Request, game_id: int) -> Response:
        """Accept the current set-up; the game starts when every seat is filled and accepted."""
        door.accept(request.user, game_id, _body(AcceptSerializer, request).get("version"))
        return _game_response(game_id)


class ModeView(ApiView):
    @_schema("games_mode", ModeChangeSerializer)
    def post(self, request: Request, game_id: int) -> Response:
        """Host only: change the seating mode."""
        door.change_mode(request.user, game_id, _body(ModeChangeSerializer, request)["mode"])
        return _game_response(game_id)


class ArrangementView(ApiView):
    @_schema("games_arrangement", ArrangementSerializer)
    def post(self, request: Request, game_id: int) -> Response:
        """Host only: set the arrangement and, optionally, the seating order."""
        body = _body(ArrangementSerializer, request)
        door.change_arrangement(request.user, game_id, body["arrangement"], body.get("order"))
        return _game_response(game_id)


class KickView(ApiView):
    @_schema("games_kick", KickSerializer)
    def post(self, request: Request, game_id: int) -> Response:
        """Host only: remove a user from a table being set up."""
        door.kick(request.user, game_id, _body(KickSerializer, request)["user"])
        return _game_response(game_id)


class AddBotView(ApiView):
    @_schema("games_add_bot", AddBotSerializer)
    def post(self, request: Request, game_id: int) -> Response:
        """Host only: fill a free seat with the game's built-in bot (it accepts every setup), or at a
        riichi table with an mjai bot the server runs (``{"bot": "mjai:<name>"}``, docs/protocols/mjai.md)."""
        door.add_bot(request.user, game_id, _body(AddBotSerializer, request)["bot"])
        return _game_response(game_id)
