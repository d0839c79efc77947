"""Acquire end to end over the WebSocket, on the full ASGI app (routing, auth, consumer, service).

* Four protocol clients play a whole 4-player game, each deciding only from the ``legal`` list of
  its own push (``GameMessages``), or of its own ``Snapshot`` when it has no push for the latest
  v; a fifth user enters the game and watches. One player and the spectator reconnect mid-game.
  Afterwards the server-side truth is rebuilt step by step from the stored action log, and every
  frame every client received (Greetings, Snapshot, GameMessages, GameInactive and the lobby's
  own) is checked twice: (a) no frame sent while the game was in progress names a tile that was,
  at that moment, in another seat's rack or in the bag, nor carries a whole-state key (``racks``,
  ``tile_bag``, ``state``); (b) each frame is exactly what that seat may see: the history slice,
  view, ``legal`` and ``to_act`` the engine gives for that viewer at that ``v``, in pushes and
  Snapshots alike.
* A timed game: one player's clock runs out mid-game and from then on the server plays that seat,
  then everyone's does and the server finishes the game. The review data downloaded from
  ``/api/games/<id>/review/`` flags exactly the automatically played actions with 1, at the
  moments the clocks ran out.

The service's clock is frozen by hand (``clocks.now_ms``), so the clocks run out exactly when
the test says, whatever the machine's speed; the real clock sweeper enforces them.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client as HttpClient

from games.acquire.engine.review import parse_review
from games.core.engine import Event
from games.models import Action, Game
from games.service import sweeper
from games.state import replay as state
from tests.conftest import Client

pytestmark = pytest.mark.django_db(transaction=True)

TILE_MESSAGES = frozenset({"DrewPositionTile", "DrewTile", "PlayedTile", "ReplacedDeadTile"})
WHOLE_STATE_KEYS = frozenset({"racks", "tile_bag", "state", "rack_slots"})
CHAIN_CHOICES = frozenset({"SelectNewChain", "SelectMergerSurvivor", "SelectChainToDisposeOfNext"})
# A move may lose a race with the clock sweeper; these refusals then leave the game as it was.
RACE_ERRORS = frozenset({"NotYourTurn", "StaleAction", "DuplicateAction"})
MAX_STEPS = 2000


def choose(legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, list[Any]]:
    """A client-side random player: it reads nothing but the ``legal`` list of its own Snapshot."""
    offer = legal[0]
    kind = offer["type"]
    if kind == "StartGame":
        return kind, []
    if kind == "PlayTile":
        return kind, [rng.choice(offer["tiles"])]
    if kind in CHAIN_CHOICES:
        return kind, [rng.choice(offer["chains"])]
    if kind == "DisposeOfShares":
        trade = 2 * rng.randint(0, offer["max_trade"] // 2)
        return kind, [trade, rng.randint(0, offer["shares"] - trade)]
    assert kind == "PurchaseShares", offer
    cash = offer["cash"]
    stock = {c["chain"]: [c["price"], c["available"]] for c in offer["chains"]}
    bought: list[int] = []
    for _ in range(rng.randint(0, offer["max"])):
        options = [chain for chain, (price, left) in stock.items() if left and price <= cash]
        if not options:
            break
        chain = rng.choice(options)
        stock[chain][1] -= 1
        cash -= stock[chain][0]
        bought.append(chain)
    return kind, [bought, int(offer["can_end"] and rng.random() < 0.5)]


class Player:
    """One protocol client and what it knows of one game, learnt from its own frames only."""

    def __init__(self, client: Client, user: Any, game_id: int, history: list[dict[str, Any]] | None = None) -> None:
        self.client = client
        self.user = user
        self.game_id = game_id
        self.position: int | None = None
        self.history: list[dict[str, Any]] = history if history is not None else []
        self.v = 0
        self.to_act: list[int] = []
        self.over = False
        self.rng = random.Random(user.username)
        self.applied: list[int] = []  # the v of each of its own actions the server applied
        self.clocks: list[list[dict[str, Any]]] = []
        self.legal: list[dict[str, Any]] = []  # from the push of v ``legal_v``
        self.legal_v = -1

    async def read(self, timeout: float = 10) -> dict[str, Any]:
        frame = await self.client.recv(timeout)
        self.learn(frame)
        return frame

    def learn(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "Greetings":
            for entry in frame["games"]:
                if entry["game"] == self.game_id:
                    self._extend(entry["start"], entry["messages"], entry["v"])
        if frame.get("game") != self.game_id:
            return
        if kind == "GameStarted":
            self.position = next((p["position"] for p in frame["players"] if p["user"] == self.user.id), None)
        elif kind == "GameMessages":
            if frame["v"] <= self.v:
                # Its moves came with a Snapshot read after this push was sent: an overlap.
                assert frame["start"] + len(frame["messages"]) <= len(self.history)
                return
            self._extend(frame["start"], frame["messages"], frame["v"])
            self.to_act = frame["to_act"]
            self.legal, self.legal_v = frame["legal"], frame["v"]
            if frame["clocks"] is not None:
                self.clocks.append(frame["clocks"])
        elif kind == "Snapshot" and frame["v"] >= self.v:
            start = frame["history_start"]
            assert start <= len(self.history)
            self.history = self.history[:start] + frame["history"]
            self.v = frame["v"]
            self.to_act = frame["to_act"]
        elif kind == "GameInactive":
            self.over = True

    def _extend(self, start: int, messages: list[dict[str, Any]], v: int) -> None:
        # The protocol's gap rule: a client holding n messages must be sent start == n.
        assert start == len(self.history), (self.user.username, start, len(self.history))
        self.history += messages
        self.v = v

    async def sync_to(self, v: int) -> None:
        while self.v < v:
            await self.read()

    async def resync(self, kind: str = "Resync", **extra: Any) -> dict[str, Any]:
        """A Snapshot (``from``: only the history after what it holds)."""
        await self.client.send({"type": kind, "game": self.game_id, **extra})
        while (frame := await self.read())["type"] != "Snapshot":
            pass
        return frame

    async def act(self, tolerate_races: bool = False) -> int | None:
        """Choose from the ``legal`` of its push of the latest v (or, with none, of a Snapshot
        it asks for), send it; the v applied, or None."""
        if self.legal_v == self.v and self.legal:
            legal, v = self.legal, self.v
        else:
            snapshot = await self.resync(**{"from": len(self.history)})
            legal, v = snapshot["legal"], snapshot["v"]
        if not legal:
            assert tolerate_races, f"{self.user.username} was told to act but has no legal action"
            return None
        action, params = choose(legal, self.rng)
        ref = f"{self.user.username}:{v}"
        await self.client.send({"type": "DoGameAction", "game": self.game_id, "v": v,
                                "action": action, "params": params, "ref": ref})
        while (reply := await self.read())["type"] not in ("ActionApplied", "Error") or reply.get("ref") != ref:
            pass
        if reply["type"] == "Error":
            assert tolerate_races and reply["code"] in RACE_ERRORS, reply
            return None
        self.applied.append(reply["v"])
        return reply["v"]


async def settle(everyone: list[Player], at_least: int = 0) -> int:
    """Read until every client has seen the same latest v (at least ``at_least``)."""
    while True:
        target = max([at_least, *(p.v for p in everyone)])
        for player in everyone:
            await player.sync_to(target)
        if all(p.v == target for p in everyone):
            return target


async def drive(seats: dict[int, Player], everyone: list[Player], steps: int, *, absent: frozenset[int] = frozenset(),
                tolerate_races: bool = False) -> int:
    """Let the seat each client's own ``to_act`` names play, ``steps`` moves or to the end.

    Seats in ``absent`` never move: the test waits for the server (the clock sweeper) instead.
    """
    made = 0
    v = await settle(everyone)
    while made < steps:
        waiting = everyone[0].to_act
        if not waiting:
            break  # the game is over
        (position,) = waiting
        if position in absent:
            v = await settle(everyone, v + 1)
            continue
        mover = seats[position]
        assert position in mover.to_act and mover.position == position
        applied = await mover.act(tolerate_races)
        made += applied is not None
        v = await settle(everyone, applied or v)
        assert made < MAX_STEPS
    return made


async def table(clients, db_call, make_user, players: int, **create: Any) -> tuple[dict[int, Player], Player, list]:
    """A table of ``players`` protocol clients plus a spectator, started; seats by position."""
    users = [await db_call(make_user) for _ in range(players + 1)]
    conns = [await clients(u) for u in users]
    await conns[0].send({"type": "CreateGame", "game_type": "acquire", "mode": players, **create})
    game_id = (await conns[0].expect("GameCreated"))["game"]
    for user, conn in zip(users[1:players], conns[1:players]):
        await conn.send({"type": "JoinGame", "game": game_id})
        await conns[0].expect("UserJoinedGame", user=user.id)
    for conn in conns[:players]:
        await conn.send({"type": "AcceptSetup", "game": game_id})
    await conns[players].expect("GameStarted", game=game_id)
    await conns[players].send({"type": "EnterGame", "game": game_id})  # the spectator watches
    everyone = []
    for user, conn in zip(users, conns):
        player = Player(conn, user, game_id)
        for frame in conn.received:  # Greetings and the set-up frames read so far
            player.learn(frame)
        while player.v == 0:  # up to the first GameMessages (StartGame is applied at once)
            await player.read()
        everyone.append(player)
    seats = {p.position: p for p in everyone[:players]}
    assert sorted(seats) == list(range(players)) and everyone[-1].position is None
    return seats, everyone[-1], everyone


# ---------------------------------------------------------------------- the server-side truth


def normalised(value: Any) -> Any:
    """As it reads after a trip through JSON (e.g. the int keys of a PlayTile status map)."""
    return json.loads(json.dumps(value))


@dataclass
class Truth:
    """Every seat's due view of the game at every v, rebuilt from the stored action log."""

    seats: int
    events: list[Event] = field(default_factory=list)
    history_len: list[int] = field(default_factory=list)  # history messages after v actions
    to_act: list[list[int]] = field(default_factory=list)
    views: list[dict[int | None, Any]] = field(default_factory=list)
    legal: list[dict[int | None, Any]] = field(default_factory=list)
    secret: list[dict[int | None, set[int]]] = field(default_factory=list)
    auto: list[bool] = field(default_factory=list)

    @property
    def final_v(self) -> int:
        return len(self.history_len) - 1

    def rendered(self, viewer: int | None, start: int, v: int) -> list[dict[str, Any]]:
        """History messages ``start``.. as sent at ``v``; once the game is over everything is shown
        to everyone, including in the last push."""
        reveal = v == self.final_v
        return normalised([e.render(viewer, reveal) for e in self.events[start : self.history_len[v]]])

    def check_history(self, player: Player) -> None:
        """Nothing lost, nothing doubled: the client holds the whole history, as it was sent."""
        last = [f for f in player.client.received if f["type"] == "GameMessages"][-1]
        assert last["v"] == self.final_v and len(player.history) == len(self.events)
        # Up to the last push it was sent hidden; the last push is checked by ``check_frames``.
        assert player.history[: last["start"]] == self.rendered(player.position, 0, self.final_v - 1)[: last["start"]]
        assert player.history[last["start"] :] == last["messages"]


