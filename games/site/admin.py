"""Staff views of games, chat and connections.

Everything here is read-only: the action log is the truth and only the lobby and the game service
may change a game. Staff interventions go through those services ("Abort selected games",
"Remove a player"), so they lock the row, push to clients and keep the engine cache right.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template import engines
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from accounts.models import User
from games.core.errors import GameError
from games.models import (
    Action,
    ChatMessage,
    Client,
    Game,
    QueueEntry,
    Rating,
    RatingChange,
    RiichiReview,
    Seat,
    Status,
)
from games.service import door

# Users listed in the "By player" sidebar; any other username still works as ?player=<name>.
PLAYER_FILTER_CHOICES = 100


class PlayerFilter(admin.SimpleListFilter):
    title = "player"
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        names = (User.objects.filter(seats__isnull=False).distinct().order_by("username")
                 .values_list("username", flat=True)[:PLAYER_FILTER_CHOICES])
        return [(name, name) for name in names]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() is None:
            return queryset
        return queryset.filter(seats__user__username=self.value())


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["user", "slot", "position", "team", "accepted", "forfeited", "clock_ms", "bank_ms", "joined", "remove"]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Seat]:
        return super().get_queryset(request).select_related("user")

    @admin.display(description="")
    def remove(self, seat: Seat) -> str:
        if seat.game.is_over:
            return ""
        url = reverse("admin:games_game_remove_player", args=[seat.game_id])
        return format_html('<a href="{}?user={}">Remove from table…</a>', url, seat.user_id)


class ActionInline(ReadOnlyInline):
    model = Action
    fields = ["seq", "seat", "type", "params", "auto", "answers", "timestamp_ms"]
    readonly_fields = fields
    classes = ["collapse"]


class ChatInline(ReadOnlyInline):
    model = ChatMessage
    fields = ["created", "user", "text"]
    readonly_fields = fields
    classes = ["collapse"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        return super().get_queryset(request).select_related("user")


class RemovePlayerForm(forms.Form):
    user = forms.TypedChoiceField(coerce=int, label="Player")

    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = game.seats.select_related("user").order_by("slot")
        self.fields["user"].choices = [(s.user_id, s.user.username) for s in seats]


# Inline so the feature needs no template file; it extends the stock admin layout.
REMOVE_PLAYER_TEMPLATE = engines["django"].from_string("""{% extends "admin/base_site.html" %}
{% block breadcrumbs %}<div class="breadcrumbs">
<a href="{% url 'admin:index' %}">Home</a> &rsaquo;
<a href="{% url 'admin:games_game_changelist' %}">Games</a> &rsaquo;
<a href="{% url 'admin:games_game_change' game.pk %}">{{ game }}</a> &rsaquo; Remove a player</div>
{% endblock %}
{% block content %}
<p>{% if game.status == "active" %}The player forfeits: the server plays for them from now on.
{% else %}The player is removed from the table; every acceptance is reset.{% endif %}</p>
<form method="post">{% csrf_token %}{{ form.as_p }}
<input type="submit" value="Remove player"></form>
{% endblock %}""")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    # status reads "Adjourned" for a game stopped because its people all went away (games/service/abandon.py).
    list_display = ["id", "game_type", "mode", "status", "clock", "host", "players", "seq", "created", "started",
                    "ended"]
    list_filter = ["game_type", "status", ("created", admin.DateFieldListFilter), PlayerFilter]
    # id__exact is cast to text by the admin, so a non-numeric search term does not fail.
    search_fields = ["id__exact", "seats__user__username", "host__username"]
    list_select_related = ["host"]
    readonly_fields = [f.name for f in Game._meta.fields] + ["downloads"]
    inlines = [SeatInline, ActionInline, ChatInline]
    actions = ["abort_games"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("slot"))
        )

    # Being staff reveals nothing a spectator could not see while a game is live: the seed
    # (it deals every hidden tile and card) and the action log (a crib discard, a riichi draw
    # choice) appear once the game is over. Staff read a live game through the public links.
    SECRET_WHILE_LIVE = ("seed", "window_answers")

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        fields = list(super().get_fields(request, obj))
        if obj is not None and not obj.is_over:
            fields = [f for f in fields if f not in self.SECRET_WHILE_LIVE]
        return fields

    def get_inlines(self, request: HttpRequest, obj: Game | None = None) -> list[type]:
        inlines = list(super().get_inlines(request, obj))
        if obj is not None and not obj.is_over:
            inlines.remove(ActionInline)
        return inlines

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened by players through the lobby

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False  # the log is the record; abort instead

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        # The change page is view-only (saving the form would write back a possibly stale row);
        # "change" permission on the model still gates the service-backed actions.
        return obj is None and super().has_change_permission(request)

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return ", ".join(s.user.username for s in game.seats.all())

    @admin.display(description="time control")
    def clock(self, game: Game) -> str:
        return door.clock_label(game)

    @admin.display(description="downloads and tools")
    def downloads(self, game: Game) -> str:
        links = [
            ("Game (JSON)", reverse("api-game", args=[game.id])),
            ("History (JSON)", reverse("api-game-history", args=[game.id])),
            ("Export (NDJSON)", reverse("api-game-export", args=[game.id])),
            ("Snapshot (JSON)", reverse("api-game-snapshot", args=[game.id])),
        ]
        if game.seed is not None:
            links.append(("Replay, final step (JSON)", f"{reverse('api-game-replay', args=[game.id])}?step={game.seq}"))
        if game.is_over and game.record_downloadable:  # every record reveals what play hid
            links.append(("Record (JSON)", reverse("api-game-record", args=[game.id])))
        if game.game_type == "acquire" and game.is_over:  # it holds the tile bag
            links.append(("Review data", reverse("api-game-review", args=[game.id])))
        if game.game_type == "riichi" and game.status == Status.FINISHED:  # it holds every hand and wall
            links.append(("Paifu (JSON)", reverse("api-game-paifu", args=[game.id])))
        links.append(("Chat (JSON)", reverse("api-game-chat", args=[game.id])))
        if not game.is_over:
            links.append(("Remove a player…", reverse("admin:games_game_remove_player", args=[game.id])))
        return format_html("<ul>{}</ul>", format_html_join("", '<li><a href="{}">{}</a></li>',
                                                            ((url, label) for label, url in links)))

    @admin.action(description="Abort selected games", permissions=["change"])
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        aborted, refused = [], []
        for game_id in queryset.values_list("id", flat=True):
            try:
                door.abort(game_id)
                aborted.append(f"#{game_id}")
            except GameError as exc:
                refused.append(f"#{game_id} ({exc.reason})")
        if aborted:
            self.message_user(request, f"Aborted {', '.join(aborted)}.", messages.SUCCESS)
        if refused:
            self.message_user(request, f"Not aborted: {', '.join(refused)}.", messages.WARNING)

    def get_urls(self) -> list:
        custom = [
            path("<path:object_id>/remove-player/", self.admin_site.admin_view(self.remove_player_view),
                 name="games_game_remove_player"),
        ]
        return custom + super().get_urls()

    def remove_player_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A form to take one user off a table (a kick in set-up, a forfeit in play)."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        game = self.get_object(request, unquote(object_id))
        if game is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        change_url = reverse("admin:games_game_change", args=[game.id])
        form = RemovePlayerForm(game, request.POST if request.method == "POST" else None,
                                initial={"user": request.GET.get("user")})
        if request.method == "POST" and form.is_valid():
            user_id = form.cleaned_data["user"]
            try:
                door.remove_player(game.id, user_id)
            except GameError as exc:
                self.message_user(request, f"Not removed: {exc.reason} ({exc.code}).", messages.ERROR)
            else:
                username = User.objects.filter(id=user_id).values_list("username", flat=True).first()
                self.message_user(request, f"Removed {username} from {game}.", messages.SUCCESS)
            return HttpResponseRedirect(change_url)
        context = {**self.admin_site.each_context(request), "opts": self.opts, "game": game, "form": form,
                   "title": f"Remove a player from {game}"}
        return TemplateResponse(request, REMOVE_PLAYER_TEMPLATE, context)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["id", "created", "game", "user", "text"]
    list_filter = [("created", admin.DateFieldListFilter)]
    search_fields = ["text", "user__username", "game__id__exact"]
    list_select_related = ["user", "game"]


@admin.register(Client)
class ClientAdmin(ReadOnlyAdmin):
    list_display = ["id", "user", "game", "channel_name", "connected"]
    search_fields = ["user__username", "channel_name"]
    list_select_related = ["user", "game"]


# Ratings are derived from the rated games (``manage.py ratings rebuild``): read-only like the rest.
@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "game_type", "mu", "sigma", "games", "last_played"]
    list_filter = ["game_type"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["game", "user", "game_type", "position", "rank", "mu_before", "mu_after", "sigma_after"]
    list_filter = ["game_type"]
    search_fields = ["user__username", "game__id__exact"]
    list_select_related = ["user", "game"]


# Play now's queue (docs/play-now.md): staff see who waits for what; a place is left by its player
# (or lapses), so nothing here changes it.
@admin.register(QueueEntry)
class QueueEntryAdmin(ReadOnlyAdmin):
    list_display = ["user", "game_type", "options", "mu", "bots_after", "via", "game"]
    list_filter = ["game_type", "via"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]


# Decision reviews (docs/review.md): staff see what was asked for and how each build went; a review
# is derived from the log, so it is read-only here (a failed one is built again when asked).
@admin.register(RiichiReview)
class RiichiReviewAdmin(ReadOnlyAdmin):
    list_display = ["game", "seat", "status", "done", "total", "requested", "finished", "error"]
    list_filter = ["status"]
    search_fields = ["game__id"]
    list_select_related = ["game"]
    exclude = ["document"]  # the JSON is the download's (/api/games/<id>/review/<seat>/download/)
