"""Request and response shapes of the REST API.

The request bodies the lobby protocol also takes (a new table, its set-up, a move, a chat line) are
read by the very function of games/core/validation.py the WebSocket consumer calls
(``RuleSerializer``): their fields below only describe them in the OpenAPI schema. Every game rule
(valid modes, arrangements, seat counts, chat length) is the lobby's or the game service's to
decide, so the HTTP and WebSocket paths refuse the same things with the same codes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.fields import StrictCharField, StrictIntegerField
from games.core import validation
from games.core.errors import GameError
from games.models import ChatMessage, Game, Seat, Status
from games.service import door


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable error code, e.g. GameFull")
    reason = serializers.CharField(help_text="Human-readable explanation")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.JSONField(required=False, help_text="Per-field messages (request validation only)")


# --- game types -------------------------------------------------------------------------------


class ModeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seats = serializers.IntegerField()
    teams = serializers.IntegerField(help_text="0: every player for themselves")


class GameTypeSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    playable = serializers.BooleanField()
    has_bot = serializers.BooleanField()
    bot_levels = serializers.ListField(child=serializers.CharField(), help_text=(
        "The house bot levels a host may add (AddBot's \"bot\") or Play now may seat (\"bot_level\"), "
        "weakest first; empty where the game type has one house bot"))
    modes = ModeSerializer(many=True)


# --- games ------------------------------------------------------------------------------------


class SetupUserSerializer(serializers.Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.BooleanField()
    slot = serializers.IntegerField()
    team = serializers.IntegerField(allow_null=True)
    accepted = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True, help_text=(
        "The user's rating in this game type, mu - 3 sigma rounded to one decimal (0.0 for a user not yet "
        "rated in it; docs/ratings.md)"))
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated games of this type")


class TimeControlSerializer(serializers.Serializer):
    """majiang-server's clock: seconds per decision, plus a bank per player renewed every hand."""

    per_decision = serializers.IntegerField(min_value=1, help_text="Seconds each decision may take")
    bank = serializers.IntegerField(min_value=0, help_text="Seconds of bank per player, renewed every hand")


@extend_schema_field(TimeControlSerializer(allow_null=True))
class TimeControlField(serializers.JSONField):
    """A request's ``time_control``, passed to the lobby as sent: it answers any bad shape or value
    with InvalidTimeControl, as on the WebSocket (a nested serializer would say InvalidRequest).
    The schema still documents the shape."""


class SetupStateSerializer(serializers.Serializer):
    """``games.service.lobby.setup_state``: the table as the lobby sees it."""

    game = serializers.IntegerField()
    display_number = serializers.IntegerField()
    game_type = serializers.CharField()
    mode = serializers.IntegerField()
    arrangement = serializers.IntegerField()
    host = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    version = serializers.IntegerField(help_text="Setup version; pass it to accept/ to accept exactly this setup")
    rules = serializers.DictField(help_text="The table's rule options as created (riichi: preset and overrides)")
    time_start = serializers.IntegerField(allow_null=True, help_text="Fischer clock: seconds per player")
    time_increment = serializers.IntegerField(help_text="Fischer clock: seconds added per action")
    time_control = TimeControlSerializer(allow_null=True, help_text="Per-decision clock, or null")
    spectator_delay = serializers.IntegerField(help_text="Seconds spectators see the game late; 0: live")
    rated = serializers.BooleanField(help_text="The game's result changes its players' ratings")
    rated_people_only = serializers.BooleanField(help_text="A rated table no bot may sit at")
    users = SetupUserSerializer(many=True)


class PlayerSerializer(serializers.ModelSerializer):
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="user.is_bot")

    class Meta:
        model = Seat
        fields = ["user", "username", "bot", "slot", "position", "team", "accepted", "forfeited"]