def server_truth(game_id: int) -> Truth:
    game = Game.objects.get(id=game_id)
    assert game.status == "finished"
    engine = state.new_engine(game)
    truth = Truth(seats=game.seats.count())
    viewers: list[int | None] = [*range(truth.seats), None]

    def record() -> None:
        full = engine.view(None, reveal_all=True)
        racks = [{r["tile"] for r in rack} for rack in full["racks"]]
        bag = set(full["tile_bag"])
        over = engine.is_over
        truth.history_len.append(len(truth.events))
        truth.to_act.append([] if over else engine.to_act())
        truth.views.append({v: normalised(engine.view(v, reveal_all=over)) for v in viewers})
        truth.legal.append({v: normalised(engine.legal_actions(v)) if v is not None and not over else []
                            for v in viewers})
        truth.secret.append({v: bag.union(*(r for s, r in enumerate(racks) if s != v)) for v in viewers})

    record()
    rows = game.actions.order_by("seq").values_list("seq", "seat", "type", "params", "auto")
    for seq, seat, kind, params, auto in rows:
        assert seq == truth.final_v + 1, "the action log is not contiguous"
        truth.events += engine.apply(seat, kind, params)
        truth.auto.append(auto)
        record()
    assert engine.is_over and truth.final_v == game.seq and len(truth.events) == game.history_size
    assert state.replay(game).history == truth.events
    return truth


