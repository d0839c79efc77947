"""The set-up script of a recorded session (``python -c`` with its text, in the served tree, before
``manage.py serve`` starts): the users, their API tokens and the tables one session plays at, every
id, key and game seed fixed, so that a session's bytes are the same on every run.

It runs inside whichever tree is served, so it imports what both layouts have: the lobby from
``games.service.lobby`` (after the reorganisation into layer packages) or ``games.lobby`` (before).
``WIRE_SESSION`` (the environment) names the session; the last line printed is the JSON of what
the session needs (tokens, game ids).

Games start here, not over the wire: the server draws a new game's seed with ``secrets.randbits``
in its own process, where a test cannot fix it; here the lobby's seed and shuffle are seeded."""

from __future__ import annotations

import hashlib
import json
import os
import random
from types import SimpleNamespace
from typing import Any


def key_of(username: str) -> str:
    """A fixed API token key (64 hex digits) per username: the clients send it on the wire."""
    return hashlib.sha256(f"wire-session-token:{username}".encode()).hexdigest()


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from accounts import tokens
    from accounts.models import ApiToken, User

    try:
        from games.service import lobby
    except ImportError:  # the tree before the reorganisation
        from games import lobby

    call_command("migrate", verbosity=0)
    session = os.environ["WIRE_SESSION"]
    # Seeds and seating order: the lobby's shuffle and its seed draw from one fixed generator.
    rng = random.Random(f"wire:{session}")
    lobby._random = rng
    lobby.secrets = SimpleNamespace(randbits=rng.getrandbits)

    out: dict[str, Any] = {"tokens": {}, "games": {}}

    def user(name: str) -> User:
        made = User.objects.create_user(username=name, password=None)
        key = key_of(name)
        now = timezone.now()
        ApiToken.objects.create(user=made, name="wire", prefix=key[:tokens.PREFIX_LENGTH], digest=tokens.digest(key),
                                created=now, expires=tokens.expiry_from(now))
        out["tokens"][name] = key
        return made

    def started(label: str, host: User, game_type: str, mode: int, bots: int, rules: dict[str, Any] | None = None,
                others: tuple[User, ...] = ()) -> None:
        """A table of ``host``, ``others`` and ``bots`` house bots, everyone accepted: the game starts."""
        game = lobby.create_table(host, game_type, mode, rules=rules)
        for other in others:
            lobby.join(other, game.id)
        for _ in range(bots):
            lobby.add_bot(host, game.id)
        for person in (host, *others):
            lobby.accept(person, game.id)
        game.refresh_from_db()
        assert game.status == "active", game.status
        out["games"][label] = game.id

    if session == "lobby":
        ann = user("ann")
        user("bob")  # a second client: watches, chats, sets a table up
        started("acquire", ann, "acquire", 4, bots=3)
    elif session == "rest":
        rae = user("rae")
        user("ray")  # a spectator of rae's games
        started("acquire", rae, "acquire", 3, bots=2)
        started("cribbage", rae, "cribbage", 2, bots=1)
    elif session == "majiang":
        started("riichi", user("mia"), "riichi", 4, bots=3, rules={"preset": "east"})
    elif session == "sio":
        started("riichi", user("sol"), "riichi", 4, bots=3, rules={"preset": "east"})
    elif session == "ump":
        started("riichi", user("uma"), "riichi", 4, bots=3, rules={"preset": "east"})
    elif session == "mmj":
        started("riichi", user("moe"), "riichi", 4, bots=3, rules={"preset": "east"})
    elif session == "cribbage":
        started("tcp", user("cat"), "cribbage", 2, bots=1)
        started("ws", user("cyd"), "cribbage", 2, bots=1)
    else:
        raise SystemExit(f"no session {session!r}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
