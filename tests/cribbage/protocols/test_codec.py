"""The CRIBBAGEBBER codec without a server: every client line parsed, every server line rendered,
line framing (the NUL rule), and whole games rendered per seat from the pure engine."""

from __future__ import annotations

import re

import pytest

from games.core.engine import Mode
from games.cribbage.engine.game import CribbageGame
from games.cribbage.protocols import cribbagebber as codec
from games.cribbage.protocols.cribbagebber import CardRef, Command, Malformed, SeatRenderer, parse
from games.cribbage.transport.framing import MAX_LINE_BYTES, Breach, LineReader, encode_line, frame_to_line
from tests.cribbage.transport.peer import CARD, split

# ------------------------------------------------------------------------------------ client lines


@pytest.mark.parametrize(("line", "command"), [
    ("IM:alice", Command("IM", nickname="alice")),
    ("IM:alice/9944b0", Command("IM", nickname="alice", token="9944b0")),
    ("NP:2/", Command("NP", players=2)),
    ("NP:3", Command("NP", players=3)),
    ("NP:4/DM", Command("NP", players=4, variants="DM")),
    ("YE:", Command("YE")),
    ("NO:", Command("NO")),
    ("CR:14", Command("CR", cards=(CardRef(1), CardRef(4)))),
    ("CR:1AH40H", Command("CR", cards=(CardRef(1, "AH"), CardRef(4, "0H")))),
    ("CR:6", Command("CR", cards=(CardRef(6),))),
    ("PL:3", Command("PL", cards=(CardRef(3),))),
    ("PL:3KS/2", Command("PL", cards=(CardRef(3, "KS"),), points=2)),
    ("CN:12", Command("CN", points=12)),
    ("AG:", Command("AG")),
    ("MU:bob/8", Command("MU", nickname="bob", points=8)),
    ("MU:8", Command("MU", points=8)),
    ("PA:", Command("PA")),
    ("UP:", Command("UP")),
    ("ME:hello / there: ok", Command("ME", text="hello / there: ok")),
    ("ME:", Command("ME", text="")),
    ("EJ:bob", Command("EJ", nickname="bob")),
    ("N:", Command("N")),
    ("QU:", Command("QU")),
    ("AG: ", Command("AG")),
])
def test_every_client_line_parses(line, command):
    assert parse(line) == command


@pytest.mark.parametrize("line", [
    "", "hello", "XX:1", "im:alice", "IM:", "IM:a/b/c", "IM:two words", "NP:", "NP:x/D", "NP:2/DX", "NP:2/DD",
    "CR:", "CR:7", "CR:123", "CR:1AX", "CR:AH", "PL:", "PL:12", "PL:1/x", "CN:", "CN:-1", "CN:1234", "MU:",
    "MU:bob/", "MU:/3", "YE:yes", "AG:1", "EJ:", "N:now", "QU:bye", "PA:x", "ME:a\nb", "PL:1\r",
])
def test_malformed_lines(line):
    with pytest.raises(Malformed):
        parse(line)


def test_variants_map_to_rules_and_back():
    assert codec.rules_for("") == {"counting": "auto", "variants": ""}
    assert codec.rules_for("DM") == {"counting": "manual", "variants": "D"}
    assert codec.rules_for("N") == {"counting": "auto", "variants": "N"}
    with pytest.raises(ValueError):
        codec.rules_for("DN")
    for variants in ("", "D", "N", "M", "DM", "NM"):
        assert codec.variants_of(codec.rules_for(variants)) == variants
    assert codec.setup_line(4, codec.rules_for("MN")) == "NP:4/NM"


def test_card_numbers_name_cards_of_the_dealt_hand():
    dealt = ["AH", "0D", "KS", "5C", "5H", "JD"]
    refs = parse("CR:25JD").cards
    assert refs == (CardRef(2), CardRef(5, "JD"))
    with pytest.raises(ValueError, match="not 5JD"):
        codec.engine_cards(refs, dealt)
    assert codec.engine_cards(parse("CR:26JD").cards, dealt) == ["0D", "JD"]
    with pytest.raises(ValueError, match="dealt 5 cards"):
        codec.engine_cards(parse("PL:6").cards, dealt[:5])


# ------------------------------------------------------------------------------------ framing


