"""``manage.py cribbage_record verify``: OK or the differences per record, exit status 1 on any."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.cribbage.records.players import play_game, record_of

REPO = Path(__file__).resolve().parents[3]


def verify(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "cribbage_record", "verify", *map(str, paths)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return json.loads(json.dumps(record_of(play_game(3, 2, {"counting": "manual"}, sloppy={2: 0.2}))))


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=1))
    return path


def test_a_good_record_exits_0(tmp_path: Path, record: dict[str, Any]) -> None:
    path = write(tmp_path / "good.json", record)
    done = verify(path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"{path}  OK", "1 records, 0 with differences"]


def test_a_tampered_record_exits_1_and_says_where(tmp_path: Path, record: dict[str, Any]) -> None:
    good = write(tmp_path / "good.json", record)
    record = copy.deepcopy(record)  # the fixture is the module's
    record["result"]["margin"] += 1
    bad = write(tmp_path / "bad.json", record)
    done = verify(good, bad)
    assert done.returncode == 1
    margin = record["result"]["margin"]
    assert done.stdout.splitlines() == [
        f"{good}  OK",
        f"{bad}  1 difference(s):",
        f"  result.margin: the record says {margin}, the replay gives {margin - 1}",
        "2 records, 1 with differences",
    ]
    assert "1 record(s) or file(s) did not verify" in done.stderr


def test_a_list_of_records_and_an_unreadable_file(tmp_path: Path, record: dict[str, Any]) -> None:
    both = write(tmp_path / "both.json", [record, {"format": "paifu"}])
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 record"):
        call_command("cribbage_record", "verify", str(both), str(broken), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{both}[0]  OK"
    assert lines[1:3] == [f"{both}[1]  1 difference(s):", "  not a cribbage-record document"]
    assert lines[3].startswith(f"{broken}  UNREADABLE: ") and lines[-1] == "2 records, 2 with differences"


def test_quiet_prints_only_differences(tmp_path: Path, record: dict[str, Any]) -> None:
    out = io.StringIO()
    call_command("cribbage_record", "verify", "--quiet", str(write(tmp_path / "r.json", record)), stdout=out)
    assert out.getvalue().splitlines() == ["1 records, 0 with differences"]
