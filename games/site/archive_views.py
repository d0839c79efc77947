"""The games page (finished games and games in progress, filtered) and a player's page. They
translate the query string into ``games.site.archive`` calls and its answers into rows; the numbers
are the archive's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.models import Game, Status
from games.service import door
from games.site import archive, rating_views
from games.site.archive_forms import ACTIVE, OVER, ArchiveFilterForm

PAGE_SIZE = 25
# A player's games in progress are listed whole up to this many (more would be a bot's farm).
ACTIVE_LIMIT = 50


def games_list(request: HttpRequest) -> HttpResponse:
    form = ArchiveFilterForm(request.GET)
    valid = form.is_valid()
    data = form.cleaned_data if valid else {}
    show = data.get("show") or OVER
    games = archive.active_games() if show == ACTIVE else archive.over_games()
    if not valid:
        games = games.none()  # say what is wrong rather than list games it did not ask for
    if data.get("game_type"):
        games = games.filter(game_type=data["game_type"])
    if data.get("player"):
        games = archive.played_by(games, data["player"])
    if show == OVER and valid:
        games = archive.ended_between(games, *form.window())
        if data.get("result"):
            games = archive.by_result(games, data.get("player"), data["result"])
    page = _page(request, games)
    return render(request, "games/games_list.html", {
        "form": form,
        "show": show,
        "page": page,
        "page_range": _page_range(page),
        "rows": [_row(game, viewer=_viewer(request)) for game in page],
        "query": _query_without(request, "page"),
        "tab_query": _tab_query(request),
        "filtered": any(data.get(k) for k in ("game_type", "player", "ended_from", "ended_to", "result")),
    })


def player_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    record = archive.player_record(user)
    active = archive.with_players(archive.played_by(archive.active_games(), username))[:ACTIVE_LIMIT]
    page = _page(request, archive.played_by(archive.over_games(), username))
    return render(request, "games/player.html", {
        "player": user,
        "is_me": request.user.is_authenticated and request.user.id == user.id,
        "counts": record.counts,
        "ratings": rating_views.player_ratings(user),
        "active_days": door.RATING_ACTIVE_DAYS,
        "stats": [_stats_card(stats.as_dict()) for stats in record.stats],
        "active": [_row(game, username, _viewer(request)) for game in active],
        "page": page,
        "page_range": _page_range(page),
        "rows": [_row(game, username, _viewer(request)) for game in page],
        "query": _query_without(request, "page"),
    })


# ------------------------------------------------------------------ rows


def _page(request: HttpRequest, games: Any) -> Page:
    return Paginator(archive.with_players(games), PAGE_SIZE).get_page(request.GET.get("page"))


def _page_range(page: Page) -> list[int | str]:
    return list(page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))


def _viewer(request: HttpRequest) -> str | None:
    return request.user.username if request.user.is_authenticated else None


def _row(game: Game, username: str | None = None, viewer: str | None = None) -> dict[str, Any]:
    """``username``: the player whose page this is (their outcome and place); ``viewer``: who is
    looking, whose own game in progress is offered back to them as the lobby offers it."""
    summary = archive.summarise(game)
    players = [
        {
            "username": p.username,
            "bot": p.bot,
            "place": ordinal(p.standing.place) if p.standing and p.standing.place else "",
            "won": bool(p.standing and p.standing.won),
            "score": score_text(game.game_type, p.standing.score) if p.standing else "",
            "me": p.username == username,
        }
        for p in summary.players
    ]
    mine = summary.of(username) if username else None
    outcome = ""
    if mine is not None and game.is_over:
        if game.status != Status.FINISHED:
            outcome = "aborted"
        elif mine.standing is not None:
            outcome = archive.WON if mine.standing.won else archive.LOST
    return {
        "game": game,
        "type_name": summary.type_name,
        "mode_name": summary.mode_name,
        "players": players,
        "duration": duration_text(summary.duration),
        "outcome": outcome,
        "place": ordinal(mine.standing.place) if mine and mine.standing and mine.standing.place else "",
        # Seated at it, forfeited or not, as the lobby's "Return to your game" (static/js/render.js).
        "yours": bool(viewer) and not game.is_over and summary.of(viewer) is not None,
    }


def _stats_card(numbers: dict[str, Any]) -> dict[str, Any]:
    """A game type's numbers as the player page shows them: label, value, in a fixed order."""
    key = numbers["game_type"]
    shown = [("Games", str(numbers["played"])), ("Wins", str(numbers["wins"]))]
    if numbers["played"]:
        shown.append(("Win rate", f"{round(100 * numbers['wins'] / numbers['played'])}%"))
    shown.append(("Average placement", _number(numbers["average_placement"], 2)))
    shown.append(("Average final score", _average_score(key, numbers["average_score"])))
    if key == "cribbage":
        shown.append(("Average hand (show)", _number(numbers.get("average_hand"), 2)))
        shown.append(("Average pegging per game", _number(numbers.get("average_pegging"), 1)))
    return {"game_type": key, "name": numbers["name"], "numbers": shown}


def _number(value: float | None, places: int) -> str:
    return "–" if value is None else f"{value:,.{places}f}"


def _average_score(game_type: str, value: float | None) -> str:
    if value is None:
        return "–"
    return score_text(game_type, round(value)) if game_type != "cribbage" else f"{value:.1f}"


def score_text(game_type: str, score: Any) -> str:
    if not isinstance(score, int | float):
        return ""
    if game_type == "acquire":
        return f"${score:,.0f}"  # Acquire's score is money
    return f"{score:,.0f}" if game_type == "riichi" else str(score)


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def duration_text(duration: timedelta | None) -> str:
    if duration is None:
        return ""
    seconds = max(0, int(duration.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


def _query_without(request: HttpRequest, *names: str) -> str:
    """The query string less ``names``, so page links keep the filters."""
    query = request.GET.copy()
    for name in names:
        query.pop(name, None)
    return query.urlencode()


def _tab_query(request: HttpRequest) -> str:
    """The filters that mean the same for games over and in progress (type, player)."""
    query = request.GET.copy()
    for name in list(query):
        if name not in ("game_type", "player"):
            query.pop(name)
    return query.urlencode()
