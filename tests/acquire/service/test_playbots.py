"""``manage.py playbots``: complete bot games stored through the lobby and the game service."""

from __future__ import annotations

import io
import secrets

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games.acquire.engine.review import replay as replay_review
from games.acquire.records.review_io import review_for_game
from games.core.engine import Mode
from games.core.registry import GAME_TYPES, GameType
from games.models import Game, Status
from games.service import lobby
from games.state import replay as state

pytestmark = pytest.mark.django_db


def playbots(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("playbots", *args, stdout=out)
    return out.getvalue().splitlines()


def log_of(game: Game) -> list[tuple[int | None, str, list]]:
    return [(a.seat, a.type, a.params) for a in game.actions.order_by("seq")]


def test_plays_and_stores_finished_games() -> None:
    lines = playbots("acquire", "--players", "3", "--games", "2", "--seed", "5")
    games = list(Game.objects.filter(game_type="acquire").order_by("id"))
    assert len(games) == 2 and len(lines) == 3
    assert lines[-1].startswith("2 Acquire games, Singles 3, seed 5")
    for game, line in zip(games, lines):
        assert line.startswith(f"game {game.id}  mode 3  ")
        assert game.status == Status.FINISHED and game.ended is not None
        seqs = list(game.actions.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, game.seq + 1))  # contiguous, nothing missing or doubled
        assert game.actions.first().type == "StartGame"
        rebuilt = state.replay(game)
        assert rebuilt.engine.is_over and rebuilt.engine.result() == game.result
        assert len(rebuilt.history) == game.history_size
        names = sorted(s.user.username for s in game.seats.select_related("user"))
        assert names == ["bot-acquire-1", "bot-acquire-2", "bot-acquire-3"]
        # The stored game's review replays, outside the platform, to the same result.
        assert replay_review(review_for_game(game)).result() == game.result


def test_reuses_bot_users_and_team_modes() -> None:
    playbots("acquire", "--players", "2")
    playbots("acquire", "--mode", "7")
    assert User.objects.filter(username__startswith="bot-acquire-").count() == 4
    team_game = Game.objects.get(mode=7)
    assert team_game.status == Status.FINISHED and "teams" in team_game.result


def test_bot_choices_repeat_for_the_same_seed(monkeypatch) -> None:
    # The lobby draws each game's seed from secrets; fixing it shows the bots' part repeats.
    monkeypatch.setattr(secrets, "randbits", lambda bits: 12345)
    # ... and so is the seating order (which decides, among other things, the host's seat).
    monkeypatch.setattr(lobby._random, "shuffle", lambda seq: None)
    playbots("acquire", "--players", "2", "--seed", "9")
    playbots("acquire", "--players", "2", "--seed", "9")
    first, second = Game.objects.order_by("id")
    assert log_of(first) == log_of(second)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["draughts"], "Draughts has no bot yet"),
        (["chess"], "unknown game type 'chess'"),
        (["acquire", "--players", "7"], "no singles mode for 7 players"),
        (["acquire", "--mode", "12"], "has no mode 12"),
    ],
)
def test_clear_errors(args: list[str], message: str, monkeypatch) -> None:
    # A game type with an engine but no bot yet.
    monkeypatch.setitem(GAME_TYPES, "draughts", GameType("draughts", "Draughts", (Mode(2, "Two players", 2),),
                                                         "games.acquire.engine.game:AcquireGame"))
    with pytest.raises(CommandError, match=message):
        playbots(*args)
    assert not Game.objects.exists()


def test_review_of_a_game_in_progress_is_refused(make_user) -> None:
    alice, bob = make_user(), make_user()
    game = lobby.create_table(alice, "acquire", 2)
    lobby.join(bob, game.id)
    lobby.accept(alice, game.id)
    lobby.accept(bob, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    with pytest.raises(ValueError, match="not over"):
        review_for_game(game)
