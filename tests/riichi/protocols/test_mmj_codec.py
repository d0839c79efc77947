"""The mmj codec (games/riichi/protocols/mmj.py), seed 000's grammar: round trips of every message,
the seed's worked example message for message (whole, byte by byte, re-spaced and re-cased), the
malformed inputs and their error codes, and the riichi tile mapping."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.riichi.protocols import mmj
from games.riichi.protocols.mmj import (
    Ack,
    AckRequest,
    Break,
    ChatFrom,
    ChatTo,
    Ckong,
    Claim,
    ClaimOffer,
    ClientHello,
    Discard,
    Draw,
    Game,
    Message,
    MmjError,
    Move,
    NewHand,
    Out,
    Pass,
    Pkong,
    Place,
    Play,
    Reader,
    Reject,
    Riichi,
    RiichiDeclared,
    Ron,
    ScoreLine,
    ServerHello,
    Swap,
    Tile,
    Win,
    decode,
    encode,
)


def receiver(message: Message) -> mmj.Side:
    """The side whose reader reads ``message``."""
    return "client" if message.SENDER == "server" else "server"


def feed_bytewise(reader: Reader, data: bytes) -> list[Message]:
    out: list[Message] = []
    for i in range(len(data)):
        out += reader.feed(data[i : i + 1])
    return out


T = Tile
Q = mmj.UNKNOWN
W, R, H, D, F = Place.wall, Place.replacement, Place.hand, Place.discards, Place.flowers


# -- round trips ---------------------------------------------------------------------------------------

# One or more of each message, with the canonical bytes it must encode to.
CANONICAL: list[tuple[Message, bytes]] = [
    (ServerHello(), b"mmj1s\n"),
    (Game(2, (b"Jean", b"Chris", b"Pat", b"Mouse")), b"game 2 4:Jean 5:Chris 3:Pat 5:Mouse\n"),
    (NewHand("e", ("e", "s", "w", "n")), b"newhand e e s w n\n"),
    (Break(4, 6), b"break 4 6\n"),
    (Move(T("c6"), W(52), H(1)), b"move c6 w052 h1\n"),
    (Move(Q, R(0), H(4)), b"move ? r00 h4\n"),
    (Move(T("dg"), Place.dora(0), Place.dora(0)), b"move dg a0 a0\n"),
    (Move(T("d6"), D(1), Place.meld(4, 0)), b"move d6 d1 m40\n"),
    (Move(T("s2"), H(1), F(1)), b"move s2 h1 f1\n"),
    (Move(T("h"), Place.deck(), W(135)), b"move h k w135\n"),
    (RiichiDeclared(), b"riichi\n"),
    (Play(), b"play\n"),
    (ClaimOffer(), b"claim\n"),
    (Draw(), b"draw\n"),
    (Win(3, (ScoreLine(b"Riichi", 1), ScoreLine(b"Big Three Winds", 12)), 8000),
     b"win 3 6:Riichi 1. 15:Big Three Winds 12. 0: 8000.\n"),
    (AckRequest(), b"ack\n"),
    (ChatFrom(1, (2, 3), b"hi all"), b"chat 1 23 . 6:hi all\n"),
    (ChatFrom(4, (), b""), b"chat 4 . 0:\n"),
    (Reject(b"not your turn"), b"reject 13:not your turn\n"),
    (ClientHello("Jean-Pierre ü".encode()), b"mmj1c 14:Jean-Pierre \xc3\xbc\n"),
    (Discard(T("d6")), b"discard d6\n"),
    (Riichi(T("we")), b"riichi we\n"),
    (Out(), b"out\n"),
    (Ckong(T("b9")), b"ckong b9\n"),
    (Pkong(T("dr")), b"pkong dr\n"),
    (Claim((T("d6"), T("d6"), Q)), b"claim d6 d6 ?\n"),
    (Swap(T("c1")), b"swap c1\n"),
    (Ron(), b"ron\n"),
    (Pass(), b"pass\n"),
    (Ack(), b"ack\n"),
    (ChatTo((2, 3, 4), b"gl\nhf"), b"chat 234 . 5:gl\nhf\n"),
]


def test_every_message_class_is_covered():
    assert {type(m) for m, _ in CANONICAL} == set(mmj.SERVER_MESSAGES) | set(mmj.CLIENT_MESSAGES)


@pytest.mark.parametrize(("message", "wire"), CANONICAL, ids=[w.split()[0].decode() for _, w in CANONICAL])
def test_canonical_round_trip(message, wire):
    assert encode(message) == wire
    assert decode(wire, receiver(message)) == [message]
    assert feed_bytewise(Reader(receiver(message)), wire) == [message]


def test_each_side_reads_only_its_peer():
    # The same keyword means different messages by direction.
    assert decode(b"riichi", "client") == [RiichiDeclared()]
    assert decode(b"riichi c5", "server") == [Riichi(T("c5"))]
    assert decode(b"claim", "client") == [ClaimOffer()]
    assert decode(b"ack", "client") == [AckRequest()]
    assert decode(b"ack", "server") == [Ack()]
    with pytest.raises(ValueError):
        Reader("both")  # type: ignore[arg-type]


texts = st.binary(max_size=40).map(lambda b: b.replace(b"\0", b"."))
tiles = st.sampled_from(sorted(mmj.TILE_CODES)).map(Tile)
players = st.integers(1, 4)
winds = st.sampled_from(mmj.WINDS)
integers = st.integers(0, 10**16 - 1)
places = st.one_of(
    st.just(Place.deck()),
    st.integers(0, 135).map(Place.wall),
    st.integers(0, 11).map(Place.replacement),
    st.integers(0, 9).map(Place.dora),
    players.map(Place.hand),
    players.map(Place.discards),
    players.map(Place.flowers),
    st.builds(Place.meld, players, st.integers(0, 3)),
)
server_messages = st.one_of(
    st.builds(ServerHello),
    st.builds(Game, players, st.tuples(*[st.binary(max_size=64).map(lambda b: b.replace(b"\0", b"_"))] * 4)),
    st.builds(NewHand, winds, st.tuples(winds, winds, winds, winds)),
    st.builds(Break, st.integers(1, 6), st.integers(1, 6)),
    st.builds(Move, tiles, places, places),
    st.builds(RiichiDeclared),
    st.builds(Play),
    st.builds(ClaimOffer),
    st.builds(Draw),
    st.builds(Win, players, st.lists(st.builds(ScoreLine, texts.filter(bool), integers), min_size=1,
                                     max_size=5).map(tuple), integers),
    st.builds(AckRequest),
    st.builds(ChatFrom, players, st.lists(players, max_size=4).map(tuple), texts),
    st.builds(Reject, st.binary(max_size=512).map(lambda b: b.replace(b"\0", b" "))),
)
client_messages = st.one_of(
    st.builds(ClientHello, st.binary(max_size=256).map(lambda b: b.replace(b"\0", b"?"))),
    *[st.builds(cls, tiles) for cls in (Discard, Riichi, Ckong, Pkong, Swap)],
    st.builds(Out),
    st.builds(Claim, st.tuples(tiles, tiles, tiles)),
    st.builds(Ron),
    st.builds(Pass),
    st.builds(Ack),
    st.builds(ChatTo, st.lists(players, min_size=1, max_size=4).map(tuple), texts),
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(server_messages, client_messages))
def test_round_trip_property(message):
    wire = encode(message)
    assert wire.endswith(b"\n")
    assert Reader(receiver(message)).feed(wire) == [message]


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.lists(server_messages, max_size=8), st.lists(client_messages, max_size=8)), st.randoms())
def test_stream_property(messages, rnd):
    """A run of messages cut anywhere, fed piece by piece, reads back the same."""
    side: mmj.Side = receiver(messages[0]) if messages else "server"
    wire = b"".join(map(encode, messages))
    reader, out, i = Reader(side), [], 0
    while i < len(wire):
        step = rnd.randint(1, 12)
        out += reader.feed(wire[i : i + step])
        i += step
    reader.eof()
    assert out == messages


# -- the seed's worked example ---------------------------------------------------------------------

ALL = (1, 2, 3, 4)
# Copied from seed 000, one entry per "X->Y:" line: (sender, receivers, text). Only change: the
# seed's "move 9d w059 h2" (S->2) is a typo for "d9" (no tile starts with a digit; Chris's four
# tiles are dr d8 dw d9), and its "...." elisions are left out.
SEED_EXAMPLE: list[tuple[str | int, tuple[int, ...] | str, str]] = [
    ("S", (1,), "game 1 4:Jean 5:Chris 3:Pat 5:Mouse"),
    ("S", (2,), "game 2 4:Jean 5:Chris 3:Pat 5:Mouse"),
    ("S", (3,), "game 3 4:Jean 5:Chris 3:Pat 5:Mouse"),
    ("S", (4,), "game 4 4:Jean 5:Chris 3:Pat 5:Mouse"),
    ("S", ALL, "newhand e e s w n"),
    ("S", ALL, "break 4 6"),
    ("S", (1,), "move c6 w052 h1 move d6 w053 h1 move b6 w054 h1 move d2 w055 h1 move ? w056 h2 move ? w057 h2 "
                "move ? w058 h2 move ? w059 h2 move ? w060 h3 move ? w061 h3 move ? w062 h3 move ? w063 h3 "
                "move ? w064 h4 move ? w065 h4 move ? w066 h4 move ? w067 h4"),
    ("S", (2,), "move ? w052 h1 move ? w053 h1 move ? w054 h1 move ? w055 h1 move dr w056 h2 move d8 w057 h2 "
                "move dw w058 h2 move d9 w059 h2 move ? w060 h3 move ? w061 h3 move ? w062 h3 move ? w063 h3 "
                "move ? w064 h4 move ? w065 h4 move ? w066 h4 move ? w067 h4"),
    ("S", (3,), "move ? w052 h1 move ? w053 h1 move ? w054 h1 move ? w055 h1 move ? w056 h2 move ? w057 h2 "
                "move ? w058 h2 move ? w059 h2 move d7 w060 h3 move d8 w061 h3 move b1 w062 h3 move b9 w063 h3 "
                "move ? w064 h4 move ? w065 h4 move ? w066 h4 move ? w067 h4"),
    ("S", (4,), "move ? w052 h1 move ? w053 h1 move ? w054 h1 move ? w055 h1 move ? w056 h2 move ? w057 h2 "
                "move ? w058 h2 move ? w059 h2 move ? w060 h3 move ? w061 h3 move ? w062 h3 move ? w063 h3 "
                "move b5 w064 h4 move d8 w065 h4 move d3 w066 h4 move b8 w067 h4"),
    ("S", ALL, "move dg r10 r10"),
    ("S", ALL, "move s2 h1 f1"),
    ("S", (1,), "move d9 r00 h1"),
    ("S", (2, 3, 4), "move ? r00 h1"),
    ("S", ALL, "move s3 h1 f1"),
    ("S", (1,), "move c1 r01 h1"),
    ("S", (2, 3, 4), "move ? r01 h1"),
    ("S", ALL, "move f2 h4 f4"),
    ("S", (4,), "move c5 r02 h4"),
    ("S", (1, 2, 3), "move ? r02 h4"),
    ("S", (1,), "play"),
    (1, "S", "discard d6"),
    ("S", ALL, "move d6 h1 d1"),
    ("S", (2, 3, 4), "claim"),
    (2, "S", "pass"),
    (3, "S", "pass"),
    (4, "S", "claim d6 d6 ?"),
    ("S", ALL, "move d6 d1 m40 move d6 h4 m40 move d6 h4 m40"),
    ("S", (4,), "play"),
    (4, "S", "discard dg"),
    ("S", ALL, "move dg h4 d4"),
    ("S", (1, 2, 3), "claim"),
    (1, "S", "pass"),
    (2, "S", "pass"),
    (3, "S", "pass"),
    ("S", (1,), "move c4 w105 h1"),
    ("S", (2, 3, 4), "move ? w105 h1"),
    ("S", (1,), "play"),
]

NAMES = (b"Jean", b"Chris", b"Pat", b"Mouse")
DEALT = {1: "c6 d6 b6 d2", 2: "dr d8 dw d9", 3: "d7 d8 b1 b9", 4: "b5 d8 d3 b8"}


def deal(viewer: int) -> list[Message]:
    """The first deal round as ``viewer`` sees it: four tiles each from w052 on, others hidden."""
    return [Move(T(tile) if seat == viewer else Q, W(52 + 4 * (seat - 1) + i), H(seat))
            for seat in ALL for i, tile in enumerate(DEALT[seat].split())]


# What each entry of SEED_EXAMPLE means, built without the parser.
EXPECTED: list[list[Message]] = [
    [Game(1, NAMES)], [Game(2, NAMES)], [Game(3, NAMES)], [Game(4, NAMES)],
    [NewHand("e", ("e", "s", "w", "n"))],
    [Break(4, 6)],
    deal(1), deal(2), deal(3), deal(4),
    [Move(T("dg"), R(10), R(10))],
    [Move(T("s2"), H(1), F(1))], [Move(T("d9"), R(0), H(1))], [Move(Q, R(0), H(1))],
    [Move(T("s3"), H(1), F(1))], [Move(T("c1"), R(1), H(1))], [Move(Q, R(1), H(1))],
    [Move(T("f2"), H(4), F(4))], [Move(T("c5"), R(2), H(4))], [Move(Q, R(2), H(4))],
    [Play()],
    [Discard(T("d6"))],
    [Move(T("d6"), H(1), D(1))],
    [ClaimOffer()],
    [Pass()], [Pass()], [Claim((T("d6"), T("d6"), Q))],
    [Move(T("d6"), D(1), Place.meld(4, 0)), Move(T("d6"), H(4), Place.meld(4, 0)),
     Move(T("d6"), H(4), Place.meld(4, 0))],
    [Play()],
    [Discard(T("dg"))],
    [Move(T("dg"), H(4), D(4))],
    [ClaimOffer()],
    [Pass()], [Pass()], [Pass()],
    [Move(T("c4"), W(105), H(1))], [Move(Q, W(105), H(1))],
    [Play()],
]
# Riichi has no flowers or seasons: the adapted example drops the three flower moves (s2, s3, f2)
# and the replacement draws they cause; everything else is riichi already.
FLOWER_LINES = {"move s2 h1 f1", "move d9 r00 h1", "move s3 h1 f1", "move c1 r01 h1", "move f2 h4 f4",
                "move c5 r02 h4", "move ? r00 h1", "move ? r01 h1", "move ? r02 h4"}
RIICHI_EXAMPLE = [(i, entry) for i, entry in enumerate(SEED_EXAMPLE) if entry[2] not in FLOWER_LINES]


def side_of(sender: str | int) -> mmj.Side:
    return "client" if sender == "S" else "server"


def streams(example: list[tuple[int, tuple]]) -> dict[tuple[str, int], tuple[list[str], list[Message]]]:
    """Per connection and direction, ("to", p) / ("from", p): the texts in order and their messages."""
    out: dict[tuple[str, int], tuple[list[str], list[Message]]] = {}
    for i, (sender, receivers, text) in example:
        keys = [("to", p) for p in receivers] if sender == "S" else [("from", sender)]
        for key in keys:
            texts_, messages = out.setdefault(key, ([], []))
            texts_.append(text)
            messages.extend(EXPECTED[i])
    return out


SEED_STREAMS = streams(list(enumerate(SEED_EXAMPLE)))


def test_seed_example_entry_by_entry():
    assert len(EXPECTED) == len(SEED_EXAMPLE)
    for (sender, _, text), expected in zip(SEED_EXAMPLE, EXPECTED, strict=True):
        assert decode(text.encode(), side_of(sender)) == expected, text


@pytest.mark.parametrize("key", sorted(SEED_STREAMS), ids=str)
def test_seed_example_streams(key):
    texts_, expected = SEED_STREAMS[key]
    side: mmj.Side = "client" if key[0] == "to" else "server"
    wire = "\n".join(texts_).encode()
    assert decode(wire, side) == expected
    reader = Reader(side)
    assert feed_bytewise(reader, wire) == expected
    assert not reader.pending
    # Each message re-encodes to its canonical line, and those read back the same.
    assert decode(b"".join(map(encode, expected)), side) == expected


def mangle(text: str, rnd: random.Random) -> bytes:
    """The same tokens with other whitespace (none at all, too) and random letter case, except in
    counted strings (none of the example's contains whitespace, so splitting finds the tokens)."""
    out = []
    for token in text.split():
        if ":" not in token:
            token = "".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in token)
        out.append(token)
        out.append(rnd.choice(["", " ", "\n", "\t", "\r\n", "  \n\t ", "\v\f"]))
    return rnd.choice(["", "\n", " \r\n"]).encode() + "".join(out).encode()


