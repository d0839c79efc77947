"""One rule per request field, for every transport.

The WebSocket consumers and the REST serializers both check a client's fields here, so the same
value is accepted or refused the same way whichever way it arrives: an integer is a JSON integer
(never ``true``, ``2.0`` or ``"2"``), a count or version is never negative, an id fits every
database column it is compared with, and text is valid Unicode without NUL. Game rules (which
modes exist, how long a chat line may be) stay with the lobby and the game service.

The requests both the lobby protocol and the REST API take (creating a table, setting it up,
acting, chatting) are read by one function each, at the end of this module: the consumer passes
it the frame, the REST serializer the body, so the same mistake gets the same code on both
(docs/api.md, "One rule per field").
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from games.core.errors import GameError

# Ids, versions and sequence numbers travel as JSON-safe integers (JavaScript clients lose
# precision above 2**53); larger values would also overflow 64-bit database columns.
MAX_INT = 2**53 - 1
# A PositiveIntegerField (seq, v, history_size, clock seconds) holds at most this on PostgreSQL.
MAX_DB_INT = 2**31 - 1
# No message of any protocol nests deeper than a few levels; deeper JSON is refused before anything
# walks it (nested ~1,000 deep it would otherwise exhaust Python's recursion limit).
MAX_NESTING = 32
# A seat number: a game has a handful of positions.
MAX_SEAT = 2**15 - 1
# An action type is a short name ("SelectChainToDisposeOfNext" is the longest); a longer string is
# no action of any game, and is refused before it reaches an engine or an error's reason.
MAX_ACTION_LENGTH = 40
# Game.game_type's column: no longer key can name a game type.
MAX_GAME_TYPE_LENGTH = 32
MAX_BOT_NAME = 40
# What CreateGame without a game_type opens: seed 003's protocol was Acquire's, and its clients
# send none.
DEFAULT_GAME_TYPE = "acquire"


class FieldError(GameError):
    """A field of a request has the wrong type or range (``InvalidMessage`` on every transport)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__("InvalidMessage", f"{field!r} {reason}")
        self.field = field


def is_integer(value: Any) -> bool:
    """A JSON integer: ``bool`` is an ``int`` in Python and ``2.0 == 2``, but neither is one here."""
    return isinstance(value, int) and not isinstance(value, bool)


def integer(value: Any, field: str, *, minimum: int = 0, maximum: int = MAX_INT) -> int:
    """``value`` as an integer in ``minimum..maximum``, else a ``FieldError`` naming ``field``."""
    if not is_integer(value):
        raise FieldError(field, "must be an integer")
    if not minimum <= value <= maximum:
        raise FieldError(field, f"must be between {minimum} and {maximum}")
    return value


def optional_integer(value: Any, field: str, *, minimum: int = 0, maximum: int = MAX_INT) -> int | None:
    return None if value is None else integer(value, field, minimum=minimum, maximum=maximum)


def optional_boolean(value: Any, field: str) -> bool | None:
    """A JSON true or false, or None when absent: 0 and 1 are not booleans here."""
    if value is not None and not isinstance(value, bool):
        raise FieldError(field, "must be true or false")
    return value


def game_id(value: Any, field: str = "game") -> int:
    return integer(value, field, minimum=1)


def seq(value: Any, field: str = "v") -> int:
    """A position in a game's log (``v``, ``history_size``): 0 up to what a column holds."""
    return integer(value, field, minimum=0, maximum=MAX_DB_INT)


def is_encodable(text: str) -> bool:
    """False for strings carrying lone surrogates (JSON escapes can smuggle them in)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def text(value: Any, field: str, *, max_length: int, allow_blank: bool = False) -> str:
    """A string of at most ``max_length`` characters, valid Unicode without NUL. A number is not
    text: ``5`` is refused, never stored as ``"5"``."""
    if not isinstance(value, str):
        raise FieldError(field, "must be a string")
    if not allow_blank and not value.strip():
        raise FieldError(field, "must not be blank")
    if len(value) > max_length:
        raise FieldError(field, f"must be at most {max_length} characters")
    if "\x00" in value or not is_encodable(value):
        raise FieldError(field, "must be valid Unicode text without NUL")
    return value


# -- a whole JSON document (a WebSocket frame, a REST body) -------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not standard JSON")


def _finite_float(literal: str) -> float:
    # 1e999 is no constant, so parse_constant never sees it: Python reads it as infinity, which it
    # would then write back as the invalid JSON "Infinity".
    value = float(literal)
    if not math.isfinite(value):
        raise ValueError(f"{literal} is beyond the range of a JSON number")
    return value


def _flaw(value: Any) -> str | None:
    """What makes a parsed document unfit to keep, walked without recursion: nesting deeper than
    ``MAX_NESTING``, or a string (or key) that no database column can store: a NUL, which
    PostgreSQL refuses in text and JSON, or a lone surrogate, which is not Unicode. Only a ``\\u``
    escape can put either into valid UTF-8 JSON."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or not is_encodable(item):
                return "a string carries NUL or invalid Unicode (a lone surrogate)"
        elif isinstance(item, dict | list):
            if depth > MAX_NESTING:
                return f"JSON nests at most {MAX_NESTING} levels deep"
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)
    return None


