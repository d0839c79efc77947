"""Seed 001, the Game↔Player protocol of Majiang (電脳麻将), as a codec. See docs/protocols/majiang.md.

Server frames are Majiang's messages as majiang-core's ``Majiang.Game`` sends them to one player,
``{"type": "zimo", "data": {"l": 0, "p": "m1"}}``, with ``seq`` added to a frame the player must
answer. ``SeatStream`` makes them from the platform's history messages for that seat (what
``Event.render`` gives through the game service: ``{"type": "zimo", "params": [{"l": 0, "p":
"m1"}], "player": 2}``). On top of the one-to-one translation it:

- puts the seat's own ``id`` and the players' names into ``kaiju``;
- masks what Majiang masks for that player even when the rendering it is given is revealed (a
  finished game's history is revealed to everyone; Majiang's messages never are): the other hands
  in ``qipai``, the other players' draws in ``zimo``/``gangzimo``. It only ever removes;
- sends ``kaigang`` before the record it follows in the paifu (``dapai``, ``gang`` or
  ``gangzimo``): Majiang's ``kaigang()`` notifies the players before the message it was called
  from goes out (seed 001 lists these orders), so the question is always the last frame;
- gives ``jieju`` the whole paifu, as Majiang's ``jieju()`` does, when the caller has it.

Client frames are seed 001's replies, ``{"type": "dapai", "data": "m1*", "seq": N}``.
``decode_reply`` checks one against the question it answers and turns it into the platform's action
(``games.riichi.engine.table.ACTIONS``), or raises ``ProtocolError``.

Nothing here touches the database or decides a rule: which frame needs an answer is the platform's
``to_act`` (the transport's business), whether an action is legal is the engine's.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SEATS = 4
# The largest seq a reply may name: a game's log position fits a PositiveIntegerField.
MAX_SEQ = 2**31 - 1
# Records Majiang's kaigang() follows in the paifu, and precedes on the wire.
_KAIGANG_AFTER = ("dapai", "gang", "gangzimo")
# The seed's reply types; "" is "nothing" (Majiang's {}).
REPLY_TYPES = ("dapai", "fulou", "gang", "hule", "pingju", "daopai", "")
# A discard as Majiang replies it: the tile, "_" for tsumogiri, "*" for riichi.
_DAPAI = re.compile(r"[mpsz][0-9]_?\*?\Z")
# A meld as Majiang writes one (m1-23, z111=, m5550+, m1111, s505+5); the engine decides whether it
# is a real one and legal now.
_MIANZI = re.compile(r"[mpsz][0-9+=\-]{3,8}\Z")


class ProtocolError(Exception):
    """A client frame this protocol refuses: nothing was done. ``code`` and ``reason`` go into
    the error frame."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Question:
    """A synchronous frame: what the seat was asked, and the ``seq`` its answer must carry."""

    type: str
    data: dict[str, Any]
    seq: int
    # The seat's own turn (its draw or call, its own last discard) rather than another's move.
    own: bool

    def frame(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "seq": self.seq}


@dataclass(frozen=True)
class Reply:
    """A decoded reply: the platform action it asks for, answering ``seq``."""

    seq: int
    action: str
    params: list[Any]


def frame(kind: str, data: Any, seq: int | None = None) -> dict[str, Any]:
    """A server frame; ``seq`` only on one the player must answer."""
    out: dict[str, Any] = {"type": kind, "data": data}
    if seq is not None:
        out["seq"] = seq
    return out


def error_frame(code: str, reason: str, seq: int | None) -> dict[str, Any]:
    """The answer to a refused frame: ``seq`` is the refused reply's, ``None`` if it had none."""
    return {"type": "error", "code": code, "reason": reason, "seq": seq}


