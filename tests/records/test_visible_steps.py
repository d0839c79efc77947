"""A finished game's replay steps by what a viewer sees (games/records/frames.py): a log step whose
frame (every viewer's revealed view and the history) equals the step before's is folded into the
visible step before it. Checked against a count made here from the log, frame by frame, for a
whole bot game of riichi (whose passes change nothing) and of the other types; every log step
stays addressable and says which visible step it is in."""

from __future__ import annotations

import json
import zlib
from typing import Any

import pytest
from django.urls import reverse

from games.models import Game, ReplayFrame, Seat
from games.records import frames
from games.service import reads
from games.state import replay as state
from tests.records.test_records import GAMES, no_replay, play_bots

pytestmark = pytest.mark.django_db(transaction=True)

VISIBLE = ("visible_step", "visible_steps", "visible_previous", "visible_start", "visible_next")


def seen_frames(game: Game) -> list[str]:
    """Each log step's frame as its viewers see it, from the log: every viewer's revealed view and
    the revealed history, as JSON text (compared as written, so an engine's tuple equals its list).
    The history only grows, so its messages are told by how many there are."""
    viewers = [None, *Seat.objects.filter(game=game).exclude(position=None).values_list("position", flat=True)]
    return [json.dumps({"views": [entry.engine.view(viewer, reveal_all=True) for viewer in viewers],
                        "history": len(entry.history)})
            for entry in state.replaying(game)]


def expected_starts(seen: list[str]) -> list[int]:
    """The log steps that change what is seen (and step 0): where each visible step begins."""
    return [0] + [step for step in range(1, len(seen)) if seen[step] != seen[step - 1]]


def stored_groups(game: Game) -> list[list[Any]]:
    """Every log step's [visible step, previous start, start, next start], as the frames store them."""
    chunks = ReplayFrame.objects.filter(game=game).order_by("chunk").values_list("data", flat=True)
    return [group for chunk in chunks for group in json.loads(zlib.decompress(bytes(chunk)))["groups"]]


@pytest.mark.parametrize(("game_type", "arguments", "kind"), GAMES, ids=[g[0] for g in GAMES])
def test_a_replay_has_as_many_steps_as_visible_changes(make_user, game_type, arguments, kind):
    game = play_bots(game_type, arguments)
    seen = seen_frames(game)
    assert len(seen) == game.seq + 1
    starts = expected_starts(seen)

    end = reads.replay_step(game, None, game.seq, starts=True)  # builds the frames
    assert end["visible_steps"] == len(starts) - 1
    assert end["visible_starts"] == starts
    if game_type == "riichi":
        # Passes that change nothing are folded: far fewer steps than actions.
        assert len(starts) - 1 < game.seq * 2 // 3, (len(starts), game.seq)

    # Every log step names its visible step and where it and its neighbours begin.
    groups = stored_groups(game)
    assert len(groups) == game.seq + 1
    for step, (visible, previous, start, following) in enumerate(groups):
        assert start == max(s for s in starts if s <= step), step
        assert visible == starts.index(start), step
        assert previous == (starts[visible - 1] if visible else None), step
        assert following == (starts[visible + 1] if visible + 1 < len(starts) else None), step


def test_a_folded_step_answers_as_its_visible_step_and_reads_one_chunk(client, make_user, monkeypatch):
    game = play_bots("riichi", ["--rule", json.dumps({"場数": 1})])
    starts = reads.replay_step(game, None, 0, starts=True)["visible_starts"]
    folded = [step for step in range(1, game.seq + 1) if step not in set(starts)]
    assert folded, "a riichi game without a folded step"
    no_replay(monkeypatch)  # from here on, read from the frames
    url = reverse("api-game-replay", args=[game.id])
    for step in (folded[0], folded[len(folded) // 2], folded[-1]):
        answer = client.get(url, {"step": step}).json()
        shown = client.get(url, {"step": answer["visible_start"]}).json()
        # The same view and history as the step that began its visible step.
        assert answer["visible_start"] < step and answer["visible_start"] in starts
        assert {k: v for k, v in answer.items() if k != "step"} == {k: v for k, v in shown.items() if k != "step"}
        visible = answer["visible_step"]
        assert answer["visible_next"] == (starts[visible + 1] if visible + 1 < len(starts) else None)
        assert answer["visible_previous"] == starts[visible - 1]
        assert "visible_starts" not in answer  # only when asked
    # Asked for, the list of starts comes with any step, the same.
    assert client.get(url, {"step": 5, "starts": "true"}).json()["visible_starts"] == starts


def test_a_game_in_progress_has_no_visible_steps(make_user):
    from games.service import lobby

    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules={"場数": 1})
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game = Game.objects.get(id=game.id)
    assert not game.is_over
    answer = reads.replay_step(game, users[0], game.seq, starts=True)
    # Its future is unknown, so is whether a step will turn out visible: the fields are left out.
    assert not set(VISIBLE) & set(answer) and "visible_starts" not in answer


def test_frames_built_before_visible_steps_are_built_again(make_user):
    game = play_bots("cribbage", ["--players", "2"])
    reads.replay_step(game, None, 0)
    # As an older server wrote them: the views only, no groups.
    for frame in ReplayFrame.objects.filter(game=game):
        old = json.loads(zlib.decompress(bytes(frame.data)))
        frame.data = zlib.compress(json.dumps({k: old[k] for k in ("base", "diffs", "seats")}).encode())
        frame.save()
    chunks = ReplayFrame.objects.filter(game=game).order_by("chunk").values_list("data", flat=True)
    assert frames.visible_starts(bytes(c) for c in chunks) is None
    answer = reads.replay_step(game, None, 3, starts=True)
    assert answer["visible_step"] == answer["visible_starts"].index(answer["visible_start"])
    assert "groups" in json.loads(zlib.decompress(bytes(ReplayFrame.objects.filter(game=game).first().data)))
