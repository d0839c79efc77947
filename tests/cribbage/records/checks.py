"""Cross-checks of a cribbage record that do not go through the record's own code.

Each one re-derives something from first principles (card values, the rules' arithmetic) or from
the engine's events on an independent replay of the action log, and compares it with what the
record states. So a bug in ``games.cribbage.records.record`` shows here even though the record would
verify (the checker replays through the same recorder).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.cribbage.engine import CribbageGame

WIN, SKUNK, DOUBLE_SKUNK = 121, 91, 61
RANKS = "A234567890JQK"
RANK = {r: i + 1 for i, r in enumerate(RANKS)}
VALUE = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}


def value(card: str) -> int:
    return VALUE[card[0]]


def side(record: dict[str, Any], seat: int) -> int:
    return seat % 2 if record["rules"]["teams"] else seat


def plays(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry for deal in record["deals"] for entry in deal["pegging"] if entry["type"] == "play"]


def engine_events(game: CribbageGame) -> list[tuple[str, int | None, list[Any]]]:
    """The finished game's events (unhidden), replayed on a fresh engine from its action log."""
    fresh = CribbageGame(game.mode, game.seed, game.rules.as_dict())
    events = []
    for seat, kind, params in game.action_log:
        events += [(event.type, event.player, event.params) for event in fresh.apply(seat, kind, params)]
    return events


def check_against_events(game: CribbageGame, record: dict[str, Any]) -> None:
    events = engine_events(game)
    deals = record["deals"]
    dealt = [params for kind, _, params in events if kind == "Deal"]
    assert [[seat, hand] for deal in deals for seat, hand in enumerate(deal["dealt"])] == dealt
    assert [deal["dealer"] for deal in deals] == [player for kind, player, p in events if kind == "Deal" and p[0] == 0]
    starters = [p[0] for kind, _, p in events if kind == "Starter"]
    assert [deal["starter"] for deal in deals if deal["starter"]] == starters
    assert [[e["seat"], e["card"], e["count"]] for e in plays(record)] == \
        [[player, p[0], p[3]] for kind, player, p in events if kind == "Played"]
    assert [[e["seat"], e["reason"]] for d in deals for e in d["pegging"] if e["type"] == "go point"] == \
        [[player, p[2]] for kind, player, p in events if kind == "GoPoint"]
    assert [[s["seat"], s["what"], s["cards"], s["starter"]] for d in deals for s in d["shows"]] == \
        [[player, *p] for kind, player, p in events if kind == "Show"]
    assert sum(len(d["pegging"]) for d in deals) == sum(
        kind in ("Played", "Go", "GoPoint", "CountReset") for kind, _, _ in events)


def check_against_engine(game: CribbageGame, record: dict[str, Any]) -> None:
    """The record's rules, last deal and result are the finished engine's own state."""
    outcome = game.result()
    result = record["result"]
    for key in ("winner", "scores", "margin", "skunk", "hands_dealt"):
        assert result[key] == outcome[key], key
    assert result["finished"] is game.is_over and len(record["deals"]) == outcome["hands_dealt"]
    assert {key: record["rules"][key] for key in ("counting", "variants", "first_dealer")} == game.rules.as_dict()
    table = game.view(None, reveal_all=True)
    last = record["deals"][-1]
    assert last["kept"] == table["kept_hands"] and last["crib"] == table["crib"]
    assert last["dealer"] == table["dealer"]
    log = game.action_log
    assert [e["card"] for e in plays(record)] == [params[0] for _, kind, params in log if kind == "play"]
    stated = [(seat, cards) for deal in record["deals"] for seat, cards in enumerate(deal["discards"])]
    assert sorted(stated) == sorted((seat, params) for seat, kind, params in log if kind == "discard")


def check_cards(record: dict[str, Any]) -> None:
    """Each deal is 52-card-deck consistent: kept + laid away = dealt; crib and starter apart."""
    for deal in record["deals"]:
        extra = [deal["crib_card"]] if deal["crib_card"] else []
        everything = [card for hand in deal["dealt"] for card in hand] + extra + [deal["starter"]]
        assert len(set(everything)) == len(everything)
        assert all(deal["starter"] not in hand for hand in [*deal["dealt"], *deal["kept"], deal["crib"]])
        for dealt, kept, away in zip(deal["dealt"], deal["kept"], deal["discards"]):
            assert Counter(dealt) == Counter(kept) + Counter(away) and len(kept) == 4
        assert sorted(deal["crib"]) == sorted(extra + [c for away in deal["discards"] for c in away])
        assert len(deal["crib"]) == 4


def check_pegging(record: dict[str, Any]) -> None:
    """Running counts from the card values; each score item is what it says it is."""
    for deal in record["deals"]:
        run: list[str] = []
        for entry in deal["pegging"]:
            if entry["type"] == "reset":
                run = []
            elif entry["type"] == "play":
                run.append(entry["card"])
                assert entry["count"] == sum(map(value, run)) <= 31
                check_items(entry["items"], entry["points"])
                for item in entry["items"]:
                    assert item["cards"] == run[-len(item["cards"]):]  # what pegs is the play's tail
                    if item["name"] in ("fifteen", "thirty-one"):
                        assert item["cards"] == run


