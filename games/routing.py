"""WebSocket routes.

Browser sockets sit behind the same-origin check (games/origin.py) and the session middleware; the bot
socket and the Majiang socket trust no cookie (they log in with a token or password), so they need no
origin check.
"""

from channels.auth import AuthMiddlewareStack
from django.urls import path

from . import consumers
from .cribbage.consumers import application as cribbagebber
from .origin import SameOriginValidator
from .riichi.consumers import MajiangConsumer
from .riichi.mmj_consumer import MmjConsumer
from .riichi.ump_consumer import UmpConsumer

websocket_urlpatterns = [
    path("ws/lobby/", SameOriginValidator(AuthMiddlewareStack(consumers.LobbyConsumer.as_asgi()))),
    path("ws/bot/", consumers.BotLobbyConsumer.as_asgi()),
    # CRIBBAGEBBER lines (docs/protocols/cribbage.md): cookies only with an allowed Origin, else a token.
    path("ws/cribbage/", cribbagebber()),
    path("ws/cribbage/<int:game_id>/", cribbagebber()),
    # Majiang's own protocol, seed 001 (docs/protocols/majiang.md): an API token, never a cookie.
    path("ws/majiang/", MajiangConsumer.as_asgi()),
    # UMP, seed 004 (docs/protocols/ump.md): the TCP port's lines; a token or password in hello.
    path("ws/ump/", UmpConsumer.as_asgi()),
    # mmj, seed 000 (docs/protocols/mmj.md): the TCP port's messages; username/token in mmj1c.
    path("ws/mmj/", MmjConsumer.as_asgi()),
]
