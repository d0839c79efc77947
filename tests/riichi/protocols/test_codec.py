"""The Majiang codec (games/riichi/protocols/majiang.py): history messages to one seat's frames,
and replies to platform actions, with the refusals in the protocol's own terms."""

from __future__ import annotations

import copy
import json

import pytest

from games.riichi.protocols import majiang as codec
from tests.riichi.transport.played import kan_lover, play

RULE = {"場数": 1}


@pytest.fixture(scope="module")
def game():
    """One east-only game with several kans (seed 7), so kaigang comes after each kind of record."""
    return play(7, {"preset": "east"}, kan_lover)


def msg(kind: str, data, player=None) -> dict:
    message = {"type": kind, "params": [data]}
    if player is not None:
        message["player"] = player
    return message


def kaiju(qijia: int = 1) -> dict:
    return msg("kaiju", {"title": "riichi", "player": ["player 0", "player 1", "player 2", "player 3"],
                         "qijia": qijia, "rule": RULE, "id": None})


def qipai(jushu: int = 0, hands=("m1", "p2", "s3", "z4")) -> dict:
    return msg("qipai", {"zhuangfeng": 0, "jushu": jushu, "changbang": 0, "lizhibang": 0,
                         "defen": [25000] * 4, "baopai": "s7", "shoupai": list(hands)})


# -- server frames ----------------------------------------------------------------------------------


def test_kaiju_names_the_seat_and_the_players_in_majiangs_order():
    stream = codec.SeatStream(2, ["ann", "bob", "cat", "dan"])
    [frame] = stream.frames([kaiju(qijia=1)])
    assert frame == {"type": "kaiju", "data": {"id": 2, "rule": RULE, "title": "riichi",
                                              "player": ["ann", "bob", "cat", "dan"], "qijia": 1}}
    assert list(frame["data"]) == ["id", "rule", "title", "player", "qijia"]
    assert "seq" not in frame  # asynchronous: nobody answers kaiju
    # Without names the engine's own are passed on.
    assert codec.SeatStream(0).frames([kaiju()])[0]["data"]["player"][0] == "player 0"


def test_qipai_shows_only_the_own_hand_even_from_a_revealed_rendering():
    # qijia 1, jushu 1: the dealer is seat 2, so seat 3 sits at l = 1 and seat 1 at l = 3.
    for seat, menfeng in ((2, 0), (3, 1), (0, 2), (1, 3)):
        stream = codec.SeatStream(seat)
        frames = stream.frames([kaiju(qijia=1), qipai(jushu=1)])
        hands = frames[1]["data"]["shoupai"]
        assert hands == [hand if i == menfeng else "" for i, hand in enumerate(["m1", "p2", "s3", "z4"])]
        assert stream.menfeng == menfeng


def test_draws_of_others_are_masked_and_the_own_is_shown():
    stream = codec.SeatStream(1)
    stream.frames([kaiju(qijia=0), qipai(jushu=0)])  # seat 1 sits at l = 1
    frames = stream.frames([msg("zimo", {"l": 0, "p": "m5"}, 0), msg("zimo", {"l": 1, "p": "p5"}, 1),
                            msg("gangzimo", {"l": 2, "p": "s5"}, 2), msg("gangzimo", {"l": 1, "p": "z5"}, 1)])
    assert [f["data"]["p"] for f in frames] == ["", "p5", "", "z5"]


def test_messages_given_are_not_changed():
    messages = [kaiju(), qipai(), msg("zimo", {"l": 0, "p": "m5"}, 1)]
    before = copy.deepcopy(messages)
    codec.SeatStream(2).frames(messages)
    assert messages == before


@pytest.mark.parametrize("record", ["dapai", "gang", "gangzimo"])
def test_kaigang_goes_before_the_record_it_follows_in_the_paifu(record):
    data = {"l": 0, "p": "m1"} if record != "gang" else {"l": 0, "m": "m1111"}
    batch = [msg("zimo", {"l": 3, "p": ""}), msg(record, data), msg("kaigang", {"baopai": "p3"})]
    stream = codec.SeatStream(0)
    stream.frames([kaiju(), qipai()])
    assert [f["type"] for f in stream.frames(batch)] == ["zimo", "kaigang", record]
    # Anything else keeps its place, and so does a kaigang that opens a batch.
    assert [f["type"] for f in stream.frames([msg("kaigang", {"baopai": "p4"}), msg("dapai", data)])] == [
        "kaigang", "dapai"]
    assert [f["type"] for f in stream.frames([msg("fulou", {"l": 1, "m": "m1111+"}),
                                              msg("kaigang", {"baopai": "p5"})])] == ["fulou", "kaigang"]