class SeatStream:
    """One seat's frames for a game: fed the game's history messages in order (each batch
    continuing the last), it returns what Majiang's Game would have sent that player."""

    def __init__(self, seat: int, names: Sequence[str] | None = None) -> None:
        if not 0 <= seat < SEATS:
            raise ValueError("a seat is 0 to 3")
        self.seat = seat
        self.names = list(names) if names is not None else None
        self.qijia: int | None = None
        # The seat's place in the current hand, counted from its dealer (Majiang's menfeng).
        self.menfeng: int | None = None

    def frames(self, messages: Iterable[Mapping[str, Any]], paipu: Mapping[str, Any] | None = None,
               ) -> list[dict[str, Any]]:
        """The frames for ``messages`` (rendered for this seat, or revealed). ``paipu``: the whole
        paifu, for ``jieju`` (Majiang sends it there); without it ``jieju`` carries the platform's
        ``defen``, ``rank`` and ``point``, the part seed 001 documents."""
        out: list[dict[str, Any]] = []
        for message in messages:
            built = self._frame(message, paipu)
            if built["type"] == "kaigang" and out and out[-1]["type"] in _KAIGANG_AFTER:
                out.insert(len(out) - 1, built)
            else:
                out.append(built)
        return out

    def question(self, last: Mapping[str, Any], seq: int) -> Question:
        """The question ``last`` (a frame of this stream) asks this seat, answered by ``seq``."""
        data = dict(last["data"])
        kind = last["type"]
        own = kind in ("zimo", "gangzimo", "fulou") or (kind == "dapai" and data.get("l") == self.menfeng)
        return Question(kind, data, seq, own)

    def _frame(self, message: Mapping[str, Any], paipu: Mapping[str, Any] | None) -> dict[str, Any]:
        kind = message["type"]
        params = message.get("params") or [None]
        data = copy.deepcopy(params[0])
        if kind == "kaiju":
            self.qijia = data["qijia"]
            # Majiang's key order; ``id`` is this player's, whatever rendering was given.
            data = {"id": self.seat, "rule": data["rule"], "title": data["title"],
                    "player": self._names(data["player"]), "qijia": data["qijia"]}
        elif kind == "qipai":
            l = (self.seat - (self.qijia or 0) - data["jushu"]) % SEATS
            self.menfeng = l
            data["shoupai"] = [hand if i == l else "" for i, hand in enumerate(data["shoupai"])]
        elif kind in ("zimo", "gangzimo"):
            if data["l"] != self.menfeng:
                data["p"] = ""
        elif kind == "jieju" and paipu is not None:
            data = copy.deepcopy(dict(paipu))
            if "player" in data:
                data["player"] = self._names(data["player"])
        return frame(kind, data)

    def _names(self, engine_names: list[str]) -> list[str]:
        return list(self.names) if self.names is not None else list(engine_names)


def hand_start(messages: Sequence[Mapping[str, Any]]) -> int:
    """Where the last hand dealt begins in ``messages`` (its ``qipai``); ``len(messages)`` if none
    was dealt: what a player coming back is sent after ``kaiju``."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i]["type"] == "qipai":
            return i
    return len(messages)


def paipu(history: Sequence[Mapping[str, Any]], names: Sequence[str] | None = None) -> dict[str, Any]:
    """The whole paifu (Majiang's ``paipu``: ``title``, ``player``, ``qijia``, ``log``, ``defen``,
    ``point``, ``rank``) from a finished game's revealed history."""
    record: dict[str, Any] = {"title": "", "player": [], "qijia": 0, "log": [], "defen": [], "point": [],
                              "rank": []}
    for message in history:
        kind = message["type"]
        data = copy.deepcopy((message.get("params") or [None])[0])
        if kind == "kaiju":
            record.update(title=data["title"], player=list(names) if names is not None else data["player"],
                          qijia=data["qijia"])
        elif kind == "jieju":
            record.update(defen=data["defen"], point=data["point"], rank=data["rank"])
        elif kind == "qipai":
            record["log"].append([{kind: data}])
        elif record["log"]:
            record["log"][-1].append({kind: data})
    return record


# What each question may be answered with: the reply type and the platform action it becomes.
# Majiang answers 九種九牌 with ``daopai`` (majiang-core 1.4) and seed 001 with ``pingju``: both
# are taken on one's own draw.
_OWN_DRAW = {"dapai": "dapai", "gang": "gang", "hule": "hule", "pingju": "pingju", "daopai": "pingju", "": "pass"}
_OWN_CALL = {"dapai": "dapai", "": "pass"}
_OTHER_DISCARD = {"fulou": "fulou", "hule": "hule", "daopai": "daopai", "": "pass"}
_OWN_LAST_DISCARD = {"daopai": "daopai", "": "pass"}
_OTHER_KAKAN = {"hule": "hule", "": "pass"}
# Without a question to read it against (a reply naming another seq): the service refuses it by
# its seq in all but odd cases, and the engine checks whatever it lets through.
_ANY = {"dapai": "dapai", "fulou": "fulou", "gang": "gang", "hule": "hule", "pingju": "pingju",
        "daopai": "daopai", "": "pass"}


def _answers(question: Question) -> tuple[dict[str, str], str]:
    if question.type in ("zimo", "gangzimo"):
        return _OWN_DRAW, "your draw"
    if question.type == "fulou":
        return _OWN_CALL, "your call (discard)"
    if question.type == "dapai":
        return (_OWN_LAST_DISCARD, "your own last discard") if question.own else (_OTHER_DISCARD, "a discard")
    if question.type == "gang":
        return _OTHER_KAKAN, "an added kan (chankan)"
    return {"": "pass"}, question.type


