"""Browser pages. They render a shell plus a little server-side state; the live state arrives
over the lobby WebSocket (static/js/lobby.js, static/js/game.js)."""

from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.core import bots, play_now
from games.core.registry import GAME_TYPES, get_game_type
from games.models import Arrangement, Game, Seat, Status
from games.riichi.engine import presets as riichi_presets
from games.service import door
from games.site import rating_views

# Anonymous visitors get a read-only list rendered here, since the WebSocket needs a login.
ANONYMOUS_LIST_LIMIT = 50

# The riichi preset the lobby's create form starts on. Not the engine's default ("majiang", what a
# table naming no preset plays, kept for REST and WebSocket clients and stored games): a newcomer
# most likely learnt on Tenhou or Mahjong Soul, whose ranked rules are east-south games with red
# fives and open tanyao, 25,000 points to start, uma 10-20 and no double yakuman. "tenhou" is that
# set, checked key by key (games/riichi/engine/presets.py), and its name says so. Majiang's defaults
# differ from it only in allowing double yakuman and in how final results are rounded, but
# "Majiang default" tells a newcomer nothing of that.
RIICHI_FORM_PRESET = "tenhou"
RIICHI_FORM_ADVICE = "The rules of most online play (Tenhou, Mahjong Soul's ranked games): start here if unsure."


def _riichi_form_presets() -> list[dict[str, Any]]:
    """The create form's riichi choices: each preset with the line shown under the list while it is
    chosen (its description, and for the recommended one why), the recommended one marked."""
    choices = []
    for preset in riichi_presets.describe():
        recommended = preset["name"] == RIICHI_FORM_PRESET
        choices.append({
            "name": preset["name"],
            "label": f"{preset['label']} (recommended)" if recommended else preset["label"],
            "help": f"{preset['description']} {RIICHI_FORM_ADVICE}" if recommended else preset["description"],
            "selected": recommended,
        })
    return choices


def _user_id(request: HttpRequest) -> int | None:
    return request.user.id if request.user.is_authenticated else None


def _mode_name(game: Game) -> str:
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode) if game_type else None
    return mode.name if mode else f"Mode {game.mode}"


def _type_name(game: Game) -> str:
    game_type = get_game_type(game.game_type)
    return game_type.name if game_type else game.game_type


def _table_summary(game: Game) -> dict[str, Any]:
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode) if game_type else None
    return {
        "id": game.id,
        "type_name": _type_name(game),
        "mode_name": _mode_name(game),
        "seats": mode.seats if mode else None,
        "usernames": [seat.user.username for seat in game.seats.all()],
        "clock": door.clock_label(game),
        "adjourned": game.status == Status.ADJOURNED,
    }


def _type_extras(game: Game) -> dict[str, Any]:
    """What a game type's own page script needs beyond the generic config: riichi's preset labels,
    as the view names its preset only by name (static/js/games/riichi/rules.js), and the seats
    whose decision review was asked for (static/js/games/riichi/review.js reads only those)."""
    if game.game_type == "riichi":
        extras: dict[str, Any] = {"riichi_presets": riichi_presets.describe()}
        if game.status == Status.FINISHED:
            extras["reviewed_seats"] = door.reviewed_seats(game)
        return extras
    return {}


def lobby(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {
        "game_types": [gt.describe() for gt in GAME_TYPES.values()],
        "arrangements": [{"id": value, "name": label} for value, label in Arrangement.choices],
        "riichi_presets": riichi_presets.describe(),  # the create form's choices and the set-up cards' labels
        "riichi_form_presets": _riichi_form_presets(),
        # The form omits its preset only when it is the one a table gets without naming any.
        "riichi_table_preset": riichi_presets.DEFAULT_PRESET,
        "max_spectator_delay": door.MAX_SPECTATOR_DELAY,
        # The set-up cards' "Add bot" choices: bot levels by game type, the mjai bots this server runs.
        "lobby_config": {"user": _user_id(request), "mjai_bots": list(settings.MJAI_BOTS),
                         "bot_levels": bots.levels_by_type(),
                         "username": request.user.username if request.user.is_authenticated else None},
        # Play now's panel (static/js/play_now.js): every choice with its label, and how the skill
        # window widens, so the waiting card can show it between the server's messages.
        "play_now": {**play_now.choices(),
                     "window": {"base": play_now.WINDOW_BASE, "growth": play_now.WINDOW_GROWTH}},
    }
    if not request.user.is_authenticated:
        seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("slot"))
        games = (Game.objects.filter(status__in=[Status.SETUP, Status.ACTIVE, Status.ADJOURNED])
                 .prefetch_related(seats).order_by("-id")[:ANONYMOUS_LIST_LIMIT])
        context["setting_up"] = [_table_summary(g) for g in games if g.status == Status.SETUP]
        context["in_progress"] = [_table_summary(g) for g in games if g.status != Status.SETUP]
    return render(request, "games/lobby.html", context)


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.select_related("host").filter(id=game_id).first()
    if game is None:
        raise Http404("no such game")
    # The Snapshot names seats only by position, so the page learns who sits where from here;
    # positions are fixed once a game starts, and forfeits arrive live as PlayerForfeited.
    seats = list(game.seats.select_related("user").order_by("slot"))
    # Each player's rating in this game type, as the lobby shows it: one query for the table.
    ratings = door.shown_ratings([(game.game_type, [seat.user_id for seat in seats])])
    players = [
        {
            "user": seat.user_id,
            "username": seat.user.username,
            "position": seat.position,
            "team": seat.team,
            "forfeited": seat.forfeited,
            "bot": seat.user.is_bot,
            **ratings.get((seat.user_id, game.game_type), {"rating": None, "provisional": False}),
        }
        for seat in seats
    ]
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode) if game_type else None
    config = {
        "game": game.id,
        "display_number": game.display_number,
        "game_type": game.game_type,
        "game_type_name": _type_name(game),
        "mode": game.mode,
        "mode_name": _mode_name(game),
        "teams": mode.teams if mode else 0,
        "status": game.status,
        "host": game.host_id,
        "players": players,
        "user": _user_id(request),
        "result": game.result,
        **_type_extras(game),
    }
    return render(request, "games/game.html", {
        "game": game,
        "game_config": config,
        "players": players,
        "type_name": config["game_type_name"],
        "mode_name": config["mode_name"],
        "clock_label": door.clock_label(game),  # under the title: the table's time control
        "rating_rows": rating_views.game_rating_rows(game) if game.status == Status.FINISHED else [],
    })


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game (static/js/replay.js reads the review and replay APIs)."""
    game = Game.objects.select_related("host").filter(id=game_id).first()
    if game is None:
        raise Http404("no such game")
    game_type = get_game_type(game.game_type)
    mode = game_type.mode(game.mode) if game_type else None
    seats = list(game.seats.select_related("user").exclude(position=None).order_by("position"))
    config = {
        "game": game.id,
        "display_number": game.display_number,
        "game_type": game.game_type,
        "game_type_name": _type_name(game),
        "mode_name": _mode_name(game),
        "teams": mode.teams if mode else 0,
        "status": game.status,
        "players": [
            {"user": s.user_id, "username": s.user.username, "position": s.position, "team": s.team,
             "bot": s.user.is_bot}
            for s in seats
        ],
        "user": _user_id(request),
        "result": game.result,
        **_type_extras(game),
    }
    return render(request, "games/replay.html", {
        "game": game,
        "replay_config": config,
        "type_name": config["game_type_name"],
        "mode_name": config["mode_name"],
    })
