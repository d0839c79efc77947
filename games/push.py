"""Delivery of events to connected clients through the channel layer.

Everything is sent only after the transaction that caused it commits, so a rolled-back change
is never announced. The channel layer is not durable; clients that miss a message notice the
gap in sequence numbers and ask for a snapshot.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


Delivery = tuple[str, dict[str, Any], list[int]]  # group, message, users to skip


async def _send_all(deliveries: list[Delivery]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message, skip_users in deliveries:
        await layer.group_send(group, {"type": "push.message", "message": message, "skip_users": skip_users})


def send_many_on_commit(deliveries: list[Delivery]) -> None:
    """Queue messages for after the current transaction commits, in order.

    One hop into the event loop for all of them: a move sends one message per seat plus the
    spectators' one, and each separate ``async_to_sync`` call costs a thread switch.
    """
    if deliveries:
        transaction.on_commit(lambda: async_to_sync(_send_all)(deliveries))


def send_on_commit(group: str, message: dict[str, Any], *, skip_users: list[int] | None = None) -> None:
    """Queue ``message`` for every client in ``group`` once the current transaction commits.

    ``skip_users`` lets a broadcast (a spectator's view of a game) pass over the clients of
    users who receive their own seat's view instead.
    """
    send_many_on_commit([(group, message, skip_users or [])])


def to_lobby(message: dict[str, Any], *, skip_users: list[int] | None = None) -> None:
    send_on_commit(LOBBY_GROUP, message, skip_users=skip_users)


def to_user(user_id: int, message: dict[str, Any]) -> None:
    send_on_commit(user_group(user_id), message)
