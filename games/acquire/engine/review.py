"""The seed's game review array: parse it, write it, and replay it into a finished game.

The array is ``[mode, arrangement, time_start_s|null, time_increment_s, user_ids, usernames,
host_user_id, tile_bag, actions]``. Each action is ``[params]``, optionally followed by a
timestamp and by ``1`` when the server played it automatically. The format carries only
parameters; an action's type is whatever decision the game is waiting for, so replay asks the
engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.acquire.engine.game import AcquireGame


@dataclass(slots=True)
class ReviewAction:
    params: list[Any]
    timestamp_ms: int | None = None  # absolute (ms since the Unix epoch) once parsed
    auto: bool = False  # played by the server after a time-out or forfeit


@dataclass(slots=True)
class Review:
    mode: int
    arrangement: int
    time_start_s: int | None
    time_increment_s: int
    user_ids: list[int]
    usernames: list[str]
    host_user_id: int
    tile_bag: list[int]
    actions: list[ReviewAction] = field(default_factory=list)

    @property
    def host_seat(self) -> int:
        return self.user_ids.index(self.host_user_id) if self.host_user_id in self.user_ids else 0


def parse_review(data: Sequence[Any]) -> Review:
    """Read the review array; timestamps become absolute, whatever form they were stored in.

    A timestamp is ms since the epoch for the first timestamped action and ms since the previous
    action after that. An automatically played action without a timestamp is written
    ``[params, null, 1]``; ``[params, 1]`` is read as a timestamp, never as the flag.
    """
    if not isinstance(data, (list, tuple)) or len(data) != 9:
        raise ValueError("a game review is an array of 9 items")
    mode, arrangement, time_start, time_increment, user_ids, usernames, host, bag, raw = data
    actions: list[ReviewAction] = []
    previous: int | None = None
    for entry in raw:
        if not isinstance(entry, (list, tuple)) or not 1 <= len(entry) <= 3:
            raise ValueError(f"bad game action entry {entry!r}")
        stamp = entry[1] if len(entry) >= 2 else None
        if stamp is not None:
            stamp = stamp + previous if previous is not None else stamp
        auto = len(entry) == 3 and entry[2] == 1
        actions.append(ReviewAction(list(entry[0]), stamp, auto))
        previous = stamp
    return Review(
        mode, arrangement, time_start, time_increment, list(user_ids), list(usernames), host, list(bag), actions
    )


def emit_review(review: Review) -> list[Any]:
    """The review array for ``review`` (the inverse of ``parse_review``)."""
    raw: list[list[Any]] = []
    previous: int | None = None
    for action in review.actions:
        entry: list[Any] = [action.params]
        stamp = action.timestamp_ms
        if stamp is not None:
            entry.append(stamp - previous if previous is not None else stamp)
        elif action.auto:
            entry.append(None)
        if action.auto:
            entry.append(1)
        raw.append(entry)
        previous = stamp
    return [
        review.mode,
        review.arrangement,
        review.time_start_s,
        review.time_increment_s,
        review.user_ids,
        review.usernames,
        review.host_user_id,
        review.tile_bag,
        raw,
    ]


def replay(review: Review | Sequence[Any], action_types: Sequence[str] | None = None) -> AcquireGame:
    """Play every action of a review on a fresh game and return the game.

    Each action is applied as the decision the game is waiting for. With ``action_types`` (the
    reference's own record of each action's type) every step is checked against it, and a
    mismatch raises ``ValueError`` naming the first action that disagrees.
    """
    parsed = review if isinstance(review, Review) else parse_review(review)
    game = AcquireGame.from_tile_bag(parsed.mode, parsed.tile_bag, host=parsed.host_seat)
    if action_types is not None and len(action_types) != len(parsed.actions):
        raise ValueError(f"{len(parsed.actions)} actions but {len(action_types)} action types")
    for index, action in enumerate(parsed.actions):
        seat, expected = game.decision
        if action_types is not None and action_types[index] != expected:
            raise ValueError(f"action {index}: the game expects {expected}, the record says {action_types[index]}")
        game.apply(seat, expected, action.params)
    return game


def review_of(
    game: AcquireGame,
    *,
    user_ids: Sequence[int] | None = None,
    usernames: Sequence[str] | None = None,
    host_user_id: int | None = None,
    arrangement: int = 2,
    time_start_s: int | None = None,
    time_increment_s: int = 0,
    timestamps_ms: Sequence[int | None] | None = None,
    auto: Sequence[bool] | None = None,
) -> Review:
    """The review of a game played on this engine (the platform supplies who sat where)."""
    ids = list(user_ids) if user_ids is not None else list(range(1, game.seats + 1))
    names = list(usernames) if usernames is not None else [f"player{i}" for i in ids]
    log = game.action_log
    actions = [
        ReviewAction(
            params,
            timestamps_ms[i] if timestamps_ms is not None else None,
            bool(auto[i]) if auto is not None else False,
        )
        for i, (_, _, params) in enumerate(log)
    ]
    return Review(
        game.mode.id,
        arrangement,
        time_start_s,
        time_increment_s,
        ids,
        names,
        host_user_id if host_user_id is not None else ids[game.host],
        game.tile_bag,
        actions,
    )
