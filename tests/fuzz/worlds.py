"""The worlds generated input meets: built afresh (empty database, reset ids) for every example."""

from __future__ import annotations

from typing import Any

from django.test import Client as HttpClient

from accounts.models import User
from accounts.tokens import token_for
from games.models import Game
from games.service import chat, lifecycle, lobby, reads
from tests.fuzz.support import World, cached_world, legal_moves

PASSWORD = "secret-pw"


def _user(name: str) -> User:
    return User.objects.create_user(username=name, password=PASSWORD)


def _started(host: User, guest: User, game_type: str, mode: int = 2, rules: dict[str, Any] | None = None) -> int:
    game = lobby.create_table(host, game_type, mode, rules=rules)
    lobby.join(guest, game.id)
    lobby.accept(host, game.id)
    lobby.accept(guest, game.id)
    return game.id


def lobby_world() -> World:
    return cached_world("lobby", _lobby_world)


def _lobby_world() -> World:
    """The fuzzing user ``me`` hosts a table (``friend`` at it, two seats free), may join
    ``stranger``'s cribbage table, plays an Acquire game and a cribbage game, and sees an aborted
    table; a little chat exists."""
    me, friend, stranger = _user("me"), _user("friend"), _user("stranger")
    my_table = lobby.create_table(me, "acquire", 4)
    lobby.join(friend, my_table.id)
    their_table = lobby.create_table(stranger, "cribbage", 2)
    live = _started(me, friend, "acquire")
    cribbage_live = _started(me, stranger, "cribbage", rules={"counting": "manual"})
    aborted = lobby.create_table(stranger, "acquire", 2)
    lifecycle.abort(aborted.id)
    chat.post_chat(friend, my_table.id, "hello")
    chat.post_chat(stranger, None, "anyone?")
    world = World(users={"me": me, "friend": friend, "stranger": stranger})
    world.values.update({
        "me": me.username, "friend": friend.username, "password": PASSWORD,
        "me_id": me.id, "friend_id": friend.id, "stranger_id": stranger.id,
        "me_token": token_for(me), "friend_token": token_for(friend), "stranger_token": token_for(stranger),
        "my_table": my_table.id, "their_table": their_table.id, "live": live, "cribbage_live": cribbage_live,
        "aborted": aborted.id, "live_seq": reads.snapshot(Game.objects.get(id=live), me)["v"],
    })
    world.legal = legal_moves(live, me) + legal_moves(cribbage_live, me)
    browser = HttpClient()
    browser.force_login(me)
    world.values["cookie"] = f"sessionid={browser.cookies['sessionid'].value}"
    return world


SCENARIOS = ["new", "join", "game", "manual_game"]


def cribbage_world(scenario: str) -> World:
    return cached_world(f"cribbage-{scenario}", lambda: _cribbage_world(scenario))


def _cribbage_world(scenario: str) -> World:
    """``ann`` fuzzes; ``bob`` is online (a lobby connection the test opens) and ``cat`` hosts a table.

    - new: no cribbage table: ann's link opens one and is its control client.
    - join: cat's table waits for a second player: ann's link joins it.
    - game / manual_game: ann and bob play (automatic / manual counting); ann's link takes her seat.
    """
    ann, bob, cat = _user("ann"), _user("bob"), _user("cat")
    world = World(users={"ann": ann, "bob": bob, "cat": cat})
    world.values.update({"nick": ann.username, "other_nick": bob.username, "token": token_for(ann),
                         "other_token": token_for(bob), "bob_token": token_for(bob), "table": None})
    if scenario == "join":
        world.values["table"] = lobby.create_table(cat, "cribbage", 2).id
    elif scenario in ("game", "manual_game"):
        rules = {"counting": "manual", "variants": "D"} if scenario == "manual_game" else None
        world.values["table"] = _started(ann, bob, "cribbage", rules=rules)
    return world