class GameSerializer(serializers.ModelSerializer):
    """A game (or a table being set up). Expects ``seats`` prefetched with their users."""

    host_username = serializers.CharField(source="host.username", read_only=True, allow_null=True)
    seq = serializers.IntegerField(read_only=True, allow_null=True,
                                   help_text="Actions in the log; null while a table with a spectator delay plays")
    history_size = serializers.IntegerField(read_only=True, allow_null=True,
                                            help_text="History messages so far; null while a table with a spectator "
                                                      "delay plays")
    time_control = serializers.SerializerMethodField()
    setup = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()

    def to_representation(self, game: Game) -> dict[str, Any]:
        data = super().to_representation(game)
        if game.spectator_delay and game.status in (Status.ACTIVE, Status.ADJOURNED):
            # The live counters would show a delayed table's spectators each move (and each call
            # window's end) before they may see it; players read theirs from their own pushes.
            data["seq"] = data["history_size"] = None
        return data

    class Meta:
        model = Game
        fields = [
            "id", "display_number", "game_type", "mode", "arrangement", "host", "host_username", "status",
            "time_start", "time_increment", "time_control", "spectator_delay", "rated", "rated_people_only", "seq",
            "history_size", "created",
            "started", "ended",
            "result", "setup", "players",
        ]
        read_only_fields = fields

    def _seats(self, game: Game) -> list[Seat]:
        # One prefetch serves both fields; sorting in Python keeps it a single query per page.
        return sorted(game.seats.all(), key=lambda s: s.slot)

    @extend_schema_field(TimeControlSerializer(allow_null=True))
    def get_time_control(self, game: Game) -> dict[str, int] | None:
        return door.describe_control(game)

    @extend_schema_field(SetupStateSerializer)
    def get_setup(self, game: Game) -> dict[str, Any]:
        # A list of games passes the page's ratings, read in one query (views.py).
        return door.setup_state(game, self._seats(game), self.context.get("ratings"))

    @extend_schema_field(PlayerSerializer(many=True))
    def get_players(self, game: Game) -> list[dict[str, Any]]:
        return PlayerSerializer(self._seats(game), many=True).data


class RuleSerializer(serializers.Serializer):
    """A body read by ``rule``, a function of games/core/validation.py that the WebSocket consumer calls
    on its frame: a refusal is that function's GameError (``InvalidMessage`` naming the field, or
    the field's own code), answered as on the WebSocket. The declared fields are the schema's."""

    rule: Callable[[Mapping[str, Any]], dict[str, Any]]

    def run_validation(self, data: Any = serializers.empty) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            # As a lobby frame that is no JSON object (an empty body reads as {}).
            raise GameError("InvalidMessageFormat", "a request body is a JSON object of named fields")
        return type(self).rule(data)


class CreateGameSerializer(RuleSerializer):
    rule = staticmethod(validation.create_game)
    game_type = StrictCharField(required=False, allow_null=True, max_length=validation.MAX_GAME_TYPE_LENGTH,
                                default=validation.DEFAULT_GAME_TYPE,
                                help_text="A key from /api/game-types/; omit or null for acquire")
    mode = StrictIntegerField(min_value=-validation.MAX_INT, help_text="A mode id of that game type")
    time_start = StrictIntegerField(required=False, allow_null=True, min_value=-validation.MAX_DB_INT,
                                    max_value=validation.MAX_DB_INT,
                                    help_text="Seconds per player (1-86400, else InvalidTimeControl); omit or "
                                              "null for an untimed game")
    time_increment = StrictIntegerField(required=False, allow_null=True, default=0,
                                        min_value=-validation.MAX_DB_INT, max_value=validation.MAX_DB_INT,
                                        help_text="Seconds added after each action (0-86400, else "
                                                  "InvalidTimeControl); omit or null for 0")
    time_control = TimeControlField(
        required=False, allow_null=True, default=None,
        help_text="Instead of time_start: majiang-server's clock, {\"per_decision\": 5, \"bank\": 20} "
                  "(seconds per decision 1-3600, a bank 0-3600 renewed every hand); omit or null for none")
    spectator_delay = StrictIntegerField(required=False, allow_null=True, default=0, min_value=0,
                                         max_value=door.MAX_SPECTATOR_DELAY,
                                         help_text=f"Seconds spectators see the game late "
                                                   f"(0-{door.MAX_SPECTATOR_DELAY}, else InvalidSpectatorDelay); "
                                                   "omit, null or 0: live")
    rated = serializers.BooleanField(required=False, allow_null=True, default=None,
                                     help_text="Does the result change the players' ratings? Omit or null: true "
                                               "(docs/ratings.md); false: a casual table")
    rated_people_only = serializers.BooleanField(required=False, allow_null=True, default=False,
                                                 help_text="A rated table no bot may sit at (no house bots, no "
                                                           "bot accounts); omit, null or false: anyone")
    rules = serializers.DictField(required=False, allow_null=True, default=dict,
                                  help_text="The game's rule options, e.g. cribbage's {\"counting\": \"manual\", "
                                            "\"variants\": \"D\"}; riichi's {\"preset\": \"tenhou\"} and/or "
                                            "Majiang.rule() overrides")


