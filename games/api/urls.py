"""REST API routes, mounted at /api/ by config/urls.py. Route names are used by the admin's links."""

from django.urls import path

from games.api import archive_views, export, lobby_views, play_views, preferences_views, review_views, views

urlpatterns = [
    path("game-types/", views.GameTypesView.as_view(), name="api-game-types"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("me/preferences/", preferences_views.PreferencesView.as_view(), name="api-me-preferences"),
    path("players/<str:username>/", archive_views.PlayerView.as_view(), name="api-player"),
    path("games/", views.GameListView.as_view(), name="api-games"),
    # Before the <game_id> routes, as a literal segment must win over a parameter.
    path("games/export/", export.ExportView.as_view(), name="api-games-export"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", lobby_views.JoinView.as_view(), name="api-game-join"),
    path("games/<int:game_id>/leave/", lobby_views.LeaveView.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/accept/", lobby_views.AcceptView.as_view(), name="api-game-accept"),
    path("games/<int:game_id>/mode/", lobby_views.ModeView.as_view(), name="api-game-mode"),
    path("games/<int:game_id>/arrangement/", lobby_views.ArrangementView.as_view(), name="api-game-arrangement"),
    path("games/<int:game_id>/kick/", lobby_views.KickView.as_view(), name="api-game-kick"),
    path("games/<int:game_id>/add-bot/", lobby_views.AddBotView.as_view(), name="api-game-add-bot"),
    path("games/<int:game_id>/review/", review_views.ReviewView.as_view(), name="api-game-review"),
    path("games/<int:game_id>/paifu/", review_views.PaifuView.as_view(), name="api-game-paifu"),
    path("games/<int:game_id>/record/", review_views.RecordView.as_view(), name="api-game-record"),
    path("games/<int:game_id>/history/", play_views.HistoryView.as_view(), name="api-game-history"),
    path("games/<int:game_id>/snapshot/", play_views.SnapshotView.as_view(), name="api-game-snapshot"),
    path("games/<int:game_id>/replay/", play_views.ReplayView.as_view(), name="api-game-replay"),
    path("games/<int:game_id>/moves/", play_views.MovesView.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/resume/", play_views.ResumeView.as_view(), name="api-game-resume"),
    path("games/<int:game_id>/chat/", play_views.ChatView.as_view(), name="api-game-chat"),
    path("games/<int:game_id>/export/", export.GameExportView.as_view(), name="api-game-export"),
]
