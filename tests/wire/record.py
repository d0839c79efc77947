"""Record the wire sessions (``tests/wire/scenarios.py``) against a tree's server:

    .venv/bin/python tests/wire/record.py --tree /tmp/before --out tests/wire/sessions/

Each protocol gets a server of its own (``manage.py serve`` of ``--tree``, set up by world.py, as
``tests/served.py`` runs it), its scripted client plays, and every exchange is written to
``<out>/<protocol>.jsonl``. ``--check`` records nothing: it replays the sessions in ``--out``
against the tree instead, as the test does (to see that a recording replays on the tree it was
made on, or on another tree)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import tests.served as served  # noqa: E402
from tests.wire import wire  # noqa: E402
from tests.wire.scenarios import SCENARIOS  # noqa: E402


def record(protocol: str, out: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix=f"wire-{protocol}-") as scratch:
        with wire.served_session(protocol, Path(scratch)) as (ports, setup):
            recorder = wire.Recorder(ports, setup)
            try:
                asyncio.run(SCENARIOS[protocol](recorder))
            except BaseException:
                # What was recorded up to the failure, for a look (never mistaken for a session).
                wire.save(f"{protocol}.failed", recorder.entries, out)
                raise
    return wire.save(protocol, recorder.entries, out)


def check(protocol: str, out: Path) -> int:
    entries = wire.load(protocol, out)
    with tempfile.TemporaryDirectory(prefix=f"wire-{protocol}-") as scratch:
        with wire.served_session(protocol, Path(scratch)) as (ports, _):
            return asyncio.run(wire.replay(entries, ports))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the tree whose manage.py serve is recorded")
    parser.add_argument("--out", type=Path, default=wire.SESSIONS, help="where the session files go")
    parser.add_argument("--only", nargs="*", choices=sorted(SCENARIOS), help="these protocols only")
    parser.add_argument("--check", action="store_true", help="replay the sessions in --out instead")
    args = parser.parse_args()
    served.ROOT = args.tree.resolve()  # tests/served.py serves its ROOT
    for protocol in args.only or wire.PROTOCOLS:
        began = time.monotonic()
        if args.check:
            compared = check(protocol, args.out)
            print(f"{protocol}: {compared} exchanges as recorded ({time.monotonic() - began:.1f} s)")
        else:
            path = record(protocol, args.out)
            print(f"{protocol}: {path} ({time.monotonic() - began:.1f} s)")


if __name__ == "__main__":
    main()
