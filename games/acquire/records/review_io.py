"""Acquire game reviews in and out of the platform's tables.

``import_review`` stores a review (the seed's array) as a finished ``Game`` with its seats and
action log, exactly as if it had been played here. ``review_for_game`` writes the review array of
a stored game, for download.

A stored game is rebuilt by ``games.state.replay`` from ``Game.seed`` through ``AcquireGame.create``.
An imported bag cannot be drawn from a seed, so the import keeps it in ``Game.rules["tile_bag"]``
(and the host's seat in ``rules["host_seat"]`` when it is not 0), which ``create`` honours; the
seed is then 0. Actions the review has no time for get one fixed time, the moment of import,
remembered as ``rules["imported"]["untimed_ms"]`` so that the export can leave them untimed again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from django.db import transaction

from accounts.imported import user_named
from games.acquire.engine.game import AcquireGame
from games.acquire.engine.review import Review, ReviewAction, emit_review, parse_review
from games.core.registry import get_game_type
from games.models import Action, Game, Seat, Status
from games.records import store
from games.state import replay as state

GAME_TYPE = "acquire"
# The stored record's format: seed 003's review array, as this module writes it.
REVIEW_FORMAT = "acquire-review"
REVIEW_VERSION = 1


def _moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def import_review(data: Sequence[Any], *, imported_at_ms: int | None = None) -> Game:
    """Store a finished game from its review array; raises ``ValueError`` if it is not one.

    Every action's type and seat come from replaying it (the array carries only parameters), so
    an illegal action refuses the whole import.
    """
    review = parse_review(data)
    game_type = get_game_type(GAME_TYPE)
    assert game_type is not None
    mode = game_type.mode(review.mode)
    if mode is None:
        raise ValueError(f"Acquire has no mode {review.mode}")
    if len(review.usernames) != mode.seats or len(set(review.usernames)) != mode.seats:
        raise ValueError(f"{mode.name} needs {mode.seats} different players, the review names {review.usernames}")
    host_seat = review.host_seat
    engine = AcquireGame.from_tile_bag(mode, review.tile_bag, host=host_seat)
    steps: list[tuple[int, str]] = []
    history_size = 0
    for index, action in enumerate(review.actions):
        seat, kind = engine.decision
        try:
            history_size += len(engine.apply(seat, kind, action.params))
        except Exception as error:  # Rejection, or params of the wrong shape
            raise ValueError(f"action {index} ({kind} {action.params!r}) is illegal: {error}") from None
        steps.append((seat, kind))
    if not engine.is_over:
        raise ValueError("the review's game is not over; only finished games can be imported")

    untimed_ms = imported_at_ms if imported_at_ms is not None else time.time_ns() // 1_000_000
    known = {a.timestamp_ms for a in review.actions if a.timestamp_ms is not None}
    while untimed_ms in known:  # the marker must never equal a real time
        untimed_ms += 1
    stamps = [a.timestamp_ms if a.timestamp_ms is not None else untimed_ms for a in review.actions]
    rules: dict[str, Any] = {"tile_bag": review.tile_bag}
    if host_seat:
        rules["host_seat"] = host_seat
    if len(known) < len(review.actions):
        rules["imported"] = {"untimed_ms": untimed_ms}

    with transaction.atomic():
        users = [user_named(name) for name in review.usernames]
        first = _moment(stamps[0] if stamps else untimed_ms)
        last = _moment(stamps[-1] if stamps else untimed_ms)
        game = Game.objects.create(
            game_type=GAME_TYPE,
            mode=mode.id,
            arrangement=review.arrangement,
            host=users[host_seat],
            status=Status.FINISHED,
            rated=False,  # an imported game is casual: it was not played here (docs/ratings.md)
            seed=0,
            rules=rules,
            time_start=review.time_start_s,
            time_increment=review.time_increment_s,
            seq=len(steps),
            history_size=history_size,
            result=engine.result(),
            started=first,
            ended=last,
        )
        Game.objects.filter(id=game.id).update(created=first)  # auto_now_add ignores a given value
        game.created = first
        Seat.objects.bulk_create(
            Seat(game=game, user=user, slot=p, position=p, team=mode.team_of(p), accepted=True)
            for p, user in enumerate(users)
        )
        Action.objects.bulk_create(
            Action(
                game=game,
                seq=i + 1,
                seat=seat,
                type=kind,
                params=action.params,
                timestamp_ms=stamps[i],
                auto=action.auto,
            )
            for i, ((seat, kind), action) in enumerate(zip(steps, review.actions))
        )
    return game


def review_for_game(game: Game) -> list[Any]:
    """The seed's review array of a stored Acquire game (ids and names are this site's), as stored
    when the game ended (``GameRecord.document``).

    The array holds the whole tile bag, so it is only for games that are over.
    """
    if game.game_type != GAME_TYPE:
        raise ValueError(f"game {game.id} is {game.game_type}, not Acquire")
    if game.seed is None or not game.is_over:
        raise ValueError(f"game {game.id} is not over; its review would reveal the tile bag")
    return store.native_record(game)


def native_record(game: Game, engine: AcquireGame, seats: Sequence[Seat]) -> tuple[str, int, list[Any]]:
    """The review array of a game that is over, for ``GameRecord`` (``GameType.record_path``).
    ``engine`` is the game at its end; the array wants the bag as it was before the first draw,
    which only a fresh engine on the seed still holds (making one replays nothing)."""
    start = state.new_engine(game)
    assert isinstance(start, AcquireGame)
    user_ids = [s.user_id for s in seats]
    untimed = (game.rules.get("imported") or {}).get("untimed_ms")
    actions = [
        ReviewAction(params, None if stamp == untimed else stamp, auto)
        for params, stamp, auto in game.actions.order_by("seq").values_list("params", "timestamp_ms", "auto")
    ]
    review = Review(
        mode=game.mode,
        arrangement=game.arrangement,
        time_start_s=game.time_start,
        time_increment_s=game.time_increment,
        user_ids=user_ids,
        usernames=[s.user.username for s in seats],
        host_user_id=game.host_id if game.host_id is not None else user_ids[start.host],
        tile_bag=start.tile_bag,
        actions=actions,
    )
    return REVIEW_FORMAT, REVIEW_VERSION, emit_review(review)


__all__ = ["import_review", "native_record", "review_for_game"]
