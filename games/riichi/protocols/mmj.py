"""Seed 000, the "mmj" protocol (``mmj1c``/``mmj1s``): the wire codec only.

The seed is an "intelligent terminal" protocol: the server moves tiles between 19 places (deck,
wall, replacement wall, dora wall, and per player hand, discards, flowers, melds) and the client
only displays them. This module is its grammar and nothing else: bytes in, typed messages out
(``Reader``), typed messages in, canonical bytes out (``encode``). It knows no rule, holds no game
state, and uses only the standard library; the transport and the game layer decide what a message
means and whether it is allowed now (a client operation that "can be rejected" is answered with
``Reject`` by them, never by this codec).

Public API
----------

- ``MmjError(ValueError)``: ``.code`` (one of ``ERROR_CODES``), ``.reason`` (English, for logs and a
  closing ``reject``), ``.offset`` (stream byte offset of the offending byte, or ``None``),
  ``.messages`` (from ``Reader.feed``: the messages completed in the same feed before the error).
- Values: ``Tile`` (``Tile("c6")``, ``UNKNOWN`` is ``Tile("?")``), ``Place`` (``Place.parse("w052")``,
  ``Place.wall(52)``, ``Place.hand(1)``, ...), ``ScoreLine(what, points)``; winds are the strings
  ``"e" "s" "w" "n"``, player IDs the ints 1..4, counted strings ``bytes``.
- Server messages (``ServerMessage``): ``ServerHello`` (mmj1s), ``Game``, ``NewHand``, ``Break``,
  ``Move``, ``RiichiDeclared`` (riichi), ``Play``, ``ClaimOffer`` (claim), ``Draw``, ``Win``,
  ``AckRequest`` (ack), ``ChatFrom`` (chat), ``Reject``.
- Client messages (``ClientMessage``): ``ClientHello`` (mmj1c), ``Discard``, ``Riichi``, ``Out``,
  ``Ckong``, ``Pkong``, ``Claim``, ``Swap``, ``Ron``, ``Pass``, ``Ack``, ``ChatTo`` (chat).
- ``Reader(side)``: ``feed(data) -> list[Message]``, ``eof()``, ``pending``, ``offset``.
  ``side`` is the role of the end holding the reader: ``Reader("server")`` reads what a client
  sends, ``Reader("client")`` what a server sends.
- ``encode(message) -> bytes``; ``decode(data, side) -> list[Message]`` (a whole stream).
- ``majiang_to_mmj(tile) -> Tile`` and ``mmj_to_majiang(tile, red=False) -> str``.

Decisions (the seed leaves these open, or is inconsistent)
----------------------------------------------------------

1. Framing: messages are not line-delimited. The reader parses the byte stream by each message's
   grammar, so a message is complete on its last token's last byte (a bare keyword such as
   ``play`` is complete on its ``y``); nothing waits for a newline.
2. Whitespace (space, tab, CR, LF, VT, FF) is free *between* tokens, any amount including none
   (every token is self-delimiting and the keywords are prefix-free, so ``moved6h1d1`` reads as
   ``move d6 h1 d1``). It is not allowed *inside* a token: a keyword, tile, place, integer, or a
   count's digits and its ``:``. A counted string's DATA is taken verbatim.
3. Case is ignored everywhere except in counted strings; values are normalised to lower case.
4. Canonical encoding: lower case as the seed's example writes it, tokens separated by one space,
   one message per line ending ``\\n``; counts and integers without leading zeros; a chat's
   player IDs written together, then `` . `` (``chat 23 . 5:hello``, server ``chat 1 23 . 5:hi``).
   A counted string containing a newline still makes one message (the reader does not care).
5. Counted strings ``N:DATA``: N is 1 to 8 decimal digits (leading zeros allowed within the 8);
   a 9th digit is ``count_too_long`` at once. A count above the field's maximum is
   ``string_too_long`` as soon as its ``:`` arrives, before any data is buffered. Maxima, in
   octets: ``mmj1c`` NAME 256 (the seed says "characters"; read as octets, since the wire is octets
   and no encoding is named), ``game`` names 64, ``reject`` EXPL 512, chat TEXT 1024, ``win``
   descriptions (no limit in the seed) ``TEXT_MAX`` = 1024. DATA is ``bytes``: no encoding is
   imposed (the server layer will use UTF-8).
6. NUL (0x00) is refused anywhere, *including inside counted strings*: the seed's clients are
   C programs, and one would show a name or chat text cut at the NUL while the server vetted the
   whole. Other control bytes inside counted strings are allowed.
7. Integers (``N``): 1 to 16 decimal digits then ``.``; no sign, so no negative values.
8. ``break N M``: each is a single digit 1..6 with no dot (the seed: "single digits giving the two
   d6 rolls"; its example ``break 4 6``), not the dotted integer type.
9. Tiles, exactly the seed's set: ``b1``..``b9`` bamboo, ``c1``..``c9`` characters, ``d1``..``d9``
   dots, ``we ws ww wn``, dragons ``dr dg dw``, ``h`` (haku; kept distinct from ``dw`` on the wire,
   both map to Majiang ``z5``), flowers ``f1``..``f4``, seasons ``s1``..``s4``, ``?``. ``?`` is a
   tile value and is accepted wherever a tile is (e.g. all three of ``claim``'s); whether it makes
   sense there is the game layer's question, answered with ``reject`` rather than a dropped line.
10. Places: ``k``; ``wNNN`` exactly 3 digits, 000..135; ``rNN`` exactly 2 digits, 00..11; ``aN``
    0..9; ``hX dX fX`` with X a player ID 1..4; ``mXN`` with N 0..3.
11. ``ack`` goes both ways: the seed's "Then "ack"" is sent by the server after the reveal moves,
    and the client "sends back" ``ack``. So ``AckRequest`` (server) and ``Ack`` (client).
12. ``riichi``, ``claim`` and ``chat`` have different arguments per direction, hence the
    reader's ``side`` and separate classes. A keyword of the other direction is
    ``wrong_direction``; a word that is no keyword at all is ``unknown_keyword``.
13. ``win``: at least one non-empty scoring entry, at most ``SCORE_LINES_MAX`` = 64, then the
    ``0:`` entry whose points are the total (``Win.total``).
14. Chat destinations are kept in the order given, duplicates included (the client form needs at
    least one, the server form's OTHERDESTS may be empty); pruning them is the server's job.
15. Errors: no error is recoverable. Without line breaks there is no point to resynchronise at,
    so after an ``MmjError`` the reader is failed (each later ``feed``/``eof`` raises again) and the
    transport should send ``reject`` with the reason if it likes, then close. ``eof()`` raises
    ``truncated`` when the peer closed mid-message.
16. Riichi tiles (Majiang strings): man ``m`` = characters ``c``, pin ``p`` = dots ``d``, sou
    ``s`` = bamboo ``b``; ``z1 z2 z3 z4`` = ``we ws ww wn``; ``z5`` (haku, white) = ``dw``, ``z6``
    (hatsu, green) = ``dg``, ``z7`` (chun, red) = ``dr``. A red five (``m0 p0 s0``) is sent as the
    plain five (``c5 d5 b5``): mmj has no red tile, so red-ness is not on the wire (the server
    keeps it; ``mmj_to_majiang(tile, red=True)`` gives it back). Majiang's masked tile ``""`` is
    ``?``. ``h`` also maps to ``z5``; flowers and seasons have no riichi tile (``no_riichi_tile``).
17. The seed's worked example has a typo, ``move 9d w059 h2``: no tile starts with a digit, so
    the reader refuses it (``bad_tile``); the tests read it as ``d9``. The example turns the first
    dora up with ``move dg r10 r10`` (a replacement-wall place, not ``a0``); both are legal places
    and which one the server uses is the game layer's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeVar

Side = Literal["server", "client"]
SIDES: tuple[Side, ...] = ("server", "client")

# Limits the seed states.
COUNT_DIGITS_MAX = 8
INTEGER_DIGITS_MAX = 16
NAME_MAX = 256  # mmj1c C:NAME ("no longer than 256 characters", read as octets)
GAME_NAME_MAX = 64  # game C:PLAYERx ("limited to 64 bytes")
REJECT_MAX = 512
CHAT_MAX = 1024
# Limits the seed leaves open: bounded so a peer cannot make the reader buffer without end.
TEXT_MAX = 1024  # a win's score description
SCORE_LINES_MAX = 64
# Table geometry, from the seed's places.
PLAYERS = 4
WALL_TILES = 136
REPLACEMENT_TILES = 12
DORA_TILES = 10
MELDS = 4
WINDS = ("e", "s", "w", "n")

# Error codes (MmjError.code).
UNKNOWN_KEYWORD = "unknown_keyword"
WRONG_DIRECTION = "wrong_direction"
BAD_TILE = "bad_tile"
BAD_PLACE = "bad_place"
BAD_WIND = "bad_wind"
BAD_PLAYER = "bad_player"
BAD_DIE = "bad_die"
BAD_INTEGER = "bad_integer"
INTEGER_TOO_LONG = "integer_too_long"
BAD_COUNT = "bad_count"
COUNT_TOO_LONG = "count_too_long"
STRING_TOO_LONG = "string_too_long"
NUL = "nul"
NO_DESTINATION = "no_destination"
BAD_SCORING = "bad_scoring"
TRUNCATED = "truncated"
BAD_VALUE = "bad_value"  # building a message from values the grammar cannot carry
NO_RIICHI_TILE = "no_riichi_tile"
ERROR_CODES = (UNKNOWN_KEYWORD, WRONG_DIRECTION, BAD_TILE, BAD_PLACE, BAD_WIND, BAD_PLAYER, BAD_DIE,
               BAD_INTEGER, INTEGER_TOO_LONG, BAD_COUNT, COUNT_TOO_LONG, STRING_TOO_LONG, NUL,
               NO_DESTINATION, BAD_SCORING, TRUNCATED, BAD_VALUE, NO_RIICHI_TILE)

_T = TypeVar("_T")
_Parse = Generator[None, None, _T]  # a parser that yields whenever it needs more bytes
_WHITESPACE = frozenset(b" \t\n\v\f\r")
_COLON, _DOT = ord(":"), ord(".")


class MmjError(ValueError):
    """Malformed mmj input, or a message the grammar cannot carry. ``code`` is one of
    ``ERROR_CODES``; ``reason`` says what and where; ``offset`` is the stream offset of the byte
    that made the input wrong (``None`` outside a reader); ``messages`` are those a ``feed``
    completed before it met the error, so feeding byte by byte or all at once loses the same."""

    def __init__(self, code: str, reason: str, *, offset: int | None = None) -> None:
        where = f" (at byte {offset})" if offset is not None else ""
        super().__init__(f"{code}: {reason}{where}")
        self.code = code
        self.reason = reason
        self.offset = offset
        self.messages: list[Message] = []


def _show(b: int) -> str:
    return repr(bytes([b]))[1:]


# -- values ------------------------------------------------------------------------------------------

TILE_CODES = frozenset(
    [f"{suit}{n}" for suit in "bcd" for n in range(1, 10)]
    + ["we", "ws", "ww", "wn", "dr", "dg", "dw", "h", "?"]
    + [f"{kind}{n}" for kind in "fs" for n in range(1, 5)]
)


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile as the seed writes it; ``code`` is normalised to lower case (``Tile("Dr").code ==
    "dr"``). ``?`` is a face not shown to the receiving player."""

    code: str

    def __post_init__(self) -> None:
        if not isinstance(self.code, str) or self.code.lower() not in TILE_CODES:
            raise MmjError(BAD_TILE, f"not an mmj tile: {self.code!r}")
        object.__setattr__(self, "code", self.code.lower())

    def __str__(self) -> str:
        return self.code

    @property
    def hidden(self) -> bool:
        return self.code == "?"


