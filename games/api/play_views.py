"""Games in progress and after: history, snapshots, replays, moves and chat.

Visibility is entirely the game service's: every read passes the requester (anonymous users are
spectators) and gets back only what that requester may see.
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import ApiView, GenericApiView, get_game
from games.api.schema import GAME_ID, WRITE_ERRORS, errors
from games.api.serializers import (
    ChatMessageSerializer,
    ChatPostedSerializer,
    ChatPostSerializer,
    GameSerializer,
    HistoryQuerySerializer,
    HistorySerializer,
    MoveResultSerializer,
    MoveSerializer,
    ReplayQuerySerializer,
    ReplaySerializer,
    SnapshotSerializer,
)
from games.models import ChatMessage
from games.service import door


class HistoryView(ApiView):
    @extend_schema(operation_id="games_history", tags=["play"], parameters=[GAME_ID, HistoryQuerySerializer],
                   responses={200: HistorySerializer, **errors(400, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        """Game history messages from ``start`` on, as the requester may see them
        (everything once the game is over)."""
        query = HistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(door.history(get_game(game_id), request.user, query.validated_data["start"]))


class SnapshotView(ApiView):
    @extend_schema(operation_id="games_snapshot", tags=["play"], parameters=[GAME_ID],
                   responses={200: SnapshotSerializer, **errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        """The whole current state as the requester may see it, with what they may do now."""
        return Response(door.snapshot(get_game(game_id), request.user))


class ReplayView(ApiView):
    @extend_schema(operation_id="games_replay", tags=["play"], parameters=[GAME_ID, ReplayQuerySerializer],
                   responses={200: ReplaySerializer, **errors(400, 404, 409)})
    def get(self, request: Request, game_id: int) -> Response:
        """The state after the first ``step`` actions (fully revealed for finished games), and
        ``message_steps``: for each history message, the step (1 to ``step``) that produced it.
        A finished game's also says which visible step that is (steps that change nothing a
        viewer sees are folded into the step before) and, with ``starts``, where each begins."""
        query = ReplayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(door.replay_step(get_game(game_id), request.user, query.validated_data["step"],
                                         starts=query.validated_data["starts"]))


class MovesView(ApiView):
    @extend_schema(operation_id="games_move", tags=["play"], parameters=[GAME_ID], request=MoveSerializer,
                   responses={200: MoveResultSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request: Request, game_id: int) -> Response:
        """Play an action. Naming a ``seat`` that is not yours is refused (NotYourSeat)."""
        body = MoveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        move = body.validated_data
        # A move is its player's presence, as a connection is: an adjourned game goes on first.
        door.came_back(request.user, game_id)
        return Response(door.act_in_time(request.user, game_id, move.get("seat"), move["action"], move["params"],
                                     move.get("v")))


class ResumeView(ApiView):
    @extend_schema(operation_id="games_resume", tags=["play"], parameters=[GAME_ID], request=None,
                   responses={200: GameSerializer, **errors(401, 403, 404)})
    def post(self, request: Request, game_id: int) -> Response:
        """Come back to an adjourned game you play in, as connecting would: it goes on where it
        stopped (docs/abandoned-games.md). Any other game of yours is left as it is."""
        get_game(game_id)  # 404 for a game that does not exist
        door.came_back(request.user, game_id, required=True)
        return Response(GameSerializer(get_game(game_id)).data)


class ChatView(GenericApiView):
    serializer_class = ChatMessageSerializer

    def get_queryset(self) -> QuerySet[ChatMessage]:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no URL kwargs
            return ChatMessage.objects.none()
        return ChatMessage.objects.select_related("user").filter(game_id=self.kwargs["game_id"]).order_by("id")

    @extend_schema(operation_id="games_chat_list", tags=["chat"], parameters=[GAME_ID],
                   responses={200: ChatMessageSerializer(many=True), **errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        """The game's chat, oldest first."""
        get_game(game_id)  # 404 rather than an empty page for a game that does not exist
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(operation_id="games_chat_post", tags=["chat"], parameters=[GAME_ID], request=ChatPostSerializer,
                   responses={201: ChatPostedSerializer, **errors(400, 401, 403, 404)})
    def post(self, request: Request, game_id: int) -> Response:
        """Say something at the table (at most 500 characters)."""
        body = ChatPostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(door.post_chat(request.user, game_id, body.validated_data["text"]),
                        status=status.HTTP_201_CREATED)

