"""Play now's queue in the service (games/service/play_now.py) and over REST: seated by skill and
wait, with house bots after the wait each player chose, held by a connection or a REST poll,
kept across a restart, left by leaving, by going away, or by sitting down elsewhere."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.tokens import token_for
from games.core import play_now as rules
from games.models import Client, Game, QueueEntry, Rating, Status
from games.service import door, lobby, play_now

pytestmark = pytest.mark.django_db(transaction=True)

RIICHI = {"game_type": "riichi", "preset": "tenhou", "length": "east"}
RIICHI_OPTIONS = {"preset": "tenhou", "length": "east", "clock": "untimed"}
PAIR = {"game_type": "cribbage", "players": 2}


def connect(user):
    """A live connection of ``user``'s (what holds a WebSocket entry)."""
    return Client.objects.create(user=user, channel_name=f"test.{user.id}", server="test")


def seats(game):
    return [(s.user.username, s.user.is_bot) for s in game.seats.select_related("user").order_by("position")]


def test_two_players_of_a_queue_are_seated_together(make_user, clock):
    ann, ben = make_user("ann"), make_user("ben")
    connect(ann), connect(ben)
    assert door.play_now(ann, PAIR, "socket")["status"] == "waiting"
    placed = door.play_now(ben, PAIR, "socket")
    assert placed["status"] == "seated"
    game = Game.objects.get(id=placed["game"])
    assert game.status == Status.ACTIVE and game.rated and game.game_type == "cribbage" and game.mode == 2
    assert sorted(seats(game)) == [("ann", False), ("ben", False)]
    assert door.play_now_status(ann) == {"status": "seated", "game": game.id, "game_type": "cribbage",
                                         "players": 2, "clock": "untimed"}


def test_a_seated_place_ends_with_its_game(make_user, clock):
    """Kept ten minutes for a poll to learn its table, but not past the game: once it is over
    there is no table to go back to, and the player has no place."""
    ann, ben, cid, dan = make_user("ann"), make_user("ben"), make_user("cid"), make_user("dan")
    for user in (ann, ben, cid, dan):
        connect(user)
    door.play_now(ann, PAIR, "socket")
    first = Game.objects.get(id=door.play_now(ben, PAIR, "socket")["game"])
    door.play_now(cid, PAIR, "socket")
    second = Game.objects.get(id=door.play_now(dan, PAIR, "socket")["game"])
    clock(60)
    assert door.play_now_status(ann)["status"] == "seated"
    Game.objects.filter(id=first.id).update(status=Status.FINISHED)
    Game.objects.filter(id=second.id).update(status=Status.ABORTED)
    assert door.play_now_status(ann) == {"status": "none"}
    assert not QueueEntry.objects.filter(user=ann).exists()
    assert QueueEntry.objects.filter(user=ben).exists()  # until the watch, or ben's own look
    play_now.watch()
    assert not QueueEntry.objects.exists()
    # Ten minutes on, a seated place whose game goes on is forgotten too.
    door.play_now(ann, PAIR, "socket")
    third = door.play_now(ben, PAIR, "socket")["game"]
    clock(play_now.SEATED_KEPT_MS / 1000 - 1)
    play_now.watch()
    placed = door.play_now_status(ann)
    assert (placed["status"], placed["game"]) == ("seated", third)
    clock(2)
    play_now.watch()
    assert door.play_now_status(ann) == {"status": "none"}


def test_a_table_for_another_choice_is_another_queue(make_user, clock):
    ann, ben = make_user(), make_user()
    connect(ann), connect(ben)
    door.play_now(ann, PAIR, "socket")
    assert door.play_now(ben, {**PAIR, "clock": "fast"}, "socket")["status"] == "waiting"
    assert door.play_now_status(ann)["others"] == 0


def test_against_bots_now_seats_a_player_alone_at_once(make_user, clock):
    ann = make_user("ann")
    connect(ann)
    placed = door.play_now(ann, {**RIICHI, "clock": "fast", "bots_after": 0}, "socket")
    game = Game.objects.get(id=placed["game"])
    assert game.status == Status.ACTIVE and game.rules["preset"] == "tenhou-east"
    assert (game.time_per_decision, game.time_bank) == (5, 10)
    # The bots are of the default level, intermediate (docs/play-now.md).
    assert sorted(seats(game)) == [("ann", False)] + [(f"house-intermediate-{n}", True) for n in (1, 2, 3)]


