"""Who hears the lobby, and how (docs/protocols/lobby.md, "Following the lobby").

A client that follows the lobby (the default of seed 003's Login) receives every lobby message, in
order, the ones of one tick (``LOBBY_TICK_MS``) in one ``LobbyMessages`` frame; one that logged in
with ``"lobby": false`` (a table page, a bot at a table) receives only what concerns it: its own
tables' set-up, start, forfeits and end, the comings and goings of the users at its tables, and the
game it entered. ``SubscribeLobby`` and ``UnsubscribeLobby`` switch between the two.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import transaction

from games.service import door, push
from tests.conftest import unbatch

pytestmark = pytest.mark.django_db(transaction=True)

# Messages about a game, and who connected: the kinds the lobby group carries.
LOBBY_KINDS = {"GameCreated", "UserJoinedGame", "UserLeftGame", "GameModeChanged", "ArrangementChanged",
               "SetupAccepted", "GameStarted", "PlayerForfeited", "GameInactive", "GameAdjourned",
               "GameResumed", "ClientConnected", "ClientDisconnected", "ClientEnteredGame", "Chat"}


async def frames_until_quiet(client, quiet: float = 0.5) -> list[Any]:
    """Every frame the client receives until none comes for ``quiet`` seconds (each as sent)."""
    frames = []
    while not await client.comm.receive_nothing(timeout=quiet):
        frames.append(json.loads(await client.comm.receive_from(timeout=10)))
    return frames


async def log_in(clients, user, **login: Any):
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "username": user.username, "password": "secret-pw",
                       **login})
    greetings = await client.expect("Greetings")
    return client, greetings


def open_tables(hosts, guests) -> list[int]:
    """Two-player Acquire tables, each started (both accepted): one per host, guest."""
    ids = []
    for host, guest in zip(hosts, guests):
        game = door.create_table(host, "acquire", 2)
        door.join(guest, game.id)
        door.accept(host, game.id)
        door.accept(guest, game.id)
        ids.append(game.id)
    return ids


async def test_clients_at_tables_hear_only_their_own_tables(clients, db_call, make_user, settings):
    """100 clients at 50 tables, not following the lobby: while tables are set up, started, chatted
    at and ended around them, and others come and go, each receives nothing about a table it is
    not at, no lobby chat and nobody's coming or going but its table mates'."""
    users = [await db_call(make_user) for _ in range(100)]
    conns = []
    for user in users:
        client, greetings = await log_in(clients, user, lobby=False)
        # Greetings: only what concerns the client (nobody else's table, no lobby chat).
        assert greetings["games"] == [] and greetings["games_being_set_up"] == [] and greetings["chat"] == []
        assert [entry["user"] for entry in greetings["users"]] == [user.id]
        conns.append(client)
    game_ids = await db_call(open_tables, users[0::2], users[1::2])
    table_of = {user.id: game_ids[i // 2] for i, user in enumerate(users)}
    mate_of = {user.id: users[i ^ 1].id for i, user in enumerate(users)}

    # Around them: a lobby follower comes, opens a table, chats in the lobby and at its table;
    # a table ends; a client at a table leaves and comes back.
    outsider, other = await db_call(make_user), await db_call(make_user)
    lobby_client, _ = await log_in(clients, outsider)
    await lobby_client.send({"type": "CreateGame", "game_type": "acquire", "mode": 2})
    elsewhere = (await lobby_client.expect("GameCreated"))["game"]
    await lobby_client.send({"type": "Chat", "game": None, "text": "anyone?"})
    await lobby_client.send({"type": "Chat", "game": elsewhere, "text": "waiting"})
    await db_call(door.join, other, elsewhere)
    await db_call(door.abort, game_ids[-1])
    await conns[0].close()
    conns[0], _ = await log_in(clients, users[0], lobby=False)
    await lobby_client.expect("ClientConnected", user=users[0].id)

    await frames_until_quiet(lobby_client, quiet=1.0)  # the lobby is quiet: so is every push
    heard: dict[int, list[str]] = {}
    for user, client in zip(users, conns):
        mine = table_of[user.id]
        for frame in await frames_until_quiet(client, quiet=0.05):
            assert frame["type"] != "LobbyMessages", frame  # a copy is never held for the lobby's tick
            heard.setdefault(user.id, []).append(frame["type"])
            if frame["type"] == "ClientConnected":
                assert frame["user"] == mate_of[user.id], (user.username, frame)
            elif frame["type"] == "ClientDisconnected":
                assert user.id == users[1].id, (user.username, frame)  # user 0's table mate
            else:
                assert frame.get("game") == mine, (user.username, frame)
    # What concerns them did come: their game's start and first messages, the aborted table's end,
    # and user 0 leaving and coming back to its mate.
    assert all("GameStarted" in heard[u.id] and "GameMessages" in heard[u.id] for u in users[2:])
    assert all("GameInactive" in heard[u.id] for u in users[-2:])
    assert heard[users[1].id][-2:] == ["ClientDisconnected", "ClientConnected"]


async def test_the_comings_and_goings_a_table_hears_are_its_own(clients, db_call, make_user):
    """A client not following the lobby hears its table mate leave and come back, and not a
    stranger."""
    ann, bob, stranger = [await db_call(make_user) for _ in range(3)]
    [game_id] = await db_call(open_tables, [ann], [bob])
    ann_client, _ = await log_in(clients, ann, lobby=False)
    bob_client, _ = await log_in(clients, bob, lobby=False)
    came = await ann_client.expect("ClientConnected")
    assert came["user"] == bob.id
    stranger_client, _ = await log_in(clients, stranger, lobby=False)
    await stranger_client.close()
    await bob_client.close()
    gone = await ann_client.expect("ClientDisconnected")
    assert gone["client"] == came["client"]
    assert not [m for m in await ann_client.drain() if m.get("user") == stranger.id], game_id


async def test_a_lobby_follower_receives_every_lobby_message_in_order_one_frame_a_tick(
        clients, db_call, make_user, settings):
    """Thirty tables opened in one transaction: their GameCreated reach a follower of the lobby in
    the order they were made, together in one frame; a client that does not follow hears none."""
    settings.LOBBY_TICK_MS = 2000  # a burst is surely within one tick, however slow the machine
    watcher, away = await db_call(make_user), await db_call(make_user)
    hosts = [await db_call(make_user) for _ in range(30)]
    follower, _ = await log_in(clients, watcher)
    not_following, _ = await log_in(clients, away, lobby=False)
    await frames_until_quiet(follower)  # the other's ClientConnected

    def burst() -> list[int]:
        with transaction.atomic():
            return [door.create_table(host, "acquire", 2).id for host in hosts]

    made = await db_call(burst)
    frames = await frames_until_quiet(follower, quiet=2.5)
    messages = [message for frame in frames for message in unbatch(frame)]
    assert [m["game"] for m in messages if m["type"] == "GameCreated"] == made
    assert len(frames) == 1 and frames[0]["type"] == "LobbyMessages", [f["type"] for f in frames]
    assert await frames_until_quiet(not_following, quiet=0.3) == []


async def test_without_a_tick_each_lobby_message_is_a_frame(clients, db_call, make_user, settings):
    settings.LOBBY_TICK_MS = 0
    watcher = await db_call(make_user)
    hosts = [await db_call(make_user) for _ in range(3)]
    follower, _ = await log_in(clients, watcher)

    def burst() -> list[int]:
        with transaction.atomic():
            return [door.create_table(host, "acquire", 2).id for host in hosts]

    made = await db_call(burst)
    frames = await frames_until_quiet(follower)
    assert [(f["type"], f["game"]) for f in frames] == [("GameCreated", game_id) for game_id in made]


async def test_a_held_lobby_message_goes_before_what_follows_it(clients, db_call, make_user, settings):
    """A follower seated at a table: GameStarted (held for the lobby's tick) still comes before the
    game's first GameMessages, which are not held."""
    settings.LOBBY_TICK_MS = 2000
    ann, bob = await db_call(make_user), await db_call(make_user)
    ann_client, _ = await log_in(clients, ann)
    game = await db_call(door.create_table, ann, "acquire", 2)
    await db_call(door.join, bob, game.id)
    await db_call(door.accept, bob, game.id)
    await frames_until_quiet(ann_client, quiet=2.5)
    await db_call(door.accept, ann, game.id)
    kinds = [m["type"] for frame in await frames_until_quiet(ann_client) for m in unbatch(frame)]
    assert kinds.index("SetupAccepted") < kinds.index("GameStarted") < kinds.index("GameMessages"), kinds
    assert kinds.count("GameStarted") == 1  # the lobby's, not also its copy to ann's own group


async def test_subscribe_and_unsubscribe(clients, db_call, make_user, settings):
    settings.LOBBY_TICK_MS = 0
    ann, bob = await db_call(make_user), await db_call(make_user)
    client, _ = await log_in(clients, ann, lobby=False)
    open_before = await db_call(door.create_table, bob, "acquire", 2)
    assert await frames_until_quiet(client, quiet=0.3) == []

    await client.send({"type": "SubscribeLobby", "ref": "s"})
    state = await client.expect("LobbySubscribed")
    assert state["ref"] == "s"
    assert [g["game"] for g in state["games_being_set_up"]] == [open_before.id]
    assert {u["user"] for u in state["users"]} >= {ann.id}
    assert set(state) == {"type", "ref", "users", "games_being_set_up", "games", "chat"}
    await client.send({"type": "SubscribeLobby"})
    assert (await client.expect("Error"))["code"] == "AlreadyFollowingLobby"
    opened = await db_call(door.create_table, await db_call(make_user), "acquire", 2)
    assert (await client.expect("GameCreated"))["game"] == opened.id

    await client.send({"type": "UnsubscribeLobby", "ref": 7})
    assert (await client.expect("LobbyUnsubscribed"))["ref"] == 7
    await db_call(door.create_table, await db_call(make_user), "acquire", 2)
    assert await frames_until_quiet(client, quiet=0.3) == []


async def test_a_lobby_flag_that_is_not_a_boolean_is_fatal(clients, db_call, make_user):
    user = await db_call(make_user)
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "username": user.username, "password": "secret-pw",
                       "lobby": "no"})
    reply = await client.expect("FatalError")
    assert reply["code"] == "InvalidMessageFormat" and "lobby" in reply["reason"]