def check_items(items: list[dict[str, Any]], points: int) -> None:
    assert sum(item["points"] for item in items) == points
    for item in items:
        cards, name = item["cards"], item["name"]
        if name == "fifteen":
            assert sum(map(value, cards)) == 15 and item["points"] == 2
        elif name == "thirty-one":
            assert sum(map(value, cards)) == 31 and item["points"] == 2
        elif "pair" in name:
            assert len({card[0] for card in cards}) == 1
            assert item["points"] == {2: 2, 3: 6, 4: 12}[len(cards)]
        elif name == "run":
            ranks = sorted(RANK[card[0]] for card in cards)
            assert ranks == list(range(ranks[0], ranks[0] + len(cards))) and item["points"] == len(cards) >= 3
        elif name == "flush":
            assert len({card[1] for card in cards}) == 1 and item["points"] == len(cards)
        else:
            assert name == "nobs" and cards[0][0] == "J" and item["points"] == 1


def check_shows(record: dict[str, Any]) -> None:
    seats = record["rules"]["players"]
    for deal in record["deals"]:
        order = [((deal["dealer"] + step) % seats, "hand") for step in range(1, seats + 1)]
        order.append((deal["dealer"], "crib"))
        assert [(show["seat"], show["what"]) for show in deal["shows"]] == order[:len(deal["shows"])]
        for show in deal["shows"]:
            if show["points"] is None:
                continue  # claimed, not settled: the game ended on it
            assert show["cards"] == (deal["crib"] if show["what"] == "crib" else deal["kept"][show["seat"]])
            assert show["starter"] == deal["starter"]
            check_items(show["items"], show["points"])
            for item in show["items"]:
                assert set(item["cards"]) <= {*show["cards"], show["starter"]}
                if item["name"] == "nobs":
                    assert item["cards"][0][1] == show["starter"][1]


def check_muggins(record: dict[str, Any]) -> None:
    seats = record["rules"]["players"]
    variants = record["rules"]["variants"]
    for deal in record["deals"]:
        for entry in [*deal["pegging"], *deal["shows"]]:
            muggins = entry.get("muggins")
            if entry.get("claimed") is not None and entry["scored"] is not None:
                expected = muggins["stated"] if muggins and muggins["passed"] else entry["claimed"]
                assert entry["scored"] == expected
            if not muggins:
                continue
            assert side(record, muggins["caller"]) != side(record, entry["seat"])
            assert sorted(seat for seat, _ in muggins["votes"]) == sorted(set(range(seats)) - {muggins["caller"]})
            assert muggins["passed"] == all(vote for _, vote in muggins["votes"])
            gap = muggins["stated"] - entry["claimed"]
            if muggins["passed"]:
                assert muggins["to_claimer"] == gap
                assert muggins["to_caller"] == (0 if "N" in variants else max(0, gap))
            else:
                assert muggins["to_claimer"] == 0
                # Under D a failed call costs the points in dispute, but never below nothing.
                lost = abs(gap) if "D" in variants else 0
                floored = lost > 0 and -lost < muggins["to_caller"] <= 0 and muggins["caller_score"] == 0
                assert muggins["to_caller"] == -lost or floored


def tally(record: dict[str, Any]) -> dict[int, int]:
    """Each side's points, summed from the record's entries (start, pegging, heels, shows, muggins)."""
    totals = {side(record, seat): score for seat, score in enumerate(record["game"]["start_scores"])}
    for deal in record["deals"]:
        totals[side(record, deal["dealer"])] += deal["his_heels"]
        for entry in [*deal["pegging"], *deal["shows"]]:
            if entry.get("type") == "go point":
                totals[side(record, entry["seat"])] += entry["points"]
            elif "what" in entry or entry["type"] == "play":  # a show, or a card pegged
                totals[side(record, entry["seat"])] += entry["scored"]
            if entry.get("muggins"):
                totals[side(record, entry["muggins"]["caller"])] += entry["muggins"]["to_caller"]
    return totals


def check_totals(record: dict[str, Any]) -> None:
    """Pegging + his heels + shows + muggins = each side's final score (capped at the game hole)."""
    totals = tally(record)
    result = record["result"]
    for seat, score in enumerate(result["scores"]):
        assert min(totals[side(record, seat)], WIN) == score
    assert {row["side"]: row["total"] for row in result["sides"]} == totals
    winner = side(record, result["winner"])
    runner_up = max(score for s, score in totals.items() if s != winner)
    assert totals[winner] >= WIN and result["margin"] == WIN - min(runner_up, WIN)
    expected = "double skunk" if runner_up < DOUBLE_SKUNK else "skunk" if runner_up < SKUNK else ""
    assert result["skunk"] == expected
    assert result["winner_name"] == record["players"][result["winner"]]["name"]


def check_running_scores(record: dict[str, Any]) -> None:
    """Automatic counting: each entry's announced score is the running tally of its side."""
    totals = {side(record, seat): score for seat, score in enumerate(record["game"]["start_scores"])}
    for deal in record["deals"]:
        totals[side(record, deal["dealer"])] += deal["his_heels"]
        for entry in [*deal["pegging"], *deal["shows"]]:
            if entry.get("type") in ("go", "reset"):
                continue
            who = side(record, entry["seat"])
            totals[who] += entry["points"]
            assert entry["score"] == min(totals[who], WIN)
        assert deal["scores"] == [min(totals[side(record, seat)], WIN) for seat in range(len(deal["scores"]))]


def check_all(game: CribbageGame, record: dict[str, Any]) -> None:
    check_against_events(game, record)
    check_against_engine(game, record)
    check_cards(record)
    check_pegging(record)
    check_shows(record)
    check_muggins(record)
    check_totals(record)
    if record["rules"]["counting"] == "auto":
        check_running_scores(record)
