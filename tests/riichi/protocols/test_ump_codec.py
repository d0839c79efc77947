"""The UMP codec (games/riichi/protocols/ump.py): seed-001 frames to seed 004's command lines,
questions from the legal list, and UMP replies back to seed-001 replies; unit cases, then whole
engine games seen by every seat."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.bots import house as bot
from games.riichi.engine.table import RiichiGame
from games.riichi.protocols import majiang, ump
from games.riichi.protocols.ump import Ask, UmpError, UmpStream, decode
from tests.riichi.transport.played import Chooser, kan_lover, play_through

# -- tiles, hands, players --------------------------------------------------------------------------


@pytest.mark.parametrize(("p", "t"), [("m5", "5m"), ("m0", "5M"), ("p0", "5P"), ("s0", "5S"), ("z7", "7z"),
                                      ("p1", "1p"), ("s9", "9s"), ("m5_", "5m"), ("m0_*", "5M"), ("z1=", "1z"),
                                      ("p3-", "3p"), ("s7+", "7s")])
def test_tiles_both_ways(p, t):
    assert ump.tile(p) == t
    assert ump.majiang_tile(t) == p[:2]


@pytest.mark.parametrize("t", ["0m", "0z", "8z", "5Z", "1M", "m5", "5", "5mm", "", "xx", "5x", "１m"])
def test_bad_ump_tiles(t):
    with pytest.raises(UmpError) as raised:
        ump.majiang_tile(t)
    assert raised.value.code == "BadTile"


def test_tile_lists():
    assert ump.tiles("5m5M6m") == ["m5", "m0", "m6"]
    assert ump.tiles("5m 5M 7z") == ["m5", "m0", "z7"]
    assert ump.tiles("") == []
    for bad in ("5m5", "5m0m", "5m8z"):
        with pytest.raises(UmpError):
            ump.tiles(bad)


@pytest.mark.parametrize(("shoupai", "expected"), [
    ("m123p406s789z11,m1-23,z111=,m5550", "1m2m3m4p5P6p7s8s9s1z1z<1m2m3m><1z1z1z>(5m5m5m5M)"),
    ("m55p1z77m0", "5m5m5M1p7z7z"),  # the drawn tile sorts into the hand
    ("p23s23405678p4*,m345-", "2p3p4p2s3s4s5S5s6s7s8s<3m4m5m>"),  # riichi flag dropped
    ("z1234567m19p19s19m1", "1m1m9m1p9p1s9s1z2z3z4z5z6z7z"),
    ("m2,s505=,p1-23,z555+5", "2m<5s5S5s><1p2p3p><5z5z5z5z>"),  # kakan shows as a kan
    ("m067-", "5M6m7m"),  # no comma: a concealed run read as tiles
])
def test_hands(shoupai, expected):
    assert ump.hand(shoupai) == expected


def test_players_count_from_the_first_dealer():
    assert [ump.player(i) for i in (0, 1, 2, 3, 25, 26, 27, 52)] == ["A0", "B0", "C0", "D0", "Z0", "A1", "B1", "A2"]
    with pytest.raises(ValueError):
        ump.player(-1)


@pytest.mark.parametrize(("indicator", "dora"), [("m1", "2m"), ("m4", "5m"), ("m0", "6m"), ("p9", "1p"),
                                                 ("s8", "9s"), ("z1", "2z"), ("z4", "1z"), ("z5", "6z"),
                                                 ("z6", "7z"), ("z7", "5z")])
def test_dora_is_the_next_tile(indicator, dora):
    assert ump.dora(indicator) == dora


@pytest.mark.parametrize(("defen", "dealer", "name"), [
    (3900, False, "3900"), (7700, False, "7700"), (8000, False, "満貫"), (11600, True, "11600"),
    (12000, True, "満貫"), (12000, False, "跳満"), (18000, True, "跳満"), (16000, False, "倍満"),
    (24000, False, "三倍満"), (32000, False, "役満"), (48000, True, "役満"), (64000, False, "ダブル役満"),
    (96000, False, "トリプル役満"), (128000, False, "4倍役満")])
def test_point_names(defen, dealer, name):
    assert ump.point_name(defen, dealer) == name


# -- the stream on made-up frames --------------------------------------------------------------------


def f(kind: str, **data: Any) -> dict[str, Any]:
    return {"type": kind, "data": data}


def started(seat: int = 2, qijia: int = 1, jushu: int = 1) -> tuple[UmpStream, list[str]]:
    """A stream for ``seat`` after kaiju and a deal of hand ``jushu``."""
    stream = UmpStream()
    hands = ["", "", "", ""]
    hands[(seat - qijia - jushu) % 4] = "m123p456s789z1122"
    lines = stream.lines([
        f("kaiju", id=seat, qijia=qijia, player=["a", "b", "c", "d"], rule={}, title=""),
        f("qipai", zhuangfeng=0, jushu=jushu, changbang=2, lizhibang=1, defen=[25000, 26000, 27000, 22000],
          baopai="m0", shoupai=hands),
    ])
    return stream, lines


def test_the_deal():
    # qijia 1, hand 2 (jushu 1): seat 2 (B0) deals; seat 2 sits at l = 0.
    stream, lines = started(seat=2, qijia=1, jushu=1)
    assert stream.me() == "B0" and stream.menfeng == 0
    assert lines == [
        "gamestart",
        "kyokustart 0 B0 2 1000 1z 4z 1z 2z 3z",
        # qipai's defen counts from the dealer (B0): A0 is l = 3.
        "point A0 =22000", "point B0 =25000", "point C0 =26000", "point D0 =27000",
        "haipai A0 " + "xx" * 13, "haipai B0 1m2m3m4p5p6p7s8s9s1z1z2z2z",
        "haipai C0 " + "xx" * 13, "haipai D0 " + "xx" * 13,
        "dora 6m 5M",
    ]
    assert stream.player_lines() == ["player A0 b", "player B0 c", "player C0 d", "player D0 a"]


def test_draws_discards_and_the_wall():
    stream, _ = started(seat=2, qijia=1, jushu=1)  # l 0 = B0, l 1 = C0
    assert stream.lines([f("zimo", l=0, p="m0"), f("dapai", l=0, p="m0_"), f("zimo", l=1, p=""),
                         f("dapai", l=1, p="z7")]) == [
        "tsumo B0 69 5M", "sutehai B0 5M tsumogiri", "tsumo C0 68 xx", "sutehai C0 7z"]
    assert stream.lines([f("gangzimo", l=1, p="")]) == ["tsumo C0 67 xx rinshan"]


def test_a_riichi_stick_goes_out_when_the_discard_is_not_won_on():
    stream, _ = started(seat=2, qijia=1, jushu=1)
    assert stream.lines([f("dapai", l=1, p="s3*")]) == ["say C0 richi", "sutehai C0 3s richi"]
    assert stream.lines([f("zimo", l=2, p="")]) == ["richi C0 -1000", "tsumo D0 69 xx"]
    assert stream.lines([f("dapai", l=2, p="s3_*")]) == ["say D0 richi", "sutehai D0 3s tsumogiri richi"]
    lines = stream.lines([f("hule", l=1, shoupai="m123p456s789z11s33", baojia=2, fubaopai=["z4"], fu=40,
                            fanshu=2, defen=2600, hupai=[{"name": "立直", "fanshu": 1},
                                                         {"name": "裏ドラ", "fanshu": 1}],
                            fenpei=[0, 4200, -3200, 0])])
    assert "richi D0 -1000" not in lines
    assert lines == ["say C0 ron", "open C0 1m2m3m4p5p6p3s3s7s8s9s1z1z",
                     "uradora 1z 4z", "agari C0 2600 40 %E7%AB%8B%E7%9B%B4 1 %E8%A3%8F%E3%83%89%E3%83%A9 1",
                     "point C0 +4200", "point D0 -3200", "kyokuend"]


def test_two_rons_end_the_hand_once():
    stream, _ = started()
    win = {"baojia": 1, "fubaopai": None, "fu": 30, "fanshu": 1, "defen": 1000,
           "hupai": [{"name": "役牌 中", "fanshu": 1}]}
    lines = stream.lines([f("hule", l=0, shoupai="z777m1", fenpei=[1500, -1500, 0, 0], **win),
                          f("hule", l=2, shoupai="z777m1", fenpei=[0, -1000, 1000, 0], **win)])
    assert lines.count("kyokuend") == 1 and lines[-1] == "kyokuend"
    assert lines[2] == "agari B0 1000 30 %E5%BD%B9%E7%89%8C%20%E4%B8%AD 1"


def test_a_yakuman_tsumo():
    stream, _ = started()
    lines = stream.lines([f("hule", l=1, shoupai="m19p19s19z1234567m1", baojia=None, fubaopai=None, fu=None,
                            fanshu=None, defen=32000, hupai=[{"name": "国士無双", "fanshu": "*"}],
                            fenpei=[-16000, 32000, -8000, -8000])])
    assert lines[0] == "say C0 tsumo"
    assert lines[2] == "agari C0 %E5%BD%B9%E6%BA%80 0 %E5%9B%BD%E5%A3%AB%E7%84%A1%E5%8F%8C 13"


def test_calls_and_kans_are_opened():
    stream, _ = started(seat=2, qijia=1, jushu=1)  # l 0 = B0, 1 = C0, 2 = D0, 3 = A0
    assert stream.lines([f("fulou", l=1, m="m1-23")]) == ["say C0 chi", "open C0 <1m2m3m> 1m"]
    assert stream.lines([f("fulou", l=2, m="p505=")]) == ["say D0 pon", "open D0 <5p5P5p> 5p"]
    assert stream.lines([f("fulou", l=3, m="s5550+")]) == ["say A0 kan", "open A0 <5s5s5s5S> 5S"]
    assert stream.lines([f("gang", l=0, m="z1111")]) == ["say B0 kan", "open B0 (1z1z1z1z)"]
    assert stream.lines([f("gang", l=2, m="p505=5")]) == ["say D0 kan", "open D0 [5p5P5p]5p"]
    assert stream.lines([f("kaigang", baopai="z7")]) == ["dora 5z 7z"]


def test_draws_of_the_hand():
    stream, _ = started(seat=2, qijia=1, jushu=1)
    lines = stream.lines([f("pingju", name="荒牌平局", shoupai=["", "m123p456s789z11m55", "", ""],
                            fenpei=[-1000, 3000, -1000, -1000])])
    assert lines == ["say B0 noten", "say C0 tenpai", "open C0 1m2m3m5m5m4p5p6p7s8s9s1z1z",
                     "say D0 noten", "say A0 noten", "ryukyoku _name=%E8%8D%92%E7%89%8C%E5%B9%B3%E5%B1%80",
                     "point A0 -1000", "point B0 -1000", "point C0 +3000", "point D0 -1000", "kyokuend"]
    stream, _ = started(seat=2, qijia=1, jushu=1)
    lines = stream.lines([f("pingju", name="九種九牌", shoupai=["m19p19s19z123m23p2z4", "", "", ""],
                            fenpei=[0, 0, 0, 0])])
    assert lines == ["open B0 1m2m3m9m1p2p9p1s9s1z2z3z4z",
                     "ryukyoku _name=%E4%B9%9D%E7%A8%AE%E4%B9%9D%E7%89%8C", "kyokuend"]


def test_the_game_ends_by_score_ties_by_seat_from_the_first_dealer():
    stream = UmpStream()
    stream.lines([f("kaiju", id=0, qijia=1, player=["a", "b", "c", "d"], rule={}, title="")])
    # Seats 0, 2 and 3 tie: seat 2 is B0, seat 3 C0, seat 0 D0 (qijia 1).
    assert stream.lines([f("jieju", defen=[20000, 40000, 20000, 20000], rank=[4, 1, 2, 3],
                           point=[0, 0, 0, 0])]) == ["gameend A0 40000 B0 20000 C0 20000 D0 20000"]


def test_sticks_left_at_the_end_go_to_the_top_in_a_point_line():
    stream, _ = started(seat=2, qijia=1, jushu=1)  # A0 22000, B0 25000, C0 26000, D0 27000; 1 stick
    # Seat 0 (D0) finishes first and takes the stick.
    assert stream.lines([f("jieju", defen=[28000, 22000, 25000, 26000], rank=[1, 4, 3, 2],
                           point=[0, 0, 0, 0])]) == ["point D0 +1000", "gameend D0 28000 C0 26000 B0 25000 A0 22000"]


# -- questions ---------------------------------------------------------------------------------------


def dapai(*ps: str) -> list[dict[str, Any]]:
    return [{"type": "dapai", "params": [p], **({"lizhi": True} if p.endswith("*") else {})} for p in ps]


PASS = {"type": "pass", "params": []}
DRAW_LEGAL = [*dapai("m3", "m5", "p6", "m5_", "m3*", "p6*", "m5_*"),
              {"type": "gang", "params": ["z1111"]}, {"type": "gang", "params": ["m555+0"]},
              {"type": "hule", "params": []}, {"type": "pingju", "params": []}, PASS]
CALL_LEGAL = [{"type": "hule", "params": []}, {"type": "fulou", "params": ["m3-45"]},
              {"type": "fulou", "params": ["m3-06"]}, {"type": "fulou", "params": ["m333-"]},
              {"type": "fulou", "params": ["m3333-"]}, PASS]


def test_a_draw_asks_for_a_discard_with_every_option():
    stream, _ = started(seat=2, qijia=1, jushu=1)
    [ask] = stream.ask({"type": "zimo", "data": {"l": 0, "p": "m5"}, "seq": 3}, DRAW_LEGAL)
    assert (ask.kind, ask.line) == ("sutehai", "sutehai? richi 3m6p5m tsumo ankan kakan _kyushu")
    legal = [*dapai("m3", "m5_"), {"type": "hule", "params": [], "allowed": False}, PASS]
    assert stream.ask({"type": "gangzimo", "data": {"l": 0, "p": "m5"}, "seq": 3}, legal)[0].line == "sutehai?"
    assert stream.ask({"type": "fulou", "data": {"l": 0, "m": "m1-23"}, "seq": 3},
                      [*dapai("m3", "m5"), PASS])[0].line == "sutehai?"


def test_a_discard_asks_for_calls():
    stream, _ = started(seat=2, qijia=1, jushu=1)
    frame = {"type": "dapai", "data": {"l": 3, "p": "m3"}, "seq": 5}
    assert [(a.kind, a.line) for a in stream.ask(frame, CALL_LEGAL)] == [("naki", "naki? 3m ron kan pon chi")]
    assert stream.ask(frame, [{"type": "hule", "params": [], "allowed": False}, PASS]) == []
    both = stream.ask({"type": "dapai", "data": {"l": 3, "p": "m0_"}, "seq": 5},
                      [{"type": "fulou", "params": ["m505-"]}, {"type": "daopai", "params": []}, PASS])
    assert [(a.kind, a.line) for a in both] == [("naki", "naki? 5M pon"), ("tenpai", "tenpai?")]
    own = {"type": "dapai", "data": {"l": 0, "p": "m3"}, "seq": 5}
    assert [a.line for a in stream.ask(own, [{"type": "daopai", "params": []}, PASS])] == ["tenpai?"]
    assert stream.ask(own, [PASS]) == []
    chankan = {"type": "gang", "data": {"l": 1, "m": "p505=0"}, "seq": 6}
    assert [a.line for a in stream.ask(chankan, [{"type": "hule", "params": []}, PASS])] == ["naki? 5P ron"]
    assert stream.ask(chankan, [PASS]) == []


# -- replies ------------------------------------------------------------------------------------------

SUTEHAI = Ask("sutehai", "sutehai?", DRAW_LEGAL)
NAKI = Ask("naki", "naki? 3m", CALL_LEGAL)
TENPAI = Ask("tenpai", "tenpai?", [{"type": "daopai", "params": []}, PASS])


@pytest.mark.parametrize(("reply", "expected"), [
    ("sutehai 3m", {"type": "dapai", "data": "m3"}),
    ("sutehai 5m", {"type": "dapai", "data": "m5"}),
    ("sutehai 5m tsumogiri", {"type": "dapai", "data": "m5_"}),
    ("sutehai 3m richi", {"type": "dapai", "data": "m3*"}),
    ("sutehai 5m richi tsumogiri", {"type": "dapai", "data": "m5_*"}),
    ("sutehai 5m tsumogiri richi", {"type": "dapai", "data": "m5_*"}),
    ("tsumo", {"type": "hule"}),
    ("ankan 1z1z1z1z", {"type": "gang", "data": "z1111"}),
    ("ankan 1z", {"type": "gang", "data": "z1111"}),
    ("kakan 5M", {"type": "gang", "data": "m555+0"}),
    ("kakan 5m", {"type": "gang", "data": "m555+0"}),
    ("_kyushu", {"type": "pingju"}),
])
def test_decode_a_discard_question(reply, expected):
    assert decode(reply, SUTEHAI) == expected


def test_tsumogiri_may_go_unsaid_when_the_tile_is_only_the_drawn_one():
    ask = Ask("sutehai", "sutehai?", [*dapai("m3", "p7_", "p7_*"), PASS])
    assert decode("sutehai 7p", ask) == {"type": "dapai", "data": "p7_"}
    assert decode("sutehai 7p richi", ask) == {"type": "dapai", "data": "p7_*"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("no", {"type": ""}),
    ("ron", {"type": "hule"}),
    ("chi 4m5m", {"type": "fulou", "data": "m3-45"}),
    ("chi 3m4m5m", {"type": "fulou", "data": "m3-45"}),
    ("chi 5m 3m 4m", {"type": "fulou", "data": "m3-45"}),
    ("chi 4m5M", None),
    ("chi 5M6m", {"type": "fulou", "data": "m3-06"}),
    ("chi 3m5M6m", {"type": "fulou", "data": "m3-06"}),
    ("pon 3m3m", {"type": "fulou", "data": "m333-"}),
    ("pon", {"type": "fulou", "data": "m333-"}),
    ("kan 3m3m3m", {"type": "fulou", "data": "m3333-"}),
    ("kan 3m3m3m3m", {"type": "fulou", "data": "m3333-"}),
])
def test_decode_a_call_question(reply, expected):
    if expected is None:
        with pytest.raises(UmpError) as raised:
            decode(reply, NAKI)
        assert raised.value.code == "IllegalReply"
    else:
        assert decode(reply, NAKI) == expected


def test_a_call_named_by_the_hand_alone_is_the_discarders_mark_too():
    ask = Ask("naki", "naki? 5m", [{"type": "fulou", "params": ["m345-"]}, PASS])
    assert decode("chi 3m4m", ask) == {"type": "fulou", "data": "m345-"}
    assert decode("chi 4m3m5m", ask) == {"type": "fulou", "data": "m345-"}
    two = Ask("naki", "naki? 5m", [{"type": "fulou", "params": ["m505="]}, {"type": "fulou", "params": ["m555="]},
                                   PASS])
    assert decode("pon 5m5M", two)["data"] == "m505="
    assert decode("pon 5m5m5m", two)["data"] == "m555="
    with pytest.raises(UmpError) as raised:
        decode("pon", two)
    assert raised.value.code == "Malformed"


def test_decode_a_tenpai_question():
    assert decode("tenpai", TENPAI) == {"type": "daopai"}
    assert decode("noten", TENPAI) == {"type": ""}


@pytest.mark.parametrize(("reply", "ask", "code"), [
    ("", SUTEHAI, "Malformed"),
    ("no", SUTEHAI, "UnexpectedReply"),
    ("ron", SUTEHAI, "UnexpectedReply"),
    ("sutehai 3m", NAKI, "UnexpectedReply"),
    ("tenpai", NAKI, "UnexpectedReply"),
    ("hello", TENPAI, "UnexpectedReply"),
    ("sutehai", SUTEHAI, "Malformed"),
    ("sutehai 3m 4m", SUTEHAI, "Malformed"),
    ("sutehai 3m richi richi", SUTEHAI, "Malformed"),
    ("sutehai 3x", SUTEHAI, "BadTile"),
    ("sutehai 9m", SUTEHAI, "IllegalReply"),
    ("sutehai 3m tsumogiri", SUTEHAI, "IllegalReply"),
    ("sutehai 5m richi", SUTEHAI, "IllegalReply"),  # 5m stays in the hand: only the drawn one may riichi
    ("tsumo 5m", SUTEHAI, "Malformed"),
    ("ankan 1z1z1z", SUTEHAI, "Malformed"),
    ("ankan 2z", SUTEHAI, "IllegalReply"),
    ("ankan 5m", SUTEHAI, "IllegalReply"),  # 5m is a kakan here
    ("kakan 1z", SUTEHAI, "IllegalReply"),
    ("kakan", SUTEHAI, "Malformed"),
    ("pon 3m", NAKI, "Malformed"),
    ("chi 1m2m", NAKI, "IllegalReply"),
    ("kan 3m3m3m3m3m", NAKI, "Malformed"),
    ("ron", Ask("naki", "naki? 3m pon", [{"type": "hule", "params": [], "allowed": False},
                                         {"type": "fulou", "params": ["m333-"]}, PASS]), "IllegalReply"),
    ("tsumo", Ask("sutehai", "sutehai?", [*dapai("m3"), PASS]), "IllegalReply"),
    ("_kyushu", Ask("sutehai", "sutehai?", [*dapai("m3"), PASS]), "IllegalReply"),
    ("chi", Ask("naki", "naki? 3m pon", [{"type": "fulou", "params": ["m333-"]}, PASS]), "IllegalReply"),
    ("tenpai", Ask("tenpai", "tenpai?", [PASS]), "IllegalReply"),
    ("sutehai ５m", SUTEHAI, "Malformed"),
])
def test_replies_refused(reply, ask, code):
    with pytest.raises(UmpError) as raised:
        decode(reply, ask)
    assert raised.value.code == code, raised.value.reason


# -- whole games -------------------------------------------------------------------------------------

# The server commands seed 004 lists (those this codec sends are a subset).
SEED_COMMANDS = {"hello", "error", "seat", "player", "gamestart", "gameend", "kyokustart", "kyokuend", "ready?",
                 "point", "richi", "dice", "haipai", "open", "dora", "uradora", "tsumo", "sutehai?", "sutehai",
                 "naki?", "say", "agari", "ryukyoku", "tenpai?", "_ex_"}
LINE = re.compile(r"[a-z_?]+( [!-~]+)*\Z")


@dataclass
class Played:
    """One game as every seat saw it: UMP lines, the questions asked with the legal lists."""

    engine: RiichiGame
    lines: list[list[str]] = field(default_factory=lambda: [[] for _ in range(4)])
    # (seat, the question frame, the seed-001 question, legal, asks)
    questions: list[tuple[int, dict[str, Any], majiang.Question, list[dict[str, Any]], list[Ask]]] = field(
        default_factory=list)


def play(seed: int, rules: dict[str, Any], chooser: Chooser) -> Played:
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules=rules)
    played = Played(engine)
    seats = [majiang.SeatStream(s) for s in range(4)]
    streams = [UmpStream() for _ in range(4)]
    seq = 0

    def deliver(events) -> None:
        nonlocal seq
        seq += 1
        waiting = engine.to_act()
        for s in range(4):
            frames = seats[s].frames([e.render(s) for e in events])
            played.lines[s] += streams[s].lines(frames)
            if frames and s in waiting:
                question = seats[s].question(frames[-1], seq)
                legal = engine.legal_actions(s)
                asks = streams[s].ask(question.frame(), legal)
                played.questions.append((s, question.frame(), question, legal, asks))

    play_through(engine, seed, chooser, deliver)
    return played


# Short games that between them ask every question (but 九種九牌) and send every line.
GAMES = {
    "east": (7, {"preset": "east"}, bot.choose),
    "tenhou-east-kans": (4, {"preset": "tenhou-east"}, kan_lover),
    "tenhou-east-noten": (6, {"preset": "tenhou-east", "ノーテン宣言あり": True}, kan_lover),
}


_PLAYED: dict[str, Played] = {}


def game(name: str) -> Played:
    """The game ``name`` of ``GAMES``, played once for the whole module."""
    if name not in _PLAYED:
        _PLAYED[name] = play(*GAMES[name])
    return _PLAYED[name]


@pytest.fixture(params=list(GAMES))
def played(request) -> Played:
    return game(request.param)


def masked(lines: list[str]) -> list[str]:
    """The lines with every seat's own tiles hidden: what all four seats must agree on."""
    out = []
    for line in lines:
        words = line.split(" ")
        if words[0] == "haipai":
            words[2] = "xx" * 13
        elif words[0] == "tsumo":
            words[3] = "xx"
        out.append(" ".join(words))
    return out


