"""The ASGI application bench/floor.py serves with Daphne: the project's transport with no game.

One WebSocket consumer at ``/ws/floor/?table=N`` built the way the project's consumers are
(Channels' ``AsyncWebsocketConsumer`` under Daphne, the project's configured channel layer), that
does nothing but what the live path does around a move, with no database and no engine:

- a client's ``act V`` frame is answered with an ``applied V`` frame to the sender (the
  ``ActionApplied``) and a ``push V`` frame of ``FLOOR_PUSH_BYTES`` to every client of its table
  through the table's group (the ``GameMessages``);
- every ``FLOOR_LOBBY_EVERY``-th act (0: never) also sends a ``lobby`` frame of 150 bytes to every
  connected client through one ``lobby`` group, the way the lobby hears tables being set up,
  started and ended.

So what bench/floor.py measures against it is the most the transport itself allows, the floor under
any game's live path on the same machine.
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402  (after django.setup)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

PUSH_PAD = "x" * int(os.environ.get("FLOOR_PUSH_BYTES", "1200"))
LOBBY_EVERY = int(os.environ.get("FLOOR_LOBBY_EVERY", "0"))
LOBBY_TEXT = "lobby " + "y" * 144
_acts = 0


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        table = self.scope["query_string"].decode().partition("table=")[2] or "0"
        self.table_group = f"table-{int(table)}"
        await self.channel_layer.group_add("lobby", self.channel_name)
        await self.channel_layer.group_add(self.table_group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard("lobby", self.channel_name)
        await self.channel_layer.group_discard(self.table_group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        global _acts
        verb, _, v = (text_data or "").partition(" ")
        if verb != "act":
            return
        await self.send(f"applied {v}")
        await self.channel_layer.group_send(self.table_group, {"type": "frame", "text": f"push {v} {PUSH_PAD}"})
        _acts += 1
        if LOBBY_EVERY and _acts % LOBBY_EVERY == 0:
            await self.channel_layer.group_send("lobby", {"type": "frame", "text": LOBBY_TEXT})

    async def frame(self, event: dict) -> None:
        await self.send(event["text"])


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/floor/", FloorConsumer.as_asgi())])})