def test_every_kaigang_of_a_real_game_comes_right_before_a_dapai_gang_or_gangzimo(game):
    engine, events = game
    frames = codec.SeatStream(0).frames([e.render(0) for e in events])
    kinds = [f["type"] for f in frames]
    assert kinds.count("kaigang") >= 3
    for i, kind in enumerate(kinds):
        if kind == "kaigang":
            assert kinds[i + 1] in ("dapai", "gang", "gangzimo"), kinds[i - 2:i + 3]


def test_jieju_carries_the_whole_paifu_when_given_else_the_platform_result(game):
    engine, events = game
    revealed = [e.render(None, True) for e in events]
    names = ["ann", "bob", "cat", "dan"]
    paipu = codec.paipu(revealed, names)
    assert paipu == {**json.loads(json.dumps(engine.paifu, ensure_ascii=False)), "player": names}
    assert list(paipu) == ["title", "player", "qijia", "log", "defen", "point", "rank"]
    last = codec.SeatStream(3, names).frames([e.render(3) for e in events], paipu)[-1]
    assert last == {"type": "jieju", "data": paipu}
    plain = codec.SeatStream(3).frames([e.render(3) for e in events])[-1]
    assert plain["data"] == {"defen": engine.paifu["defen"], "rank": engine.paifu["rank"],
                             "point": engine.paifu["point"]}


def test_a_revealed_rendering_gives_each_seat_the_same_frames_as_its_own(game):
    _, events = game
    for seat in range(4):
        own = codec.SeatStream(seat).frames([e.render(seat) for e in events])
        revealed = codec.SeatStream(seat).frames([e.render(None, True) for e in events])
        assert own == revealed


def test_hand_start_finds_the_last_deal():
    history = [kaiju(), qipai(), msg("zimo", {"l": 0, "p": ""}), msg("pingju", {"name": "九種九牌"}), qipai(),
               msg("zimo", {"l": 0, "p": ""})]
    assert codec.hand_start(history) == 4
    assert codec.hand_start(history[:1]) == 1
    assert codec.hand_start([]) == 0


def test_question_knows_whose_turn_it_is():
    stream = codec.SeatStream(1)
    stream.frames([kaiju(qijia=0), qipai(jushu=0)])  # l = 1
    own_draw = stream.question({"type": "zimo", "data": {"l": 1, "p": "m1"}}, 12)
    assert own_draw == codec.Question("zimo", {"l": 1, "p": "m1"}, 12, True)
    assert own_draw.frame() == {"type": "zimo", "data": {"l": 1, "p": "m1"}, "seq": 12}
    assert stream.question({"type": "dapai", "data": {"l": 0, "p": "m1"}}, 3).own is False
    assert stream.question({"type": "dapai", "data": {"l": 1, "p": "m1"}}, 3).own is True  # its last discard
    assert stream.question({"type": "fulou", "data": {"l": 1, "m": "m1-23"}}, 3).own is True
    assert stream.question({"type": "gang", "data": {"l": 2, "m": "m111=1"}}, 3).own is False


def test_error_frame():
    assert codec.error_frame("IllegalAction", "no", 7) == {"type": "error", "code": "IllegalAction",
                                                           "reason": "no", "seq": 7}


# -- replies ----------------------------------------------------------------------------------------

DRAW = codec.Question("zimo", {"l": 0, "p": "m1"}, 10, True)
RINSHAN = codec.Question("gangzimo", {"l": 0, "p": "m1"}, 10, True)
CALLED = codec.Question("fulou", {"l": 0, "m": "m1-23"}, 10, True)
DISCARD = codec.Question("dapai", {"l": 3, "p": "m1"}, 10, False)
OWN_LAST = codec.Question("dapai", {"l": 0, "p": "m1"}, 10, True)
KAKAN = codec.Question("gang", {"l": 3, "m": "m111=1"}, 10, False)