@pytest.mark.parametrize("seed", range(8))
def test_seed_example_respaced_and_recased(seed):
    rnd = random.Random(seed)
    for (kind, _), (texts_, expected) in SEED_STREAMS.items():
        side: mmj.Side = "client" if kind == "to" else "server"
        wire = b"".join(mangle(t, rnd) for t in texts_)
        assert decode(wire, side) == expected, wire
        assert feed_bytewise(Reader(side), wire) == expected


def test_no_whitespace_at_all():
    assert decode(b"moved6h1d1MOVEDGH4D4claim", "client") == [
        Move(T("d6"), H(1), D(1)), Move(T("dg"), H(4), D(4)), ClaimOffer()]
    assert decode(b"game14:Jean5:Chris3:Pat5:Mouse", "client") == [Game(1, NAMES)]
    assert decode(b"claimd6d6?pass", "server") == [Claim((T("d6"), T("d6"), Q)), Pass()]


def test_seed_typo_9d_is_refused():
    with pytest.raises(MmjError) as raised:
        decode(b"move 9d w059 h2", "client")
    assert raised.value.code == mmj.BAD_TILE


def test_riichi_adapted_example():
    """The example without flowers: every tile is a riichi tile, and maps to Majiang and back."""
    adapted = streams(RIICHI_EXAMPLE)
    assert adapted[("to", 1)][1][-2:] == [Move(T("c4"), W(105), H(1)), Play()]
    for (kind, _), (texts_, expected) in adapted.items():
        assert decode("\n".join(texts_).encode(), "client" if kind == "to" else "server") == expected
        for message in expected:
            for tile in [getattr(message, "tile", None), *getattr(message, "tiles", ())]:
                if tile is not None:
                    assert mmj.majiang_to_mmj(mmj.mmj_to_majiang(tile)) == tile
    # East's discard is the six of dots, Majiang p6; North's the green dragon, z6.
    assert mmj.mmj_to_majiang(adapted[("from", 1)][1][0].tile) == "p6"
    assert mmj.mmj_to_majiang(adapted[("from", 4)][1][-1].tile) == "z6"


