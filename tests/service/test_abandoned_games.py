"""Abandoned games (games/service/abandon.py, docs/abandoned-games.md): an untimed game whose people all
went away is adjourned, then aborted; a person coming back resumes it where it stopped. The
clock is the service's (the ``clock`` fixture), and every look of the watch is given its ``now``."""

from __future__ import annotations

import asyncio

import pytest
from django.test import override_settings

from games.models import Action, Client, Game, Seat, Status
from games.service import abandon, lifecycle, lobby, moves, sweeper
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)

ADJOURN_S = 600
ABORT_S = 24 * 3600


@pytest.fixture(autouse=True)
def _limits(settings):
    # The defaults, stated here so that the test says what it counts to.
    settings.ADJOURN_AFTER_SECONDS = ADJOURN_S
    settings.ABORT_AFTER_SECONDS = ABORT_S


def next_move(game_id: int) -> tuple[int, str, list]:
    engine = state.replay(Game.objects.get(id=game_id)).engine
    seat = engine.to_act()[0]
    return (seat, *engine.auto_action(seat))


def status_of(game_id: int) -> tuple[str, int | None, int]:
    game = Game.objects.get(id=game_id)
    return game.status, game.absent_since_ms, game.seq


def clients_of(*users) -> int:
    return Client.objects.filter(user__in=users).count()


async def play_moves(db_call, conns_by_position, game_id: int, count: int) -> None:
    """``count`` moves, each sent by the seat the game waits for over its own WebSocket."""
    for _ in range(count):
        seat, action, params = await db_call(next_move, game_id)
        conn = conns_by_position[seat]
        await conn.send({"type": "DoGameAction", "game": game_id, "action": action, "params": params})
        await conn.expect("ActionApplied", game=game_id)


async def untimed_game_played_then_left(clients, db_call, make_user, **create):
    """alice and bob open an untimed Acquire table over WebSockets, play a few moves and close
    their connections. Returns (users by position, game id, seq)."""
    alice, bob = await db_call(make_user), await db_call(make_user)
    a, b = await clients(alice), await clients(bob)
    await a.send({"type": "CreateGame", "game_type": "acquire", "mode": 2, **create})
    game_id = (await a.expect("GameCreated"))["game"]
    await b.send({"type": "JoinGame", "game": game_id})
    await a.expect("UserJoinedGame", user=bob.id)
    for conn in (a, b):
        await conn.send({"type": "AcceptSetup", "game": game_id})
    for conn in (a, b):
        await conn.expect("GameStarted", timeout=5)
    positions = dict(await db_call(lambda: list(Seat.objects.filter(game_id=game_id)
                                                .values_list("user_id", "position"))))
    by_position = {positions[alice.id]: a, positions[bob.id]: b}
    await play_moves(db_call, by_position, game_id, 3)
    for conn in (a, b):
        await conn.close()
    assert await db_call(clients_of, alice, bob) == 0
    users = sorted([alice, bob], key=lambda u: positions[u.id])
    return users, game_id, (await db_call(status_of, game_id))[2]


async def test_an_untimed_game_everyone_left_is_adjourned_then_aborted(clients, db_call, make_user, clock):
    watcher = await db_call(make_user)  # in the lobby throughout, at no seat: not one of the game's people
    lobby_client = await clients(watcher)
    users, game_id, seq = await untimed_game_played_then_left(clients, db_call, make_user)
    left = clock.now()

    # The first look finds nobody and notes when; nothing more until the adjourn time is up.
    assert (await db_call(abandon.watch, left)).noted == [game_id]
    assert await db_call(status_of, game_id) == (Status.ACTIVE, left, seq)
    assert (await db_call(abandon.watch, left + ADJOURN_S * 1000 - 1)).adjourned == []
    assert (await db_call(status_of, game_id))[0] == Status.ACTIVE

    assert (await db_call(abandon.watch, left + ADJOURN_S * 1000)).adjourned == [game_id]
    assert await db_call(status_of, game_id) == (Status.ADJOURNED, left, seq)
    adjourned = await lobby_client.expect("GameAdjourned", game=game_id)
    assert adjourned["status"] == "adjourned"

    # While adjourned, moves are refused with their own code and nothing changes.
    seat, action, params = await db_call(next_move, game_id)
    with pytest.raises(moves.GameError) as refused:
        await db_call(moves.apply_action, game_id, users[seat], action, params)
    assert refused.value.code == "GameAdjourned" and refused.value.status == 409
    assert (await db_call(status_of, game_id))[2] == seq

    # Counted from when they all went away, not from the adjournment.
    assert (await db_call(abandon.watch, left + ABORT_S * 1000 - 1)).aborted == []
    assert (await db_call(abandon.watch, left + ABORT_S * 1000)).aborted == [game_id]
    game = await db_call(Game.objects.get, id=game_id)
    assert game.status == Status.ABORTED and game.ended is not None and game.seq == seq
    assert (await lobby_client.expect("GameInactive", game=game_id))["status"] == "aborted"


