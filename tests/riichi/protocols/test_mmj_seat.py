"""The mmj seat view (games/riichi/protocols/mmj_seat.py) over whole games played on the engine:
every seat's picture of the 19 places, rebuilt from its moves alone by the reference terminal's
``Places``, equals the engine's state as that seat may see it after every action; nobody sees a
tile the rules keep from them; and the terminal's operations become the replies they name."""

# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's name)
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.bots import house as bot
from games.riichi.clients.mmj_terminal import Places
from games.riichi.engine.table import RiichiGame
from games.riichi.protocols import majiang, mmj
from games.riichi.protocols.mmj_seat import MmjSeat, Refused, dice
from games.riichi.protocols.ump import suited
from tests.riichi.transport.played import kan_lover, play_through


def plain(p: str) -> str:
    return mmj.majiang_to_mmj(p[:2]).code


@dataclass
class Seen:
    """One game as the four seats saw it in mmj."""

    engine: RiichiGame
    messages: list[list[mmj.ServerMessage]] = field(default_factory=lambda: [[] for _ in range(4)])
    questions: list[tuple[int, str, mmj.ServerMessage | None, list[dict[str, Any]]]] = field(default_factory=list)
    checked: int = 0


def expected_picture(engine: RiichiGame, seat: int, revealed: dict[int, list[str]], ura: int,
                     ) -> dict[str, Counter[str]]:
    """The places as ``seat`` may see them now: its own tiles open, others' hidden, public open;
    ``revealed`` hands and ``ura`` indicators as a win or a draw showed them."""
    game = engine.game
    me = (seat - engine.qijia) % 4 + 1
    jushu = game.jushu
    picture: dict[str, Counter[str]] = {}
    shan = game.shan
    assert shan is not None
    picture["w"] = Counter({"?": shan.paishu})
    picture["r"] = Counter({"?": 4})
    shown = list(shan.baopai) + list(shan.fubaopai or [])[:ura]
    picture["a"] = Counter(plain(p) for p in shown) + Counter({"?": 10 - len(shown)})
    for l in range(4):
        player = (l + jushu) % 4 + 1
        text = game.shoupai[l].to_string()
        concealed, *melds = text.split(",")
        held = [plain(p) for p in suited(concealed)]
        if player == me:
            picture[f"h{player}"] = Counter(held)
        elif player in revealed:
            # Who was shown comes from the moves (check_hidden says who may be); what, from the engine.
            picture[f"h{player}"] = Counter(held)
        else:
            picture[f"h{player}"] = Counter({"?": len(held)})
        picture[f"d{player}"] = Counter(plain(p) for p in game.he[l].pai if p[-1] not in "+=-")
        for n, m in enumerate(x for x in melds if x):
            tiles = [plain(p) for p in suited(m)]
            concealed_kan = not any(c in m for c in "+=-")
            if concealed_kan and player != me:
                tiles = tiles[:2] + ["?", "?"]
            picture[f"m{player}{n}"] = Counter(tiles)
    return {k: v for k, v in picture.items() if v or k in "wra"}


def terminal_picture(places: Places) -> dict[str, Counter[str]]:
    picture: dict[str, Counter[str]] = {"w": Counter(), "r": Counter(), "a": Counter()}
    for name in places:
        tiles = Counter(t.code for t in places[name])
        if name[0] in "wra":
            picture[name[0]] += tiles
        else:
            picture[name] = tiles
    return {k: v for k, v in picture.items() if v or k in "wra"}


def play(seed: int, rules: dict[str, Any], chooser=bot.choose) -> Seen:
    engine = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules={**rules, "hand_end_ack": True})
    seen = Seen(engine)
    streams = [majiang.SeatStream(s) for s in range(4)]
    views = [MmjSeat(game_id=99) for _ in range(4)]
    places = [Places() for _ in range(4)]
    revealed: list[dict[int, list[str]]] = [{} for _ in range(4)]
    ura = [0] * 4
    seq = 0

    def deliver(events) -> None:
        nonlocal seq
        seq += 1
        waiting = engine.to_act()
        for s in range(4):
            frames = streams[s].frames([e.render(s) for e in events])
            for message in views[s].messages(frames):
                seen.messages[s].append(message)
                if isinstance(message, mmj.NewHand):
                    places[s].reset()
                    revealed[s] = {}
                    ura[s] = 0
                elif isinstance(message, mmj.Move):
                    places[s].move(message.tile, message.src, message.dst)
                    if message.src == message.dst and message.src.kind == "h" and not message.tile.hidden:
                        revealed[s].setdefault(message.src.player, []).append(message.tile.code)
                    if message.src == message.dst and message.src.kind == "a" and message.src.number % 2:
                        ura[s] += 1
            if frames and s in waiting:
                question = views[s].question(frames[-1], engine.legal_actions(s))
                seen.questions.append((s, frames[-1]["type"], question, engine.legal_actions(s)))
            if engine.is_over or not frames or frames[-1]["type"] == "kaiju":
                continue
            assert places[s].total == 136
            assert places[s].count("k") == 0
            assert terminal_picture(places[s]) == expected_picture(engine, s, revealed[s], ura[s]), (s, frames[-1])
            seen.checked += 1

    play_through(engine, seed, chooser, deliver)
    return seen


