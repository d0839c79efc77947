"""The reference mmj terminal's pure part (games/riichi/clients/mmj_terminal.py): the 19 places rebuilt
from the moves (docs/protocols/mmj.md's conventions, the seed's worked example adapted to them),
the errors that prove a stream inconsistent, the bot's answers and fallbacks after rejects, and the
commands a person types. Server streams are written in wire text and read with the codec."""

from __future__ import annotations

import pytest

from games.riichi.clients.mmj_terminal import (
    Offer,
    PlaceError,
    Places,
    Terminal,
    Typed,
    TypedError,
    parse_command,
)
from games.riichi.engine.shoupai import Shoupai
from games.riichi.engine.xiangting import xiangting
from games.riichi.protocols import mmj
from games.riichi.protocols.mmj import (
    Ack,
    ChatTo,
    Ckong,
    Claim,
    ClientMessage,
    Discard,
    Out,
    Pass,
    Pkong,
    Riichi,
    Ron,
    Tile,
)

U = mmj.UNKNOWN


def T(code: str) -> Tile:
    return Tile(code)


def wire(text: str) -> list[mmj.Message]:
    return mmj.decode(text.encode(), "client")


def wall_build() -> list[str]:
    """The 136 hidden moves after ``break``: live wall, replacement tiles, dora wall."""
    return ([f"move ? k w{i:03d}" for i in range(122)] + [f"move ? k r{i:02d}" for i in range(4)]
            + [f"move ? k a{i}" for i in range(10)])


def deal(you: int, hand: str, dealer: int = 1) -> list[str]:
    """w000..w051 dealt four each from the dealer round three times, then one each; ``you`` sees
    its own 13 tiles (in ``hand``'s order), the others' as ``?``."""
    tiles = iter(hand.split())
    out, position = [], 0
    for n in (4, 4, 4, 1):
        for k in range(4):
            player = (dealer - 1 + k) % 4 + 1
            for _ in range(n):
                out.append(f"move {next(tiles) if player == you else '?'} w{position:03d} h{player}")
                position += 1
    return out


def opening(you: int, hand: str, *, dora: str = "c3") -> str:
    return "\n".join(["mmj1s", f"game {you} 5:alice 3:bob 5:carol 4:dave", "newhand e e s w n", "break 3 4",
                      *wall_build(), *deal(you, hand), f"move {dora} a0 a0"])


def feed(terminal: Terminal, text: str) -> list[ClientMessage]:
    answers: list[ClientMessage] = []
    for message in wire(text):
        answers += terminal.feed(message)  # type: ignore[arg-type]
    return answers


def seated(you: int, hand: str, *, greedy: bool = False, bot: bool = True) -> Terminal:
    terminal = Terminal(bot=bot, greedy=greedy)
    assert feed(terminal, opening(you, hand)) == []
    return terminal


def moves(places: Places, text: str) -> None:
    for m in wire(text):
        assert isinstance(m, mmj.Move)
        places.move(m.tile, m.src, m.dst)


# -- Places ------------------------------------------------------------------------------------


def test_newhand_puts_every_tile_hidden_in_the_deck():
    places = Places()
    assert places.snapshot() == {"k": ["?"] * 136}
    assert places.total == 136 and places.wall_left == 0
    assert places["h1"] == [] and "h1" not in places and "k" in places
    moves(places, "\n".join(wall_build()[:5]))
    places.reset()
    assert places.snapshot() == {"k": ["?"] * 136}


def test_the_wall_is_built_from_the_deck_in_draw_order():
    places = Places()
    moves(places, "\n".join(wall_build()))
    counts = places.counts()
    assert "k" not in counts
    assert [name for name in counts if name[0] == "w"] == [f"w{i:03d}" for i in range(122)]
    assert [name for name in counts if name[0] == "r"] == ["r00", "r01", "r02", "r03"]
    assert [name for name in counts if name[0] == "a"] == [f"a{i}" for i in range(10)]
    assert set(counts.values()) == {1} and places.wall_left == 122 and places.total == 136


