"""The timing rule (docs/riichi-table.md): how long the table waits after a discard must not say
whether anyone could call it.

Four real clients play over real WebSockets against the server `make run` starts. Each answers
every decision as a fast person would: nothing to decide, an automatic pass at once; a call it
could make, declined after a quick reaction (``REACTION``). The discarder times the wait from its
own discard's push to the next push. With the floor (``CALL_FLOOR_MS``) both kinds of wait are the
floor; with no floor, the same clients show the table who could call (the control run, which
proves the measurement can see the difference it guards against)."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field

import pytest
import websockets

from tests.served import serve

pytestmark = pytest.mark.django_db(transaction=True)

FLOOR_MS = 300
REACTION = 0.15  # seconds: a person declining a call quickly, well inside the floor
SAMPLES = 6  # waits of each kind (a call was possible / was not) per run
RUN_SECONDS = 90

SETUP = """
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
from games.service import lobby
call_command("migrate", verbosity=0)
users = [User.objects.create_user(username=f"timing{i}", password=None) for i in range(4)]
game = lobby.create_table(users[0], "riichi", 4, rules={"場数": 1})
for user in users[1:]:
    lobby.join(user, game.id)
for user in users:
    lobby.accept(user, game.id)
print(*[token_for(u) for u in users], game.id)
"""


@dataclass
class Table:
    """What the four clients learn together: per discard push (its v), whether any seat could
    call, and the waits the discarders measured."""

    could_call: dict[int, bool] = field(default_factory=dict)
    waits: list[tuple[int, float]] = field(default_factory=list)  # (v of the discard push, seconds)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def enough(self) -> bool:
        kinds = [self.could_call.get(v) for v, _ in self.waits]
        return kinds.count(True) >= SAMPLES and kinds.count(False) >= SAMPLES


async def player(port: int, token: str, game_id: int, table: Table) -> None:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", open_timeout=30, max_queue=None)
    try:
        await ws.send(json.dumps({"type": "Login", "version": 1, "token": token, "history": False}))
        await ws.send(json.dumps({"type": "Resync", "game": game_id}))
        answered = 0
        discarded_at: tuple[int, float] | None = None  # (v, when) of this seat's own discard push
        while not table.done.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1))
            except TimeoutError:
                continue
            if message.get("game") != game_id or message["type"] not in ("Snapshot", "GameMessages"):
                continue
            if message["type"] == "GameMessages" and not message["messages"]:
                continue  # an answer collected, nothing shown yet: the window is still open
            now = time.monotonic()
            me = message.get("view", {}).get("viewer")
            if discarded_at is not None and message["v"] > discarded_at[0]:
                table.waits.append((discarded_at[0], now - discarded_at[1]))
                discarded_at = None
                if table.enough():
                    table.done.set()
            kinds = [m["type"] for m in message.get("messages", [])]
            if kinds and kinds[-1] == "dapai" and message["messages"][-1]["player"] == me:
                discarded_at = (message["v"], now)
            legal = message.get("legal") or []
            if not legal or message["v"] <= answered:
                continue
            answered = message["v"]
            options = {entry["type"] for entry in legal if entry.get("allowed", True)}
            in_window = kinds[-1:] == ["dapai"] if kinds else False
            if in_window:
                could = bool(options - {"pass"})
                table.could_call[message["v"]] = table.could_call.get(message["v"], False) or could
                if could:
                    await asyncio.sleep(REACTION)  # a person reads the prompt and declines
            # Every decision is a pass: on one's own turn that is the default discard (tsumogiri).
            await ws.send(json.dumps({"type": "DoGameAction", "game": game_id, "v": message["v"],
                                      "action": "pass", "params": []}))
    finally:
        await ws.close()


def measure(tmp_path, floor_ms: int, monkeypatch) -> dict[bool, list[float]]:
    monkeypatch.setenv("CALL_FLOOR_MS", str(floor_ms))
    tmp_path.mkdir()
    with serve(tmp_path, SETUP, cribbage=False, quiet=True) as site:
        *tokens, game_id = site.setup_output.split()[-5:]

        async def run() -> Table:
            table = Table()
            players = [asyncio.create_task(player(site.http_port, t, int(game_id), table)) for t in tokens]
            try:
                await asyncio.wait_for(table.done.wait(), RUN_SECONDS)
            finally:
                table.done.set()
                await asyncio.gather(*players)
            return table

        table = asyncio.run(run())
    waits: dict[bool, list[float]] = {True: [], False: []}
    for v, seconds in table.waits:
        waits[table.could_call.get(v, False)].append(seconds)
    return waits


def test_the_wait_after_a_discard_does_not_tell_whether_a_call_was_possible(tmp_path, monkeypatch):
    held = measure(tmp_path / "floor", FLOOR_MS, monkeypatch)
    control = measure(tmp_path / "none", 0, monkeypatch)
    for waits in (held, control):
        assert len(waits[True]) >= SAMPLES and len(waits[False]) >= SAMPLES, waits
    gap = statistics.median(held[True]) - statistics.median(held[False])
    # With the floor: every wait is the floor (less the push's own few ms), whoever could call.
    assert min(held[True] + held[False]) >= FLOOR_MS / 1000 - 0.05, held
    assert abs(gap) < REACTION / 3, (gap, held)
    # Without it, the same clients give the caller away: the control proves the test can fail.
    control_gap = statistics.median(control[True]) - statistics.median(control[False])
    assert control_gap > REACTION * 2 / 3, (control_gap, control)
