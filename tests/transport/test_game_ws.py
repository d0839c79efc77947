"""Games in progress over the WebSocket: auto-start, arrangement, per-seat pushes, resync,
reconnect with only the missing history, refused moves, duplicates and forfeits."""

from __future__ import annotations

import pytest

from games.models import Action, Game, Seat
from games.service import reads
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)


def seats_of(game_id: int) -> dict[int, int]:
    """user id -> position"""
    return dict(Seat.objects.filter(game_id=game_id).values_list("user_id", "position"))


def next_move(game_id: int) -> tuple[int, str, list]:
    """A legal move for the seat the game waits for (what a simple bot would play)."""
    game = Game.objects.get(id=game_id)
    engine = state.replay(game).engine
    seat = engine.to_act()[0]
    return (seat, *engine.auto_action(seat))


def log_state(game_id: int) -> tuple:
    game = Game.objects.get(id=game_id)
    actions = Action.objects.filter(game_id=game_id).values_list("seq", "type", "params")
    return game.seq, game.history_size, list(actions)


async def start_game(clients, db_call, make_user, n: int = 2, mode: int | None = None, arrangement: int | None = None):
    users = [await db_call(make_user) for _ in range(n)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": mode or n})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for user, conn in zip(users[1:], conns[1:]):
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame", user=user.id)
    if arrangement is not None:
        await conns[0].send({"type": "ChangeArrangement", "game": game_id, "arrangement": arrangement,
                             "order": [u.id for u in users]})
        await conns[0].expect("ArrangementChanged")
    for conn in conns:
        await conn.send({"type": "AcceptSetup", "game": game_id})
    for conn in conns:
        started = await conn.expect("GameStarted", timeout=5)
    return users, conns, game_id, started


async def by_position(db_call, users, conns, game_id):
    positions = await db_call(seats_of, game_id)
    order = sorted(range(len(users)), key=lambda i: positions[users[i].id])
    return [users[i] for i in order], [conns[i] for i in order]


async def test_game_starts_when_full_and_all_accepted(clients, db_call, make_user):
    users, conns, game_id, started = await start_game(clients, db_call, make_user, n=2)
    assert sorted(p["position"] for p in started["players"]) == [0, 1]
    game = await db_call(Game.objects.get, id=game_id)
    assert game.status == "active" and game.seed is not None and game.started is not None
    first = await db_call(lambda: list(Action.objects.filter(game_id=game_id).values_list("seq", "type")))
    assert first == [(1, "StartGame")]
    # Every seat gets the opening history, with its own tiles and nobody else's.
    for user, conn in zip(users, conns):
        pushed = await conn.expect("GameMessages", game=game_id)
        assert pushed["v"] == 1 and pushed["start"] == 0
        own = (await db_call(seats_of, game_id))[user.id]
        drawn = [m for m in pushed["messages"] if m["type"] == "DrewTile"]
        assert len(drawn) == 12
        for message in drawn:
            if message["player"] == own:
                assert isinstance(message["params"][0], int)
            else:
                assert message["params"] == [None]


async def test_six_players_and_spectator_sees_no_rack(clients, db_call, make_user):
    watcher = await db_call(make_user)
    spectator = await clients(watcher)
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=6)
    await spectator.send({"type": "EnterGame", "game": game_id})
    snapshot = await spectator.expect("Snapshot")
    assert snapshot["position"] is None and snapshot["legal"] == []
    assert all(m["params"] == [None] for m in snapshot["history"] if m["type"] == "DrewTile")
    assert "tile_bag" not in str(snapshot["view"]).lower() or snapshot["view"].get("tile_bag") is None
    users, conns = await by_position(db_call, users, conns, game_id)
    seat, action, params = await db_call(next_move, game_id)
    await conns[seat].send({"type": "DoGameAction", "game": game_id, "action": action, "params": params,
                            "v": snapshot["v"]})
    # An entered spectator's push: the move, the spectators' view, nothing to act on, no rack.
    pushed = await spectator.expect("GameMessages", game=game_id)
    assert pushed["start"] == len(snapshot["history"]) and pushed["legal"] == []
    assert all(m["params"] == [None] for m in pushed["messages"] if m["type"] == "DrewTile")
    assert all("rack" not in player for player in pushed["view"]["players"])


async def test_specified_teams_are_honoured(clients, db_call, make_user):
    users, conns, game_id, started = await start_game(clients, db_call, make_user, n=4, mode=7, arrangement=3)
    positions = await db_call(seats_of, game_id)
    # The host listed users 0..3: slots 0 and 2 form one team, 1 and 3 the other.
    assert positions[users[0].id] % 2 == positions[users[2].id] % 2
    assert positions[users[1].id] % 2 == positions[users[3].id] % 2
    assert positions[users[0].id] % 2 != positions[users[1].id] % 2
    teams = {p["user"]: p["team"] for p in started["players"]}
    assert teams[users[0].id] == teams[users[2].id] != teams[users[1].id] == teams[users[3].id]


async def test_exact_order_is_kept(clients, db_call, make_user):
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=3, arrangement=2)
    positions = await db_call(seats_of, game_id)
    assert [positions[u.id] for u in users] == [0, 1, 2]


