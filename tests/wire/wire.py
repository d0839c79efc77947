"""Recorded sessions: what a client sent and what the server answered, exchange by exchange, and
their replay against a served tree (``tests/served.py``).

A session file (``sessions/<protocol>.jsonl``) holds one exchange per line, in the order the
recording client made them:

- ``{"link": "ann", "op": "open", "kind": "ws", "path": "/ws/bot/", "headers": {}}``: a WebSocket
  (``kind`` ``tcp``: a TCP connection to the port named ``port``: ``cribbage``, ``ump``, ``mmj``);
- ``{"link": "ann", "op": "send", "data": "..."}``: a text frame, or the bytes written to a TCP link;
- ``{"link": "ann", "op": "recv", "data": "..."}``: the server's next text frame on that link, or its
  next line on a TCP link, terminator (``\\n``, ``\\r\\n``) included;
- ``{"link": "ann", "op": "closed", "code": 4000}``: the server closed the link (a TCP link: ``null``);
- ``{"link": "ann", "op": "close"}``: the client closed it;
- ``{"link": "http", "op": "http", "method": ..., "path": ..., "headers": {...}, "body": ...,
  "status": 200, "response_headers": {...}, "response": "..."}``: one HTTP request and its answer.

A ``LobbyMessages`` frame (the lobby messages of one tick) is read as the messages it holds
(``games/transport/lobby_frames.py``): how many share a frame depends on timing. Each link's own order is what is
compared: the replay reads every link separately, so messages of two links may come in either order
between them (as they may on any run), but a link's messages must come in the recorded order.
Sessions are written so that each step's messages have all arrived before the next step (a client
waits for its answer before it sends again).

The text is stored as it was received; ``normalise`` takes out only what legitimately differs from
run to run, and is applied to both sides before they are compared."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websockets

from games.transport import lobby_frames

SESSIONS = Path(__file__).with_name("sessions")
PROTOCOLS = ("lobby", "majiang", "sio", "ump", "mmj", "cribbage", "rest")
TIMEOUT = 20.0  # seconds a reply may take before the session is judged stuck
# The response headers that are part of the protocol (the rest, Date and Server, say when and by whom).
RESPONSE_HEADERS = ("Content-Type", "Set-Cookie", "Content-Disposition", "Retry-After", "Allow")

# -- normalisation: only what differs from run to run -----------------------------------------------

RULES: list[tuple[re.Pattern[str], str]] = [
    # Wall-clock times (a game's created/started/ended, a chat message's "at", a player's "joined"):
    # when the session ran, not what the server decided. The time zone after it ("Z", "+00:00")
    # is kept and compared; the fraction goes with the time (isoformat leaves out a zero one).
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?"), "<datetime>"),
    # A cookie's expiry date (Set-Cookie's expires=): a wall-clock time too.
    (re.compile(r"(?i)expires=\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT"), "expires=<date>"),
    # The MAJIANG cookie's value is the key of a new server session, random on every log-in.
    (re.compile(r"MAJIANG=[^;\s\"]+"), "MAJIANG=<cookie>"),
    # Engine.IO's and socket.io's session ids (the open packet "0{"sid": ...}", the namespace's
    # "40{"sid": ...}"): random per connection.
    (re.compile(r'("sid":\s*)"[^"]*"'), r'\1"<sid>"'),
]
# Nothing else differs, so nothing else is normalised: each run has a fresh database set up alike
# (world.py), so user, game, client, chat and token ids, keys and game seeds are the same; the
# games are untimed, so no clock ("clocks": null, no remaining_ms, no timer) is sent; and the
# response headers that say when and by whom (Date, Server) are not recorded (RESPONSE_HEADERS).
# Engine.IO's heartbeat is kept out of the session altogether (WsChannel).


def normalise(text: str) -> str:
    for pattern, replacement in RULES:
        text = pattern.sub(replacement, text)
    return text


# -- transports -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Closed:
    """The server closed the link (``code``: the WebSocket close code; ``None`` for TCP)."""

    code: int | None


class Channel:
    """One client connection: a WebSocket (one message a frame) or a TCP link (one message a line).
    Everything the server sends is queued as it arrives, so a link's messages keep their order
    however the session interleaves its links."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[str | Closed] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    async def send(self, text: str) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def recv(self, timeout: float = TIMEOUT) -> str | Closed:
        try:
            return await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            raise AssertionError(f"nothing came within {timeout} s") from None


