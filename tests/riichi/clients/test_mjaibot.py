"""The mjai process bridge (games/riichi/clients/mjaibot.py, manage.py mjaibot) between a fake mjsonp
server written here (scripted events, every answer recorded) and a fake mjai.app bot process written
here (it records every array it reads and answers by a fixed rule), and, where PyPI ``mjai`` 0.2.1
is installed in .venv-mjai (``make mjai-bots``; AGPL: a venv for the tests, never the project's), its
RulebaseBot through the bridge."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.riichi.clients import mjaibot
from games.riichi.clients.mjaibot import BridgeError, MjaiBot, command_argv, is_decision
from tests.riichi.mjai_peers import BOT_PY, MISSING, MJAI_PYTHON

TOKEN = "s3cret-Token-42"
HIDDEN = ["?"] * 13
MJAI_VENV_PYTHON = MJAI_PYTHON

# The fake bot: records each array (with its pid) and answers by the last event.
FAKE_BOT = r'''
import json, os, sys, time

seat = int(sys.argv[1])
record = os.environ["FAKEBOT_RECORD"]
crash_on = int(os.environ.get("FAKEBOT_CRASH_ON", "0"))
slow_on = int(os.environ.get("FAKEBOT_SLOW_ON", "0"))
silent = os.environ.get("FAKEBOT_SILENT") == "1"


def decide(batch):
    last = batch[-1]
    t, actor = last.get("type"), last.get("actor")
    if t == "tsumo" and actor == seat:
        if last["pai"] == "E":
            return {"type": "reach", "actor": seat}
        if last["pai"] == "7m":
            return {"type": "hora", "actor": seat, "target": seat, "pai": "7m"}
        return {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
    if t == "reach" and actor == seat:
        return {"type": "dahai", "actor": seat, "pai": "9m", "tsumogiri": False}
    if t in ("pon", "chi") and actor == seat:
        return {"type": "dahai", "actor": seat, "pai": "S", "tsumogiri": False}
    if t == "dahai" and actor != seat and last["pai"] == "P":
        return {"type": "pon", "actor": seat, "target": actor, "pai": "P", "consumed": ["P", "P"]}
    return {"type": "none"}


n = 0
for line in sys.stdin:
    n += 1
    batch = json.loads(line)
    with open(record, "a") as f:
        f.write(json.dumps({"pid": os.getpid(), "seat": seat, "batch": batch, "env": sorted(os.environ)}) + "\n")
    print(f"fakebot seat {seat}: read {len(batch)} events", file=sys.stderr, flush=True)
    if crash_on and n == crash_on and not os.path.exists(record + ".crashed"):
        open(record + ".crashed", "w").close()
        print("fakebot: crashing on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    if silent:
        continue
    if n == slow_on:
        time.sleep(1.5)
    print(json.dumps(decide(batch)), flush=True)
'''


# -- the fake server -------------------------------------------------------------------------------


@dataclass
class Link:
    """One accepted connection, as a script sees it."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    answers: list[tuple[dict[str, Any], dict[str, Any]]]  # (event, answer), in order, of every link
    join: dict[str, Any] | None = None

    async def send(self, obj: dict[str, Any]) -> None:
        self.writer.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
        await self.writer.drain()

    async def read(self) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), 60)
        assert line, "the bridge closed the link"
        return json.loads(line)

    async def ask(self, event: dict[str, Any]) -> dict[str, Any]:
        await self.send(event)
        answer = await self.read()
        self.answers.append((event, answer))
        return answer

    async def hello(self) -> None:
        await self.send({"type": "hello", "protocol": "mjsonp", "protocol_version": 3})
        self.join = await self.read()

    async def play(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            await self.ask(event)


Script = Callable[[Link], Awaitable[None]]


@dataclass
class FakeServer:
    """An mjsonp server on 127.0.0.1: the n-th connection is played by ``scripts[n]`` (then closed)."""

    scripts: list[Script]
    answers: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    joins: list[dict[str, Any]] = field(default_factory=list)
    failures: list[BaseException] = field(default_factory=list)
    port: int = 0
    _server: asyncio.Server | None = None

    async def __aenter__(self) -> FakeServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = Link(reader, writer, self.answers)
        try:
            script = self.scripts.pop(0)
            await link.hello()
            assert link.join is not None
            self.joins.append(link.join)
            await script(link)
        except BaseException as exc:  # noqa: BLE001  (kept for the test to raise)
            self.failures.append(exc)
        finally:
            writer.close()


def events_of(answers: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[tuple[str, Any, Any]]:
    return [(e["type"], e.get("actor"), a) for e, a in answers]


# -- scripted hands (the bridge plays seat 1) ------------------------------------------------------

START_GAME = {"type": "start_game", "id": 1, "names": ["ann", "alice", "carl", "dora"], "kyoku_first": 0,
              "aka_flag": True}
HAND_1 = ["1m", "9m", "2p", "3p", "4p", "P", "P", "5s", "6s", "7s", "N", "N", "S"]
HAND_2 = ["1m", "2m", "3m", "5m", "6m", "4p", "5p", "6p", "7s", "8s", "9s", "9m", "W"]


def start_kyoku(kyoku: int, oya: int, hand: list[str]) -> dict[str, Any]:
    return {"type": "start_kyoku", "bakaze": "E", "dora_marker": "3s", "kyoku": kyoku, "honba": 0, "kyotaku": 0,
            "oya": oya, "scores": [25000] * 4, "tehais": [hand if s == 1 else HIDDEN for s in range(4)]}


def tsumo(actor: int, pai: str = "?") -> dict[str, Any]:
    return {"type": "tsumo", "actor": actor, "pai": pai}


def dahai(actor: int, pai: str, tsumogiri: bool = True) -> dict[str, Any]:
    return {"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri}


SK1 = start_kyoku(1, 0, HAND_1)
PON = {"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]}
RYUKYOKU = {"type": "ryukyoku", "reason": "fanpai", "tehais": [HIDDEN] * 4, "tenpais": [False] * 4,
            "deltas": [0, 0, 0, 0], "scores": [25000] * 4}
END_KYOKU = {"type": "end_kyoku"}
SK2 = start_kyoku(2, 1, HAND_2)
REACH = {"type": "reach", "actor": 1}
REACH_ACCEPTED = {"type": "reach_accepted", "actor": 1, "deltas": [0, -1000, 0, 0],
                  "scores": [25000, 24000, 25000, 25000]}
HORA = {"type": "hora", "actor": 1, "target": 1, "pai": "7m", "hora_tehais": HAND_2[:12] + ["7m"],
        "uradora_markers": ["1p"], "ura_markers": ["1p"], "yakus": [["reach", 1], ["menzenchin_tsumoho", 1]],
        "fu": 30, "fan": 2, "hora_points": 2900, "deltas": [-1000, 4000, -1000, -1000],
        "scores": [24000, 28000, 24000, 24000]}
END_GAME = {"type": "end_game", "scores": [24000, 28000, 24000, 24000]}

# Hand 1: a pon on another's P, the discard after it, call chances passed, a draw, an exhaustive draw.
HAND_1_EVENTS = [SK1, tsumo(0), dahai(0, "P"), PON, dahai(1, "S", False), tsumo(2), dahai(2, "W"),
                 tsumo(3), dahai(3, "1p"), tsumo(0), dahai(0, "2p"), tsumo(1, "3s"), dahai(1, "3s"), RYUKYOKU,
                 END_KYOKU]
# Hand 2 (alice deals): riichi on E, the riichi discard 9m refused, E played; a tsumo win on 7m.
HAND_2_OPEN = [SK2, tsumo(1, "E")]
HAND_2_REST = [dahai(1, "E"), REACH_ACCEPTED, tsumo(2), dahai(2, "7m"), tsumo(3), dahai(3, "N"), tsumo(0),
               dahai(0, "N"), tsumo(1, "7m"), HORA, END_KYOKU, END_GAME]


async def whole_game(link: Link) -> None:
    await link.play([START_GAME, *HAND_1_EVENTS, *HAND_2_OPEN])
    answer = await link.ask(REACH)
    if answer != dahai(1, "E"):  # the bot's 9m does not keep the hand ready
        await link.send({"type": "error", "message": "dahai 9m: after reach the discard must keep your hand ready: E"})
        await link.ask(REACH)
    await link.play(HAND_2_REST)


NONE = {"type": "none"}
# What the server hears for each event of whole_game, in order (bot: the fake bot's rule).
WHOLE_GAME_ANSWERS = [
    NONE,  # start_game
    NONE, NONE,  # start_kyoku, tsumo 0
    {"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]},  # dahai 0 P
    {"type": "dahai", "actor": 1, "pai": "S", "tsumogiri": False},  # its own pon
    NONE, NONE, NONE, NONE, NONE, NONE, NONE,  # its dahai S; tsumo 2, dahai 2 W; tsumo 3, dahai 3; tsumo 0, dahai 0
    dahai(1, "3s"),  # tsumo 1 3s
    NONE, NONE, NONE,  # its dahai, ryukyoku, end_kyoku
    NONE,  # start_kyoku 2
    {"type": "reach", "actor": 1},  # tsumo 1 E
    dahai(1, "9m", False),  # the reach: refused
    dahai(1, "E"),  # the reach again: the stand-in, the drawn tile
    NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,  # its dahai E ... dahai 0 N
    {"type": "hora", "actor": 1, "target": 1, "pai": "7m"},  # tsumo 1 7m
    NONE, NONE, NONE,  # hora, end_kyoku, end_game
]
WHOLE_GAME_BATCHES = [
    [START_GAME],
    [SK1, tsumo(0), dahai(0, "P")],
    [PON],
    [dahai(1, "S", False), tsumo(2), dahai(2, "W")],
    [tsumo(3), dahai(3, "1p")],
    [tsumo(0), dahai(0, "2p")],
    [tsumo(1, "3s")],
    [dahai(1, "3s"), RYUKYOKU, END_KYOKU],
    [SK2, tsumo(1, "E")],
    [REACH],
    [dahai(1, "E"), REACH_ACCEPTED, tsumo(2), dahai(2, "7m")],
    [tsumo(3), dahai(3, "N")],
    [tsumo(0), dahai(0, "N")],
    [tsumo(1, "7m")],
    [HORA, END_KYOKU],
    [END_GAME],
]


# -- helpers --------------------------------------------------------------------------------------


@pytest.fixture
def fake_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake bot's script; what it reads lands in ``tmp_path / "record.jsonl"``."""
    script = tmp_path / "fakebot.py"
    script.write_text(FAKE_BOT)
    monkeypatch.setenv("FAKEBOT_RECORD", str(tmp_path / "record.jsonl"))
    return script


def records(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "record.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def bridge(port: int, script: Path, tmp_path: Path, **kwargs: Any) -> MjaiBot:
    kwargs.setdefault("retry", 5.0)
    return MjaiBot("127.0.0.1", port, "alice", TOKEN, f"{sys.executable} {script} {{seat}}", game=7,
                   log_path=tmp_path / "bridge.log", **kwargs)


async def play(server: FakeServer, bot: MjaiBot) -> None:
    await asyncio.wait_for(bot.run(), 120)
    if server.failures:
        raise server.failures[0]


# -- the rule --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("event", "decision"), [
    (tsumo(1, "3s"), True),
    (tsumo(0), False),
    (REACH, True),
    ({"type": "reach", "actor": 2}, False),
    (PON, True),
    ({"type": "chi", "actor": 1, "target": 0, "pai": "3m", "consumed": ["4m", "5m"]}, True),
    ({"type": "daiminkan", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P", "P"]}, False),
    (dahai(0, "P"), True),
    (dahai(1, "P"), False),
    ({**dahai(0, "P"), "possible_actions": []}, False),
    ({**dahai(0, "P"), "possible_actions": [{"type": "pon"}]}, True),
    ({"type": "kakan", "actor": 2, "pai": "E", "consumed": ["E", "E", "E"]}, True),
    ({"type": "ankan", "actor": 3, "consumed": ["E", "E", "E", "E"]}, True),
    ({"type": "kakan", "actor": 1, "pai": "E", "consumed": ["E", "E", "E"]}, False),
    (REACH_ACCEPTED, False), ({"type": "dora", "dora_marker": "1m"}, False), (HORA, False), (RYUKYOKU, False),
    (SK1, False), (END_KYOKU, False), (START_GAME, False),
])
def test_decision_rule(event: dict[str, Any], decision: bool) -> None:
    assert is_decision(event, 1) is decision


def test_command_template_replaces_the_seat_in_every_word() -> None:
    assert command_argv("python 'my bot.py' {seat} --log=bot{seat}.log", 2) == [
        "python", "my bot.py", "2", "--log=bot2.log"]


# -- whole games against the fake server ----------------------------------------------------------


async def test_batches_answers_reach_call_error_and_hora(fake_bot: Path, tmp_path: Path) -> None:
    async with FakeServer([whole_game]) as server:
        bot = bridge(server.port, fake_bot, tmp_path)
        await play(server, bot)
    assert server.joins == [{"type": "join", "name": "alice", "room": f"alice:{TOKEN}@7"}]
    assert [a for _, a in server.answers] == WHOLE_GAME_ANSWERS
    got = records(tmp_path)
    assert [r["batch"] for r in got] == WHOLE_GAME_BATCHES
    assert {r["seat"] for r in got} == {1} and len({r["pid"] for r in got}) == 1
    assert bot.final == END_GAME["scores"] and bot.finished and bot.restarts == 0
    log = (tmp_path / "bridge.log").read_text()
    assert "refused by the server: dahai 9m: after reach" in log
    assert "answering reach again with dahai E (tsumogiri)" in log
    assert "fakebot seat 1: read 3 events" in log  # the bot's stderr
    assert TOKEN not in log


async def test_a_bot_that_crashes_is_started_again_at_the_next_hand(
        fake_bot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKEBOT_CRASH_ON", "5")  # dies reading [tsumo 3, dahai 3 1p]
    async with FakeServer([whole_game]) as server:
        bot = bridge(server.port, fake_bot, tmp_path)
        await play(server, bot)
    got = records(tmp_path)
    first, second = sorted({r["pid"] for r in got}, key=[r["pid"] for r in got].index)
    assert [r["batch"] for r in got if r["pid"] == first] == WHOLE_GAME_BATCHES[:5]
    # The new process: start_game alone, then the next hand from its start_kyoku, as the first one had it.
    assert [r["batch"] for r in got if r["pid"] == second] == [[START_GAME], *WHOLE_GAME_BATCHES[8:]]
    answers = [a for _, a in server.answers]
    # Stood in for while it was down: a pass to the call chance, and tsumogiri of the drawn 3s.
    assert answers == WHOLE_GAME_ANSWERS and bot.restarts == 1
    log = (tmp_path / "bridge.log").read_text()
    assert "fakebot: crashing on purpose" in log
    assert "the bot exited (code 3)" in log and "starting the bot again (restart 1)" in log


async def test_a_late_answer_is_dropped_and_the_next_one_paired_right(
        fake_bot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKEBOT_SLOW_ON", "3")  # [pon]: its discard comes 1.5 s late
    async with FakeServer([whole_game]) as server:
        bot = bridge(server.port, fake_bot, tmp_path, timeout=0.5)
        await play(server, bot)
    # The stand-in after its own pon: a tile of the hand, of another kind than the P called.
    expected = [*WHOLE_GAME_ANSWERS[:4], dahai(1, "1m", False), *WHOLE_GAME_ANSWERS[5:]]
    assert [a for _, a in server.answers] == expected
    assert [r["batch"] for r in records(tmp_path)] == WHOLE_GAME_BATCHES
    log = (tmp_path / "bridge.log").read_text()
    assert "timeout: no answer in 0.5 s" in log and 'a late answer dropped: {"type": "dahai"' in log


async def test_a_silent_bot_times_out_after_the_default_ten_seconds(
        fake_bot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKEBOT_SILENT", "1")

    async def one_draw(link: Link) -> None:
        await link.play([START_GAME, SK1])
        started = time.monotonic()
        await link.ask(tsumo(1, "3s"))
        link.answers.append(({"type": "elapsed"}, {"seconds": time.monotonic() - started}))
        await link.play([dahai(1, "3s"), RYUKYOKU, END_KYOKU, END_GAME])

    async with FakeServer([one_draw]) as server:
        bot = bridge(server.port, fake_bot, tmp_path)
        assert bot.timeout == mjaibot.DEFAULT_TIMEOUT == 10.0
        await play(server, bot)
    answers = dict((e["type"] + str(e.get("actor", "")), a) for e, a in server.answers)
    assert answers["tsumo1"] == dahai(1, "3s")  # the drawn tile, tsumogiri
    assert answers["elapsed"]["seconds"] >= 10.0
    log = (tmp_path / "bridge.log").read_text()
    assert "timeout: no answer in 10 s" in log and "played dahai 3s (tsumogiri)" in log


async def test_a_dropped_link_is_taken_again_and_the_replay_is_not_sent_to_the_bot(
        fake_bot: Path, tmp_path: Path) -> None:
    """The link drops after the riichi discard was sent (lost, say): the server sends the hand
    again, the draw still asking (the riichi is not played until its discard); the bridge answers
    each event it has seen with its recorded answer, reach and discard included, and the bot reads
    nothing twice."""
    before = [START_GAME, SK2, tsumo(1, "E"), REACH]

    async def dropped(link: Link) -> None:
        await link.play(before)

    async def replayed(link: Link) -> None:
        await link.play(before)
        await link.play([dahai(1, "9m", False), REACH_ACCEPTED, tsumo(2), dahai(2, "N"), RYUKYOKU, END_KYOKU,
                         END_GAME])

    async with FakeServer([dropped, replayed]) as server:
        bot = bridge(server.port, fake_bot, tmp_path)
        await play(server, bot)
    assert len(server.joins) == 2
    answers = [a for _, a in server.answers]
    reach, discard = {"type": "reach", "actor": 1}, dahai(1, "9m", False)
    assert answers[:4] == [NONE, NONE, reach, discard]
    assert answers[4:8] == [NONE, NONE, reach, discard]  # the replay, answered as before
    assert answers[8:] == [NONE] * 7
    got = records(tmp_path)
    assert [r["batch"] for r in got] == [
        [START_GAME], [SK2, tsumo(1, "E")], [REACH],
        [dahai(1, "9m", False), REACH_ACCEPTED, tsumo(2), dahai(2, "N")], [RYUKYOKU, END_KYOKU], [END_GAME]]
    assert len({r["pid"] for r in got}) == 1
    log = (tmp_path / "bridge.log").read_text()
    assert "link dropped; reconnecting" in log and "the server replays the hand in play" in log


async def test_an_aborted_game_ends_the_bridge(fake_bot: Path, tmp_path: Path) -> None:
    async def aborted(link: Link) -> None:
        await link.play([START_GAME, SK1, tsumo(0)])
        await link.send({"type": "error", "message": "GameEnded: game 7 is over for this link: aborted"})

    async with FakeServer([aborted]) as server:
        bot = bridge(server.port, fake_bot, tmp_path)
        with pytest.raises(BridgeError, match="GameEnded: game 7 is over"):
            await play(server, bot)
    assert bot.bot is not None and not bot.bot.alive and bot.bot.returncode is not None
    assert [r["batch"] for r in records(tmp_path)] == [[START_GAME]]


async def test_a_refused_login_ends_the_bridge(fake_bot: Path, tmp_path: Path) -> None:
    async def refuse(link: Link) -> None:
        await link.send({"type": "error", "message": f"join: unknown user or token for room alice:{TOKEN}"})

    async with FakeServer([refuse]) as server:
        bot = bridge(server.port, fake_bot, tmp_path)
        with pytest.raises(BridgeError, match="login refused: join: unknown user") as caught:
            await play(server, bot)
    assert TOKEN not in str(caught.value)
    assert records(tmp_path) == []
    assert TOKEN not in (tmp_path / "bridge.log").read_text()


@pytest.mark.parametrize("given", ["option", "environment"])
async def test_the_command_plays_logs_and_never_shows_the_token(
        fake_bot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    log = tmp_path / "cmd.log"
    monkeypatch.setenv("SOME_COPY_OF_THE_TOKEN", f"x{TOKEN}x")
    token = ["--token", TOKEN] if given == "option" else []
    if given == "environment":
        monkeypatch.setenv("MJAI_TOKEN", TOKEN)
    async with FakeServer([whole_game]) as server:
        await asyncio.wait_for(asyncio.to_thread(
            call_command, "mjaibot", "127.0.0.1", str(server.port), "--cmd", f"{sys.executable} {fake_bot} {{seat}}",
            "--user", "alice", *token, "--game", "7", "--log", str(log), "--retry", "5",
            "-v", "2", stdout=out, stderr=err), 120)
        if server.failures:
            raise server.failures[0]
    assert [a for _, a in server.answers] == WHOLE_GAME_ANSWERS
    printed = out.getvalue() + err.getvalue()
    assert '-> {"type":"join","name":"alice","room":"alice:…@7"}' in printed
    assert "bot<- [" in printed and "game over: scores [24000, 28000, 24000, 24000]" in printed
    text = log.read_text()
    assert "fakebot seat 1: read" in text
    assert TOKEN not in printed and TOKEN not in text
    assert server.joins[0]["room"] == f"alice:{TOKEN}@7"
    env = records(tmp_path)[0]["env"]  # the bot's environment: nothing that holds the token
    assert "MJAI_TOKEN" not in env and "SOME_COPY_OF_THE_TOKEN" not in env and "FAKEBOT_RECORD" in env


async def test_sigterm_stops_the_bot_and_the_bridge(fake_bot: Path, tmp_path: Path) -> None:
    """As the server's supervisor stops a bridge: ``manage.py mjaibot`` (a real process, the token
    in MJAI_TOKEN) gets SIGTERM mid-game; the bot process goes with it."""
    release = asyncio.Event()

    async def waits(link: Link) -> None:
        await link.play([START_GAME, SK1])
        await link.send(tsumo(0))
        await release.wait()

    root = Path(__file__).resolve().parents[3]
    async with FakeServer([waits]) as server:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "manage.py", "mjaibot", "--cmd", f"{sys.executable} {fake_bot} {{seat}}",
            "127.0.0.1", str(server.port), "--user", "alice", "--log", str(tmp_path / "term.log"),
            cwd=root, env={**os.environ, "MJAI_TOKEN": TOKEN},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            for _ in range(600):
                if records(tmp_path):
                    break
                await asyncio.sleep(0.05)
            bot_pid = records(tmp_path)[0]["pid"]
            proc.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            release.set()
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert proc.returncode == 1, err
    assert b"stopped by a signal" in err and TOKEN.encode() not in out + err
    with pytest.raises(ProcessLookupError):
        os.kill(bot_pid, 0)


async def test_the_command_exits_1_when_the_login_is_refused(fake_bot: Path, tmp_path: Path) -> None:
    async def refuse(link: Link) -> None:
        await link.send({"type": "error", "message": "join: bad token"})

    async with FakeServer([refuse]) as server:
        with pytest.raises(CommandError, match="login refused: join: bad token") as caught:
            await asyncio.to_thread(
                call_command, "mjaibot", "127.0.0.1", str(server.port),
                "--cmd", f"{sys.executable} {fake_bot} {{seat}}", "--user", "alice", "--token", TOKEN,
                "--log", str(tmp_path / "x.log"), "--retry", "1",
                stdout=io.StringIO(), stderr=io.StringIO())
    assert caught.value.returncode == 1


# -- mjai 0.2.1's own bot --------------------------------------------------------------------------

# bot.py for mjai 0.2.1's shipped bots (mjai.app's examples/rulebase/bot.py has the same shape).


def _mjai_venv() -> bool:
    if not MJAI_VENV_PYTHON.exists():
        return False
    probe = subprocess.run([str(MJAI_VENV_PYTHON), "-c", "import mjai.bot.rulebase, importlib.metadata as m; "
                            "assert m.version('mjai') == '0.2.1'"], capture_output=True, timeout=60)
    return probe.returncode == 0


@pytest.mark.parametrize(("module", "cls"), [("mjai.bot.rulebase", "RulebaseBot"), ("mjai.bot.riichibot", "RiichiBot")])
async def test_mjai_bots_through_the_bridge(tmp_path: Path, module: str, cls: str) -> None:
    """mjai 0.2.1's bot at seat 0 deals a hand one tile from ready: it declares riichi on its first
    draw, discards the odd tile, passes three discards and wins on its draw."""
    assert _mjai_venv(), MISSING
    script = tmp_path / "bot.py"
    script.write_text(BOT_PY.format(module=module, cls=cls))
    hand = ["1m", "2m", "3m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    game = {"type": "start_game", "id": 0, "names": ["rb", "b", "c", "d"], "kyoku_first": 0, "aka_flag": True}
    kyoku = {"type": "start_kyoku", "bakaze": "E", "dora_marker": "3s", "kyoku": 1, "honba": 0, "kyotaku": 0,
             "oya": 0, "scores": [25000] * 4, "tehais": [hand, HIDDEN, HIDDEN, HIDDEN]}

    async def hand_with_riichi(link: Link) -> None:
        await link.play([game, kyoku])
        assert await link.ask(tsumo(0, "N")) == {"type": "reach", "actor": 0}
        discard = await link.ask({"type": "reach", "actor": 0})
        assert discard["type"] == "dahai" and discard["pai"] == "N"
        await link.play([{**discard, "actor": 0}, {"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0],
                                                  "scores": [24000, 25000, 25000, 25000]},
                         tsumo(1), dahai(1, "9p"), tsumo(2), dahai(2, "P"), tsumo(3), dahai(3, "S")])
        win = await link.ask(tsumo(0, "4m"))
        assert win == {"type": "hora", "actor": 0, "target": 0, "pai": "4m"}, win
        await link.play([{"type": "hora", "actor": 0, "target": 0, "pai": "4m",
                          "hora_tehais": [*hand, "4m"], "uradora_markers": ["1p"], "ura_markers": ["1p"],
                          "yakus": [["reach", 1]], "fu": 40, "fan": 1, "hora_points": 2000,
                          "deltas": [3000, -1000, -1000, -1000],
                          "scores": [27000, 24000, 24000, 24000]},
                         END_KYOKU, {"type": "end_game", "scores": [27000, 24000, 24000, 24000]}])

    async with FakeServer([hand_with_riichi]) as server:
        bot = MjaiBot("127.0.0.1", server.port, "rb", TOKEN, f"{MJAI_VENV_PYTHON} {script} {{seat}}",
                      timeout=30.0, retry=5.0, log_path=tmp_path / "rb.log")
        await play(server, bot)
    answered = [a["type"] for _, a in server.answers]
    assert answered.count("none") == len(answered) - 3  # reach, dahai, hora
    log = (tmp_path / "rb.log").read_text()
    if cls == "RulebaseBot":
        assert "mjai.bot.rulebase:think" in log  # its loguru lines, on its stderr
    assert "timeout" not in log and "refused" not in log and "exited" not in log
    assert TOKEN not in log and os.path.exists(tmp_path / "rb.log")
