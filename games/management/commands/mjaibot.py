"""``manage.py mjaibot --cmd "python bot.py {seat}" HOST PORT --user U [--token T]``: an mjai.app
bot process at an mjai TCP server's table.

The bridge is ``games.riichi.clients.mjaibot.MjaiBot`` (pure asyncio): it logs in with ``join``'s
room ``U:T`` (``U:T@N`` with ``--game N``), starts ``--cmd`` when ``start_game`` says the seat
(``{seat}`` replaced by it; the command is split as a shell would but not run by one), feeds the bot
one JSON array of events a line, as mjai.app does, and sends its answers to the server. See
docs/protocols/mjai.md, "The process bridge (manage.py mjaibot)", for the batching rule, the
time-out, restarts and reconnecting.

The token is taken from ``--token``, else from the environment's ``MJAI_TOKEN`` (which ps does
not show); it is never passed to the bot, printed or logged. The bot's stderr and the bridge's
notes (time-outs, refusals, restarts) are appended to ``--log`` (default ``mjaibot-<user>.log``);
with ``-v 1`` (the default) the notes are printed too, with ``-v 2`` every line (``<-``/``->`` the
server's, ``bot<-``/``bot->`` the bot's). SIGTERM or SIGINT stop the bot and the bridge. Exits 0
after ``end_game``, 1 when the login is refused, the game is aborted (``GameEnded``), the server
stays away longer than ``--retry`` seconds, or a signal stopped it.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Coroutine
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.riichi.clients.mjaibot import DEFAULT_RETRY, DEFAULT_TIMEOUT, TOKEN_ENV, BridgeError, MjaiBot


async def _until_signalled(work: Coroutine[Any, Any, None]) -> None:
    """Run ``work``; SIGTERM or SIGINT cancel it, so that it stops the bot process on its way out
    (a supervisor stops a bridge with SIGTERM)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    signals = (signal.SIGTERM, signal.SIGINT)
    for sig in signals:
        try:
            loop.add_signal_handler(sig, task.cancel)
        except (RuntimeError, ValueError):  # not the main thread (a test's call_command)
            pass
    try:
        await work
    finally:
        for sig in signals:
            try:
                loop.remove_signal_handler(sig)
            except (RuntimeError, ValueError):
                pass


class Command(BaseCommand):
    help = "Bridge an mjai.app bot process (bot.py <seat>) to an mjai TCP server (gimite's mjsonp)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("host")
        parser.add_argument("port", type=int)
        parser.add_argument("--cmd", required=True,
                            help='the bot\'s command, {seat} replaced by its seat, e.g. "python bot.py {seat}"')
        parser.add_argument("--user", required=True, help="username to log in with")
        parser.add_argument("--token", default=None,
                            help=f"the user's API token, sent in join's room (default: ${TOKEN_ENV}, "
                                 "which ps does not show)")
        parser.add_argument("--game", default=None, help="game id to join or take a seat at (room user:token@N)")
        parser.add_argument("--name", default=None, help="join's name (default: the username)")
        parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                            help=f"seconds the bot has for a decision (default {DEFAULT_TIMEOUT:g}; "
                                 "then the bridge discards the drawn tile, or passes)")
        parser.add_argument("--retry", type=float, default=DEFAULT_RETRY,
                            help=f"seconds to keep trying to (re)connect (default {DEFAULT_RETRY:g})")
        parser.add_argument("--log", default=None, help="file the bot's stderr and the notes are appended to "
                                                        "(default mjaibot-<user>.log)")

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity = int(options["verbosity"])
        token = options["token"] or os.environ.get(TOKEN_ENV, "")
        if not token:
            raise CommandError(f"give the API token with --token or in ${TOKEN_ENV}")
        bridge = MjaiBot(
            options["host"], options["port"], options["user"], token, options["cmd"],
            game=options["game"], name=options["name"], timeout=max(0.0, options["timeout"]),
            retry=max(0.0, options["retry"]), log_path=options["log"] or f"mjaibot-{options['user']}.log",
            notes=self.stderr.write if verbosity >= 1 else None,
            trace=(lambda direction, line: self.stdout.write(f"{direction} {line}")) if verbosity >= 2 else None,
        )
        try:
            asyncio.run(_until_signalled(bridge.run()))
        except BridgeError as exc:
            raise CommandError(str(exc), returncode=1) from exc
        except asyncio.CancelledError:
            raise CommandError("stopped by a signal", returncode=1) from None
        if verbosity >= 1:
            self.stdout.write(f"game over: scores {bridge.final}")