class WsChannel(Channel):
    def __init__(self, ws: websockets.ClientConnection, engineio: bool) -> None:
        super().__init__()
        self.ws = ws
        self.engineio = engineio
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, path: str, headers: dict[str, str]) -> WsChannel:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}{path}", additional_headers=headers, open_timeout=TIMEOUT,
                                      max_size=None, max_queue=None, ping_interval=None, compression=None)
        return cls(ws, "/socket.io/" in path)

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                assert isinstance(message, str), f"a binary frame: {message!r}"
                if self.engineio and message == "2":
                    # Engine.IO's heartbeat (every pingInterval, 25 s): when it comes depends on how
                    # long the session took, so it is answered here and kept out of the session.
                    await self.ws.send("3")
                    continue
                for part in lobby_frames.messages(message):
                    await self.inbox.put(part)
        except websockets.ConnectionClosed:
            pass
        received = self.ws.protocol.close_rcvd  # the close frame the server sent, if any
        await self.inbox.put(Closed(received.code if received is not None else None))

    async def send(self, text: str) -> None:
        await self.ws.send(text)

    async def close(self) -> None:
        await self.ws.close()
        if self.reader is not None:
            await self.reader


class TcpChannel(Channel):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__()
        self.stream, self.writer = reader, writer
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int) -> TcpChannel:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, limit=2**20), TIMEOUT)
        return cls(reader, writer)

    async def _read(self) -> None:
        try:
            while line := await self.stream.readline():
                await self.inbox.put(line.decode("utf-8"))
        except ConnectionError:
            pass
        await self.inbox.put(Closed(None))

    async def send(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))
        await self.writer.drain()

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except ConnectionError:
            pass
        if self.reader is not None:
            await self.reader


