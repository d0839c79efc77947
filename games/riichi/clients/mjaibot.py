"""The mjai process bridge (docs/protocols/mjai.md, "The process bridge"): pure asyncio, no Django.

mjai has two dialects. An mjai *server* (gimite's mjsonp, this project's ``MJAI_PORT``) sends one
JSON event a line and wants one action line back for every event line. An mjai.app *bot* is a
process, ``python bot.py <seat>``, that reads one JSON **array** of events a line on stdin (the
events since its last answer) and writes exactly one action object a line on stdout. ``MjaiBot``
speaks the first over TCP and the second to a bot process it starts from a command template
(``{seat}`` replaced by ``start_game``'s ``id``); ``manage.py mjaibot`` runs it.

How mjai.app feeds a bot, which this follows (PyPI ``mjai`` 0.2.1, the simulator mjai.app runs;
AGPL, read, not used here): its arena (``mjai.mlibriichi.arena.Match``, built from mjai.app's
``src/arena/game.rs``) calls a player only when libriichi's ``state.last_cans().can_act()`` holds
(a discard, a call, a win, a riichi, a kan or kyushukyuhai is open to it); then
``engine.DockerMjaiLogEngine.react_batch`` sends every event of the hand since that player's last
call as one array (other seats' draws and deals as ``?``), and ``player.MjaiPlayerClient.react``
waits for one line (10 s for an array opening with ``start_game``/``start_kyoku``, a model may be
loading; a ``none`` to the bot's own ``tsumo`` is an error). ``start_game``, ``end_kyoku`` and
``end_game`` are each sent alone by ``DockerMjaiLogEngine.start_game``/``end_kyoku``/``end_game``
and the answer is not looked at. ``bot.base.Bot.start`` reads a line, feeds each event to its
``PlayerState`` and answers from the state after the last one (``{"type":"none"}`` when it may not
act).

**The batching rule.** The server sends no ``can_act`` (gimite's ``possible_actions`` hints are
off by default), so the bridge asks the bot on every event where the seat *may* act, a superset of
libriichi's ``can_act``, and a bot that cannot act there answers ``none`` as mjai.app's bots do
(``is_decision``):

- its own ``tsumo`` (discard, riichi, tsumo win, ankan/kakan, kyushukyuhai);
- its own ``reach`` (the server's echo of its riichi: the riichi discard);
- its own ``chi``/``pon`` (the discard after the call);
- another seat's ``dahai`` (ron, chi, pon, daiminkan) and ``kakan``/``ankan`` (chankan);
  when such an event carries gimite's ``possible_actions``, it is a decision only if that list is
  not empty.

Every other event is answered ``none`` to the server at once and kept; the kept events and the
deciding event go to the bot as one array, and its one line back is the answer to the server.
``start_game`` goes alone when the process starts; ``end_kyoku`` and ``end_game`` go with the events
kept before them (the last discards, ``hora``/``ryukyoku``: mjai.app drops these, libriichi reads
them), and those answers are read and dropped without waiting for them.

**When the bot fails** the bridge answers for it so that the game goes on: on a timeout
(``timeout`` seconds a decision, at least 10 s for the bot's first decision or an array opening
with ``start_kyoku``, as mjai.app), on an answer that is no JSON object with a string ``type`` or is
``none`` where a discard is due, when the process has died, and when the server refuses an answer
(``error`` and the same event again: the bot cannot be asked the same event twice, its state would
count it twice). The stand-in is the first of ``_fallbacks`` not tried yet: the drawn tile as
tsumogiri after a draw or a riichi, a tile of the hand after a call (one of another kind than the
tile called first), ``none`` to a call chance; after a refusal the next one. Every stand-in is
noted in the log. A late answer is read and dropped (answers are paired with arrays in order).

**Restarts.** A bot that died is started again at the next ``start_kyoku``, from the same command,
and sent the ``start_game`` it was first sent and then that hand from its ``start_kyoku``, as a
bot just started by mjai.app is (a hand is a libriichi state's unit). The rest of the hand it died
in is played by the stand-ins: restarting it there would replay the events that killed it.

**A dropped link** is taken again for up to ``retry`` seconds. The server is expected to send the
rejoining seat its ``start_game`` and the hand in play from its ``start_kyoku``, each event as it
sent it before, and to pass over the answer to an event that no longer asks; the events the bridge
has seen are answered with the answers recorded for them (the one to the question in play may
have been lost), not sent to the bot again, and the first new event goes on as usual. A replay
that differs is taken as new events. An ``error`` ``GameEnded: …`` (an aborted game) ends the
bridge.

The bot's stderr and the bridge's notes go to the log file (appended); the token is never
written anywhere (``join`` is shown with the token as ``…``) and not passed to the bot (its
environment without ``MJAI_TOKEN``, nor any variable holding the token).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

DEFAULT_TIMEOUT = 10.0
# mjai.app's wait for an array opening with start_game/start_kyoku (player.py), and for a bot's first answer.
START_TIMEOUT = 10.0
DEFAULT_RETRY = 60.0
CONNECT_TIMEOUT = 10.0
RETRY_PAUSE = 1.0
STOP_GRACE = 5.0
MAX_LINE = 1 << 20  # a server event or a bot answer longer than this is no mjai line
NONE: dict[str, Any] = {"type": "none"}
TOKEN_ENV = "MJAI_TOKEN"  # where manage.py mjaibot also takes the token from (not shown by ps)

END, DROPPED, REFUSED = "end", "dropped", "refused"
TIMEOUT, DEAD = "timeout", "dead"

Note = Callable[[str], None]
Trace = Callable[[str, str], None]


class BridgeError(Exception):
    """The bridge cannot play on: the login was refused, the game aborted, or the server stayed away."""


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def command_argv(template: str, seat: int) -> list[str]:
    """The bot's argv: the template split as a shell would (it is not run by one), ``{seat}``
    replaced in every word."""
    return [word.replace("{seat}", str(seat)) for word in shlex.split(template)]


def is_decision(event: dict[str, Any], seat: int) -> bool:
    """Whether ``event`` goes to the bot with the events kept before it (the batching rule above)."""
    type_, actor = event.get("type"), event.get("actor")
    if not isinstance(actor, int) or isinstance(actor, bool):
        return False
    if actor == seat:
        return type_ in ("tsumo", "reach", "chi", "pon")
    if type_ in ("dahai", "kakan", "ankan"):
        hints = event.get("possible_actions")
        return bool(hints) if isinstance(hints, list) else True
    return False


def _kind(tile: Any) -> str:
    return tile[:2] if isinstance(tile, str) else ""


def _dahai(seat: int, tile: str, tsumogiri: bool) -> dict[str, Any]:
    return {"type": "dahai", "actor": seat, "pai": tile, "tsumogiri": tsumogiri}


def _describe(action: dict[str, Any]) -> str:
    if action.get("type") == "dahai":
        return f"dahai {action.get('pai')}" + (" (tsumogiri)" if action.get("tsumogiri") else "")
    return str(action.get("type"))


class BotProcess:
    """One run of the bot's command: arrays written to its stdin, answers read from its stdout in
    order. ``owed`` lists the answers still to come whose questions are over, oldest first
    (``"told"`` arrays, ``"late"`` for timed-out decisions); they are read and dropped before the
    next answer, a late one noted."""

    def __init__(self, argv: list[str], stderr: BinaryIO | int, note: Note, trace: Trace | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.env = env
        self.stderr = stderr
        self.note = note
        self.trace = trace
        self.proc: asyncio.subprocess.Process | None = None
        self.owed: deque[str] = deque()
        self.fresh = True  # no answer asked for yet: its first one may load a model
        self.dead = False

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self.stderr,
            env=self.env, limit=MAX_LINE)

    @property
    def alive(self) -> bool:
        return self.proc is not None and not self.dead and self.proc.returncode is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc is not None else None

    async def _write(self, batch: list[dict[str, Any]]) -> bool:
        if not self.alive:
            return False
        assert self.proc is not None and self.proc.stdin is not None
        line = dumps(batch)
        if self.trace:
            self.trace("bot<-", line)
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            await self.proc.stdin.drain()
        except (OSError, RuntimeError):  # BrokenPipeError, ConnectionResetError; a closed transport
            self.dead = True
            return False
        return True

    async def tell(self, batch: list[dict[str, Any]]) -> None:
        """Send an array whose answer is not waited for."""
        if await self._write(batch):
            self.owed.append("told")

    async def ask(self, batch: list[dict[str, Any]], limit: float) -> str:
        """Send an array and return the bot's line for it, ``TIMEOUT`` or ``DEAD``."""
        if not await self._write(batch):
            return DEAD
        self.fresh = False
        assert self.proc is not None and self.proc.stdout is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            left = deadline - loop.time()
            if left <= 0:
                self.owed.append("late")
                return TIMEOUT
            try:
                raw = await asyncio.wait_for(self.proc.stdout.readline(), left)
            except TimeoutError:
                self.owed.append("late")
                return TIMEOUT
            except ValueError:  # longer than MAX_LINE: no answer
                raw = b"\n"
            if not raw:
                self.dead = True
                return DEAD
            line = raw.decode("utf-8", "replace").strip()
            if self.owed:
                if self.owed.popleft() == "late":
                    self.note(f"a late answer dropped: {line[:200]}")
                if self.trace:
                    self.trace("bot-> (dropped)", line)
                continue
            if self.trace:
                self.trace("bot->", line)
            return line

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Close its stdin and give it ``grace`` seconds to end, then terminate it (kill 2 s later)."""
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 2.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        self.dead = True


@dataclass
class _Seen:
    """One event of the hand in play and the line it was answered with (for a replay)."""

    event: dict[str, Any]
    answer: str


@dataclass
class MjaiBot:
    """One seat: an mjai TCP link on one side, the bot process on the other. ``await run()``
    returns after ``end_game`` and raises ``BridgeError`` when the login is refused, the game is
    aborted (``GameEnded``) or the server cannot be reached within ``retry`` seconds; cancelled, it
    stops the bot on its way out."""

    host: str
    port: int
    user: str
    token: str
    cmd: str
    game: str | int | None = None
    name: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    retry: float = DEFAULT_RETRY
    log_path: str | Path | None = None
    notes: Note | None = None  # every note (already masked), e.g. printed by the command
    trace: Trace | None = None  # every line, masked: ("<-"/"->", line) for the server, "bot<-"/"bot->" for the bot

    seat: int | None = field(default=None, init=False)
    final: list[int] | None = field(default=None, init=False)
    finished: bool = field(default=False, init=False)
    restarts: int = field(default=0, init=False)
    bot: BotProcess | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.log_path = Path(self.log_path or f"mjaibot-{self.user}.log")
        self._log: BinaryIO | None = None
        self._start_game: dict[str, Any] | None = None
        self._pending: list[dict[str, Any]] = []
        self._hand: list[str] = []  # the seat's concealed tiles, for the stand-ins
        self._drawn: str | None = None
        self._seen: list[_Seen] = []  # the hand in play, from its start_kyoku
        self._asked: dict[str, Any] | None = None  # the last event answered
        self._tried: list[dict[str, Any]] = []  # the answers sent for it
        self._replayed = False  # the last event answered was one seen before the link dropped
        self._refused = False  # an error came after the last answer
        self._refusal: str | None = None  # the error that refused the login on this link
        self._ended: str | None = None  # the server's GameEnded error: an aborted game
        self._joined = False  # this link got an event other than hello/error
        self._resync = False  # a new link after a drop: a replay may come
        self._replay: int | None = None  # the index in _seen the replay has reached
        self._dead_noted = False

    # -- output ---------------------------------------------------------------------------------

    def _mask(self, text: str) -> str:
        return text.replace(self.token, "…") if self.token else text

    def note(self, message: str) -> None:
        message = self._mask(message)
        if self._log is not None:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            self._log.write(f"{stamp} mjaibot: {message}\n".encode())
            self._log.flush()
        if self.notes:
            self.notes(message)

    def _trace(self, direction: str, line: str) -> None:
        if self.trace:
            self.trace(direction, self._mask(line))

    def join_line(self) -> str:
        room = f"{self.user}:{self.token}" + (f"@{self.game}" if self.game not in (None, "") else "")
        return dumps({"type": "join", "name": self.name or self.user, "room": room})

    # -- the link -------------------------------------------------------------------------------

    async def run(self) -> None:
        assert isinstance(self.log_path, Path)
        try:
            self._log = open(self.log_path, "ab")  # closed in the finally below
        except OSError as exc:
            raise BridgeError(f"cannot open the log {self.log_path}: {exc}") from exc
        loop = asyncio.get_running_loop()
        try:
            deadline: float | None = None
            while True:
                try:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection(self.host, self.port, limit=MAX_LINE), CONNECT_TIMEOUT)
                except (OSError, TimeoutError) as exc:
                    deadline = deadline if deadline is not None else loop.time() + self.retry
                    if loop.time() >= deadline:
                        self.note(f"cannot connect to {self.host}:{self.port}: {exc}")
                        raise BridgeError(f"cannot connect to {self.host}:{self.port}: {exc}") from exc
                    await asyncio.sleep(RETRY_PAUSE)
                    continue
                deadline = None
                self.note(f"connected to {self.host}:{self.port}")
                try:
                    outcome = await self._session(reader, writer)
                finally:
                    writer.close()
                    with contextlib.suppress(OSError):
                        await writer.wait_closed()
                if outcome == END:
                    self.note(f"game over: scores {self.final}")
                    return
                if outcome == REFUSED and self._ended is not None:
                    raise BridgeError(self._mask(self._ended))
                if outcome == REFUSED:
                    raise BridgeError(f"login refused: {self._mask(self._refusal or '')}")
                self.note("link dropped; reconnecting")
                deadline = loop.time() + self.retry
                self._resync = self.seat is not None
        finally:
            if self.bot is not None:
                # After end_game the bot may write its last lines; else (a signal, an error) it goes now.
                await self.bot.stop(STOP_GRACE if self.finished else 1.0)
            self._log.close()
            self._log = None

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> str:
        self._joined = False
        self._refused = False
        self._refusal = None
        while True:
            try:
                raw = await reader.readline()
            except ValueError:
                self.note("a line from the server is too long; dropping the link")
                return END if self.finished else DROPPED
            except OSError:
                return END if self.finished else DROPPED
            if not raw:
                return END if self.finished else DROPPED
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            self._trace("<-", line)
            reply = await self.handle(line)
            if self._refusal is not None or self._ended is not None:
                return REFUSED
            if reply is not None:
                self._trace("->", reply)
                try:
                    writer.write(reply.encode() + b"\n")
                    await writer.drain()
                except OSError:
                    return END if self.finished else DROPPED
            if self.finished:
                return END

    # -- one server line ------------------------------------------------------------------------

    async def handle(self, line: str) -> str | None:
        """The answer line to one server line, ``None`` for a line that takes none (``error``)."""
        try:
            event = json.loads(line)
        except ValueError:
            event = None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            self.note(f"not an mjai event, answered none: {line[:200]}")
            return dumps(NONE)
        type_ = event["type"]
        if type_ == "hello":
            return self.join_line()
        if type_ == "error":
            message = str(event.get("message", ""))
            if not self._joined:
                self._refusal = message
                self.note(f"login refused: {message}")
                return None
            if message.startswith("GameEnded"):
                self._ended = message
                self.note(f"the game ended without end_game: {message}")
                return None
            self.note(f"refused by the server: {message}")
            self._refused = True
            return None
        self._joined = True
        if self._refused and event == self._asked:
            self._refused = False
            return self._retry(event)
        self._refused = False
        replayed = self._replayed_answer(event)
        if replayed is not None:
            return replayed
        answer = await self._event(event)
        self._answered(event, answer)
        self._seen.append(_Seen(event, answer))
        return answer

    def _answered(self, event: dict[str, Any], answer: str, replayed: bool = False) -> None:
        self._asked = event
        self._tried = [json.loads(answer)]
        self._replayed = replayed

    def _retry(self, event: dict[str, Any]) -> str | None:
        """The answer to an event sent again after a refusal: the next stand-in."""
        candidates = self._fallbacks(event)
        if self._replayed:  # the server may not be asking it at all any more
            candidates = [NONE, *candidates]
        for action in candidates:
            if action not in self._tried:
                self._tried.append(action)
                self.note(f"answering {event.get('type')} again with {_describe(action)}")
                answer = dumps(action)
                if self._seen and self._seen[-1].event == event:
                    self._seen[-1].answer = answer
                return answer
        self.note(f"no answer left to {dumps(event)}; waiting for the server")
        return None

    def _replayed_answer(self, event: dict[str, Any]) -> str | None:
        """After a drop: the answer to an event the server sends again, ``None`` for a new one."""
        type_ = event["type"]
        if self._resync:
            if type_ == "start_game" and self._start_game is not None and event.get("id") == self.seat:
                answer = dumps(NONE)
                self._answered(event, answer, replayed=True)
                return answer
            self._resync = False
            if type_ == "start_kyoku" and self._seen and event == self._seen[0].event:
                self._replay = 0
                self.note("the server replays the hand in play")
        if self._replay is None:
            return None
        i = self._replay
        if i < len(self._seen) and event == self._seen[i].event:
            self._replay = i + 1 if i + 1 < len(self._seen) else None
            answer = self._seen[i].answer  # passed over by the server where the event no longer asks
            self._answered(event, answer, replayed=True)
            return answer
        self._replay = None
        return None

    async def _event(self, event: dict[str, Any]) -> str:
        type_ = event["type"]
        if type_ == "start_game":
            await self._begin(event)
            return dumps(NONE)
        if type_ == "start_kyoku":
            self._seen = []
            self._dead_noted = False
            self._pending = [event]
            self._track(event)
            if self._start_game is not None and (self.bot is None or not self.bot.alive):
                self.restarts += 1
                self.note(f"starting the bot again (restart {self.restarts})")
                await self._launch()
            return dumps(NONE)
        self._pending.append(event)
        if type_ in ("end_kyoku", "end_game"):
            batch, self._pending = self._pending, []
            if self.bot is not None and self.bot.alive:
                await self.bot.tell(batch)
            if type_ == "end_game":
                self.finished = True
                scores = event.get("scores")
                self.final = scores if isinstance(scores, list) else None
            return dumps(NONE)
        self._track(event)
        if self.seat is None or not is_decision(event, self.seat):
            return dumps(NONE)
        return dumps(await self._decide(event))

    async def _begin(self, event: dict[str, Any]) -> None:
        seat = event.get("id")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            self.note(f"start_game without a seat id: {dumps(event)}")
            return
        self.seat = seat
        self._start_game = event
        self._pending, self._seen, self._hand, self._drawn = [], [], [], None
        if self.bot is not None:
            await self.bot.stop()
        await self._launch()

    async def _launch(self) -> None:
        """Start the bot's command for this seat and send it ``start_game`` alone."""
        assert self._start_game is not None and self.seat is not None and self._log is not None
        argv = command_argv(self.cmd, self.seat)
        env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV and not (self.token and self.token in v)}
        self.bot = BotProcess(argv, self._log, self.note, self._trace if self.trace else None, env)
        try:
            await self.bot.start()
        except OSError as exc:
            self.bot.dead = True
            self.note(f"cannot start the bot ({shlex.join(argv)}): {exc}")
            return
        self.note(f"bot started: {shlex.join(argv)} (pid {self.bot.pid})")
        await self.bot.tell([self._start_game])

    async def _decide(self, event: dict[str, Any]) -> dict[str, Any]:
        assert self.seat is not None
        batch, self._pending = self._pending, []
        fallback = self._fallbacks(event)[0]
        bot = self.bot
        if bot is None or not bot.alive:
            if not self._dead_noted:
                self._dead_noted = True
                self.note(f"the bot is not running: answering for it until the next hand ({_describe(fallback)})")
            return fallback
        limit = self.timeout
        if bot.fresh or batch[0].get("type") in ("start_game", "start_kyoku"):
            limit = max(limit, START_TIMEOUT)
        reply = await bot.ask(batch, limit)
        if reply == TIMEOUT:
            self.note(f"timeout: no answer in {limit:g} s to {dumps(event)}; played {_describe(fallback)}")
            return fallback
        if reply == DEAD:
            self._dead_noted = True
            await self._reap(bot)
            self.note(f"the bot exited (code {bot.returncode}) at {dumps(event)}; played {_describe(fallback)}; "
                      "it starts again at the next hand")
            return fallback
        try:
            action = json.loads(reply)
        except ValueError:
            action = None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            self.note(f"the bot's answer is no mjai action: {reply[:200]}; played {_describe(fallback)}")
            return fallback
        if action["type"] == "none" and fallback["type"] != "none":
            self.note(f"the bot answered none where a discard is due; played {_describe(fallback)}")
            return fallback
        return action

    async def _reap(self, bot: BotProcess) -> None:
        if bot.proc is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(bot.proc.wait(), 1.0)

    # -- the seat's hand, for the stand-ins -----------------------------------------------------

    def _track(self, event: dict[str, Any]) -> None:
        type_, seat = event.get("type"), self.seat
        if seat is None:
            return
        if type_ == "start_kyoku":
            tehais = event.get("tehais")
            own = tehais[seat] if isinstance(tehais, list) and len(tehais) > seat else []
            self._hand = [p for p in own if isinstance(p, str) and p != "?"] if isinstance(own, list) else []
            self._drawn = None
            return
        if event.get("actor") != seat:
            return
        pai, consumed = event.get("pai"), event.get("consumed")
        if type_ == "tsumo" and isinstance(pai, str):
            self._hand.append(pai)
            self._drawn = pai
            return
        if type_ == "dahai":
            self._take([pai])
        elif type_ in ("chi", "pon", "daiminkan", "ankan") and isinstance(consumed, list):
            self._take(consumed)
        elif type_ == "kakan":
            self._take([pai])
        if type_ in ("dahai", "chi", "pon", "daiminkan", "ankan", "kakan"):
            self._drawn = None

    def _take(self, tiles: list[Any]) -> None:
        for tile in tiles:
            if tile in self._hand:
                self._hand.remove(tile)

    def _fallbacks(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """The stand-ins for the bot's answer to ``event``, best first."""
        seat, type_ = self.seat, event.get("type")
        if seat is None or event.get("actor") != seat or type_ not in ("tsumo", "reach", "chi", "pon"):
            return [dict(NONE)]
        out: list[dict[str, Any]] = []
        rest = list(self._hand)
        if type_ in ("tsumo", "reach") and self._drawn is not None and self._drawn in rest:
            out.append(_dahai(seat, self._drawn, True))
            rest.remove(self._drawn)
        called = _kind(event.get("pai")) if type_ in ("chi", "pon") else None
        tiles = sorted(dict.fromkeys(rest), key=lambda p: _kind(p) == called)  # other kinds first (kuikae)
        out += [_dahai(seat, p, False) for p in tiles]
        out.append(dict(NONE))  # the last resort: the server may ask nothing after all
        return out
