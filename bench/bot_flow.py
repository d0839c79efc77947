"""Where the points of a ``bench/bot_strength.py`` run went: per side, per seat-hand, by how.

    .venv/bin/python bench/bot_strength.py ... --workdir DIR     # keeps DIR/db.sqlite3
    .venv/bin/python bench/bot_flow.py DIR/db.sqlite3

Reads every finished game's Majiang paifu from the run's database (read-only) and sorts each
score change of each hand into: a win (by the winner's hand when it won: riichi, an open hand,
or a closed hand without riichi, "dama"; by ron or tsumo), a payment (to a ron or a tsumo, by
the winner's side), a riichi stick put down, a draw's tenpai payments. House seats are the
``house-`` accounts, the rest majiang-ai's. Each figure is points per seat-hand of the side
(a side's two seats over every hand of every game). The categories add up to the side's mean
score change per hand but for the riichi sticks still on the table when a game ends (they go by
the rule's end-of-game settlement, which the paifu's hands do not show). The last line printed is
one JSON object.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import Counter
from typing import Any

HOUSE, MAJIANG = "house", "majiang_ai"


def side_of(username: str) -> str:
    return HOUSE if username.startswith("house-") else MAJIANG


def flow(paifus: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    points: Counter[tuple[str, str]] = Counter()
    seat_hands: Counter[str] = Counter()
    for paifu in paifus:
        names = paifu["player"]
        for hand in paifu["log"]:
            base = paifu["qijia"] + hand[0]["qipai"]["jushu"]

            def player(seat: int, base: int = base) -> int:  # a seat counted from the dealer, as a player id
                return (base + seat) % 4

            riichi: set[int] = set()
            opened: set[int] = set()
            for p in range(4):
                seat_hands[side_of(names[p])] += 1
            for message in hand:
                ((kind, data),) = message.items()
                if kind == "fulou":
                    opened.add(player(data["l"]))
                elif kind == "dapai" and data["p"].endswith("*"):
                    riichi.add(player(data["l"]))
                    points[(side_of(names[player(data["l"])]), "riichi stick")] -= 1000
                elif kind == "hule":
                    winner = player(data["l"])
                    how = "tsumo" if data.get("baojia") is None else "ron"
                    hand_kind = "riichi" if winner in riichi else "open" if winner in opened else "dama"
                    for seat, change in enumerate(data["fenpei"]):
                        side = side_of(names[player(seat)])
                        if player(seat) == winner:
                            points[(side, f"won: {hand_kind}, {how}")] += change
                        elif change < 0:
                            points[(side, f"paid: {how} to {side_of(names[winner])}")] += change
                elif kind == "pingju":
                    for seat, change in enumerate(data.get("fenpei") or [0, 0, 0, 0]):
                        points[(side_of(names[player(seat)]), "draw")] += change
    out: dict[str, dict[str, float]] = {}
    for (side, category), total in sorted(points.items()):
        out.setdefault(side, {})[category] = round(total / seat_hands[side], 1)
    for side in out:
        out[side]["total"] = round(sum(out[side].values()), 1)
    return out


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    database = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
    paifus = [json.loads(document) for (document,) in database.execute(
        "SELECT r.document FROM games_gamerecord r JOIN games_game g ON g.id = r.game_id "
        "WHERE g.status = 'finished' AND r.format = 'majiang-paifu'")]
    figures = flow(paifus)
    print(f"{len(paifus)} games; points per seat-hand of each side:")
    for side, categories in figures.items():
        for category, value in categories.items():
            print(f"  {side:10s} {category:24s} {value:+8.1f}")
    print(json.dumps({"bench": "bot_flow", "games": len(paifus), "per_seat_hand": figures}))


if __name__ == "__main__":
    main()
