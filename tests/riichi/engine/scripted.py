"""Drive ``RiichiGame`` (the platform contract) with the decisions recorded in a paifu.

The walls are rebuilt from the paifu (``replay.make_shan``); every seat the game waits for is
answered with the action the paifu shows it took next (``pass`` if none), and the action must be
in ``legal_actions``. The paifu the table writes must then equal the original.
"""
# ruff: noqa: E741  (l: a seat counted from the hand's dealer, Majiang's and the paifu's name)

from __future__ import annotations

from typing import Any

from games.riichi.engine.game import DAPAI, FULOU, GANG, GANGZIMO, ZIMO
from games.riichi.engine.replay import make_shan
from games.riichi.engine.table import RiichiGame


def scripted_action(table: RiichiGame, seat: int, expected: list[dict[str, Any]]) -> tuple[str, list[Any]]:
    """The action ``seat`` took in the paifu hand ``expected`` at the table's current message."""
    game = table.game
    l = game.seat_of(seat)
    produced = game.paipu["log"][-1]
    upcoming = expected[len(produced):]
    if not upcoming:
        return ("pass", [])
    (kind, data), = upcoming[0].items()
    status = game.status
    if status in (ZIMO, GANGZIMO, FULOU) and l == game.lunban:
        if kind == "dapai":
            return ("dapai", [data["p"]])
        if kind == "gang":
            return ("gang", [data["m"]])
        if kind == "hule":
            return ("hule", [])
        if kind == "pingju":
            return ("pingju", [])
        return ("pass", [])
    if status in (DAPAI, GANG):
        if kind == "fulou" and data["l"] == l:
            return ("fulou", [data["m"]])
        if kind == "hule":
            winners = [r["hule"]["l"] for r in upcoming if "hule" in r]
            return ("hule", []) if l in winners else ("pass", [])
        if kind == "pingju" and data["shoupai"][l]:
            if data["name"].startswith("三家和"):
                return ("hule", [])
            legal = table.legal_actions(seat)
            if any(a["type"] == "daopai" for a in legal):
                return ("daopai", [])
        return ("pass", [])
    return ("pass", [])


def play_on_table(paifu: dict[str, Any], rule: dict[str, Any]) -> RiichiGame:
    """Play ``paifu``'s walls and decisions on a ``RiichiGame``; every action must be legal."""
    walls = [make_shan(rule, hand) for hand in paifu["log"]]
    table = RiichiGame.from_walls(walls, rule=rule, qijia=paifu["qijia"], title=paifu["title"],
                                  player=paifu["player"])
    for seat, action, params in table.initial_actions():
        table.apply(seat, action, params)
    for _ in range(100_000):
        if table.is_over:
            break
        seat = table.to_act()[0]
        hand = len(table.game.paipu["log"]) - 1
        action, params = scripted_action(table, seat, paifu["log"][hand])
        legal = table.legal_actions(seat)
        assert any(a["type"] == action and a["params"] == params and a.get("allowed", True) for a in legal), (
            hand, seat, action, params, legal)
        table.apply(seat, action, params)
    return table
