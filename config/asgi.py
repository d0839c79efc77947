"""ASGI entry point: HTTP through Django, WebSockets through Channels (see games/transport/routing.py), and
majiang-server's socket.io under /majiang/socket.io/ (games/riichi/transport/majiang_server.py), every request
body bounded in front of them all (config/bodies.py)."""

import os
import sys

from django.core.asgi import get_asgi_application

# The event loop shares the interpreter with the database threads (games/core/db.py); one of them may be
# busy for a while (a game played out by the server). A shorter switch interval than the default
# 5 ms lets the loop take its turn sooner, so every other client's frames keep moving.
sys.setswitchinterval(0.001)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry)

from config import collector  # noqa: E402
from config.bodies import BodyLimit  # noqa: E402
from games.riichi.transport import majiang_server  # noqa: E402
from games.service import door  # noqa: E402
from games.transport.addresses import CapPerAddress  # noqa: E402
from games.transport.routing import websocket_urlpatterns  # noqa: E402

# Every WebSocket link is counted per address here, the TCP line links too (games/transport/lines.py bridges
# each through this application); socket.io counts its sessions itself (games/transport/addresses.py).
router = ProtocolTypeRouter({"http": django_asgi_app,
                             "websocket": CapPerAddress(URLRouter(websocket_urlpatterns))})

# Everything loaded so far lives as long as the process, and so does most of what each connection
# and game makes: the garbage collector's full collections walk only what is new (config/collector.py).
collector.install()


async def dispatch(scope, receive, send):
    # The clock sweeper and presence heartbeat run on the server's loop from its first request of any
    # kind (``manage.py serve`` starts them before that), so clocks run with only REST clients too.
    if scope["type"] in ("http", "websocket"):
        door.ensure_sweeper()
        # socket.io's own requests (its long polling and its WebSocket) go to python-socketio, which
        # shares this loop, the channel layer and the database threads with every other transport.
        if scope["path"].startswith(majiang_server.SOCKETIO_PATH):
            return await majiang_server.application(scope, receive, send)
    return await router(scope, receive, send)


# A body over its route's limit is refused before any app behind this reads it (config/bodies.py).
application = BodyLimit(dispatch)