GAMES = {
    "east": (7, {"preset": "east"}, bot.choose),
    "tenhou-east-kans": (4, {"preset": "tenhou-east"}, kan_lover),
    "tenhou-east-noten": (6, {"preset": "tenhou-east", "ノーテン宣言あり": True}, kan_lover),
}
_SEEN: dict[str, Seen] = {}


@pytest.fixture(params=list(GAMES))
def seen(request) -> Seen:
    if request.param not in _SEEN:
        _SEEN[request.param] = play(*GAMES[request.param])
    return _SEEN[request.param]


def test_every_seats_picture_equals_the_engine_after_every_action(seen):
    # play() asserts it as it goes; here, that it was checked all along a whole game.
    assert seen.engine.is_over
    assert seen.checked > 4 * 100


def test_every_seat_sees_the_same_moves_but_its_own_tiles(seen):
    def masked(messages: list[mmj.ServerMessage]) -> list[bytes]:
        out = []
        for m in messages:
            if isinstance(m, mmj.Game):
                m = mmj.Game(1, m.names)
            if isinstance(m, mmj.Move) and m.src.kind in "wrh" and m.dst.kind == "h":
                m = mmj.Move(mmj.UNKNOWN, m.src, m.dst)
            if isinstance(m, mmj.Move) and m.dst.kind == "m" and m.src == m.dst:
                continue  # the melder's own concealed-kong marker
            if isinstance(m, mmj.Move) and m.dst.kind == "m" and m.src.kind == "h":
                m = mmj.Move(mmj.UNKNOWN, m.src, m.dst)
            out.append(mmj.encode(m))
        return out

    reference = masked(seen.messages[0])
    for s in range(1, 4):
        assert masked(seen.messages[s]) == reference


def test_hidden_tiles_reach_only_their_owner(seen):
    engine = seen.engine
    for s, messages in enumerate(seen.messages):
        me = (s - engine.qijia) % 4 + 1
        hands_won = 0
        for m in messages:
            if isinstance(m, mmj.Win | mmj.Draw):
                hands_won += 1
            if not isinstance(m, mmj.Move) or m.tile.hidden:
                continue
            if m.src.kind == "w" or m.src.kind == "r":
                assert m.dst == mmj.Place.hand(me), m  # a draw is shown to the drawer only
            if m.src.kind == "k":
                raise AssertionError(f"a tile shown while the wall is built: {m}")
            if m.src.kind == "a" and m.src.number % 2:
                # an ura indicator shows only after a riichi win
                assert hands_won, m
        assert hands_won >= len(engine.paifu["log"])  # every hand ended (a double ron twice)


def test_the_deal_and_the_wall(seen):
    messages = seen.messages[0]
    first = messages.index(next(m for m in messages if isinstance(m, mmj.NewHand)))
    hand = messages[first:first + 2 + 136 + 52 + 1]
    assert isinstance(hand[1], mmj.Break)
    builds = hand[2:138]
    assert [str(m.dst) for m in builds] == ([f"w{n:03d}" for n in range(122)] + [f"r{n:02d}" for n in range(4)]
                                           + [f"a{n}" for n in range(10)])
    deal = hand[138:190]
    assert [m.src.number for m in deal] == list(range(52))
    owners = [m.dst.player for m in deal]
    # The first hand's dealer is player 1: four tiles each from the dealer round, three times.
    assert owners[:48] == ([1] * 4 + [2] * 4 + [3] * 4 + [4] * 4) * 3 and owners[48:] == [1, 2, 3, 4]
    assert Counter(owners) == Counter({1: 13, 2: 13, 3: 13, 4: 13})
    assert isinstance(hand[190], mmj.Move) and hand[190].src == hand[190].dst == mmj.Place.dora(0)


