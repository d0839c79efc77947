"""The server says, byte for byte, what it said before ``games/`` was reorganised into layer packages.

Each protocol's session (``sessions/<protocol>.jsonl``) was recorded against the tree as it was
before that refactor (``tests/wire/record.py --tree <that tree>``): the lobby protocol on /ws/bot/
(an Acquire game with house bots, a spectator, set-up changes, chat), Majiang's protocol on
/ws/majiang/, majiang-server's socket.io dialect under /majiang, UMP and mmj over TCP, CRIBBAGEBBER
over TCP and over WebSocket, and REST; each with its log-ins, refused log-ins, refused moves and their
errors, and normal play. Here the current tree is served the same way (``tests/served.py``, the same
set-up script: the same users, tokens, tables and game seeds), the recorded client side is sent
again, and every message, line, close and HTTP answer the server sends must equal the recorded one
after ``wire.normalise``, which takes out only what differs between any two runs (wall-clock
times, the MAJIANG cookie, socket.io session ids). A failure names the first exchange that differs.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.wire import wire

# Its servers are children on the embedded default whatever the configuration (tests/served.py).
pytestmark = pytest.mark.own_server


@pytest.mark.parametrize("protocol", wire.PROTOCOLS)
def test_the_server_answers_a_recorded_session_as_it_did_before(protocol: str, tmp_path: Path) -> None:
    entries = wire.load(protocol)
    answers = sum(entry["op"] in ("recv", "closed", "http") for entry in entries)
    assert answers > 10, f"{protocol}: a session with hardly anything in it"
    with wire.served_session(protocol, tmp_path) as (ports, _):
        compared = asyncio.run(wire.replay(entries, ports))
    assert compared == answers


def test_only_what_differs_between_runs_is_normalised() -> None:
    same = [
        ('{"at":"2026-11-28T13:31:46.263946+00:00"}', '{"at":"2027-01-02T03:04:05+00:00"}'),
        ('{"joined":"2026-11-28T13:31:47.731975Z"}', '{"joined":"2026-12-01T00:00:00Z"}'),
        ("MAJIANG=huv3a4pl; expires=Sat, 12 Dec 2026 13:39:59 GMT; Max-Age=1209600",
         "MAJIANG=q9x0m2ab; expires=Sun, 13 Dec 2026 08:00:00 GMT; Max-Age=1209600"),
        ('0{"sid":"56555PQGK0vjTd8QAAAA","pingInterval":25000}',
         '0{"sid":"AH-AcMWLB9ePYrdrAAAA","pingInterval":25000}'),
    ]
    for recorded, served in same:
        assert wire.normalise(recorded) == wire.normalise(served), (recorded, served)
    different = [
        ('{"at":"2026-11-28T13:31:46+00:00","id":1}', '{"at":"2026-11-28T13:31:46+00:00","id":2}'),
        ('{"joined":"2026-11-28T13:31:47.731975Z"}', '{"joined":"2026-11-28T13:31:47.731975+00:00"}'),
        ("MAJIANG=abc; Max-Age=1209600", "MAJIANG=abc; Max-Age=1209601"),
        ('0{"sid":"x","pingInterval":25000}', '0{"sid":"x","pingInterval":20000}'),
        ('0{"sid":"x"}', '0{"sid": "x"}'),
        ("12 sutehai?\r\n", "12 sutehai?\n"),
        ('{"type":"Error"}', '{"type": "Error"}'),
    ]
    for recorded, served in different:
        assert wire.normalise(recorded) != wire.normalise(served), (recorded, served)