# --- lobby operations -------------------------------------------------------------------------


class AcceptSerializer(RuleSerializer):
    rule = staticmethod(validation.accept)
    version = StrictIntegerField(required=False, allow_null=True, max_value=validation.MAX_DB_INT,
                                 help_text="The setup version being accepted; refused if the setup changed")


class ModeChangeSerializer(RuleSerializer):
    rule = staticmethod(validation.change_mode)
    mode = StrictIntegerField(min_value=-validation.MAX_INT)


class ArrangementSerializer(RuleSerializer):
    rule = staticmethod(validation.change_arrangement)
    arrangement = StrictIntegerField(min_value=-validation.MAX_INT,
                                     help_text="1 random order, 2 exact order, 3 specify teams")
    order = serializers.ListField(child=StrictIntegerField(min_value=1), required=False, allow_null=True,
                                  help_text="User ids in seating order; must list every user at the table once")


class AddBotSerializer(RuleSerializer):
    rule = staticmethod(validation.add_bot)
    bot = StrictCharField(required=False, allow_null=True, max_length=validation.MAX_BOT_NAME,
                          help_text="Omit for the game's house bot; riichi: a bot level (beginner, intermediate "
                                    "or strong), or mjai:<name> for an mjai bot the server runs (an unknown name "
                                    "is refused UnknownBot, listing the choices)")


class KickSerializer(RuleSerializer):
    rule = staticmethod(validation.kick)
    user = StrictIntegerField(min_value=1, help_text="Id of the user to remove from the table")


# --- play -------------------------------------------------------------------------------------


class HistoryMessageSerializer(serializers.Serializer):
    type = serializers.CharField()
    params = serializers.ListField(child=serializers.JSONField())
    player = serializers.IntegerField(required=False, help_text="Absent for messages that concern no player")


class HistorySerializer(serializers.Serializer):
    game = serializers.IntegerField()
    v = serializers.IntegerField(help_text="Number of actions in the log")
    start = serializers.IntegerField(help_text="Index of the first message returned")
    messages = HistoryMessageSerializer(many=True)


class HistoryQuerySerializer(serializers.Serializer):
    start = serializers.IntegerField(required=False, default=0, min_value=0,
                                     help_text="Skip the messages the client already has")


class SnapshotSerializer(serializers.Serializer):
    type = serializers.CharField()
    game = serializers.IntegerField()
    status = serializers.CharField()
    v = serializers.IntegerField()
    position = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="The requester's seat; null for spectators")
    view = serializers.JSONField(allow_null=True, help_text="The engine's view of the state for this requester")
    history = HistoryMessageSerializer(many=True)
    to_act = serializers.ListField(child=serializers.IntegerField())
    legal = serializers.ListField(child=serializers.DictField(), help_text="What the requester may do now")
    result = serializers.JSONField(required=False, allow_null=True)


