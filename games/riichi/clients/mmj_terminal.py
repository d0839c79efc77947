"""The reference mmj terminal (seed 000, docs/protocols/mmj.md): pure, no Django, no sockets.

mmj is an "intelligent terminal" protocol: the server only says which tile moves between which of
the table's 19 places and asks ``play``/``claim``/``ack``; the terminal shows the table and tries
operations the server may reject. This module is that terminal, in three parts:

- ``Places``: the 19 places rebuilt from the ``move`` messages alone (tiles as this player sees
  them, ``?`` for hidden), with the doc's two self-moves: a reveal (``move T P P``) and the
  melding player's concealed-kong marker (``move ? mXN mXN``). A move the places cannot hold
  raises ``PlaceError``, which is how a test proves the server's moves are consistent.
- ``Terminal``: one player's picture (places, names, winds, the open question, the last discard,
  rejects, wins) fed message by message; ``render()`` prints the table. In bot mode ``feed``
  returns the answer to each question.
- The bot, inside ``Terminal``: it knows only what the moves show (a red five is a plain five on
  the wire) and judges with the engine (``xiangting``, ``hule``) and the house bot
  (``bot.choose``) on a Majiang hand built from its own tiles and melds. It cannot know furiten,
  every yaku condition, kuikae under the table's preset or the scores, so a ``reject`` is normal:
  the server asks the same question again and the bot never repeats a refused answer for it
  (fallbacks: ron -> pass, riichi T -> discard T, out -> discard, a call -> pass, a refused
  discard -> another tile; when everything was refused it answers nothing rather than loop).

``parse_command`` reads what a person types at ``manage.py mmjclient`` (client messages in mmj
syntax, plus ``show``, ``hint``, ``help``, ``quit``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from games.riichi.bots import house as house
from games.riichi.engine.hule import hule, hule_param
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from games.riichi.protocols import mmj
from games.riichi.protocols.mmj import (
    Ack,
    AckRequest,
    Break,
    ChatFrom,
    Ckong,
    Claim,
    ClaimOffer,
    ClientHello,
    ClientMessage,
    Discard,
    Draw,
    Game,
    Move,
    NewHand,
    Out,
    Pass,
    Pkong,
    Place,
    Play,
    Reject,
    Riichi,
    RiichiDeclared,
    Ron,
    ServerHello,
    ServerMessage,
    Tile,
    Win,
)

PLAYERS = 4
TILES = 136
DEAL = 52  # w000..w051 are the deal; w052 on are draws (the doc numbers the wall in draw order)
# Majiang's direction marks by (4 + discarder - caller) % 4: '_' is the caller itself.
_MARKS = "_+=-"
_PLACE_ORDER = "kwrahdfm"
_UNORDERED = "khf"  # places whose tiles have no order: shown sorted
# Display order of tiles: characters, dots, bamboo, winds, dragons, flowers, seasons, hidden.
_TILE_ORDER = {
    code: i
    for i, code in enumerate(
        [f"{s}{n}" for s in "cdb" for n in range(1, 10)]
        + ["we", "ws", "ww", "wn", "dw", "h", "dg", "dr"]
        + [f"{k}{n}" for k in "fs" for n in range(1, 5)]
        + ["?"]
    )
}
WIND_NAMES = {"e": "East", "s": "South", "w": "West", "n": "North"}
QUESTIONS = {Play: "play", ClaimOffer: "claim", AckRequest: "ack"}


class PlaceError(ValueError):
    """A move the places cannot hold: from an empty place, or of a shown tile that is not there."""


def tile_key(tile: Tile) -> int:
    return _TILE_ORDER[tile.code]


def _place(place: Place | str) -> Place:
    return place if isinstance(place, Place) else Place.parse(place)


def _place_key(key: str) -> tuple[int, int, int]:
    p = Place.parse(key)
    return (_PLACE_ORDER.index(p.kind), p.player or 0, p.number or 0)


class Places(Mapping[str, list[Tile]]):
    """The table's 19 places, rebuilt from the moves alone.

    A mapping from place strings (``"k"``, ``"w052"``, ``"r00"``, ``"a0"``, ``"h1"``, ``"d1"``,
    ``"f1"``, ``"m10"``) to the tiles there as this player sees them: ``places["h1"]`` is a copy,
    empty for any valid place that holds nothing; iterating (and ``in``, ``len``) covers the
    non-empty places only. Discards and melds keep their order of arrival.
    """

    def __init__(self) -> None:
        self._tiles: dict[str, list[Tile]] = {}
        self._concealed: set[str] = set()
        self.reset()

    def reset(self) -> None:
        """``newhand``: all 136 tiles hidden in the deck, every other place empty."""
        self._tiles = {"k": [mmj.UNKNOWN] * TILES}
        self._concealed = set()

    # -- Mapping --------------------------------------------------------------------------------

    def __getitem__(self, key: str) -> list[Tile]:
        try:
            name = str(_place(key))
        except ValueError:
            raise KeyError(key) from None
        return list(self._tiles.get(name, ()))

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._tiles, key=_place_key))

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, key: object) -> bool:
        try:
            return str(_place(key)) in self._tiles  # type: ignore[arg-type]
        except (ValueError, TypeError):
            return False

    # -- moves ----------------------------------------------------------------------------------

    def move(self, tile: Tile, src: Place | str, dst: Place | str) -> None:
        """Apply ``move T src dst`` (raises ``PlaceError`` if the places cannot hold it)."""
        s, d = str(_place(src)), str(_place(dst))
        here = self._tiles.get(s)
        if not here:
            raise PlaceError(f"move {tile} {s} {d}: {s} is empty")
        if s == d:
            self._self_move(tile, s, here)
            return
        if not tile.hidden and tile in here:
            i = here.index(tile)
        elif mmj.UNKNOWN in here:
            i = here.index(mmj.UNKNOWN)
        elif tile.hidden:
            # A hidden move out of a place whose tiles this player sees: the seed allows it (a
            # tile turned away again); take the newest.
            i = len(here) - 1
        else:
            raise PlaceError(f"move {tile} {s} {d}: no {tile} and no hidden tile at {s} ({_codes(here)})")
        del here[i]
        if not here:
            del self._tiles[s]
            self._concealed.discard(s)
        self._tiles.setdefault(d, []).append(tile)

    def _self_move(self, tile: Tile, name: str, here: list[Tile]) -> None:
        if tile.hidden:
            # The melding player's concealed-kong marker (it saw four open moves first).
            if not name.startswith("m"):
                raise PlaceError(f"move ? {name} {name}: only a meld can be marked concealed")
            self._concealed.add(name)
        elif mmj.UNKNOWN in here:
            here[here.index(mmj.UNKNOWN)] = tile  # a reveal
        elif tile not in here:
            raise PlaceError(f"move {tile} {name} {name}: nothing hidden to reveal and no {tile} at {name}")
        # else: a reveal of a tile this player already sees (its own hand at a win): nothing to do

    # -- reading --------------------------------------------------------------------------------

    def concealed(self, meld: Place | str) -> bool:
        """Was ``meld`` marked a concealed kong (``move ? mXN mXN``)?"""
        return str(_place(meld)) in self._concealed

    def count(self, place: Place | str) -> int:
        return len(self._tiles.get(str(_place(place)), ()))

    def counts(self) -> dict[str, int]:
        """Tiles per non-empty place."""
        return {name: len(self._tiles[name]) for name in self}

    @property
    def total(self) -> int:
        """All tiles on the table: 136 whatever moved, if the moves are consistent."""
        return sum(map(len, self._tiles.values()))

    @property
    def wall_left(self) -> int:
        """Tiles left to draw: those at ``w…`` (the doc keeps the dead wall elsewhere)."""
        return sum(len(t) for name, t in self._tiles.items() if name[0] == "w")

    def melds(self, player: int) -> list[str]:
        """The player's non-empty meld places, in meld order."""
        return [f"m{player}{n}" for n in range(mmj.MELDS) if f"m{player}{n}" in self._tiles]

    def snapshot(self) -> dict[str, list[str]]:
        """Non-empty places as tile strings: hands, deck and flowers sorted, the rest in order."""
        out: dict[str, list[str]] = {}
        for name in self:
            tiles = self._tiles[name]
            if name[0] in _UNORDERED:
                tiles = sorted(tiles, key=tile_key)
            out[name] = [t.code for t in tiles]
        return out