def test_the_bots_play_at_the_level_the_tables_first_player_chose(make_user, clock):
    ann, ben = make_user("ann"), make_user("ben")
    connect(ann), connect(ben)
    door.play_now(ann, {**RIICHI, "bot_level": "strong", "bots_after": 15}, "socket")
    clock(1)
    # Another level, the same queue: ben waits with ann, and is told so.
    waiting = door.play_now(ben, {**RIICHI, "bot_level": "beginner", "bots_after": 15}, "socket")
    assert (waiting["status"], waiting["others"], waiting["bot_level"]) == ("waiting", 1, "beginner")
    clock(14)
    [game] = play_now.watch()
    assert sorted(seats(game)) == [("ann", False), ("ben", False), ("house-strong-1", True), ("house-strong-2", True)]
    assert door.play_now_status(ben) == {"status": "seated", "game": game.id, "game_type": "riichi",
                                         **RIICHI_OPTIONS, "bot_level": "beginner"}
    # Alone, against bots now: the level chosen.
    cat = make_user("cat")
    connect(cat)
    placed = door.play_now(cat, {**RIICHI, "bot_level": "beginner", "bots_after": 0}, "socket")
    bots = sorted(username for username, bot in seats(Game.objects.get(id=placed["game"])) if bot)
    assert bots == [f"house-beginner-{n}" for n in (1, 2, 3)]


def test_bots_come_after_the_wait_chosen(make_user, clock):
    ann, ben = make_user("ann"), make_user("ben")
    connect(ann), connect(ben)
    door.play_now(ann, {**RIICHI, "bots_after": 15}, "socket")
    clock(5)
    door.play_now(ben, {**RIICHI, "bots_after": 60}, "socket")
    clock(9.9)
    assert play_now.watch() == []
    assert door.play_now_status(ann)["others"] == 1
    clock(0.1)  # ann's 15 s are over: ann, ben (who accepts bots) and two house bots
    [game] = play_now.watch()
    assert sorted(seats(game)) == [("ann", False), ("ben", False), ("house-intermediate-1", True),
                                   ("house-intermediate-2", True)]
    assert game.host_id == ann.id and game.status == Status.ACTIVE


def test_never_waits_for_people_only(make_user, clock):
    ann = make_user()
    connect(ann)
    door.play_now(ann, {**PAIR, "bots_after": None}, "socket")
    clock(rules.MAX_BOTS_AFTER * 2)
    assert play_now.watch() == [] and door.play_now_status(ann)["status"] == "waiting"


def test_the_skill_window_widens_with_the_wait(make_user, clock):
    ann, ben = make_user(), make_user()
    connect(ann), connect(ben)
    Rating.objects.create(user=ben, game_type="cribbage", mu=33.0, sigma=2.0, games=40, last_played="2026-11-01T00:00Z")
    door.play_now(ann, {**PAIR, "bots_after": None}, "socket")  # mu 25, a newcomer
    door.play_now(ben, {**PAIR, "bots_after": None}, "socket")  # 8 apart: windows of 2
    assert door.play_now_status(ben)["window"] == 2.0
    clock(25)
    assert play_now.watch() == []  # windows of 7
    clock(5)
    [game] = play_now.watch()  # windows of 8
    assert {s.user_id for s in game.seats.all()} == {ann.id, ben.id}


def test_leaving_the_queue(make_user, clock):
    ann = make_user()
    connect(ann)
    door.play_now(ann, PAIR, "socket")
    assert door.leave_play_now(ann) is True
    assert door.play_now_status(ann) == {"status": "none"} and not QueueEntry.objects.exists()
    assert door.leave_play_now(ann) is False


def test_sitting_down_elsewhere_takes_a_player_out(make_user, clock):
    ann, ben = make_user(), make_user()
    connect(ann), connect(ben)
    door.play_now(ann, PAIR, "socket")
    door.play_now(ben, {**PAIR, "players": 3}, "socket")
    table = door.create_table(ann, "acquire", 4)
    assert door.play_now_status(ann) == {"status": "none"}
    door.join(ben, table.id)
    assert door.play_now_status(ben) == {"status": "none"}
    # And while at a table being set up, nobody joins the queue.
    with pytest.raises(Exception) as refused:
        door.play_now(ann, PAIR, "socket")
    assert refused.value.code == "AtTable" and not QueueEntry.objects.exists()


def test_a_bad_request_changes_nothing(make_user, clock):
    ann = make_user()
    connect(ann)
    door.play_now(ann, PAIR, "socket")
    before = list(QueueEntry.objects.values())
    with pytest.raises(Exception) as refused:
        door.play_now(ann, {"game_type": "cribbage", "players": 9}, "socket")
    assert refused.value.code == "InvalidPlayNow" and "players" in refused.value.reason
    assert list(QueueEntry.objects.values()) == before


def test_a_place_nobody_holds_is_not_matched_and_then_removed(make_user, clock, settings):
    settings.PLAY_NOW_GRACE_SECONDS = 15
    ann, ben = make_user(), make_user()
    own = connect(ann)
    door.play_now(ann, {**PAIR, "bots_after": None}, "socket")
    own.delete()  # the tab is closed
    clock(play_now.SOCKET_HOLD_MS / 1000 + 0.1)
    connect(ben)
    assert door.play_now(ben, {**PAIR, "bots_after": None}, "socket")["status"] == "waiting"  # ann not held
    assert QueueEntry.objects.filter(user=ann).exists()
    clock(15)
    play_now.watch()
    assert not QueueEntry.objects.filter(user=ann).exists()
    assert QueueEntry.objects.filter(user=ben).exists()  # still connected: held


