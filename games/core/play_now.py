"""Play now: what a player may ask for, and who is seated with whom (pure; docs/play-now.md).

A request names a game type and that type's common settings (riichi: a rule preset, east-only
or east-south, and the level of the house bots that fill empty seats; Acquire: the number of
players; cribbage: two, three or two against two; a clock for each). ``read`` turns it into a
``Request``: the table it asks for and the queue it waits in (``key``: only requests for the same
table are seated together; the bot level is not part of it, see ``UNMATCHED``).

``tables`` decides, from the waiting requests of one queue, which are seated now: players of
similar skill (their ratings' mu) together, the accepted difference widening with the time each
has waited, and, once a player's chosen wait for bots is over, the seats nobody took filled by
house bots.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.registry import GAME_TYPES as GAME_TYPES_BY_KEY

# How far apart two players' skills (OpenSkill's mu, on its own scale: a newcomer is 25) may be to
# be seated together: WINDOW_BASE at once, widening by WINDOW_GROWTH a second waited. After a
# minute (2 + 12 = 14) nearly anyone plays anyone.
WINDOW_BASE = 2.0
WINDOW_GROWTH = 0.2
# The longest wait for bots a player may choose (seconds); ``None`` is never.
MAX_BOTS_AFTER = 600
# The waits the lobby offers (seconds; None: never); any whole number up to MAX_BOTS_AFTER is taken.
BOTS_AFTER_CHOICES: tuple[int | None, ...] = (0, 15, 60, None)

# Riichi: a ruleset and a length, each pair a table's rules.
RIICHI_RULESETS = {"tenhou": "Tenhou-like", "majiang": "Majiang default", "no-red": "No red fives"}
RIICHI_LENGTHS = {"east-south": "East-south (半荘)", "east": "East only (東風)"}
_RIICHI_RULES: dict[tuple[str, str], dict[str, Any]] = {
    ("tenhou", "east-south"): {"preset": "tenhou"},
    ("tenhou", "east"): {"preset": "tenhou-east"},
    ("majiang", "east-south"): {"preset": "majiang"},
    ("majiang", "east"): {"preset": "east"},
    ("no-red", "east-south"): {"preset": "no-red"},
    ("no-red", "east"): {"preset": "no-red", "場数": 1},
}
# Riichi's bot levels (games/riichi/bots/levels.py, in their order) with their labels, and the one
# Play now seats when a request names none: the middle level, sensible play with some defence.
RIICHI_BOT_LEVELS = {level: level.capitalize() for level in GAME_TYPES_BY_KEY["riichi"].bot_levels()}
DEFAULT_BOT_LEVEL = "intermediate"
# Choices that do not split the queue: players who chose different bot levels may still sit
# together, and the table's bots take the level of its first player (the longest waiting, who
# hosts); so the level only decides something when bots are seated at all.
UNMATCHED = frozenset({"bot_level"})
# Acquire's singles modes by players; cribbage's modes (4 is two against two).
ACQUIRE_PLAYERS = {2: "2 players", 3: "3 players", 4: "4 players", 5: "5 players", 6: "6 players"}
CRIBBAGE_PLAYERS = {2: "Two players", 3: "Three players", 4: "Two against two"}

# Clocks, as CreateGame takes them: majiang-server's time per decision and bank for riichi, a
# Fischer clock (seconds to start, increment a move) for the others.
CLOCKS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "riichi": {
        "untimed": ("Untimed", {}),
        "fast": ("Fast: 5 s a decision + 10 s bank", {"time_control": {"per_decision": 5, "bank": 10}}),
        "normal": ("Normal: 10 s a decision + 30 s bank", {"time_control": {"per_decision": 10, "bank": 30}}),
    },
    "acquire": {
        "untimed": ("Untimed", {}),
        "fast": ("Fast: 5 min + 5 s a move", {"time_start": 300, "time_increment": 5}),
        "normal": ("Normal: 15 min + 10 s a move", {"time_start": 900, "time_increment": 10}),
    },
    "cribbage": {
        "untimed": ("Untimed", {}),
        "fast": ("Fast: 3 min + 5 s a move", {"time_start": 180, "time_increment": 5}),
        "normal": ("Normal: 10 min + 10 s a move", {"time_start": 600, "time_increment": 10}),
    },
}
GAME_TYPES = tuple(CLOCKS)


class Invalid(ValueError):
    """A request that names no table this site seats by Play now; the message says why."""


@dataclass(frozen=True)
class Request:
    """A valid Play now request: the choices as they were read, and the table they mean."""

    game_type: str
    options: dict[str, Any]  # the choices, every one present (defaults filled in)
    mode: int
    seats: int
    rules: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] = field(default_factory=dict)  # CreateGame's clock fields
    bots_after: int | None = 15

    @property
    def key(self) -> str:
        """The queue: requests with the same key ask for the same table."""
        matched = {name: value for name, value in self.options.items() if name not in UNMATCHED}
        return f"{self.game_type}:{json.dumps(matched, sort_keys=True, separators=(',', ':'))}"

    @property
    def bot_level(self) -> str | None:
        """The level of the house bots that fill this request's table (None: the default house bot)."""
        return self.options.get("bot_level")


