"""One seat's mmj view of a riichi game (docs/protocols/mmj.md): pure, no Django.

``MmjSeat`` is fed the seat's seed 001 frames (the ones ``/ws/majiang/`` sends, already masked
for that seat, so mmj can never show more than they do) and returns the mmj server messages:
the 19 places' moves as that player sees them. ``question`` says what a frame asks the seat
(``play``, ``claim``, ``ack``, or nothing, when the link answers by itself) and ``reply`` turns
the terminal's operation into the seed 001 reply, or refuses it with a reason for ``reject``.
Every decision of the mapping is in the doc; the comments here say why where it is not obvious.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.riichi.protocols import mmj
from games.riichi.protocols.ump import meld, suited

SEATS = 4
LIVE_WALL = 122  # w000..w121: 136 tiles less the dead wall's 14
REPLACEMENTS = 4  # r00..r03: riichi's rinshan tiles
DORA_PLACES = 10  # a0..a9
DEAL_ROUNDS = (4, 4, 4, 1)
DEALT = 13 * SEATS
YAKUMAN_HAN = 13


class Refused(Exception):
    """An operation the server rejects (``reject C:EXPL``); nothing changes."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def kind(p: str) -> str:
    """A tile's face without red-ness: ``m0`` -> ``m5``."""
    return p[0] + ("5" if p[1] == "0" else p[1])


def shown(p: str) -> mmj.Tile:
    return mmj.majiang_to_mmj(p) if p else mmj.UNKNOWN


def _player_name(name: str) -> bytes:
    # game's names are at most 64 octets: cut at a character boundary.
    data = name.encode("utf-8")
    return data[:mmj.GAME_NAME_MAX].decode("utf-8", "ignore").encode("utf-8")


def dice(game_id: int, zhuangfeng: int, jushu: int, changbang: int) -> tuple[int, int]:
    """``break``'s two rolls: Majiang has no dice, and every place is numbered in draw order
    already, so they only have to be the same for every seat and say nothing of the tiles."""
    digest = hashlib.sha256(f"mmj/{game_id}/{zhuangfeng}/{jushu}/{changbang}".encode()).digest()
    return digest[0] % 6 + 1, digest[1] % 6 + 1


