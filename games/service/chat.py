"""Chat at tables and in the lobby: posting, and the recent messages a (re)connecting client gets."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from games.core import limits
from games.core.errors import GameError, NotFound
from games.core.validation import is_encodable
from games.models import ChatMessage, Game, Seat
from games.service import push
from games.service.chat_cache import RecentChatCache

# How much chat a (re)connecting client gets with Greetings or a Snapshot.
RECENT_CHAT = 50
# The recent chat of tables, per process, checked against each table's ``chat_version``.
chat_cache = RecentChatCache()


def post_chat(user: User, game_id: int | None, text: str) -> dict[str, Any]:
    if not isinstance(text, str) or not text.strip():
        raise GameError("InvalidChat", "a chat message needs some text")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise GameError("ChatTooLong", f"chat messages are at most {ChatMessage.MAX_LENGTH} characters")
    if "\x00" in text or not is_encodable(text):
        raise GameError("InvalidChat", "chat must be valid Unicode text without NUL")
    limits.chat(user.id)
    with transaction.atomic():
        if game_id is not None and not Game.objects.filter(id=game_id).exists():
            raise NotFound("UnknownGame", f"no game {game_id}")
        message = ChatMessage.objects.create(user=user, game_id=game_id, text=text)
        payload = {"type": "Chat", **chat_item(message)}
        if game_id is None:
            push.to_lobby(payload)
        else:
            # A table's chat is the table's business: its players and spectators, not the lobby.
            push.to_game(game_id, list(Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True)),
                         payload)
    return payload


def chat_item(message: ChatMessage) -> dict[str, Any]:
    return {"game": message.game_id, "id": message.id, "user": message.user_id,
            "username": message.user.username, "text": message.text, "at": message.created.isoformat()}


def table_chat(game: Game) -> list[dict[str, Any]]:
    """``recent_chat`` of a table, as of the given row (kept per process, see chat_cache)."""
    return chat_cache.get(game.id, game.chat_version, lambda: recent_chat(game.id))


def recent_chat(game_id: int | None, limit: int = RECENT_CHAT) -> list[dict[str, Any]]:
    """The last messages of a table's chat (or the lobby's), oldest first."""
    latest = ChatMessage.objects.filter(game_id=game_id).select_related("user").order_by("-id")[:limit]
    return [chat_item(m) for m in reversed(latest)]
