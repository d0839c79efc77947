"""Response shapes of the rating endpoints (games.service.ratings), for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers

MU_HELP = "OpenSkill's mean skill estimate (a new player's is 25)"
SIGMA_HELP = "OpenSkill's uncertainty of mu (a new player's is 25/3)"
RATING_HELP = "The value shown and ranked by: mu - 3 sigma (0 for a new player; docs/ratings.md)"


class RatingFieldsSerializer(serializers.Serializer):
    mu = serializers.FloatField(help_text=MU_HELP)
    sigma = serializers.FloatField(help_text=SIGMA_HELP)
    rating = serializers.FloatField(help_text=RATING_HELP)
    games = serializers.IntegerField(help_text="Rated games finished of this type")
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated games: the rating still moves fast")
    last_played = serializers.DateTimeField(help_text="When the last rated game of this type ended")


class RankSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="The player's place on the leaderboard, 1 for the highest rating")
    of = serializers.IntegerField(help_text="How many players that leaderboard lists")
    players = serializers.ChoiceField(choices=["people", "bots"], help_text=(
        "The leaderboard counted: people's for a person, bots' for a bot"))


class PlayerRatingSerializer(RatingFieldsSerializer):
    game_type = serializers.CharField(help_text="A key from /api/game-types/")
    rank = RankSerializer(allow_null=True, help_text=(
        "The place on the leaderboard of this game type (active players only, ordered as the leaderboard, "
        "by mu - 3 sigma); null when the player finished no rated game of it in the last 90 days"))


class HistoryPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The rated game")
    ended = serializers.DateTimeField(help_text="When it ended")
    place = serializers.IntegerField(help_text="The place the rating was changed for (1 is first)")
    mu = serializers.FloatField(help_text="mu after the game")
    sigma = serializers.FloatField(help_text="sigma after the game")
    rating = serializers.FloatField(help_text="mu - 3 sigma after the game")


class RatingHistorySerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    game_type = serializers.CharField()
    games = serializers.IntegerField(help_text="Rated games the player finished of this type (0: none)")
    limit = serializers.IntegerField(help_text="At most this many points are given: the last games")
    points = HistoryPointSerializer(many=True, help_text=(
        "The rating after each of the player's last `limit` rated games of this type, oldest first; the "
        "first is the player's game number `games - len(points) + 1`"))


class PlayerRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    ratings = PlayerRatingSerializer(many=True, help_text="One per game type the player finished a rated game of")


class RatingChangeSerializer(serializers.Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.BooleanField()
    position = serializers.IntegerField(help_text="The player's seat")
    rank = serializers.IntegerField(help_text="The place the rating was changed for: 1 is first, ties share a "
                                              "place, partners their side's, a player who left is last")
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    rating_before = serializers.FloatField(help_text="mu_before - 3 sigma_before")
    rating_after = serializers.FloatField(help_text="mu_after - 3 sigma_after")


class GameRatingsSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    rated = serializers.BooleanField(help_text="Whether the table was rated (false: casual)")
    changes = RatingChangeSerializer(many=True, help_text=(
        "By position; empty for a casual game, one not finished (aborted or in progress) or one of a kind "
        "that is not rated (riichi other than four players)"))


class LeaderboardEntrySerializer(RatingFieldsSerializer):
    place = serializers.IntegerField(help_text="1 for the highest rating")
    user = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.BooleanField()


class LeaderboardSerializer(serializers.Serializer):
    game_type = serializers.CharField()
    players = serializers.ChoiceField(choices=["people", "bots", "all"])
    active_days = serializers.IntegerField(help_text="Players listed finished a rated game within this many days")
    entries = LeaderboardEntrySerializer(many=True)
