"""A game in progress links back as the lobby does: "Return to your game" to a player seated at
it, "Watch" to anyone else, on the player page and the games page (games/site/archive_views.py,
templates/games/_archive_row.html)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Status
from games.service import lobby

pytestmark = pytest.mark.django_db(transaction=True)


def link_of(html: str, game_id: int) -> tuple[str, str]:
    """The row of ``game_id``'s link to the game page: its test id and its text."""
    rows = [chunk for chunk in html.split('data-testid="archive-game"')[1:]
            if chunk.startswith(f' data-game="{game_id}"')]
    assert len(rows) == 1
    links = re.findall(r'data-testid="(watch-link|return-link)">([^<]+)</a>', rows[0])
    assert len(links) == 1, links
    return links[0]


@pytest.fixture
def game(make_user):
    """Ann against a house bot, cribbage, in progress."""
    ann = make_user("ann")
    table = lobby.create_table(ann, "cribbage", 2)
    lobby.add_bot(ann, table.id)
    lobby.accept(ann, table.id)
    table.refresh_from_db()
    assert table.status == Status.ACTIVE
    return table


RETURN = ("return-link", "Return to your game")
WATCH = ("watch-link", "Watch")


def test_the_player_sees_return_on_her_own_page_and_the_games_page(client, game):
    client.force_login(game.host)
    assert link_of(client.get(reverse("player", args=["ann"])).content.decode(), game.id) == RETURN
    games = client.get(reverse("games-list"), {"show": "active"}).content.decode()
    assert link_of(games, game.id) == RETURN


def test_the_player_sees_return_on_her_opponents_page(client, game):
    bot = game.seats.exclude(user=game.host).get().user
    client.force_login(game.host)
    assert link_of(client.get(reverse("player", args=[bot.username])).content.decode(), game.id) == RETURN


def test_anyone_else_watches(client, game, make_user):
    for viewer in (None, make_user("bob")):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        assert link_of(client.get(reverse("player", args=["ann"])).content.decode(), game.id) == WATCH
        games = client.get(reverse("games-list"), {"show": "active"}).content.decode()
        assert link_of(games, game.id) == WATCH
