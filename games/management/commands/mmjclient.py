"""``manage.py mmjclient HOST PORT --user U --token T``: the reference mmj terminal (seed 000).

The protocol is ``games.riichi.clients.mmj_terminal`` (pure: the places, the table, the bot, the typed
commands) over the codec ``games.riichi.protocols.mmj``; this command only moves bytes. It logs in
with ``mmj1c`` and NAME ``user/token`` (``user/token/GAME`` with ``--game``), reads the server's
undelimited stream with ``Reader("client")``, and then either answers every question itself
(``--bot``, ``--greedy`` to also riichi, kan and call) or, interactively, prints the table after
each question and sends what is typed on stdin (mmj syntax; ``show``, ``hint``, ``help``,
``quit``). ``--log FILE`` appends every message (``<-`` read, ``->`` sent); the token is never
printed nor logged.

Exit status: 0 when the server closes the link after the game (or ``quit``); 1 with the server's
explanation on stderr when the login is refused or the link ends on a ``reject`` (a table closed
or aborted), or when the server's stream is malformed.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.riichi.clients.mmj_terminal import HELP, PlaceError, Terminal, TypedError, parse_command
from games.riichi.protocols import mmj

READ_SIZE = 4096
CONNECT_TIMEOUT = 10.0
MASK = "…"


class Command(BaseCommand):
    help = "Play riichi mahjong on an mmj server: interactively, or as a bot."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("host")
        parser.add_argument("port", type=int)
        parser.add_argument("--user", required=True, help="username to log in with")
        parser.add_argument("--token", required=True, help="the user's API token (sent in mmj1c's NAME)")
        parser.add_argument("--game", default=None, help="riichi table number to sit at")
        parser.add_argument("--bot", action="store_true", help="answer every question with the built-in bot")
        parser.add_argument("--greedy", action="store_true", help="the bot also riichis, kans, calls (implies --bot)")
        parser.add_argument("--quiet", action="store_true", help="print only errors")
        parser.add_argument("--log", default=None, help="append every message read and sent to this file")
        parser.add_argument("--seed", type=int, default=0, help="seed of the bot's tie-breaking")

    def handle(self, *args: Any, **options: Any) -> None:
        self.token: str = options["token"]
        self.quiet: bool = options["quiet"]
        bot = options["bot"] or options["greedy"]
        self.terminal = Terminal(bot=bot, greedy=options["greedy"], seed=options["seed"])
        name = f"{options['user']}/{self.token}" + (f"/{options['game']}" if options["game"] else "")
        host, port = options["host"], options["port"]
        with contextlib.ExitStack() as stack:
            self.logfile: TextIO | None = None
            if options["log"]:
                self.logfile = stack.enter_context(open(options["log"], "a", encoding="utf-8"))
            try:
                self.sock = stack.enter_context(socket.create_connection((host, port), timeout=CONNECT_TIMEOUT))
            except OSError as exc:
                raise CommandError(f"cannot connect to {host}:{port}: {exc}") from exc
            self.sock.settimeout(None)
            self._send(mmj.ClientHello(name.encode("utf-8")))
            self._run(interactive=not bot)

    # -- the loop -------------------------------------------------------------------------------

    def _run(self, *, interactive: bool) -> None:
        reader = mmj.Reader("client")
        # select(), not epoll: stdin may be a regular file (epoll refuses those); two descriptors only.
        selector = selectors.SelectSelector()
        selector.register(self.sock, selectors.EVENT_READ, "server")
        stdin_fd = sys.stdin.fileno() if interactive else None
        if stdin_fd is not None:
            selector.register(stdin_fd, selectors.EVENT_READ, "stdin")
        typed = b""
        while True:
            for key, _ in selector.select():
                if key.data == "stdin":
                    data = os.read(stdin_fd, READ_SIZE)  # type: ignore[arg-type]
                    if not data:
                        return  # stdin closed: as quit
                    typed += data
                    while b"\n" in typed:
                        line, typed = typed.split(b"\n", 1)
                        if not self._typed(line.decode("utf-8", "replace")):
                            return
                    continue
                try:
                    data = self.sock.recv(READ_SIZE)
                except OSError:
                    data = b""
                try:
                    if not data:
                        reader.eof()
                        self._closed()
                        return
                    messages = reader.feed(data)
                except mmj.MmjError as error:
                    for message in error.messages:
                        self._received(message)
                    raise CommandError(f"the server sent what mmj cannot read: {error}") from error
                for message in messages:
                    self._received(message)

    def _closed(self) -> None:
        """The server closed the link: the end of the game, or a refusal."""
        terminal = self.terminal
        last = terminal.last_message
        if not terminal.logged_in:
            reason = terminal.rejects[-1] if terminal.rejects else "the server closed the link before mmj1s"
            raise CommandError(f"login refused: {self._mask(reason)}", returncode=1)
        if isinstance(last, mmj.Reject):
            raise CommandError(f"link closed: {self._mask(terminal.rejects[-1])}", returncode=1)
        self._say("game over: the server closed the link")

    def _received(self, message: mmj.Message) -> None:
        self._log("<-", message)
        terminal = self.terminal
        try:
            answers = terminal.feed(message)  # type: ignore[arg-type]
        except PlaceError as error:
            # The server's moves do not add up; the picture may be off from here, but play on.
            self.stderr.write(f"inconsistent move: {error}")
            answers = []
        text = terminal.describe(message)  # type: ignore[arg-type]
        if text is not None:
            if isinstance(message, mmj.Reject) and not terminal.bot:
                self.stderr.write(self._mask(text))  # a person wants to know why at once
            else:
                self._say(text)  # to the bot a reject is normal: it tries something else
        if not terminal.bot and isinstance(message, mmj.Play | mmj.ClaimOffer | mmj.AckRequest):
            self._say(terminal.render() + "\n> ", force=True, ending="")
        for answer in answers:
            self._send(answer)

    def _typed(self, line: str) -> bool:
        """One line typed by the player; ``False`` to quit."""
        try:
            command = parse_command(line)
        except TypedError as error:
            self.stderr.write(f"? {error} (help lists the commands)")
            return True
        if command.kind == "quit":
            return False
        if command.kind == "show":
            self._say(self.terminal.render(), force=True)
        elif command.kind == "help":
            self._say(HELP, force=True)
        elif command.kind == "hint":
            hint = self.terminal.answer()
            self._say(mmj.encode(hint).decode().strip() if hint is not None else "(nothing to answer)", force=True)
        for message in command.messages:
            self.terminal.sent(message)  # type: ignore[arg-type]
            self._send(message)
        return True

    # -- output ---------------------------------------------------------------------------------

    def _send(self, message: mmj.Message) -> None:
        self._log("->", message)
        self.sock.sendall(mmj.encode(message))

    def _mask(self, text: str) -> str:
        return text.replace(self.token, MASK) if self.token else text

    def _log(self, direction: str, message: mmj.Message) -> None:
        if self.logfile is None:
            return
        if isinstance(message, mmj.ClientHello):
            text = "mmj1c " + self._mask(message.name.decode("utf-8", "replace"))  # never the token
        else:
            text = mmj.encode(message).decode("utf-8", "replace").rstrip("\n")
        self.logfile.write(f"{direction} {self._mask(text)}\n")
        self.logfile.flush()

    def _say(self, text: str, *, force: bool = False, ending: str = "\n") -> None:
        if self.quiet and not force:
            return
        self.stdout.write(self._mask(text), ending=ending)
        self.stdout.flush()
