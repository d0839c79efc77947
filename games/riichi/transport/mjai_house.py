"""mjai bots as house bots (docs/protocols/mjai.md, "mjai bots as house bots").

An operator registers mjai bot commands (settings.MJAI_BOTS: a name and a command with ``{seat}``
each); a host seats one at a riichi table (AddBot ``mjai:<name>``: the account ``mjai-<name>-1``).
Once that game is in progress, the server runs the process bridge for the seat
(``manage.py mjaibot``, games/riichi/clients/mjaibot.py) as a child process: it connects to this
server's mjai port with a token made for it, and starts the bot. The supervisor looks every
``INTERVAL`` seconds, in one process only (``presence.leads``):

- a seat in a game in progress with no bridge of this process's starts one (once: a bridge that
  dies is not started again). Until its bridge is in, the game waits for the seat as for any
  player; a seat whose bridge died, or whose bot is no longer registered, is marked away, and the
  house bot plays it (``moves._server_played``);
- a bridge whose game is no longer in progress is stopped (it ends by itself after ``end_game``);
- every bridge is stopped with the server, and its token revoked.

It runs beside the clock sweeper under ``manage.py serve`` (what ``make run`` starts), when
MJAI_BOTS names a bot and the mjai port is on.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from games.core import db
from games.riichi.transport import gateway
from games.service import door, presence

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[3]
INTERVAL = 2.0
STOP_SECONDS = 5


@dataclass
class Bridge:
    game: int
    username: str
    token_id: int
    process: subprocess.Popen


def bot_name(username: str) -> str:
    """The MJAI_BOTS name an account ``mjai-<name>-<n>`` plays."""
    return username.removeprefix(door.MJAI_PREFIX).rsplit("-", 1)[0]


class Supervisor:
    """The bridges this process runs, by (game, account)."""

    def __init__(self, port: int, log_dir: Path) -> None:
        self.port = port
        self.log_dir = log_dir
        self.bridges: dict[tuple[int, str], Bridge] = {}
        self.skipped: set[tuple[int, str]] = set()  # seats of a bot no longer registered
        self.away: set[tuple[int, str]] = set()  # seats marked away, their bridge gone

    def command(self, game: int, username: str) -> list[str] | None:
        template = settings.MJAI_BOTS.get(bot_name(username))
        if template is None:
            return None  # a bot the operator no longer runs: its seat is played by the server
        return [sys.executable, "manage.py", "mjaibot", "--cmd", template, "127.0.0.1", str(self.port),
                "--user", username, "--game", str(game), "--log", str(self.log_dir / f"mjai-{game}-{username}.log")]

    async def tick(self) -> None:
        wanted = set(await db.call(gateway.mjai_seats)) if await db.call(presence.leads) else set()
        for key, bridge in list(self.bridges.items()):
            if key not in wanted and bridge.process.poll() is None:
                await self.stop(bridge)
        for game, username in wanted - self.bridges.keys() - self.skipped:
            command = self.command(game, username)
            if command is None:
                self.skipped.add((game, username))  # looked at once: not every pass
                continue
            token_id, key = await db.call(gateway.bridge_token, username)
            # The key goes in the environment, not the command line another user could read in ps.
            process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "MJAI_TOKEN": key},
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True)
            self.bridges[game, username] = Bridge(game, username, token_id, process)
            log.info("mjai bot %s started for game %s (pid %s)", username, game, process.pid)
        for key, bridge in list(self.bridges.items()):
            if key not in wanted and bridge.process.poll() is not None:
                del self.bridges[key]
                await db.call(gateway.revoke_bridge_token, bridge.username, bridge.token_id)
        for key in wanted - self.away:
            bridge = self.bridges.get(key)
            if key in self.skipped or (bridge is not None and bridge.process.poll() is not None):
                # A bridge that died before its link was in would leave the game waiting for ever.
                self.away.add(key)
                await db.call(gateway.mjai_bot_away, *key)
        self.away &= wanted
        self.skipped &= wanted

    async def stop(self, bridge: Bridge) -> None:
        bridge.process.terminate()
        try:
            await asyncio.to_thread(bridge.process.wait, STOP_SECONDS)
        except subprocess.TimeoutExpired:
            bridge.process.kill()

    def kill_all(self) -> None:
        """At the server's end: no bridge outlives it."""
        for bridge in self.bridges.values():
            if bridge.process.poll() is None:
                bridge.process.kill()

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        atexit.register(self.kill_all)
        try:
            while not stop.is_set():
                try:
                    await self.tick()
                except Exception:  # noqa: BLE001 - one bad look must not stop the next
                    log.exception("mjai bots supervisor failed")
                try:
                    await asyncio.wait_for(stop.wait(), INTERVAL)
                except TimeoutError:
                    pass
        finally:
            self.kill_all()


_tasks: set[asyncio.Task[None]] = set()


def start(port: int) -> Supervisor | None:
    """Run the supervisor on the running loop (``manage.py serve``), when MJAI_BOTS names a bot and
    the mjai port is on."""
    if not settings.MJAI_BOTS or not port:
        return None
    log_dir = Path(os.environ.get("MJAI_LOG_DIR", ROOT / "logs"))
    log_dir.mkdir(parents=True, exist_ok=True)
    supervisor = Supervisor(port, log_dir)
    task = asyncio.get_running_loop().create_task(supervisor.run())
    _tasks.add(task)  # the loop keeps only a weak reference
    task.add_done_callback(_tasks.discard)
    return supervisor
