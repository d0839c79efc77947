"""``manage.py ratings verify|rebuild``: the stored ratings (docs/ratings.md).

``verify`` replays every rated finished game in order (by end time, then id) from new ratings and
compares the result with the stored ratings and rating changes, exactly (the floats too); it prints
each difference and exits with status 1 if any. ``rebuild`` replaces the stored ratings and changes
with that replay: after a game's ``rated`` flag or result was corrected, or to recover.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.service import door


class Command(BaseCommand):
    help = "Check the stored ratings against a replay of the rated games, or rewrite them from it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["verify", "rebuild"])

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "rebuild":
            games = door.rebuild_ratings()
            self.stdout.write(f"ratings rebuilt from {games} rated game{'s' if games != 1 else ''}")
            return
        problems = door.verify_ratings()
        for problem in problems:
            self.stdout.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} difference{'s' if len(problems) != 1 else ''} from the replay")
        self.stdout.write("ratings OK: the replay of the rated games gives the stored values")
