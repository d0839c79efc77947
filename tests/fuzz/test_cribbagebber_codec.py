"""The CRIBBAGEBBER codec and framing (games/cribbage/protocols/) on generated lines and bytes.

- ``parse`` turns any line a transport can deliver (valid Unicode text) into a ``Command`` or
  raises ``Malformed``, nothing else; what it returns obeys the grammar of
  docs/protocols/cribbage.md; a well-formed command written out parses back to itself.
- ``frame_to_line`` (WebSocket) returns a line or raises ``Breach``: for a NUL or an over-long
  line, and only then.
- ``LineReader`` (TCP) splits any byte stream, cut into reads anywhere, into the same lines as
  the stream read whole, or raises ``Breach`` (NUL, bytes that are not UTF-8, a line over the
  limit), nothing else.
- Server lines built from any text (chat, refusal reasons) stay one line: no NUL, CR or LF.
"""

from __future__ import annotations

import re

from hypothesis import given, note
from hypothesis import strategies as st

from games.cribbage.protocols import cribbagebber as codec
from games.cribbage.protocols.cribbagebber import CardRef, Command, Malformed, parse
from games.cribbage.transport.framing import MAX_LINE_BYTES, Breach, LineReader, encode_line, frame_to_line
from tests.fuzz.strategies import lines, weighted
from tests.fuzz.support import World, bounded

WORLD = World(values={"nick": "ann", "other_nick": "bob", "token": "a1b2c3", "other_token": "d4e5f6"})
NICK_FORBIDDEN = set("/:; \t")
RANK_SUIT = re.compile(r"[A2-9JQK0][HDCS]")

# Text a transport can deliver: a WebSocket text frame and a TCP line are valid UTF-8.
text = st.text(st.characters(exclude_categories=["Cs"]), max_size=60)
grammar_lines = lines.map(lambda pieces: WORLD.text(list(pieces)))
any_line = st.one_of(text, grammar_lines, grammar_lines, st.builds(lambda c, t: f"{c}:{t}", st.sampled_from(
    sorted(codec.REFUSAL.keys() | {"QU"})), text))


def check_command(line: str, command: Command) -> None:
    """What a parsed command may hold, by docs/protocols/cribbage.md."""
    assert "\n" not in line and "\r" not in line, line
    assert command.code in codec.REFUSAL.keys() | {"QU"}, command
    assert line.startswith(command.code + ":"), (line, command)
    if command.nickname is not None:
        assert 1 <= len(command.nickname.encode()) <= codec.MAX_NICKNAME_BYTES, command
        assert not NICK_FORBIDDEN & set(command.nickname), command
    if command.token is not None:
        assert command.code == "IM" and command.token.isalnum(), command
    if command.code == "NP":
        assert isinstance(command.players, int) and 0 <= command.players <= 999, command
        assert set(command.variants) <= set(codec.VARIANTS) and len(set(command.variants)) == len(command.variants)
    if command.code in ("CR", "PL"):
        assert 1 <= len(command.cards) <= (2 if command.code == "CR" else 1), command
        for ref in command.cards:
            assert 1 <= ref.number <= 6 and (ref.card is None or RANK_SUIT.fullmatch(ref.card)), command
    else:
        assert command.cards == (), command
    if command.points is not None:
        assert 0 <= command.points <= 999, command
    if command.code == "ME":
        assert command.text == line[3:], command
    if command.code in ("CN", "MU"):
        assert command.points is not None, command


@bounded(1500)
@given(line=any_line)
def test_parse_returns_a_command_or_raises_malformed(line):
    note(f"line: {line!r}")
    try:
        command = parse(line)
    except Malformed as refused:
        assert isinstance(refused.reason, str) and refused.reason
        return
    check_command(line, command)


nicknames = st.text(st.characters(exclude_categories=["Cs", "Z", "Cc"], exclude_characters="/:;"), min_size=1,
                    max_size=16).filter(lambda n: len(n.encode()) <= codec.MAX_NICKNAME_BYTES)
points = st.integers(0, 999)
refs = st.builds(CardRef, st.integers(1, 6), st.none() | st.from_regex(RANK_SUIT, fullmatch=True))


