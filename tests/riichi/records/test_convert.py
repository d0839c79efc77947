"""``manage.py paifu convert --to tenhou6|mjai FILE...``: any Majiang paifu file, converted on
standard output, one tenhou.net/6 log per line or the mjai events one per line."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.riichi.records.exports import to_mjai, to_tenhou6
from tests.riichi.engine.oracle import ORACLE, script_games
from tests.riichi.records.readers import SCRIPT_RULE, bot_game, convlog_events

RULE = json.dumps({"順位点": ["20", "10", "-10", "-20"]})


def convert(to: str, *files: str, rule: str = "{}") -> list[dict]:
    out = io.StringIO()
    call_command("paifu", "convert", "--to", to, *files, "--rule", rule, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_script_json_converts_to_tenhou6_logs_convlog_reads():
    logs = convert("tenhou6", str(ORACLE / "script.json"), rule=RULE)
    games = script_games()
    assert len(logs) == len(games)
    for log, paifu in zip(logs, games, strict=True):
        assert log == json.loads(json.dumps(to_tenhou6(paifu, SCRIPT_RULE)))
        convlog_events(log)  # raises on a log it cannot read


def test_mjai_events_one_per_line_each_game_from_its_start_game(tmp_path):
    # A downloaded paifu carries its own rule (no --rule): a JSON-lines file of two of them.
    games = [bot_game("tenhou-east", 1), bot_game("no-red", 1)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps({"paifu": paifu}, ensure_ascii=False) + "\n" for paifu in games))
    events = convert("mjai", str(path))
    starts = [i for i, event in enumerate(events) if event["type"] == "start_game"]
    assert len(starts) == 2 and starts[0] == 0
    for paifu, begin, end in zip(games, starts, [*starts[1:], len(events)], strict=True):
        assert events[begin:end] == json.loads(json.dumps(to_mjai(paifu)))
        assert events[begin:end] == convlog_events(to_tenhou6(paifu))
        assert events[end - 1]["type"] == "end_game"


def test_a_file_that_is_not_a_paifu_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"log": [[{"zimo": {}}]]}))
    with pytest.raises(CommandError):
        convert("tenhou6", str(path))
