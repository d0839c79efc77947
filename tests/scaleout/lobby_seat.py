"""A bot player on the lobby protocol (``/ws/bot/``, docs/protocols/lobby.md) that survives its
server: it plays one game from its own pushes, and when its connection drops it logs in again
(through the balancer, so on whichever process HAProxy picks), says what it holds (``Login`` with
``games`` and ``rejoin``), asks for the rest (``Resync`` with ``from``) and sends its unanswered
move again, unchanged, with the ``v`` it answered: the server applies it once (``DuplicateAction``
if it already had). Every decision is kept per ``v``, so a test can check the game's log against
them: each move in the log is one decision, and no decision is in it twice."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from tests.acquire.service.test_ws_game import choose

# How long a player waits for a push before it asks for a Snapshot (``Seat.play``): far above a
# push's delay, even on a loaded machine.
QUIET = 5.0
# Closing or resetting connections: what a killed or stopped server looks like to a client (and
# TimeoutError, an OSError too, which the callers tell apart: silence is no drop).
DROPPED = (websockets.ConnectionClosed, OSError, asyncio.IncompleteReadError, websockets.InvalidHandshake)


@dataclass
class Account:
    id: int
    username: str
    token: str


@dataclass
class Seat:
    """One user at one game over ``url`` (ws://balancer/ws/bot/)."""

    url: str
    user: Account
    game_id: int
    position: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    v: int = 0
    to_act: list[int] = field(default_factory=list)
    legal: list[dict[str, Any]] = field(default_factory=list)
    legal_v: int = -1
    over: bool = False
    decided: dict[int, tuple[str, list[Any]]] = field(default_factory=dict)  # v answered -> the move
    acknowledged: set[int] = field(default_factory=set)  # v of decisions answered ActionApplied
    duplicates: set[int] = field(default_factory=set)  # v of decisions answered DuplicateAction
    pending: int | None = None  # the v of the decision sent and not answered yet
    served_by: list[str] = field(default_factory=list)  # X-Served-By of each connection, in order
    lost_pushes: int = 0  # silences after which a Snapshot showed moves no push had brought
    asked: bool = False  # it asked for a Snapshot after a silence, and has no answer yet
    sent: asyncio.Event = field(default_factory=asyncio.Event)
    ws: Any = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.user.username)

    # -- connecting ----------------------------------------------------------------------------

    async def connect(self, *, resume: bool = False, timeout: float = 30) -> dict[str, Any]:
        """Open a connection and log in; with ``resume``, say what is held of the game. Retried
        until ``timeout``: a balancer may briefly have no process to give."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = await websockets.connect(self.url, open_timeout=10, max_size=None)
                break
            except DROPPED:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
        self.served_by.append(self.ws.response.headers.get("X-Served-By", "?"))
        # A player at a table need not follow the lobby (docs/protocols/lobby.md).
        login: dict[str, Any] = {"type": "Login", "version": 1, "token": self.user.token, "lobby": False}
        if resume:
            login |= {"games": [{"game": self.game_id, "history_size": len(self.history)}], "rejoin": self.game_id}
        await self.send(login)
        while (frame := await self.recv())["type"] != "Greetings":
            pass
        self.learn(frame)
        return frame

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            return json.loads(await self.ws.recv())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    # -- what it knows --------------------------------------------------------------------------

    def learn(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "Greetings":
            for entry in frame["games"]:
                if entry["game"] == self.game_id:
                    self._extend(entry["start"], entry["messages"], entry["v"])
            return
        if self.pending is not None and frame.get("ref") == self._ref(self.pending):
            if kind == "ActionApplied":
                self.acknowledged.add(self.pending)
            else:
                # The one refusal a resent move may get: the server had applied it already.
                assert kind == "Error" and frame["code"] == "DuplicateAction", (self.user.username, frame)
                self.duplicates.add(self.pending)
            self.pending = None
            return
        if frame.get("game") != self.game_id:
            return
        if kind == "GameStarted":
            positions = [p["position"] for p in frame["players"] if p["user"] == self.user.id]
            # Seen once (a PostgreSQL + Redis run): a GameStarted of this game's number without
            # this seat; the frame and what the seat had learnt are kept for the next time.
            assert positions, (self.user, self.game_id, self.served_by, frame)
            self.position = positions[0]
        elif kind == "GameMessages" and (frame["v"] > self.v or self.legal_v < frame["v"]):
            # (The game's first push, v 0, is new too: nothing of this v was known.)
            if frame["start"] > len(self.history):
                # A gap: an earlier push is late (another process sent it) or was lost with a
                # connection. The Snapshot fills it; this push is dropped, the Snapshot has it.
                asyncio.ensure_future(self.send({"type": "Resync", "game": self.game_id, "from": len(self.history)}))
                return
            self._extend(frame["start"], frame["messages"], frame["v"])
            self.to_act, self.legal, self.legal_v = frame["to_act"], frame["legal"], frame["v"]
        elif kind == "Snapshot" and frame["v"] >= self.v:
            if self.asked and frame["v"] > self.v:
                self.lost_pushes += 1  # asked after a silence: it brings what no push brought
            self.asked = False
            self.history = self.history[: frame["history_start"]] + frame["history"]
            self.v, self.to_act = frame["v"], frame["to_act"]
            self.legal, self.legal_v = frame["legal"], frame["v"]
            self.position = frame["position"]
            self.over = self.over or frame["status"] != "active"
        elif kind == "GameInactive":
            self.over = True

    def _extend(self, start: int, messages: list[dict[str, Any]], v: int) -> None:
        # Messages it holds already (a Snapshot read after the push was sent) are skipped.
        assert start <= len(self.history), (self.user.username, start, len(self.history))
        self.history += messages[len(self.history) - start:]
        self.v = v

    # -- playing --------------------------------------------------------------------------------

    def _ref(self, v: int) -> str:
        return f"{self.user.username}:{v}"

    async def _send_move(self, v: int) -> None:
        action, params = self.decided[v]
        self.pending = v
        await self.send({"type": "DoGameAction", "game": self.game_id, "v": v, "action": action,
                         "params": params, "ref": self._ref(v)})
        self.sent.set()

    async def play(self, timeout: float = 30) -> None:
        """Until the game is over: answer each push that offers this seat a move, and come back
        after every drop. ``timeout``: the longest the game may go without a move."""
        if self.position is None:
            # Its seat, from a Snapshot: GameStarted, which says it too, may have come and gone.
            await self.send({"type": "Resync", "game": self.game_id, "from": len(self.history)})
        heard = asked = time.monotonic()  # the last move seen or answer had; the last question
        while not self.over:
            if (self.pending is None and self.legal and self.legal_v == self.v and self.position in self.to_act
                    and self.v not in self.decided):
                self.decided[self.v] = choose(self.legal, self.rng)
                try:
                    await self._send_move(self.v)
                except DROPPED:
                    await self.resume()
                continue
            now = time.monotonic()
            if now - heard > timeout:
                raise TimeoutError(f"{self.user.username}: game {self.game_id} stuck {timeout} s at v {self.v}")
            try:
                frame = await self.recv(max(0.05, max(heard, asked) + QUIET - now))
            except TimeoutError:
                # Pushes are not durable: the push of a move whose process died between its commit
                # and its push never comes, and no later push shows the gap while the game waits
                # for this seat. A quiet player asks.
                asked, self.asked = time.monotonic(), True
                await self.send({"type": "Resync", "game": self.game_id, "from": len(self.history)})
                continue
            except DROPPED:
                await self.resume()
                heard = time.monotonic()
                continue
            before = (self.v, self.pending)
            self.learn(frame)
            if (self.v, self.pending) != before:
                heard = time.monotonic()
        # GameInactive comes through another group than the game's pushes and may overtake the
        # last of them: the final v from a Snapshot.
        while True:
            try:
                await self.send({"type": "Resync", "game": self.game_id, "from": len(self.history)})
                while (frame := await self.recv(timeout))["type"] != "Snapshot":
                    self.learn(frame)
                self.learn(frame)
                if frame["status"] != "active":
                    return
            except TimeoutError:
                raise
            except DROPPED:
                await self.resume()

    async def resume(self, timeout: float = 30) -> None:
        """Log in again saying what it holds, ask for what it lacks, and send its unanswered move
        again as it was; tried again while the connection keeps dropping, until ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                await self.connect(resume=True, timeout=max(1.0, deadline - time.monotonic()))
                await self.send({"type": "Resync", "game": self.game_id, "from": len(self.history)})
                if self.pending is not None:
                    await self._send_move(self.pending)
                return
            except DROPPED:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)

    def state(self) -> str:
        """Where it stands, for a failure's message: which side of a stuck game waits for what."""
        return (f"{self.user.username}: v {self.v}, position {self.position}, to_act {self.to_act}, legal for v "
                f"{self.legal_v}, pending {self.pending}, decided up to {max(self.decided, default=None)}, "
                f"asked {self.asked}, over {self.over}, served by {self.served_by}")

    def moves(self) -> dict[int, tuple[str, list[Any]]]:
        """The decisions the server took (acknowledged, or found applied already), by the v after them."""
        return {v + 1: self.decided[v] for v in self.acknowledged | self.duplicates}
