"""Which bot plays a house bot's seat: its account says (docs/bots.md, "Bot levels").

A game type may have bot levels (``GameType.levels_path``; riichi's beginner, intermediate and
strong: games/riichi/bots/levels.py). Each level plays as accounts of its own, ``house-<level>-1``,
``-2``, ..., so that its rating (ratings are per account) tells players how strong it is. The
accounts ``house-bot-<n>`` are the game's default house bot (``GameType.bot_path``; riichi's
``RIICHI_HOUSE_BOT``, which the bench overrides to pit another chooser). Any other bot account the
server plays (an operator's mjai bot, ``mjai-<name>-<n>``) is played by the default, as before
levels existed; so is a level account whose level a game type no longer has.

Pure: names in, names or choosers out; no database.
"""

from __future__ import annotations

from games.core.registry import GAME_TYPES, Choose, GameType

HOUSE_PREFIX = "house-"
HOUSE_BOT_PREFIX = f"{HOUSE_PREFIX}bot-"
# An operator's mjai bot (docs/protocols/mjai.md) plays as ``mjai-<name>-<n>``, through a bridge
# the server runs: a client like any other, played by the server only while it is away.
MJAI_PREFIX = "mjai-"


def server_chooses(username: str) -> bool:
    """Whether the server makes the decisions of the bot account ``username`` whenever its seat is
    to decide (a house bot, of any level); an mjai bot decides for itself over its link."""
    return not username.startswith(MJAI_PREFIX)


def level_prefix(level: str) -> str:
    """The accounts bot level ``level`` plays as: ``house-<level>-1``, ``-2``, ..."""
    return f"{HOUSE_PREFIX}{level}-"


def level_of(game_type: GameType, username: str) -> str | None:
    """The bot level of ``game_type`` the account ``username`` plays, or None (the default bot)."""
    head, _, number = username.rpartition("-")
    if not head.startswith(HOUSE_PREFIX) or not number.isdigit():
        return None
    level = head.removeprefix(HOUSE_PREFIX)
    return level if level in game_type.bot_levels() else None


def chooser(game_type: GameType, username: str) -> Choose:
    """The chooser that plays the bot account ``username`` at a game of ``game_type``."""
    level = level_of(game_type, username)
    return game_type.bot() if level is None else game_type.bot_levels()[level]


def levels_by_type() -> dict[str, list[str]]:
    """Every game type's bot levels, in order, for those that have any (the lobby's set-up cards)."""
    return {key: list(gt.bot_levels()) for key, gt in GAME_TYPES.items() if gt.levels_path is not None}
