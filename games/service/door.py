"""The one door into the game service: every transport (the WebSocket and TCP consumers, socket.io,
REST, the admin, management commands) sets up tables, applies moves and reads views through this
module, and nothing else of ``games.service`` but presence (who is connected) and the pushes' group
names. Behind it: ``lobby`` (table set-up), ``moves`` (the write path), ``reads`` (history, Snapshots,
replay steps), ``lifecycle`` (forfeit, away, adjourn, resume, abort), ``chat``, ``ratings``, ``play_now`` (the
queue) and the stored records.
"""

from __future__ import annotations

import asyncio
from typing import Any

from accounts.models import User
from games.core import db
from games.core.errors import NotFound
from games.models import Game
from games.records import native
from games.records.store import native_record, rebuild_record, stored_record
from games.records.store import verify as verify_record
from games.service import clocks, move_sql, moves, reads, window
from games.service.abandon import came_back
from games.service.chat import post_chat, recent_chat, table_chat
from games.service.clocks import describe as describe_clocks
from games.service.clocks import describe_control, per_decision
from games.service.clocks import label as clock_label
from games.service.lifecycle import abort, resume, set_away
from games.service.lobby import (
    MAX_CLOCK_SECONDS,
    MAX_SPECTATOR_DELAY,
    MJAI_PREFIX,
    RESERVED_RULES,
    accept,
    add_bot,
    change_arrangement,
    change_mode,
    close_orphaned,
    configure,
    create_table,
    join,
    kick,
    leave,
    remove_player,
    setup_state,
)
from games.service.moves import Hold, apply_action, apply_action_in_time, play_due
from games.service.play_now import join as play_now
from games.service.play_now import leave as leave_play_now
from games.service.play_now import status as play_now_status
from games.service.ratings import ACTIVE_DAYS as RATING_ACTIVE_DAYS
from games.service.ratings import HISTORY_LIMIT as RATING_HISTORY_LIMIT
from games.service.ratings import (
    LEADERBOARD_LIMIT,
    MAX_LEADERBOARD_LIMIT,
    PLAYER_KINDS,
    leaderboard,
    player_ratings,
    shown_ratings,
)
from games.service.ratings import game_changes as game_rating_changes
from games.service.ratings import history as rating_history
from games.service.ratings import rebuild as rebuild_ratings
from games.service.ratings import verify as verify_ratings
from games.service.reads import history, replay_step, seat_view, snapshot, viewer_position
from games.service.review import document as review_document
from games.service.review import request as request_review
from games.service.review import reviewed_seats
from games.service.review import status as review_status
from games.service.sweeper import ensure_running as ensure_sweeper

__all__ = [
    "answered", "came_back", "clock_label", "describe_clocks", "describe_control", "ensure_sweeper", "game_row",
    "has_record", "per_decision", "verify_record", "RATING_ACTIVE_DAYS", "LEADERBOARD_LIMIT", "MAX_LEADERBOARD_LIMIT",
    "PLAYER_KINDS", "game_rating_changes", "leaderboard", "player_ratings", "rebuild_ratings", "verify_ratings",
    "RATING_HISTORY_LIMIT", "rating_history", "shown_ratings", "play_now", "leave_play_now", "play_now_status",
    "MJAI_PREFIX", "request_review", "review_document", "review_status", "reviewed_seats",
    "MAX_CLOCK_SECONDS", "MAX_SPECTATOR_DELAY", "RESERVED_RULES", "Hold", "abort", "accept", "act", "act_async",
    "act_in_time", "add_bot", "apply_action", "apply_action_in_time", "change_arrangement", "change_mode",
    "close_orphaned", "configure", "create_table", "history", "join", "kick", "leave", "native_record", "play_due",
    "post_chat", "rebuild_record", "recent_chat", "remove_player", "replay_step", "resume", "seat_view",
    "set_away", "setup_state", "snapshot", "snapshot_for", "stored_record", "table_chat", "viewer_position",
]


def snapshot_for(user: User, game_id: int, start: int = 0) -> dict[str, Any]:
    game = move_sql.game(game_id)
    if game is None:
        raise NotFound("UnknownGame", f"no game {game_id}")
    return reads.snapshot(game, user, start)


def act(user: User, game_id: int, seat: int | None, action_type: str, params: list[Any],
        answers: int | None, arrived: int | None = None) -> dict[str, Any]:
    """Apply an action for ``user``. A client may name the seat it believes it plays; naming
    another player's seat is refused (by the service, from the seats it has at hand), so nobody
    can act for somebody else."""
    return moves.apply_action(game_id, user, action_type, params, answers, seat=seat, arrived=arrived)


def act_in_time(user: User, game_id: int, seat: int | None, action_type: str, params: list[Any],
                answers: int | None) -> dict[str, Any]:
    """``act`` for a caller that may wait in its own thread (REST): a held answer (the last of a
    decision window, come too soon, ``moves.Hold``) is slept on and sent again."""
    return moves.apply_action_in_time(game_id, user, action_type, params, answers, seat=seat)


async def act_async(user: User, game_id: int, seat: int | None, action_type: str, params: list[Any],
                    answers: int | None) -> dict[str, Any]:
    """``act`` from an event loop: the database work runs on the database threads, and a held
    answer waits on the loop (never in a database thread, which other tables share)."""
    arrived = clocks.now_ms()
    while True:
        try:
            return await db.call(act, user, game_id, seat, action_type, params, answers, arrived)
        except moves.Hold as held:
            await asyncio.sleep(max(0, held.until_ms - clocks.now_ms()) / 1000)


def game_row(game_id: int) -> Game | None:
    """A game's row as the write path reads it (no lock): what a link checks before it acts."""
    return move_sql.game(game_id)


def answered(game: Game) -> list[int]:
    """The seats whose answer to the open decision window is kept back (games/service/window.py)."""
    return list(window.answered(game))


def has_record(game: Game) -> bool:
    """Whether the game's type writes a native record (a download exists once it is over)."""
    return native.has_format(game)
