"""``manage.py umpbot HOST PORT --user U --token T``: the house mahjong bot as a UMP client.

The play is ``games.riichi.clients.umpbot.UmpBot`` (pure: one line in, the reply out); this command only
moves lines over TCP: ASCII lines ending CR+LF (a bare LF is accepted), each reply sent as soon as
its question is read. With ``-v 2`` every line is logged (``<-`` read, ``->`` sent).

A dropped link is not the end of the game: the command reconnects for up to ``--retry`` seconds
(the server re-sends the hand in play to the same user, and ``UmpBot`` rebuilds its state from
it). It exits 0 after ``gameend`` once the server closes the link (or goes quiet), and 1 when the
login is refused (the server's ``error`` line is printed to stderr) or the server stays away.
"""

from __future__ import annotations

import re
import socket
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.riichi.clients.umpbot import UmpBot

# A line longer than this is no UMP line (the longest, a hand or an agari, is a few hundred bytes).
MAX_LINE = 64 * 1024
READ_SIZE = 4096
# After gameend the server may still ask ready? or send results before it closes the link;
# this long a silence counts as the end.
AFTER_GAMEEND_SECONDS = 5.0
CONNECT_TIMEOUT = 10.0
RETRY_PAUSE = 1.0

GAMEEND, DROPPED, REFUSED = "gameend", "dropped", "refused"


def _command_of(line: str) -> str:
    words = line.split()
    if words and words[0].isdigit():
        words = words[1:]
    return words[0] if words else ""


class Command(BaseCommand):
    help = "Play riichi mahjong on a UMP server with the house bot's judgement."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("host")
        parser.add_argument("port", type=int)
        parser.add_argument("--user", required=True, help="username to log in with")
        parser.add_argument("--token", required=True, help="the user's API token (sent as password)")
        parser.add_argument("--game", default=None, help="game id to join (sent as _game)")
        parser.add_argument("--bots", default=None, help="house bots for a table the link opens (sent as _bots)")
        parser.add_argument("--preset", default=None, help="rule preset of a table the link opens (sent as _preset)")
        parser.add_argument("--name", default=None, help="name shown at the table (default: the username)")
        parser.add_argument("--seed", type=int, default=0, help="seed of the bot's tie-breaking")
        parser.add_argument(
            "--retry", type=float, default=30.0,
            help="seconds to keep trying to (re)connect after a drop or a refused connection (default 30)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = int(options["verbosity"])
        table = {name: options[key] for name, key in (("_bots", "bots"), ("_preset", "preset")) if options[key]}
        bot = UmpBot(options["name"] or options["user"], options["user"], options["token"],
                     game=options["game"], seed=options["seed"], options=table)
        host, port, retry = options["host"], options["port"], max(0.0, options["retry"])
        deadline: float | None = None
        while True:
            try:
                sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
            except OSError as exc:
                # The server may be restarting: keep trying within the retry window.
                deadline = deadline if deadline is not None else time.monotonic() + retry
                if time.monotonic() >= deadline:
                    raise CommandError(f"cannot connect to {host}:{port}: {exc}") from exc
                time.sleep(RETRY_PAUSE)
                continue
            deadline = None
            if self.verbosity >= 1:
                self.stdout.write(f"connected to {host}:{port}")
            try:
                outcome = self._session(bot, sock)
            finally:
                sock.close()
            if outcome == GAMEEND:
                if self.verbosity >= 1:
                    self.stdout.write("game over: " + " ".join(f"{p} {s}" for p, s in bot.final))
                return
            if outcome == REFUSED:
                raise CommandError(f"login refused: {bot.error}", returncode=1)
            if self.verbosity >= 1:
                self.stderr.write("link dropped; reconnecting")
            deadline = time.monotonic() + retry

    def _session(self, bot: UmpBot, sock: socket.socket) -> str:
        """Play over one link until it ends: ``GAMEEND``, ``DROPPED`` or ``REFUSED``."""
        sock.settimeout(None)
        # Keepalive lets a link whose server vanished without a FIN count as dropped eventually.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        buffer = b""
        while True:
            try:
                data = sock.recv(READ_SIZE)
            except TimeoutError:
                return GAMEEND  # quiet after gameend (the only time a timeout is set)
            except OSError:
                return GAMEEND if bot.finished else DROPPED
            if not data:
                return GAMEEND if bot.finished else DROPPED
            buffer += data
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                line = raw.rstrip(b"\r").decode("ascii", "replace")
                outcome = self._line(bot, sock, line)
                if outcome is not None:
                    return outcome
            if len(buffer) > MAX_LINE:
                self.stderr.write("line too long; dropping the link")
                return DROPPED
            if bot.finished:
                sock.settimeout(AFTER_GAMEEND_SECONDS)

    def _line(self, bot: UmpBot, sock: socket.socket, line: str) -> str | None:
        if self.verbosity >= 2:
            self.stdout.write(f"<- {line}")
        reply = bot.handle(line)
        if _command_of(line) == "error":
            self.stderr.write(line)
            if not bot.logged_in:
                return REFUSED
        if reply is not None:
            if self.verbosity >= 2:
                # The hello carries the token: never in a log.
                self.stdout.write("-> " + re.sub(r"(password=)\S+", r"\1…", reply))
            try:
                sock.sendall(reply.encode("ascii", "replace") + b"\r\n")
            except OSError:
                return GAMEEND if bot.finished else DROPPED
        return None
