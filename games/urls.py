from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/replay/", views.replay_page, name="game-replay"),
]
