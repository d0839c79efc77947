"""The learner's help in a seat's view: waits with how many of each the player has not seen."""

from __future__ import annotations

import random
from collections import Counter

from games.core.engine import Mode
from games.riichi.bots.house import choose
from games.riichi.engine.table import RiichiGame, tile_kinds, unseen_waits


def test_tile_kinds_reads_hands_and_melds() -> None:
    assert tile_kinds("m05p1z7*") == ["m5", "m5", "p1", "z7"]
    assert tile_kinds("m1-23") == ["m1", "m2", "m3"]
    assert tile_kinds("z111=1") == ["z1"] * 4


def test_unseen_waits_counts_red_fives_as_fives() -> None:
    assert unseen_waits(["m5", "p3"], Counter({"m5": 3, "p3": 4})) == [{"p": "m5", "left": 1}, {"p": "p3", "left": 0}]


def _unseen_truth(game: RiichiGame, seat: int, kind: str) -> int:
    """Where the tiles the seat has not seen really are: the wall (less the shown indicators)
    and the other players' concealed hands."""
    g = game.game
    l = g.seat_of(seat)  # noqa: E741 - Majiang's name
    wall = Counter(tile_kinds("".join(g.shan._pai)))
    wall.subtract(Counter(tile_kinds("".join(g.shan.baopai))))
    hands = Counter()
    for other in range(4):
        if other != l:
            hands.update(tile_kinds(g.shoupai[other].to_string().split(",")[0]))
    return wall[kind] + hands[kind]


def test_every_tenpai_view_counts_exactly_the_tiles_the_player_cannot_see() -> None:
    checked = 0
    for seed in range(4):
        game = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=seed, rules={"場数": 0})
        game.apply(0, "kaiju", [])
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(4):
                me = game.view(seat).get("me")
                if me and me["tingpai"]:
                    assert [t["p"] for t in me["tingpai"]] == me["waits"]
                    for wait in me["tingpai"]:
                        assert wait["left"] == _unseen_truth(game, seat, tile_kinds(wait["p"])[0])
                        checked += 1
                elif me:
                    assert me["tingpai"] is None
            seat = game.to_act()[0]
            action, params = choose(game.view(seat), game.legal_actions(seat), rng)
            game.apply(seat, action, params)
    assert checked > 50  # the games reach tenpai often enough for the check to mean something