# -- malformed input -------------------------------------------------------------------------------

MALFORMED: list[tuple[mmj.Side, bytes, str]] = [
    ("server", b"hello", mmj.UNKNOWN_KEYWORD),
    ("server", b"discrd d6", mmj.UNKNOWN_KEYWORD),
    ("server", b"\xc3\xa9", mmj.UNKNOWN_KEYWORD),
    ("server", b"pass.", mmj.UNKNOWN_KEYWORD),
    ("server", b"move c6 w052 h1", mmj.WRONG_DIRECTION),
    ("server", b"reject 2:no", mmj.WRONG_DIRECTION),
    ("client", b"pass", mmj.WRONG_DIRECTION),
    ("client", b"mmj1c 4:Jean", mmj.WRONG_DIRECTION),
    ("server", b"discard x6", mmj.BAD_TILE),
    ("server", b"discard b0", mmj.BAD_TILE),
    ("server", b"discard dx", mmj.BAD_TILE),
    ("server", b"discard wz", mmj.BAD_TILE),
    ("server", b"discard f5", mmj.BAD_TILE),
    ("server", b"discard d 6", mmj.BAD_TILE),
    ("server", b"claim d6 d6", mmj.TRUNCATED),
    ("client", b"move c6 w136 h1", mmj.BAD_PLACE),
    ("client", b"move c6 w52 h1", mmj.BAD_PLACE),
    ("client", b"move c6 r12 h1", mmj.BAD_PLACE),
    ("client", b"move c6 a10 h1", mmj.BAD_PLACE),  # a1 is the src; then no place starts with "0"
    ("client", b"move c6 h5 h1", mmj.BAD_PLACE),
    ("client", b"move c6 m14 h1", mmj.BAD_PLACE),
    ("client", b"move c6 x h1", mmj.BAD_PLACE),
    ("server", b"mmj1c 123456789:x", mmj.COUNT_TOO_LONG),
    ("server", b"mmj1c 000000004:Jean", mmj.COUNT_TOO_LONG),
    ("server", b"mmj1c 257:", mmj.STRING_TOO_LONG),
    ("server", b"mmj1c 99999999:", mmj.STRING_TOO_LONG),
    ("client", b"reject 513:", mmj.STRING_TOO_LONG),
    ("client", b"reject 513:" + b"x" * 513, mmj.STRING_TOO_LONG),
    ("server", b"chat 1 . 1025:", mmj.STRING_TOO_LONG),
    ("client", b"game 1 65:", mmj.STRING_TOO_LONG),
    ("client", b"win 1 1025:", mmj.STRING_TOO_LONG),
    ("server", b"mmj1c :x", mmj.BAD_COUNT),
    ("server", b"mmj1c x:", mmj.BAD_COUNT),
    ("server", b"mmj1c 4 :Jean", mmj.BAD_COUNT),
    ("server", b"\x00", mmj.NUL),
    ("server", b"pa\x00ss", mmj.NUL),
    ("server", b"mmj1c 3:a\x00b", mmj.NUL),
    ("client", b"win 1 1:x .", mmj.BAD_INTEGER),
    ("client", b"win 1 1:x 1x", mmj.BAD_INTEGER),
    ("client", b"win 1 1:x 12345678901234567.", mmj.INTEGER_TOO_LONG),
    ("client", b"win 1 0: 5.", mmj.BAD_SCORING),
    ("client", b"win 1" + b" 1:x 1." * 65 + b" 0: 65.", mmj.BAD_SCORING),
    ("server", b"chat . 1:x", mmj.NO_DESTINATION),
    ("server", b"chat 5 . 1:x", mmj.BAD_PLAYER),
    ("server", b"chat 12 1:x", mmj.BAD_PLAYER),  # the "." is missing: "1:x" is read as IDs
    ("client", b"chat 0 . 1:x", mmj.BAD_PLAYER),
    ("client", b"game 5 4:Jean", mmj.BAD_PLAYER),
    ("client", b"break 0 6", mmj.BAD_DIE),
    ("client", b"break 4 7", mmj.BAD_DIE),
    ("client", b"break 4. 6.", mmj.BAD_DIE),
    ("client", b"newhand e e s w x", mmj.BAD_WIND),
    ("server", b"mmj1c 10:Jean", mmj.TRUNCATED),
    ("server", b"mmj1", mmj.TRUNCATED),
]


