"""Decision reviews on the server `make run` starts (``manage.py serve``, a SQLite file): the
worker thread builds a review asked for over REST while the page polls it, and a build left
"building" by a process that died is taken over by the next server's worker (docs/review.md)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.riichi.transport.link import api
from tests.riichi.transport.mmj_peer import post
from tests.served import serve

pytestmark = pytest.mark.own_server

SETUP = """
import json
from datetime import timedelta
import django
django.setup()
from django.core.management import call_command
from django.utils import timezone
from accounts.models import User
from accounts.tokens import token_for
from games.models import RiichiReview
from tests.riichi.review.games import reference_game
call_command("migrate", verbosity=0)
users = [User.objects.create_user(username=f"rs{i}", password=None) for i in range(4)]
asked, left = reference_game(users), reference_game(users)
# A build of seat 1 whose process died half way: its heartbeat long silent.
RiichiReview.objects.create(game=left, seat=1, status="building", done=40, total=120, worker="gone",
                            heartbeat=timezone.now() - timedelta(minutes=10))
print(json.dumps({"token": token_for(users[0]), "asked": asked.id, "left": left.id}))
"""


def built(port: int, token: str, path: str, seconds: float = 90) -> dict[str, Any]:
    """Poll a review as the replay page does until it is built; every answer on the way is a
    state the page can show."""
    deadline = time.monotonic() + seconds
    while True:
        answer = api(port, token, path)
        assert answer["status"] in ("pending", "building", "done"), answer
        assert 0 <= answer["progress"]["done"] <= answer["progress"]["total"] or answer["status"] == "pending", answer
        if answer["status"] == "done":
            return answer
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)


def test_the_server_builds_a_review_asked_for_and_takes_over_one_left_building(tmp_path):
    with serve(tmp_path, SETUP, cribbage=False) as served:
        setup = json.loads(served.setup_output.strip().splitlines()[-1])
        token, port = setup["token"], served.http_port
        asked = post(port, token, f"games/{setup['asked']}/review/0/", {})
        assert asked["status"] in ("pending", "building"), asked  # asked for the first time: not built yet
        done = built(port, token, f"games/{setup['asked']}/review/0/")
        assert done["progress"]["done"] == done["progress"]["total"] > 0
        review = done["review"]
        assert review["seat"] == 0 and review["player"] == "rs0" and review["decisions"] and review["costliest"]
        # The one a dead process left: a reader's look finds its heartbeat stale and a worker of
        # this server builds it from the start.
        taken = built(port, token, f"games/{setup['left']}/review/1/")
        assert taken["review"]["seat"] == 1 and taken["progress"]["done"] == taken["progress"]["total"] > 40
    assert "Traceback" not in served.log.read_text()
