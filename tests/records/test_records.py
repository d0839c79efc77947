"""Finished games' records (games/records/native.py): stored in the transaction that ends the game, served
without a replay, checked against the log by ``manage.py records verify``, and read back by the
readers of each format."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.acquire.engine.review import parse_review
from games.cribbage.records.record_check import verify_record
from games.models import Game, GameRecord, Status
from games.records import store
from games.riichi.engine.replay import replay as replay_paifu
from games.service import lifecycle, lobby
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: engines go back to the cache

EAST_ONLY = {"場数": 1}
# (game type, playbots arguments, the format its record is written in)
GAMES = [
    ("acquire", ["--players", "2"], "acquire-review"),
    ("cribbage", ["--players", "2"], "cribbage-record"),
    ("riichi", ["--rule", json.dumps(EAST_ONLY)], "majiang-paifu"),
]


def play_bots(game_type: str, arguments: list[str], seed: int = 1) -> Game:
    call_command("playbots", game_type, "--games", "1", "--seed", str(seed), *arguments, stdout=io.StringIO())
    game = Game.objects.filter(game_type=game_type).order_by("-id").first()
    assert game is not None and game.status == Status.FINISHED
    return game


def no_replay(monkeypatch) -> None:
    """From here on, building an engine fails the test: reads must come from the stored record."""
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a finished game was rebuilt from its log")

    monkeypatch.setattr(state, "new_engine", refuse)
    monkeypatch.setattr(state, "replay", refuse)


def read_back(kind: str, document: Any) -> None:
    """Each format's own reader takes the document whole."""
    if kind == "acquire-review":
        parse_review(document)
    elif kind == "cribbage-record":
        assert verify_record(document) == []
    else:
        assert replay_paifu(document, document["rule"]) is None  # no divergence


@pytest.mark.parametrize(("game_type", "arguments", "kind"), GAMES, ids=[g[0] for g in GAMES])
def test_the_record_is_stored_when_the_game_ends_and_served_without_a_replay(
        client, make_user, monkeypatch, game_type, arguments, kind):
    game = play_bots(game_type, arguments)
    stored = GameRecord.objects.get(game=game)  # written with the last action, before any read
    assert (stored.format, stored.version) == (kind, 1) and stored.document
    assert store.verify(game) == []

    no_replay(monkeypatch)
    client.force_login(make_user())
    response = client.get(reverse("api-game-record", args=[game.id]))
    assert response.status_code == 200, response.content
    assert response["X-Record-Format"] == f"{kind}/1"
    assert response["Content-Disposition"] == f'attachment; filename="{kind}-{game.display_number}.json"'
    document = response.json()
    assert document == stored.native() and response.content.decode() == stored.document
    # The type's own download is the same document.
    own = {"acquire": "api-game-review", "riichi": "api-game-paifu"}.get(game_type)
    if own is not None:
        assert client.get(reverse(own, args=[game.id])).json() == document
    monkeypatch.undo()
    read_back(kind, document)


def test_records_verify_finds_a_tampered_record_and_rebuild_mends_it(make_user):
    game = play_bots("cribbage", ["--players", "2"])
    out = io.StringIO()
    call_command("records", "verify", stdout=out)
    assert f"game {game.id} (cribbage" in out.getvalue() and "1 of 1 records agree" in out.getvalue()

    stored = GameRecord.objects.get(game=game)
    document = stored.native()
    document["result"]["scores"][0] += 1
    stored.document = json.dumps(document)
    stored.save()
    out = io.StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command("records", "verify", "--game", str(game.id), stdout=out)
    assert stop.value.code == 1
    assert "DIFFERS" in out.getvalue() and "cribbage-record: the stored document differs" in out.getvalue()

    call_command("records", "rebuild", "--game", str(game.id), stdout=io.StringIO())
    assert store.verify(game) == []


def test_a_game_from_before_records_gets_its_record_on_first_read(make_user):
    game = play_bots("acquire", ["--players", "2"])
    # As the migration found it: history and views, no native record.
    GameRecord.objects.filter(game=game).update(format="", version=0, document="")
    document = store.native_record(Game.objects.get(id=game.id))
    stored = GameRecord.objects.get(game=game)
    assert stored.format == "acquire-review" and stored.native() == document
    assert store.verify(game) == []


def test_no_record_of_a_game_in_progress_even_for_staff(client, make_user):
    users = [make_user() for _ in range(2)]
    game = lobby.create_table(users[0], "cribbage", 2)
    lobby.join(users[1], game.id)
    for user in users:
        lobby.accept(user, game.id)
    staff = make_user(is_staff=True, is_superuser=True)
    client.force_login(staff)
    response = client.get(reverse("api-game-record", args=[game.id]))
    assert response.status_code == 409 and response.json()["code"] == "GameNotOver"
    assert not GameRecord.objects.filter(game=game).exists()


def test_an_aborted_riichi_game_has_no_paifu_record(client, make_user):
    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules=EAST_ONLY)
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    lifecycle.abort(game.id)
    client.force_login(users[0])
    response = client.get(reverse("api-game-record", args=[game.id]))
    assert response.status_code == 409 and response.json()["code"] == "GameAborted"
    assert store.verify(Game.objects.get(id=game.id)) == []


def test_the_migration_writes_the_records_of_games_that_ended_before(make_user):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0010_record_document")
    game = play_bots("cribbage", ["--players", "2"])
    GameRecord.objects.filter(game=game).update(format="", version=0, document="")
    migration.write_records(apps, None)
    stored = GameRecord.objects.get(game=game)
    assert stored.format == "cribbage-record" and stored.version == 1
    assert store.verify(game) == []


def test_the_game_and_replay_pages_and_the_admin_link_the_record(client, make_user):
    game = play_bots("cribbage", ["--players", "2"])
    record = reverse("api-game-record", args=[game.id])
    for page in (reverse("game", args=[game.id]), reverse("game-replay", args=[game.id])):
        html = client.get(page).content.decode()
        assert f'href="{record}"' in html and 'data-testid="download-record"' in html, page
    client.force_login(make_user(is_staff=True, is_superuser=True))
    admin = client.get(reverse("admin:games_game_change", args=[game.id])).content.decode()
    assert f'href="{record}"' in admin

    users = [make_user() for _ in range(2)]
    live = lobby.create_table(users[0], "cribbage", 2)
    assert 'data-testid="download-record"' not in client.get(reverse("game", args=[live.id])).content.decode()


def test_a_record_that_differs_from_its_log_fails_the_action_that_ends_the_game(make_user, monkeypatch):
    from games.models import Action

    monkeypatch.setattr(store, "verify", lambda game, frames: ["history: the stored history differs from the log's"])
    with pytest.raises(RuntimeError, match="record differs from its log"):
        play_bots("cribbage", ["--players", "2"])
    game = Game.objects.get(game_type="cribbage")
    # The whole ending action was refused: the game goes on, its last action not taken.
    assert game.status == Status.ACTIVE and not GameRecord.objects.filter(game=game).exists()
    assert Action.objects.filter(game=game).count() == game.seq