@pytest.mark.parametrize(("side", "wire", "code"), MALFORMED, ids=[repr(w[:24]) for _, w, _ in MALFORMED])
def test_malformed(side, wire, code):
    with pytest.raises(MmjError) as whole:
        decode(wire, side)
    assert whole.value.code == code
    assert whole.value.reason
    # Byte by byte: the same error, met at the same byte.
    reader = Reader(side)
    with pytest.raises(MmjError) as bytewise:
        feed_bytewise(reader, wire)
        reader.eof()
    assert (bytewise.value.code, bytewise.value.offset) == (code, whole.value.offset)


def test_error_offsets_and_earlier_messages():
    reader = Reader("server")
    with pytest.raises(MmjError) as raised:
        reader.feed(b"pass ron\ndiscard q1")
    assert raised.value.code == mmj.BAD_TILE
    assert raised.value.offset == len(b"pass ron\ndiscard ")
    assert raised.value.messages == [Pass(), Ron()]
    assert "at byte 17" in str(raised.value)


def test_errors_are_final():
    reader = Reader("server")
    with pytest.raises(MmjError):
        reader.feed(b"bogus")
    for call in (lambda: reader.feed(b"pass"), reader.eof):
        with pytest.raises(MmjError) as again:
            call()
        assert again.value.code == mmj.UNKNOWN_KEYWORD


