"""An invariant over random seeds: every bot game's record verifies, and each side's points,
summed from the record's entries, are its final score."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cribbage.records.record_check import verify_record
from tests.cribbage.records.checks import check_cards, check_pegging, check_totals
from tests.cribbage.records.players import play_game, record_of


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), mode=st.sampled_from([2, 3, 4]),
       rules=st.sampled_from([{}, {"counting": "manual", "variants": "D"}, {"counting": "manual", "variants": "N"}]))
def test_every_record_verifies_and_adds_up(seed: int, mode: int, rules: dict[str, str]) -> None:
    record = json.loads(json.dumps(record_of(play_game(mode, seed, rules, sloppy={seed % mode: 0.2}))))
    assert verify_record(record) == []
    check_cards(record)
    check_pegging(record)
    check_totals(record)