def loads(document: str) -> Any:
    """``document`` as standard JSON, or a ``ValueError`` saying why not: only what every JSON reader
    accepts (no NaN, no Infinity, no number beyond a double), nested at most ``MAX_NESTING`` deep,
    with no NUL or lone surrogate in any string. So nothing a client sent can be stored and then
    fail, or be echoed back as invalid JSON."""
    try:
        value = json.loads(document, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:  # far deeper than allowed: the parser gave up before the walk below
        raise ValueError(f"JSON nests at most {MAX_NESTING} levels deep") from None
    flaw = _flaw(value)
    if flaw is not None:
        raise ValueError(flaw)
    return value


# -- the requests of the lobby protocol and the REST API ----------------------------------------
# Each takes the request's fields by name (a lobby frame, or a REST body) and gives what the
# lobby or the game service is called with. An optional field sent as null is the field left out.
# Where the two transports once differed, the lobby protocol's code won (docs/api.md).


def create_game(message: Mapping[str, Any]) -> dict[str, Any]:
    """CreateGame / ``POST /api/games/``: the arguments of ``lobby.create_table``. The clock and the
    delay are checked there, so that their every fault has its own code (InvalidTimeControl,
    InvalidSpectatorDelay); here only what no column could hold."""
    game_type = message.get("game_type")
    if game_type is None:
        game_type = DEFAULT_GAME_TYPE
    if not isinstance(game_type, str):
        raise FieldError("game_type", "must be a string")
    if len(game_type) > MAX_GAME_TYPE_LENGTH:
        # Not echoed back: the lobby's reason quotes the key it does not know.
        raise GameError("UnknownGameType", f"no game type is longer than {MAX_GAME_TYPE_LENGTH} characters")
    rules = message.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise FieldError("rules", "must be an object of the game's rule options")
    time_increment = optional_integer(message.get("time_increment"), "time_increment",
                                      minimum=-MAX_DB_INT, maximum=MAX_DB_INT)
    spectator_delay = message.get("spectator_delay")
    return {
        "game_type": game_type,
        "mode": integer(message.get("mode"), "mode", minimum=-MAX_INT),
        "time_start": optional_integer(message.get("time_start"), "time_start", minimum=-MAX_DB_INT,
                                       maximum=MAX_DB_INT),
        "time_increment": 0 if time_increment is None else time_increment,
        "time_control": message.get("time_control"),
        "spectator_delay": 0 if spectator_delay is None else spectator_delay,
        "rules": rules or {},
        # None: the lobby's default (rated; docs/ratings.md)
        "rated": optional_boolean(message.get("rated"), "rated"),
        "rated_people_only": bool(optional_boolean(message.get("rated_people_only"), "rated_people_only")),
    }


def accept(message: Mapping[str, Any]) -> dict[str, Any]:
    """AcceptSetup's optional setup ``version``."""
    return {"version": optional_integer(message.get("version"), "version", maximum=MAX_DB_INT)}


def change_mode(message: Mapping[str, Any]) -> dict[str, Any]:
    return {"mode": integer(message.get("mode"), "mode", minimum=-MAX_INT)}


def change_arrangement(message: Mapping[str, Any]) -> dict[str, Any]:
    """The arrangement and, optionally, the seating order (user ids)."""
    order = message.get("order")
    if order is not None:
        if not isinstance(order, list):
            raise FieldError("order", "must be a list of user ids")
        order = [integer(user, "order", minimum=1) for user in order]
    return {"arrangement": integer(message.get("arrangement"), "arrangement", minimum=-MAX_INT), "order": order}


def add_bot(message: Mapping[str, Any]) -> dict[str, Any]:
    """AddBot's ``bot``: left out (or null) for the game's house bot, else a bot level's name
    (``strong``) or a registered bot's (``mjai:<name>``), checked by the lobby (UnknownBot)."""
    bot = message.get("bot")
    return {"bot": None if bot is None else text(bot, "bot", max_length=MAX_BOT_NAME)}


def kick(message: Mapping[str, Any]) -> dict[str, Any]:
    return {"user": integer(message.get("user"), "user", minimum=1)}


def game_action(message: Mapping[str, Any]) -> dict[str, Any]:
    """DoGameAction / ``POST .../moves/``: the action, its params, the ``v`` it answers and the seat
    the client believes it plays. Whether the action is legal is the engine's to say."""
    params = message.get("params")
    if params is None:
        params = []
    if not isinstance(params, list):
        raise FieldError("params", "must be a list")
    return {
        "action": text(message.get("action"), "action", max_length=MAX_ACTION_LENGTH, allow_blank=True),
        "params": params,
        "v": optional_integer(message.get("v"), "v", maximum=MAX_DB_INT),
        "seat": optional_integer(message.get("seat"), "seat", maximum=MAX_SEAT),
    }


def chat(message: Mapping[str, Any]) -> dict[str, Any]:
    """Chat's text: anything but text is InvalidChat, as blank text is (the chat service's code);
    its length is the service's rule (ChatTooLong)."""
    said = message.get("text")
    if not isinstance(said, str) or not said.strip():
        raise GameError("InvalidChat", "a chat message needs some text")
    if "\x00" in said or not is_encodable(said):
        raise GameError("InvalidChat", "chat must be valid Unicode text without NUL")
    return {"text": said}


PLAY_NOW_FIELDS = ("game_type", "preset", "length", "bot_level", "players", "clock", "bots_after")


def play_now(message: Mapping[str, Any]) -> dict[str, Any]:
    """PlayNow's fields (the lobby frame's, POST /api/play-now/'s body): the ones it names, as
    given; their values are Play now's rule (games/core/play_now.py ``read``: InvalidPlayNow)."""
    return {name: message[name] for name in PLAY_NOW_FIELDS if name in message}