def test_count_is_refused_before_its_data_arrives():
    reader = Reader("client")
    with pytest.raises(MmjError) as raised:
        reader.feed(b"reject 99999999:")
    assert raised.value.code == mmj.STRING_TOO_LONG


def test_counted_string_split_across_feeds():
    reader = Reader("server")
    assert reader.feed(b"mmj1c 1") == []
    assert reader.feed(b"1:Jea") == []
    assert reader.pending
    assert reader.feed(b"n-Pierre pa") == [ClientHello(b"Jean-Pierre")]
    assert reader.feed(b"ss") == [Pass()]
    assert not reader.pending
    reader.eof()


def test_counted_string_data_is_verbatim():
    # Whitespace, keywords, digits and case inside DATA are data.
    assert decode(b"chat 1 . 21:PASS\r\n 3:x move c6 . ", "server") == [ChatTo((1,), b"PASS\r\n 3:x move c6 . ")]


def test_limits_are_inclusive():
    assert decode(b"reject 512:" + b"x" * 512, "client") == [Reject(b"x" * 512)]
    assert decode(b"mmj1c 00000256:" + b"n" * 256, "server") == [ClientHello(b"n" * 256)]
    assert decode(b"win 1 1:x 9999999999999999. 0: 0000000000000001.", "client") == [
        Win(1, (ScoreLine(b"x", 10**16 - 1),), 1)]


