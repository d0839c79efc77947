"""The decision review's builder (games/riichi/records/review/) on a reference game.

The reference game (``reference_game.json``) is a four-bot east-only game kept as its seed, rules
and action log, so it does not change when a bot does. Seat 0's review is checked at four
positions against shanten, acceptance and danger worked out by hand below; the bot's side of each
decision is only checked where the figures are the bot's choice's own (they change with the bot).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.core.engine import Mode
from games.riichi.engine.table import RiichiGame
from games.riichi.records.review.build import VERSION, Logged, build, has_choice, normalise

REFERENCE = json.loads((Path(__file__).parent / "reference_game.json").read_text())


def fresh() -> RiichiGame:
    return RiichiGame.create(mode=Mode(4, "Four players", 4), seed=REFERENCE["seed"], rules=REFERENCE["rules"])


def actions() -> list[Logged]:
    return [Logged(seq, seat, kind, params) for seq, (seat, kind, params) in enumerate(REFERENCE["actions"], 1)]


@pytest.fixture(scope="module")
def review() -> dict[str, Any]:
    return build(fresh(), actions(), 0)


def at(review: dict[str, Any], step: int) -> dict[str, Any]:
    return next(d for d in review["decisions"] if d["step"] == step)


def test_the_review_is_versioned_deterministic_and_json(review):
    assert review["version"] == VERSION and review["seat"] == 0 and review["bot"] == "strong"
    assert json.loads(json.dumps(review)) == review
    assert build(fresh(), actions(), 0) == review  # the bot's rng is seeded by the step
    steps = [d["step"] for d in review["decisions"]]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    # Every decision is one of seat 0's actions, made at the state before it.
    mine = {seq - 1 for seq, (seat, _, _) in enumerate(REFERENCE["actions"], 1) if seat == 0}
    assert set(steps) <= mine


def test_the_costliest_are_the_player_decisions_that_cost_most(review):
    decisions = review["decisions"]
    costliest = review["costliest"]
    assert 0 < len(costliest) <= 5
    costs = [c["cost"] for c in costliest]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    for c in costliest:
        assert decisions[c["index"]]["step"] == c["step"] and decisions[c["index"]]["cost"] == c["cost"]
        assert not decisions[c["index"]]["same"]
    left_out = [d["cost"] for i, d in enumerate(decisions) if i not in {c["index"] for c in costliest}]
    assert max(left_out, default=0) <= min(costs)
    summary = review["summary"]
    assert summary["decisions"] == len(decisions)
    assert summary["agreed"] == sum(d["same"] for d in decisions)
    assert summary["cost"] == sum(d["cost"] for d in decisions)
    assert all(d["cost"] == 0 for d in decisions if d["same"])


def test_a_genbutsu_discard_against_a_riichi(review):
    # Step 93, East 1: seat 0 (East) drew s6 into m334077p1345s679; seat 2 declared riichi with p3.
    #   seat 1 river: z1 z7 z3 m1 p2 p7 (and a pon of z5)   seat 2: z4 s1 z7 z3 p8 p3*
    #   seat 3 river: z1 z6 z4 z5 z1 p3                      dora indicator p7
    d = at(review, 93)
    assert d["kind"] == "turn" and d["hand"] == "m334077p1345s679s6"
    mine = d["player"]
    assert mine["action"] == {"type": "dapai", "params": ["p3"]} and mine["label"] == "discard p3"
    # Kept: m3 m3 m4 m5 m7 m7 | p1 p4 p5 | s6 s6 s7 s9. m345, the pair m77, p45, s66, s79:
    # 8 - 2x1 - 3 - 1 = 2 from tenpai.
    assert mine["shanten"] == 2
    # What makes it one from tenpai: m7 (m777), p3 (p345), p6 (p456), s6 (s666), s8 (s789).
    # Unseen: m7 4 - 2 held = 2; p3 4 - (seat 2's, seat 3's, the one just let go) = 1; p6 4;
    # s6 4 - 2 held = 2; s8 4. 2 + 1 + 4 + 2 + 4 = 13.
    assert mine["acceptance"] == {"kinds": ["m7", "p3", "p6", "s6", "s8"], "count": 13}
    # p3 is seat 2's riichi tile: genbutsu, it cannot ron on it.
    assert mine["danger"] == [{"seat": 2, "riichi": True, "tenpai": 1.0, "deal_in": 0.0, "safety": "genbutsu",
                               "deal_in_cost": mine["danger"][0]["deal_in_cost"]}]
    assert mine["deal_in"] == 0.0
    # Whatever the bot discards is measured against the same riichi.
    assert [t["seat"] for t in d["bot"]["danger"]] == [2]


def test_genbutsu_and_a_suji_with_every_copy_in_sight(review):
    # Step 242, East 2: seat 0 (North) holds m88p2344457s2389 and drew z3; seat 1 (East, the
    # dealer) declared riichi: z2 p1 z6 p0 z5(called) z3 s6 m5 s4*.
    d = at(review, 242)
    assert d["hand"] == "m88p2344457s2389z3"
    mine = d["player"]
    assert mine["action"]["params"] == ["z3_"] and mine["shanten"] == 2  # the tile just drawn
    # z3 lies in seat 1's river: genbutsu.
    assert [(t["seat"], t["safety"], t["deal_in"]) for t in mine["danger"]] == [(1, "genbutsu", 0.0)]
    # Kept: m88 | p2 p3 p4 p4 p4 p5 p7 | s2 s3 s8 s9. Discarding s9 instead keeps
    # m88 p2344457 s238 z3: p234, the pair m88, p44, p57, s23 (2 from tenpai); it improves with m8
    # (m888), p1 (p123), p4 (p444), p6 (p456 or p567), s1 (s123), s4 (s234). Unseen: m8 4 - 2 held = 2;
    # p1 none (seat 1's, seat 2's two, seat 0's own); p4 none (three held, seat 3's); p6 4; s1 2
    # (seat 2's, seat 3's); s4 3 (seat 1's). 2 + 0 + 0 + 4 + 2 + 3 = 11.
    if d["bot"]["action"]["params"][0][:2] == "s9":
        bot = d["bot"]
        assert bot["shanten"] == 2
        assert bot["acceptance"] == {"kinds": ["m8", "p1", "p4", "p6", "s1", "s4"], "count": 11}
        # s9 against seat 1: suji (its s6 rules out s78's two-sided wait), and every copy is in
        # sight (seat 2's two, seat 3's, the one held): no shanpon, no tanki either. Safe.
        assert [(t["seat"], t["safety"], t["deal_in"]) for t in bot["danger"]] == [(1, "suji", 0.0)]


def test_genbutsu_by_a_pass_and_a_suji_that_is_not_safe(review):
    # Step 290, East 2: seat 0 holds m889p234447s2389 and drew p3. Seat 1's riichi (s4*) let
    # seat 2's later p3 pass: p3 is genbutsu against it though not in its own river. Seat 0 lets
    # go of m9 instead: suji (seat 1 discarded m6), but m9 can still be waited on as a shanpon or
    # a tanki (three copies unseen), so it is not safe.
    d = at(review, 290)
    riichi_river = "z2 p1 z6 p0_ z5- z3_ s6_ m5 s4* m6_ m2_ p6_".split()
    assert "p3" not in {p[:2] for p in riichi_river}
    mine = d["player"]
    assert mine["action"]["params"][0][:2] == "m9"
    [threat] = mine["danger"]
    assert threat["seat"] == 1 and threat["safety"] == "suji" and 0 < threat["deal_in"] < 0.05
    if d["bot"]["action"]["params"][0][:2] == "p3":
        assert [(t["seat"], t["safety"], t["deal_in"]) for t in d["bot"]["danger"]] == [(1, "genbutsu", 0.0)]
    assert d["cost"] == max(0, d["bot"]["equity"] - mine["equity"])


def test_a_pass_on_a_pon(review):
    # Step 463, East 3: seat 1 (riichi) let go of s2; seat 0 holds m24558p405667s22.
    d = at(review, 463)
    assert d["kind"] == "call" and d["hand"] == "m24558p405667s22"
    mine = d["player"]
    assert mine["action"] == {"type": "pass", "params": []} and mine["label"] == "pass"
    # m2 m4 m5 m5 m8 | p4 p5 p5 p6 p6 p7 | s2 s2: p456, p567, the pair m55, m24, s22:
    # 8 - 2x2 - 2 - 1 = 1 from tenpai; m3 (m234), m5 (m555) and s2 (s222) make it tenpai.
    # Unseen: m3 4; m5 4 - 2 held = 2; s2 4 - 2 held - seat 1's = 1. 4 + 2 + 1 = 7.
    assert mine["shanten"] == 1
    assert mine["acceptance"] == {"kinds": ["m3", "m5", "s2"], "count": 7}
    assert "danger" not in mine  # nothing let go
    bot = d["bot"]
    if bot["action"]["type"] == "fulou":
        # A pon then a discard: the figures are the hand after both, and the discard's danger.
        assert bot["then"] and bot["shanten"] <= 1 and [t["seat"] for t in bot["danger"]] == [1]


def test_only_real_choices_are_decisions():
    # A riichi hand's forced tsumogiri, and a pass with nothing else on offer, are not.
    forced = [{"type": "dapai", "params": ["m1_"]}, {"type": "pass", "params": [], "default": ["dapai", ["m1_"]]}]
    assert not has_choice(forced)
    assert has_choice([*forced[:1], {"type": "hule", "params": []}, forced[1]])
    assert not has_choice([{"type": "pass", "params": []}])
    assert not has_choice([{"type": "hule", "params": [], "allowed": False, "reason": "no yaku"},
                           {"type": "pass", "params": []}])
    assert has_choice([{"type": "fulou", "params": ["s222="]}, {"type": "pass", "params": []}])
    # The own turn's pass is the discard it defaults to.
    assert normalise(("pass", []), forced) == ("dapai", ["m1_"])
    assert normalise(("daopai", []), [{"type": "daopai", "params": []}]) == ("pass", [])


class Guarded:
    """The engine with only what a seat's client may ask: its own view (never revealed) and its
    own legal actions. Anything else the builder touched would fail the test."""

    def __init__(self, engine: RiichiGame, seat: int) -> None:
        self._engine, self._seat = engine, seat
        self.views = 0

    @property
    def is_over(self) -> bool:
        return self._engine.is_over

    def apply(self, seat: int, action_type: str, params: list[Any]) -> Any:
        return self._engine.apply(seat, action_type, params)

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        assert viewer == self._seat and reveal_all is False, (viewer, reveal_all)
        self.views += 1
        view = self._engine.view(viewer, reveal_all)
        assert "shan" not in view and "paifu" not in view  # the wall and the whole record stay hidden
        for other in view.get("seats", []):
            if other["seat"] != self._seat:  # another hand: a "_" per concealed tile, its melds open
                assert re.fullmatch(r"_*\*?", other["shoupai"].split(",")[0]), other["shoupai"]
        return view

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        assert seat == self._seat
        return self._engine.legal_actions(seat)


def test_the_builder_reads_only_the_seat_own_view(review):
    # So the review is a function of what seat 0 saw: other hands and the wall never reach it.
    guarded = Guarded(fresh(), 0)
    assert build(guarded, actions(), 0) == review
    assert guarded.views == len(review["decisions"])


def test_progress_counts_the_seat_actions():
    calls: list[tuple[int, int]] = []
    build(fresh(), actions(), 2, progress=lambda done, total: calls.append((done, total)))
    total = sum(1 for seat, _, _ in REFERENCE["actions"] if seat == 2)
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [done for done, _ in calls] == list(range(total + 1))