async def test_refused_moves_change_nothing(clients, db_call, make_user):
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=2)
    users, conns = await by_position(db_call, users, conns, game_id)
    seat, action, params = await db_call(next_move, game_id)
    mover, waiter = conns[seat], conns[1 - seat]
    before = await db_call(log_state, game_id)
    v = before[0]
    cases = [
        (waiter, {"action": action, "params": params, "v": v}, "NotYourTurn"),
        (waiter, {"action": action, "params": params, "v": v, "seat": seat}, "NotYourSeat"),
        (mover, {"action": action, "params": params, "v": v, "seat": 1 - seat}, "NotYourSeat"),
        (mover, {"action": "PlayTile", "params": [999], "v": v}, "IllegalAction"),
        (mover, {"action": "Teleport", "params": [], "v": v}, "IllegalAction"),
        (mover, {"action": action, "params": "x", "v": v}, "InvalidMessage"),
        (mover, {"action": action, "params": params, "v": v + 5}, "StaleAction"),
    ]
    for conn, fields, code in cases:
        await conn.send({"type": "DoGameAction", "game": game_id, **fields})
        reply = await conn.expect("Error")
        assert reply["code"] == code, (fields, reply)
        assert await db_call(log_state, game_id) == before
    await mover.send({"type": "DoGameAction", "game": game_id, "action": action, "params": params, "v": v,
                      "ref": "m1"})
    applied = await mover.expect("ActionApplied")
    assert applied["v"] == v + 1 and applied["ref"] == "m1"
    # The same reply again (a doubled timer, say) is not applied twice.
    after = await db_call(log_state, game_id)
    await mover.send({"type": "DoGameAction", "game": game_id, "action": action, "params": params, "v": v})
    assert (await mover.expect("Error"))["code"] in {"DuplicateAction", "NotYourTurn"}
    assert await db_call(log_state, game_id) == after


async def test_pushes_carry_sequence_numbers_and_resync_fills_a_gap(clients, db_call, make_user):
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=2)
    users, conns = await by_position(db_call, users, conns, game_id)
    for conn in conns:
        await conn.expect("GameMessages", game=game_id)
    seen = {0: 1, 1: 1}
    for _ in range(6):
        seat, action, params = await db_call(next_move, game_id)
        await conns[seat].send({"type": "DoGameAction", "game": game_id, "action": action, "params": params})
        await conns[seat].expect("ActionApplied")
        for position, conn in enumerate(conns):
            pushed = await conn.expect("GameMessages", game=game_id)
            assert pushed["v"] > seen[position]
            seen[position] = pushed["v"]
    game = await db_call(Game.objects.get, id=game_id)
    await conns[0].send({"type": "Resync", "game": game_id})
    snapshot = await conns[0].expect("Snapshot")
    assert snapshot["v"] == game.seq and len(snapshot["history"]) == game.history_size
    assert snapshot["position"] == 0
    own_rack = snapshot["view"]
    assert own_rack  # the seat's own view of the board


async def test_reconnect_receives_only_missing_history(clients, db_call, make_user):
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=2)
    users, conns = await by_position(db_call, users, conns, game_id)
    await conns[0].send({"type": "Resync", "game": game_id})
    known = (await conns[0].expect("Snapshot"))["history"]
    await conns[0].close()
    for _ in range(4):
        seat, action, params = await db_call(next_move, game_id)
        if seat == 0:
            break
        await conns[1].send({"type": "DoGameAction", "game": game_id, "action": action, "params": params})
        await conns[1].expect("ActionApplied")
    back = await clients()
    greetings = await back.login(users[0], games=[{"game": game_id, "history_size": len(known)}], rejoin=game_id)
    entry = next(g for g in greetings["games"] if g["game"] == game_id)
    assert entry["start"] == len(known)
    assert "mode" not in entry and "users" not in entry and "host" not in entry
    full = (await db_call(lambda: reads.history(Game.objects.get(id=game_id), users[0])))["messages"]
    assert known + entry["messages"] == full
    assert greetings["entered_game"] == game_id
    # A client that knows nothing of the game gets everything about it.
    fresh = await (await clients()).login(users[1])
    entry = next(g for g in fresh["games"] if g["game"] == game_id)
    assert entry["start"] == 0 and entry["mode"] == 2 and sorted(entry["users"]) == sorted(u.id for u in users)


async def test_leaving_a_started_game_forfeits_and_is_played_automatically(clients, db_call, make_user):
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=2)
    users, conns = await by_position(db_call, users, conns, game_id)
    seat, *_ = await db_call(next_move, game_id)
    await conns[seat].send({"type": "LeaveGame", "game": game_id})
    forfeited = await conns[1 - seat].expect("PlayerForfeited")
    assert forfeited["position"] == seat
    auto = await db_call(lambda: list(Action.objects.filter(game_id=game_id, auto=True).values_list("seat", flat=True)))
    assert auto and set(auto) == {seat}
    game = await db_call(Game.objects.get, id=game_id)
    engine = (await db_call(state.replay, game)).engine
    assert engine.is_over or engine.to_act() == [1 - seat]


async def test_login_without_histories_and_recent_chat(clients, db_call, make_user):
    users, conns, game_id, _ = await start_game(clients, db_call, make_user, n=2)
    await conns[0].send({"type": "Chat", "game": None, "text": "hello lobby"})
    await conns[0].send({"type": "Chat", "game": game_id, "text": "good luck"})
    await conns[1].expect("Chat", text="good luck")
    light = await clients()
    greetings = await light.login(users[0], history=False)
    entry = next(g for g in greetings["games"] if g["game"] == game_id)
    game = await db_call(Game.objects.get, id=game_id)
    assert entry["messages"] == [] and entry["start"] == game.history_size and entry["v"] == game.seq
    assert [c["text"] for c in greetings["chat"]] == ["hello lobby"]
    await light.send({"type": "Resync", "game": game_id})
    snapshot = await light.expect("Snapshot")
    assert [c["text"] for c in snapshot["chat"]] == ["good luck"]
    bad = await clients()
    await bad.connect()
    await bad.send({"type": "Login", "version": 1, "username": users[0].username, "password": "secret-pw",
                    "history": "no"})
    assert (await bad.recv())["code"] == "InvalidMessageFormat"