# ---------------------------------------------------------------------- frame checks


def tile_mentions(value: Any, found: set[int]) -> set[int]:
    """Every tile a frame names: under ``tile``/``tiles``, as a key of a PlayTile ``status`` map,
    and as the parameter of a history message about a tile."""
    if isinstance(value, dict):
        if value.get("type") in TILE_MESSAGES and isinstance(value.get("params"), list):
            found.update(p for p in value["params"] if isinstance(p, int))
        for key, item in value.items():
            if key == "tile" and isinstance(item, int):
                found.add(item)
            elif key == "tiles" and isinstance(item, list):
                found.update(t for t in item if isinstance(t, int))
            elif key == "status" and isinstance(item, dict):
                found.update(int(t) for t in item)
            else:
                tile_mentions(item, found)
    elif isinstance(value, list):
        for item in value:
            tile_mentions(item, found)
    return found


def keys_in(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, dict):
        found.update(value)
        for item in value.values():
            keys_in(item, found)
    elif isinstance(value, list):
        for item in value:
            keys_in(item, found)
    return found


def check_hidden(part: Any, viewer: int | None, v: int | None, truth: Truth, what: str) -> None:
    """Nothing secret at ``v`` (no v: a lobby frame, which names no tile at all)."""
    if v is not None and v == truth.final_v:
        return  # the game is over: everything may be seen
    assert not keys_in(part, set()) & WHOLE_STATE_KEYS, what
    secret = truth.secret[v] if v is not None else {viewer: set(range(108))}
    leaked = tile_mentions(part, set()) & secret[viewer]
    assert not leaked, f"{what} to viewer {viewer} at v {v} names hidden tiles {sorted(leaked)}"
    if viewer is None:
        assert "rack" not in keys_in(part, set()), what


