"""``manage.py paifu verify``: per-game OK or divergence, a summary, exit status 1 on divergence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.riichi.engine.oracle import ORACLE, script_games

REPO = Path(__file__).resolve().parents[3]
SCRIPT_RULE = {"順位点": ["20", "10", "-10", "-20"]}


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "paifu", "verify", *args], cwd=REPO,
                          capture_output=True, text=True)


def test_script_json_verifies() -> None:
    done = verify("--rule", json.dumps(SCRIPT_RULE), str(ORACLE / "script.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert sum(line.endswith("  OK") for line in lines) == 37
    assert lines[-1].startswith("37 games, 374 hands, 0 divergences")


def test_json_lines_with_rules_and_a_divergence(tmp_path: Path) -> None:
    games = script_games()[:3]
    bad = json.loads(json.dumps(games[1]))
    bad["point"] = ["1", "2", "3", "4"]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps({"rule": SCRIPT_RULE, "paifu": g}, ensure_ascii=False) + "\n"
                            for g in (games[0], bad, games[2])))
    done = verify(str(path))
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    assert lines[0].endswith("OK") and lines[2].endswith("OK")
    assert "DIVERGES at result: point" in lines[1]
    assert lines[-1].startswith("3 games, ") and "1 divergences" in lines[-1]
    assert "1 of 3 games diverged" in done.stderr


def test_unreadable_input_fails(tmp_path: Path) -> None:
    path = tmp_path / "nothing.json"
    path.write_text('{"hello": 1}')
    done = verify(str(path))
    assert done.returncode != 0 and "not a paifu" in done.stderr
