"""Query filters for game lists and exports (django-filter; invalid values answer 400)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django_filters.fields import IsoDateTimeField

from games.core.registry import GAME_TYPES
from games.models import Game, Status
from games.site import archive


def game_type_choices() -> list[tuple[str, str]]:
    # Read per request rather than frozen at import, so the filter always matches the registry.
    return [(key, gt.name) for key, gt in GAME_TYPES.items()]


class _UtcDateTimeField(IsoDateTimeField):
    def to_python(self, value: object) -> datetime | None:
        result = super().to_python(value)
        if result is not None:
            try:
                # Compare in UTC: e.g. 9999-12-31T23:59-12:00 has no UTC value, and PostgreSQL
                # refuses offsets beyond ±15:59 (such as 0230-02-18T08:21+23:32) that Python allows.
                result = result.astimezone(UTC)
            except OverflowError:
                raise ValidationError("date out of range", code="invalid") from None
        return result


class UtcIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = _UtcDateTimeField


class GameFilterForm(forms.Form):
    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("result") in (archive.WON, archive.LOST) and not data.get("player"):
            raise ValidationError({"result": "won and lost need a player"}, code="invalid")
        return data


class GameFilter(django_filters.FilterSet):
    game_type = django_filters.ChoiceFilter(choices=game_type_choices)
    status = django_filters.ChoiceFilter(choices=Status.choices)
    player = django_filters.CharFilter(
        field_name="seats__user__username", help_text="Only games where this username has (or had) a seat"
    )
    ended_after = UtcIsoDateTimeFilter(
        field_name="ended", lookup_expr="gte", help_text="Games that ended at or after (ISO 8601)"
    )
    ended_before = UtcIsoDateTimeFilter(
        field_name="ended", lookup_expr="lt", help_text="Games that ended before (ISO 8601)"
    )
    result = django_filters.ChoiceFilter(
        choices=[(r, r) for r in archive.RESULTS], method="filter_result",
        help_text="won / lost: finished games the player (needed) won / did not win (first place, or their "
                  "team's, from the game's result); aborted: aborted games",
    )

    class Meta:
        model = Game
        fields = ["game_type", "status", "player", "ended_after", "ended_before", "result"]
        form = GameFilterForm

    def filter_result(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return archive.by_result(queryset, self.form.cleaned_data.get("player"), value)


class ExportFilter(GameFilter):
    # Like lichess's export, the window is on creation time.
    since = UtcIsoDateTimeFilter(
        field_name="created", lookup_expr="gte", help_text="Games created at or after (ISO 8601)"
    )
    until = UtcIsoDateTimeFilter(
        field_name="created", lookup_expr="lte", help_text="Games created at or before (ISO 8601)"
    )

    class Meta(GameFilter.Meta):
        fields = [*GameFilter.Meta.fields, "since", "until"]
