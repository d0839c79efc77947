"""A record changed by hand fails ``verify_record``, with a difference that names the field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.cribbage.engine.cards import new_deck
from games.cribbage.records.record_check import verify_record
from tests.cribbage.records.players import play_game, record_of


@pytest.fixture(scope="module")
def auto_record() -> dict[str, Any]:
    return json.loads(json.dumps(record_of(play_game(2, 21, {}))))


@pytest.fixture(scope="module")
def manual_record() -> dict[str, Any]:
    return json.loads(json.dumps(record_of(play_game(3, 21, {"counting": "manual", "variants": "D"},
                                                     sloppy={0: 0.3}))))


def tampered(record: dict[str, Any]) -> dict[str, Any]:
    assert verify_record(record) == []  # the untouched record is fine: the change is what fails
    return copy.deepcopy(record)


def first_play(deal: dict[str, Any], scoring: bool = False) -> int:
    return next(i for i, e in enumerate(deal["pegging"]) if e["type"] == "play" and (e["points"] or not scoring))


def test_a_wrong_running_count(auto_record: dict[str, Any]) -> None:
    record = tampered(auto_record)
    index = first_play(record["deals"][1])
    entry = record["deals"][1]["pegging"][index]
    entry["count"] += 1
    assert verify_record(record) == [f"deals[1].pegging[{index}].count: the record says {entry['count']}, "
                                     f"the replay gives {entry['count'] - 1}"]


def test_wrong_pegged_points(auto_record: dict[str, Any]) -> None:
    record = tampered(auto_record)
    index = first_play(record["deals"][0], scoring=True)
    record["deals"][0]["pegging"][index]["scored"] += 1
    assert verify_record(record) == [f"deals[0].pegging[{index}].scored: the record says "
                                     f"{record['deals'][0]['pegging'][index]['scored']}, the replay gives "
                                     f"{record['deals'][0]['pegging'][index]['scored'] - 1}"]


def test_a_wrong_show_total_and_item(auto_record: dict[str, Any]) -> None:
    record = tampered(auto_record)
    show = record["deals"][2]["shows"][0]
    show["points"] += 2
    show["items"].append({"name": "fifteen", "points": 2, "cards": show["cards"][:2]})
    problems = verify_record(record)
    assert problems[0].startswith("deals[2].shows[0].points: the record says")
    assert problems[1].startswith("deals[2].shows[0].items: the record has")


def test_a_wrong_final_score_winner_and_skunk(auto_record: dict[str, Any]) -> None:
    record = tampered(auto_record)
    result = record["result"]
    result["scores"][0] -= 1
    result["winner"] = 1 - result["winner"]
    result["skunk"] = "double skunk"
    problems = verify_record(record)
    assert [problem.split(":")[0] for problem in problems] == ["result.winner", "result.scores[0]", "result.skunk"]


def test_a_changed_card_in_a_hand(auto_record: dict[str, Any]) -> None:
    """A card swapped for one nobody was dealt: the engine refuses the first decision that uses the
    real card, and the seed does not deal the changed hand."""
    record = tampered(auto_record)
    deal = record["deals"][3]
    seat = (deal["dealer"] + 1) % 2
    card = deal["kept"][seat][0]
    unused = next(c for c in new_deck() if c not in {*sum(deal["dealt"], []), deal["starter"]})
    deal["dealt"][seat][deal["dealt"][seat].index(card)] = unused
    problems = verify_record(record)
    assert problems[0].startswith("deals[3].pegging[") and f"{card} is not in your hand" in problems[0]
    assert problems[1].startswith("deals[3].dealt: the record says") and "seed 21 deals" in problems[1]


def test_a_changed_starter(auto_record: dict[str, Any]) -> None:
    record = tampered(auto_record)
    deal = record["deals"][0]
    unused = next(c for c in new_deck() if c not in {*sum(deal["dealt"], []), deal["starter"]} and c[0] in "5J")
    deal["starter"] = unused
    problems = verify_record(record)
    # Right after the refusal, if the changed counts end the game early and the replay refuses a
    # decision after its end.
    seed_line = next(p for p in problems if "seed 21 deals" in p)
    assert seed_line.startswith("deals[0].starter: the record says") and problems.index(seed_line) <= 1
    assert any(p.startswith("deals[0].shows[0].starter: the record says") for p in problems)


def test_an_unplayed_card_is_caught_by_the_seed() -> None:
    """The last hand's cards that were never played (the game ended in the play) leave no trace in
    any later event; only the seed can tell that one was changed."""
    for seed in range(60):
        record = json.loads(json.dumps(record_of(play_game(2, seed, {}))))
        deal = record["deals"][-1]
        played = {e["card"] for e in deal["pegging"] if e["type"] == "play"}
        held = [(s, c) for s, hand in enumerate(deal["kept"]) for c in hand if c not in played]
        if record["result"]["ended_during"] == "play" and held:
            break
    else:
        pytest.fail("no game on seeds 0..59 ended in the play with a card still held")
    seat, card = held[0]
    unused = next(c for c in new_deck() if c not in {*sum(deal["dealt"], []), deal["starter"], *deal["crib"]})
    for hand in (deal["dealt"][seat], deal["kept"][seat]):
        hand[hand.index(card)] = unused
    number = len(record["deals"]) - 1
    assert verify_record(record) == [f"deals[{number}].dealt: the record says {json.dumps(deal['dealt'])}, "
                                     f"seed {seed} deals {json.dumps(_swap(deal['dealt'], unused, card))}"]


def _swap(hands: list[list[str]], old: str, new: str) -> list[list[str]]:
    return [[new if c == old else c for c in hand] for hand in hands]


def test_a_changed_claim_and_a_flipped_vote(manual_record: dict[str, Any]) -> None:
    record = tampered(manual_record)
    entry = next(e for d in record["deals"] for e in [*d["pegging"], *d["shows"]]
                 if e.get("muggins") and e["muggins"]["passed"])
    entry["muggins"]["votes"][0][1] = False
    problems = verify_record(record)
    assert problems and any(".muggins.passed: the record says true, the replay gives false" in p for p in problems)

    record = tampered(manual_record)
    index, entry = next((i, e) for i, e in enumerate(record["deals"][0]["pegging"])
                        if e["type"] == "play" and not e["muggins"])
    entry["claimed"] += 1  # a decision: the replay pegs it, and the score after it differs
    problems = verify_record(record)
    assert f"deals[0].pegging[{index}].score" in " ".join(problems)


def test_a_dropped_card_and_a_dropped_deal(manual_record: dict[str, Any]) -> None:
    record = tampered(manual_record)
    index = first_play(record["deals"][1])
    del record["deals"][1]["pegging"][index]
    # The next card is the first decision out of turn (the dropped one's player's, or the count's).
    assert verify_record(record)[0].startswith(f"deals[1].pegging[{index}]: the engine refuses it")

    record = tampered(manual_record)
    del record["deals"][-1]
    assert verify_record(record)[0].startswith(f"deals[{len(record['deals']) - 1}].")


@pytest.mark.parametrize(("change", "problem"), [
    (lambda r: r.update(format="paifu"), "not a cribbage-record document"),
    (lambda r: r.update(version=2), "cribbage-record version 2: this checker reads version 1"),
    (lambda r: r.pop("deals"), "deals: missing or malformed"),
    (lambda r: r["rules"].update(counting="sometimes"), "rules: counting is 'auto' or 'manual'"),
    (lambda r: r["players"].pop(), "players: the record has 2 entries, the replay 3"),
    (lambda r: r["players"][1].update(team=1), "players[1].team: the record says 1, the replay gives null"),
    (lambda r: r["deals"][0].update(remark="good game"), "deals[0].remark: not part of a cribbage record"),
])
def test_malformed_records(manual_record: dict[str, Any], change: Any, problem: str) -> None:
    record = tampered(manual_record)
    change(record)
    assert verify_record(record)[0].startswith(problem)


def test_a_malformed_entry_is_named(manual_record: dict[str, Any]) -> None:
    record = tampered(manual_record)
    index = first_play(record["deals"][2])
    del record["deals"][2]["pegging"][index]["card"]
    assert verify_record(record)[0] == f"deals[2].pegging[{index}]: malformed: KeyError('card')"