def test_frames_are_single_lines_and_nul_is_a_breach():
    assert frame_to_line("AG:") == "AG:"
    assert frame_to_line("AG:\n") == "AG:"
    assert frame_to_line("AG:\r\n") == "AG:"
    with pytest.raises(Malformed):
        parse(frame_to_line("AG:\nAG:"))
    for bad in ("ME:a\x00b", "\x00", None, "ME:" + "x" * MAX_LINE_BYTES):
        with pytest.raises(Breach):
            frame_to_line(bad)
    # 500 four-byte characters are a legal chat line.
    assert parse(frame_to_line("ME:" + "\U0001f0a1" * 500)).text == "\U0001f0a1" * 500


def test_tcp_lines_split_across_reads():
    reader = LineReader(MAX_LINE_BYTES)
    assert reader.feed(b"IM:al") == []
    assert reader.feed(b"ice\r\nAG:\nME:caf\xc3") == ["IM:alice", "AG:"]
    assert reader.feed(b"\xa9\n") == ["ME:caf\u00e9"]
    assert encode_line("WE:alice") == b"WE:alice\n"
    with pytest.raises(Breach, match="NUL"):
        LineReader(MAX_LINE_BYTES).feed(b"AG:\x00\n")
    with pytest.raises(Breach, match="UTF-8"):
        LineReader(MAX_LINE_BYTES).feed(b"ME:\xff\n")
    with pytest.raises(Breach, match="over"):
        LineReader(MAX_LINE_BYTES).feed(b"ME:" + b"x" * MAX_LINE_BYTES)  # no newline yet, and already too long
    # The longest line, CRLF-terminated, with a read ending between its CR and LF (found by the fuzz
    # suite): the CR is the terminator's, so the line is not too long.
    longest = b"ME:" + b"x" * (MAX_LINE_BYTES - 3)
    reader = LineReader(MAX_LINE_BYTES)
    assert reader.feed(longest + b"\r") == []
    assert reader.feed(b"\n") == [longest.decode()]
    with pytest.raises(Breach, match="over"):
        LineReader(MAX_LINE_BYTES).feed(longest + b"x\r")


# ------------------------------------------------------------------------------------ server lines


def test_table_lines():
    assert codec.protocol_line() == "P:0.1/DNM"
    assert codec.welcome("alice", True) == "CO:alice"
    assert codec.welcome("bob", False) == "WE:bob"
    assert codec.waiting(2) == "UD:WAITING/2"
    assert codec.wrong_phase(codec.HAND_SETUP) == "WA: WRONGPHASE (HAND SETUP)"
    assert codec.warning("BADPLAY", "KS would take\nthe count past 31") == "WA:BADPLAY(KS would take the count past 31)"
    assert codec.chat("bob", "two\r\nlines\x00") == "ME:bob/two lines "
    assert codec.notice("EJ", "bob") == "EJ:bob"
    assert codec.fatal("GAME") == "E:GAME"
    assert codec.BRUTE == "E: You Brute!"


def _msg(kind, player, *params):
    message = {"type": kind, "params": list(params)}
    if player is not None:
        message["player"] = player
    return message


def test_each_event_renders_for_a_seat():
    r = SeatRenderer(1, ["ann", "bob"], 2, manual=False)
    lines = r.feed([
        _msg("Deal", 0, 0, [None] * 6),
        _msg("Deal", 0, 1, ["AH", "0D", "KS", "5C", "5H", "JD"]),
        _msg("Discarded", 0, [None, None]),
        _msg("Discarded", 1, ["AH", "KS"]),
        _msg("Starter", 0, "JC"),
        _msg("HisHeels", 0, 2, 2),
        _msg("Active", 1),
        _msg("Played", 1, "5C", 0, 0, 5, []),
        _msg("Played", 0, "0H", 2, 4, 15, [["fifteen", 2, ["5C", "0H"]]]),
        _msg("Go", 1),
        _msg("GoPoint", 0, 1, 5, "go"),
        _msg("CountReset", None),
        _msg("Show", 1, "hand", ["0D", "5C", "5H", "JD"], "JC"),
        _msg("Counted", 1, 12, 12, [["fifteen", 2, ["5C", "0D"]]] * 6),
        _msg("Show", 0, "crib", ["AH", "KS", "2C", "3C"], "JC"),
        _msg("Paused", 0), _msg("Unpaused", 1),
        _msg("GameOver", 1, [80, 121], 41, "double skunk"),
    ])
    assert lines == [
        "SE:2;ann/bob;1AH20D3KS45C55H6JD;ann",
        "UD:ann", "DI:13", "UD:bob",
        "TO:0JC",
        "PE:ann/2/2", "SC:ann/2/two for his heels",
        "AC:bob",
        "PL:bob/45C/0/5",
        "PL:ann/00H/4/15", "SC:ann/2/fifteen two",
        "GO:bob",
        "PE:ann/1/5", "SC:ann/1/one for go",
        "RS:",
        "H:bob/20D45C55H6JD/0JC",
        "CN:bob/12/12",
        "SC:bob/12/fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve",
        "H:ann/1AH3KS02C03C/0JC/CRIB",
        "PA:ann", "UP:bob",
        "EG:bob/41/DOUBLESKUNK/80/121",
    ]
    assert r.size == 18


