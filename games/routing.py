"""WebSocket routes.

Browser sockets sit behind the same-origin check (games/origin.py) and the session middleware; the bot
socket trusts no cookie (Login must carry a token or password), so it needs no origin check.
"""

from channels.auth import AuthMiddlewareStack
from django.urls import path

from . import consumers
from .cribbage.consumers import application as cribbagebber
from .origin import SameOriginValidator

websocket_urlpatterns = [
    path("ws/lobby/", SameOriginValidator(AuthMiddlewareStack(consumers.LobbyConsumer.as_asgi()))),
    path("ws/bot/", consumers.BotLobbyConsumer.as_asgi()),
    # CRIBBAGEBBER lines (docs/protocols/cribbage.md): cookies only with an allowed Origin, else a token.
    path("ws/cribbage/", cribbagebber()),
    path("ws/cribbage/<int:game_id>/", cribbagebber()),
]