def test_a_lobby_message_about_a_table_reaches_its_users_and_spectators_once():
    """The deliveries of one lobby message: the lobby's group, marked for the tick; a copy to each
    user concerned and to the game's spectators, marked as a copy, passing over those users."""
    deliveries = push.lobby_deliveries({"type": "GameStarted", "game": 7}, game=7, users=[3, 2, 3])
    assert deliveries == [
        (push.LOBBY_GROUP, {"type": "GameStarted", "game": 7}, [], push.LOBBY),
        (push.user_group(2), {"type": "GameStarted", "game": 7}, [], push.LOBBY_COPY),
        (push.user_group(3), {"type": "GameStarted", "game": 7}, [], push.LOBBY_COPY),
        (push.game_group(7), {"type": "GameStarted", "game": 7}, [2, 3], push.LOBBY_COPY),
    ]
    events = push._events(deliveries)
    assert events[0][1][push.LOBBY] and push.LOBBY_COPY not in events[0][1]
    assert all(event[push.LOBBY_COPY] and push.LOBBY not in event for _, event in events[1:])


async def test_a_spectator_not_following_the_lobby_hears_its_table(clients, db_call, make_user):
    ann, bob, watcher = [await db_call(make_user) for _ in range(3)]
    game = await db_call(door.create_table, ann, "acquire", 2)
    client, _ = await log_in(clients, watcher, lobby=False)
    await client.send({"type": "EnterGame", "game": game.id})
    await client.expect("Snapshot")
    await db_call(door.join, bob, game.id)
    assert (await client.expect("UserJoinedGame"))["user"] == bob.id