def _codes(tiles: Iterable[Tile]) -> str:
    return " ".join(t.code for t in tiles) or "-"


# -- the terminal --------------------------------------------------------------------------------


@dataclass
class MeldInfo:
    """How one of the player's melds was made, from the moves into it: ``source`` the discarder
    (``None`` for a kan from the hand), ``called`` the tile taken, ``added`` a kakan's tile."""

    source: int | None
    called: Tile | None = None
    added: Tile | None = None


@dataclass(frozen=True)
class Offer:
    """What a ``claim`` is about: ``player``'s discard, or the tile of ``player``'s kan (robbing)."""

    player: int
    tile: Tile
    kind: Literal["discard", "kan"]


class Terminal:
    """One player's mmj terminal: ``feed`` each server message; in bot mode it returns the answer
    to each question (``[]`` otherwise). ``greedy`` makes the bot also riichi, kan and call."""

    def __init__(self, *, bot: bool = False, greedy: bool = False, seed: int = 0) -> None:
        self.bot = bot
        self.greedy = greedy
        self.rng = random.Random(seed)
        self.rule: dict[str, Any] = make_rule()  # Majiang's defaults: the table's preset is not on the wire
        self.places = Places()
        self.logged_in = False
        self.you: int | None = None
        self.names: tuple[str, ...] = tuple(f"player{i}" for i in range(1, PLAYERS + 1))
        self.hand_wind: str | None = None
        self.winds: tuple[str, ...] = ()
        self.dice: tuple[int, int] | None = None
        self.hands = 0  # newhands seen
        self.wins: list[Win] = []
        self.draws = 0
        self.rejects: list[str] = []
        self.chats: list[tuple[int, str]] = []
        self.question: str | None = None  # "play", "claim", "ack": the one open
        self.refused: list[ClientMessage] = []  # answers refused for the open question
        self.last_answer: ClientMessage | None = None
        self.last_message: ServerMessage | None = None
        self._after_reject = False
        self._new_hand()

    def _new_hand(self) -> None:
        self.places.reset()
        self.riichi: set[int] = set()
        self.last_discard: tuple[int, Tile] | None = None
        self.offer: Offer | None = None
        self.drawn: Tile | None = None  # own tile just drawn (the tsumogiri fallback)
        self.rinshan = False  # the drawn tile is a replacement tile (a kan's)
        self.melds: dict[str, MeldInfo] = {}
        self.kans = 0
        self._just_called: str | None = None  # own meld just called: its kuikae applies
        self._riichi_next = False
        self._last_dst: str | None = None

    # -- feeding --------------------------------------------------------------------------------

    def feed(self, message: ServerMessage) -> list[ClientMessage]:
        """Take one server message; return what to send (bot mode answers questions)."""
        self.last_message = message
        if isinstance(message, Reject):
            self.rejects.append(message.explanation.decode("utf-8", "replace"))
            if self.last_answer is not None and self.question is not None:
                self.refused.append(self.last_answer)
            self.last_answer = None
            self._after_reject = True
            return []
        if isinstance(message, ChatFrom):
            self.chats.append((message.src, message.text.decode("utf-8", "replace")))
            return []
        kind = QUESTIONS.get(type(message))
        if kind is not None:
            # The same question right after its reject is the re-ask: keep what was refused.
            if not (self._after_reject and kind == self.question):
                self.refused = []
            self._after_reject = False
            self.question = kind
            self.last_answer = None
            if not self.bot:
                return []
            answer = self.answer()
            if answer is None:
                return []
            self.sent(answer)
            return [answer]
        # The game went on: the open question, and what was refused for it, are over.
        self._after_reject = False
        self.question = None
        self.refused = []
        self._update(message)
        return []

    def sent(self, message: ClientMessage) -> None:
        """Record an answer sent (the bot's, or one typed), so a reject can refuse it."""
        self.last_answer = message

    def _update(self, message: ServerMessage) -> None:
        if isinstance(message, ServerHello):
            self.logged_in = True
        elif isinstance(message, Game):
            self.you = message.you
            self.names = tuple(n.decode("utf-8", "replace") for n in message.names)
        elif isinstance(message, NewHand):
            self._new_hand()
            self.hands += 1
            self.hand_wind = message.hand_wind
            self.winds = message.seat_winds
        elif isinstance(message, Break):
            self.dice = (message.die1, message.die2)
        elif isinstance(message, Move):
            self._move(message)
        elif isinstance(message, RiichiDeclared):
            self._riichi_next = True
        elif isinstance(message, Win):
            self.wins.append(message)
        elif isinstance(message, Draw):
            self.draws += 1

    def _move(self, m: Move) -> None:
        self.places.move(m.tile, m.src, m.dst)
        src, dst, tile = m.src, m.dst, m.tile
        name = str(dst)
        consecutive = self._last_dst == name
        self._last_dst = name
        if src == dst:
            return
        if src.kind == "r" and dst.kind == "h":
            self.kans += 1  # every kan, and only a kan, is followed by a replacement draw
        draw = src.kind == "r" or (src.kind == "w" and (src.number or 0) >= DEAL)  # not the deal
        if dst.kind == "h" and dst.player == self.you and draw:
            self.drawn, self.rinshan, self._just_called = tile, src.kind == "r", None
        elif src.kind == "h" and dst.kind == "d":
            assert src.player is not None
            self.last_discard = (src.player, tile)
            self.offer = Offer(src.player, tile, "discard")
            if self._riichi_next:
                self.riichi.add(src.player)
                self._riichi_next = False
            if src.player == self.you:
                self.drawn, self.rinshan, self._just_called = None, False, None
        elif src.kind == "d" and dst.kind == "m":
            # A call: the discard leaves the river for the caller's meld.
            self.melds[name] = MeldInfo(source=src.player, called=tile)
            self.offer = None
            if dst.player == self.you:
                self.drawn, self._just_called = None, name
        elif src.kind == "h" and dst.kind == "m":
            info = self.melds.get(name)
            if consecutive and info is not None:
                if info.source is None:
                    self._kan_offer(dst)  # a concealed kan's next tile
                return  # the hand's tiles of a call, or of a concealed kan
            assert dst.player is not None
            if info is None:
                self.melds[name] = MeldInfo(source=None)  # a concealed kan starts
            else:
                info.added = tile  # an added kan on a pon
            self._kan_offer(dst)

    def _kan_offer(self, meld: Place) -> None:
        # What a rob (chankan, or kokushi on a concealed kan) would take: a shown tile of the meld.
        assert meld.player is not None
        shown = [t for t in self.places[str(meld)] if not t.hidden]
        self.offer = Offer(meld.player, shown[0], "kan") if shown else None

    # -- the bot --------------------------------------------------------------------------------

    def answer(self) -> ClientMessage | None:
        """The bot's answer to the open question, not one refused for it; ``None`` when there is
        no question or every answer was refused (then it waits rather than loop)."""
        if self.question == "ack":
            return None if Ack() in self.refused else Ack()
        try:
            if self.question == "play":
                return self._answer_play()
            if self.question == "claim":
                return self._answer_claim()
        except (ValueError, KeyError, IndexError):
            # A picture that does not fit (a missed message): answer the plainest thing.
            return self._plain_fallback()
        return None

    def _plain_fallback(self) -> ClientMessage | None:
        if self.question == "claim":
            return None if Pass() in self.refused else Pass()
        return self._last_resort_discard()

    def _answer_play(self) -> ClientMessage | None:
        sp = self.shoupai()
        refused = set(self.refused)
        for candidate in self._play_moves(sp):
            if candidate not in refused:
                return candidate
        # riichi T refused: discard T after all (the server's reason is riichi's, not the tile's).
        for r in self.refused:
            if isinstance(r, Riichi) and Discard(r.tile) not in refused:
                return Discard(r.tile)
        discard = self._choose_discard(sp, {r.tile for r in self.refused if isinstance(r, Discard)})
        if discard is not None:
            return Discard(discard)
        return self._last_resort_discard()

    def _play_moves(self, sp: Shoupai) -> list[ClientMessage]:
        """Out, and in greedy mode the kans and the riichi worth trying, best first."""
        moves: list[ClientMessage] = []
        if self._wins(sp, None):
            moves.append(Out())
        if not self.greedy:
            return moves
        zimo = sp.zimo_pai
        if zimo is not None and len(zimo) <= 2:  # not right after a call
            for m in sp.get_gang_mianzi() or []:
                tile = mmj.majiang_to_mmj(m[:2].replace("0", "5"))
                if re.fullmatch(r"[mpsz][0-9]{4}", m):
                    moves.append(Ckong(tile))
                elif not sp.lizhi:
                    moves.append(Pkong(tile))
        wall_ok = self.rule["ツモ番なしリーチあり"] or self.places.wall_left >= 4  # a draw left to win on
        if (not any(isinstance(r, Riichi) for r in self.refused) and not sp.lizhi and sp.menqian and wall_ok
                and zimo is not None and len(zimo) <= 2 and xiangting(sp) == 0):
            tile = self._riichi_tile(sp)
            if tile is not None:
                moves.append(Riichi(tile))
        return moves

    def _riichi_tile(self, sp: Shoupai) -> Tile | None:
        options = []
        for p in sp.get_dapai(False) or []:
            after = sp.clone().dapai(p)
            if xiangting(after) == 0:
                options.append(p)
        if not options:
            return None
        legal = [{"type": "dapai", "params": [p + "*"], "lizhi": True} for p in options]
        kind, params = house.choose(self.view(sp), legal, self.rng)
        return mmj.majiang_to_mmj(params[0][:2]) if kind == "dapai" and params else None

    def _choose_discard(self, sp: Shoupai, refused: set[Tile]) -> Tile | None:
        # Majiang's strictest kuikae (level 0) first: it spares most rejects; the server may allow more.
        options = sp.get_dapai(True) or sp.get_dapai(False) or []
        options = [p for p in options if mmj.majiang_to_mmj(p[:2]) not in refused]
        if not options:
            return None
        legal = [{"type": "dapai", "params": [p]} for p in options]
        kind, params = house.choose(self.view(sp), legal, self.rng)
        if kind == "dapai" and params:
            return mmj.majiang_to_mmj(params[0][:2])
        return mmj.majiang_to_mmj(options[-1][:2])

    def _last_resort_discard(self) -> ClientMessage | None:
        """The tile just drawn, else any tile of the hand not refused yet, else nothing."""
        refused = set(self.refused)
        hand = sorted((t for t in self._hand() if not t.hidden), key=tile_key)
        for tile in ([self.drawn] if self.drawn is not None else []) + hand:
            if Discard(tile) not in refused:
                return Discard(tile)
        return None

    def _answer_claim(self) -> ClientMessage | None:
        refused = set(self.refused)
        for candidate in self._claims():
            if candidate not in refused:
                return candidate
        return None

    def _claims(self) -> list[ClientMessage]:
        """Ron when the tile wins, then (greedy, on a discard) kan, pon, chi; pass last."""
        offer = self.offer
        out: list[ClientMessage] = []
        if offer is None or self.you is None or offer.player == self.you or offer.tile.hidden:
            return [Pass()]
        sp = self.shoupai()
        mark = _MARKS[(4 + offer.player - self.you) % 4]
        ron_tile = mmj.mmj_to_majiang(offer.tile) + mark
        if self._wins(sp, ron_tile, robbing=offer.kind == "kan"):
            out.append(Ron())
        if self.greedy and offer.kind == "discard" and self.you not in self.riichi:
            out += self._calls(sp, offer)
        out.append(Pass())
        return out

    def _calls(self, sp: Shoupai, offer: Offer) -> list[ClientMessage]:
        t = offer.tile
        held = Counter(mmj.mmj_to_majiang(x) for x in self._hand() if not x.hidden)
        p = mmj.mmj_to_majiang(t)
        calls: list[ClientMessage] = []
        if held[p] >= 3:
            calls.append(Claim((t, t, t)))
        if held[p] >= 2:
            calls.append(Claim((t, t, mmj.UNKNOWN)))
        # A chi only from the player on the left: IDs go round in play order.
        if offer.player % PLAYERS + 1 == self.you and p[0] in "mps":
            s, n = p[0], int(p[1])
            chis = []
            for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
                if 1 <= a and b <= 9 and held[f"{s}{a}"] and held[f"{s}{b}"]:
                    after = sp.clone()
                    after.decrease(s, a)
                    after.decrease(s, b)
                    chis.append((xiangting(after), a, b))
            for _, a, b in sorted(chis):  # the chi that leaves the hand closest to tenpai first
                calls.append(Claim((mmj.majiang_to_mmj(f"{s}{a}"), mmj.majiang_to_mmj(f"{s}{b}"), mmj.UNKNOWN)))
        return calls

    def _wins(self, sp: Shoupai, ron: str | None, *, robbing: bool = False) -> bool:
        """Does the hand win (on ``ron``, a Majiang tile with its mark, or by tsumo) with a yaku
        the terminal can see? Dora are not yaku; red fives are unknown and change no yaku."""
        zimo = sp.zimo_pai
        if ron is None and (zimo is None or len(zimo) > 2):
            return False  # no tsumo without a drawn tile (right after a call there is none)
        whole = sp.clone()
        if ron is not None:
            whole.zimo(ron[:2], check=False)
        if xiangting(whole) != -1:
            return False
        me = self.you or 1
        param = hule_param(
            rule=self.rule,
            zhuangfeng=_wind_index(self.hand_wind),
            menfeng=_wind_index(self.winds[me - 1] if len(self.winds) == PLAYERS else None),
            lizhi=1 if sp.lizhi else 0,
            qianggang=robbing,
            lingshang=ron is None and self.rinshan,
            haidi=(1 if ron is None else 2) if self.places.wall_left == 0 else 0,
            baopai=self._indicators(),
        )
        result = hule(sp, ron, param)
        return bool(result and result.get("hupai"))

    # -- the hand as Majiang sees it ------------------------------------------------------------

    def _hand(self) -> list[Tile]:
        return self.places[f"h{self.you}"] if self.you is not None else []

    def _indicators(self) -> list[str]:
        shown = [self.places[f"a{n}"] for n in range(0, mmj.DORA_TILES, 2)]
        return [mmj.mmj_to_majiang(t[0]) for t in shown if t and not t[0].hidden]

    def meld_string(self, meld: str) -> str | None:
        """One of the own melds in Majiang's notation (``m1-23``, ``z666=``, ``p5555``,
        ``s555+5``); ``None`` if its tiles are not all shown."""
        tiles = self.places[meld]
        if not tiles or any(t.hidden for t in tiles) or self.you is None:
            return None
        codes = [mmj.mmj_to_majiang(t) for t in tiles]
        s, digits = codes[0][0], [c[1] for c in codes]
        info = self.melds.get(meld, MeldInfo(source=None))
        if info.source is None or self.places.concealed(meld):
            return s + "".join(digits[:4]) if len(digits) >= 4 else None
        mark = _MARKS[(4 + info.source - self.you) % 4]
        if mark == "_":
            return None
        called = mmj.mmj_to_majiang(info.called)[1] if info.called is not None else digits[0]
        rest = list(digits)
        rest.remove(called)
        if len(digits) == 4:
            if info.added is not None:
                return f"{s}{called * 3}{mark}{called}"
            return f"{s}{called * 4}{mark}"
        if len(set(digits)) == 1:
            return f"{s}{called * 3}{mark}"
        return Shoupai.valid_mianzi(s + "".join(rest) + called + "-")

    def shoupai(self) -> Shoupai:
        """The own hand for the engine: concealed tiles, melds, the drawn tile or the call just
        made (so that a hand of 14 can discard), riichi."""
        hand = [mmj.mmj_to_majiang(t) or "_" for t in self._hand()]
        sp = Shoupai(hand)
        for meld in self.places.melds(self.you) if self.you is not None else []:
            m = self.meld_string(meld)
            if m is not None:
                sp._fulou.append(m)
        size = len(hand) + 3 * len(sp._fulou)
        if self.question == "play" or size == 14:
            if self.drawn is not None and not self.drawn.hidden:
                sp._zimo = mmj.mmj_to_majiang(self.drawn)
            elif self._just_called is not None and self.meld_string(self._just_called):
                sp._zimo = self.meld_string(self._just_called)
            elif hand:
                sp._zimo = hand[-1]
        sp._lizhi = self.you in self.riichi
        return sp

    def view(self, sp: Shoupai | None = None) -> dict[str, Any]:
        """The platform view fields ``bot.choose`` reads, from the places alone."""
        sp = sp if sp is not None else self.shoupai()
        me = (self.you or 1) - 1
        seats = []
        for i in range(PLAYERS):
            player = i + 1
            river = [mmj.mmj_to_majiang(t) for t in self.places[f"d{player}"] if not t.hidden]
            if player == self.you:
                fulou = list(sp._fulou)
            else:
                # Only the digits count for what is visible: a meld's shown tiles, suit first.
                fulou = []
                for meld in self.places.melds(player):
                    shown = [mmj.mmj_to_majiang(t) for t in self.places[meld] if not t.hidden]
                    if shown:
                        fulou.append(shown[0][0] + "".join(p[1] for p in shown))
            seats.append({
                "seat": i,
                "menfeng": _wind_index(self.winds[i] if len(self.winds) == PLAYERS else None),
                "fulou": fulou,
                "he": river,
                "lizhi": player in self.riichi,
            })
        return {
            "rule": self.rule,
            "zhuangfeng": _wind_index(self.hand_wind),
            "seats": seats,
            "baopai": self._indicators(),
            "paishu": self.places.wall_left,
            "me": {"seat": me, "menfeng": seats[me]["menfeng"], "shoupai": sp.to_string()},
        }

    # -- showing --------------------------------------------------------------------------------

    def render(self) -> str:
        """A compact text picture of the table."""
        lines = []
        head = f"hand {WIND_NAMES.get(self.hand_wind or '', '-')}"
        head += f" | wall {self.places.wall_left} | dora {_codes(t for t in self._indicator_tiles())}"
        if self.you is not None:
            head += f" | you are {self.you} ({self.names[self.you - 1]})"
        lines.append(head)
        width = max(len(n) for n in self.names)
        for i in range(PLAYERS):
            player = i + 1
            wind = self.winds[i] if len(self.winds) == PLAYERS else "-"
            flags = ("*" if player == self.you else " ") + ("R" if player in self.riichi else " ")
            hand = self.places[f"h{player}"]
            if player == self.you or (hand and not all(t.hidden for t in hand)):
                shown = self._hand_text(hand, mine=player == self.you)
            else:
                shown = f"[{len(hand)}]"
            melds = " ".join(self._meld_text(m) for m in self.places.melds(player))
            lines.append(f"{flags}{player} {self.names[i]:<{width}} {wind.upper()}  {shown}"
                         + (f"  melds {melds}" if melds else ""))
            lines.append(f"{'':>{width + 7}}river {_codes(self.places[f'd{player}'])}")
        tail = []
        if self.last_discard is not None:
            tail.append(f"last discard {self.last_discard[1]} by {self.last_discard[0]}")
        if self.question is not None:
            tail.append(f"question: {self.question}")
        if self.refused:
            tail.append("refused: " + ", ".join(_text(m) for m in self.refused))
        if tail:
            lines.append(" | ".join(tail))
        return "\n".join(lines)

    def _indicator_tiles(self) -> list[Tile]:
        return [t for n in range(0, mmj.DORA_TILES, 2) for t in self.places[f"a{n}"] if not t.hidden]

    def _hand_text(self, hand: list[Tile], *, mine: bool) -> str:
        tiles = sorted(hand, key=tile_key)
        drawn = self.drawn if mine and self.question == "play" and self.drawn in tiles else None
        if drawn is not None:
            tiles.remove(drawn)
            return f"{_codes(tiles)} + {drawn}"
        return _codes(tiles)

    def _meld_text(self, meld: str) -> str:
        text = "".join(t.code for t in self.places[meld])
        return f"[{text}]" if not self.places.concealed(meld) else f"({text})"

    def describe(self, message: ServerMessage) -> str | None:
        """One line for a person about a message worth telling (``None`` for the others)."""
        if isinstance(message, Reject):
            return "reject: " + message.explanation.decode("utf-8", "replace")
        if isinstance(message, Game):
            names = ", ".join(f"{i + 1} {n}" for i, n in enumerate(self.names))
            return f"game: you are player {message.you}; players {names}"
        if isinstance(message, NewHand):
            winds = " ".join(f"{i + 1}{w}" for i, w in enumerate(message.seat_winds))
            return f"new hand: {WIND_NAMES[message.hand_wind]} round, winds {winds}"
        if isinstance(message, Win):
            lines = ", ".join(f"{line.what.decode('utf-8', 'replace')} {line.points}" for line in message.scoring)
            return f"win: player {message.winner} ({self.names[message.winner - 1]}): {lines}; total {message.total}"
        if isinstance(message, Draw):
            return "draw"
        if isinstance(message, ChatFrom):
            return f"chat from {message.src}: {message.text.decode('utf-8', 'replace')}"
        return None


