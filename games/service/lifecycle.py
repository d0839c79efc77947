"""A game's life besides its moves: a player forfeiting or going away, a game adjourned when its
people have all gone, resumed when one comes back, or aborted.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.core.errors import Conflict, Forbidden, NotFound
from games.models import Game, Seat, Status
from games.service import clocks, move_sql, moves, push
from games.state import replay as state


def _users_at(game_id: int) -> list[int]:
    """The users seated at a game: a lobby message about it reaches them even when they do not
    follow the lobby (games/service/push.py, ``to_lobby``)."""
    return list(Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True))


def forfeit(game: Game, seat: Seat) -> None:
    """A player left a game in progress: the server plays for them from now on. Called inside the
    caller's transaction with the row locked; the first step is played here, the rest is due at
    once (``moves.play_due``, or the sweeper)."""
    if seat.forfeited:
        raise Forbidden("Forfeited", "you have already left this game")
    seat.forfeited = True
    seat.save(update_fields=["forfeited"])
    entry = moves.current(game)
    for cached in entry.seats:
        if cached.position == seat.position:
            cached.forfeited = True
    _seats_changed(game, entry)
    start = len(entry.history)
    push.to_lobby({"type": "PlayerForfeited", "game": game.id, "user": seat.user_id, "position": seat.position},
                  game=game.id, users=_users_at(game.id))
    events = moves.auto_play(game, entry)
    moves.commit(game, entry, events, start)


def _seats_changed(game: Game, entry: state.Replayed) -> None:
    """A seat's flags changed with no move: other processes' cached entries of this seq still have
    the old flags (they would not play a seat the server now plays), so the row's setup_version
    (unused once a game has started) moves on, and they rebuild."""
    game.setup_version += 1
    game.save(update_fields=["setup_version"])
    entry.version = game.setup_version


def set_away(game_id: int, user: User, away: bool) -> bool:
    """``user``'s client went away from a game in progress without leaving it (``away``), or came
    back. While away, the server plays the seat's default moves, flagged auto-played, as a
    forfeited seat's: majiang-server answers for a disconnected player the same way, and the game
    goes on for the others. Unlike a forfeit it is taken back: back, the player decides again.
    True if anything changed; a seat that left for good (forfeited) stays so."""
    with state.engine_cache.writing(game_id), transaction.atomic():
        game = move_sql.locked_game(game_id)
        if game is None:
            raise NotFound("UnknownGame", f"no game {game_id}")
        if game.status != Status.ACTIVE:
            return False
        seat = game.seats.filter(user_id=user.id).exclude(position=None).first()
        if seat is None:
            raise Forbidden("NotInGame", "you are not playing in this game")
        if seat.forfeited or seat.away == away:
            return False
        seat.away = away
        seat.save(update_fields=["away"])
        entry = moves.current(game)
        for cached in entry.seats or []:
            if cached.position == seat.position:
                cached.away = away
        _seats_changed(game, entry)
        start = len(entry.history)
        events = moves.auto_play(game, entry) if away else []
        moves.commit(game, entry, events, start)
    if away:
        moves.play_due(game_id)  # what is due for the seat now, in bounded steps of their own
    return True


def abort(game_id: int, *, adjourned_since: int | None = None) -> Game:
    """End a game unfinished (staff, or an abandoned game: ``adjourned_since``, the absence the
    abandon watch saw, aborts it only if it is still adjourned from that same absence)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None:
            raise NotFound("UnknownGame", f"no game {game_id}")
        if game.is_over:
            raise Conflict("GameNotActive", "the game is already over")
        if adjourned_since is not None and (game.status != Status.ADJOURNED
                                            or game.absent_since_ms != adjourned_since):
            raise Conflict("GameResumed", "a player came back to the game")
        game.status = Status.ABORTED
        game.ended = timezone.now()
        game.save(update_fields=["status", "ended"])
        push.to_lobby({"type": "GameInactive", "game": game.id, "status": game.status},
                      game=game.id, users=_users_at(game.id))
    return game


def note_absent(game_id: int, since: int) -> bool:
    """Record that none of the game's people is connected since ``since`` (the abandon watch,
    games/service/abandon.py); kept if an earlier moment is already recorded. True if recorded now."""
    return bool(Game.objects.filter(id=game_id, status__in=[Status.ACTIVE, Status.ADJOURNED], absent_since_ms=None)
                .update(absent_since_ms=since))


def adjourn(game_id: int, absent_since: int, seq: int, gone_since: int) -> bool:
    """Stop an untimed game whose people all went away (games/service/abandon.py decides when): moves are
    refused (``GameAdjourned``) and nothing is played for its seats until one of them comes back
    (``resume``). Only if nothing changed since the watch looked: the same absence and no move
    since (``seq``). The absence is then stored as ``gone_since`` (the later of it and their last
    move), which the abort counts from. True if it was adjourned."""
    with state.engine_cache.writing(game_id), transaction.atomic():
        game = move_sql.locked_game(game_id)
        if (game is None or game.status != Status.ACTIVE or clocks.is_timed(game)
                or game.absent_since_ms != absent_since or game.seq != seq):
            return False
        game.status = Status.ADJOURNED
        game.absent_since_ms = gone_since
        game.save(update_fields=["status", "absent_since_ms"])
        push.to_lobby({"type": "GameAdjourned", "game": game.id, "status": game.status},
                      game=game.id, users=_users_at(game.id))
    return True


def resume(game_id: int) -> bool:
    """One of the game's people is back: an adjourned game is in progress again, exactly where it
    stopped, and the absence is forgotten. True if the game was adjourned."""
    with state.engine_cache.writing(game_id), transaction.atomic():
        game = move_sql.locked_game(game_id)
        if game is None or game.status not in (Status.ACTIVE, Status.ADJOURNED):
            return False
        adjourned = game.status == Status.ADJOURNED
        if not adjourned and game.absent_since_ms is None:
            return False
        game.status = Status.ACTIVE
        game.absent_since_ms = None
        game.save(update_fields=["status", "absent_since_ms"])
        if adjourned:
            push.to_lobby({"type": "GameResumed", "game": game.id, "status": game.status},
                          game=game.id, users=_users_at(game.id))
    if adjourned:
        moves.play_due(game_id)  # a house bot's turn that was due when play stopped
    return adjourned