def _choice(fields: Mapping[str, Any], name: str, choices: Mapping[Any, str], default: Any) -> Any:
    value = fields.get(name, default)
    if value is None:
        value = default
    # Only text and whole numbers can name a choice (a list or an object is not even hashable).
    if isinstance(value, bool) or not isinstance(value, str | int) or value not in choices:
        names = ", ".join(json.dumps(c) for c in choices)
        raise Invalid(f"{name} is one of {names}")
    return value


def bots_after(value: Any) -> int | None:
    """The player's wait for bots: whole seconds from 0 (at once) to MAX_BOTS_AFTER, or None (never)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BOTS_AFTER:
        raise Invalid(f"bots_after is a whole number of seconds from 0 to {MAX_BOTS_AFTER}, or null for never")
    return value


def read(fields: Mapping[str, Any]) -> Request:
    """A request's fields (``game_type``, its settings, ``clock``, ``bots_after``) as a ``Request``;
    ``Invalid`` names the first field that is wrong. Settings left out take their defaults."""
    game_type = fields.get("game_type")
    if not isinstance(game_type, str) or game_type not in CLOCKS:
        raise Invalid(f"game_type is one of {', '.join(GAME_TYPES)}")
    clock = _choice(fields, "clock", CLOCKS[game_type], "untimed")
    wait = bots_after(fields.get("bots_after", 15))
    if game_type == "riichi":
        ruleset = _choice(fields, "preset", RIICHI_RULESETS, "tenhou")
        length = _choice(fields, "length", RIICHI_LENGTHS, "east-south")
        level = _choice(fields, "bot_level", RIICHI_BOT_LEVELS, DEFAULT_BOT_LEVEL)
        return Request("riichi", {"preset": ruleset, "length": length, "clock": clock, "bot_level": level}, 4, 4,
                       dict(_RIICHI_RULES[ruleset, length]), dict(CLOCKS["riichi"][clock][1]), wait)
    if game_type == "acquire":
        players = _choice(fields, "players", ACQUIRE_PLAYERS, 4)
        return Request("acquire", {"players": players, "clock": clock}, players, players, {},
                       dict(CLOCKS["acquire"][clock][1]), wait)
    players = _choice(fields, "players", CRIBBAGE_PLAYERS, 2)
    return Request("cribbage", {"players": players, "clock": clock}, players, players, {},
                   dict(CLOCKS["cribbage"][clock][1]), wait)


def choices() -> dict[str, Any]:
    """Every choice, for a user interface and the API's description (labels included)."""
    return {
        "riichi": {"preset": RIICHI_RULESETS, "length": RIICHI_LENGTHS, "bot_level": RIICHI_BOT_LEVELS},
        "acquire": {"players": ACQUIRE_PLAYERS},
        "cribbage": {"players": CRIBBAGE_PLAYERS},
        "clock": {game_type: {name: label for name, (label, _) in clocks.items()}
                  for game_type, clocks in CLOCKS.items()},
        "bots_after": list(BOTS_AFTER_CHOICES),
    }


# -- Who is seated with whom -------------------------------------------------------------------------


@dataclass(frozen=True)
class Waiting:
    """One waiting request of a queue: its id, the player's skill, since when it waits (ms), and
    the player's wait for bots (seconds; None: never)."""

    id: int
    mu: float
    since_ms: int
    bots_after: int | None


def window(waited_ms: int) -> float:
    """How far from a player's skill another's may be, after waiting ``waited_ms``."""
    return WINDOW_BASE + WINDOW_GROWTH * max(0, waited_ms) / 1000


def _compatible(a: Waiting, b: Waiting, now_ms: int) -> bool:
    # Both must accept the other: the narrower of the two windows decides.
    return abs(a.mu - b.mu) <= min(window(now_ms - a.since_ms), window(now_ms - b.since_ms))


def _bots_due(w: Waiting, now_ms: int) -> bool:
    return w.bots_after is not None and now_ms - w.since_ms >= w.bots_after * 1000


def tables(waiting: Sequence[Waiting], seats: int, now_ms: int) -> list[tuple[list[Waiting], int]]:
    """The tables to seat now from one queue's ``waiting`` requests: each a list of players (the
    longest-waiting first, who hosts) and the number of house bots to add.

    The longest-waiting player is looked at first, with the others nearest in skill that every
    member of the group accepts: a full group is seated. A group short of players is seated with
    bots once the first player's own wait for bots is over; it takes only the players who accept
    bots at all (a player who chose "never" keeps waiting for people), including any whose own
    wait is not over yet, since a table with another person is what that wait was for. Otherwise
    the first player waits on, and the next is looked at."""
    left = sorted(waiting, key=lambda w: (w.since_ms, w.id))
    seated: list[tuple[list[Waiting], int]] = []
    while left:
        first, others = left[0], left[1:]
        group = [first]
        for other in sorted(others, key=lambda w: (abs(w.mu - first.mu), w.since_ms, w.id)):
            if len(group) == seats:
                break
            if all(_compatible(other, member, now_ms) for member in group):
                group.append(other)
        if len(group) < seats and _bots_due(first, now_ms):
            group = [w for w in group if w.bots_after is not None]
        elif len(group) < seats:
            group = []
        if group:
            seated.append((group, seats - len(group)))
        taken = {w.id for w in group} | {first.id}
        left = [w for w in left if w.id not in taken]
    return seated