async def test_a_player_coming_back_resumes_the_game_where_it_stopped(clients, db_call, make_user, clock):
    users, game_id, seq = await untimed_game_played_then_left(clients, db_call, make_user)
    left = clock.now()
    await db_call(abandon.watch, left)
    await db_call(abandon.watch, left + ADJOURN_S * 1000)
    assert (await db_call(status_of, game_id))[0] == Status.ADJOURNED

    # The player the game waits for logs in again, an hour later: the game is in progress again,
    # listed so in their Greetings, with nothing played meanwhile.
    clock(3600)
    seat, action, params = await db_call(next_move, game_id)
    back = await clients()
    greetings = await back.login(users[seat])
    listed = next(g for g in greetings["games"] if g["game"] == game_id)
    assert listed["status"] == "active"
    assert await db_call(status_of, game_id) == (Status.ACTIVE, None, seq)

    # Their move is accepted, exactly where the game stopped.
    await back.send({"type": "DoGameAction", "game": game_id, "action": action, "params": params})
    applied = await back.expect("ActionApplied", game=game_id)
    assert applied["v"] > seq
    moved = await db_call(lambda: Action.objects.get(game_id=game_id, seq=seq + 1))
    assert (moved.seat, moved.type, moved.params, moved.auto) == (seat, action, params, False)

    # Still connected: later looks leave the game alone, however late.
    done = await db_call(abandon.watch, clock.now() + ABORT_S * 2000)
    assert (done.noted, done.adjourned, done.aborted) == ([], [], [])
    assert (await db_call(status_of, game_id))[0] == Status.ACTIVE


async def test_a_timed_game_is_never_adjourned(clients, db_call, make_user, clock):
    _, game_id, seq = await untimed_game_played_then_left(clients, db_call, make_user,
                                                          time_start=600, time_increment=5)
    left = clock.now()
    for later in (0, ADJOURN_S, ABORT_S, 2 * ABORT_S):
        done = await db_call(abandon.watch, left + later * 1000)
        assert (done.noted, done.adjourned, done.aborted) == ([], [], [])
    # Its clocks deal with absent players instead (the sweeper plays for them when they run out).
    assert await db_call(status_of, game_id) == (Status.ACTIVE, None, seq)