# The seed's worked example, as this server plays it (player 1 East; w000..w051 dealt, the first
# dora at a0, the first draw w052; no flowers): East discards the six of dots, North pons it with
# two from its hand and discards the green dragon, East draws the next wall tile.
EAST = "c6 d6 b6 d2 c1 c2 c3 c7 c8 c9 d7 d8 b1"
NORTH = "b5 d8 d3 b8 b2 b3 d6 d6 c4 c4 dg ws wn"
EXAMPLE = """
move dg a0 a0
move {draw1} w052 h1
move d6 h1 d1
move d6 d1 m40 move d6 h4 m40 move d6 h4 m40
move dg h4 d4
move {draw2} w053 h1
"""


def test_the_seeds_example_seen_by_east():
    places = Places()
    moves(places, "\n".join(wall_build() + deal(1, EAST)))
    assert places.count("h1") == 13 and places.wall_left == 70
    moves(places, EXAMPLE.format(draw1="c4", draw2="b9"))
    snap = places.snapshot()
    assert snap["a0"] == ["dg"]
    assert snap["h1"] == ["c1", "c2", "c3", "c4", "c6", "c7", "c8", "c9", "d2", "d7", "d8", "b1", "b6", "b9"]
    assert "d1" not in snap  # the pon took East's only discard
    assert snap["m40"] == ["d6", "d6", "d6"]
    assert snap["h4"] == ["?"] * 10 and snap["d4"] == ["dg"]
    assert places.wall_left == 122 - 52 - 2 and places.total == 136


def test_the_seeds_example_seen_by_north_and_by_south():
    north = Places()
    moves(north, "\n".join(wall_build() + deal(4, NORTH)))
    moves(north, EXAMPLE.format(draw1="?", draw2="?"))
    assert north.snapshot()["h4"] == ["c4", "c4", "d3", "d8", "b2", "b3", "b5", "b8", "ws", "wn"]
    assert north["m40"] == [T("d6")] * 3 and north["h1"] == [U] * 14
    south = Places()
    moves(south, "\n".join(wall_build() + deal(2, EAST)))
    moves(south, EXAMPLE.format(draw1="?", draw2="?"))
    # The pon's hand tiles are shown to all: South takes two hidden tiles out of North's hand.
    snap = south.snapshot()
    assert snap["m40"] == ["d6", "d6", "d6"] and snap["d4"] == ["dg"] and snap["h4"] == ["?"] * 10
    assert snap["h1"] == ["?"] * 14 and len(snap["h2"]) == 13 and "?" not in snap["h2"]


def test_discards_keep_their_order_hands_are_sorted():
    places = Places()
    moves(places, "\n".join(wall_build() + deal(1, EAST)) + "\nmove b1 h1 d1 move c9 h1 d1 move c1 h1 d1")
    snap = places.snapshot()
    assert snap["d1"] == ["b1", "c9", "c1"]
    assert snap["h1"] == sorted(snap["h1"], key=lambda c: ["c", "d", "b"].index(c[0]) * 10 + int(c[1]))


def test_moves_the_places_cannot_hold_are_errors_and_change_nothing():
    places = Places()
    with pytest.raises(PlaceError, match="w000 is empty"):
        places.move(U, "w000", "h1")  # the wall is not built yet
    moves(places, "\n".join(wall_build() + deal(1, EAST)))
    before = places.snapshot()
    with pytest.raises(PlaceError, match="no d9"):
        places.move(T("d9"), "h1", "d1")  # East sees its whole hand: no d9 there
    with pytest.raises(PlaceError):
        places.move(T("c1"), "d1", "m10")  # an empty river
    places.move(T("d9"), "a0", "a0")  # the first dora turned ...
    places.move(T("d9"), "a0", "a0")  # ... and turned again (as a win reveals a hand seen already)
    with pytest.raises(PlaceError, match="nothing hidden"):
        places.move(T("c5"), "a0", "a0")  # ... but it is no c5
    with pytest.raises(PlaceError):
        places.move(U, "m10", "m10")  # a concealed-kong marker on an empty meld
    with pytest.raises(PlaceError, match="only a meld"):
        places.move(U, "h1", "h1")
    assert issubclass(PlaceError, ValueError)
    after = places.snapshot()
    assert after == {**before, "a0": ["d9"]}  # only the one good reveal changed anything
    # A shown tile from a place of hidden tiles is taken from the hidden ones.
    places.move(T("c5"), "h2", "d2")
    assert places["d2"] == [T("c5")] and places.count("h2") == 12


