"""Bot levels (docs/bots.md, "Bot levels"): a host seats a riichi bot of a chosen level, its account
names the level, and the server plays each bot seat with its own level's chooser."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core import bots
from games.core.errors import GameError
from games.core.registry import get_game_type
from games.models import Action, Seat, Status
from games.riichi.bots.levels import LEVELS
from games.service import door, lobby, presence

pytestmark = pytest.mark.django_db(transaction=True)

RIICHI = get_game_type("riichi")


def usernames(game_id: int) -> list[str]:
    return [s.user.username for s in Seat.objects.filter(game_id=game_id).select_related("user").order_by("slot")]


def test_an_account_names_its_chooser():
    for level, choose in LEVELS.items():
        assert bots.level_of(RIICHI, f"house-{level}-12") == level
        assert bots.chooser(RIICHI, f"house-{level}-12") is choose
    # The default house bot, an mjai bot's account, and names that only look like a level's.
    for username in ("house-bot-1", "mjai-rulebase-1", "house-expert-1", "house-strong-", "house-strong-x",
                     "strong-1", "house-strong"):
        assert bots.level_of(RIICHI, username) is None, username
        assert bots.chooser(RIICHI, username) is RIICHI.bot(), username
    acquire = get_game_type("acquire")
    assert bots.level_of(acquire, "house-strong-1") is None and bots.chooser(acquire, "house-strong-1") is acquire.bot()
    assert bots.levels_by_type() == {"riichi": ["beginner", "intermediate", "strong"]}


def test_each_level_seats_its_own_accounts(make_user):
    alice = make_user()
    game = lobby.create_table(alice, "riichi", 4)
    lobby.add_bot(alice, game.id, "strong")
    lobby.add_bot(alice, game.id, "strong")
    lobby.add_bot(alice, game.id, "beginner")
    assert usernames(game.id) == [alice.username, "house-strong-1", "house-strong-2", "house-beginner-1"]
    other = lobby.create_table(make_user(), "riichi", 4)
    lobby.add_bot(other.host, other.id, "intermediate")
    lobby.add_bot(other.host, other.id)  # left out: the default house bot, as before levels
    assert usernames(other.id)[1:] == ["house-intermediate-1", "house-bot-1"]


@pytest.mark.parametrize("game_type, bot, listed", [
    ("riichi", "expert", "beginner, intermediate, strong, mjai:rulebase"),
    ("riichi", "level:strong", "beginner, intermediate, strong"),
    ("riichi", "Strong", "strong"),
    ("acquire", "strong", None),
])
def test_an_unknown_level_is_refused_and_nothing_changes(make_user, settings, game_type, bot, listed):
    settings.MJAI_BOTS = {"rulebase": "python bot.py {seat}"}
    alice = make_user()
    game = lobby.create_table(alice, game_type, 4)
    with pytest.raises(GameError) as refused:
        lobby.add_bot(alice, game.id, bot)
    assert refused.value.code == "UnknownBot" and repr(bot) in refused.value.reason
    if listed is None:
        assert refused.value.reason.endswith("leave bot out for the house bot")
    else:
        assert listed in refused.value.reason
    assert usernames(game.id) == [alice.username]
    assert not Seat.objects.filter(user__username__startswith="house-").exists()


def test_every_bot_plays_with_its_own_levels_chooser(make_user, monkeypatch):
    """A table of one bot of each level and a person who went away (the server plays the person's
    seat by its default moves) plays to the end; each bot seat's every decision is its level's."""
    played: Counter[str] = Counter()

    def recording(level: str):
        choose = LEVELS[level]

        def chooser(view, legal, rng):
            played[level] += 1
            return choose(view, legal, rng)
        return chooser

    for level in LEVELS:
        monkeypatch.setitem(LEVELS, level, recording(level))
    alice = make_user()
    game = lobby.create_table(alice, "riichi", 4, rules={"preset": "tenhou-east"})
    for level in LEVELS:
        lobby.add_bot(alice, game.id, level)
    door.accept(alice, game.id)
    door.set_away(game.id, alice, True)
    door.play_due(game.id)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    by_level = {s.user.username.split("-")[1]: s.position for s in Seat.objects.filter(game=game, user__is_bot=True)}
    moves = Counter(Action.objects.filter(game=game).exclude(auto=True).values_list("seat", flat=True))
    assert set(by_level) == set(LEVELS)
    for level, position in by_level.items():
        # Every move of the seat was its level's choice, and that level chose for no other seat.
        assert played[level] == moves[position] > 0, (level, played, moves)
    assert not Action.objects.filter(game=game, seat__in=by_level.values(), auto=True).exists()



def test_an_mjai_bot_decides_over_its_link_and_the_house_bot_plays_it_only_while_away(make_user, settings,
                                                                                     monkeypatch):
    """An operator's mjai bot is a client (its bridge): the server does not play its seat while it
    may still come, and plays it as the house bot once its bridge is gone (the seat is away)."""
    import asyncio
    from pathlib import Path

    from games.riichi.transport.mjai_house import Supervisor

    settings.MJAI_BOTS = {"rulebase": "python bot.py {seat}"}
    alice = make_user()
    game = lobby.create_table(alice, "riichi", 4, rules={"preset": "tenhou-east"})
    lobby.add_bot(alice, game.id, "mjai:rulebase")
    lobby.add_bot(alice, game.id)
    lobby.add_bot(alice, game.id)
    door.accept(alice, game.id)
    door.set_away(game.id, alice, True)  # alice's seat is played by the server too
    door.play_due(game.id)
    mjai = Seat.objects.get(game=game, user__username="mjai-rulebase-1")
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and not mjai.away
    # The game got as far as the mjai seat's first decision and waits there for its bridge.
    waiting_at = game.seq
    door.play_due(game.id)
    game.refresh_from_db()
    assert game.seq == waiting_at and not Action.objects.filter(game=game, seat=mjai.position).exists()
    # The operator no longer runs that bot: the supervisor marks the seat away, and it is played.
    settings.MJAI_BOTS = {}
    # This process runs the supervisor (with PostgreSQL + Redis, the live server process of the
    # smallest id does; none is registered here).
    monkeypatch.setattr(presence, "leads", lambda: True)
    asyncio.run(Supervisor(port=0, log_dir=Path(".")).tick())
    door.play_due(game.id)
    game.refresh_from_db()
    mjai.refresh_from_db()
    assert mjai.away and game.status == Status.FINISHED
    moves = Action.objects.filter(game=game, seat=mjai.position)
    assert moves.exists() and not moves.filter(auto=True).exists()  # the house bot's own choices