def decode_reply(message: Mapping[str, Any], question: Question | None) -> Reply | None:
    """The platform action a client's reply asks for, read against ``question`` (the one this
    link is waiting on) when it answers that question's ``seq``. ``None``: an empty reply without a
    ``seq``, which answers nothing (a port of Majiang.Player answers every message, asynchronous
    ones included). Anything malformed raises ``ProtocolError``."""
    kind = message.get("type")
    if kind not in REPLY_TYPES:
        raise ProtocolError("UnknownMessageType", f"no message type {kind!r}")
    seq = message.get("seq")
    if seq is None:
        if kind == "":
            return None
        raise ProtocolError("MissingSeq", "a reply carries the seq of the frame it answers")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise ProtocolError("InvalidSeq", f"seq is the integer of the frame answered, 0 to {MAX_SEQ}")
    data = message.get("data")
    params: list[Any] = []
    if kind == "dapai":
        if not isinstance(data, str) or not _DAPAI.match(data):
            raise ProtocolError("InvalidData",
                                "dapai data is a tile: 'm1', 'm1_' (tsumogiri), 'm1*' or 'm1_*' (riichi)")
        params = [data]
    elif kind in ("fulou", "gang"):
        if not isinstance(data, str) or not _MIANZI.match(data):
            raise ProtocolError("InvalidData", f"{kind} data is a meld as Majiang writes it, e.g. 'm1-23', 'z111=', "
                                               "'m1111', 's505+5'")
        params = [data]
    # hule, pingju, daopai and "": data carries nothing (Majiang sends '-' or null); it is ignored.
    if question is None or question.seq != seq:
        return Reply(seq, _ANY[kind], params)
    answers, what = _answers(question)
    action = answers.get(kind)
    if action is None:
        allowed = ", ".join(repr(k) for k in answers)
        raise ProtocolError("UnexpectedReply", f"{what} ({question.type}) is answered with {allowed}, not {kind!r}")
    return Reply(seq, action, params)


# -- majiang-server's form ---------------------------------------------------------------------------
# majiang-server (kobalab's net server for Majiang, over socket.io) carries the same messages as
# majiang-core's objects: the type is the key, ``{"zimo": {"l": 0, "p": "m1"}, "seq": 13}``, and a
# reply is ``{"dapai": "m1", "seq": 13}`` or ``{"seq": 13}`` for nothing. These only change the
# form; every frame is still made by ``SeatStream`` and every reply read by ``decode_reply``.


def server_message(frame_: Mapping[str, Any], timer: Sequence[int] | None = None) -> dict[str, Any]:
    """A frame in majiang-server's form. ``timer`` (majiang-server's ``[limit, allowed]``: the
    seconds of the decision and of the bank left) goes only on a question, as ``seq`` does."""
    out: dict[str, Any] = {frame_["type"]: frame_["data"]}
    if "seq" in frame_:
        out["seq"] = frame_["seq"]
        if timer is not None:
            out["timer"] = list(timer)
    return out


def server_reply(reply: Any) -> dict[str, Any]:
    """A majiang-server reply (``{"dapai": "m1*", "seq": 45}``, ``{"seq": 8}``) as a frame for
    ``decode_reply``, which judges it (an unknown move's key is its ``UnknownMessageType``)."""
    if not isinstance(reply, dict):
        raise ProtocolError("InvalidMessageFormat", "a GAME reply is an object, e.g. {dapai: 'm1', seq: 45} or "
                                                    "{seq: 45} for nothing")
    moves = [key for key in reply if key != "seq"]
    if len(moves) > 1:
        raise ProtocolError("InvalidMessageFormat", f"a GAME reply names one move, not {len(moves)}")
    kind = moves[0] if moves else ""
    out: dict[str, Any] = {"type": kind, "data": reply[kind] if moves else None}
    if "seq" in reply:
        out["seq"] = reply["seq"]
    return out


def seat_log(history: Iterable[Mapping[str, Any]], seat: int, names: Sequence[str] | None = None,
             ) -> list[list[dict[str, Any]]]:
    """The paifu's ``log`` so far (one list of records per hand dealt, in the paifu's order) as
    ``seat`` may see it: masked as that seat's frames are (majiang-server's ``kaiju`` on a
    reconnection carries its whole unmasked paipu log; here nobody is shown a hand they could not
    see at the table)."""
    stream = SeatStream(seat, names)
    log: list[list[dict[str, Any]]] = []
    for message in history:
        # One message at a time: the paifu's order (kaigang after its record), not the wire's.
        (built,) = stream.frames([message])
        kind = built["type"]
        if kind == "qipai":
            log.append([{kind: built["data"]}])
        elif kind not in ("kaiju", "jieju") and log:
            log[-1].append({kind: built["data"]})
    return log