def test_a_draw_from_the_exhausted_wall_is_an_error():
    places = Places()
    moves(places, "\n".join(wall_build() + deal(1, EAST)))
    for n in range(52, 122):
        places.move(U, f"w{n:03d}", "h2")
    assert places.wall_left == 0
    with pytest.raises(PlaceError, match="w121 is empty"):
        places.move(U, "w121", "h2")  # a draw from the exhausted wall


def test_reveals_at_a_win_and_ura_dora():
    places = Places()
    moves(places, "\n".join(wall_build() + deal(1, EAST)))
    # The winner (2) reveals its hidden hand; East's own tiles revealed again change nothing.
    moves(places, "move c1 h2 h2 move c1 h2 h2 move we h2 h2 move c1 h1 h1 move b5 a1 a1")
    snap = places.snapshot()
    assert snap["h2"] == ["c1", "c1", "we"] + ["?"] * 10
    assert snap["h1"] == sorted(EAST.split(), key=lambda c: "cdb".index(c[0]) * 10 + int(c[1]))
    assert snap["a1"] == ["b5"] and places.total == 136
    with pytest.raises(PlaceError):
        places.move(T("we"), "h1", "h1")  # East has no we and nothing hidden


def test_a_concealed_kong_seen_by_the_melder_and_by_the_others():
    hand = "b5 b5 b5 b5 c1 c2 c3 c7 c8 c9 d7 d8 b1"
    melder = Places()
    moves(melder, "\n".join(wall_build() + deal(1, hand)))
    moves(melder, "move c4 w052 h1 move b5 h1 m10 move b5 h1 m10 move b5 h1 m10 move b5 h1 m10 move ? m10 m10"
                  " move d5 r00 h1 move ? w121 r04 move c4 a2 a2")
    assert melder["m10"] == [T("b5")] * 4 and melder.concealed("m10")
    assert melder.count("h1") == 11 and melder["r04"] == [U] and "r00" not in melder
    assert melder.wall_left == 122 - 52 - 2 and melder["a2"] == [T("c4")]
    other = Places()
    moves(other, "\n".join(wall_build() + deal(3, hand)))
    moves(other, "move ? w052 h1 move b5 h1 m10 move b5 h1 m10 move ? h1 m10 move ? h1 m10"
                 " move ? r00 h1 move ? w121 r04")
    assert other["m10"] == [T("b5"), T("b5"), U, U] and not other.concealed("m10")
    assert other.count("h1") == 11 and other.total == 136


# -- Terminal: the picture ---------------------------------------------------------------------


def test_the_terminal_follows_players_winds_discards_riichi_and_results():
    terminal = seated(2, EAST, bot=False)
    assert terminal.logged_in and terminal.you == 2
    assert terminal.names == ("alice", "bob", "carol", "dave") and terminal.winds == ("e", "s", "w", "n")
    assert feed(terminal, "move ? w052 h1 riichi move c9 h1 d1 claim") == []  # not a bot: no answer
    assert terminal.question == "claim" and terminal.riichi == {1}
    assert terminal.last_discard == (1, T("c9")) and terminal.offer == Offer(1, T("c9"), "discard")
    feed(terminal, "chat 1 3 . 2:gg reject 7:not now win 1 6:riichi 1. 0: 1000. move c9 h1 h1 ack")
    assert terminal.chats == [(1, "gg")] and terminal.rejects == ["not now"]
    assert [w.winner for w in terminal.wins] == [1] and terminal.question == "ack"
    feed(terminal, "newhand e s w n e draw")
    assert terminal.hands == 2 and terminal.draws == 1 and terminal.riichi == set()
    assert terminal.places.snapshot() == {"k": ["?"] * 136} and terminal.winds == ("s", "w", "n", "e")


def test_render_shows_names_winds_own_hand_others_counts_rivers_melds_dora_and_wall():
    terminal = seated(1, EAST, bot=False)
    feed(terminal, "move c4 w052 h1 play")
    text = terminal.render()
    assert "wall 69" in text and "dora c3" in text and "you are 1 (alice)" in text
    assert "c1 c2 c3 c6 c7 c8 c9 d2 d6 d7 d8 b1 b6 + c4" in text  # own hand, the draw apart
    assert text.count("[13]") == 3 and "question: play" in text
    feed(terminal, "move d6 h1 d1 move d6 d1 m40 move d6 h4 m40 move d6 h4 m40 move dg h4 d4")
    text = terminal.render()
    assert "melds [d6d6d6]" in text and "river dg" in text and "[10]" in text
    lines = text.splitlines()
    assert lines[1].split()[:3] == ["*", "1", "alice"] and " E " in lines[1]
    assert "?" not in text.split("dora")[1].split("|")[0]  # hidden indicators are not listed


