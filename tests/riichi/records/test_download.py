"""The paifu download in the analysers' formats (``GET /api/games/<id>/paifu/?format=``): what a
player gets from the site is what the converters write, and convlog reads it."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game, Status
from games.records import store
from games.riichi.records.exports import to_mjai, to_tenhou6
from games.service import lobby
from tests.riichi.records.readers import convlog_events

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(make_user) -> Game:
    call_command("playbots", "riichi", "--games", "1", "--seed", "3", "--rule", json.dumps({"場数": 1}),
                 stdout=io.StringIO())
    game = Game.objects.filter(game_type="riichi").order_by("-id").first()
    assert game is not None and game.status == Status.FINISHED
    return game


def test_every_format_downloads_and_reads_back(client, finished):
    url = reverse("api-game-paifu", args=[finished.id])
    paifu = store.native_record(finished)
    majiang = client.get(url)
    assert majiang.status_code == 200 and majiang.json() == paifu
    assert majiang["Content-Disposition"] == f'attachment; filename="riichi-{finished.display_number}.json"'

    tenhou = client.get(url, {"format": "tenhou6"})
    assert tenhou.status_code == 200, tenhou.content
    assert tenhou["Content-Disposition"] == f'attachment; filename="riichi-{finished.display_number}.tenhou6.json"'
    log = tenhou.json()
    assert log == json.loads(json.dumps(to_tenhou6(paifu)))
    # tenhou.net/6 seats count from the first dealer; Majiang's player ids from the table's seat 0.
    assert log["name"] == [paifu["player"][(paifu["qijia"] + i) % 4] for i in range(4)]

    mjai = client.get(url, {"format": "mjai"})
    assert mjai.status_code == 200 and mjai["Content-Type"].startswith("application/x-ndjson")
    assert mjai["Content-Disposition"] == f'attachment; filename="riichi-{finished.display_number}.mjai.jsonl"'
    events = [json.loads(line) for line in mjai.content.decode().splitlines()]
    assert events == json.loads(json.dumps(to_mjai(paifu)))
    # The independent reader makes the same events of the tenhou.net/6 download.
    assert events == convlog_events(log)
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"


def test_an_unknown_format_is_refused_and_a_live_game_has_none(client, finished, make_user):
    answer = client.get(reverse("api-game-paifu", args=[finished.id]), {"format": "xml"})
    assert answer.status_code == 400 and answer.json()["code"] == "InvalidFormat"
    users = [make_user() for _ in range(4)]
    live = lobby.create_table(users[0], "riichi", 4)
    for user in users[1:]:
        lobby.join(user, live.id)
    for user in users:
        lobby.accept(user, live.id)
    client.force_login(make_user(is_staff=True, is_superuser=True))
    for kind in ("tenhou6", "mjai"):
        answer = client.get(reverse("api-game-paifu", args=[live.id]), {"format": kind})
        assert answer.status_code == 409 and answer.json()["code"] == "GameNotOver"
