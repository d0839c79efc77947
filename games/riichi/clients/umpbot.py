"""A UMP client that plays riichi mahjong with the house bot's judgement (``bot.choose``).

UMP (seed 004) is a line protocol: every line is ``<serial> <command> [args] [name=value ...]``
and the client answers ``hello``, ``sutehai?``, ``naki?``, ``tenpai?`` and ``ready?`` with the
same serial. This module is the pure part (no sockets, no Django): ``UmpBot.handle(line)`` takes
one line from the server and returns the reply line, or ``None`` when the line needs none.
``games/management/commands/umpbot.py`` does the socket I/O.

The house bot decides from the platform's ``view`` and ``legal_actions`` (``RiichiGame.view`` /
``_legal`` in ``engine/table.py``), so ``UmpBot`` keeps a client-side table from the lines it
reads (its own hand as a ``Shoupai``, every river, meld and riichi flag, dora indicators, scores,
winds, tiles left), rebuilds those two inputs for each question and turns the choice back into a
UMP reply. What the server offers in a question is taken as legal (``tsumo``, ``ron``, ``pon``...);
the concrete candidates (which tiles to discard, which two tiles to chi with) come from the hand
through ``engine.allow`` and ``Shoupai``, in Majiang notation.

Tiles: UMP ``5m``/``5M`` (red)/``1z``/``xx`` are Majiang ``m5``/``m0``/``z1``/``_``.
Seats: UMP ``A0``, ``B0``... count from the first dealer; here they are 0, 1, ... (the view's
``seat``); ``menfeng`` is the seat wind (0 = East) in the current hand.

State rebuild: after a reconnect the server re-sends ``kyokustart``, ``point``, ``haipai``, the
rivers and melds as ``sutehai``/``open``, and ``dora``. ``kyokustart`` resets the hand state. As it
is not fixed whether the re-sent ``haipai`` is the dealt hand or the current one, the own hand is
only changed by a ``sutehai``/``open``/``tsumo`` that fits its size: a discard is taken out of a
hand of 14 (melds counted as 3), a call out of a hand of 13; a line that does not fit only updates
the river or the meld list.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote

from games.riichi.bots import house as bot
from games.riichi.engine import allow
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shoupai import Shoupai, ShoupaiError
from games.riichi.engine.tile import valid_mianzi
from games.riichi.engine.xiangting import tingpai, xiangting

UMP_VERSION = "1"
# ``bot.choose``'s shape: (view, legal, rng) -> (action type, params).
Chooser = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]
QUESTIONS = ("hello", "sutehai?", "naki?", "tenpai?", "ready?")

_UMP_TILE = re.compile(r"([0-9])([mpszMPS])|xx")
_SEAT = re.compile(r"([A-Z])([0-9]+)\Z")
_TILES_WORD = re.compile(r"(?:[0-9][mpszMPS])+")
_MELD_GROUP = re.compile(r"([<(\[])([^>)\]]*)[>)\]]")
_DIGIT_UNMARKED = re.compile(r"[0-9](?![+=\-])")
_DIGIT_MARKED = re.compile(r"([0-9])[+=\-]")
# '_+=-'[(4 + discarder - caller) % 4]: the mark a discard gets in the caller's meld (Majiang).
_MARKS = "_+=-"
# Characters left as they are in hello's option values: printable ASCII but space and '%'
# (UMP asks for URI-encoded UTF-8 where a value is not plain ASCII; a space would split it).
_SAFE = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "%")


def to_majiang(tile: str) -> str:
    """UMP tile -> Majiang tile: ``5m`` -> ``m5``, ``5M`` -> ``m0`` (red), ``xx`` -> ``_``."""
    if tile == "xx":
        return "_"
    n, s = tile[0], tile[1]
    if s.isupper():
        return s.lower() + "0"
    return s + n


def to_ump(p: str) -> str:
    """Majiang tile (marks and suffixes ignored) -> UMP tile: ``m0`` -> ``5M``, ``z1_`` -> ``1z``."""
    if p[0] == "_":
        return "xx"
    s, n = p[0], p[1]
    if n == "0":
        return "5" + s.upper()
    return n + s


def parse_tiles(text: str) -> list[str]:
    """Every tile in a UMP tile string, in Majiang notation (brackets and the like skipped)."""
    return [to_majiang(m.group()) for m in _UMP_TILE.finditer(text)]


def seat_index(seat: str) -> int | None:
    """``A0`` -> 0, ``B0`` -> 1, ..., ``A1`` -> 26 (UMP counts seats from the first dealer)."""
    m = _SEAT.match(seat)
    if not m:
        return None
    return ord(m.group(1)) - ord("A") + 26 * int(m.group(2))


def seat_name(index: int) -> str:
    return chr(ord("A") + index % 26) + str(index // 26)


def _wind(text: str) -> int | None:
    """A wind as UMP may write it (``1z``..``4z``, ``0``..``3``, ``E``/``S``/``W``/``N``) -> 0..3."""
    tiles = parse_tiles(text)
    if len(tiles) == 1 and tiles[0][0] == "z" and tiles[0][1] in "1234":
        return int(tiles[0][1]) - 1
    if text.isdigit() and int(text) < 4:
        return int(text)
    if text[:1].upper() in ("E", "S", "W", "N") and text.isalpha():
        return "ESWN".index(text[0].upper())
    return None


def _points(text: str, old: int) -> int:
    """``=25000`` sets, ``+1000``/``-1000`` change (UMP's point notation)."""
    try:
        if text.startswith("="):
            return int(text[1:])
        return old + int(text)
    except ValueError:
        return old


def _kind(p: str) -> str:
    return p[0] + ("5" if p[1] == "0" else p[1])


def _encode(value: str) -> str:
    return quote(value, safe=_SAFE)


class UmpBot:
    """One seat's UMP client: keeps the table from the server's lines and answers its questions.

    ``handle(line)`` returns the reply (serial included) or ``None``. After it, ``finished`` is
    true once ``gameend`` was read, ``error`` holds the message of the last ``error`` line and
    ``logged_in`` says whether the server took the login of the current link (a line other than
    ``hello``/``error`` came after the last ``hello``).
    """

    def __init__(self, name: str, user: str, token: str, game: str | int | None = None, seed: int = 0,
                 choose: Chooser = bot.choose, options: dict[str, str] | None = None) -> None:
        self.name = name
        self.options = dict(options or {})  # more hello options, e.g. a new table's _bots and _preset
        self.choose = choose  # the judgement: the house bot's, or a test's own
        self.user = user
        self.token = token
        self.game = None if game is None else str(game)
        self.rng = random.Random(seed)
        # Majiang's defaults until the server's ``_ex_ rule`` line says otherwise; they only shape
        # the candidates (kuikae, riichi kans), while the server's options decide.
        self.rule: dict[str, Any] = make_rule()
        self.seat: int | None = None
        self.gameid: str | None = None
        self.players: dict[int, str] = {}
        self.scores: dict[int, int] = {}
        self.logged_in = False
        self.finished = False
        self.error: str | None = None
        self.final: list[tuple[str, str]] = []
        self.n_players = 4
        self.round = 0
        self.zhuangfeng = 0
        self.dealer = 0
        self.changbang = 0
        self.lizhibang = 0
        self.winds: dict[int, int] = {}
        self._reset_hand()

    # -- state -----------------------------------------------------------------------------------

    def _reset_hand(self) -> None:
        """Forget the hand in play (a new ``kyokustart``, also the one re-sent after a reconnect)."""
        self.shoupai = Shoupai()
        self.rivers: dict[int, list[str]] = {i: [] for i in range(self.n_players)}
        self.melds: dict[int, list[str]] = {i: [] for i in range(self.n_players)}
        self.riichi: dict[int, bool] = {i: False for i in range(self.n_players)}
        self.baopai: list[str] = []
        self.paishu = 70
        self.turn: int | None = None
        self.drawn: str | None = None  # own drawn tile (Majiang), for the fallback discard
        self.last_discard: tuple[int, str] | None = None  # (seat, tile) a call or ron takes
        self.pending_melds: list[str] = []  # own melds a re-sent haipai already showed

    def _menfeng(self, seat: int) -> int:
        wind = self.winds.get(seat)
        if wind is not None:
            return wind
        return (seat - self.dealer) % self.n_players

    def _size(self) -> int:
        """Tiles in the own hand, each meld counted as 3 (13 waiting, 14 to discard)."""
        sp = self.shoupai
        concealed = sp._bingpai["_"] + sum(sum(sp._bingpai[s][1:]) for s in "mpsz")
        return concealed + 3 * len(sp._fulou)

    def _fulou_of(self, seat: int) -> list[str]:
        return self.shoupai._fulou if seat == self.seat else self.melds.setdefault(seat, [])

    def view(self) -> dict[str, Any]:
        """The platform view (``RiichiGame.view``) with the fields ``bot.choose`` reads."""
        me = self.seat if self.seat is not None else 0
        seats = []
        for i in range(self.n_players):
            seats.append({
                "seat": i,
                "menfeng": self._menfeng(i),
                "fulou": list(self._fulou_of(i)),
                "he": list(self.rivers.get(i, [])),
                "lizhi": self.riichi.get(i, False) or (i == me and self.shoupai._lizhi),
                "defen": self.scores.get(i, 0),
            })
        shoupai = self.shoupai.to_string()
        return {
            "rule": self.rule,
            "zhuangfeng": self.zhuangfeng,
            "jushu": self.dealer,
            "changbang": self.changbang,
            "lizhibang": self.lizhibang,
            "defen": [self.scores.get(i, 0) for i in range(self.n_players)],
            "viewer": me,
            "seats": seats,
            "dealer": self.dealer,
            "turn": self.turn,
            "baopai": list(self.baopai),
            "paishu": self.paishu,
            "me": {
                "seat": me,
                "menfeng": self._menfeng(me),
                "shoupai": shoupai,
                "xiangting": xiangting(self.shoupai),
            },
        }

    # -- lines -----------------------------------------------------------------------------------

    def hello_reply(self, serial_line: str) -> str:
        """The answer to the server's ``<n> hello ...`` line: version, name and login."""
        serial = serial_line.split()[0] if serial_line.split() else "0"
        parts = [serial, "hello", f"ump={UMP_VERSION}", f"name={_encode(self.name)}",
                 f"user={_encode(self.user)}", f"password={_encode(self.token)}"]
        if self.game is not None:
            parts.append(f"_game={_encode(self.game)}")
        parts += [f"{name}={_encode(value)}" for name, value in self.options.items()]
        return " ".join(parts)

    def handle(self, line: str) -> str | None:
        """Read one line from the server; return the reply line (with its serial) or ``None``."""
        words = line.strip().split()
        if not words:
            return None
        serial: str | None = None
        if words[0].isdigit():
            serial, words = words[0], words[1:]
        if not words:
            return None
        command, args = words[0], words[1:]
        if command == "_ex_" and args[:1] == ["rule"]:
            self._on_rule(args[1:])
        if command.startswith("_ex_"):
            return None
        if command == "hello":
            self.logged_in = False  # a new link: its login is pending until the server goes on
            return self.hello_reply(line if serial is not None else "0 " + line)
        if command != "error":
            self.logged_in = True  # the server went past the hello, so it took the login
        answer = self._answer(command, args)
        if answer is not None:
            return answer if serial is None else f"{serial} {answer}"
        self._update(command, args)
        return None

    def _answer(self, command: str, args: list[str]) -> str | None:
        if command == "ready?":
            return "yes"
        if command not in QUESTIONS:
            return None
        # A question must always get an answer, or the server waits for the timeout; if the
        # client-side state does not fit the question (a missed line), answer the safe default.
        try:
            if command == "sutehai?":
                return self._discard(args)
            if command == "naki?":
                return self._naki(args)
            if command == "tenpai?":
                return self._tenpai()
        except (ShoupaiError, ValueError, IndexError, KeyError, TypeError):
            pass
        return self._fallback(command)

    def _fallback(self, command: str) -> str:
        if command == "sutehai?":
            tile = self.drawn or self._any_tile()
            return f"sutehai {to_ump(tile)} tsumogiri" if tile == self.drawn else f"sutehai {to_ump(tile)}"
        if command == "naki?":
            return "no"
        return "noten"

    def _any_tile(self) -> str:
        for s in "zspm":
            b = self.shoupai._bingpai[s]
            for n in range(len(b) - 1, 0, -1):
                if b[n]:
                    return s + str(n)
        return "z1"

    def _update(self, command: str, args: list[str]) -> None:
        handler = getattr(self, "_on_" + command, None)
        if handler is None:
            return  # unknown commands are ignored (UMP lets servers add their own)
        try:
            handler(args)
        except (ShoupaiError, ValueError, IndexError, KeyError):
            # A line that does not fit the state (e.g. during a rebuild) must not stop the bot;
            # the next kyokustart resets the hand anyway.
            pass

    # -- server lines that change the state ------------------------------------------------------

    def _on_rule(self, args: list[str]) -> None:
        # The server's rules (``_ex_ rule _<name>=<JSON value>``, names and values URI-encoded):
        # the candidates follow them (kuikae, riichi kans) instead of Majiang's defaults.
        for arg in args:
            name, _, value = arg.partition("=")
            with contextlib.suppress(ValueError):
                self.rule[unquote(name[1:])] = json.loads(unquote(value))

    def _on_error(self, args: list[str]) -> None:
        self.error = " ".join(args)

    def _on_seat(self, args: list[str]) -> None:
        for a in args:
            if a.startswith("gameid="):
                self.gameid = a.split("=", 1)[1]
            elif seat_index(a) is not None:
                self.seat = seat_index(a)

    def _on_player(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is not None:
            self.players[i] = args[1] if len(args) > 1 else ""
            self.n_players = max(self.n_players, i + 1)

    def _on_gamestart(self, args: list[str]) -> None:
        self.finished = False

    def _on_gameend(self, args: list[str]) -> None:
        self.finished = True
        self.final = [(args[i], args[i + 1]) for i in range(0, len(args) - 1, 2)]

    def _on_kyokustart(self, args: list[str]) -> None:
        self.round = int(args[0])
        dealer = seat_index(args[1])
        self.dealer = dealer if dealer is not None else 0
        self.changbang = int(args[2]) if len(args) > 2 else 0
        self.lizhibang = int(args[3]) if len(args) > 3 else 0
        wind = _wind(args[4]) if len(args) > 4 else None
        self.zhuangfeng = wind if wind is not None else min(self.round, 3)
        self.winds = {}
        for i, text in enumerate(args[5:]):
            w = _wind(text)
            if w is not None:
                self.winds[i] = w
        if len(args) > 5:
            self.n_players = max(4, len(args) - 5)
        self._reset_hand()

    def _on_point(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is not None:
            self.scores[i] = _points(args[1], self.scores.get(i, 0))

    def _on_richi(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is None:
            return
        self.riichi[i] = True
        if len(args) > 1:
            self.scores[i] = _points(args[1], self.scores.get(i, 0))
            self.lizhibang += 1

    def _on_dora(self, args: list[str]) -> None:
        # dora <dora> <indicator>: Majiang's baopai are the indicators.
        tiles = parse_tiles(args[-1])
        if tiles and tiles[0] != "_":
            self.baopai.append(tiles[0])

    def _on_haipai(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is None or i != self.seat or len(args) < 2:
            return
        text = "".join(args[1:])
        concealed = _MELD_GROUP.sub(" ", text)
        tiles = [p for p in parse_tiles(concealed) if p != "_"]
        melds = []
        for m in _MELD_GROUP.finditer(text):
            meld = self._meld_from_group(i, m.group(1), parse_tiles(m.group(2)), None)
            if meld:
                melds.append(meld)
        n = 14 - 3 * len(melds)
        sp = Shoupai(tiles[: n - 1])
        if len(tiles) >= n:
            sp.zimo(tiles[n - 1])  # a hand of 14: the last tile is the one to discard after
            self.drawn = sp._zimo
        sp._fulou = melds
        self.shoupai = sp
        self.pending_melds = list(melds)

    def _on_tsumo(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is None:
            return
        self.turn = i
        if len(args) > 1 and args[1].lstrip("-").isdigit():
            self.paishu = int(args[1])
        if i != self.seat or len(args) < 3:
            return
        tiles = parse_tiles(args[2])
        if not tiles or tiles[0] == "_":
            return
        if self._size() == 13 and not self.shoupai._zimo:
            self.shoupai.zimo(tiles[0])
        self.drawn = tiles[0]

    def _on_sutehai(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is None or len(args) < 2:
            return
        tiles = parse_tiles(args[1])
        if not tiles:
            return
        p = tiles[0] + ("_" if "tsumogiri" in args[2:] else "") + ("*" if "richi" in args[2:] else "")
        self.rivers.setdefault(i, []).append(p)
        self.last_discard = (i, tiles[0])
        self.turn = i
        if "richi" in args[2:]:
            self.riichi[i] = True
        if i == self.seat:
            self.drawn = None
            if self._size() == 14:
                self.shoupai.dapai(p, check=False)
            elif "richi" in args[2:]:
                self.shoupai._lizhi = True

    def _on_open(self, args: list[str]) -> None:
        i = seat_index(args[0])
        if i is None or len(args) < 2 or args[1][:1] not in "<([":
            # A hand shown at a win or at the draw (it starts with concealed tiles): no call.
            return
        text = " ".join(args[1:])
        group = _MELD_GROUP.search(text)
        if not group:
            return
        inside = parse_tiles(group.group(2))
        outside = parse_tiles(text[: group.start()] + " " + text[group.end():])
        meld = self._meld_from_group(i, group.group(1), inside, outside[0] if outside else None)
        if not meld:
            return
        self.turn = i
        if i == self.seat:
            self._own_meld(meld)
        else:
            self._other_meld(i, meld)
        if _DIGIT_MARKED.search(meld) and not _is_kakan(meld) and self.last_discard and self.last_discard[0] != i:
            # Majiang marks the called discard in its river with the direction (bot skips it).
            d = self.last_discard[0]
            river = self.rivers.get(d, [])
            found = _DIGIT_MARKED.search(meld)
            if found and river and river[-1][-1] not in "+=-":
                river[-1] += found.group()[-1]

    def _other_meld(self, i: int, meld: str) -> None:
        melds = self.melds.setdefault(i, [])
        if _is_kakan(meld):
            pon = meld[:-1]
            if pon in melds:
                melds[melds.index(pon)] = meld
                return
            for k, m in enumerate(melds):
                if _kind(m[:2]) == _kind(meld[:2]) and len(m) == 5:
                    melds[k] = m + meld[-1]
                    return
        melds.append(meld)

    def _own_meld(self, meld: str) -> None:
        sp = self.shoupai
        pending = [m for m in self.pending_melds if _meld_key(m) == _meld_key(meld)]
        if pending:
            self.pending_melds.remove(pending[0])  # already in the re-sent haipai
            return
        if _is_kakan(meld):
            base = next((m for m in sp._fulou if len(m) == 5 and _kind(m[:2]) == _kind(meld[:2])), None)
            if base is not None:
                meld = base + meld[-1]
                if self._size() == 14:
                    sp.gang(meld, check=False)
                else:
                    sp._fulou[sp._fulou.index(base)] = meld
                return
        elif len(_DIGIT_UNMARKED.findall(meld)) == 4:  # ankan
            if self._size() == 14:
                sp.gang(meld, check=False)
                return
        elif self._size() == 13 and not sp._zimo:
            sp.fulou(meld)
            return
        # The hand does not hold the tiles (a rebuild sent the hand as it is now): note the meld.
        sp._fulou.append(meld)

    def _meld_from_group(self, caller: int, bracket: str, inside: list[str], called: str | None) -> str | None:
        """The Majiang meld for a UMP meld: ``<...>`` a call (with the called tile), ``(...)`` an
        ankan, ``[...]`` the pon an added kan (the called tile, or the 4th) is made on."""
        tiles = [p for p in inside if p != "_"]
        if not tiles:
            return None
        s = tiles[0][0]
        if any(p[0] != s for p in tiles) or (called and called[0] != s):
            return None
        if bracket == "(":
            return valid_mianzi(s + "".join(p[1] for p in tiles))
        if bracket == "[":
            added = called or (tiles[3] if len(tiles) > 3 else tiles[0])
            pon = tiles[:3]
            mark = self._mark(caller)
            return valid_mianzi(s + pon[0][1] + pon[1][1] + pon[2][1] + mark + added[1])
        hand = list(tiles)
        if called and len(hand) in (3, 4):
            # The called tile is one of those in brackets: take it out of the hand's part.
            same = [p for p in hand if p == called] or [p for p in hand if _kind(p) == _kind(called)]
            if same:
                hand.remove(same[0])
        elif not called:
            last = self.last_discard[1] if self.last_discard else None
            pick = [p for p in hand if last and p == last] or [p for p in hand if last and _kind(p) == _kind(last)]
            called = pick[0] if pick else hand[0]
            hand.remove(called)
        if len(hand) not in (2, 3):
            return None
        chi = len({_kind(p) for p in hand + [called]}) > 1
        mark = "-" if chi else self._mark(caller)
        return valid_mianzi(s + "".join(p[1] for p in hand) + called[1] + mark)

    def _mark(self, caller: int) -> str:
        if self.last_discard is None or self.last_discard[0] == caller:
            return "="
        return _MARKS[(4 + self.last_discard[0] - caller) % 4] if self.n_players == 4 else "="

    # -- questions -------------------------------------------------------------------------------

    def _discard(self, args: list[str]) -> str:
        """``sutehai? [richi <tiles>] [tsumo] [ankan] [kakan] [_kyushu]``."""
        sp = self.shoupai
        legal: list[dict[str, Any]] = []
        dapai = allow.get_dapai(self.rule, sp)
        if dapai is None:
            dapai = sp.get_dapai(False) or []
        for p in dapai:
            legal.append({"type": "dapai", "params": [p]})
        if "richi" in args:
            # The riichi discards follow as one concatenated word (or, leniently, several).
            offered: list[str] = []
            for word in args[args.index("richi") + 1:]:
                if not _TILES_WORD.fullmatch(word):
                    break
                offered += parse_tiles(word)
            if offered:
                kinds = set(offered)
                riichi = [p for p in dapai if p[:2] in kinds]
                riichi += [p for p in kinds if not any(q[:2] == p for q in dapai)]
            else:
                found = allow.allow_lizhi(self.rule, sp, None, 99, 99_999)
                riichi = list(found) if found else []
            for p in riichi:
                legal.append({"type": "dapai", "params": [p + "*"], "lizhi": True})
        if "ankan" in args or "kakan" in args:
            gangs = allow.get_gang_mianzi(self.rule, sp, None, max(self.paishu, 1), 0) or sp.get_gang_mianzi() or []
            for m in gangs:
                ankan = len(_DIGIT_UNMARKED.findall(m)) == 4
                if ("ankan" if ankan else "kakan") in args:
                    legal.append({"type": "gang", "params": [m]})
        if "tsumo" in args:
            legal.append({"type": "hule", "params": []})
        if "_kyushu" in args:
            legal.append({"type": "pingju", "params": []})
        legal.append({"type": "pass", "params": []})
        kind, params = self.choose(self.view(), legal, self.rng)
        if kind == "hule":
            return "tsumo"
        if kind == "pingju":
            return "_kyushu"
        if kind == "gang" and params:
            m = params[0]
            if _is_kakan(m):
                return f"kakan {to_ump(m[0] + m[-1])}"
            return "ankan " + "".join(to_ump(m[0] + d) for d in m[1:5])
        if kind == "dapai" and params:
            p = params[0]
            reply = f"sutehai {to_ump(p)}"
            if "_" in p:
                reply += " tsumogiri"
            if "*" in p:
                reply += " richi"
            return reply
        return self._fallback("sutehai?")

    def _naki(self, args: list[str]) -> str:
        """``naki? <tile> [ron] [kan] [pon] [chi]``: the last discard (or added kan)."""
        tiles = parse_tiles(args[0]) if args else []
        legal: list[dict[str, Any]] = []
        if "ron" in args[1:]:
            legal.append({"type": "hule", "params": []})
        if tiles and tiles[0] != "_" and self.seat is not None:
            source = self.last_discard[0] if self.last_discard else (self.seat - 1) % 4
            mark = _MARKS[(4 + source - self.seat) % 4]
            if mark == "_":
                mark = "-" if "chi" in args[1:] else "="
            p = tiles[0] + mark
            sp = self.shoupai
            paishu = max(self.paishu, 1)  # the server asked, so a call is still possible
            if "chi" in args[1:]:
                for m in allow.get_chi_mianzi(self.rule, sp, tiles[0] + "-", paishu) or []:
                    legal.append({"type": "fulou", "params": [m]})
            if "pon" in args[1:]:
                for m in allow.get_peng_mianzi(self.rule, sp, p, paishu) or []:
                    legal.append({"type": "fulou", "params": [m]})
            if "kan" in args[1:]:
                for m in allow.get_gang_mianzi(self.rule, sp, p, paishu, 0) or []:
                    legal.append({"type": "fulou", "params": [m]})
        legal.append({"type": "pass", "params": []})
        kind, params = self.choose(self.view(), legal, self.rng)
        if kind == "hule":
            return "ron"
        if kind == "fulou" and params:
            m = params[0]
            hand = "".join(to_ump(m[0] + d) for d in _DIGIT_UNMARKED.findall(m))
            digits = len(_DIGIT_UNMARKED.findall(m))
            if digits == 3:
                return f"kan {hand}"
            same = len({_kind(m[0] + d) for d in re.findall(r"[0-9]", m)}) == 1
            return f"{'pon' if same else 'chi'} {hand}"
        return "no"

    def _tenpai(self) -> str:
        """``tenpai?`` at the exhaustive draw: show the hand when it waits on something."""
        sp = self.shoupai
        legal: list[dict[str, Any]] = []
        if not sp._zimo and xiangting(sp) == 0 and tingpai(sp):
            legal.append({"type": "daopai", "params": []})
        legal.append({"type": "pass", "params": []})
        kind, _ = self.choose(self.view(), legal, self.rng)
        return "tenpai" if kind == "daopai" else "noten"


def _is_kakan(m: str) -> bool:
    return bool(re.search(r"[0-9]{3}[+=\-][0-9]\Z", m))


def _meld_key(m: str) -> str:
    """A meld without its direction and digit order: the same meld however its call was told."""
    return m[0] + "".join(sorted(d for d in m if d.isdigit()))
