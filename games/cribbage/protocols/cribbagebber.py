"""The CRIBBAGEBBER protocol, version 0.1 (seed 002), as a codec. See docs/protocols/cribbage.md.

Client lines become ``Command`` values (``parse``); the platform's game history messages, already
cut down to one seat's view by ``Event.render``, become that seat's server lines (``SeatRenderer``);
the table's set-up and the connection's own replies are small line builders. Nothing here touches
the database or decides a rule: the gateway calls the lobby and game service, the engine rules.

Cards travel as three characters ``<n><rank><suit>``: ``n`` is the card's number (1-6) in the
receiving seat's hand as dealt, or ``0`` for a card that was not dealt to that seat (the starter,
other players' cards). Deal order is random, so a number tells nobody anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.cribbage.engine.scoring import say

VERSION = "0.1"
# The seed's variants D and N, plus M (manual counting): automatic counting is the default here.
VARIANTS = "DNM"
MAX_CHAT = 500
MAX_REASON = 200
MAX_NICKNAME_BYTES = 64

# Phases, named as in the seed; they appear in "WA: WRONGPHASE (<phase>)".
INTRODUCTORY = "INTRODUCTORY"
WAITING = "WAITING"
HAND_SETUP = "HAND SETUP"
PLAY_ACTIVE = "PLAY-ACTIVE"
PLAY_INACTIVE = "PLAY-INACTIVE"
COUNTING_ACTIVE = "COUNTING-ACTIVE"
COUNTING_INACTIVE = "COUNTING-INACTIVE"
MUGGINS = "MUGGINS"
PAUSED = "PAUSED"
USERPAUSED = "USERPAUSED"
ENDGAME = "ENDGAME"

IN_GAME = frozenset({HAND_SETUP, PLAY_ACTIVE, PLAY_INACTIVE, COUNTING_ACTIVE, COUNTING_INACTIVE, MUGGINS})
PLAY_AND_COUNTING = frozenset({PLAY_ACTIVE, PLAY_INACTIVE, COUNTING_ACTIVE, COUNTING_INACTIVE})

# Where each game command may be sent. Commands not listed here (ME, EJ, N, QU, IM) are checked
# by the gateway, which knows about tables and control clients.
COMMAND_PHASES: dict[str, frozenset[str]] = {
    "NP": frozenset({WAITING}),
    "CR": frozenset({HAND_SETUP}),
    "PL": frozenset({PLAY_ACTIVE}),
    "CN": frozenset({COUNTING_ACTIVE}),
    "AG": PLAY_AND_COUNTING,
    "MU": PLAY_AND_COUNTING,
    "YE": frozenset({WAITING, MUGGINS}),
    "NO": frozenset({MUGGINS}),
    # The seed allows a pause during the play and the counting; the engine also takes one while
    # cards are laid away or a muggins is voted on, so the protocol does too.
    "PA": IN_GAME,
    "UP": frozenset({USERPAUSED}),
}

# The refusal code a command's failures are reported under: "WA:<code>(<reason>)".
REFUSAL = {
    "IM": "BADNICK", "NP": "BADNP", "YE": "BADVOTE", "NO": "BADVOTE", "CR": "BADCRIB", "PL": "BADPLAY",
    "CN": "BADCOUNT", "AG": "BADAGREE", "MU": "BADMUGGINS", "PA": "BADPAUSE", "UP": "BADUNPAUSE",
    "ME": "BADMSG", "EJ": "BADEJECT", "N": "BADNEW",
}

BRUTE = "E: You Brute!"
GAME_RUNNING = "E:GAME"
READY = "RE:"
COUNT_RESET = "RS:"

_CARD_REF = re.compile(r"([1-6])([A2-9JQK0][HDCS])?")
_NUMBER = re.compile(r"[0-9]{1,3}")


class Malformed(Exception):
    """A line that is not a well-formed client request: ``WA:BADCMD(<reason>)``, the link stays."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class CardRef:
    """A card named by its number in the seat's dealt hand, optionally spelled out (``1AH``)."""

    number: int
    card: str | None = None


