"""The paifu download of a stored riichi game (``GET /api/games/<id>/paifu/``).

A paifu is Majiang's whole game record: every hand dealt, every draw, every decision, the ura
dora. It reveals everything, so it is written only for a game that has finished, for everybody
alike, staff included (docs/security.md): the same rule as Acquire's review download.

The file is the engine's ``RiichiGame.paifu`` at the game's end, stored with the game when it
finished (``GameRecord.document``, written by ``native_record``), with two changes that make it
stand on its own:

- ``player`` holds the players' usernames by seat (the engine only knows ``player 0``..``3``);
- ``rule`` holds the full ``Majiang.rule()`` object the game was played with, exactly as
  Majiang's own ``kaiju`` message carries it. majiang-core's paipu has no such key (``title``,
  ``player``, ``qijia``, ``log``, ``defen``, ``point``, ``rank``); readers of Majiang paifu ignore
  keys they do not know, and ``manage.py paifu verify`` and ``bench/majiang/replay_paifu.js``
  read the rule from it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from games.core.errors import Conflict, NotFound
from games.models import Game, Seat, Status
from games.records import store
from games.riichi.engine.table import RiichiGame

GAME_TYPE = "riichi"
# The stored record's format: majiang-core's paifu with the two keys above.
PAIFU_FORMAT = "majiang-paifu"
PAIFU_VERSION = 1


def paifu_filename(game: Game) -> str:
    return f"riichi-{game.display_number}.json"


def paifu_for_game(game: Game) -> dict[str, Any]:
    """The finished riichi game's paifu with its players' names and its rule; refused (with the
    error a client is answered with) for any other game."""
    if game.game_type != GAME_TYPE:
        raise NotFound("NoPaifu", "a paifu exists for riichi mahjong games only")
    if game.seed is None:
        raise Conflict("GameNotStarted", "the game has not started")
    if game.status == Status.ABORTED:
        # Its last hand stops halfway and it has no final result: no Majiang reader could replay
        # it. Everything it holds is in the game's export (GET /api/games/<id>/export/).
        raise Conflict("GameAborted", "the game was aborted; a paifu records finished games only")
    if game.status != Status.FINISHED:
        raise Conflict("GameNotOver", "the paifu holds every hand and the walls; it is available when the game ends")
    return store.native_record(game)


def native_record(game: Game, engine: RiichiGame, seats: Sequence[Seat]) -> tuple[str, int, dict[str, Any] | None]:
    """The paifu of a finished game, for ``GameRecord`` (``GameType.record_path``): ``engine`` is
    the game at its end, whose paifu is whole. An aborted game has none (see ``paifu_for_game``)."""
    if not engine.is_over:
        if game.status == Status.ABORTED:
            return PAIFU_FORMAT, PAIFU_VERSION, None
        # A finished game's log must play to its end; anything else is a bug.
        raise RuntimeError(f"game {game.id} is finished but its log does not play to the end")
    paifu = copy.deepcopy(engine.paifu)
    # Majiang's player ids are the platform's seat positions (the engine's qijia is one of them).
    paifu["player"] = [seat.user.username for seat in seats]
    paifu["rule"] = copy.deepcopy(engine.rule)
    return PAIFU_FORMAT, PAIFU_VERSION, paifu
