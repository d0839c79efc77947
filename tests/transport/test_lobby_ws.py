"""Seed 003's game set-up rules, driven through real WebSocket connections on the full ASGI app."""

from __future__ import annotations

import pytest

from games.models import Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def table_state(game_id: int) -> dict:
    game = Game.objects.get(id=game_id)
    return {
        "status": game.status, "mode": game.mode, "arrangement": game.arrangement, "host": game.host_id,
        "version": game.setup_version, "seq": game.seq, "actions": game.actions.count(),
        "seats": list(Seat.objects.filter(game=game).order_by("slot").values_list(
            "user_id", "slot", "accepted", "position", "team")),
    }


async def open_table(clients, db_call, make_user, n_users: int, mode: int, names: str = "abcdef"):
    """``n_users`` logged-in clients; the first creates a table and the others join it."""
    users = [await db_call(make_user, f"{names[i]}-user") for i in range(n_users)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": mode})
    created = await conns[0].expect("GameCreated")
    game_id = created["game"]
    for user, conn in zip(users[1:], conns[1:]):
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame", user=user.id)
    return users, conns, game_id


async def accept_all(conns, game_id):
    for conn in conns:
        await conn.send({"type": "AcceptSetup", "game": game_id})


async def test_create_game_announced_to_every_client(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(3)]
    conns = [await clients(u) for u in users]
    await conns[1].send({"type": "CreateGame", "game_type": "acquire", "mode": 4})
    for conn in conns:
        created = await conn.expect("GameCreated")
        assert created["mode"] == 4 and created["host"] == users[1].id
        assert created["setup"]["users"][0]["username"] == users[1].username
        entered = await conn.expect("ClientEnteredGame")
        assert entered["game"] == created["game"]


async def test_create_game_with_rule_options(clients, db_call, make_user):
    host = await clients(await db_call(make_user))
    await host.send({"type": "CreateGame", "game_type": "cribbage", "mode": 3,
                     "rules": {"counting": "manual", "variants": "N"}})
    game_id = (await host.expect("GameCreated"))["game"]
    game = await db_call(Game.objects.get, id=game_id)
    assert (game.game_type, game.mode, game.rules) == ("cribbage", 3, {"counting": "manual", "variants": "N"})


async def test_greetings_lists_users_clients_and_tables(clients, db_call, make_user):
    host, other = await db_call(make_user), await db_call(make_user)
    a = await clients(host)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 3})
    created = await a.expect("GameCreated")
    await a.expect("ClientEnteredGame")
    b = await clients()
    greetings = await b.login(other)
    ids = {u["user"]: u for u in greetings["users"]}
    assert host.id in ids and other.id in ids
    host_clients = ids[host.id]["clients"]
    assert host_clients[0]["game"] == created["game"]
    assert [g["game"] for g in greetings["games_being_set_up"]] == [created["game"]]
    assert greetings["client"] not in [c["client"] for c in host_clients]
    # The others hear of the new client; the host knew nothing of this user yet, so the name comes along.
    connected = await a.expect("ClientConnected")
    assert connected == {"type": "ClientConnected", "client": greetings["client"], "user": other.id,
                         "username": other.username}


async def test_username_omitted_from_client_connected_when_known(clients, db_call, make_user):
    alice, bob = await db_call(make_user), await db_call(make_user)
    a = await clients(alice)
    await clients(bob)
    first = await a.expect("ClientConnected", user=bob.id)
    assert first["username"] == bob.username
    b2 = await clients(bob)  # a second tab of the same user
    second = await a.expect("ClientConnected", user=bob.id)
    assert "username" not in second
    await b2.close()
    gone = await a.expect("ClientDisconnected")
    assert gone["client"] == second["client"]


@pytest.mark.parametrize("change", ["mode", "arrangement", "order", "join", "leave", "kick"])
async def test_every_setup_change_resets_all_acceptances(clients, db_call, make_user, change):
    users = [await db_call(make_user) for _ in range(4)]
    conns = [await clients(u) for u in users[:3]]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": 7})  # Teams 2 vs 2
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for user, conn in zip(users[1:3], conns[1:]):
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame", user=user.id)
    await accept_all(conns, game_id)
    accepted = {(await conns[0].expect("SetupAccepted"))["user"] for _ in range(3)}
    assert accepted == {u.id for u in users[:3]}
    state = await db_call(table_state, game_id)
    assert all(accepted for _, _, accepted, _, _ in state["seats"])

    if change == "mode":
        await conns[0].send({"type": "ChangeMode", "game": game_id, "mode": 5})
        expected = "GameModeChanged"
    elif change == "arrangement":
        await conns[0].send({"type": "ChangeArrangement", "game": game_id, "arrangement": 2})
        expected = "ArrangementChanged"
    elif change == "order":
        order = [users[2].id, users[0].id, users[1].id]
        await conns[0].send({"type": "ChangeArrangement", "game": game_id, "arrangement": 1, "order": order})
        expected = "ArrangementChanged"
    elif change == "join":
        late = await clients(users[3])
        await late.send({"type": "JoinGame", "game": game_id})
        expected = "UserJoinedGame"
    elif change == "leave":
        await conns[2].send({"type": "LeaveGame", "game": game_id})
        expected = "UserLeftGame"
    else:
        await conns[0].send({"type": "Kick", "game": game_id, "user": users[1].id})
        expected = "UserLeftGame"
    pushed = await conns[0].expect(expected)
    assert pushed["setup"]["users"] and not any(u["accepted"] for u in pushed["setup"]["users"])
    state = await db_call(table_state, game_id)
    assert state["status"] == "setup"
    assert not any(accepted for _, _, accepted, _, _ in state["seats"])