def _wind_index(wind: str | None) -> int:
    return mmj.WINDS.index(wind) if wind in mmj.WINDS else 0


def _text(message: ClientMessage) -> str:
    return mmj.encode(message).decode("utf-8", "replace").strip()


# -- typed commands --------------------------------------------------------------------------------


class TypedError(ValueError):
    """A line typed at the interactive terminal that is no command."""


@dataclass(frozen=True)
class Typed:
    """A typed line: ``kind`` is ``send`` (``messages`` to send), ``show``, ``hint``, ``help``,
    ``quit`` or ``empty``."""

    kind: Literal["send", "show", "hint", "help", "quit", "empty"]
    messages: tuple[ClientMessage, ...] = ()


HELP = """commands (mmj syntax, case ignored):
  discard T | riichi T | out | ckong T | pkong T          on play
  claim T T ? (chi, pon) | claim T T T (kan) | ron | pass  on claim
  ack                                                      after a hand
  chat 234 . 5:hello   (or: chat 234 . hello)              to players 2, 3, 4
  show (the table), hint (what the bot would answer), help, quit
tiles: c1..c9 d1..d9 b1..b9, we ws ww wn, dw dg dr"""
_WORDS = {"show": "show", "hint": "hint", "help": "help", "?": "help", "quit": "quit", "exit": "quit"}
_PLAIN_CHAT = re.compile(r"\s*chat\s*([1-4\s]+)\.\s?(.*)\Z", re.IGNORECASE | re.DOTALL)
_COUNTED = re.compile(r"[0-9]{1,8}:")


