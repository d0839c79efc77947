"""Decision reviews in the service (games/service/review.py): asked for, built, cached, refused,
followed, taken over from a worker that died. Built here by ``run_pending``: the test database is
in memory, so no worker thread is started (``kick`` does nothing), and the tests decide when the
work is done."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.core.errors import Conflict, GameError, NotFound
from games.models import Game, ReviewStatus, RiichiReview, Status
from games.riichi.records.review.build import VERSION
from games.service import review
from tests.riichi.review.games import reference_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user):
    return [make_user(f"rv{i}") for i in range(4)]


@pytest.fixture
def finished(players) -> Game:
    return reference_game(players)


def test_asked_built_then_served_from_the_row(finished):
    asked = review.request(finished, 0)
    assert asked["status"] == "pending" and asked["review"] is None and asked["progress"] == {"done": 0, "total": 0}
    assert review.status(finished, 0)["status"] == "pending"
    assert review.run_pending() == 1
    done = review.status(finished, 0)
    assert done["status"] == "done" and done["error"] is None and done["finished"]
    assert done["progress"]["done"] == done["progress"]["total"] > 0
    built = done["review"]
    assert built["version"] == VERSION and built["seat"] == 0 and built["player"] == "rv0"
    assert built["game"] == finished.id and built["decisions"] and built["costliest"]
    # The download is the stored text, as built.
    assert json.loads(review.document(finished, 0)) == built


def test_asking_again_is_answered_from_the_cache(finished):
    review.request(finished, 1)
    review.run_pending()
    again = review.request(finished, 1)
    assert again["status"] == "done" and again["review"]["seat"] == 1
    assert review.run_pending() == 0  # nothing built twice
    assert RiichiReview.objects.filter(game=finished).count() == 1


def test_the_replay_page_is_told_which_seats_were_asked_for(finished, client):
    """The page reads the state of those seats only (a seat never asked for would be a 404)."""
    def told() -> list[int]:
        return client.get(f"/games/{finished.id}/replay/").context["replay_config"]["reviewed_seats"]

    assert review.reviewed_seats(finished) == [] and told() == []
    review.request(finished, 2)
    review.request(finished, 0)
    assert review.reviewed_seats(finished) == [0, 2] and told() == [0, 2]


def test_reading_a_review_never_replays_the_game(finished, django_assert_max_num_queries):
    review.request(finished, 0)
    review.run_pending()
    with django_assert_max_num_queries(2):  # the seat's existence, the review's row
        review.status(finished, 0)


def test_refused_while_in_progress_and_for_what_has_no_review(players, make_user):
    live = reference_game(players, status=Status.ACTIVE, upto=200)
    with pytest.raises(Conflict) as refused:
        review.request(live, 0)
    assert refused.value.code == "GameNotFinished"
    with pytest.raises(Conflict):
        review.status(live, 0)
    with pytest.raises(Conflict):
        review.document(live, 0)
    assert not RiichiReview.objects.exists()
    aborted = reference_game(players[:1] + [make_user() for _ in range(3)], status=Status.ABORTED, upto=200)
    with pytest.raises(Conflict):
        review.request(aborted, 0)
    acquire = Game.objects.create(game_type="acquire", mode=2, status=Status.FINISHED, seed=3)
    with pytest.raises(NotFound) as other:
        review.request(acquire, 0)
    assert other.value.code == "NoDecisionReview"


def test_a_seat_not_at_the_game_is_refused(finished):
    for seat in (4, 7, 2**70):
        with pytest.raises(GameError) as refused:
            review.request(finished, seat)
        assert refused.value.code == "InvalidSeat"
    with pytest.raises(NotFound) as unasked:
        review.status(finished, 3)
    assert unasked.value.code == "NoReview"
    with pytest.raises(Conflict) as not_ready:
        review.document(finished, 3)
    assert not_ready.value.code == "ReviewNotReady"


def test_progress_is_written_while_building(finished, monkeypatch):
    monkeypatch.setattr(review, "HEARTBEAT_SECONDS", 0.0)
    seen: list[tuple[str, int, int]] = []
    real = review.build

    def watched(engine, actions, seat, *, progress):
        def tell(done, total):
            progress(done, total)
            row = RiichiReview.objects.get(game=finished, seat=seat)
            seen.append((row.status, row.done, row.total))
        return real(engine, actions, seat, progress=tell)

    monkeypatch.setattr(review, "build", watched)
    review.request(finished, 2)
    review.run_pending()
    total = seen[-1][2]
    assert total > 0 and seen[0] == ("building", 0, total) and seen[-1] == ("building", total, total)
    assert [done for _, done, _ in seen] == list(range(total + 1))
    assert review.status(finished, 2)["status"] == "done"


def test_a_build_cut_off_by_a_restart_is_taken_over(finished):
    stale = timezone.now() - timedelta(seconds=review.STALE_SECONDS + 5)
    RiichiReview.objects.create(game=finished, seat=0, status=ReviewStatus.BUILDING, worker="dead-process",
                                heartbeat=stale, done=12, total=160)
    # One still alive elsewhere is left to its worker.
    RiichiReview.objects.create(game=finished, seat=1, status=ReviewStatus.BUILDING, worker="alive",
                                heartbeat=timezone.now(), done=3, total=150)
    assert review.waiting()
    assert review.run_pending() == 1
    retaken = RiichiReview.objects.get(game=finished, seat=0)
    assert retaken.status == "done" and retaken.worker != "dead-process" and retaken.document
    alive = RiichiReview.objects.get(game=finished, seat=1)
    assert alive.status == "building" and alive.worker == "alive"
    assert not review.waiting()


def test_a_worker_whose_build_was_taken_over_stops(finished, monkeypatch):
    monkeypatch.setattr(review, "HEARTBEAT_SECONDS", 0.0)
    real = review.build

    def taken_midway(engine, actions, seat, *, progress):
        def tell(done, total):
            if done == 5:  # another process decided we were dead and took the row
                RiichiReview.objects.filter(game=finished, seat=seat).update(worker="other")
            progress(done, total)
        return real(engine, actions, seat, progress=tell)

    monkeypatch.setattr(review, "build", taken_midway)
    review.request(finished, 0)
    review.run_pending()
    row = RiichiReview.objects.get(game=finished, seat=0)
    assert row.status == "building" and row.worker == "other" and not row.document


def test_a_failed_build_is_kept_as_such_and_asked_again(finished, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("no")

    monkeypatch.setattr(review, "build", broken)
    review.request(finished, 0)
    review.run_pending()
    failed = review.status(finished, 0)
    assert failed["status"] == "failed" and failed["error"] == "ValueError" and failed["review"] is None
    monkeypatch.undo()
    assert review.request(finished, 0)["status"] == "pending"
    review.run_pending()
    assert review.status(finished, 0)["status"] == "done"


def test_a_review_of_an_older_format_is_built_again(finished):
    review.request(finished, 0)
    review.run_pending()
    RiichiReview.objects.filter(game=finished, seat=0).update(version=VERSION - 1)
    assert review.request(finished, 0)["status"] == "pending"


def test_staff_see_the_reviews_and_cannot_change_them(finished, admin_client):
    review.request(finished, 0)
    review.run_pending()
    row = RiichiReview.objects.get()
    listing = admin_client.get("/admin/games/riichireview/", {"status": "done"})
    assert listing.status_code == 200 and f"/admin/games/riichireview/{row.id}/change/" in listing.content.decode()
    page = admin_client.get(f"/admin/games/riichireview/{row.id}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert admin_client.get(f"/admin/games/riichireview/{row.id}/delete/").status_code == 403
