"""One rule per request field, for every transport.

The WebSocket consumers and the REST serializers both check a client's fields here, so the same
value is accepted or refused the same way whichever way it arrives: an integer is a JSON integer
(never ``true``, ``2.0`` or ``"2"``), a count or version is never negative, an id fits every
database column it is compared with, and text is valid Unicode without NUL. Game rules (which
modes exist, how long a chat line may be) stay with the lobby and the game service.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import GameError

# Ids, versions and sequence numbers travel as JSON-safe integers (JavaScript clients lose
# precision above 2**53); larger values would also overflow 64-bit database columns.
MAX_INT = 2**53 - 1
# A PositiveIntegerField (seq, v, history_size, clock seconds) holds at most this on PostgreSQL.
MAX_DB_INT = 2**31 - 1
# No message of any protocol nests deeper than a few levels; deeper JSON is refused before anything
# walks it (nested ~1,000 deep it would otherwise exhaust Python's recursion limit).
MAX_NESTING = 32


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