def check_frames(player: Player, truth: Truth) -> int:
    """Check every frame ``player`` received; returns how many were about the game."""
    viewer, game_id = player.position, player.game_id
    about_game = 0
    for frame in player.client.received:
        kind = frame["type"]
        what = f"{kind} to {player.user.username}"
        if kind == "Greetings":
            for entry in frame["games"]:
                assert entry["game"] == game_id
                about_game += 1
                assert entry["messages"] == truth.rendered(viewer, entry["start"], entry["v"]), what
                check_hidden(entry, viewer, entry["v"], truth, what)
            check_hidden({k: v for k, v in frame.items() if k != "games"}, viewer, None, truth, what)
        elif kind == "GameMessages":
            about_game += 1
            v = frame["v"]
            assert frame["game"] == game_id and frame["to_act"] == truth.to_act[v], what
            assert frame["messages"] == truth.rendered(viewer, frame["start"], v), what
            assert frame["view"] == truth.views[v][viewer], what
            assert frame["legal"] == truth.legal[v][viewer], what
            check_hidden(frame, viewer, v, truth, what)
        elif kind == "Snapshot":
            about_game += 1
            v = frame["v"]
            assert frame["position"] == viewer and frame["to_act"] == truth.to_act[v], what
            assert frame["view"] == truth.views[v][viewer], what
            assert frame["legal"] == truth.legal[v][viewer], what
            assert frame["history"] == truth.rendered(viewer, frame["history_start"], v), what
            check_hidden(frame, viewer, v, truth, what)
        elif kind == "GameInactive":
            about_game += 1
            assert frame["status"] == "finished" and frame["result"]["is_over"], what
            check_hidden(frame, viewer, None, truth, what)  # the result names no tile
        else:
            check_hidden(frame, viewer, None, truth, what)
    return about_game


async def reconnect(clients, player: Player, *, remember: bool) -> Player:
    """A new connection for ``player``'s user; with ``remember`` it says which history it holds."""
    await player.client.close()
    again = Player(await clients(), player.user, player.game_id, list(player.history) if remember else [])
    login: dict[str, Any] = {"rejoin": player.game_id}
    if remember:
        login["games"] = [{"game": player.game_id, "history_size": len(player.history)}]
    again.learn(await again.client.login(player.user, **login))
    again.position = player.position  # it knew its seat before; Greetings does not repeat it
    return again


# ---------------------------------------------------------------------- the tests


