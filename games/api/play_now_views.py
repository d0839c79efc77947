"""Play now over REST (docs/play-now.md): join the queue, see where you stand, leave it. The same
service calls as the lobby WebSocket's PlayNow and LeavePlayNow; these views only translate."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import ApiView
from games.api.schema import errors
from games.api.serializers import RuleSerializer
from games.core import play_now, validation
from games.core.errors import Conflict
from games.models import QueueEntry
from games.service import door


class PlayNowSerializer(RuleSerializer):
    rule = staticmethod(validation.play_now)
    game_type = serializers.ChoiceField(choices=list(play_now.GAME_TYPES), help_text="riichi, acquire or cribbage")
    preset = serializers.ChoiceField(choices=list(play_now.RIICHI_RULESETS), required=False,
                                     help_text="Riichi: the rules (default tenhou)")
    length = serializers.ChoiceField(choices=list(play_now.RIICHI_LENGTHS), required=False,
                                     help_text="Riichi: east-south (default) or east only")
    bot_level = serializers.ChoiceField(choices=list(play_now.RIICHI_BOT_LEVELS), required=False,
                                        help_text="Riichi: the house bots' level (default intermediate); the "
                                                  "table's first player's choice decides")
    players = serializers.IntegerField(required=False,
                                       help_text="Acquire: 2-6 (default 4); cribbage: 2, 3 or 4 for two against "
                                                 "two (default 2)")
    clock = serializers.ChoiceField(choices=["untimed", "fast", "normal"], required=False,
                                    help_text="A time-control preset (default untimed; GET /api/play-now/choices/)")
    bots_after = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                          max_value=play_now.MAX_BOTS_AFTER,
                                          help_text="Seconds until house bots fill the empty seats: 0 at once, "
                                                    "null never (default 15)")


class PlayNowStatusSerializer(serializers.Serializer):
    # Text, not an enum: a second enum named "status" would collide with the games' in the schema.
    status = serializers.CharField(help_text="waiting, seated or none")
    game = serializers.IntegerField(required=False, help_text="Seated: the table's game id")
    game_type = serializers.CharField(required=False)
    preset = serializers.CharField(required=False, help_text="Riichi: the rules asked for")
    length = serializers.CharField(required=False, help_text="Riichi: east-south or east")
    bot_level = serializers.CharField(required=False, help_text="Riichi: the house bots' level asked for")
    players = serializers.IntegerField(required=False, help_text="Acquire and cribbage: the players asked for")
    clock = serializers.CharField(required=False, help_text="The clock asked for")
    waited_ms = serializers.IntegerField(required=False)
    window = serializers.FloatField(required=False, help_text="How far apart in skill (mu) players may be now")
    others = serializers.IntegerField(required=False, help_text="Others waiting for the same table")
    bots_after = serializers.IntegerField(required=False, allow_null=True)


class PlayNowView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="play_now_status", tags=["lobby"], responses={200: PlayNowStatusSerializer,
                                                                               **errors(401)})
    def get(self, request: Request) -> Response:
        """Where you stand in Play now: waiting (and for how long), seated (at which table), or none.
        Asking holds your place: a REST client polls at least once a minute, or leaves the queue."""
        return Response(door.play_now_status(request.user, via=QueueEntry.Via.REST))

    @extend_schema(operation_id="play_now_join", tags=["lobby"], request=PlayNowSerializer,
                   responses={201: PlayNowStatusSerializer, **errors(400, 401, 409)})
    def post(self, request: Request) -> Response:
        """Wait for a table: seated with players of similar rating, or with house bots after
        ``bots_after`` seconds. Replaces any place you held."""
        data = PlayNowSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        placed = door.play_now(request.user, dict(data.validated_data), QueueEntry.Via.REST)
        return Response(placed, status=status.HTTP_201_CREATED)

    @extend_schema(operation_id="play_now_leave", tags=["lobby"], responses={204: None, **errors(401, 409)})
    def delete(self, request: Request) -> Response:
        """Leave the queue."""
        if not door.leave_play_now(request.user):
            raise Conflict("NotQueued", "you are not waiting in Play now")
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayNowChoicesView(ApiView):
    @extend_schema(operation_id="play_now_choices", tags=["lobby"], responses={200: dict})
    def get(self, request: Request) -> Response:
        """Every Play now choice per game type, with labels."""
        return Response(play_now.choices())