# -- the bot -------------------------------------------------------------------------------------

TSUMO = "c1 c2 c3 d4 d5 d6 b7 b8 b9 we we c4 c5"  # waits c3/c6
ORPHANS = "c1 c9 d1 d9 b1 b9 we ws ww wn dw dg dr"  # 13 different tiles
DRAGONS = "dr dr dr c2 c3 c4 d5 d6 d7 b3 b4 we we"  # waits b2/b5, with a yaku
NO_YAKU = "c1 c2 c3 d4 d5 d6 b7 b8 b9 c7 c8 we we"  # waits c6/c9, no yaku for the ron


def test_the_bot_goes_out_on_a_winning_draw_and_acks():
    terminal = seated(1, TSUMO)
    assert feed(terminal, "move c6 w052 h1 play") == [Out()]
    assert feed(terminal, "win 1 12:menzen tsumo 1. 0: 1500. move c6 h1 h1 ack") == [Ack()]


def test_a_refused_out_falls_back_to_a_discard_that_keeps_the_hand_ready():
    terminal = seated(1, TSUMO)
    assert feed(terminal, "move c6 w052 h1 play") == [Out()]
    [answer] = feed(terminal, "reject 9:no yaku!! play")
    assert isinstance(answer, Discard)
    sp = terminal.shoupai().dapai(mmj.mmj_to_majiang(answer.tile))
    assert xiangting(sp) == 0
    assert terminal.refused == [Out()]


def test_the_bot_never_repeats_a_refused_answer_and_stops_when_all_are_refused():
    terminal = seated(1, ORPHANS)
    answers = feed(terminal, "move c5 w052 h1 play")
    for _ in range(30):
        more = feed(terminal, "reject 4:nope play")
        if not more:
            break
        answers += more
    assert all(isinstance(a, Discard) for a in answers)
    assert len(answers) == len(set(answers)) == 14  # every tile once, the drawn one included
    assert {a.tile.code for a in answers} == set(ORPHANS.split()) | {"c5"}
    assert feed(terminal, "reject 4:nope play") == []  # nothing left: it waits, no loop


def test_refused_answers_are_forgotten_at_the_next_question():
    terminal = seated(1, ORPHANS)
    [first] = feed(terminal, "move c5 w052 h1 play")
    feed(terminal, "reject 4:nope play")
    assert terminal.refused == [first]
    feed(terminal, f"move {feed(terminal, 'reject 4:nope play')[0].tile} h1 d1")
    assert terminal.refused == [] and terminal.question is None
    assert feed(terminal, "move ? w053 h2 move b5 h2 d2 claim") == [Pass()]
    assert terminal.refused == []


def test_the_bot_rons_a_winning_discard_and_passes_when_refused():
    terminal = seated(1, DRAGONS)
    assert feed(terminal, "move ? w052 h3 move b5 h3 d3 claim") == [Ron()]
    assert feed(terminal, "reject 7:furiten claim") == [Pass()]
    assert feed(terminal, "reject 7:furiten claim") == []  # pass refused too: nothing else to try


def test_the_bot_does_not_ron_without_a_yaku_it_can_see():
    terminal = seated(2, NO_YAKU)
    assert feed(terminal, "move ? w052 h1 move c9 h1 d1 claim") == [Pass()]
    # With the ura-dora-free facts the terminal has, a riichi makes the same hand a win.
    terminal = seated(2, NO_YAKU)
    feed(terminal, "move ? w052 h1 move b1 h1 d1 move dr w053 h2 riichi move dr h2 d2")
    assert terminal.riichi == {2}
    assert feed(terminal, "move ? w054 h3 move c6 h3 d3 claim") == [Ron()]


def test_a_greedy_bot_calls_kan_then_pon_then_passes():
    hand = "dr dr dr c2 c3 c4 d5 d6 d7 b3 b4 b9 ws"
    terminal = seated(1, hand, greedy=True)
    assert feed(terminal, "move ? w052 h3 move dr h3 d3 claim") == [Claim((T("dr"),) * 3)]
    assert feed(terminal, "reject 4:nope claim") == [Claim((T("dr"), T("dr"), U))]
    assert feed(terminal, "reject 4:nope claim") == [Pass()]
    plain = seated(1, hand)
    assert feed(plain, "move ? w052 h3 move dr h3 d3 claim") == [Pass()]