def _cards(cards: tuple[CardRef, ...]) -> str:
    return "".join(f"{r.number}{r.card or ''}" for r in cards)


def written(command: Command) -> str:
    """A command as a client writes it."""
    code = command.code
    if code == "IM":
        return f"IM:{command.nickname}" + (f"/{command.token}" if command.token else "")
    if code == "NP":
        return f"NP:{command.players}/{command.variants}"
    if code == "CR":
        return "CR:" + _cards(command.cards)
    if code == "PL":
        return "PL:" + _cards(command.cards) + (f"/{command.points}" if command.points is not None else "")
    if code == "CN":
        return f"CN:{command.points}"
    if code == "MU":
        return "MU:" + (f"{command.nickname}/" if command.nickname else "") + str(command.points)
    if code == "ME":
        return f"ME:{command.text}"
    if code == "EJ":
        return f"EJ:{command.nickname}"
    return f"{code}:"


commands = st.one_of(
    st.builds(Command, st.just("IM"), nickname=nicknames,
              token=st.none() | st.text(st.sampled_from("abcdef0123456789"), min_size=1, max_size=64)),
    st.builds(Command, st.just("NP"), players=points,
              variants=st.permutations("DNM").flatmap(lambda p: st.integers(0, 3).map(lambda n: "".join(p[:n])))),
    st.builds(Command, st.just("CR"), cards=st.lists(refs, min_size=1, max_size=2).map(tuple)),
    st.builds(Command, st.just("PL"), cards=refs.map(lambda r: (r,)), points=st.none() | points),
    st.builds(Command, st.just("CN"), points=points),
    st.builds(Command, st.just("MU"), nickname=st.none() | nicknames, points=points),
    st.builds(Command, st.just("ME"), text=st.text(st.characters(exclude_categories=["Cs"],
                                                                  exclude_characters="\n\r"), max_size=50)),
    st.builds(Command, st.just("EJ"), nickname=nicknames),
    st.sampled_from(["YE", "NO", "AG", "PA", "UP", "N", "QU"]).map(Command),
)


@bounded(500)
@given(command=commands, pad=st.sampled_from(["", " ", "  "]))
def test_well_formed_commands_parse_back(command, pad):
    note(f"command: {command!r}, pad: {pad!r}")
    line = written(command)
    assert parse(line) == command
    if command.code not in ("ME", "IM"):  # spaces around arguments are ignored (not in chat)
        code, _, rest = line.partition(":")
        assert parse(f"{code}:{pad}{rest}{pad}") == command


@bounded(500)
@given(frame=st.one_of(text, grammar_lines, st.builds(lambda t, e: t + e, grammar_lines,
                                                      st.sampled_from(["\n", "\r\n", "\x00", "\n\n", "\r"])),
                       st.builds(lambda c, n: "ME:" + c * n, st.sampled_from(["x", "é", "\U0001f600"]),
                                 st.integers(490, 1100))) | st.none())
def test_a_frame_is_a_line_or_a_breach(frame):
    note(f"frame: {frame!r}")
    try:
        line = frame_to_line(frame)
    except Breach:
        assert frame is None or "\x00" in frame or len(frame.encode()) > MAX_LINE_BYTES, repr(frame)[:200]
        return
    assert frame is not None and "\x00" not in frame and len(frame.encode()) <= MAX_LINE_BYTES
    # One terminator comes off; a line break left inside is a malformed line (parse says so).
    assert frame in (line, line + "\n", line + "\r", line + "\r\n"), (frame, line)


# -- TCP: a stream of bytes, cut anywhere -------------------------------------------------------------------

stream_pieces = weighted(
    (2, grammar_lines.map(lambda t: t.encode() + b"\n")),
    (2, grammar_lines.map(lambda t: t.encode() + b"\r\n")),
    (1, st.binary(max_size=12)),
    (1, st.sampled_from([b"\n", b"\r", b"\r\n", b"\xff", b"\xc3", b"\xa9", b"\xed\xa0\x80", b"\x00",
                         b"\xf0\x9f\x98\x80"])),
    # Lines at the length limit (a chat of 500 four-byte characters is one), either side of it.
    (2, st.builds(lambda c, n, end: b"ME:" + c * n + end, st.sampled_from([b"x", "\U0001f600".encode()]),
                  st.sampled_from([MAX_LINE_BYTES // 4 - 1, MAX_LINE_BYTES // 4, MAX_LINE_BYTES - 4,
                                   MAX_LINE_BYTES - 3, MAX_LINE_BYTES - 2]),
                  st.sampled_from([b"\n", b"\r\n", b""]))),
)


