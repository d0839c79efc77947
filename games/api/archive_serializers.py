"""Response shapes of the player endpoint (games.site.archive's numbers), for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers


class PlayerCountsSerializer(serializers.Serializer):
    finished = serializers.IntegerField(help_text="Games the player finished")
    aborted = serializers.IntegerField(help_text="Games the player was in that were aborted after starting")
    active = serializers.IntegerField(help_text="Games the player is in that are in progress")


class PlayerTypeStatsSerializer(serializers.Serializer):
    game_type = serializers.CharField(help_text="A key from /api/game-types/")
    name = serializers.CharField()
    played = serializers.IntegerField(help_text="Finished games of this type")
    wins = serializers.IntegerField(help_text="Of those, games the player (or their team) finished first in")
    average_placement = serializers.FloatField(allow_null=True, help_text="Mean place, 1 = first")
    average_score = serializers.FloatField(
        allow_null=True, help_text="Mean final score: Acquire's money, riichi's points, cribbage's holes")
    hands_shown = serializers.IntegerField(required=False, help_text="Cribbage: hands the player showed")
    average_hand = serializers.FloatField(required=False, allow_null=True,
                                          help_text="Cribbage: mean points of a hand's show (the crib not counted)")
    average_pegging = serializers.FloatField(required=False, allow_null=True,
                                             help_text="Cribbage: mean points pegged per game (cards and go points)")


class PlayerProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    joined = serializers.DateTimeField()
    games = PlayerCountsSerializer()
    stats = PlayerTypeStatsSerializer(many=True, help_text=(
        "Per game type the player has finished a game of; the cribbage fields only for cribbage"))