def test_a_greedy_bot_chis_only_from_the_player_on_its_left():
    hand = "c2 c3 c5 c6 d1 d9 b1 b9 we ws ww wn dr"
    terminal = seated(2, hand, greedy=True)
    answers = feed(terminal, "move ? w052 h1 move c4 h1 d1 claim")
    while answers[-1] != Pass():
        answers += feed(terminal, "reject 4:nope claim")
    chis = answers[:-1]
    assert all(isinstance(c, Claim) and c.tiles[2] == U for c in chis)
    assert sorted(tuple(t.code for t in c.tiles[:2]) for c in chis) == [("c2", "c3"), ("c3", "c5"), ("c5", "c6")]
    # Player 3 is not on player 2's left (player 1 is): no chi on its c4.
    terminal = seated(2, hand, greedy=True)
    assert feed(terminal, "move ? w052 h1 move wn h1 d1 move b5 w053 h2 move d1 h2 d2"
                          " move ? w054 h3 move c4 h3 d3 claim") == [Pass()]
    # Player 4 is on player 1's left: the wrap from 4 to 1.
    terminal = seated(1, hand, greedy=True)
    [answer] = feed(terminal, "move ? w052 h4 move c4 h4 d4 claim")
    assert isinstance(answer, Claim)


def test_a_greedy_bot_riichis_when_ready_and_closed_then_discards_the_same_tile_if_refused():
    terminal = seated(1, "c1 c2 c3 d4 d5 d6 b7 b8 b9 c5 c6 we we", greedy=True)
    assert feed(terminal, "move dr w052 h1 play") == [Riichi(T("dr"))]
    assert feed(terminal, "reject 11:1000 points play") == [Discard(T("dr"))]
    plain = seated(1, "c1 c2 c3 d4 d5 d6 b7 b8 b9 c5 c6 we we")
    assert feed(plain, "move dr w052 h1 play") == [Discard(T("dr"))]


def test_in_riichi_the_bot_discards_the_tile_it_draws():
    terminal = seated(1, "c1 c2 c3 d4 d5 d6 b7 b8 b9 c5 c6 we we", greedy=True)
    feed(terminal, "move dr w052 h1 play riichi move dr h1 d1")
    assert terminal.riichi == {1} and terminal.shoupai().lizhi
    assert feed(terminal, "move ? w053 h2 move c5 h2 d2 claim") == [Pass()]  # no calls in riichi
    assert feed(terminal, "move b1 w054 h1 play") == [Discard(T("b1"))]
    assert feed(terminal, "reject 4:nope play") == [Discard(T("c1"))]  # last resort: any tile left


def test_a_greedy_bot_kans_four_of_a_kind_and_adds_to_its_pon():
    terminal = seated(1, "c1 c1 c1 c2 c3 c4 d5 d6 d7 b3 b4 we we", greedy=True)
    assert feed(terminal, "move c1 w052 h1 play") == [Ckong(T("c1"))]
    [after] = feed(terminal, "reject 4:nope play")
    assert isinstance(after, Riichi)  # discarding a c1 keeps it ready
    terminal = seated(1, "dr dr c2 c3 c4 d5 d6 d7 b3 b4 b9 we ws", greedy=True)
    assert feed(terminal, "move ? w052 h3 move dr h3 d3 claim") == [Claim((T("dr"), T("dr"), U))]
    [discard] = feed(terminal, "move dr d3 m10 move dr h1 m10 move dr h1 m10 play")
    assert isinstance(discard, Discard) and discard.tile != T("dr")
    assert terminal.meld_string("m10") == "z777="  # player 3 sits opposite player 1
    feed(terminal, f"move {discard.tile} h1 d1")
    assert feed(terminal, "move dr w053 h1 play") == [Pkong(T("dr"))]