class MmjSeat:
    """The mmj messages for one seat, hand by hand. ``game_id`` seeds ``break``; ``names``: the
    players in platform seat order (kaiju's ``player``), overriding the frame's."""

    def __init__(self, game_id: int = 0, names: Sequence[str] | None = None) -> None:
        self.game_id = game_id
        self.names = list(names) if names is not None else None
        self.seat: int | None = None
        self.qijia = 0
        self.jushu = 0
        self.menfeng: int | None = None
        self.players: tuple[str, ...] = ()  # usernames by player ID - 1, once kaiju is seen
        self._hand_reset()

    def _hand_reset(self) -> None:
        self.next_wall = DEALT
        self.kans = 0  # replacement draws so far in this hand
        self.doras = 0  # dora indicators turned
        self.melds: list[list[str]] = [[] for _ in range(SEATS)]  # per player 1..4: each meld's kind
        self.last_discard: tuple[int, str] | None = None  # (player, Majiang tile)

    # -- players ----------------------------------------------------------------------------------

    def player(self, l: int) -> int:
        """The mmj player ID of ``l`` (a place from the hand's dealer): from the first dealer, 1..4."""
        return (l + self.jushu) % SEATS + 1

    @property
    def you(self) -> int:
        assert self.seat is not None
        return (self.seat - self.qijia) % SEATS + 1

    # -- frames to messages -----------------------------------------------------------------------

    def messages(self, frames: Iterable[Mapping[str, Any]]) -> list[mmj.ServerMessage]:
        out: list[mmj.ServerMessage] = []
        for frame in frames:
            handler = getattr(self, f"_on_{frame['type']}", None)
            if handler is not None:
                out += handler(frame.get("data") or {})
        return out

    def _on_kaiju(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        self.seat, self.qijia = data["id"], data.get("qijia", 0)
        names = self.names or list(data.get("player") or [f"player{s + 1}" for s in range(SEATS)])
        self.players = tuple(names[(self.qijia + i) % SEATS] for i in range(SEATS))
        ordered = tuple(_player_name(name) for name in self.players)
        return [mmj.Game(self.you, ordered)]  # type: ignore[arg-type]

    def _on_qipai(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        self._hand_reset()
        self.jushu = data["jushu"]
        assert self.seat is not None
        self.menfeng = (self.seat - self.qijia - self.jushu) % SEATS
        winds = tuple(mmj.WINDS[(i - self.jushu) % SEATS] for i in range(SEATS))
        out: list[mmj.ServerMessage] = [
            mmj.NewHand(mmj.WINDS[data["zhuangfeng"] % SEATS], winds),  # type: ignore[arg-type]
            mmj.Break(*dice(self.game_id, data["zhuangfeng"], self.jushu, data["changbang"])),
        ]
        deck = mmj.Place.deck()
        out += [mmj.Move(mmj.UNKNOWN, deck, mmj.Place.wall(n)) for n in range(LIVE_WALL)]
        out += [mmj.Move(mmj.UNKNOWN, deck, mmj.Place.replacement(n)) for n in range(REPLACEMENTS)]
        out += [mmj.Move(mmj.UNKNOWN, deck, mmj.Place.dora(n)) for n in range(DORA_PLACES)]
        hands = [suited(h) if h else [""] * 13 for h in data["shoupai"]]
        position = 0
        for count in DEAL_ROUNDS:
            for l in range(SEATS):
                to = mmj.Place.hand(self.player(l))
                for _ in range(count):
                    p = hands[l].pop(0)
                    out.append(mmj.Move(shown(p), mmj.Place.wall(position), to))
                    position += 1
        return out + self._on_kaigang(data)

    def _on_kaigang(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        place = mmj.Place.dora(2 * self.doras)
        self.doras += 1
        return [mmj.Move(shown(data["baopai"]), place, place)]

    def _on_zimo(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        place = mmj.Place.wall(self.next_wall)
        self.next_wall += 1
        return [self._draw(data, place)]

    def _on_gangzimo(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        k = self.kans
        self.kans += 1
        # Majiang keeps the dead wall at 14 tiles: the live wall's last tile joins it.
        moved = mmj.Move(mmj.UNKNOWN, mmj.Place.wall(LIVE_WALL - 1 - k), mmj.Place.replacement(REPLACEMENTS + k))
        return [self._draw(data, mmj.Place.replacement(k)), moved]

    def _draw(self, data: Mapping[str, Any], src: mmj.Place) -> mmj.Move:
        p = data.get("p") or ""
        return mmj.Move(shown(p[:2]), src, mmj.Place.hand(self.player(data["l"])))

    def _on_dapai(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        who, p = self.player(data["l"]), data["p"]
        self.last_discard = (who, p[:2])
        out: list[mmj.ServerMessage] = [mmj.RiichiDeclared()] if p.endswith("*") else []
        return out + [mmj.Move(shown(p[:2]), mmj.Place.hand(who), mmj.Place.discards(who))]

    def _on_fulou(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        who, read = self.player(data["l"]), meld(data["m"])
        place = mmj.Place.meld(who, len(self.melds[who - 1]))
        self.melds[who - 1].append(kind(read.tiles[0]) if read.kind != "chi" else "chi")
        assert read.called is not None and self.last_discard is not None
        src = mmj.Place.discards(self.last_discard[0])
        rest = list(read.tiles)
        rest.remove(read.called)
        out: list[mmj.ServerMessage] = [mmj.Move(shown(read.called), src, place)]
        return out + [mmj.Move(shown(p), mmj.Place.hand(who), place) for p in rest]

    def _on_gang(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        who, read = self.player(data["l"]), meld(data["m"])
        hand = mmj.Place.hand(who)
        if read.added is not None:  # kakan: onto the pon of that tile
            number = self.melds[who - 1].index(kind(read.added))
            return [mmj.Move(shown(read.added), hand, mmj.Place.meld(who, number))]
        place = mmj.Place.meld(who, len(self.melds[who - 1]))
        self.melds[who - 1].append("ankan")
        if who == self.you:
            return [*(mmj.Move(shown(p), hand, place) for p in read.tiles), mmj.Move(mmj.UNKNOWN, place, place)]
        return [*(mmj.Move(shown(p), hand, place) for p in read.tiles[:2]),
                *(mmj.Move(mmj.UNKNOWN, hand, place) for _ in read.tiles[2:])]

    def _on_hule(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        who = self.player(data["l"])
        out: list[mmj.ServerMessage] = [mmj.Win(who, self.scoring(data), int(data.get("defen") or 0))]
        for i, p in enumerate(data.get("fubaopai") or []):
            place = mmj.Place.dora(2 * i + 1)
            out.append(mmj.Move(shown(p), place, place))
        concealed = data["shoupai"].split(",")[0]
        held = suited(concealed)
        if data.get("baojia") is not None and held:
            held.pop()  # Majiang writes a ron's tile last; it stays where it was taken from
        return out + self._reveal(who, held)

    def _on_pingju(self, data: Mapping[str, Any]) -> list[mmj.ServerMessage]:
        out: list[mmj.ServerMessage] = [mmj.Draw()]
        for l, hand in enumerate(data.get("shoupai") or []):
            if hand:
                out += self._reveal(self.player(l), suited(hand.split(",")[0]))
        return out

    def _reveal(self, who: int, held: list[str]) -> list[mmj.ServerMessage]:
        place = mmj.Place.hand(who)
        return [mmj.Move(shown(p), place, place) for p in held]

    @staticmethod
    def scoring(data: Mapping[str, Any]) -> tuple[mmj.ScoreLine, ...]:
        """A win's entries: each yaku (Majiang's name) with its han, a yakuman 13 per multiple;
        then ``fu`` with the hand's fu when it has any (a yakuman has none)."""
        lines = []
        for h in data.get("hupai") or []:
            fanshu = h["fanshu"]
            han = YAKUMAN_HAN * len(fanshu) if isinstance(fanshu, str) else int(fanshu)
            lines.append(mmj.ScoreLine(str(h["name"]).encode("utf-8"), han))
        if data.get("fu"):
            lines.append(mmj.ScoreLine(b"fu", int(data["fu"])))
        return tuple(lines)

    def chat_from(self, username: str, text: str) -> mmj.ChatFrom | None:
        """A table chat line as mmj's ``chat SRC OTHERDESTS . C:TEXT``: a table's chat is public,
        so it went to every other player. None for one's own line or a non-player's (mmj has no
        ID for a spectator)."""
        if username not in self.players or self.seat is None:
            return None
        src = self.players.index(username) + 1
        if src == self.you:
            return None
        others = tuple(p for p in range(1, SEATS + 1) if p != src and p != self.you)
        data = text.encode("utf-8")[:mmj.CHAT_MAX]
        return mmj.ChatFrom(src, others, data.decode("utf-8", "ignore").encode("utf-8"))

    # -- questions --------------------------------------------------------------------------------

    def question(self, frame: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> mmj.ServerMessage | None:
        """What ``frame`` (this seat's question frame) asks: ``Play``, ``ClaimOffer``,
        ``AckRequest``, or None when there is nothing to ask (``auto_reply`` answers)."""
        kind_, data = frame["type"], frame.get("data") or {}
        own = data.get("l") == self.menfeng
        if kind_ in ("zimo", "gangzimo", "fulou") and own:
            return mmj.Play()
        if kind_ == "dapai" and not own:
            return mmj.ClaimOffer()
        if kind_ == "gang" and not own and allowed_of(legal, "hule"):
            return mmj.ClaimOffer()
        if kind_ in ("hule", "pingju"):
            return mmj.AckRequest()
        return None

    @staticmethod
    def auto_reply(legal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The reply of a question the terminal is not asked: pass, or declare tenpai (``daopai``)
        where the rules let a hand hide it at an exhaustive draw (mmj cannot say it)."""
        return {"type": "daopai"} if allowed_of(legal, "daopai") else {"type": ""}

    # -- operations to replies --------------------------------------------------------------------

    def reply(self, op: mmj.ClientMessage, asked: mmj.ServerMessage | None,
              legal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The seed 001 reply (no ``seq``) for ``op`` answering ``asked`` with ``legal``;
        ``Refused`` with the reason otherwise."""
        if isinstance(op, mmj.Swap):
            raise Refused("riichi has no swaps")
        if isinstance(op, mmj.ClientHello):
            raise Refused("already logged in")
        if asked is None:
            raise Refused(f"{op.KEYWORD}: nothing is asked of you now")
        if isinstance(asked, mmj.AckRequest):
            if isinstance(op, mmj.Ack):
                return {"type": ""}
            raise Refused(f"{op.KEYWORD}: the hand is over; send ack")
        if isinstance(op, mmj.Ack):
            raise Refused("ack: nothing to acknowledge now")
        if isinstance(asked, mmj.Play):
            return self._play(op, legal)
        return self._claim(op, legal)

    def _play(self, op: mmj.ClientMessage, legal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        if isinstance(op, mmj.Discard | mmj.Riichi):
            riichi = isinstance(op, mmj.Riichi)
            p = self._dapai(op.tile, legal, riichi)
            return {"type": "dapai", "data": p}
        if isinstance(op, mmj.Out):
            if allowed_of(legal, "hule"):
                return {"type": "hule"}
            raise Refused("out: " + (refusal_of(legal, "hule") or "your hand is not complete"))
        if isinstance(op, mmj.Ckong | mmj.Pkong):
            concealed = isinstance(op, mmj.Ckong)
            face = _face(op.tile, op.KEYWORD)
            for m in params_of(legal, "gang"):
                read = meld(m)
                if (read.called is None) == concealed and kind(read.tiles[-1]) == face:
                    return {"type": "gang", "data": m}
            what = "four of it in your hand" if concealed else "a pung of it and the fourth tile"
            raise Refused(f"{op.KEYWORD} {op.tile}: no such kong now (it needs {what}, and not in every riichi)")
        raise Refused(f"{op.KEYWORD}: on play, discard, riichi, out, ckong or pkong")

    def _dapai(self, tile: mmj.Tile, legal: Sequence[Mapping[str, Any]], riichi: bool) -> str:
        face = _face(tile, "discard")
        params = set(params_of(legal, "dapai"))
        star = "*" if riichi else ""
        faces = [face, face[0] + "0"] if face[1] == "5" and face[0] != "z" else [face]
        # A plain five before a red one; the tile just drawn before one from the hand.
        for p in faces:
            for suffix in ("_", ""):
                if p + suffix + star in params:
                    return p + suffix + star
        if riichi:
            if any(x.endswith("*") for x in params):
                raise Refused(f"riichi {tile}: that discard does not keep the hand ready")
            raise Refused(f"riichi {tile}: riichi is not allowed now (a closed ready hand, 1000 points "
                          "and tiles left to draw)")
        raise Refused(f"discard {tile}: not a tile you may discard now (not in your hand, after riichi "
                      "only the drawn tile, or a swap-call discard)")

    def _claim(self, op: mmj.ClientMessage, legal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        if isinstance(op, mmj.Pass):
            return self.auto_reply(legal)
        if isinstance(op, mmj.Ron):
            if allowed_of(legal, "hule"):
                return {"type": "hule"}
            raise Refused("ron: " + (refusal_of(legal, "hule") or "that tile does not complete your hand"))
        if isinstance(op, mmj.Claim):
            return {"type": "fulou", "data": self._call(op, legal)}
        raise Refused(f"{op.KEYWORD}: on claim, claim, ron or pass")

    def _call(self, op: mmj.Claim, legal: Sequence[Mapping[str, Any]]) -> str:
        named = [_face(t, "claim") for t in op.tiles if not t.hidden]
        if len(named) not in (2, 3) or op.tiles[0].hidden or op.tiles[1].hidden:
            raise Refused("claim: two tiles from your hand and ?, or three for a kong")
        fits = []
        for m in params_of(legal, "fulou"):
            read = meld(m)
            assert read.called is not None
            rest = list(read.tiles)
            rest.remove(read.called)
            if Counter(kind(p) for p in rest) == Counter(named):
                fits.append((sum(p[1] == "0" for p in rest), m))
        if not fits:
            raise Refused(f"claim {' '.join(str(t) for t in op.tiles)}: no such call on this discard "
                          "(a chow only from the player before you; not in riichi)")
        return min(fits)[1]  # plain fives before a red one


def allowed_of(legal: Iterable[Mapping[str, Any]], type_: str) -> list[Mapping[str, Any]]:
    """The legal actions of ``type_`` the seat may take now (the mmj and mjai codecs read them)."""
    return [a for a in legal if a.get("type") == type_ and a.get("allowed", True)]


def params_of(legal: Iterable[Mapping[str, Any]], type_: str) -> list[str]:
    return [a["params"][0] for a in allowed_of(legal, type_) if a.get("params")]


def refusal_of(legal: Iterable[Mapping[str, Any]], type_: str) -> str | None:
    refused = [a for a in legal if a.get("type") == type_ and not a.get("allowed", True)]
    return refused[0].get("reason") if refused else None


def _face(tile: mmj.Tile, what: str) -> str:
    if tile.hidden:
        raise Refused(f"{what}: name the tile, not ?")
    try:
        return kind(mmj.mmj_to_majiang(tile))
    except mmj.MmjError:
        raise Refused(f"{what} {tile}: riichi has no such tile") from None