def test_a_reconnection_within_the_grace_keeps_the_place(make_user, clock):
    ann, ben = make_user(), make_user()
    own = connect(ann)
    door.play_now(ann, {**PAIR, "bots_after": None}, "socket")
    own.delete()
    clock(10)
    play_now.watch()
    connect(ann)  # back (a reload, or the restarted server the page reconnected to)
    play_now.watch()
    connect(ben)
    assert door.play_now(ben, {**PAIR, "bots_after": None}, "socket")["status"] == "seated"


def test_the_queue_outlives_the_process(make_user, clock):
    """What a restarted process finds: the rows. A fresh watch (the new process's) matches them."""
    ann, ben = make_user(), make_user()
    connect(ann), connect(ben)
    door.play_now(ann, {**PAIR, "bots_after": 15}, "socket")
    clock(15)
    # The old process died before its watch ran; the new one's first pass seats ann with a bot.
    [game] = play_now.watch()
    assert sorted(s.user.is_bot for s in game.seats.all()) == [False, True]


# -- REST ------------------------------------------------------------------------------------


def api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def test_rest_join_poll_and_leave(make_user, clock):
    ann, ben = make_user(), make_user()
    joined = api(ann).post("/api/play-now/", {**PAIR, "bots_after": None}, format="json")
    assert joined.status_code == 201 and joined.json()["status"] == "waiting"
    assert api(ann).get("/api/play-now/").json()["waited_ms"] == 0
    # No connection: the poll holds it for a minute.
    clock(50)
    assert api(ann).get("/api/play-now/").json()["status"] == "waiting"
    clock(50)
    play_now.watch()
    seated = api(ben).post("/api/play-now/", PAIR, format="json").json()
    assert seated["status"] == "seated"
    assert api(ann).get("/api/play-now/").json() == {**seated, "players": 2, "clock": "untimed"}
    assert api(ann).delete("/api/play-now/").status_code == 409  # seated, not waiting
    assert api(ann).get("/api/play-now/").json() == {"status": "none"}


def test_a_rest_place_is_removed_when_polls_stop(make_user, clock, settings):
    settings.PLAY_NOW_REST_HOLD_SECONDS, settings.PLAY_NOW_GRACE_SECONDS = 60, 15
    ann = make_user()
    api(ann).post("/api/play-now/", {**PAIR, "bots_after": None}, format="json")
    clock(74)
    play_now.watch()
    assert QueueEntry.objects.filter(user=ann).exists()
    clock(2)
    play_now.watch()
    assert not QueueEntry.objects.filter(user=ann).exists()


@pytest.mark.parametrize("body, code, status", [
    ({"game_type": "go"}, "InvalidPlayNow", 400),
    ({"game_type": "acquire", "players": 1}, "InvalidPlayNow", 400),
    ({"game_type": "riichi", "bots_after": "soon"}, "InvalidPlayNow", 400),
    ({"game_type": "riichi", "bot_level": "expert"}, "InvalidPlayNow", 400),
    ([1, 2], "InvalidMessageFormat", 400),
])
def test_rest_refusals(make_user, body, code, status):
    ann = make_user()
    response = api(ann).post("/api/play-now/", body, format="json")
    assert response.status_code == status and response.json()["code"] == code, response.json()
    assert not QueueEntry.objects.exists()
    assert api(ann).delete("/api/play-now/").json()["code"] == "NotQueued"
    assert APIClient().get("/api/play-now/").status_code == 401
    assert APIClient().post("/api/play-now/", PAIR, format="json").status_code == 401


def test_the_choices_and_the_schema(make_user):
    choices = APIClient().get("/api/play-now/choices/").json()
    assert set(choices["riichi"]["preset"]) == set(rules.RIICHI_RULESETS)
    assert choices["clock"]["cribbage"]["fast"].startswith("Fast")
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert {"get", "post", "delete"} <= set(paths["/api/play-now/"])
    assert "get" in paths["/api/play-now/choices/"]


def test_an_open_matched_table_leaves_other_tables_alone(make_user, clock):
    ann, ben, cat = make_user(), make_user(), make_user()
    connect(ann), connect(ben)
    other = lobby.create_table(cat, "cribbage", 2)
    door.play_now(ann, PAIR, "socket")
    door.play_now(ben, PAIR, "socket")
    other.refresh_from_db()
    assert other.status == Status.SETUP and other.seats.count() == 1


def test_staff_see_the_queue_and_cannot_change_it(admin_client, make_user, clock):
    ann = make_user("ann")
    connect(ann)
    door.play_now(ann, {**PAIR, "bots_after": None}, "socket")
    entry = QueueEntry.objects.get()
    listing = admin_client.get("/admin/games/queueentry/", {"q": "ann"})
    assert listing.status_code == 200 and "ann" in listing.content.decode()
    page = admin_client.get(f"/admin/games/queueentry/{entry.id}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert admin_client.get(f"/admin/games/queueentry/{entry.id}/delete/").status_code == 403