def test_trailing_whitespace_is_not_a_message():
    reader = Reader("server")
    assert reader.feed(b"pass \n\t ") == [Pass()]
    assert not reader.pending
    reader.eof()
    assert reader.offset == len(b"pass \n\t ")


@pytest.mark.parametrize(("build", "code"), [
    (lambda: Tile("b0"), mmj.BAD_TILE),
    (lambda: Tile("9d"), mmj.BAD_TILE),
    (lambda: Place("w", 136), mmj.BAD_PLACE),
    (lambda: Place("h"), mmj.BAD_PLACE),
    (lambda: Place("k", 1), mmj.BAD_PLACE),
    (lambda: Place.meld(1, 4), mmj.BAD_PLACE),
    (lambda: Place.parse("w52"), mmj.BAD_PLACE),
    (lambda: Place.parse("h1 "), mmj.BAD_PLACE),
    (lambda: Reject(b"x" * 513), mmj.STRING_TOO_LONG),
    (lambda: ClientHello(b"n" * 257), mmj.STRING_TOO_LONG),
    (lambda: Game(1, (b"x" * 65, b"", b"", b"")), mmj.STRING_TOO_LONG),
    (lambda: Game(1, (b"a", b"b", b"c")), mmj.BAD_VALUE),
    (lambda: ClientHello("Jean"), mmj.BAD_VALUE),
    (lambda: ChatTo((), b"x"), mmj.NO_DESTINATION),
    (lambda: ChatTo((1,), b"a\0b"), mmj.NUL),
    (lambda: ChatFrom(5, (), b""), mmj.BAD_PLAYER),
    (lambda: Break(0, 1), mmj.BAD_DIE),
    (lambda: NewHand("x", ("e", "s", "w", "n")), mmj.BAD_WIND),
    (lambda: Win(1, (), 0), mmj.BAD_SCORING),
    (lambda: ScoreLine(b"", 5), mmj.BAD_SCORING),
    (lambda: ScoreLine(b"x", -1), mmj.BAD_INTEGER),
    (lambda: Discard("d6"), mmj.BAD_VALUE),
])
def test_invalid_messages_cannot_be_built(build, code):
    with pytest.raises(MmjError) as raised:
        build()
    assert raised.value.code == code


