"""Files of Acquire game reviews, and checking them against the engine (no Django here).

A file holds one JSON review array, a JSON array of them, or JSON lines, each line a bare
review array or an object like the oracle's lines (``review`` plus the expected
``action_types``, ``final_net_dollars``, ``final_cash_dollars`` and ``end_reason``, all optional).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.acquire.engine.game import AcquireGame
from games.acquire.engine.review import parse_review
from games.core.engine import Rejection

EXPECTATIONS = ("action_types", "final_net_dollars", "final_cash_dollars", "end_reason")


@dataclass
class ReviewRecord:
    """One game read from a file, with whatever results the file expects of it."""

    source: str  # "path:line" (line 1 for a whole-file JSON document)
    review: Any
    expected: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # why the entry could not even be read


@dataclass
class Verdict:
    record: ReviewRecord
    game: AcquireGame | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _is_review(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 9 and isinstance(value[0], int)


def _record(source: str, value: Any) -> ReviewRecord:
    if isinstance(value, dict):
        expected = {key: value[key] for key in EXPECTATIONS if value.get(key) is not None}
        return ReviewRecord(source, value.get("review"), expected)
    return ReviewRecord(source, value)


def read_records(path: str | Path) -> list[ReviewRecord]:
    """Every game in the file; a line that is not JSON becomes a record that fails to verify."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    else:
        if _is_review(whole) or isinstance(whole, dict):
            return [_record(f"{path}:1", whole)]
        if isinstance(whole, list):
            return [_record(f"{path}:1[{i}]", item) for i, item in enumerate(whole)]
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            records.append(ReviewRecord(f"{path}:{number}", None, error=f"not JSON: {error}"))
            continue
        records.append(_record(f"{path}:{number}", value))
    return records


def verify(record: ReviewRecord) -> Verdict:
    """Replay the review step by step; note every illegal action and every differing result."""
    verdict = Verdict(record)
    if record.error:
        verdict.problems.append(record.error)
        return verdict
    try:
        parsed = parse_review(record.review)
        game = AcquireGame.from_tile_bag(parsed.mode, parsed.tile_bag, host=parsed.host_seat)
    except (ValueError, TypeError, IndexError) as error:
        verdict.problems.append(f"not a game review: {error}")
        return verdict
    verdict.game = game
    types = record.expected.get("action_types")
    if types is not None and len(types) != len(parsed.actions):
        verdict.problems.append(f"{len(parsed.actions)} actions but {len(types)} action types")
    for index, action in enumerate(parsed.actions):
        seat, kind = game.decision
        if types is not None and index < len(types) and types[index] != kind:
            verdict.problems.append(f"action {index}: the game expects {kind}, the record says {types[index]}")
            return verdict
        try:
            game.apply(seat, kind, action.params)
        except Rejection as rejection:
            verdict.problems.append(f"action {index} ({kind} {action.params!r}, seat {seat}): {rejection.reason}")
            return verdict
    _compare(verdict, game)
    return verdict


def _compare(verdict: Verdict, game: AcquireGame) -> None:
    expected = verdict.record.expected
    result = game.result()
    actual = {
        "final_net_dollars": result["scores"],
        "final_cash_dollars": result["cash"],
        "end_reason": game.end_reason,
    }
    for key, value in actual.items():
        if key in expected and expected[key] != value:
            verdict.problems.append(f"{key}: expected {expected[key]!r}, replay gives {value!r}")


__all__ = ["ReviewRecord", "Verdict", "read_records", "verify"]
