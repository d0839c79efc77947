"""Games over, made by hand with results the tests know exactly (the shapes each engine's
``result()`` and the cribbage record have), for the archive's filters and statistics."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from games.models import Game, GameRecord, Seat, Status

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def over_game(game_type: str, mode: int, players: list[Any], result: dict[str, Any] | None, *,
              ended: datetime = BASE, took: timedelta = timedelta(minutes=42),
              status: str = Status.FINISHED, document: dict[str, Any] | None = None) -> Game:
    """A game over: ``players`` seated in position order, its ``result`` as the engine gave it,
    and, when given, its cribbage record."""
    game = Game.objects.create(game_type=game_type, mode=mode, status=status, seed=7, host=players[0],
                               started=ended - took, ended=ended, result=result)
    for position, user in enumerate(players):
        Seat.objects.create(game=game, user=user, slot=position, position=position, accepted=True)
    if document is not None:
        GameRecord.objects.create(game=game, history=[], views={}, format="cribbage-record", version=1,
                                  document=json.dumps(document))
    return game


def ranked(scores: list[int], ranks: list[int], teams: list[int] | None = None) -> dict[str, Any]:
    """A result: each seat's score and rank, and the teams' ranks when given (seat % teams)."""
    result: dict[str, Any] = {
        "is_over": True,
        "players": [{"seat": s, "score": score, "rank": rank, "team": (s % len(teams)) if teams else None}
                    for s, (score, rank) in enumerate(zip(scores, ranks, strict=True))],
    }
    if teams:
        result["teams"] = [{"team": t, "rank": rank} for t, rank in enumerate(teams)]
    return result


# Two deals of a two-player cribbage record, only the fields the statistics read. Seat 0: hands
# 12 and 0, pegged 2 + a go point = 3 (its crib's 4 is not a hand). Seat 1: hands 8 and 20,
# pegged 3 + a go point = 4.
CRIBBAGE_DOCUMENT = {
    "format": "cribbage-record",
    "deals": [
        {"pegging": [{"type": "play", "seat": 0, "scored": 2}, {"type": "play", "seat": 1, "scored": 0},
                     {"type": "go", "seat": 1}, {"type": "go point", "seat": 0, "points": 1},
                     {"type": "reset"}, {"type": "play", "seat": 1, "scored": 3}],
         "shows": [{"seat": 1, "what": "hand", "scored": 8}, {"seat": 0, "what": "hand", "scored": 12},
                   {"seat": 0, "what": "crib", "scored": 4}]},
        {"pegging": [{"type": "go", "seat": 0}, {"type": "go point", "seat": 1, "points": 1}],
         "shows": [{"seat": 0, "what": "hand", "scored": 0}, {"seat": 1, "what": "hand", "scored": 20}]},
    ],
}


def known_games(ann: Any, bob: Any, cat: Any, dan: Any) -> dict[str, Game]:
    """ann's games, each ending a day after the one before:

    - riichi: 1st with 42,000; 3rd with 18,000; one aborted;
    - Acquire: teams 2 vs 2, ann 2nd on her own but her team 1st (a win), $50,000; singles 3,
      ann and bob share first place (both win), $30,000;
    - cribbage: lost 100 to 121 at seat 0; won 121 to 90 at seat 1 (the same record).

    So ann: riichi 2 played, 1 win, placement 2.0, score 30,000; Acquire 2 played, 2 wins,
    placement 1.5, $40,000; cribbage 2 played, 1 win, score 110.5, four hands shown averaging
    (12 + 0 + 8 + 20) / 4 = 10, pegging (3 + 4) / 2 = 3.5 a game."""
    day = timedelta(days=1)
    return {
        "riichi_won": over_game("riichi", 4, [ann, bob, cat, dan],
                                ranked([42000, 30000, 20000, 8000], [1, 2, 3, 4]), ended=BASE),
        "riichi_third": over_game("riichi", 4, [bob, ann, cat, dan],
                                  ranked([35000, 18000, 32000, 15000], [1, 3, 2, 4]), ended=BASE + day),
        "riichi_aborted": over_game("riichi", 4, [cat, dan, ann, bob], None, ended=BASE + 2 * day,
                                    status=Status.ABORTED),
        "acquire_team": over_game("acquire", 7, [bob, ann, cat, dan],
                                  ranked([60000, 50000, 20000, 40000], [1, 2, 4, 3], teams=[2, 1]),
                                  ended=BASE + 3 * day),
        "acquire_tie": over_game("acquire", 3, [ann, bob, cat],
                                 ranked([30000, 30000, 10000], [1, 1, 3]), ended=BASE + 4 * day),
        "cribbage_lost": over_game("cribbage", 2, [ann, bob], ranked([100, 121], [2, 1]),
                                   ended=BASE + 5 * day, document=CRIBBAGE_DOCUMENT),
        "cribbage_won": over_game("cribbage", 2, [bob, ann], ranked([90, 121], [2, 1]),
                                  ended=BASE + 6 * day, document=CRIBBAGE_DOCUMENT),
    }


# What the statistics must say of ann for ``known_games``.
ANN_STATS = {
    "acquire": {"played": 2, "wins": 2, "average_placement": 1.5, "average_score": 40000.0},
    "riichi": {"played": 2, "wins": 1, "average_placement": 2.0, "average_score": 30000.0},
    "cribbage": {"played": 2, "wins": 1, "average_placement": 1.5, "average_score": 110.5,
                 "hands_shown": 4, "average_hand": 10.0, "average_pegging": 3.5},
}
ANN_WON = {"riichi_won", "acquire_team", "acquire_tie", "cribbage_won"}
ANN_LOST = {"riichi_third", "cribbage_lost"}