def read_whole(data: bytes) -> list[str] | Breach:
    try:
        return LineReader(MAX_LINE_BYTES).feed(data)
    except Breach as breach:
        return breach


def expected_lines(data: bytes) -> list[str] | None:
    """The lines of a stream by the framing rules, or None if it is a breach."""
    if b"\x00" in data:
        return None
    *complete, rest = data.split(b"\n")
    # Unfinished, a line may end with the CR of its terminator.
    if len(rest) - rest.endswith(b"\r") > MAX_LINE_BYTES:
        return None
    out = []
    for raw in complete:
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        if len(raw) > MAX_LINE_BYTES:
            return None
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return None
    return out


@bounded(800)
@given(pieces=st.lists(stream_pieces, max_size=8), choices=st.data())
def test_a_tcp_stream_cut_anywhere_reads_as_a_whole(pieces, choices):
    data = b"".join(pieces)
    note(f"stream: {data!r}")
    expected = expected_lines(data)
    whole = read_whole(data)
    assert (expected is None) == isinstance(whole, Breach), (data[:120], whole)
    if expected is not None:
        assert whole == expected
    # Reads end anywhere; where a line ends (between its CR and LF, say) is where framing slips.
    edges = sorted({i + 1 for i, byte in enumerate(data) if byte in b"\r\n"} | {0, len(data)})
    points = sorted(set(choices.draw(st.lists(weighted((3, st.sampled_from(edges)), (1, st.integers(0, len(data)))),
                                              max_size=6), label="cuts")))
    reader = LineReader(MAX_LINE_BYTES)
    got: list[str] = []
    try:
        for start, end in zip([0, *points], [*points, len(data)]):
            got += reader.feed(data[start:end])
    except Breach:
        # Cut into reads, a stream may meet its breach sooner (a NUL or an over-long line in a
        # read is refused before the lines after it), never when it has none.
        assert expected is None, (
            f"a stream with no breach was refused when cut at {points}: {data[:80]!r}... ({len(data)} bytes)")
        return
    assert expected is not None, f"a breach went unnoticed when cut at {points}: {data[:120]!r}"
    assert got == expected
    for line in got:
        assert "\n" not in line and "\x00" not in line and not line.endswith("\r")


def test_a_line_at_the_limit_ended_by_crlf_survives_a_read_between_cr_and_lf():
    """Found by the test above, kept as a plain case: a legal line of the greatest length (a chat of
    500 four-byte characters is one), ended with CRLF, read with the CR in one read and the LF in
    the next (the reader took the unfinished line with its CR for a line over the limit)."""
    line = b"ME:" + b"x" * (MAX_LINE_BYTES - 3)
    assert LineReader(MAX_LINE_BYTES).feed(line + b"\r\n") == [line.decode()]  # read at once: fine
    reader = LineReader(MAX_LINE_BYTES)
    assert reader.feed(line + b"\r") == []
    assert reader.feed(b"\n") == [line.decode()]


# -- server lines -------------------------------------------------------------------------------------------


@bounded(300)
@given(nickname=nicknames, words=st.text(st.characters(exclude_categories=["Cs"]), max_size=600))
def test_server_lines_built_from_any_text_are_one_line(nickname, words):
    note(f"nickname: {nickname!r}, text: {words!r}")
    for line in (codec.chat(nickname, words), codec.warning("BADMSG", words), codec.malformed(words),
                 codec.notice("QU", nickname), codec.welcome(nickname, True), codec.fatal("GAME")):
        assert not {"\x00", "\r", "\n"} & set(line), repr(line)
        encoded = encode_line(line)
        assert encoded.endswith(b"\n") and encoded.count(b"\n") == 1