async def test_mode_change_limited_to_modes_seating_everyone(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(3)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": 4})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for conn in conns[1:]:
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame")
    before = await db_call(table_state, game_id)
    await conns[0].send({"type": "ChangeMode", "game": game_id, "mode": 2})
    error = await conns[0].expect("Error")
    assert error["code"] == "ModeTooSmall"
    assert await db_call(table_state, game_id) == before
    for mode in (3, 6, 9, 7):
        await conns[0].send({"type": "ChangeMode", "game": game_id, "mode": mode})
        assert (await conns[0].expect("GameModeChanged"))["mode"] == mode
    # Only the host changes the mode.
    await conns[1].send({"type": "ChangeMode", "game": game_id, "mode": 5})
    assert (await conns[1].expect("Error"))["code"] == "NotHost"


async def test_kick_removes_user_and_only_host_may_kick(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(3)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": 3})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for conn in conns[1:]:
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame")
    before = await db_call(table_state, game_id)
    await conns[1].send({"type": "Kick", "game": game_id, "user": users[2].id})
    assert (await conns[1].expect("Error"))["code"] == "NotHost"
    assert await db_call(table_state, game_id) == before
    await conns[0].send({"type": "Kick", "game": game_id, "user": users[2].id})
    left = await conns[2].expect("UserLeftGame")
    assert left["kicked"] is True and left["user"] == users[2].id
    assert [u["user"] for u in left["setup"]["users"]] == [users[0].id, users[1].id]


async def test_leave_passes_host_on_and_last_leaver_aborts(clients, db_call, make_user):
    users = [await db_call(make_user) for _ in range(2)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": 3})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    await conns[1].send({"type": "JoinGame", "game": game_id})
    await conns[0].expect("UserJoinedGame")
    await conns[0].send({"type": "LeaveGame", "game": game_id})
    left = await conns[1].expect("UserLeftGame")
    assert left["kicked"] is False and left["setup"]["host"] == users[1].id
    await conns[1].send({"type": "LeaveGame", "game": game_id})
    inactive = await conns[1].expect("GameInactive")
    assert inactive == {"type": "GameInactive", "game": game_id, "status": "aborted"}
    # A fresh login no longer lists it and reports it inactive.
    again = await clients()
    greetings = await again.login(users[0], games=[{"game": game_id, "history_size": 0}])
    assert greetings["games_being_set_up"] == []
    assert greetings["inactive_games"] == [game_id]


async def test_two_clients_of_one_user_both_hear_everything(clients, db_call, make_user):
    alice, bob = await db_call(make_user), await db_call(make_user)
    a1 = await clients(alice)
    a2 = await clients(alice)
    b = await clients(bob)
    await b.send({"type": "CreateGame", "game_type": "acquire", "mode": 2})
    game_id = (await a1.expect("GameCreated"))["game"]
    assert (await a2.expect("GameCreated"))["game"] == game_id
    await a2.send({"type": "JoinGame", "game": game_id})
    for conn in (a1, a2, b):
        joined = await conn.expect("UserJoinedGame")
        assert joined["user"] == alice.id
    # The same user cannot take a second seat from another tab.
    await a1.send({"type": "JoinGame", "game": game_id})
    assert (await a1.expect("Error"))["code"] == "AlreadyInGame"
    greetings = await (await clients()).login(bob)
    alice_entry = next(u for u in greetings["users"] if u["user"] == alice.id)
    assert len(alice_entry["clients"]) == 2


async def test_clients_of_a_replaced_server_process_are_forgotten(clients, db_call, make_user, monkeypatch):
    from django.conf import settings

    from config import channel_layers
    from games.models import Client
    from games.service import presence

    ghost, alice = await db_call(make_user), await db_call(make_user)
    # A connection left in the table by a process that was killed.
    await db_call(Client.objects.create, user=ghost, channel_name="dead.channel", server="gone")
    monkeypatch.setattr(presence, "_forgot_others", False)
    greetings = await (await clients()).login(alice)
    listed = {u["user"]: u for u in greetings["users"]}
    servers = await db_call(lambda: sorted(Client.objects.values_list("server", flat=True)))
    if not channel_layers.spans_processes(settings.CHANNEL_LAYERS):
        # One process only: any other process's rows are from one that is gone.
        assert ghost.id not in listed
        assert servers == [presence.SERVER_ID]
    else:
        # Several processes may share Redis: nobody can tell from here that "gone" is gone.
        assert ghost.id in listed
        assert servers == sorted(["gone", presence.SERVER_ID])


def test_rule_options_are_checked_when_the_table_is_opened(make_user):
    from games.core.errors import GameError
    from games.service import lobby

    host = make_user()
    game = lobby.create_table(host, "riichi", 4, rules={"赤牌": {"m": 0, "p": 0, "s": 0}})
    assert game.rules == {"赤牌": {"m": 0, "p": 0, "s": 0}}
    with pytest.raises(GameError) as refused:
        lobby.create_table(host, "riichi", 4, rules={"no such option": 1})
    assert refused.value.code == "InvalidRules"