def test_manual_counting_claims_reviews_and_muggins():
    r = SeatRenderer(0, ["ann", "bob", "cat"], 3, manual=True)
    r.feed([_msg("Deal", 0, 0, ["AH", "2H", "3H", "4H", "5H"])])
    # The last card's claim: the engine announces the table's review of it.
    assert r.feed([_msg("Played", 2, "6H", 3, 40, 30, []), _msg("Review", 2, "play", 3)]) == [
        "PL:cat/06H/40/30", "RE:cat/3"]
    # A count's review needs no RE: line: CN: already asks for AG:.
    assert r.feed([_msg("Review", 1, "hand", 4)]) == []
    # In one batch (a history replay) the prompt comes before the first answer to it.
    assert r.feed([
        _msg("Played", 2, "6H", 3, 40, 30, []),
        _msg("Review", 2, "play", 3),
        _msg("Agreed", 0),
        _msg("Muggins", 1, 2, 3, 5),
        _msg("Vote", 0, True), _msg("Vote", 2, False),
        _msg("MugginsResult", 1, False, 40, 10),
        _msg("Settled", 2, "play", 3, 5, [["run", 5, ["2H", "3H", "4H", "5H", "6H"]]]),
        _msg("Show", 1, "hand", ["7C", "8C", "9C", "0C"], "KD"),
        _msg("Counted", 1, 4, 14, []),
        _msg("Settled", 1, "hand", 4, 4, [["run", 4, ["7C", "8C", "9C", "0C"]]]),
    ]) == [
        "PL:cat/06H/40/30", "RE:cat/3", "AG:ann",
        "MU:bob/cat/5", "M:bob/5", "YE:ann", "NO:cat", "MR:NO/bob/10/cat/40",
        "SC:cat/5/a run of five is five",
        "H:bob/07C08C09C00C/0KD", "CN:bob/4/14", "SC:bob/4/a run of four is four",
    ]
    # A claim that is settled straight away (the game ended on it) asks nobody.
    assert r.feed([_msg("Played", 2, "6H", 3, 121, 30, []), _msg("Settled", 2, "play", 3, 3, []),
                   _msg("GameOver", 2, [100, 90, 121], 21, "")]) == [
        "PL:cat/06H/121/30", "SC:cat/3/nothing", "EG:cat/21/NONE/100/90/121"]


# ------------------------------------------------------------------------------------ whole games


def _play_out(mode: int, rules: dict, seed: int) -> list:
    game = CribbageGame.create(mode=Mode(mode, "", mode, 2 if mode == 4 else 0), seed=seed, rules=rules)
    history = []
    for seat, kind, params in game.initial_actions():
        history += game.apply(seat, kind, params)
    while not game.is_over:
        seat = game.to_act()[0]
        history += game.apply(seat, *game.auto_action(seat))
    return history


@pytest.mark.parametrize("mode", [2, 3, 4])
@pytest.mark.parametrize("counting", ["auto", "manual"])
def test_whole_games_render_without_revealing_hidden_cards(mode, counting):
    history = _play_out(mode, {"counting": counting}, seed=mode * 7 + len(counting))
    names = ["ann", "bob", "cat", "dan"][:mode]
    for seat in range(mode):
        renderer = SeatRenderer(seat, names, mode, counting == "manual")
        lines = renderer.feed([event.render(seat) for event in history])
        assert renderer.size == len(history)
        own: set[str] = set()
        public: set[str] = set()
        for line in lines:
            code, fields = split(line)
            if code == "SE":
                own = {card[1:] for card in re.findall(CARD, fields[2])}
                public = set()
            elif code in ("TO", "PL", "H"):
                public |= {card[1:] for field in fields for card in re.findall(CARD, field)}
            for card in re.findall(CARD, line):
                assert card[1:] in own | public, (seat, line)
                assert (card[0] != "0") == (card[1:] in own), (seat, line)  # numbered iff the seat's own
        assert lines[-1].startswith("EG:")
        assert sum(line.startswith("SE:") for line in lines) == sum(e.type == "Deal" for e in history) // mode