@dataclass(frozen=True)
class Command:
    code: str
    nickname: str | None = None  # IM, EJ, MU (the claimer)
    token: str | None = None  # IM, for a link that authenticated no other way
    players: int | None = None  # NP
    variants: str = ""  # NP
    cards: tuple[CardRef, ...] = ()  # CR, PL
    points: int | None = None  # PL (manual counting), CN, MU
    text: str | None = None  # ME


# ---------------------------------------------------------------------------------- client lines


def _number(text: str, what: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise Malformed(f"{what} must be a number")
    return int(text)


def _nickname(text: str) -> str:
    if not text or len(text.encode("utf-8")) > MAX_NICKNAME_BYTES or any(c in text for c in "/:; \t"):
        raise Malformed(f"a nickname is 1 to {MAX_NICKNAME_BYTES} bytes without '/', ':', ';' or spaces")
    return text


def _card_refs(text: str, most: int) -> tuple[CardRef, ...]:
    refs = []
    position = 0
    while position < len(text):
        match = _CARD_REF.match(text, position)
        if match is None:
            raise Malformed("cards are given by their numbers (1-6), optionally as <n><rank><suit>")
        refs.append(CardRef(int(match.group(1)), match.group(2)))
        position = match.end()
    if not 1 <= len(refs) <= most:
        raise Malformed(f"name 1 to {most} cards")
    return tuple(refs)


def _no_arguments(code: str, rest: str) -> Command:
    if rest.strip():
        raise Malformed(f"{code}: takes no arguments")
    return Command(code)


def parse(line: str) -> Command:
    """One client line (without its terminator) as a ``Command``; ``Malformed`` if it is not one."""
    if "\n" in line or "\r" in line:
        raise Malformed("one line per frame")
    code, colon, rest = line.partition(":")
    if not colon:
        raise Malformed("a line is <command>:<arguments>")
    if code == "ME":
        # Chat is taken exactly as typed; only its length is the gateway's business.
        return Command("ME", text=rest)
    rest = rest.strip()
    if code == "IM":
        nickname, _, token = rest.partition("/")
        if token and not token.isalnum():
            raise Malformed("an API token is letters and digits")
        return Command("IM", nickname=_nickname(nickname), token=token or None)
    if code == "NP":
        players, _, variants = rest.partition("/")
        n = _number(players, "the number of players")
        if any(letter not in VARIANTS for letter in variants) or len(set(variants)) != len(variants):
            raise Malformed(f"variants are letters from {VARIANTS!r}, each at most once")
        return Command("NP", players=n, variants=variants)
    if code == "CR":
        return Command("CR", cards=_card_refs(rest, 2))
    if code == "PL":
        card, slash, points = rest.partition("/")
        return Command("PL", cards=_card_refs(card, 1), points=_number(points, "points") if slash else None)
    if code == "CN":
        return Command("CN", points=_number(rest, "the count"))
    if code == "MU":
        if "/" in rest:
            claimer, _, points = rest.partition("/")
            return Command("MU", nickname=_nickname(claimer), points=_number(points, "the correct count"))
        return Command("MU", points=_number(rest, "the correct count"))
    if code == "EJ":
        return Command("EJ", nickname=_nickname(rest))
    if code in ("YE", "NO", "AG", "PA", "UP", "N", "QU"):
        return _no_arguments(code, rest)
    raise Malformed(f"unknown command {code[:8]!r}")


# ---------------------------------------------------------------------------------- rules <-> variants


def rules_for(variants: str) -> dict[str, Any]:
    """The table's engine rules for the seed's variant letters (``M``: manual counting)."""
    rules: dict[str, Any] = {"counting": "manual" if "M" in variants else "auto"}
    if "D" in variants and "N" in variants:
        raise ValueError("D (deduct for a failed muggins) and N (no muggins points) exclude each other")
    rules["variants"] = "D" if "D" in variants else "N" if "N" in variants else ""
    return rules


def variants_of(rules: Mapping[str, Any]) -> str:
    return str(rules.get("variants") or "") + ("M" if rules.get("counting") == "manual" else "")


# ---------------------------------------------------------------------------------- server lines


def clean(text: str, limit: int | None = None) -> str:
    """Text made safe for one line: no NUL, no line breaks (chat from browsers may carry them)."""
    text = re.sub(r"[\x00\r\n]+", " ", text)
    return text[:limit] if limit is not None else text


def protocol_line() -> str:
    return f"P:{VERSION}/{VARIANTS}"


def welcome(nickname: str, control: bool) -> str:
    return f"{'CO' if control else 'WE'}:{nickname}"


def waiting(missing: int) -> str:
    return f"UD:WAITING/{missing}"


def setup_line(players: int, rules: Mapping[str, Any]) -> str:
    return f"NP:{players}/{variants_of(rules)}"


def warning(code: str, reason: str) -> str:
    return f"WA:{code}({clean(reason, MAX_REASON)})"


def wrong_phase(phase: str) -> str:
    return f"WA: WRONGPHASE ({phase})"


def malformed(reason: str) -> str:
    return warning("BADCMD", reason)


def notice(code: str, nickname: str) -> str:
    """One-nickname notices: YE (accepted), QU (quit), EJ (ejected), FF (forfeited), N (new table)."""
    return f"{code}:{nickname}"


def chat(nickname: str, text: str) -> str:
    return f"ME:{nickname}/{clean(text)}"


def fatal(reason: str) -> str:
    """A parting error line other than the Brute's (E:GAME, E:FULL, E:LOGIN, E:ABORTED, E:TIMEOUT)."""
    return f"E:{reason}"


# ---------------------------------------------------------------------------------- phases


def phase_of(view: Mapping[str, Any], seat: int) -> str:
    """The seed's phase of ``seat`` in a game in progress, from the engine's view of it."""
    if view.get("is_over") or view.get("phase") == "over":
        return ENDGAME
    if view.get("paused"):
        return USERPAUSED
    if view.get("muggins"):
        return MUGGINS
    phase = view.get("phase")
    if phase in ("deal", "discard"):
        return HAND_SETUP
    claim = view.get("claim") or {}
    if phase == "play":
        reviewing = bool(claim.get("awaiting"))
        return PLAY_ACTIVE if view.get("active") == seat and not reviewing else PLAY_INACTIVE
    showing = view.get("showing") or {}
    return COUNTING_ACTIVE if showing.get("seat") == seat else COUNTING_INACTIVE


# ---------------------------------------------------------------------------------- game events


def wire_card(card: str, numbers: Mapping[str, int]) -> str:
    return f"{numbers.get(card, 0)}{card}"


def engine_cards(refs: Iterable[CardRef], dealt: Sequence[str]) -> list[str]:
    """The engine's card codes for card numbers in the hand ``dealt`` (in dealt order)."""
    cards = []
    for ref in refs:
        if ref.number > len(dealt):
            raise ValueError(f"you were dealt {len(dealt)} cards; there is no card {ref.number}")
        card = dealt[ref.number - 1]
        if ref.card is not None and ref.card != card:
            raise ValueError(f"card {ref.number} is {ref.number}{card}, not {ref.number}{ref.card}")
        cards.append(card)
    return cards


_SKUNK = {"": "NONE", "skunk": "SKUNK", "double skunk": "DOUBLESKUNK"}


class SeatRenderer:
    """Turns one seat's rendering of a game's history messages into that seat's lines.

    It is fed every history message in order (``size`` counts them, so a gateway can drop what it
    already rendered and fetch what it missed). Its only state is what the lines need: the
    nicknames, the seat's numbering of its dealt cards, and whose claim a muggins disputes.
    """

    def __init__(self, seat: int, nicknames: Sequence[str], mode: int, manual: bool) -> None:
        self.seat = seat
        self.nicknames = list(nicknames)
        self.mode = mode
        self.manual = manual
        self.size = 0
        self.dealt: list[str] = []  # this seat's cards in dealt order, for card numbers
        self.numbers: dict[str, int] = {}
        self._claimer: int | None = None  # whose claim the muggins under way disputes

    @property
    def crib_cards(self) -> int:
        return 2 if self.mode == 2 else 1

    def name(self, seat: int | None) -> str:
        return self.nicknames[seat] if seat is not None and 0 <= seat < len(self.nicknames) else "?"

    def cards(self, cards: Iterable[str]) -> str:
        return "".join(wire_card(card, self.numbers) for card in cards)

    def feed(self, messages: Iterable[Mapping[str, Any]]) -> list[str]:
        """Lines for ``messages`` (the next history messages), ending with any prompt they leave open."""
        lines: list[str] = []
        for message in messages:
            self.size += 1
            lines += self._render(message)
        return lines

    def _render(self, message: Mapping[str, Any]) -> list[str]:
        kind = message.get("type")
        player = message.get("player")
        params = list(message.get("params") or [])
        name = self.name(player)
        lines: list[str] = []
        if kind == "Deal":
            seat, cards = params
            if seat == self.seat and None not in cards:
                self.dealt = list(cards)
                self.numbers = {card: number for number, card in enumerate(cards, 1)}
                players = "/".join(self.nicknames)
                lines.append(f"SE:{self.crib_cards};{players};{self.cards(cards)};{name}")
        elif kind == "Discarded":
            if player == self.seat and None not in params[0]:
                lines.append("DI:" + "".join(str(self.numbers.get(card, 0)) for card in params[0]))
            lines.append(f"UD:{name}")
        elif kind == "Starter":
            lines.append(f"TO:{self.cards(params)}")
        elif kind == "HisHeels":
            lines += [f"PE:{name}/{params[0]}/{params[1]}", f"SC:{name}/{params[0]}/two for his heels"]
        elif kind == "Active":
            lines.append(f"AC:{name}")
        elif kind == "Played":
            card, points, score, count, items = params
            lines.append(f"PL:{name}/{self.cards([card])}/{score}/{count}")
            if not self.manual and points:
                lines.append(f"SC:{name}/{points}/{say(items, empty='nothing')}")
        elif kind == "Review":
            what, claimed = params
            if what == "play":
                # The seed's "ready for the counting?" check after the last card, and the check of
                # a pegging claim that reaches 121; a count's CN: line already asks for AG:.
                lines.append(f"RE:{name}/{claimed}")
        elif kind == "Go":
            lines.append(f"GO:{name}")
        elif kind == "GoPoint":
            points, score, why = params
            lines += [f"PE:{name}/{points}/{score}", f"SC:{name}/{points}/one for {why}"]
        elif kind == "CountReset":
            lines.append(COUNT_RESET)
        elif kind == "Show":
            what, cards, starter = params
            crib = "/CRIB" if what == "crib" else ""
            lines.append(f"H:{name}/{self.cards(cards)}/{self.cards([starter])}{crib}")
        elif kind == "Counted":
            points, score, items = params
            lines.append(f"CN:{name}/{points}/{score}")
            if not self.manual:
                lines.append(f"SC:{name}/{points}/{say(items)}")
        elif kind == "Settled":
            what, claimed, points, items = params
            if what != "play" or claimed or points:
                lines.append(f"SC:{name}/{points}/{say(items, empty='nothing' if what == 'play' else 'nineteen')}")
        elif kind == "Agreed":
            lines.append(f"AG:{name}")
        elif kind == "Muggins":
            claimer, _claimed, stated = params
            lines += [f"MU:{name}/{self.name(claimer)}/{stated}", f"M:{name}/{stated}"]
            self._claimer = claimer
        elif kind == "Vote":
            lines.append(f"{'YE' if params[0] else 'NO'}:{name}")
        elif kind == "MugginsResult":
            passed, claimer_score, caller_score = params
            claimer = self.name(self._claimer)
            lines.append(f"MR:{'YES' if passed else 'NO'}/{name}/{caller_score}/{claimer}/{claimer_score}")
        elif kind == "Paused":
            lines.append(f"PA:{name}")
        elif kind == "Unpaused":
            lines.append(f"UP:{name}")
        elif kind == "GameOver":
            scores, margin, skunk = params
            totals = "/".join(str(score) for score in scores)
            lines.append(f"EG:{name}/{margin}/{_SKUNK.get(skunk, 'NONE')}/{totals}")
        # CribCard (the deck's card to a three-handed crib) says nothing until the crib is shown.
        return lines
