"""``manage.py cribbage_record verify FILE...``: replay cribbage records through the engine.

A file holds one JSON record (``games.cribbage.records.record``, docs/records-cribbage.md) or a JSON
list of them. Each is replayed from its own deals and decisions (``games.cribbage.records.record_check``);
the command prints ``OK`` or every difference per record, then a summary, and exits with status
1 if any record differs or cannot be read.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.cribbage.records.record_check import verify_record


def read_records(path: str) -> list[Any]:
    """The records in a file: one document, or a list of them. Raises ``OSError``/``ValueError``."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return data if isinstance(data, list) else [data]


class Command(BaseCommand):
    help = "Replay cribbage game records through the engine and report every difference."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="{verify}")
        check = actions.add_parser("verify", help="replay records and compare every field")
        check.add_argument("files", nargs="+", metavar="FILE")
        check.add_argument("--quiet", action="store_true", help="print only differences and the summary")

    def handle(self, *args: Any, **options: Any) -> None:
        checked = failed = 0
        for path in options["files"]:
            try:
                records = read_records(path)
            except (OSError, ValueError) as error:
                # One unreadable file fails the run but does not hide what the others say.
                failed += 1
                self.stdout.write(f"{path}  UNREADABLE: {error}")
                continue
            for index, record in enumerate(records):
                checked += 1
                failed += self._report(path if len(records) == 1 else f"{path}[{index}]", record, options["quiet"])
        self.stdout.write(f"{checked} records, {failed} with differences")
        if failed:
            raise CommandError(f"{failed} record(s) or file(s) did not verify")

    def _report(self, name: str, record: Any, quiet: bool) -> int:
        """Print one record's verdict; 1 if it differs, else 0."""
        problems = verify_record(record)
        if not problems:
            if not quiet:
                self.stdout.write(f"{name}  OK")
            return 0
        self.stdout.write(f"{name}  {len(problems)} difference(s):")
        for problem in problems:
            self.stdout.write(f"  {problem}")
        return 1
