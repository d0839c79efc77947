from django.urls import path

from games.site import archive_views, rating_views
from games.site import pages as views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/", archive_views.games_list, name="games-list"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/replay/", views.replay_page, name="game-replay"),
    path("players/<str:username>/", archive_views.player_page, name="player"),
    path("ratings/", rating_views.leaderboard_page, name="ratings"),
    path("ratings/<str:game_type>/", rating_views.leaderboard_page, name="ratings-type"),
]