UNKNOWN = Tile("?")

_PLACE_KINDS = "kwrahdfm"
_NUMBERED = {"w": WALL_TILES, "r": REPLACEMENT_TILES, "a": DORA_TILES, "m": MELDS}  # kind -> count
_OWNED = "hdfm"  # places that belong to a player


@dataclass(frozen=True, slots=True)
class Place:
    """One of the table's places: ``kind`` is the seed's letter; ``number`` the wall / replacement
    / dora position or the meld number; ``player`` the owner (1..4) of a hand, discards, flowers or
    meld. Build with the class methods or ``Place.parse``."""

    kind: str
    number: int | None = None
    player: int | None = None

    def __post_init__(self) -> None:
        kind = self.kind.lower() if isinstance(self.kind, str) else ""
        if len(kind) != 1 or kind not in _PLACE_KINDS:
            raise MmjError(BAD_PLACE, f"not a place kind: {self.kind!r}")
        object.__setattr__(self, "kind", kind)
        count = _NUMBERED.get(kind)
        if count is None:
            if self.number is not None:
                raise MmjError(BAD_PLACE, f"place {kind!r} has no number")
        elif not _is_int(self.number) or not 0 <= self.number < count:
            raise MmjError(BAD_PLACE, f"place {kind!r} needs a number 0..{count - 1}, not {self.number!r}")
        if kind in _OWNED:
            if not _is_player(self.player):
                raise MmjError(BAD_PLACE, f"place {kind!r} needs a player 1..4, not {self.player!r}")
        elif self.player is not None:
            raise MmjError(BAD_PLACE, f"place {kind!r} belongs to no player")

    def __str__(self) -> str:
        if self.kind == "k":
            return "k"
        if self.kind == "w":
            return f"w{self.number:03d}"
        if self.kind == "r":
            return f"r{self.number:02d}"
        if self.kind == "a":
            return f"a{self.number}"
        if self.kind == "m":
            return f"m{self.player}{self.number}"
        return f"{self.kind}{self.player}"

    @classmethod
    def parse(cls, text: str) -> Place:
        """``"w052"`` -> ``Place.wall(52)``; the seed's form exactly (case ignored)."""
        return _parse_whole(_place, text, BAD_PLACE, "place")

    @classmethod
    def deck(cls) -> Place:
        return cls("k")

    @classmethod
    def wall(cls, number: int) -> Place:
        return cls("w", number)

    @classmethod
    def replacement(cls, number: int) -> Place:
        return cls("r", number)

    @classmethod
    def dora(cls, number: int) -> Place:
        return cls("a", number)

    @classmethod
    def hand(cls, player: int) -> Place:
        return cls("h", player=player)

    @classmethod
    def discards(cls, player: int) -> Place:
        return cls("d", player=player)

    @classmethod
    def flowers(cls, player: int) -> Place:
        return cls("f", player=player)

    @classmethod
    def meld(cls, player: int, number: int) -> Place:
        return cls("m", number, player)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One ``C:what N:points`` entry of a ``win``; ``what`` is non-empty (the empty one ends the
    list and carries the total, ``Win.total``)."""

    what: bytes
    points: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "what", _check_text(self.what, TEXT_MAX, "score description"))
        if not self.what:
            raise MmjError(BAD_SCORING, "an empty description ends the scoring; it is Win.total")
        _check_integer(self.points, "points")


# -- field checks (building messages) -----------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_player(value: object) -> bool:
    return _is_int(value) and 1 <= value <= PLAYERS  # type: ignore[operator]


def _check_player(value: object, field: str) -> int:
    if not _is_player(value):
        raise MmjError(BAD_PLAYER, f"{field}: a player ID is 1..4, not {value!r}")
    return value  # type: ignore[return-value]


def _check_players(values: Iterable[int], field: str) -> tuple[int, ...]:
    return tuple(_check_player(v, field) for v in values)


def _check_text(value: object, limit: int, field: str) -> bytes:
    if not isinstance(value, bytes | bytearray):
        raise MmjError(BAD_VALUE, f"{field}: counted strings are bytes, not {type(value).__name__}")
    value = bytes(value)
    if len(value) > limit:
        raise MmjError(STRING_TOO_LONG, f"{field}: {len(value)} octets, at most {limit}")
    if 0 in value:
        raise MmjError(NUL, f"{field}: NUL inside a counted string")
    return value


def _check_integer(value: object, field: str) -> int:
    if not _is_int(value) or not 0 <= value < 10**INTEGER_DIGITS_MAX:  # type: ignore[operator]
        raise MmjError(BAD_INTEGER, f"{field}: an integer is 0..10**16-1, not {value!r}")
    return value  # type: ignore[return-value]


def _check_tile(value: object, field: str) -> Tile:
    if not isinstance(value, Tile):
        raise MmjError(BAD_VALUE, f"{field}: expected a Tile, not {value!r}")
    return value


def _check_wind(value: object, field: str) -> str:
    wind = value.lower() if isinstance(value, str) else value
    if wind not in WINDS:
        raise MmjError(BAD_WIND, f"{field}: a wind is e, s, w or n, not {value!r}")
    return wind  # type: ignore[return-value]


# -- the incremental token parsers ------------------------------------------------------------------------
# Each is a generator over a shared _Input: it yields whenever the buffer has no byte it needs and
# resumes once the reader has appended more, so a message may arrive split at any byte. None of
# them remembers a buffer position across a yield, so the reader may drop consumed bytes between
# feeds (which bounds the buffer by one message's pending counted string).


class _Input:
    __slots__ = ("buf", "pos", "base", "in_message")

    def __init__(self, data: bytes = b"") -> None:
        self.buf = bytearray(data)
        self.pos = 0
        self.base = 0  # stream offset of buf[0]
        self.in_message = False

    def error(self, code: str, reason: str) -> MmjError:
        # The offending byte is the one just consumed.
        return MmjError(code, reason, offset=self.base + self.pos - 1)


def _byte(inp: _Input) -> _Parse[int]:
    while inp.pos >= len(inp.buf):
        yield
    b = inp.buf[inp.pos]
    inp.pos += 1
    if b == 0:
        raise inp.error(NUL, "NUL byte")
    return b


def _first(inp: _Input) -> _Parse[int]:
    """The first byte of a token: whitespace before it is skipped."""
    while True:
        b = yield from _byte(inp)
        if b not in _WHITESPACE:
            return b


def _char(b: int) -> str:
    # Case folding for ASCII only; any other byte becomes a character no token contains.
    return chr(b).lower() if b < 0x80 else "\ufffd"


def _digit(b: int) -> int | None:
    return b - 0x30 if 0x30 <= b <= 0x39 else None


def _counted(inp: _Input, limit: int, field: str) -> _Parse[bytes]:
    b = yield from _first(inp)
    digits = n = 0
    while b != _COLON:
        d = _digit(b)
        if d is None:
            raise inp.error(BAD_COUNT, f"{field}: expected a counted string N:DATA, got {_show(b)}")
        digits += 1
        if digits > COUNT_DIGITS_MAX:
            raise inp.error(COUNT_TOO_LONG, f"{field}: a count has at most {COUNT_DIGITS_MAX} digits")
        n = n * 10 + d
        b = yield from _byte(inp)
    if digits == 0:
        raise inp.error(BAD_COUNT, f"{field}: a count needs at least one digit before ':'")
    if n > limit:
        raise inp.error(STRING_TOO_LONG, f"{field}: {n} octets, at most {limit}")
    while len(inp.buf) - inp.pos < n:
        yield
    data = bytes(inp.buf[inp.pos : inp.pos + n])
    nul = data.find(0)
    if nul >= 0:
        inp.pos += nul + 1
        raise inp.error(NUL, f"{field}: NUL inside a counted string")
    inp.pos += n
    return data


def _integer(inp: _Input, field: str) -> _Parse[int]:
    b = yield from _first(inp)
    digits = n = 0
    while b != _DOT:
        d = _digit(b)
        if d is None:
            raise inp.error(BAD_INTEGER, f"{field}: expected digits ended by '.', got {_show(b)}")
        digits += 1
        if digits > INTEGER_DIGITS_MAX:
            raise inp.error(INTEGER_TOO_LONG, f"{field}: an integer has at most {INTEGER_DIGITS_MAX} digits")
        n = n * 10 + d
        b = yield from _byte(inp)
    if digits == 0:
        raise inp.error(BAD_INTEGER, f"{field}: an integer needs at least one digit before '.'")
    return n


def _bounded_digit(inp: _Input, b: int, low: int, high: int, code: str, what: str) -> int:
    d = _digit(b)
    if d is None or not low <= d <= high:
        raise inp.error(code, f"{what}: expected a digit {low}..{high}, got {_show(b)}")
    return d


def _player(inp: _Input, field: str) -> _Parse[int]:
    b = yield from _first(inp)
    return _bounded_digit(inp, b, 1, PLAYERS, BAD_PLAYER, f"{field} (player ID)")


def _die(inp: _Input, field: str) -> _Parse[int]:
    b = yield from _first(inp)
    return _bounded_digit(inp, b, 1, 6, BAD_DIE, field)


def _wind(inp: _Input, field: str) -> _Parse[str]:
    b = yield from _first(inp)
    c = _char(b)
    if c not in WINDS:
        raise inp.error(BAD_WIND, f"{field}: a wind is e, s, w or n, not {_show(b)}")
    return c


_TILE_SECOND = {"b": "123456789", "c": "123456789", "d": "123456789rgw", "w": "eswn", "f": "1234", "s": "1234"}


def _tile(inp: _Input, field: str = "tile") -> _Parse[Tile]:
    b = yield from _first(inp)
    c = _char(b)
    if c in ("h", "?"):
        return Tile(c)
    seconds = _TILE_SECOND.get(c)
    if seconds is None:
        raise inp.error(BAD_TILE, f"{field}: no tile starts with {_show(b)}")
    b2 = yield from _byte(inp)
    c2 = _char(b2)
    if c2 not in seconds:
        raise inp.error(BAD_TILE, f"{field}: no tile {c + c2!r}")
    return Tile(c + c2)


def _place_digits(inp: _Input, count: int, kind: str) -> _Parse[int]:
    n = 0
    for _ in range(count):
        b = yield from _byte(inp)
        d = _digit(b)
        if d is None:
            raise inp.error(BAD_PLACE, f"place {kind!r} takes {count} digit(s), got {_show(b)}")
        n = n * 10 + d
    limit = _NUMBERED[kind]
    if n >= limit:
        raise inp.error(BAD_PLACE, f"place {kind}{n:0{count}d}: numbered 0..{limit - 1}")
    return n


def _place(inp: _Input, field: str = "place") -> _Parse[Place]:
    b = yield from _first(inp)
    kind = _char(b)
    if kind == "k":
        return Place("k")
    if kind in ("w", "r", "a"):
        number = yield from _place_digits(inp, {"w": 3, "r": 2, "a": 1}[kind], kind)
        return Place(kind, number)
    if kind in _OWNED:
        b = yield from _byte(inp)
        player = _bounded_digit(inp, b, 1, PLAYERS, BAD_PLACE, f"place {kind!r} player")
        if kind != "m":
            return Place(kind, player=player)
        number = yield from _place_digits(inp, 1, "m")
        return Place("m", number, player)
    raise inp.error(BAD_PLACE, f"{field}: no place starts with {_show(b)}")


def _ids_until_dot(inp: _Input, field: str) -> _Parse[tuple[int, ...]]:
    """Player IDs up to the literal "." of a chat (whitespace between them allowed)."""
    ids: list[int] = []
    while True:
        b = yield from _first(inp)
        if b == _DOT:
            return tuple(ids)
        ids.append(_bounded_digit(inp, b, 1, PLAYERS, BAD_PLAYER, f"{field} (player IDs, then '.')"))
        if len(ids) > 4 * PLAYERS:  # bound the list: nobody needs a player named more often
            raise inp.error(BAD_PLAYER, f"{field}: more than {4 * PLAYERS} player IDs")


def _parse_whole(parser: Callable[[_Input], _Parse[_T]], text: str, code: str, what: str) -> _T:
    """Runs a token parser over a complete string, which must be exactly one token."""
    if not isinstance(text, str) or not text or text[0].isspace() or not text.isascii():
        raise MmjError(code, f"not an mmj {what}: {text!r}")
    inp = _Input(text.encode("ascii"))
    gen = parser(inp)
    try:
        next(gen)
    except StopIteration as stop:
        if inp.pos == len(inp.buf):
            return stop.value  # type: ignore[no-any-return]
    except MmjError as error:
        raise MmjError(code, error.reason) from None
    raise MmjError(code, f"not an mmj {what}: {text!r}")


# -- messages -------------------------------------------------------------------------------------------
# Each class carries its keyword, its sender, how to write its arguments (_tokens) and how to read
# them (_read, a parser as above). Construction validates, so any message that exists encodes.


def _c(data: bytes) -> bytes:
    return b"%d:%s" % (len(data), data)


def _n(value: int) -> bytes:
    return b"%d." % value


def _s(value: object) -> bytes:
    return str(value).encode("ascii")


class _NoArgs:
    """A message that is its keyword alone."""

    __slots__ = ()

    def _tokens(self) -> list[bytes]:
        return []

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[_NoArgs]:
        return cls()
        yield  # unreachable: makes this a parser that needs no further input


class _OneTile:
    """A client operation naming one tile."""

    __slots__ = ()
    tile: Tile

    def __post_init__(self) -> None:
        _check_tile(self.tile, f"{self.KEYWORD} tile")  # type: ignore[attr-defined]

    def _tokens(self) -> list[bytes]:
        return [_s(self.tile)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[_OneTile]:
        tile = yield from _tile(inp, f"{cls.KEYWORD} tile")  # type: ignore[attr-defined]
        return cls(tile)  # type: ignore[call-arg]


# Server -> client.


@dataclass(frozen=True, slots=True)
class ServerHello(_NoArgs):
    """``mmj1s``: the server's protocol version string."""

    KEYWORD: ClassVar[str] = "mmj1s"
    SENDER: ClassVar[Side] = "server"