def http_exchange(port: int, method: str, path: str, headers: dict[str, str], body: str | None) -> dict[str, Any]:
    """One request; its status, the protocol's response headers and the body as text."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers,
                                     data=body.encode("utf-8") if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, answer, text = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, answer, text = error.code, error.headers, error.read()
    kept = {name: "\n".join(answer.get_all(name)) for name in RESPONSE_HEADERS if answer.get_all(name)}
    return {"status": status, "response_headers": kept, "response": text.decode("utf-8")}


@dataclass
class Ports:
    """Where a served tree listens (``tests/served.py``'s ``Served``)."""

    http: int
    cribbage: int | None = None
    ump: int | None = None
    mmj: int | None = None

    def of(self, name: str) -> int:
        port = getattr(self, name)
        assert port is not None, f"the {name} port is off"
        return port


async def open_channel(ports: Ports, entry: dict[str, Any], cookie: str | None) -> Channel:
    if entry["kind"] == "tcp":
        return await TcpChannel.open(ports.of(entry["port"]))
    return await WsChannel.open(ports.http, entry["path"], with_cookie(entry["headers"], cookie))


def with_cookie(headers: dict[str, str], cookie: str | None) -> dict[str, str]:
    """``headers`` with the session's MAJIANG cookie put in for ``{cookie}``: it is new on every run."""
    return {name: value.replace("{cookie}", cookie or "") for name, value in headers.items()}


def cookie_from(response_headers: dict[str, str]) -> str | None:
    for line in response_headers.get("Set-Cookie", "").splitlines():
        if line.startswith("MAJIANG=") and not line.startswith("MAJIANG=;") and not line.startswith('MAJIANG="";'):
            return line.split(";", 1)[0].removeprefix("MAJIANG=")
    return None


# -- files ------------------------------------------------------------------------------------------


def load(protocol: str, directory: Path = SESSIONS) -> list[dict[str, Any]]:
    lines = (directory / f"{protocol}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def save(protocol: str, entries: list[dict[str, Any]], directory: Path = SESSIONS) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{protocol}.jsonl"
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")
    return path


# -- recording --------------------------------------------------------------------------------------


class Recorder:
    """What a scripted client session uses: links and HTTP calls whose every exchange is logged."""

    def __init__(self, ports: Ports, setup: dict[str, Any]) -> None:
        self.ports = ports
        self.setup = setup
        self.entries: list[dict[str, Any]] = []
        self.cookie: str | None = None

    def log(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)

    async def ws(self, name: str, path: str, headers: dict[str, str] | None = None) -> Link:
        entry = {"link": name, "op": "open", "kind": "ws", "path": path, "headers": headers or {}}
        self.log(entry)
        return Link(self, name, await open_channel(self.ports, entry, self.cookie))

    async def tcp(self, name: str, port: str) -> Link:
        entry = {"link": name, "op": "open", "kind": "tcp", "port": port}
        self.log(entry)
        return Link(self, name, await open_channel(self.ports, entry, None))

    async def http(self, method: str, path: str, *, token: str | None = None, body: Any = None,
                   form: str | None = None, cookie: bool = False) -> tuple[int, str]:
        """A request (``body``: JSON; ``form``: an url-encoded form; ``cookie``: with the MAJIANG
        cookie the last log-in set); its status and body."""
        headers: dict[str, str] = {}
        text = None
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        if cookie:
            headers["Cookie"] = "MAJIANG={cookie}"
        if body is not None:
            headers["Content-Type"] = "application/json"
            text = json.dumps(body)
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            text = form
        entry = {"link": "http", "op": "http", "method": method, "path": path, "headers": headers, "body": text}
        answer = await asyncio.to_thread(http_exchange, self.ports.http, method, path,
                                         with_cookie(headers, self.cookie), text)
        self.log(entry | answer)
        self.cookie = cookie_from(answer["response_headers"]) or self.cookie
        return answer["status"], answer["response"]


class Link:
    """A recorded link: every frame sent and every message read goes into the session, in order."""

    def __init__(self, recorder: Recorder, name: str, channel: Channel) -> None:
        self.recorder, self.name, self.channel = recorder, name, channel

    async def send(self, text: str) -> None:
        self.recorder.log({"link": self.name, "op": "send", "data": text})
        await self.channel.send(text)

    async def send_json(self, message: Any) -> None:
        await self.send(json.dumps(message, ensure_ascii=False))

    async def recv(self) -> str:
        """The next message; the link must still be open."""
        got = await self.channel.recv()
        assert not isinstance(got, Closed), f"{self.name}: closed ({got.code}) where a message was expected"
        self.recorder.log({"link": self.name, "op": "recv", "data": got})
        return got

    async def recv_json(self) -> Any:
        return json.loads(await self.recv())

    async def until(self, done: Callable[[str], bool]) -> str:
        """Read up to and including the first message ``done`` accepts."""
        while not done(text := await self.recv()):
            pass
        return text

    async def until_json(self, done: Callable[[Any], bool]) -> Any:
        return json.loads(await self.until(lambda text: done(json.loads(text))))

    async def closed(self) -> int | None:
        """Read to the server's close, which must come next."""
        got = await self.channel.recv()
        assert isinstance(got, Closed), f"{self.name}: {got!r} where the close was expected"
        self.recorder.log({"link": self.name, "op": "closed", "code": got.code})
        return got.code

    async def close(self) -> None:
        self.recorder.log({"link": self.name, "op": "close"})
        await self.channel.close()


# -- replay -----------------------------------------------------------------------------------------


class Mismatch(AssertionError):
    pass


def describe(entry: dict[str, Any]) -> str:
    """An exchange in a few words: what was sent or received, or where a link or request went."""
    return str(entry.get("data", entry.get("path", entry.get("port", ""))))


def first_difference(expected: str, got: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    start = max(0, at - 60)
    return (f"first difference at character {at}:\n  recorded: ...{expected[start:at + 60]!r}\n"
            f"  served:   ...{got[start:at + 60]!r}")


async def replay(entries: list[dict[str, Any]], ports: Ports) -> int:
    """Send the recorded client side to a server, and check every answer against the recording
    (after ``normalise``). Raises ``Mismatch`` at the first exchange that differs; returns the number
    of exchanges compared."""
    channels: dict[str, Channel] = {}
    cookie: str | None = None
    compared = 0

    def fail(index: int, why: str) -> Mismatch:
        entry = entries[index]
        first = max(0, index - 3)
        before = "\n".join(f"  #{i} {e['link']} {e['op']} {describe(e)[:100]!r}"
                           for i, e in enumerate(entries[first:index], start=first))
        return Mismatch(f"exchange #{index} ({entry['link']} {entry['op']}) differs; {why}\nthe exchanges before it:\n"
                        f"{before}")

    try:
        for index, entry in enumerate(entries):
            op = entry["op"]
            if op == "open":
                channels[entry["link"]] = await open_channel(ports, entry, cookie)
            elif op == "send":
                await channels[entry["link"]].send(entry["data"])
            elif op == "close":
                await channels.pop(entry["link"]).close()
            elif op == "recv" or op == "closed":
                try:
                    got = await channels[entry["link"]].recv()
                except AssertionError as error:
                    raise fail(index, str(error)) from None
                compared += 1
                if op == "closed":
                    if got != Closed(entry["code"]):
                        raise fail(index, f"recorded: the server closes the link ({entry['code']}); served: {got!r}")
                    channels.pop(entry["link"])
                elif isinstance(got, Closed):
                    raise fail(index, f"recorded: {entry['data']!r}; served: the link closed ({got.code})")
                elif normalise(got) != normalise(entry["data"]):
                    raise fail(index, first_difference(normalise(entry["data"]), normalise(got)))
            elif op == "http":
                answer = await asyncio.to_thread(http_exchange, ports.http, entry["method"], entry["path"],
                                                 with_cookie(entry["headers"], cookie), entry["body"])
                compared += 1
                if answer["status"] != entry["status"]:
                    raise fail(index, f"status: recorded {entry['status']}, served {answer['status']}")
                for name in sorted(set(entry["response_headers"]) | set(answer["response_headers"])):
                    recorded = normalise(entry["response_headers"].get(name, "(none)"))
                    served = normalise(answer["response_headers"].get(name, "(none)"))
                    if recorded != served:
                        raise fail(index, f"header {name}: {first_difference(recorded, served)}")
                recorded, served = normalise(entry["response"]), normalise(answer["response"])
                if recorded != served:
                    raise fail(index, f"body: {first_difference(recorded, served)}")
                cookie = cookie_from(answer["response_headers"]) or cookie
            else:
                raise AssertionError(f"exchange #{index}: unknown op {op!r}")
    finally:
        for channel in channels.values():
            await channel.close()
    return compared


# -- a served tree ----------------------------------------------------------------------------------

WORLD = Path(__file__).with_name("world.py")
# CALL_FLOOR_MS: a riichi discard's call window resolves at once instead of after 600 ms (the timing
# rule's floor only slows the session; what is sent is the same).
SERVER_ENV = {"CALL_FLOOR_MS": "0"}


@contextmanager
def served_session(protocol: str, tmp_path: Path) -> Iterator[tuple[Ports, dict[str, Any]]]:
    """``tests/served.py``'s server (of its ``ROOT``) set up for ``protocol``'s session (world.py):
    its ports and what the set-up printed."""
    from tests.served import serve

    with serve(tmp_path, WORLD.read_text(encoding="utf-8"), cribbage=protocol == "cribbage", ump=protocol == "ump",
               mmj=protocol == "mmj", quiet=True, env=SERVER_ENV | {"WIRE_SESSION": protocol}) as served:
        setup = json.loads(served.setup_output.strip().splitlines()[-1])
        try:
            yield Ports(served.http_port, served.tcp_port, served.ump_port, served.mmj_port), setup
        finally:
            # The session is over. What the server would do next (play a seat whose link closed to
            # the game's end before it stops) is no part of it, and waiting for it only costs time.
            served.process.kill()
