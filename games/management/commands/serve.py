"""``manage.py serve``: HTTP and WebSockets (Daphne), CRIBBAGEBBER, UMP, mmj and mjai over TCP, in one process.

One process and one event loop, so the embedded default's in-memory channel layer is shared:
a bot on the TCP port and a browser user on the WebSocket sit at the same tables and see each
other's moves. Daphne is built as its command line does (``daphne/cli.py``), with its defaults;
the TCP listeners (``games/transport/lines.py``) are started on the loop Twisted's asyncio reactor
runs, once the reactor runs.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

# Daphne reads the client's address, port and scheme from these when the site is behind a proxy
# (``BEHIND_PROXY``); a client reaching the server directly could claim any address with them.
PROXY_HEADERS = {"proxy_forwarded_address_header": "X-Forwarded-For",
                 "proxy_forwarded_port_header": "X-Forwarded-Port",
                 "proxy_forwarded_proto_header": "X-Forwarded-Proto"}


class Command(BaseCommand):
    help = "Serve HTTP/WebSocket (Daphne) and the CRIBBAGEBBER, UMP, mmj and mjai TCP ports from one process."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to bind both servers to")
        parser.add_argument("--port", type=int, default=8000, help="HTTP/WebSocket port")
        parser.add_argument("--cribbage-port", type=int, default=settings.CRIBBAGE_PORT,
                            help="CRIBBAGEBBER TCP port (one line per \\n); 0 disables it")
        parser.add_argument("--ump-port", type=int, default=settings.UMP_PORT,
                            help="UMP TCP port (riichi mahjong bots, lines end CR+LF); 0 disables it")
        parser.add_argument("--mmj-port", type=int, default=settings.MMJ_PORT,
                            help="mmj TCP port (riichi mahjong terminals, seed 000); 0 disables it")
        parser.add_argument("--mjai-port", type=int, default=settings.MJAI_PORT,
                            help="mjai TCP port (riichi AIs, gimite's mjsonp); 0 disables it")

    def handle(self, *args: Any, **options: Any) -> None:
        # daphne.server installs Twisted's asyncio reactor; it must come before anything imports
        # twisted.internet.reactor (the daphne app in INSTALLED_APPS has imported it already).
        from asgiref.compatibility import guarantee_single_callable
        from daphne.access import AccessLogGenerator
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server
        from twisted.internet import reactor

        from config.asgi import application
        from config.daphne_bodies import limit_bodies
        from games.cribbage.transport.tcp import CRIBBAGEBBER
        from games.riichi.transport.mjai_consumer import MJAI
        from games.riichi.transport.mmj_consumer import MMJ
        from games.riichi.transport.ump_consumer import UMP
        from games.transport import http_deadline
        from games.transport.lines import LineServer

        host, port = options["host"], options["port"]
        line_ports = ((CRIBBAGEBBER, options["cribbage_port"]), (UMP, options["ump_port"]), (MMJ, options["mmj_port"]),
                      (MJAI, options["mjai_port"]))
        # The token page tells bots these ports (accounts/views.py): say the ones served here. Behind a
        # proxy the bots connect to the proxy's ports, which the settings say (deploy/cluster.py).
        if not settings.BEHIND_PROXY:
            (settings.CRIBBAGE_PORT, settings.UMP_PORT, settings.MMJ_PORT,
             settings.MJAI_PORT) = (port for _, port in line_ports)
        verbosity = options["verbosity"]
        server = Server(
            application=guarantee_single_callable(application),
            endpoints=build_endpoint_description_strings(host=host, port=port),
            # As daphne's command line: its connect timeout, its access log on stdout at verbosity 1.
            websocket_connect_timeout=5,
            # Behind a reverse proxy every client would be the proxy's address, and the per-address
            # limits (docs/security.md) would count everyone as one; the proxy says who it is.
            **(PROXY_HEADERS if settings.BEHIND_PROXY else {}),
            action_logger=AccessLogGenerator(sys.stdout) if verbosity >= 1 else None,
            verbosity=verbosity,
        )
        failed: list[str] = []

        def background() -> None:
            # The clock sweeper and presence heartbeat start with the server, not with its first
            # client: a timed game whose players only use REST must still time out.
            from games.riichi.transport import mjai_house
            from games.service import door

            asyncio.get_event_loop().call_soon(door.ensure_sweeper)
            # mjai bots the operator registered, run for their seats (docs/protocols/mjai.md).
            asyncio.get_event_loop().call_soon(mjai_house.start, options["mjai_port"])

        def close_politely() -> None:
            # Daphne (autobahn) drops the TCP connection under a frame over its 1 MiB limit, which a
            # client sees as an abnormal closure it cannot tell from a crash; with this it sends
            # the protocol's own answer instead, a close frame with 1009 (Message Too Big).
            server.ws_factory.setProtocolOptions(failByDrop=False)
            # Autobahn resets the TCP connection of a client that has not answered the server's
            # close frame within 1 s, and a reset discards what the client had not yet read:
            # a busy client loses the FatalError that says why it was turned away.
            server.ws_factory.setProtocolOptions(
                closeHandshakeTimeout=settings.WEBSOCKET_CLOSE_TIMEOUT_SECONDS)
            # Twisted closes an HTTP connection only when it has been idle for 12 hours, and any
            # byte makes it busy again: without a deadline a trickled request holds it for good.
            http_deadline.install(server.http_factory, settings.HTTP_REQUEST_TIMEOUT_SECONDS)

        def bound_bodies() -> None:
            # Twisted reads a whole request body before Daphne calls the app, and Daphne then queues
            # it to the app at once: its requests refuse one over the limit as it arrives instead
            # (config/daphne_bodies.py). Server.run has made the factory; no connection is accepted yet.
            limit_bodies(server.http_factory)

        reactor.callWhenRunning(background)
        reactor.callWhenRunning(bound_bodies)
        reactor.callWhenRunning(close_politely)
        for protocol, line_port in line_ports:
            if line_port:
                self.line_listener(LineServer(protocol, application, host.strip("[]"), line_port,
                                              close_timeout=server.application_close_timeout,
                                              max_pending_lines=settings.TCP_MAX_PENDING_LINES,
                                              idle_timeout=settings.TCP_IDLE_TIMEOUT_SECONDS,
                                              write_timeout=settings.TCP_WRITE_TIMEOUT_SECONDS,
                                              proxy_protocol=settings.TCP_PROXY_PROTOCOL,
                                              bytes_per_second=settings.BYTES_PER_SECOND,
                                              byte_burst=settings.BYTE_BURST),
                                   server, failed, verbosity)
        if verbosity >= 1:
            self.stdout.write(f"HTTP/WebSocket on http://{host}:{port}/")
        server.run()
        # Daphne stops (without an error of its own) when its port cannot be had: say so.
        if failed or server.abort_start or not server.listening_addresses:
            raise CommandError("; ".join(failed) or f"cannot listen on {host}:{port}")

    def line_listener(self, lines: Any, server: Any, failed: list[str], verbosity: int) -> None:
        """Start ``lines`` (a ``games.transport.lines.LineServer``) with Daphne's reactor, and end its links
        before the reactor stops; a port that cannot be had stops the server, as Daphne's does."""
        from twisted.internet import defer, reactor

        name = lines.protocol.name

        def started(task: asyncio.Task[None]) -> None:
            error = "cancelled" if task.cancelled() else task.exception()
            if error is not None:
                failed.append(f"{name}: cannot listen on {lines.host}:{lines.port}: {error}")
                server.stop()  # as Daphne does when its own port cannot be had
            elif verbosity >= 1:
                self.stdout.write(f"{name} on tcp://{lines.host}:{lines.port}/")

        def listen() -> None:
            # Runs at reactor start-up, just before the loop runs: the task starts with it.
            loop = asyncio.get_event_loop()  # Server.run made the reactor's loop the current one
            loop.create_task(lines.start()).add_done_callback(started)

        def stop() -> defer.Deferred[None]:
            # Daphne ends its own connections at shutdown; ours end as though their peers left,
            # so each consumer leaves its table properly.
            return defer.Deferred.fromFuture(asyncio.ensure_future(lines.close()))

        reactor.callWhenRunning(listen)
        reactor.addSystemEventTrigger("before", "shutdown", stop)
