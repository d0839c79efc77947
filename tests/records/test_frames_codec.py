"""The replay frames' codec (games/records/frames.py): whatever two JSON values are, the patch between them
turns the first into the second once written out and read back, and a chunk gives back every
step's views as they were handed over, even when the views share lists the next step changes."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.records import frames

scalars = (st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=3))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=20,
)


def written(value: Any) -> Any:
    return json.loads(json.dumps(value))


@given(values, values)
@settings(max_examples=400)
def test_a_patch_turns_the_old_value_into_the_new(old: Any, new: Any) -> None:
    change = frames.diff(old, new)
    if change is None:
        assert written(old) == written(new) and type(old) is type(new)
    assert written(frames.patch(written(old), written(change))) == written(new)


@given(values, st.lists(st.lists(scalars, max_size=3), max_size=3))
def test_a_growing_list_is_written_as_what_it_gained(old: Any, gained: list[Any]) -> None:
    log = [old]
    change = frames.diff({"log": log}, {"log": [*log, *gained]})
    assert change == (None if not gained else ["{", {"log": ["+", gained]}, []])


def test_engine_values_compare_as_json_tuples_and_int_keys() -> None:
    assert frames.diff([1, 2], (1, 2)) is None
    assert frames.diff({"3": "A"}, {3: "A"}) is None
    assert frames.diff({"3": "A"}, {3: "B"}) == ["{", {"3": ["=", "B"]}, []]
    assert frames.diff(1, True) == ["=", True]  # equal in Python, not in JSON


@given(st.lists(st.tuples(values, values), min_size=1, max_size=20), st.integers(1, 5))
def test_every_step_reads_back_as_it_was_handed_over(steps: list[tuple[Any, Any]], every: int) -> None:
    shared: list[Any] = []  # one list every step's views hold, grown after each is handed over

    def handed() -> Any:
        for spectator, seat in steps:
            yield {frames.SPECTATOR: {"v": spectator, "log": shared}, "0": {"v": seat, "log": shared}}
            shared.append(len(shared))

    expected = [{frames.SPECTATOR: {"v": s, "log": list(range(n))}, "0": {"v": v, "log": list(range(n))}}
                for n, (s, v) in enumerate(steps)]
    chunks = list(frames.chunks(handed(), every))
    assert len(chunks) == (len(steps) + every - 1) // every
    for number, views in enumerate(expected):
        for viewer, view in views.items():
            assert frames.view_at(chunks[number // every], number % every, viewer) == written(view)


def test_a_step_that_changes_nothing_seen_is_folded_into_the_one_before() -> None:
    def step(spectator: Any, seat: Any, heard: int) -> dict[str, Any]:
        return {frames.SPECTATOR: {"v": spectator}, "0": {"v": seat}, frames.HISTORY: heard}

    steps = [step(0, 0, 0),
             step(0, 0, 0),  # folded: nothing changed
             step(1, 1, 0),  # the spectator's view changed
             step(1, 2, 0),  # only the seat's
             step(1, 2, 1),  # only the history
             step(1, 2, 1),  # folded, and so is the last
             step(1, 2, 1)]
    chunks = list(frames.chunks(steps, 2))  # visible steps across chunks
    starts = [0, 2, 3, 4]
    assert frames.visible_starts(chunks) == starts
    answers = [frames.step_at(chunks[n // 2], n % 2)[1] for n in range(len(steps))]
    assert [a["visible_step"] for a in answers] == [0, 0, 1, 2, 3, 3, 3]
    assert [a["visible_start"] for a in answers] == [0, 0, 2, 3, 4, 4, 4]
    assert [a["visible_previous"] for a in answers] == [None, None, 0, 2, 3, 3, 3]
    assert [a["visible_next"] for a in answers] == [2, 2, 3, 4, None, None, None]
    assert {a["visible_steps"] for a in answers} == {len(starts) - 1}