class ReplayQuerySerializer(serializers.Serializer):
    step = serializers.IntegerField(min_value=0, help_text="Number of actions to replay (0..seq)")
    starts = serializers.BooleanField(required=False, default=False, help_text=(
        "Finished games: also answer visible_starts (where each visible step begins). It reads every "
        "frame of the game: ask once, not with every step"))


class ReplaySerializer(serializers.Serializer):
    game = serializers.IntegerField()
    step = serializers.IntegerField()
    steps = serializers.IntegerField(help_text="Number of actions in the whole log")
    view = serializers.JSONField(allow_null=True)
    history = HistoryMessageSerializer(many=True)
    message_steps = serializers.ListField(child=serializers.IntegerField(),
                                         help_text="For each history message, the step (1..step) whose action "
                                                   "produced it")
    # Finished games only: a step that changes nothing a viewer sees (riichi's passes) is folded
    # into the visible step before it (games/records/frames.py).
    visible_step = serializers.IntegerField(required=False, help_text=(
        "Finished games: the visible step (0..visible_steps) this step is in. A step that changes nothing "
        "a viewer sees (every view and the history as the step before) belongs to the visible step before it"))
    visible_steps = serializers.IntegerField(required=False, help_text="Finished games: the last visible step")
    visible_start = serializers.IntegerField(required=False, help_text=(
        "Finished games: the first step of this visible step (the one that changed what a viewer sees)"))
    visible_previous = serializers.IntegerField(required=False, allow_null=True, help_text=(
        "Finished games: the first step of the visible step before; null at visible step 0"))
    visible_next = serializers.IntegerField(required=False, allow_null=True, help_text=(
        "Finished games: the first step of the visible step after; null at the last"))
    visible_starts = serializers.ListField(child=serializers.IntegerField(), required=False, help_text=(
        "Finished games, asked with starts=true: the first step of each visible step, in order"))


class MoveSerializer(RuleSerializer):
    rule = staticmethod(validation.game_action)

    action = StrictCharField(max_length=validation.MAX_ACTION_LENGTH, allow_blank=True,
                             help_text="Action type, as listed in the snapshot's legal actions")
    params = serializers.ListField(child=serializers.JSONField(), required=False, allow_null=True, default=list)
    # v is a position in the log (validation.seq), seat a seat number (validation.MAX_SEAT).
    v = StrictIntegerField(required=False, allow_null=True, max_value=validation.MAX_DB_INT,
                           help_text="The game seq the client had seen (duplicate protection)")
    seat = StrictIntegerField(required=False, allow_null=True, max_value=validation.MAX_SEAT,
                              help_text="The seat the client believes it plays; refused if it is not")


class MoveResultSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    v = serializers.IntegerField(help_text="The game seq after the action (and any automatic ones)")


class ChatMessageSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = ChatMessage
        fields = ["id", "game", "user", "username", "text", "created"]
        read_only_fields = fields


class ChatPostSerializer(RuleSerializer):
    rule = staticmethod(validation.chat)

    # The chat service owns the length (ChatTooLong); anything but text is InvalidChat.
    text = StrictCharField(help_text="At most 500 characters, not blank")


class ChatPostedSerializer(serializers.Serializer):
    type = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    id = serializers.IntegerField()
    user = serializers.IntegerField()
    username = serializers.CharField()
    text = serializers.CharField()
    at = serializers.DateTimeField()


# --- export and account -----------------------------------------------------------------------


class ExportQuerySerializer(serializers.Serializer):
    max = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                   help_text="Stop after this many games")


class ExportLineSerializer(GameSerializer):
    """One NDJSON line of an export: the game detail plus its history as the requester may see it."""

    history = HistoryMessageSerializer(many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "history"]
        read_only_fields = fields


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