def test_a_robbed_kan_is_ron_or_pass_never_a_call():
    terminal = seated(1, DRAGONS, greedy=True)
    feed(terminal, "move ? w052 h4 move b5 h4 d4 claim")
    feed(terminal, "reject 7:furiten claim")  # the bot rons, is refused, passes ...
    feed(terminal, "move b5 d4 m20 move b5 h2 m20 move b5 h2 m20")  # ... and player 2 pons it
    assert terminal.places["d4"] == [] and terminal.offer is None
    assert feed(terminal, "move c1 h2 d2 claim") == [Pass()]
    assert feed(terminal, "move ? w053 h2 move b5 h2 m20 claim") == [Ron()]  # chankan
    assert terminal.offer == Offer(2, T("b5"), "kan")
    # Another's concealed kan, as the others see it: the rob is about its shown tile, and a
    # greedy bot that cannot win on it passes (a kan is never called).
    terminal = seated(1, "c1 c1 c9 d1 d9 b1 b9 we ws ww wn dr b4", greedy=True)
    assert feed(terminal, "move ? w052 h3 move c9 h3 m30 move c9 h3 m30 move ? h3 m30 move ? h3 m30 claim") == [Pass()]
    assert terminal.offer == Offer(3, T("c9"), "kan")


def test_the_bot_is_deterministic_for_a_seed():
    def run(seed: int) -> list[ClientMessage]:
        terminal = Terminal(bot=True, greedy=True, seed=seed)
        feed(terminal, opening(1, ORPHANS))
        answers = feed(terminal, "move c5 w052 h1 play")
        for _ in range(5):
            answers += feed(terminal, "reject 4:nope play")
        return answers

    assert run(7) == run(7)


# -- typed commands ------------------------------------------------------------------------------


def test_typed_client_messages_are_read_as_the_server_reads_them():
    assert parse_command("discard c5") == Typed("send", (Discard(T("c5")),))
    assert parse_command("  Claim D6 d6 ?\n") == Typed("send", (Claim((T("d6"), T("d6"), U)),))
    assert parse_command("claim d6 d6 d6") == Typed("send", (Claim((T("d6"),) * 3),))
    assert parse_command("chat 234 . 5:hello") == Typed("send", (ChatTo((2, 3, 4), b"hello"),))
    assert parse_command("pass") == Typed("send", (Pass(),))
    assert parse_command("ron").messages == (Ron(),) and parse_command("ack").messages == (Ack(),)
    assert parse_command("riichi we").messages == (Riichi(T("we")),)


def test_typed_chat_without_a_count_is_counted_for_the_person():
    assert parse_command("chat 2 . hi there") == Typed("send", (ChatTo((2,), b"hi there"),))
    assert parse_command("chat 13 . café").messages == (ChatTo((1, 3), "café".encode()),)


def test_typed_words_of_the_terminal_itself():
    assert parse_command("show") == Typed("show") and parse_command("QUIT") == Typed("quit")
    assert parse_command("help").kind == "help" and parse_command("hint").kind == "hint"
    assert parse_command("   ") == Typed("empty")


@pytest.mark.parametrize("text, why", [
    ("discard", "incomplete"),
    ("discard x5", "discard tile"),
    ("dance", "no mmj keyword"),
    ("play", "not a client message"),
    ("mmj1c 3:abc", "logs in by itself"),
    ("chat 5 . hello", "player IDs"),
])
def test_typed_lines_that_are_no_command(text: str, why: str):
    with pytest.raises(TypedError, match=why):
        parse_command(text)


# -- the hand as the engine sees it --------------------------------------------------------------


def test_own_melds_become_majiang_melds_with_their_direction():
    terminal = seated(1, "c2 c3 c5 c5 d1 d1 d1 b1 b9 we ws ww wn")
    feed(terminal, "move ? w052 h4 move c4 h4 d4 move c4 d4 m10 move c2 h1 m10 move c3 h1 m10 move we h1 d1")
    assert terminal.meld_string("m10") == "m234-"
    assert terminal.places.snapshot()["m10"] == ["c4", "c2", "c3"]  # a meld keeps its order of arrival
    feed(terminal, "move ? w053 h2 move c5 h2 d2 move c5 d2 m11 move c5 h1 m11 move c5 h1 m11 move ws h1 d1")
    assert terminal.meld_string("m11") == "m555+"
    sp = terminal.shoupai()
    assert sp.fulou_mianzi == ("m234-", "m555+") and not sp.menqian
    assert Shoupai.from_string(sp.to_string()).fulou_mianzi == sp.fulou_mianzi
