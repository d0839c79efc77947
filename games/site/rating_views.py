"""Where ratings show on the site (docs/ratings.md): the leaderboard page of each rated game type, and
the rows the player page and a finished game's page show. Read through the service's door."""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.core.ratings import RATED_GAME_TYPES
from games.core.registry import get_game_type
from games.models import Game
from games.service import door

PLAYER_LABELS = {"people": "People", "bots": "Bots", "all": "Everyone"}


def shown(value: float) -> str:
    """The conservative value as the pages show it: one decimal (docs/ratings.md)."""
    return f"{value:.1f}"


def _name(game_type: str) -> str:
    known = get_game_type(game_type)
    return known.name if known else game_type


def leaderboard_page(request: HttpRequest, game_type: str = RATED_GAME_TYPES[0]) -> HttpResponse:
    if game_type not in RATED_GAME_TYPES:
        raise Http404("no such rated game type")
    players = request.GET.get("players")
    if players not in door.PLAYER_KINDS:
        players = "people"  # a page shows the default rather than an error
    entries = door.leaderboard(game_type, players)
    return render(request, "games/leaderboard.html", {
        "game_type": game_type,
        "type_name": _name(game_type),
        "types": [(key, _name(key)) for key in RATED_GAME_TYPES],
        "players": players,
        "player_kinds": list(PLAYER_LABELS.items()),
        "active_days": door.RATING_ACTIVE_DAYS,
        "rows": [{**entry, "shown": shown(entry["rating"])} for entry in entries],
    })


def player_ratings(user: Any) -> list[dict[str, Any]]:
    """The player page's rating cards, one per game type rated, each with its place on the
    leaderboard and a chart of the rating after each of the last games (``door.RATING_HISTORY_LIMIT``)."""
    cards = []
    for rating in door.player_ratings(user):
        history = door.rating_history(user, rating["game_type"])
        cards.append({**rating, "name": _name(rating["game_type"]), "shown": shown(rating["rating"]),
                      "chart": chart(history["points"], history["games"])})
    return cards


# The chart's drawing box, in SVG units. It is drawn at most this wide (archive.css), so it only
# ever shrinks; its text is sized so that at the narrowest page (a 360 px phone's content box,
# about 320 px) it is still at least 12 px.
CHART_WIDTH, CHART_HEIGHT = 360, 190
CHART_FONT = 14
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 14, 46


def chart(points: list[dict[str, Any]], games: int) -> dict[str, Any] | None:
    """A line chart of the conservative rating after each game, laid out for the template's SVG:
    the polyline's points, the y axis's three labelled values and the x axis's first and last game
    numbers (the player's own count, so a history cut to the last games still numbers them)."""
    if not points:
        return None
    values = [p["rating"] for p in points]
    low, high = math.floor(min(values)), math.ceil(max(values))
    if high - low < 2:  # a flat history still gets a readable scale around it
        low, high = low - 1, high + 1
    width, height = CHART_WIDTH - LEFT - RIGHT, CHART_HEIGHT - TOP - BOTTOM
    step = width / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(TOP + (high - value) / (high - low) * height, 1)

    coords = [(round(LEFT + i * step, 1) if len(values) > 1 else LEFT + width / 2, y(v)) for i, v in enumerate(values)]
    first = games - len(points) + 1
    middle = (low + high) / 2
    return {
        "width": CHART_WIDTH, "height": CHART_HEIGHT, "font": CHART_FONT,
        "left": LEFT, "right": CHART_WIDTH - RIGHT, "top": TOP, "bottom": TOP + height,
        "line": " ".join(f"{x},{yy}" for x, yy in coords),
        "last": coords[-1],
        "y_labels": [(y(v), f"{v:g}") for v in (high, middle, low)],
        "label_x": LEFT - 6, "x_label_y": TOP + height + 18, "title_y": CHART_HEIGHT - 6,
        "center": LEFT + width / 2,
        "first_game": first, "last_game": games, "count": len(points),
        "from": shown(values[0]), "to": shown(values[-1]),
    }


def game_rating_rows(game: Game) -> list[dict[str, Any]]:
    """A finished game's rating changes for its page: each player's value before and after."""
    return [{**change, "before": shown(change["rating_before"]), "after": shown(change["rating_after"]),
             "delta": f"{change['rating_after'] - change['rating_before']:+.1f}"}
            for change in door.game_rating_changes(game)]
