"""Game types, the game list and detail, and the requester's account."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import ApiView, GenericApiView, games_queryset, get_game
from games.api.filters import GameFilter
from games.api.schema import GAME_ID, GAME_TYPE_FILTER, errors
from games.api.serializers import CreateGameSerializer, GameSerializer, GameTypeSerializer, MeSerializer
from games.core.registry import GAME_TYPES
from games.models import Game
from games.service import door


class GameTypesView(ApiView):
    @extend_schema(operation_id="game_types_list", responses=GameTypeSerializer(many=True), tags=["games"])
    def get(self, request: Request) -> Response:
        """Every game type the site knows, whether it can be played yet, and its seating modes."""
        return Response([gt.describe() for gt in GAME_TYPES.values()])


class GameListView(GenericApiView):
    serializer_class = GameSerializer
    filterset_class = GameFilter

    def get_queryset(self) -> QuerySet[Game]:
        return games_queryset().order_by("-id")

    @extend_schema(operation_id="games_list", tags=["games"], parameters=[GAME_TYPE_FILTER],
                   responses={200: GameSerializer(many=True), **errors(400)})
    def get(self, request: Request) -> Response:
        """Games and tables, newest first, optionally filtered."""
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset) or []
        # The players' ratings of the whole page in one query, not one a game.
        ratings = door.shown_ratings((g.game_type, [s.user_id for s in g.seats.all()]) for g in page)
        return self.get_paginated_response(self.get_serializer(page, many=True, context={
            **self.get_serializer_context(), "ratings": ratings}).data)

    @extend_schema(operation_id="games_create", tags=["games"], request=CreateGameSerializer,
                   responses={201: GameSerializer, **errors(400, 401, 403)})
    def post(self, request: Request) -> Response:
        """Open a new table; the requester becomes its host and takes the first seat."""
        data = CreateGameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = dict(data.validated_data)  # read as the WebSocket's CreateGame is (validation.create_game)
        game = door.create_table(request.user, table.pop("game_type"), table.pop("mode"), **table)
        return Response(GameSerializer(get_game(game.id)).data, status=status.HTTP_201_CREATED)


class GameDetailView(ApiView):
    @extend_schema(operation_id="games_retrieve", tags=["games"], parameters=[GAME_ID],
                   responses={200: GameSerializer, **errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        """One game: its set-up state, players, progress and result."""
        return Response(GameSerializer(get_game(game_id)).data)


class MeView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_retrieve", tags=["account"], responses={200: MeSerializer, **errors(401, 403)})
    def get(self, request: Request) -> Response:
        """The logged-in user. API tokens are made and revoked on the account page /accounts/token/,
        which shows each key once; no stored key can be read back."""
        user = request.user
        return Response({"id": user.id, "username": user.username})