def test_lines_are_seed_commands_in_ascii(played):
    for lines in played.lines:
        assert lines[0] == "gamestart" and lines[-1].startswith("gameend ")
        for line in lines:
            assert line.isascii() and LINE.match(line), line
            assert line.split(" ")[0] in SEED_COMMANDS, line


def test_every_seat_sees_the_same_table_and_only_its_own_tiles(played):
    assert all(masked(lines) == masked(played.lines[0]) for lines in played.lines)
    log = played.engine.paifu["log"]
    qijia = played.engine.paifu["qijia"]
    for seat, lines in enumerate(played.lines):
        me = ump.player((seat - qijia) % 4)
        hands = [ln.split(" ") for ln in lines if ln.startswith("haipai ")]
        assert len(hands) == 4 * len(log)
        for i, (_, who, shown) in enumerate(hands):
            record = log[i // 4][0]["qipai"]
            if who == me:
                menfeng = (seat - qijia - record["jushu"]) % 4
                assert shown == ump.hand(record["shoupai"][menfeng])
            else:
                assert shown == "xx" * 13
        for line in lines:
            words = line.split(" ")
            if words[0] == "tsumo":
                assert (words[3] == "xx") == (words[1] != me), line


def test_the_wall_counts_down_to_what_was_left(played):
    lines = played.lines[0]
    log = played.engine.paifu["log"]
    hands: list[list[str]] = []
    for line in lines:
        if line.startswith("kyokustart"):
            hands.append([])
        elif hands:
            hands[-1].append(line)
    assert len(hands) == len(log)
    for hand_lines, records in zip(hands, log, strict=True):
        lefts = [int(ln.split(" ")[2]) for ln in hand_lines if ln.startswith("tsumo ")]
        draws = sum(1 for r in records if "zimo" in r or "gangzimo" in r)
        assert lefts == list(range(69, 69 - draws, -1))
        end = next(r for r in reversed(records) if "hule" in r or "pingju" in r)
        if "pingju" in end and end["pingju"]["name"] in ("荒牌平局", "流し満貫"):
            assert lefts[-1] == 0  # the wall ran out: the last draw left nothing


def test_hands_start_and_end_and_points_add_up(played):
    for lines in played.lines:
        score: dict[str, int] = {}
        open_hand = False
        for line in lines:
            words = line.split(" ")
            command = words[0]
            if command == "kyokustart":
                assert not open_hand
                open_hand = True
            elif command == "kyokuend":
                assert open_hand
                open_hand = False
            elif command == "point" and words[2][0] == "=":
                # A new hand's scores are where the last left off.
                if words[1] in score:
                    assert score[words[1]] == int(words[2][1:]), line
                score[words[1]] = int(words[2][1:])
            elif command in ("point", "richi"):
                assert open_hand
                score[words[1]] += int(words[2])
            elif command == "gameend":
                assert not open_hand
                final = dict(zip(words[1::2], map(int, words[2::2]), strict=True))
                assert final == score
                assert list(final.values()) == sorted(final.values(), reverse=True)
        assert sorted(score.values(), reverse=True) == sorted(played.engine.paifu["defen"], reverse=True)


def reply_texts(action: dict[str, Any], kind: str, rng: random.Random) -> list[str]:
    """UMP replies that express ``action`` to a question of ``kind`` (more than one where the
    codec accepts several forms)."""
    t = action["type"]
    p = action["params"][0] if action.get("params") else None
    if t == "dapai":
        assert p is not None
        flags = (["tsumogiri"] if "_" in p else []) + (["richi"] if p.endswith("*") else [])
        rng.shuffle(flags)
        return [" ".join(["sutehai", ump.tile(p), *flags])]
    if t == "gang":
        read = ump.meld(p)
        if read.added is not None:
            return [f"kakan {ump.tile(read.added)}"]
        return ["ankan " + "".join(map(ump.tile, read.tiles)), f"ankan {ump.tile(read.tiles[0])}"]
    if t == "fulou":
        read = ump.meld(p)
        rest = Counter(read.tiles) - Counter([read.called])
        return [f"{read.kind} " + "".join(map(ump.tile, rest.elements())),
                f"{read.kind} " + " ".join(map(ump.tile, read.tiles))]
    if t == "hule":
        return ["tsumo" if kind == "sutehai" else "ron"]
    return {"pingju": ["_kyushu"], "daopai": ["tenpai"], "pass": ["no" if kind == "naki" else "noten"]}[t]


def seed001(action: dict[str, Any]) -> dict[str, Any]:
    t = action["type"]
    if t in ("dapai", "gang", "fulou"):
        return {"type": t, "data": action["params"][0]}
    return {"type": "" if t == "pass" else t}


ANSWERS = {"sutehai": ("dapai", "gang", "hule", "pingju"), "naki": ("fulou", "hule", "pass"),
           "tenpai": ("daopai", "pass")}


def test_every_legal_action_round_trips(played):
    rng = random.Random(0)
    for seat, _frame, question, legal, asks in played.questions:
        moves = [a for a in legal if a.get("allowed", True) and a["type"] != "pass"]
        assert bool(asks) == bool(moves), (question, legal)
        answered = set()
        for ask in asks:
            assert ask.legal is legal
            for action in legal:
                if not action.get("allowed", True) or action["type"] not in ANSWERS[ask.kind]:
                    continue
                for text in reply_texts(action, ask.kind, rng):
                    reply = decode(text, ask)
                    assert reply == seed001(action), (text, ask.line, reply, action)
                    # The transport hands it on with the seq: seed 001's decoder takes it as that action.
                    decoded = majiang.decode_reply({**reply, "seq": question.seq}, question)
                    assert decoded is not None and decoded.action == action["type"]
                    assert decoded.params == action["params"]
                answered.add(id(action))
        assert all(id(a) in answered for a in moves), (seat, question, legal)


def test_the_games_cover_every_kind_of_question_and_line():
    asked: Counter[str] = Counter()
    commands: Counter[str] = Counter()
    for name in GAMES:
        one = game(name)
        asked.update(w for *_, asks in one.questions for a in asks for w in a.line.split(" ") if w.isalpha()
                     or w.endswith("?") or w.startswith("_"))
        commands.update(ln.split(" ")[0] + (" " + ln.split(" ")[2] if ln.startswith("say ") else "")
                        for ln in one.lines[0])
    for word in ("sutehai?", "naki?", "tenpai?", "richi", "tsumo", "ankan", "kakan", "ron", "pon", "chi", "kan"):
        assert asked[word], word
    for command in ("richi", "uradora", "ryukyoku", "say kan", "say tenpai", "say noten", "say tsumo", "say ron"):
        assert commands[command], command
