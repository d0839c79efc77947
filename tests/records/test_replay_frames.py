"""Replay steps of a finished game come from its stored replay frames (games/records/frames.py), built once
after the game ends: every step, for the spectator and for each seat, equals the step replayed from
the log, and reading one builds no engine."""

from __future__ import annotations

import io
import json
import zlib
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game, GameRecord, ReplayFrame, Seat
from games.records import frames, store
from games.service import lifecycle, reads
from games.state import replay as state
from tests.records.test_records import GAMES, no_replay, play_bots

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: the frames are built after the end


def written(value: Any) -> Any:
    return json.loads(json.dumps(value))


def viewers(game: Game) -> list[int | None]:
    return [None, *Seat.objects.filter(game=game).exclude(position=None).values_list("position", flat=True)]


def logged(game: Game, viewer: int | None, step: int) -> dict[str, Any]:
    return written(reads.logged_step(game, viewer, step, reveal=True))


def stepped(answer: dict[str, Any]) -> dict[str, Any]:
    """A stored step's answer without what only the frames know: which visible step it is in
    (tests/records/test_visible_steps.py checks those against the log)."""
    return {k: v for k, v in written(answer).items() if not k.startswith("visible_")}


def checked(game: Game) -> list[tuple[int | None, int]]:
    """The (viewer, step) pairs checked: all of them, but in a riichi game (hundreds of steps of
    30 KB views) the spectator's at every third step and the seats' at every sixteenth. Each step
    read applies the changes of the steps before it in its chunk, so the ones between are read
    too, if not compared."""
    seats = viewers(game)
    spectator, seat = (1, 1) if game.game_type != "riichi" else (3, 16)
    return [(viewer, step) for step in range(game.seq + 1) for viewer in seats
            if step % (spectator if viewer is None else seat) == 0 or step == game.seq]


def from_the_log(game: Game, wanted: list[tuple[int | None, int]]) -> dict[tuple[int | None, int], Any]:
    """Each wanted step's revealed view and history, in one pass over the log, each written down
    before the next action (an engine's view may hand out lists it changes later)."""
    out = {}
    for step, entry in enumerate(state.replaying(game)):
        for viewer in (v for v, s in wanted if s == step):
            out[(viewer, step)] = written({"view": entry.engine.view(viewer, reveal_all=True),
                                           "history": state.render_history(entry.history, viewer, True)})
    return out


@pytest.mark.parametrize(("game_type", "arguments", "kind"), GAMES, ids=[g[0] for g in GAMES])
def test_every_step_of_the_replay_equals_the_log_and_reads_no_engine(make_user, monkeypatch, game_type,
                                                                     arguments, kind):
    game = play_bots(game_type, arguments)
    # Not built when the game ended: by the first replay step asked.
    assert not ReplayFrame.objects.filter(game=game).exists()
    assert GameRecord.objects.get(game=game).message_steps is None
    reads._stored_step(game, None, 0)
    record = GameRecord.objects.get(game=game)
    assert record.frames_every == frames.EVERY and len(record.message_steps) == len(record.history)
    assert ReplayFrame.objects.filter(game=game).count() == game.seq // frames.EVERY + 1
    wanted = checked(game)
    expected = from_the_log(game, wanted)
    assert len(expected) == len(wanted)

    no_replay(monkeypatch)
    stored = {(viewer, step): reads._stored_step(game, viewer, step) for viewer, step in wanted}
    monkeypatch.undo()

    for (viewer, step), answer in stored.items():
        assert written(answer["view"]) == expected[(viewer, step)]["view"], (viewer, step)
        assert answer["history"] == expected[(viewer, step)]["history"], (viewer, step)
        assert answer["steps"] == game.seq
    # The whole answer, message steps included, against the replay the log gives at some steps
    # (each replays the game up to there).
    for step in sorted({0, 1, game.seq // 3, game.seq // 2 + 1, game.seq - 1, game.seq}):
        for viewer in viewers(game):
            assert stepped(reads._stored_step(game, viewer, step)) == logged(game, viewer, step), (viewer, step)


def test_the_replay_api_reads_the_frames(client, make_user, monkeypatch):
    game = play_bots("cribbage", ["--players", "2"])
    player = Seat.objects.filter(game=game, position=1).get().user
    expected = logged(game, 1, game.seq // 2)
    client.force_login(player)
    assert client.get(reverse("api-game-replay", args=[game.id]), {"step": 0}).status_code == 200  # builds them
    no_replay(monkeypatch)
    response = client.get(reverse("api-game-replay", args=[game.id]), {"step": game.seq // 2})
    assert response.status_code == 200, response.content
    assert stepped(response.json()) == expected


def test_a_game_without_frames_gets_them_on_its_first_replay_step(make_user):
    game = play_bots("acquire", ["--players", "2"])
    ReplayFrame.objects.filter(game=game).delete()
    GameRecord.objects.filter(game=game).update(message_steps=None, frames_every=0)
    step = game.seq - 2
    assert stepped(reads._stored_step(game, None, step)) == logged(game, None, step)
    assert ReplayFrame.objects.filter(game=game).count() == game.seq // frames.EVERY + 1


def test_records_rebuild_writes_the_frames_again(make_user):
    game = play_bots("cribbage", ["--players", "2"])
    ReplayFrame.objects.filter(game=game).update(data=b"")
    call_command("records", "rebuild", "--game", str(game.id), stdout=io.StringIO())
    assert stepped(reads._stored_step(game, 0, game.seq)) == logged(game, 0, game.seq)


def test_records_verify_finds_tampered_frames(make_user):
    game = play_bots("cribbage", ["--players", "2"])
    assert store.verify(game) == []  # the record; no frames yet
    store.build_frames(game)  # as the first replay step does
    assert store.verify(game) == []
    frame = ReplayFrame.objects.get(game=game, chunk=0)
    frame.data = frames_with_a_changed_base(bytes(frame.data))
    frame.save()
    assert store.verify(game) == ["frames: the stored replay frames differ from the log's"]
    GameRecord.objects.filter(game=game).update(message_steps=[0])
    assert "message_steps" in store.verify(game)[0]


def frames_with_a_changed_base(chunk: bytes) -> bytes:
    frame = json.loads(zlib.decompress(chunk))
    frame["base"]["tampered"] = True
    return zlib.compress(json.dumps(frame).encode())


def test_an_aborted_game_steps_from_frames_built_on_the_first_step(make_user):
    from games.service import lobby

    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules={"場数": 1})
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    lifecycle.abort(game.id)
    game = Game.objects.get(id=game.id)
    assert game.is_over and not ReplayFrame.objects.filter(game=game).exists()
    for viewer in viewers(game):
        assert stepped(reads._stored_step(game, viewer, game.seq)) == logged(game, viewer, game.seq)
    assert store.verify(game) == []
