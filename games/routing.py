"""WebSocket routes.

Browser sockets sit behind the allowed-hosts origin check and the session middleware; the bot
socket trusts no cookie (Login must carry a token or password), so it needs no origin check.
"""

from channels.auth import AuthMiddlewareStack
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from . import consumers
from .cribbage.consumers import application as cribbagebber

websocket_urlpatterns = [
    path("ws/lobby/", AllowedHostsOriginValidator(AuthMiddlewareStack(consumers.LobbyConsumer.as_asgi()))),
    path("ws/bot/", consumers.BotLobbyConsumer.as_asgi()),
    # CRIBBAGEBBER lines (docs/protocols/cribbage.md): cookies only with an allowed Origin, else a token.
    path("ws/cribbage/", cribbagebber()),
    path("ws/cribbage/<int:game_id>/", cribbagebber()),
]
