"""``manage.py records verify|rebuild [--game ID ...]``: the stored records of games that are over.

``verify`` rebuilds each record from the game's log (the truth) and prints ``OK`` or each
difference, then a summary; it exits with status 1 if any record differs or is missing.
``rebuild`` writes the records afresh from the logs. Without ``--game``, every game that is over.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import QuerySet

from games.models import Game, Status
from games.service import door


class Command(BaseCommand):
    help = "Check finished games' stored records against their logs, or write them afresh."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["verify", "rebuild"])
        parser.add_argument("--game", type=int, action="append", dest="games", metavar="ID",
                            help="only this game (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = self._games(options["games"])
        differing = 0
        for game in games.iterator():
            label = f"game {game.id} ({game.game_type} #{game.display_number}, {game.status})"
            if options["action"] == "rebuild":
                door.rebuild_record(game)
                self.stdout.write(f"{label}: rebuilt")
                continue
            problems = door.verify_record(game)
            differing += bool(problems)
            self.stdout.write(f"{label}: " + ("OK" if not problems else "DIFFERS"))
            for problem in problems:
                self.stdout.write(f"  {problem}")
        if options["action"] == "verify":
            total = games.count()
            self.stdout.write(f"{total - differing} of {total} records agree with their logs")
            if differing:
                raise SystemExit(1)

    def _games(self, ids: list[int] | None) -> QuerySet[Game]:
        games = Game.objects.filter(status__in=(Status.FINISHED, Status.ABORTED)).exclude(seed=None).order_by("id")
        if ids:
            missing = set(ids) - set(games.filter(id__in=ids).values_list("id", flat=True))
            if missing:
                raise CommandError(f"no game that is over with id {', '.join(map(str, sorted(missing)))}")
            games = games.filter(id__in=ids)
        return games
