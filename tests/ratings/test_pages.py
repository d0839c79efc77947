"""Where ratings show on the site: the leaderboard page, the player page, a finished game's page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.core import ratings as model
from games.models import Rating
from tests.ratings.games import START, end, expected, singles

pytestmark = pytest.mark.django_db(transaction=True)


def shown(user, game_type="acquire") -> str:
    r = Rating.objects.get(user=user, game_type=game_type)
    return f"{model.conservative(r.mu, r.sigma):.1f}"


def cells(html: str, testid: str) -> list[str]:
    return [text.strip() for text in re.findall(rf'data-testid="{testid}">([^<]*)', html)]


def test_leaderboard_page(client, make_user):
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat-bot", is_bot=True)
    for _ in range(3):
        end([ann, bob, cat], singles(1, 2, 3))
    page = client.get(reverse("ratings")).content.decode()  # Acquire's by default
    assert 'data-testid="nav-ratings"' in page
    assert cells(page, "rating") == [shown(ann), shown(bob)]  # people, best first
    assert page.index(">ann<") < page.index(">bob<") and "cat-bot" not in page
    assert "provisional" in page
    bots = client.get(reverse("ratings-type", args=["acquire"]), {"players": "bots"}).content.decode()
    assert cells(bots, "rating") == [shown(cat)]
    empty = client.get(reverse("ratings-type", args=["riichi"])).content.decode()
    assert "No rated Riichi mahjong games" in empty
    assert client.get(reverse("ratings-type", args=["chess"])).status_code == 404
    # An unknown filter shows the default rather than an error.
    assert cells(client.get(reverse("ratings"), {"players": "x"}).content.decode(), "rating") == [shown(ann),
                                                                                                shown(bob)]


def test_player_page_and_game_page(client, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = end([ann, bob], singles(2, 1), game_type="cribbage", mode=2)
    player = client.get(reverse("player", args=["ann"])).content.decode()
    assert 'data-testid="player-ratings"' in player and cells(player, "rating") == [shown(ann, "cribbage")]
    (won,), (lost,) = expected([[START], [START]], [1, 2])
    page = client.get(reverse("game", args=[game.id])).content.decode()
    rows = re.findall(r'data-testid="rating-change">(.*?)</tr>', page)
    assert len(rows) == 2
    assert f"{model.conservative(*lost):.1f}" in rows[0] and f"{model.conservative(*won):.1f}" in rows[1]
    assert "<td>2</td>" in rows[0] and "<td>1</td>" in rows[1]
    casual = end([ann, bob], singles(1, 2), game_type="cribbage", mode=2, rated=False)
    assert 'data-testid="rating-changes"' not in client.get(reverse("game", args=[casual.id])).content.decode()
    make_user("cat")
    assert 'data-testid="player-ratings"' not in client.get(reverse("player", args=["cat"])).content.decode()
