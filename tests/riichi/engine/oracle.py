"""Majiang's reference data (majiang-core test/data), read in place from the shared oracle
directory next to the repository; never copied into it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

ORACLE = (Path(__file__).resolve().parents[3] / ".." / "shared" / "oracle" / "mahjong").resolve()


@cache
def hule_cases() -> list[dict[str, Any]]:
    with (ORACLE / "hule.json").open(encoding="utf-8") as handle:
        return json.load(handle)


@cache
def xiangting_cases(part: int) -> list[dict[str, Any]]:
    with (ORACLE / f"xiangting_{part}.json").open(encoding="utf-8") as handle:
        return json.load(handle)


@cache
def script_games() -> list[dict[str, Any]]:
    with (ORACLE / "script.json").open(encoding="utf-8") as handle:
        return json.load(handle)