def test_values_normalise_case():
    assert Tile("Dr") == Tile("dr") and str(Tile("WE")) == "we"
    assert Place.parse("M31") == Place.meld(3, 1) and str(Place.parse("W007")) == "w007"
    assert NewHand("E", ("E", "s", "W", "n")).seat_winds == ("e", "s", "w", "n")
    with pytest.raises(TypeError):
        encode("pass")  # type: ignore[arg-type]


# -- riichi tiles -----------------------------------------------------------------------------------------

MAJIANG = ([(f"m{n}", f"c{n}") for n in range(1, 10)] + [(f"p{n}", f"d{n}") for n in range(1, 10)]
           + [(f"s{n}", f"b{n}") for n in range(1, 10)]
           + [("z1", "we"), ("z2", "ws"), ("z3", "ww"), ("z4", "wn"), ("z5", "dw"), ("z6", "dg"), ("z7", "dr"),
              ("", "?")])


@pytest.mark.parametrize(("majiang", "tile"), MAJIANG)
def test_majiang_tiles_both_ways(majiang, tile):
    assert mmj.majiang_to_mmj(majiang) == Tile(tile)
    assert mmj.mmj_to_majiang(Tile(tile)) == majiang


def test_red_fives_are_plain_fives_on_the_wire():
    for majiang, tile in (("m0", "c5"), ("p0", "d5"), ("s0", "b5")):
        assert mmj.majiang_to_mmj(majiang) == Tile(tile)
        assert mmj.mmj_to_majiang(Tile(tile)) == majiang[0] + "5"
        assert mmj.mmj_to_majiang(Tile(tile), red=True) == majiang
    with pytest.raises(MmjError) as raised:
        mmj.mmj_to_majiang(Tile("c6"), red=True)
    assert raised.value.code == mmj.BAD_TILE


def test_haku_and_flowers():
    assert mmj.mmj_to_majiang(Tile("h")) == "z5"
    for tile in ("f1", "s4"):
        with pytest.raises(MmjError) as raised:
            mmj.mmj_to_majiang(Tile(tile))
        assert raised.value.code == mmj.NO_RIICHI_TILE


@pytest.mark.parametrize("majiang", ["m5_", "z8", "z0", "x1", "m", "M5", "m10", "5m"])
def test_bad_majiang_tiles(majiang):
    with pytest.raises(MmjError) as raised:
        mmj.majiang_to_mmj(majiang)
    assert raised.value.code == mmj.BAD_TILE
