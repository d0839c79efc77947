"""``manage.py paifu verify FILE...``, ``manage.py paifu import FILE...`` and ``manage.py paifu
convert --to tenhou6|mjai FILE...``: Majiang paifu, the riichi engine and the analysers' formats.

A file holds one JSON paifu (or a JSON list of them, like the oracle's script.json), or JSON lines
each of the form ``{"rule": {overrides of Majiang.rule() defaults}, "paifu": {...}}``. ``--rule
JSON`` gives the overrides for bare paifu (default: none); a paifu downloaded from this site
(``GET /api/games/<id>/paifu/``) carries its own ``rule``, which is used instead.

``verify`` replays each game decision by decision (``games.riichi.engine.replay``); it prints
``OK`` or the first divergence per game, then a summary, and exits with status 1 if any game
diverged. ``import`` stores every game as a finished riichi game on this site
(``games.riichi.records.paifu_import``, docs/records-import.md) and prints the new game ids; one game that
does not replay imports none of them. ``convert`` writes every game to standard output in an
analyser's format (``games.riichi.records.exports``, docs/records.md): one tenhou.net/6 JSON log per line,
or mjai events one per line, each game starting with its ``start_game``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.riichi.engine.replay import Entry, read_entries, replay
from games.riichi.engine.rule import rule as make_rule
from games.riichi.records.exports import to_mjai, to_tenhou6
from games.riichi.records.paifu_import import import_paifu


class Command(BaseCommand):
    help = "Replay Majiang paifu through the riichi engine and report divergences, or import them as games."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="{verify,import,convert}")
        check = actions.add_parser("verify", help="replay paifu and compare every record")
        _files_and_rule(check)
        check.add_argument("--quiet", action="store_true", help="print only divergences and the summary")
        store = actions.add_parser("import", help="store paifu as finished riichi games")
        _files_and_rule(store)
        convert = actions.add_parser("convert", help="write paifu as tenhou.net/6 logs or mjai events")
        convert.add_argument("--to", required=True, choices=sorted(CONVERTERS), dest="to")
        _files_and_rule(convert)

    def handle(self, *args: Any, **options: Any) -> None:
        entries = _read(options)
        if options["action"] == "import":
            self._import(entries)
        elif options["action"] == "convert":
            self._convert(entries, CONVERTERS[options["to"]])
        else:
            self._verify(entries, options["quiet"])

    def _verify(self, entries: list[Entry], quiet: bool) -> None:
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

    def _import(self, entries: list[Entry]) -> None:
        lines = []
        with transaction.atomic():  # all or nothing: a bad paifu leaves no half-imported batch
            for entry in entries:
                try:
                    game = import_paifu(entry.paifu, entry.overrides)
                except ValueError as error:
                    raise CommandError(f"{entry.source}: {error}; nothing imported") from None
                lines.append(f"game {game.id}: imported ({len(entry.paifu['log'])} hands) from {entry.source}")
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(f"{len(entries)} games imported")


    def _convert(self, entries: list[Entry], convert: Callable[[dict[str, Any], dict[str, Any]], list[Any]]) -> None:
        for entry in entries:
            try:
                rule = make_rule(entry.overrides)
                lines = convert(entry.paifu, rule)
            except (ValueError, KeyError, TypeError) as error:
                raise CommandError(f"{entry.source}: cannot convert: {error}") from None
            for line in lines:
                self.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")))


# What ``convert --to`` writes of one paifu: its output lines, each a JSON value.
CONVERTERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], list[Any]]] = {
    "tenhou6": lambda paifu, rule: [to_tenhou6(paifu, rule)],
    "mjai": to_mjai,
}


def _files_and_rule(parser: CommandParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--rule", default="{}", help="rule overrides (JSON) for bare paifu without a rule of their own")


def _read(options: dict[str, Any]) -> list[Entry]:
    """Every paifu in the command's files, with its rule overrides."""
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
    return entries