def test_every_hand_ends_with_an_ack_question_for_all_four(seen):
    acks = [q for q in seen.questions if isinstance(q[2], mmj.AckRequest)]
    ends = sum(1 for m in seen.messages[0] if isinstance(m, mmj.Win | mmj.Draw))
    assert len(acks) == 4 * ends
    assert ends >= len(seen.engine.paifu["log"])


def test_questions_follow_the_frame():
    kinds = Counter()
    for game in GAMES:
        if game not in _SEEN:
            _SEEN[game] = play(*GAMES[game])
        for _s, frame_type, question, legal in _SEEN[game].questions:
            kinds[(frame_type, type(question).__name__)] += 1
            if frame_type in ("zimo", "gangzimo"):
                assert isinstance(question, mmj.Play)
            elif frame_type == "dapai" and question is None:
                # only its own last discard, with a tenpai hand it may hide
                assert {a["type"] for a in legal} <= {"daopai", "pass"}
    assert kinds[("dapai", "ClaimOffer")] and kinds[("fulou", "Play")] and kinds[("gangzimo", "Play")]
    assert kinds[("hule", "AckRequest")] and kinds[("pingju", "AckRequest")]


def test_scoring_and_the_win_message(seen):
    wins = [m for m in seen.messages[0] if isinstance(m, mmj.Win)]
    hule = [entry["hule"] for hand in seen.engine.paifu["log"] for entry in hand if "hule" in entry]
    assert len(wins) == len(hule)
    for win, data in zip(wins, hule, strict=True):
        assert win.total == data["defen"]
        names = [line.what.decode() for line in win.scoring]
        assert names[: len(data["hupai"])] == [h["name"] for h in data["hupai"]]
        if data["fu"]:
            assert names[-1] == "fu" and win.scoring[-1].points == data["fu"]
        mmj.decode(mmj.encode(win), "client")  # and it is on the wire as the grammar wants


def test_dice_are_the_same_for_every_seat_and_vary():
    assert dice(1, 0, 0, 0) == dice(1, 0, 0, 0)
    rolls = {dice(g, 0, 0, 0) for g in range(200)}
    assert len(rolls) > 20 and all(1 <= a <= 6 and 1 <= b <= 6 for a, b in rolls)


# -- operations -----------------------------------------------------------------------------------


def view_at(menfeng: int = 0) -> MmjSeat:
    view = MmjSeat()
    view.messages([{"type": "kaiju", "data": {"id": menfeng, "qijia": 0, "player": ["a", "b", "c", "d"]}}])
    view.messages([{"type": "qipai", "data": {"zhuangfeng": 0, "jushu": 0, "changbang": 0, "lizhibang": 0,
                                              "defen": [25000] * 4, "baopai": "z1",
                                              "shoupai": ["m055p123s789z1112" if i == menfeng else ""
                                                          for i in range(4)]}}])
    return view


def T(code: str) -> mmj.Tile:
    return mmj.Tile(code)


def test_a_five_named_plain_is_a_plain_five_first_and_the_drawn_tile_first():
    view = view_at()
    legal = [{"type": "dapai", "params": [p]} for p in ("m0", "m5", "m5_", "p1", "z1")]
    assert view.reply(mmj.Discard(T("c5")), mmj.Play(), legal) == {"type": "dapai", "data": "m5_"}
    legal = [{"type": "dapai", "params": [p]} for p in ("m0", "p1")]
    assert view.reply(mmj.Discard(T("c5")), mmj.Play(), legal) == {"type": "dapai", "data": "m0"}
    legal = [{"type": "dapai", "params": ["p1"]}, {"type": "dapai", "params": ["p1*"], "lizhi": True}]
    assert view.reply(mmj.Riichi(T("d1")), mmj.Play(), legal) == {"type": "dapai", "data": "p1*"}


