"""``manage.py acquire_review verify FILE...`` and ``manage.py acquire_review import FILE...``.

``verify`` replays every game in the files through the engine and prints its final scores; it
fails (exit status 1) on any illegal action and on any result that differs from what the file
expects. ``import`` stores each game as a finished game on this site, after the same check.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.acquire.engine.game import AcquireGame
from games.acquire.records.review_io import import_review
from games.acquire.records.review_records import Verdict, read_records, verify
from games.models import Game


def _players(game: AcquireGame, names: list[str]) -> str:
    scores = game.result()["scores"]
    named = names if len(names) == len(scores) else [f"seat {s}" for s in range(len(scores))]
    return ", ".join(f"{name} {score}" for name, score in zip(named, scores))


def _names(verdict: Verdict) -> list[str]:
    review = verdict.record.review
    return list(review[5]) if isinstance(review, list) and len(review) == 9 else []


class Command(BaseCommand):
    help = "Check Acquire game reviews against the engine, or import them as finished games."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="{verify,import}")
        check = actions.add_parser("verify", help="replay reviews and compare with expected results")
        check.add_argument("files", nargs="+", metavar="FILE")
        store = actions.add_parser("import", help="store reviews as finished games")
        store.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        verdicts = [verify(record) for path in options["files"] for record in read_records(path)]
        if not verdicts:
            raise CommandError("no game reviews in the given files")
        if options["action"] == "verify":
            self._verify(verdicts)
        else:
            self._import(verdicts)

    def _verify(self, verdicts: list[Verdict]) -> None:
        failed = 0
        for verdict in verdicts:
            game = verdict.game
            source = verdict.record.source
            if verdict.ok and game is not None:
                over = game.end_reason or "not over"
                self.stdout.write(f"{source}  mode {game.mode.id}  {over}  {_players(game, _names(verdict))}  ok")
                continue
            failed += 1
            self.stdout.write(f"{source}  FAILED")
            for problem in verdict.problems:
                self.stdout.write(f"    {problem}")
        summary = f"{len(verdicts)} games, {len(verdicts) - failed} ok, {failed} failed"
        if failed:
            raise CommandError(summary)
        self.stdout.write(summary)

    def _import(self, verdicts: list[Verdict]) -> None:
        bad = [v for v in verdicts if not v.ok]
        if bad:
            for verdict in bad:
                self.stdout.write(f"{verdict.record.source}  FAILED")
                for problem in verdict.problems:
                    self.stdout.write(f"    {problem}")
            raise CommandError(f"{len(bad)} of {len(verdicts)} reviews do not verify; nothing imported")
        lines = []
        with transaction.atomic():  # all or nothing: a bad review leaves no half-imported batch
            for verdict in verdicts:
                try:
                    game = import_review(verdict.record.review)
                except ValueError as error:
                    raise CommandError(f"{verdict.record.source}: {error}; nothing imported") from None
                lines.append(self._describe(verdict, game))
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(f"{len(verdicts)} games imported")

    @staticmethod
    def _describe(verdict: Verdict, game: Game) -> str:
        result = game.result or {}
        players = game.seats.select_related("user").order_by("position")
        scores = ", ".join(f"{s.user.username} {result['scores'][s.position]}" for s in players)
        return f"{verdict.record.source}  -> game {game.id}  mode {game.mode}  {result.get('end_reason')}  {scores}"
