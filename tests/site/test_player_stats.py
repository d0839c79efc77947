"""The games page, player pages and their numbers (games/site/archive.py): checked against bot games
whose numbers the test works out from each game's stored result and record, and against games
made by hand with exact numbers; and nothing of a game in progress shows beyond the lobby's."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from games.core.registry import get_game_type
from games.management.commands.playbots import load_bot, play_table
from games.models import Game, GameRecord, Status
from games.service import lobby, reads
from games.site import archive
from tests.api.archive_games import ANN_LOST, ANN_STATS, ANN_WON, BASE, known_games, over_game, ranked

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: records are stored as in play

EAST_ONLY = {"場数": 1}


@pytest.fixture
def people(make_user):
    return [make_user(name) for name in ("ann", "bob", "cat", "dan")]


def bot_game(game_type: str, mode_id: int, users: list[Any], seed: int, rules: dict | None = None) -> Game:
    """A whole game played by the house bots for ``users`` through the service, as playbots does."""
    mode = get_game_type(game_type).mode(mode_id)
    played = play_table(game_type, mode, users, load_bot(game_type), random.Random(f"{seed}:0"), rules)
    return Game.objects.get(id=played.game.id)


def expected_numbers(games: list[Game], user: Any) -> dict[str, dict[str, Any]]:
    """The player's numbers worked out here from each finished game's result and record: places
    and scores from ``result.players``, wins from the winner the result names (cribbage) or the
    first place (Acquire and riichi singles), cribbage's points from the record's per-side
    totals (``result.sides``, two players: a side is a seat)."""
    sums: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    for game in games:
        position = game.seats.get(user=user).position
        me = game.result["players"][position]
        numbers = sums[game.game_type]
        numbers["played"] += 1
        numbers["places"] += me["rank"]
        numbers["scores"] += me["score"]
        if game.game_type == "cribbage":
            numbers["wins"] += game.result["winner"] == position
            record = GameRecord.objects.get(game=game).native()
            side = record["result"]["sides"][position]
            assert side["seats"] == [position]
            numbers["hand_points"] += side["hands"]
            numbers["pegging"] += side["pegging"]
            numbers["hands"] += sum(1 for deal in record["deals"] for show in deal["shows"]
                                    if show["seat"] == position and show["what"] == "hand")
        else:
            numbers["wins"] += me["rank"] == 1
    expected = {}
    for game_type, n in sums.items():
        expected[game_type] = {"played": n["played"], "wins": n["wins"],
                               "average_placement": n["places"] / n["played"],
                               "average_score": n["scores"] / n["played"]}
        if game_type == "cribbage":
            expected[game_type].update(hands_shown=n["hands"], average_hand=n["hand_points"] / n["hands"],
                                       average_pegging=n["pegging"] / n["played"])
    return expected


def test_numbers_of_bot_games_match_their_results_and_records(client, people):
    ann, bob, cat, dan = people
    games = [
        bot_game("acquire", 2, [ann, bob], seed=1),
        bot_game("cribbage", 2, [ann, bob], seed=1),
        bot_game("cribbage", 2, [bob, ann], seed=2),
        bot_game("riichi", 4, [ann, bob, cat, dan], seed=1, rules=EAST_ONLY),
    ]
    assert all(g.status == Status.FINISHED for g in games)
    for user in (ann, bob):
        mine = [g for g in games if g.seats.filter(user=user).exists()]
        expected = expected_numbers(mine, user)
        got = {s.game_type: s.as_dict() for s in archive.player_record(user).stats}
        assert set(got) == set(expected)
        for game_type, numbers in expected.items():
            assert {k: got[game_type][k] for k in numbers} == pytest.approx(numbers), (user.username, game_type)
        # The REST twin says the same.
        body = client.get(reverse("api-player", args=[user.username])).json()
        assert body["games"] == {"finished": len(mine), "aborted": 0, "active": 0}
        assert {s["game_type"]: s for s in body["stats"]} == got
    # The won filter, in SQL, agrees with every game's result.
    for user in people:
        won = {g.id for g in archive.by_result(archive.over_games(), user.username, archive.WON)}
        assert won == {g.id for g in games if g.seats.filter(user=user).exists()
                       and archive.standing(g.game_type, g.mode, g.result, g.seats.get(user=user).position).won}


def test_exact_numbers_of_known_games_on_the_player_page(client, people):
    ann = people[0]
    known = known_games(*people)
    record = archive.player_record(ann)
    assert record.counts == {"finished": 6, "aborted": 1, "active": 0}
    got = {s.game_type: s.as_dict() for s in record.stats}
    for game_type, expected in ANN_STATS.items():
        assert {k: got[game_type][k] for k in expected} == pytest.approx(expected)

    page = client.get(reverse("player", args=["ann"]))
    assert page.status_code == 200
    html = page.content.decode()
    cards = {m.group(1): m.group(0)
             for m in re.finditer(r'data-testid="stats" data-game-type="(\w+)".*?</section>', html, re.S)}
    numbers = {k: dict(re.findall(r"<dt>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", v)) for k, v in cards.items()}
    assert numbers["riichi"] == {"Games": "2", "Wins": "1", "Win rate": "50%", "Average placement": "2.00",
                                 "Average final score": "30,000"}
    assert numbers["acquire"] == {"Games": "2", "Wins": "2", "Win rate": "100%", "Average placement": "1.50",
                                  "Average final score": "$40,000"}
    assert numbers["cribbage"] == {"Games": "2", "Wins": "1", "Win rate": "50%", "Average placement": "1.50",
                                   "Average final score": "110.5", "Average hand (show)": "10.00",
                                   "Average pegging per game": "3.5"}
    # Every game of hers is listed with her outcome, the newest first, each with its links.
    rows = re.findall(r'data-testid="archive-game" data-game="(\d+)" data-status="(\w+)"(?: data-outcome="(\w+)")?',
                      html)
    by_id = {game.id: name for name, game in known.items()}
    assert [by_id[int(i)] for i, _, _ in rows] == [
        "cribbage_won", "cribbage_lost", "acquire_tie", "acquire_team", "riichi_aborted", "riichi_third",
        "riichi_won"]
    outcomes = {by_id[int(i)]: outcome for i, _, outcome in rows}
    assert {n for n, o in outcomes.items() if o == "won"} == ANN_WON
    assert {n for n, o in outcomes.items() if o == "lost"} == ANN_LOST
    assert outcomes["riichi_aborted"] == "aborted"
    for name in ("cribbage_won", "riichi_won"):
        game = known[name]
        assert f'href="/games/{game.id}/replay/"' in html and f'href="/games/{game.id}/"' in html
    cribbage = known["cribbage_won"]
    assert f'href="{reverse("api-game-record", args=[cribbage.id])}"' in html
    assert f'href="{reverse("api-game-paifu", args=[known["riichi_won"].id])}?format=tenhou6"' in html
    assert 'href="/players/bob/"' in html
    assert client.get(reverse("player", args=["nobody-here"])).status_code == 404


def test_games_page_filters_and_pages(client, people):
    ann, bob = people[:2]
    known = known_games(*people)
    html = client.get(reverse("games-list")).content.decode()
    listed = [int(i) for i in re.findall(r'data-testid="archive-game" data-game="(\d+)"', html)]
    assert listed == sorted((g.id for g in known.values()), key=lambda i: Game.objects.get(id=i).ended, reverse=True)
    # A row: the players with their places and scores, when it ended and how long it took.
    assert re.search(r'data-testid="player-place">1st</span>\s*<a [^>]*href="/players/ann/"', html)
    assert "$50,000" in html and "42,000" in html and "42 min 00 s" in html and "7 Mar 2026, 12:00 UTC" in html

    def shown(**query: str) -> list[int]:
        page = client.get(reverse("games-list"), query)
        assert page.status_code == 200
        return [int(i) for i in re.findall(r'data-testid="archive-game" data-game="(\d+)"', page.content.decode())]

    assert set(shown(player="ann", result="won")) == {known[n].id for n in ANN_WON}
    assert set(shown(player="ann", result="lost", game_type="riichi")) == {known["riichi_third"].id}
    assert shown(result="aborted") == [known["riichi_aborted"].id]
    # Whole days in UTC: 2 March to 3 March is the second and third games.
    assert set(shown(ended_from="2026-03-02", ended_to="2026-03-03")) == {
        known["riichi_third"].id, known["riichi_aborted"].id}
    # The last day there is has no end to stop before.
    assert len(shown(ended_from="2026-03-07", ended_to="9999-12-31")) == 1
    # "Won" needs a player: the page says so and lists nothing.
    refused = client.get(reverse("games-list"), {"result": "won"}).content.decode()
    assert "data-testid=\"filter-errors\"" in refused and "archive-game" not in refused

    # 30 more games of bob's: 25 a page, and the page links keep the filters.
    for n in range(30):
        over_game("cribbage", 2, [bob, ann], ranked([121, 50], [1, 2]), ended=BASE + timedelta(days=10, hours=n))
    first = client.get(reverse("games-list"), {"player": "bob", "result": "won", "game_type": "cribbage"})
    html = first.content.decode()
    assert len(re.findall(r'data-testid="archive-game"', html)) == 25
    nexts = re.findall(r'href="\?([^"]*page=2)" rel="next"', html)
    assert nexts and all(part in nexts[0].replace("&amp;", "&").split("&")
                         for part in ("player=bob", "result=won", "game_type=cribbage", "page=2"))
    second = client.get(reverse("games-list") + "?" + nexts[0].replace("&amp;", "&")).content.decode()
    # 31 of bob's cribbage games are wins (the 30 and cribbage_lost, where ann lost to him).
    assert len(re.findall(r'data-testid="archive-game"', second)) == 6
    assert 'data-testid="archive-count">31<' in second


def test_nothing_of_a_game_in_progress_beyond_the_lobby(client, people):
    game = lobby.create_table(people[0], "riichi", 4, rules=EAST_ONLY)
    for user in people[1:]:
        lobby.join(user, game.id)
    for user in people:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    # Each player's concealed hand, as only that player sees it now.
    hands = []
    for user in people:
        view = reads.snapshot(game, user)["view"]
        mine = next(s for s in view["seats"] if s["seat"] == reads.viewer_position(game, user))
        hands.append(mine["shoupai"])
    assert all(re.fullmatch(r"[mpsz0-9]{14,}", hand) for hand in hands), hands

    pages = {
        "games page": client.get(reverse("games-list"), {"show": "active"}),
        "player page": client.get(reverse("player", args=["ann"])),
        "player API": client.get(reverse("api-player", args=["ann"])),
        "games API": client.get(reverse("api-games"), {"player": "ann"}),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        text = response.content.decode()
        if name != "player API":  # which counts games rather than listing them
            assert f'{game.id}' in text, name
        for hand in hands:
            assert hand not in text, (name, hand)
    html = pages["games page"].content.decode()
    # The page's only game: no places, scores, replay or downloads, a link to watch it.
    assert f'data-game="{game.id}" data-status="active"' in html
    assert "player-score" not in html and "player-place" not in html and "replay-link" not in html
    assert 'data-testid="watch-link"' in html and 'data-testid="downloads"' not in html
    assert pages["player API"].json()["games"] == {"finished": 0, "aborted": 0, "active": 1}
    assert pages["player API"].json()["stats"] == []
    assert json.loads(pages["games API"].content)["results"][0]["result"] is None


def test_a_page_of_games_costs_the_same_whatever_it_holds(client, people, django_assert_num_queries):
    ann, bob = people[:2]
    over_game("cribbage", 2, [ann, bob], ranked([121, 50], [1, 2]), document={"deals": []})
    with django_assert_num_queries(3) as few:  # the count, the page of games, their players
        client.get(reverse("games-list"))
    for n in range(30):
        over_game("riichi", 4, people, ranked([1, 2, 3, 4], [4, 3, 2, 1]), ended=BASE + timedelta(hours=n))
    with django_assert_num_queries(len(few.captured_queries)):
        html = client.get(reverse("games-list")).content.decode()
    assert html.count('data-testid="archive-game"') == 25