@pytest.mark.parametrize(("op", "asked", "legal", "says"), [
    (mmj.Discard(T("b1")), mmj.Play(), [{"type": "dapai", "params": ["p1"]}], "not a tile you may discard"),
    (mmj.Riichi(T("d1")), mmj.Play(), [{"type": "dapai", "params": ["p1"]}], "riichi is not allowed"),
    (mmj.Riichi(T("d2")), mmj.Play(), [{"type": "dapai", "params": ["p1*"]}], "does not keep the hand ready"),
    (mmj.Out(), mmj.Play(), [{"type": "hule", "params": [], "allowed": False, "reason": "no yaku"}], "no yaku"),
    (mmj.Out(), mmj.Play(), [], "not complete"),
    (mmj.Ckong(T("ws")), mmj.Play(), [{"type": "gang", "params": ["z1111"]}], "no such kong"),
    (mmj.Pkong(T("we")), mmj.Play(), [{"type": "gang", "params": ["z1111"]}], "no such kong"),
    (mmj.Pass(), mmj.Play(), [], "on play"),
    (mmj.Ron(), mmj.ClaimOffer(), [{"type": "hule", "params": [], "allowed": False,
                                     "reason": "furiten: a wait is in your own discards"}], "furiten"),
    (mmj.Claim((T("c1"), T("c2"), mmj.UNKNOWN)), mmj.ClaimOffer(), [{"type": "fulou", "params": ["m1-23"]}],
     "no such call"),
    (mmj.Claim((mmj.UNKNOWN, T("c2"), mmj.UNKNOWN)), mmj.ClaimOffer(), [], "two tiles"),
    (mmj.Claim((T("f1"), T("c2"), mmj.UNKNOWN)), mmj.ClaimOffer(), [], "no such tile"),
    (mmj.Discard(T("c1")), mmj.ClaimOffer(), [], "on claim"),
    (mmj.Discard(T("c1")), mmj.AckRequest(), [], "send ack"),
    (mmj.Ack(), mmj.Play(), [], "nothing to acknowledge"),
    (mmj.Discard(T("c1")), None, [], "nothing is asked"),
    (mmj.Swap(T("c1")), mmj.ClaimOffer(), [], "no swaps"),
    (mmj.ClientHello(b"x"), mmj.Play(), [], "already logged in"),
])
def test_refusals_say_why(op, asked, legal, says):
    with pytest.raises(Refused, match=says):
        view_at().reply(op, asked, legal)


def test_claims_name_the_hand_tiles():
    view = view_at()
    # A discarded 4m, then a 5m: chows and pungs with and without the red five.
    legal = [{"type": "fulou", "params": [m]} for m in ("m4-56", "m4-06", "m5-67", "m505=", "m555=", "m5505=")]
    claim = mmj.Claim((T("c5"), T("c6"), mmj.UNKNOWN))
    assert view.reply(claim, mmj.ClaimOffer(), legal) == {"type": "fulou", "data": "m4-56"}
    claim = mmj.Claim((T("c5"), T("c5"), mmj.UNKNOWN))
    assert view.reply(claim, mmj.ClaimOffer(), legal) == {"type": "fulou", "data": "m555="}
    claim = mmj.Claim((T("c5"), T("c5"), T("c5")))
    assert view.reply(claim, mmj.ClaimOffer(), legal) == {"type": "fulou", "data": "m5505="}
    assert view.reply(mmj.Pass(), mmj.ClaimOffer(), legal) == {"type": ""}
    assert view.reply(mmj.Pass(), mmj.ClaimOffer(), [{"type": "daopai", "params": []}]) == {"type": "daopai"}
    assert view.reply(mmj.Ron(), mmj.ClaimOffer(), [{"type": "hule", "params": []}]) == {"type": "hule"}
    assert view.reply(mmj.Ack(), mmj.AckRequest(), []) == {"type": ""}


def test_the_recorded_hand_in_the_doc_is_what_the_grammar_reads():
    """docs/protocols/mmj.md's recorded hand: every line, notes and elisions aside, is one message
    of its direction, and the win's scoring adds nothing the codec would refuse."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "protocols" / "mmj.md").read_text(encoding="utf-8")
    block = doc.split("## A recorded hand", 1)[1].split("```", 2)[1]
    read = {"S": 0, "C": 0}
    for line in block.splitlines():
        if not line.startswith(("S: ", "C: ")) or "…" in line:
            continue  # an elision, or the login (its token elided)
        side, text = line[0], line[3:].split("   ")[0]  # a note follows three spaces or more
        messages = mmj.decode(text.encode("utf-8"), "client" if side == "S" else "server")
        assert len(messages) == 1, line
        assert mmj.encode(messages[0]).decode("utf-8").strip() == text.strip(), line  # canonical
        read[side] += 1
    assert read["S"] > 40 and read["C"] > 8
