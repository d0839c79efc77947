"""The recent chat of tables, kept per process and checked against the table's ``chat_version``.

A Snapshot carries its table's recent chat. Reading it costs a query, and most tables never chat;
a table's row (which the Snapshot has already read) says by its ``chat_version`` whether the
chat changed since it was kept here, so a Snapshot of a table whose chat did not change costs no
query, and one of a table that never chatted costs none either.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

ChatItems = list[dict[str, Any]]


class RecentChatCache:
    # Tables kept, the least recently used dropped first (a dropped one costs one query).
    MAX_ENTRIES = 2000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, tuple[int, ChatItems]] = OrderedDict()

    def get(self, game_id: int, version: int, load: Callable[[], ChatItems]) -> ChatItems:
        """The chat of ``game_id`` at ``version`` (0: never chatted), ``load``-ed when not kept."""
        if version == 0:
            return []
        with self._lock:
            kept = self._entries.get(game_id)
            if kept is not None and kept[0] == version:
                self._entries.move_to_end(game_id)
                return kept[1]
        items = load()
        with self._lock:
            kept = self._entries.get(game_id)
            # Two readers may load at once: the higher version stays.
            if kept is None or kept[0] <= version:
                self._entries[game_id] = (version, items)
                self._entries.move_to_end(game_id)
                while len(self._entries) > self.MAX_ENTRIES:
                    self._entries.popitem(last=False)
        return items

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
