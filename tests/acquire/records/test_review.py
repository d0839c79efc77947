"""``manage.py acquire_review``: verify reviews against the engine, import them as finished games,
and write a stored game's review back out."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games.acquire.records.review_io import import_review, review_for_game
from games.models import Game, Status
from games.state import replay as state
from tests.acquire.service.conftest import ORACLE, first_of_each_mode, oracle_games

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]


def review_command(*args: str) -> str:
    out = io.StringIO()
    call_command("acquire_review", *args, stdout=out)
    return out.getvalue()


def failing(*args: str) -> tuple[str, str]:
    out = io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command("acquire_review", *args, stdout=out)
    return out.getvalue(), str(error.value)


def write_lines(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_verify_passes_on_the_oracle_in_place() -> None:
    output = review_command("verify", str(ORACLE))
    lines = output.splitlines()
    assert lines[-1] == "100 games, 100 ok, 0 failed"
    first = oracle_games()[0]
    names = first["review"][5]
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, first["final_net_dollars"]))
    assert lines[0] == f"{ORACLE}:1  mode {first['review'][0]}  {first['end_reason']}  {scores}  ok"


def test_verify_reads_a_single_array_and_bare_lines(tmp_path: Path) -> None:
    reviews = [r["review"] for r in oracle_games()[:3]]
    single = tmp_path / "one.json"
    single.write_text(json.dumps(reviews[0], indent=1))
    assert review_command("verify", str(single)).splitlines()[-1] == "1 games, 1 ok, 0 failed"
    bare = write_lines(tmp_path / "bare.jsonl", reviews)
    assert review_command("verify", str(bare), str(single)).splitlines()[-1] == "4 games, 4 ok, 0 failed"


def test_verify_fails_on_a_changed_score(tmp_path: Path) -> None:
    records = copy.deepcopy(oracle_games()[:2])
    records[1]["final_net_dollars"][0] += 100
    output, error = failing("verify", str(write_lines(tmp_path / "t.jsonl", records)))
    assert "1 failed" in error
    assert f"{tmp_path / 't.jsonl'}:2  FAILED" in output
    assert "final_net_dollars: expected" in output


def test_verify_fails_on_an_illegal_action(tmp_path: Path) -> None:
    record = copy.deepcopy(oracle_games()[0])
    review = record["review"]
    # The first PlayTile plays a position tile, which is already on the board.
    index = record["action_types"].index("PlayTile")
    review[8][index] = [[review[7][0]]]
    output, _ = failing("verify", str(write_lines(tmp_path / "t.jsonl", [record])))
    assert f"action {index} (PlayTile" in output and "not in your rack" in output


def test_verify_fails_on_wrong_action_types_and_garbage(tmp_path: Path) -> None:
    record = copy.deepcopy(oracle_games()[0])
    record["action_types"][1] = "SelectNewChain"
    path = write_lines(tmp_path / "t.jsonl", [record])
    with path.open("a") as handle:
        handle.write("not json\n[1, 2, 3]\n")
    output, error = failing("verify", str(path))
    assert "3 games, 0 ok, 3 failed" in error
    assert "action 1: the game expects" in output and "not JSON" in output and "not a game review" in output


def test_verify_exit_status_from_the_command_line(tmp_path: Path) -> None:
    record = copy.deepcopy(oracle_games()[0])
    record["end_reason"] = "AllTilesPlayed" if record["end_reason"] == "EndedGame" else "EndedGame"
    path = write_lines(tmp_path / "t.jsonl", [record])
    env = {**os.environ, "SQLITE_PATH": str(tmp_path / "cli.sqlite3")}
    env.pop("DATABASE_URL", None)
    run = subprocess.run(
        [sys.executable, "manage.py", "acquire_review", "verify", str(path)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "end_reason: expected" in run.stdout and "1 failed" in run.stderr


def with_platform_ids(review: list[Any], game: Game) -> list[Any]:
    """``review`` with the user ids this site gave the imported players."""
    seats = game.seats.order_by("position")
    ids = [s.user_id for s in seats]
    host = ids[review[4].index(review[6])] if review[6] in review[4] else ids[0]
    return [*review[:4], ids, review[5], host, *review[7:]]


def test_import_replays_and_round_trips(tmp_path: Path) -> None:
    records = first_of_each_mode()
    output = review_command("import", str(write_lines(tmp_path / "games.jsonl", records)))
    assert output.splitlines()[-1] == f"{len(records)} games imported"
    games = list(Game.objects.order_by("id"))
    assert len(games) == len(records)
    for game, record in zip(games, records):
        review = record["review"]
        assert (game.game_type, game.mode, game.arrangement, game.status) == (
            "acquire",
            review[0],
            review[1],
            Status.FINISHED,
        )
        assert (game.time_start, game.time_increment, game.seed) == (review[2], review[3], 0)
        assert game.rules["tile_bag"] == review[7]
        assert [s.user.username for s in game.seats.order_by("position")] == review[5]
        assert game.host.username == review[5][0]
        assert list(game.actions.values_list("type", flat=True)) == record["action_types"]
        assert list(game.actions.values_list("seq", flat=True)) == list(range(1, game.seq + 1))
        assert game.result["scores"] == record["final_net_dollars"]
        rebuilt = state.replay(game)  # from seed 0 and rules["tile_bag"]
        assert rebuilt.engine.result() == game.result
        assert rebuilt.engine.end_reason == record["end_reason"]
        assert len(rebuilt.history) == game.history_size
        assert review_for_game(game) == with_platform_ids(review, game)
    # Importing again reuses the players by name.
    users = User.objects.count()
    review_command("import", str(write_lines(tmp_path / "again.jsonl", records[:1])))
    assert User.objects.count() == users


def test_import_keeps_times_auto_flags_and_a_host_not_in_seat_0() -> None:
    review = copy.deepcopy(oracle_games()[0]["review"])
    review[2], review[3] = 300, 10
    review[6] = review[4][1]  # the second player hosted, so the StartGame is theirs
    actions = review[8]
    actions[0] = [actions[0][0], 1_700_000_000_000]
    for index in range(1, 20):
        actions[index] = [actions[index][0], 1500 + index]
    actions[20] = [actions[20][0], None, 1]  # played automatically, time unknown
    actions[21] = [actions[21][0], 1_700_000_100_000, 1]  # absolute again after an unknown time
    actions[22] = [actions[22][0], 250, 1]
    game = import_review(review, imported_at_ms=1_800_000_000_000)
    stored = list(game.actions.order_by("seq"))
    assert stored[0].seat == 1 and stored[0].type == "StartGame"
    assert stored[0].timestamp_ms == 1_700_000_000_000 and stored[1].timestamp_ms == 1_700_000_001_501
    assert (stored[20].timestamp_ms, stored[20].auto) == (1_800_000_000_000, True)
    assert stored[22].timestamp_ms == 1_700_000_100_250 and stored[23].timestamp_ms == 1_800_000_000_000
    assert game.started.timestamp() == 1_700_000_000 and game.created == game.started
    assert game.rules["host_seat"] == 1
    assert state.replay(game).engine.result() == game.result
    assert review_for_game(game) == with_platform_ids(review, game)


def test_import_refuses_illegal_and_unfinished_games(tmp_path: Path) -> None:
    record = copy.deepcopy(oracle_games()[0])
    record["review"][8][3] = [[record["review"][7][0]]]
    _, error = failing("import", str(write_lines(tmp_path / "bad.jsonl", [oracle_games()[1], record])))
    assert "do not verify; nothing imported" in error
    unfinished = copy.deepcopy(oracle_games()[0]["review"])
    del unfinished[8][-5:]
    _, error = failing("import", str(write_lines(tmp_path / "short.jsonl", [oracle_games()[1]["review"], unfinished])))
    assert "not over" in error
    assert not Game.objects.exists()


def test_engine_create_honours_a_stored_tile_bag() -> None:
    from games.acquire.engine.game import AcquireGame
    from games.acquire.engine.modes import MODES

    bag = list(reversed(range(108)))
    game = AcquireGame.create(mode=MODES[3], seed=99, rules={"tile_bag": bag, "host_seat": 2})
    assert game.tile_bag == bag and game.decision == (2, "StartGame")
    assert AcquireGame.create(mode=MODES[3], seed=99, rules={}).tile_bag != bag
    with pytest.raises(ValueError, match="each of the 108 tiles"):
        AcquireGame.create(mode=MODES[3], seed=0, rules={"tile_bag": bag[:-1]})