def _game_with_a_house_bot(make_user) -> tuple[Game, object]:
    alice = make_user()
    game = lobby.create_table(alice, "acquire", 2)
    lobby.add_bot(alice, game.id)
    lobby.accept(alice, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    bot = game.seats.select_related("user").get(user__is_bot=True).user
    return game, bot


def test_house_bots_are_not_people(make_user, clock):
    game, bot = _game_with_a_house_bot(make_user)
    # Even a connection in the bot's name would not count: a house bot is no one to wait for.
    Client.objects.create(user=bot, channel_name="test.bot", server="test")
    left = clock.now()
    assert abandon.watch(left).noted == [game.id]
    assert abandon.watch(left + ADJOURN_S * 1000).adjourned == [game.id]
    assert Game.objects.get(id=game.id).status == Status.ADJOURNED


def test_a_game_left_to_house_bots_alone_is_not_watched(make_user, clock):
    game, _ = _game_with_a_house_bot(make_user)
    Seat.objects.filter(game=game, user__is_bot=False).update(forfeited=True)  # the person forfeited
    done = abandon.watch(clock.now() + ABORT_S * 1000)
    assert (done.noted, done.adjourned, done.aborted) == ([], [], [])
    assert Game.objects.get(id=game.id).status == Status.ACTIVE


def test_moves_over_rest_count_as_presence(make_user, clock):
    """A player who plays without any connection (REST only) is there while they move."""
    game, _ = _game_with_a_house_bot(make_user)
    person = game.seats.select_related("user").get(user__is_bot=False)
    left = clock.now()
    abandon.watch(left)
    clock(ADJOURN_S - 100)
    seat, action, params = next_move(game.id)
    assert seat == person.position  # the bot has answered at once: the game waits for the person
    moves.apply_action(game.id, person.user, action, params)
    moved = clock.now()
    assert abandon.watch(left + ADJOURN_S * 1000).adjourned == []
    assert abandon.watch(moved + ADJOURN_S * 1000 - 1).adjourned == []
    assert abandon.watch(moved + ADJOURN_S * 1000).adjourned == [game.id]
    # The abort too is counted from that move, not from the first absence.
    assert abandon.watch(left + ABORT_S * 1000).aborted == []
    assert abandon.watch(moved + ABORT_S * 1000).aborted == [game.id]


def test_a_connection_seen_by_the_watch_forgets_the_absence(make_user, clock):
    game, _ = _game_with_a_house_bot(make_user)
    person = game.seats.select_related("user").get(user__is_bot=False).user
    left = clock.now()
    abandon.watch(left)
    assert Game.objects.get(id=game.id).absent_since_ms == left
    Client.objects.create(user=person, channel_name="test.person", server="test")
    abandon.watch(left + 1000)
    assert Game.objects.get(id=game.id).absent_since_ms is None
    Client.objects.filter(user=person).delete()
    # Gone again: counted afresh from the next look, not from the first absence.
    abandon.watch(left + 2000)
    assert abandon.watch(left + ADJOURN_S * 1000).adjourned == []
    assert abandon.watch(left + 2000 + ADJOURN_S * 1000).adjourned == [game.id]


def test_a_stale_look_changes_nothing(make_user, clock):
    """The service adjourns and aborts only what the watch saw: a move or a return since wins."""
    game, _ = _game_with_a_house_bot(make_user)
    left = clock.now()
    abandon.watch(left)
    row = Game.objects.get(id=game.id)
    assert not lifecycle.adjourn(game.id, left, row.seq - 1, left)  # a move came in since the look
    assert not lifecycle.adjourn(game.id, left - 1, row.seq, left)  # a different absence
    assert lifecycle.adjourn(game.id, left, row.seq, left)
    lifecycle.resume(game.id)
    with pytest.raises(moves.GameError) as refused:
        lifecycle.abort(game.id, adjourned_since=left)
    assert refused.value.code == "GameResumed"
    assert Game.objects.get(id=game.id).status == Status.ACTIVE


def test_an_adjourned_game_cannot_be_left_or_forfeited(make_user, clock):
    game, _ = _game_with_a_house_bot(make_user)
    person = game.seats.select_related("user").get(user__is_bot=False).user
    left = clock.now()
    abandon.watch(left)
    abandon.watch(left + ADJOURN_S * 1000)
    for attempt in (lambda: lobby.leave(person, game.id), lambda: lobby.remove_player(game.id, person.id)):
        with pytest.raises(moves.GameError) as refused:
            attempt()
        assert refused.value.code == "GameAdjourned"
    assert not Seat.objects.get(game=game, user=person).forfeited


async def test_the_server_runs_the_watch(db_call, make_user):
    """The watch runs as a task of the server process (games/service/sweeper.py) with the clock sweeper."""
    game, _ = await db_call(_game_with_a_house_bot, make_user)
    stop = asyncio.Event()
    with override_settings(ADJOURN_AFTER_SECONDS=0, ABANDON_CHECK_SECONDS=0.02):
        task = asyncio.ensure_future(sweeper.watch_abandoned(stop))
        try:
            for _ in range(250):
                if (await db_call(status_of, game.id))[0] == Status.ADJOURNED:
                    break
                await asyncio.sleep(0.02)
        finally:
            stop.set()
            await task
    assert (await db_call(status_of, game.id))[0] == Status.ADJOURNED
