"""Abandoned games: when an untimed game whose people have all gone away is adjourned and aborted.

A timed game needs none of this: its clocks run out and the server plays for whoever is gone. An
untimed one would wait for ever, so the abandon watch (started with the clock sweeper,
games/service/sweeper.py) looks every ``ABANDON_CHECK_SECONDS``:

- a game's **people** are its seats that are neither house bots nor forfeited (the server plays
  those anyway); a game without people is left alone, as the server plays it to the end;
- a person is **present** while any connection of theirs is open (``Client`` rows: every page of
  the site and every protocol, in every server process); a move of theirs counts as presence at
  its moment, so a player who plays over REST alone is not taken for gone;
- once none is present the watch records when (``Game.absent_since_ms``); counted from then (or
  from their last move, if later), the game is adjourned after ``ADJOURN_AFTER_SECONDS`` and
  aborted after ``ABORT_AFTER_SECONDS``;
- any of its people connecting again (``returned``, from ``presence.connect``) resumes it, and
  so does one of them acting over REST without any connection (``came_back``: a move, or
  ``POST /api/games/{id}/resume/``).

This module only decides; every change to a game is made by games/service/moves.py, which locks the
row and checks that nothing changed since the watch looked. docs/abandoned-games.md says it all
for operators.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Q

from accounts.models import User
from games.core import validation
from games.core.errors import Forbidden, GameError
from games.models import Action, Client, Game, Seat, Status
from games.service import clocks, lifecycle


@dataclass
class Pass:
    """What one look changed: game ids by what happened to them."""

    noted: list[int] = field(default_factory=list)
    adjourned: list[int] = field(default_factory=list)
    aborted: list[int] = field(default_factory=list)
    resumed: list[int] = field(default_factory=list)


def adjourn_after_ms() -> int:
    return int(settings.ADJOURN_AFTER_SECONDS * 1000)


def abort_after_ms() -> int:
    return int(settings.ABORT_AFTER_SECONDS * 1000)


def check_seconds() -> float:
    return float(settings.ABANDON_CHECK_SECONDS)


def watch(now: int | None = None) -> Pass:
    """One look at every untimed game in progress or adjourned, as of ``now`` (ms since the epoch;
    the present when None). Three queries whatever the number of games, plus one per game in
    progress none of whose people is connected, plus the changes. A game that starts or ends
    between the queries is seen as it is at the next look."""
    now = clocks.now_ms() if now is None else now
    done = Pass()
    watched = Game.objects.filter(status__in=[Status.ACTIVE, Status.ADJOURNED], time_start=None,
                                  time_per_decision=None)
    games = list(watched.values_list("id", "status", "absent_since_ms", "seq"))
    if not games:
        return done
    # The other two queries name the watched games and their people by subquery, not by lists of
    # ids: at a thousand tables, building an IN of 4,000 parameters took the ORM some 50 ms, with
    # the interpreter lock held (every client's frames waited).
    seats = (Seat.objects.filter(game__in=watched.values("id"), forfeited=False, user__is_bot=False)
             .exclude(position=None))
    people: dict[int, dict[int, int]] = defaultdict(dict)  # game -> user -> position
    for game_id, user_id, position in seats.values_list("game_id", "user_id", "position"):
        people[game_id][user_id] = position
    connected = set(Client.objects.filter(user_id__in=seats.values("user_id"))
                    .values_list("user_id", flat=True).distinct())
    for game_id, status, absent_since, seq in games:
        seated = people.get(game_id)
        if not seated:
            continue  # only house bots and forfeited seats: the server plays it out by itself
        if connected & seated.keys():
            if absent_since is not None or status == Status.ADJOURNED:
                if lifecycle.resume(game_id):
                    done.resumed.append(game_id)
            continue
        if absent_since is None:
            if lifecycle.note_absent(game_id, now):
                done.noted.append(game_id)
            continue
        if status == Status.ACTIVE:
            since = max(absent_since, _last_move_ms(game_id, list(seated.values())))
            if now - since < adjourn_after_ms():
                continue
            if not lifecycle.adjourn(game_id, absent_since, seq, since):
                continue  # someone came back or moved meanwhile: the next look sees it
            done.adjourned.append(game_id)
            absent_since = since
        # Adjourned: the absence is counted from the stored moment (nobody can move meanwhile),
        # so an adjourned game waiting for its abort costs no query of its own.
        if now - absent_since >= abort_after_ms():
            try:
                lifecycle.abort(game_id, adjourned_since=absent_since)
            except GameError:
                continue  # resumed or ended meanwhile
            done.aborted.append(game_id)
    return done


def _last_move_ms(game_id: int, positions: list[int]) -> int:
    """When one of the game's people last moved themselves (0: never)."""
    moved = (Action.objects.filter(game_id=game_id, auto=False, seat__in=positions).order_by("-seq")
             .values_list("timestamp_ms", flat=True).first())
    return moved or 0


def returned(user: User) -> list[int]:
    """``user`` connected: every game of theirs that was adjourned goes on, and any absence
    recorded for their games in progress is forgotten. Returns the games resumed. One query when
    there is nothing to do."""
    if user.is_bot:
        return []
    games = (Game.objects.filter(seats__user=user, seats__forfeited=False)
             .filter(Q(status=Status.ADJOURNED) | Q(status=Status.ACTIVE, absent_since_ms__isnull=False))
             .values_list("id", flat=True))
    return [game_id for game_id in list(games) if lifecycle.resume(game_id)]


def came_back(user: User, game_id: int, *, required: bool = False) -> bool:
    """``user`` acts at ``game_id`` over REST, where no connection says they are here (a move, or
    ``POST /api/games/{id}/resume/``): as a connection would, this resumes the game if it is
    adjourned, and forgets an absence recorded for it, when ``user`` is one of its people. True if
    it was adjourned. ``required``: refuse (``NotInGame``) a user who is not one of its people."""
    if not user.is_authenticated or user.is_bot or not 0 < game_id <= validation.MAX_DB_INT:
        mine = False  # (an id no column holds names no game: the move itself says UnknownGame)
    else:
        mine = Seat.objects.filter(game_id=game_id, user=user, forfeited=False).exclude(position=None).exists()
    if not mine:
        if required:
            raise Forbidden("NotInGame", "only a player of this game, who has not left it, can resume it")
        return False
    waiting = Game.objects.filter(id=game_id).filter(
        Q(status=Status.ADJOURNED) | Q(status=Status.ACTIVE, absent_since_ms__isnull=False)).exists()
    return lifecycle.resume(game_id) if waiting else False
