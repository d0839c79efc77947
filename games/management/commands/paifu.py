"""``manage.py paifu verify FILE...``: replay Majiang paifu through the riichi engine.

A file holds one JSON paifu (or a JSON list of them, like the oracle's script.json), or JSON lines
each of the form ``{"rule": {overrides of Majiang.rule() defaults}, "paifu": {...}}``. Each game is
replayed decision by decision (``games.riichi.engine.replay``); the command prints ``OK`` or the
first divergence per game, then a summary, and exits with status 1 if any game diverged.
``--rule JSON`` gives the overrides for bare paifu (default: none); a paifu downloaded from this
site (``GET /api/games/<id>/paifu/``) carries its own ``rule``, which is used instead.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.riichi.engine.replay import read_entries, replay
from games.riichi.engine.rule import rule as make_rule


class Command(BaseCommand):
    help = "Replay Majiang paifu through the riichi engine and report divergences."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="{verify}")
        check = actions.add_parser("verify", help="replay paifu and compare every record")
        check.add_argument("files", nargs="+", metavar="FILE")
        check.add_argument("--rule", default="{}",
                           help="rule overrides (JSON) for bare paifu without a rule of their own")
        check.add_argument("--quiet", action="store_true", help="print only divergences and the summary")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            default = json.loads(options["rule"])
        except ValueError as error:
            raise CommandError(f"--rule is not JSON: {error}") from None
        entries = []
        for path in options["files"]:
            try:
                entries.extend(read_entries(path, default))
            except (OSError, ValueError) as error:
                raise CommandError(f"{path}: {error}") from None
        if not entries:
            raise CommandError("no paifu in the given files")

        quiet = options["quiet"]
        diverged = hands = 0
        seconds = 0.0
        for entry in entries:
            title = str(entry.paifu.get("title", "")).replace("\n", " ")
            try:
                rule = make_rule(entry.overrides)
            except ValueError as error:
                diverged += 1
                self.stdout.write(f"{entry.source}  {title}  INVALID RULE: {error}")
                continue
            began = time.perf_counter()
            divergence = replay(entry.paifu, rule)
            seconds += time.perf_counter() - began
            hands += len(entry.paifu.get("log", []))
            if divergence is None:
                if not quiet:
                    self.stdout.write(f"{entry.source}  {title}  OK")
            else:
                diverged += 1
                self.stdout.write(f"{entry.source}  {title}  DIVERGES at {divergence}")
        rate = len(entries) / seconds if seconds else 0.0
        self.stdout.write(
            f"{len(entries)} games, {hands} hands, {diverged} divergences; "
            f"replayed in {seconds:.2f}s ({rate:.1f} paifu/s)"
        )
        if diverged:
            raise CommandError(f"{diverged} of {len(entries)} games diverged")