def parse_command(text: str) -> Typed:
    """What a person typed: client messages in mmj syntax (read with the codec, as the server
    reads them), or one of the words ``show``, ``hint``, ``help``, ``quit``."""
    line = text.strip()
    if not line:
        return Typed("empty")
    word = _WORDS.get(line.lower())
    if word is not None:
        return Typed(word)  # type: ignore[arg-type]
    chat = _PLAIN_CHAT.match(line)
    if chat and not _COUNTED.match(chat.group(2)):
        # A person should not have to count octets: "chat 23 . hello there" is sent counted.
        dests = tuple(int(c) for c in chat.group(1) if c.isdigit())
        try:
            return Typed("send", (mmj.ChatTo(dests, chat.group(2).encode("utf-8")),))
        except mmj.MmjError as error:
            raise TypedError(error.reason) from None
    reader = mmj.Reader("server")
    try:
        messages = reader.feed(line.encode("utf-8"))
        reader.eof()
    except mmj.MmjError as error:
        if error.code == mmj.TRUNCATED:
            raise TypedError(f"incomplete: {line!r}") from None
        raise TypedError(error.reason) from None
    if any(isinstance(m, ClientHello) for m in messages):
        raise TypedError("the client logs in by itself: mmj1c is not typed")
    return Typed("send", tuple(messages))  # type: ignore[arg-type]