@pytest.mark.parametrize(("question", "reply", "action"), [
    (DRAW, {"type": "dapai", "data": "m1"}, ("dapai", ["m1"])),
    (DRAW, {"type": "dapai", "data": "m1_*"}, ("dapai", ["m1_*"])),
    (DRAW, {"type": "gang", "data": "m1111"}, ("gang", ["m1111"])),
    (DRAW, {"type": "hule", "data": "-"}, ("hule", [])),
    (DRAW, {"type": "hule", "data": None}, ("hule", [])),
    (DRAW, {"type": "pingju", "data": None}, ("pingju", [])),  # seed 001's 九種九牌
    (DRAW, {"type": "daopai", "data": "-"}, ("pingju", [])),  # majiang-core 1.4's 九種九牌
    (DRAW, {"type": "", "data": None}, ("pass", [])),  # the default: tsumogiri, as Majiang plays a missing dapai
    (RINSHAN, {"type": "hule"}, ("hule", [])),
    (CALLED, {"type": "dapai", "data": "p9"}, ("dapai", ["p9"])),
    (CALLED, {"type": "", "data": None}, ("pass", [])),
    (DISCARD, {"type": "fulou", "data": "m1-23"}, ("fulou", ["m1-23"])),
    (DISCARD, {"type": "fulou", "data": "m5550+"}, ("fulou", ["m5550+"])),
    (DISCARD, {"type": "hule", "data": "-"}, ("hule", [])),
    (DISCARD, {"type": "daopai", "data": "-"}, ("daopai", [])),
    (DISCARD, {"type": "", "data": None}, ("pass", [])),
    (OWN_LAST, {"type": "daopai", "data": "-"}, ("daopai", [])),
    (KAKAN, {"type": "hule", "data": "-"}, ("hule", [])),
    (KAKAN, {"type": "", "data": None}, ("pass", [])),
])
def test_a_reply_becomes_the_platform_action(question, reply, action):
    decoded = codec.decode_reply({**reply, "seq": 10}, question)
    assert decoded == codec.Reply(10, *action)


@pytest.mark.parametrize(("question", "kind"), [
    (DRAW, "fulou"), (CALLED, "gang"), (CALLED, "hule"), (CALLED, "pingju"), (DISCARD, "dapai"),
    (DISCARD, "gang"), (DISCARD, "pingju"), (OWN_LAST, "hule"), (OWN_LAST, "fulou"), (KAKAN, "fulou"),
    (KAKAN, "daopai"), (KAKAN, "dapai"),
])
def test_a_reply_that_does_not_answer_the_question_is_refused(question, kind):
    data = {"dapai": "m1", "fulou": "m1-23", "gang": "m1111"}.get(kind, "-")
    with pytest.raises(codec.ProtocolError) as refused:
        codec.decode_reply({"type": kind, "data": data, "seq": 10}, question)
    assert refused.value.code == "UnexpectedReply"
    assert question.type in refused.value.reason and repr(kind) in refused.value.reason


def test_a_reply_to_another_seq_is_read_without_the_question():
    # The service refuses it by its seq; the codec only reads it.
    assert codec.decode_reply({"type": "dapai", "data": "m1", "seq": 4}, DISCARD) == codec.Reply(4, "dapai", ["m1"])
    assert codec.decode_reply({"type": "daopai", "seq": 4}, DRAW) == codec.Reply(4, "daopai", [])
    assert codec.decode_reply({"type": "", "seq": 4}, None) == codec.Reply(4, "pass", [])


def test_an_empty_reply_without_seq_answers_nothing():
    assert codec.decode_reply({"type": "", "data": None}, DRAW) is None
    assert codec.decode_reply({"type": ""}, None) is None


@pytest.mark.parametrize(("reply", "code"), [
    ({"type": "Dapai", "data": "m1", "seq": 10}, "UnknownMessageType"),
    ({"type": "chi", "data": "m1-23", "seq": 10}, "UnknownMessageType"),
    ({"type": "dapai", "data": "m1"}, "MissingSeq"),
    ({"type": "hule", "data": "-", "seq": None}, "MissingSeq"),
    ({"type": "dapai", "data": "m1", "seq": -1}, "InvalidSeq"),
    ({"type": "dapai", "data": "m1", "seq": True}, "InvalidSeq"),
    ({"type": "dapai", "data": "m1", "seq": 10.0}, "InvalidSeq"),
    ({"type": "dapai", "data": "m1", "seq": "10"}, "InvalidSeq"),
    ({"type": "dapai", "data": "m1", "seq": 2**31}, "InvalidSeq"),
    ({"type": "dapai", "data": None, "seq": 10}, "InvalidData"),
    ({"type": "dapai", "data": ["m1"], "seq": 10}, "InvalidData"),
    ({"type": "dapai", "data": "m10", "seq": 10}, "InvalidData"),
    ({"type": "dapai", "data": "x1", "seq": 10}, "InvalidData"),
    ({"type": "dapai", "data": "m1*_", "seq": 10}, "InvalidData"),
    ({"type": "dapai", "data": "m1\n", "seq": 10}, "InvalidData"),
    ({"type": "fulou", "data": 123, "seq": 10}, "InvalidData"),
    ({"type": "fulou", "data": "m1", "seq": 10}, "InvalidData"),
    ({"type": "gang", "data": "m1111111111", "seq": 10}, "InvalidData"),
    ({"type": "gang", "data": "q1111", "seq": 10}, "InvalidData"),
])
def test_malformed_replies_are_refused_in_the_protocols_terms(reply, code):
    with pytest.raises(codec.ProtocolError) as refused:
        codec.decode_reply(reply, DRAW)
    assert refused.value.code == code
    assert refused.value.reason
