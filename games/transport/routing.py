"""WebSocket routes.

Browser sockets sit behind the same-origin check (games/transport/origin.py) and the session middleware; the bot
socket and the Majiang socket trust no cookie (they log in with a token or password), so they need no
origin check.
"""

from channels.auth import AuthMiddlewareStack
from django.urls import path

from games.cribbage.transport.consumer import application as cribbagebber
from games.riichi.transport.majiang_consumer import MajiangConsumer
from games.riichi.transport.mjai_consumer import MjaiConsumer
from games.riichi.transport.mmj_consumer import MmjConsumer
from games.riichi.transport.ump_consumer import UmpConsumer
from games.transport import lobby_consumer as consumers
from games.transport.origin import SameOriginValidator

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
    # mjai, gimite's mjsonp (docs/protocols/mjai.md): the TCP port's JSON lines; username:token in join's room.
    path("ws/mjai/", MjaiConsumer.as_asgi()),
]
