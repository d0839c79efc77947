"""Shared view plumbing: error translation, game lookup, pagination."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.views import APIView

from games.api.errors import ApiErrorsMixin
from games.core.errors import NotFound
from games.models import Game, Seat


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200


class ApiView(ApiErrorsMixin, APIView):
    pass


class GenericApiView(ApiErrorsMixin, GenericAPIView):
    pagination_class = Pagination


def games_queryset() -> QuerySet[Game]:
    """Games with what GameSerializer reads, in two queries per page."""
    return Game.objects.select_related("host").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def get_game(game_id: int) -> Game:
    game = games_queryset().filter(id=game_id).first()
    if game is None:
        # Same code as the services use, so an HTTP client sees one "unknown game" error.
        raise NotFound("UnknownGame", f"no game {game_id}")
    return game
