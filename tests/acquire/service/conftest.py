"""Shared data for the Acquire platform tests: the oracle games, read in place, never copied."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

ORACLE = (Path(__file__).resolve().parents[3] / ".." / "shared" / "oracle" / "acquire" / "games.jsonl").resolve()


@cache
def oracle_games() -> list[dict[str, Any]]:
    with ORACLE.open() as handle:
        return [json.loads(line) for line in handle if line.strip()]


def first_of_each_mode() -> list[dict[str, Any]]:
    """One oracle game per mode the oracle covers (every mode but 1 and 8)."""
    seen: dict[int, dict[str, Any]] = {}
    for record in oracle_games():
        seen.setdefault(record["review"][0], record)
    return [seen[mode] for mode in sorted(seen)]
