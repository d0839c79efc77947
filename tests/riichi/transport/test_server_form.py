"""majiang-server's form of the Majiang codec (games/riichi/protocols/majiang.py: ``server_message``,
``server_reply``, ``seat_log``): the same frames and replies as seed 001's, with the type as the
key, and the log a seat taken up again is given, masked as its frames are."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.riichi.protocols import majiang as codec
from tests.riichi.transport.played import kan_lover, play


@pytest.fixture(scope="module")
def game():
    return play(7, {"preset": "east"}, kan_lover)


def test_a_frame_in_majiang_servers_form():
    zimo = {"type": "zimo", "data": {"l": 3, "p": "z7"}, "seq": 13}
    assert codec.server_message(zimo) == {"zimo": {"l": 3, "p": "z7"}, "seq": 13}
    assert codec.server_message(zimo, [5, 20]) == {"zimo": {"l": 3, "p": "z7"}, "seq": 13, "timer": [5, 20]}
    # A message nobody answers carries neither seq nor timer, as on majiang-server.
    dapai = {"type": "dapai", "data": {"l": 0, "p": "m1_"}}
    assert codec.server_message(dapai, [5, 20]) == {"dapai": {"l": 0, "p": "m1_"}}


@pytest.mark.parametrize("reply, frame", [
    ({"dapai": "m1*", "seq": 45}, {"type": "dapai", "data": "m1*", "seq": 45}),
    ({"fulou": "p78-9", "seq": 68}, {"type": "fulou", "data": "p78-9", "seq": 68}),
    ({"hule": "-", "seq": 12}, {"type": "hule", "data": "-", "seq": 12}),
    ({"daopai": "-", "seq": 3}, {"type": "daopai", "data": "-", "seq": 3}),
    ({"seq": 8}, {"type": "", "data": None, "seq": 8}),
    ({}, {"type": "", "data": None}),
    ({"chi": "m1-23", "seq": 8}, {"type": "chi", "data": "m1-23", "seq": 8}),  # decode_reply refuses it
])
def test_a_reply_in_majiang_servers_form_is_the_seed_001_reply(reply, frame):
    assert codec.server_reply(reply) == frame


@pytest.mark.parametrize("reply", ["m1", None, [{"dapai": "m1"}], 8, {"dapai": "m1", "gang": "m1111", "seq": 4}])
def test_a_reply_that_is_no_object_of_one_move_is_refused(reply):
    with pytest.raises(codec.ProtocolError) as refused:
        codec.server_reply(reply)
    assert refused.value.code == "InvalidMessageFormat"


def test_both_forms_of_a_reply_are_read_alike():
    question = codec.Question("zimo", {"l": 0, "p": "m1"}, 9, own=True)
    for native in ({"type": "dapai", "data": "m1_", "seq": 9}, {"type": "gang", "data": "m1111", "seq": 9},
                   {"type": "hule", "data": "-", "seq": 9}, {"type": "daopai", "data": "-", "seq": 9},
                   {"type": "", "data": None, "seq": 9}):
        server = {native["type"]: native["data"], "seq": 9} if native["type"] else {"seq": 9}
        assert codec.decode_reply(codec.server_reply(server), question) == codec.decode_reply(native, question)
    assert codec.decode_reply(codec.server_reply({}), question) is None  # nothing, answering nothing


def test_the_log_is_the_paifus_as_the_seat_may_see_it(game):
    engine, events = game
    names = ["ann", "bob", "cat", "dan"]
    revealed = [e.render(None, True) for e in events]
    whole = codec.paipu(revealed, names)["log"]
    for seat in range(4):
        log = codec.seat_log([e.render(seat) for e in events], seat, names)
        # Masks only ever remove: a revealed rendering gives the seat the very same log.
        assert codec.seat_log(revealed, seat, names) == log
        assert len(log) == len(whole) == len(engine.paifu["log"])
        for mine, full in zip(log, whole, strict=True):
            # The paifu's records in the paifu's order (kaigang after its record, as in the file).
            assert [next(iter(r)) for r in mine] == [next(iter(r)) for r in full]
            for record, original in zip(mine, full, strict=True):
                kind = next(iter(record))
                if kind == "qipai":
                    l = (seat - engine.paifu["qijia"] - record[kind]["jushu"]) % 4  # noqa: E741
                    assert [h for i, h in enumerate(record[kind]["shoupai"]) if i != l] == ["", "", ""]
                    assert record[kind]["shoupai"][l] == original[kind]["shoupai"][l]
                elif kind in ("zimo", "gangzimo") and record[kind]["p"] != original[kind]["p"]:
                    assert record[kind]["p"] == ""  # another seat's draw
                else:
                    assert record == original


def test_the_log_so_far_ends_in_the_hand_under_way(game):
    _, events = game
    rendered = [e.render(1) for e in events]
    cut = next(i for i, m in enumerate(rendered) if m["type"] == "dapai" and i > 40)
    log = codec.seat_log(rendered[:cut + 1], 1)
    assert next(iter(log[-1][0])) == "qipai" and log[-1][-1] == {"dapai": rendered[cut]["params"][0]}


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=3), max_leaves=8)
replies = st.dictionaries(st.sampled_from(["dapai", "fulou", "gang", "hule", "daopai", "pingju", "seq", "x"]),
                          json_values, max_size=3)


@settings(max_examples=300, deadline=None)
@given(st.one_of(replies, json_values))
def test_any_reply_is_read_or_refused_in_the_protocols_terms(reply):
    question = codec.Question("dapai", {"l": 1, "p": "m1"}, 5, own=False)
    try:
        codec.decode_reply(codec.server_reply(reply), question)
    except codec.ProtocolError as refused:
        assert refused.code and refused.reason