async def test_four_clients_play_a_whole_game_and_no_frame_leaks(clients, db_call, make_user):
    seats, spectator, everyone = await table(clients, db_call, make_user, 4)
    game_id = spectator.game_id
    closed: list[Player] = []

    # Part of the game; then a seat that is not to act drops, a move is made while it is away,
    # and it comes back saying how much history it holds: Greetings must bring exactly the rest.
    await drive(seats, everyone, 30)
    waiting = everyone[0].to_act[0]
    gone = seats[(waiting + 1) % 4]
    await gone.client.close()
    closed.append(gone)
    held = len(gone.history)
    applied = await seats[waiting].act()
    assert applied is not None
    await settle([p for p in everyone if p is not gone], applied)
    back = await reconnect(clients, gone, remember=True)
    assert len(back.history) > held and back.v == seats[waiting].v
    seats[back.position] = back
    # The spectator comes back remembering nothing: its Greetings carries the whole history.
    closed.append(spectator)
    spectator = await reconnect(clients, spectator, remember=False)
    everyone = [*seats.values(), spectator]
    await back.resync()  # what a reconnected client does to learn who is to act
    await spectator.resync("EnterGame", **{"from": len(spectator.history)})  # and to watch again
    await settle(everyone)

    # Now to the end, the spectator asking for a Snapshot now and then.
    while everyone[0].to_act:
        await drive(seats, everyone, 25)
        if everyone[0].to_act:
            await spectator.resync()
    for player in everyone:
        while not player.over:
            await player.read()
        await player.client.drain(0.2)

    truth = await db_call(server_truth, game_id)
    assert truth.final_v > 60 and not any(truth.auto)
    checked = 0
    for player in [*everyone, *closed]:
        checked += check_frames(player, truth)
    for player in everyone:
        truth.check_history(player)
    # Every seat made its own moves, and every frame about the game was checked.
    assert all(p.applied for p in seats.values())
    assert checked > 5 * truth.final_v


async def test_clocks_run_out_over_websocket_and_review_flags_auto(clients, db_call, make_user, clock):
    seats, spectator, everyone = await table(clients, db_call, make_user, 4, time_start=60, time_increment=0)
    game_id = spectator.game_id
    stop = asyncio.Event()
    sweeping = asyncio.get_running_loop().create_task(sweeper.sweep(0.02, stop))
    try:
        # Everyone plays a little with the clock frozen: nobody is charged any time.
        await drive(seats, everyone, 12, tolerate_races=True)
        slow = everyone[0].to_act[0]
        since = await db_call(lambda: Game.objects.get(id=game_id).clock_since_ms)
        # One player thinks for 61 s: the sweeper plays for it at the moment its 60 s ran out.
        timed_out_at = everyone[0].v + 1  # its move, and any decisions of its that follow at once
        clock(61)
        await settle(everyone, timed_out_at)
        assert any(c["position"] == slow and c["remaining_ms"] == 0 for c in seats[slow].clocks[-1])
        # Its clock is at zero with no increment, so the server plays each of its later decisions.
        played = await drive(seats, everyone, 30, absent=frozenset({slow}), tolerate_races=True)
        assert played == 30, "the game ended early; pick other users or fewer moves"
        last_by_hand = max(v for p in seats.values() for v in p.applied)
        # Then everybody's clock runs out and the server plays the game to its end.
        clock(3600)
        for player in everyone:
            while not player.over or player.to_act:
                await player.read(timeout=30)
    finally:
        stop.set()
        await sweeping

    truth = await db_call(server_truth, game_id)
    for player in everyone:
        check_frames(player, truth)
        truth.check_history(player)
    rows = await db_call(lambda: list(Action.objects.filter(game_id=game_id).order_by("seq")
                                      .values_list("seq", "seat", "auto", "timestamp_ms")))
    by_hand = {v for p in seats.values() for v in p.applied}
    auto = {seq for seq, _, is_auto, _ in rows if is_auto}
    assert not by_hand & auto and by_hand | auto == set(range(2, truth.final_v + 1))  # 1: the host's StartGame
    slow_moves = [seq for seq, seat, _, _ in rows if seat == slow and seq >= timed_out_at]
    assert slow_moves[0] == timed_out_at and set(slow_moves) <= auto and len(slow_moves) > 1
    assert {seq for seq in range(last_by_hand + 1, truth.final_v + 1)} <= auto
    stamps = {seq: stamp for seq, _, _, stamp in rows}
    assert stamps[timed_out_at] == since + 60_000  # when its clock ran out, not when it was noticed

    response = await db_call(lambda: HttpClient().get(f"/api/games/{game_id}/review/"))
    assert response.status_code == 200
    review = response.json()
    assert review[2:4] == [60, 0]  # time control: 60 s, no increment
    actions = review[8]
    assert len(actions) == truth.final_v
    flagged = {i + 1 for i, entry in enumerate(actions) if len(entry) == 3 and entry[2] == 1}
    assert flagged == auto
    assert all(len(entry) == 2 for i, entry in enumerate(actions) if i + 1 not in auto)
    # Timestamps: ms since the epoch first, then deltas; together they give the stored times.
    assert [a.timestamp_ms for a in parse_review(review).actions] == [stamps[seq] for seq in range(1, len(rows) + 1)]