@dataclass(frozen=True, slots=True)
class Game:
    """``game I:YOURID C:PLAYER1 .. C:PLAYER4``: game setup; names at most 64 octets."""

    KEYWORD: ClassVar[str] = "game"
    SENDER: ClassVar[Side] = "server"
    you: int
    names: tuple[bytes, bytes, bytes, bytes]

    def __post_init__(self) -> None:
        _check_player(self.you, "game YOURID")
        names = tuple(_check_text(n, GAME_NAME_MAX, "game player name") for n in self.names)
        if len(names) != PLAYERS:
            raise MmjError(BAD_VALUE, f"game: {PLAYERS} names, not {len(names)}")
        object.__setattr__(self, "names", names)

    def _tokens(self) -> list[bytes]:
        return [_s(self.you), *map(_c, self.names)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[Game]:
        you = yield from _player(inp, "game YOURID")
        names = []
        for i in range(PLAYERS):
            names.append((yield from _counted(inp, GAME_NAME_MAX, f"game PLAYER{i + 1}")))
        return cls(you, tuple(names))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class NewHand:
    """``newhand W:HANDWIND W:P1WIND .. W:P4WIND``: reset to all tiles in the deck."""

    KEYWORD: ClassVar[str] = "newhand"
    SENDER: ClassVar[Side] = "server"
    hand_wind: str
    seat_winds: tuple[str, str, str, str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand_wind", _check_wind(self.hand_wind, "newhand HANDWIND"))
        winds = tuple(_check_wind(w, "newhand PxWIND") for w in self.seat_winds)
        if len(winds) != PLAYERS:
            raise MmjError(BAD_VALUE, f"newhand: {PLAYERS} seat winds, not {len(winds)}")
        object.__setattr__(self, "seat_winds", winds)

    def _tokens(self) -> list[bytes]:
        return [_s(self.hand_wind), *map(_s, self.seat_winds)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[NewHand]:
        hand = yield from _wind(inp, "newhand HANDWIND")
        seats = []
        for i in range(PLAYERS):
            seats.append((yield from _wind(inp, f"newhand P{i + 1}WIND")))
        return cls(hand, tuple(seats))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Break:
    """``break N M``: the two d6 rolls, single digits without a dot."""

    KEYWORD: ClassVar[str] = "break"
    SENDER: ClassVar[Side] = "server"
    die1: int
    die2: int

    def __post_init__(self) -> None:
        for die in (self.die1, self.die2):
            if not _is_int(die) or not 1 <= die <= 6:
                raise MmjError(BAD_DIE, f"break: a d6 roll is 1..6, not {die!r}")

    def _tokens(self) -> list[bytes]:
        return [_s(self.die1), _s(self.die2)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[Break]:
        die1 = yield from _die(inp, "break N")
        die2 = yield from _die(inp, "break M")
        return cls(die1, die2)


@dataclass(frozen=True, slots=True)
class Move:
    """``move T:tile P:src P:dst``: ``tile`` as this player sees it (``?`` if hidden)."""

    KEYWORD: ClassVar[str] = "move"
    SENDER: ClassVar[Side] = "server"
    tile: Tile
    src: Place
    dst: Place

    def __post_init__(self) -> None:
        _check_tile(self.tile, "move tile")
        for place in (self.src, self.dst):
            if not isinstance(place, Place):
                raise MmjError(BAD_VALUE, f"move: expected a Place, not {place!r}")

    def _tokens(self) -> list[bytes]:
        return [_s(self.tile), _s(self.src), _s(self.dst)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[Move]:
        tile = yield from _tile(inp, "move tile")
        src = yield from _place(inp, "move src")
        dst = yield from _place(inp, "move dst")
        return cls(tile, src, dst)


@dataclass(frozen=True, slots=True)
class RiichiDeclared(_NoArgs):
    """Server ``riichi``: the next hand-to-discard move declares riichi."""

    KEYWORD: ClassVar[str] = "riichi"
    SENDER: ClassVar[Side] = "server"


@dataclass(frozen=True, slots=True)
class Play(_NoArgs):
    """``play``: the receiving player has 14 tiles and must act."""

    KEYWORD: ClassVar[str] = "play"
    SENDER: ClassVar[Side] = "server"


@dataclass(frozen=True, slots=True)
class ClaimOffer(_NoArgs):
    """Server ``claim``: a tile was just discarded; claim it or pass."""

    KEYWORD: ClassVar[str] = "claim"
    SENDER: ClassVar[Side] = "server"


@dataclass(frozen=True, slots=True)
class Draw(_NoArgs):
    """``draw``: the hand is drawn."""

    KEYWORD: ClassVar[str] = "draw"
    SENDER: ClassVar[Side] = "server"


@dataclass(frozen=True, slots=True)
class Win:
    """``win I:winner (C:what N:points)+ 0: N:total``."""

    KEYWORD: ClassVar[str] = "win"
    SENDER: ClassVar[Side] = "server"
    winner: int
    scoring: tuple[ScoreLine, ...]
    total: int

    def __post_init__(self) -> None:
        _check_player(self.winner, "win winner")
        scoring = tuple(self.scoring)
        if not 1 <= len(scoring) <= SCORE_LINES_MAX or not all(isinstance(s, ScoreLine) for s in scoring):
            raise MmjError(BAD_SCORING, f"win: 1..{SCORE_LINES_MAX} ScoreLines, not {scoring!r}")
        object.__setattr__(self, "scoring", scoring)
        _check_integer(self.total, "win total")

    def _tokens(self) -> list[bytes]:
        out = [_s(self.winner)]
        for line in self.scoring:
            out += [_c(line.what), _n(line.points)]
        return [*out, _c(b""), _n(self.total)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[Win]:
        winner = yield from _player(inp, "win winner")
        lines = []
        while True:
            what = yield from _counted(inp, TEXT_MAX, "win description")
            points = yield from _integer(inp, "win points")
            if not what:
                break
            if len(lines) == SCORE_LINES_MAX:
                raise inp.error(BAD_SCORING, f"win: more than {SCORE_LINES_MAX} scoring entries")
            lines.append(ScoreLine(what, points))
        if not lines:
            raise inp.error(BAD_SCORING, "win: at least one scoring entry before the total")
        return cls(winner, tuple(lines), points)


@dataclass(frozen=True, slots=True)
class AckRequest(_NoArgs):
    """Server ``ack``: after the reveal moves; the client answers ``ack`` when ready."""

    KEYWORD: ClassVar[str] = "ack"
    SENDER: ClassVar[Side] = "server"


@dataclass(frozen=True, slots=True)
class ChatFrom:
    """Server ``chat SRC OTHERDESTS . C:TEXT``: ``others`` may be empty."""

    KEYWORD: ClassVar[str] = "chat"
    SENDER: ClassVar[Side] = "server"
    src: int
    others: tuple[int, ...]
    text: bytes

    def __post_init__(self) -> None:
        _check_player(self.src, "chat SRC")
        others = _check_players(self.others, "chat OTHERDESTS")
        if len(others) > 4 * PLAYERS:
            raise MmjError(BAD_PLAYER, f"chat: more than {4 * PLAYERS} player IDs")
        object.__setattr__(self, "others", others)
        object.__setattr__(self, "text", _check_text(self.text, CHAT_MAX, "chat TEXT"))

    def _tokens(self) -> list[bytes]:
        ids = [_s(self.src)] + ([b"".join(map(_s, self.others))] if self.others else [])
        return [*ids, b".", _c(self.text)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[ChatFrom]:
        src = yield from _player(inp, "chat SRC")
        others = yield from _ids_until_dot(inp, "chat OTHERDESTS")
        text = yield from _counted(inp, CHAT_MAX, "chat TEXT")
        return cls(src, others, text)


@dataclass(frozen=True, slots=True)
class Reject:
    """``reject C:EXPL``: the client's last operation was refused; EXPL at most 512 octets."""

    KEYWORD: ClassVar[str] = "reject"
    SENDER: ClassVar[Side] = "server"
    explanation: bytes

    def __post_init__(self) -> None:
        object.__setattr__(self, "explanation", _check_text(self.explanation, REJECT_MAX, "reject EXPL"))

    def _tokens(self) -> list[bytes]:
        return [_c(self.explanation)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[Reject]:
        return cls((yield from _counted(inp, REJECT_MAX, "reject EXPL")))


# Client -> server.


@dataclass(frozen=True, slots=True)
class ClientHello:
    """``mmj1c C:NAME``: protocol version and the player's name (at most 256 octets)."""

    KEYWORD: ClassVar[str] = "mmj1c"
    SENDER: ClassVar[Side] = "client"
    name: bytes

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _check_text(self.name, NAME_MAX, "mmj1c NAME"))

    def _tokens(self) -> list[bytes]:
        return [_c(self.name)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[ClientHello]:
        return cls((yield from _counted(inp, NAME_MAX, "mmj1c NAME")))


@dataclass(frozen=True, slots=True)
class Discard(_OneTile):
    """``discard T:tile``."""

    KEYWORD: ClassVar[str] = "discard"
    SENDER: ClassVar[Side] = "client"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Riichi(_OneTile):
    """Client ``riichi T:tile``: discard and declare riichi."""

    KEYWORD: ClassVar[str] = "riichi"
    SENDER: ClassVar[Side] = "client"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Out(_NoArgs):
    """``out``: go out (tsumo)."""

    KEYWORD: ClassVar[str] = "out"
    SENDER: ClassVar[Side] = "client"


@dataclass(frozen=True, slots=True)
class Ckong(_OneTile):
    """``ckong T:tile``: meld a concealed kong."""

    KEYWORD: ClassVar[str] = "ckong"
    SENDER: ClassVar[Side] = "client"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Pkong(_OneTile):
    """``pkong T:tile``: upgrade a melded pung to a kong."""

    KEYWORD: ClassVar[str] = "pkong"
    SENDER: ClassVar[Side] = "client"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Claim:
    """Client ``claim T:tile1 T:tile2 T:tile3``: the hand tiles going with the discard (``?`` as
    tile3 for a pung or chow)."""

    KEYWORD: ClassVar[str] = "claim"
    SENDER: ClassVar[Side] = "client"
    tiles: tuple[Tile, Tile, Tile]

    def __post_init__(self) -> None:
        tiles = tuple(_check_tile(t, "claim tile") for t in self.tiles)
        if len(tiles) != 3:
            raise MmjError(BAD_VALUE, f"claim: 3 tiles, not {len(tiles)}")
        object.__setattr__(self, "tiles", tiles)

    def _tokens(self) -> list[bytes]:
        return list(map(_s, self.tiles))

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[Claim]:
        tiles = []
        for i in range(3):
            tiles.append((yield from _tile(inp, f"claim tile{i + 1}")))
        return cls(tuple(tiles))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Swap(_OneTile):
    """``swap T:tile``: swap the discard for this hand tile."""

    KEYWORD: ClassVar[str] = "swap"
    SENDER: ClassVar[Side] = "client"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Ron(_NoArgs):
    """``ron``: claim the discard as the winning tile."""

    KEYWORD: ClassVar[str] = "ron"
    SENDER: ClassVar[Side] = "client"


@dataclass(frozen=True, slots=True)
class Pass(_NoArgs):
    """``pass``: let the discard go."""

    KEYWORD: ClassVar[str] = "pass"
    SENDER: ClassVar[Side] = "client"


@dataclass(frozen=True, slots=True)
class Ack(_NoArgs):
    """Client ``ack``: ready for the next hand."""

    KEYWORD: ClassVar[str] = "ack"
    SENDER: ClassVar[Side] = "client"


@dataclass(frozen=True, slots=True)
class ChatTo:
    """Client ``chat DESTS . C:TEXT``: one or more destinations, in the order given."""

    KEYWORD: ClassVar[str] = "chat"
    SENDER: ClassVar[Side] = "client"
    dests: tuple[int, ...]
    text: bytes

    def __post_init__(self) -> None:
        dests = _check_players(self.dests, "chat DESTS")
        if not dests:
            raise MmjError(NO_DESTINATION, "chat: DESTS names at least one player")
        if len(dests) > 4 * PLAYERS:
            raise MmjError(BAD_PLAYER, f"chat: more than {4 * PLAYERS} player IDs")
        object.__setattr__(self, "dests", dests)
        object.__setattr__(self, "text", _check_text(self.text, CHAT_MAX, "chat TEXT"))

    def _tokens(self) -> list[bytes]:
        return [b"".join(map(_s, self.dests)), b".", _c(self.text)]

    @classmethod
    def _read(cls, inp: _Input) -> _Parse[ChatTo]:
        dests = yield from _ids_until_dot(inp, "chat DESTS")
        if not dests:
            raise inp.error(NO_DESTINATION, "chat: DESTS names at least one player before '.'")
        text = yield from _counted(inp, CHAT_MAX, "chat TEXT")
        return cls(dests, text)


ServerMessage = (ServerHello | Game | NewHand | Break | Move | RiichiDeclared | Play | ClaimOffer | Draw | Win
                 | AckRequest | ChatFrom | Reject)
ClientMessage = ClientHello | Discard | Riichi | Out | Ckong | Pkong | Claim | Swap | Ron | Pass | Ack | ChatTo
Message = ServerMessage | ClientMessage

SERVER_MESSAGES: tuple[type, ...] = (ServerHello, Game, NewHand, Break, Move, RiichiDeclared, Play, ClaimOffer,
                                     Draw, Win, AckRequest, ChatFrom, Reject)
CLIENT_MESSAGES: tuple[type, ...] = (ClientHello, Discard, Riichi, Out, Ckong, Pkong, Claim, Swap, Ron, Pass,
                                     Ack, ChatTo)
# Keyword -> class, by the side that *sends* it.
_BY_SENDER: dict[str, dict[str, type]] = {
    "server": {cls.KEYWORD: cls for cls in SERVER_MESSAGES},  # type: ignore[attr-defined]
    "client": {cls.KEYWORD: cls for cls in CLIENT_MESSAGES},  # type: ignore[attr-defined]
}
KEYWORDS = frozenset(_BY_SENDER["server"]) | frozenset(_BY_SENDER["client"])
# No keyword is a prefix of another, so one is recognised on its last byte with no delimiter.
_KEYWORD_PREFIXES = frozenset(k[:i] for k in KEYWORDS for i in range(1, len(k) + 1))
assert not any(a != b and b.startswith(a) for a in KEYWORDS for b in KEYWORDS)


def _keyword(inp: _Input) -> _Parse[str]:
    b = yield from _first(inp)
    inp.in_message = True
    word = ""
    while True:
        word += _char(b)
        if word in KEYWORDS:
            return word
        if word not in _KEYWORD_PREFIXES:
            raise inp.error(UNKNOWN_KEYWORD, f"no mmj keyword starts {word!r}")
        b = yield from _byte(inp)


# -- reading and writing ---------------------------------------------------------------------------------------


class Reader:
    """Incremental reader of one direction of an mmj byte stream.

    ``side`` is the role of the end holding the reader: ``Reader("server")`` reads client messages,
    ``Reader("client")`` server messages. ``feed`` takes any slice of the stream and returns the
    messages it completed. Errors are final (see decision 15): after an ``MmjError`` every call
    raises again, and the caller should close the connection."""

    def __init__(self, side: Side) -> None:
        if side not in SIDES:
            raise ValueError(f"side is 'server' or 'client', not {side!r}")
        self.side: Side = side
        self._peer: Side = "client" if side == "server" else "server"
        self._table = _BY_SENDER[self._peer]
        self._inp = _Input()
        self._gen: _Parse[Message] | None = None
        self._failed: MmjError | None = None

    @property
    def pending(self) -> bool:
        """True while a message has begun but is not complete."""
        return self._inp.in_message

    @property
    def offset(self) -> int:
        """Bytes of the stream consumed so far."""
        return self._inp.base + self._inp.pos

    def _message(self) -> _Parse[Message]:
        keyword = yield from _keyword(self._inp)
        cls = self._table.get(keyword)
        if cls is None:
            raise self._inp.error(WRONG_DIRECTION, f"{keyword!r} is not a {self._peer} message")
        return (yield from cls._read(self._inp))  # type: ignore[attr-defined,no-any-return]

    def _raise_failed(self) -> None:
        assert self._failed is not None
        raise MmjError(self._failed.code, f"reader already failed: {self._failed.reason}",
                       offset=self._failed.offset)

    def feed(self, data: bytes | bytearray | memoryview) -> list[Message]:
        if self._failed is not None:
            self._raise_failed()
        inp = self._inp
        inp.buf += data
        out: list[Message] = []
        try:
            while inp.pos < len(inp.buf):
                if self._gen is None:
                    self._gen = self._message()
                try:
                    next(self._gen)
                except StopIteration as done:
                    out.append(done.value)
                    self._gen = None
                    inp.in_message = False
                else:
                    # A yield means the parser needs more than is buffered (all of it, or a
                    # counted string's whole DATA): wait for the next feed.
                    break
        except MmjError as error:
            error.messages = out
            self._failed = error
            self._gen = None
            raise
        finally:
            # Drop what the parsers consumed; they keep no positions across a yield.
            inp.base += inp.pos
            del inp.buf[: inp.pos]
            inp.pos = 0
        return out

    def eof(self) -> None:
        """The peer closed the stream: raises ``truncated`` if a message was cut off."""
        if self._failed is not None:
            self._raise_failed()
        if self._inp.in_message:
            self._failed = MmjError(TRUNCATED, "stream ended inside a message", offset=self.offset)
            raise self._failed


def decode(data: bytes, side: Side) -> list[Message]:
    """All messages of a complete stream (``side`` as for ``Reader``)."""
    reader = Reader(side)
    messages = reader.feed(data)
    reader.eof()
    return messages


_ALL_MESSAGES = SERVER_MESSAGES + CLIENT_MESSAGES


def encode(message: Message) -> bytes:
    """The canonical bytes of one message: lower case, single spaces, ending ``\\n``."""
    if not isinstance(message, _ALL_MESSAGES):
        raise TypeError(f"not an mmj message: {message!r}")
    return b" ".join([message.KEYWORD.encode("ascii"), *message._tokens()]) + b"\n"


# -- riichi tiles ------------------------------------------------------------------------------------------

_MAJIANG_SUIT = {"m": "c", "p": "d", "s": "b"}  # man = characters, pin = dots, sou = bamboo
_MMJ_SUIT = {v: k for k, v in _MAJIANG_SUIT.items()}
_MAJIANG_HONOUR = {"z1": "we", "z2": "ws", "z3": "ww", "z4": "wn", "z5": "dw", "z6": "dg", "z7": "dr"}
_MMJ_HONOUR = {v: k for k, v in _MAJIANG_HONOUR.items()} | {"h": "z5"}


def majiang_to_mmj(tile: str) -> Tile:
    """Majiang ``m1``..``z7`` (red fives ``m0 p0 s0`` as plain fives; ``""``, a masked tile, as
    ``?``) to an mmj tile. Only the bare two-character tile: strip Majiang's marks first."""
    if tile == "":
        return UNKNOWN
    if isinstance(tile, str) and len(tile) == 2:
        if tile[0] in _MAJIANG_SUIT and tile[1] in "0123456789":
            return Tile(_MAJIANG_SUIT[tile[0]] + ("5" if tile[1] == "0" else tile[1]))
        if tile in _MAJIANG_HONOUR:
            return Tile(_MAJIANG_HONOUR[tile])
    raise MmjError(BAD_TILE, f"not a Majiang tile: {tile!r}")


def mmj_to_majiang(tile: Tile, *, red: bool = False) -> str:
    """An mmj tile to Majiang's string; ``red=True`` makes a five the red one (``m0``), since the
    wire cannot say so. ``?`` is ``""``; flowers and seasons have no riichi tile."""
    code = _check_tile(tile, "tile").code
    if red and (code[0] not in _MMJ_SUIT or code[1:] != "5"):
        raise MmjError(BAD_TILE, f"only a five can be red, not {code!r}")
    if code == "?":
        return ""
    if code[0] in _MMJ_SUIT and code[1:].isdigit():
        return _MMJ_SUIT[code[0]] + ("0" if red else code[1])
    if code in _MMJ_HONOUR:
        return _MMJ_HONOUR[code]
    raise MmjError(NO_RIICHI_TILE, f"riichi has no tile {code!r} (flowers and seasons)")
