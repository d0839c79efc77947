"""The games page's filters, read from its query string. Dates are whole days in UTC (the site's
time zone): "ended from" a day counts from its start, "ended to" a day up to its end."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django import forms

from games.core.registry import GAME_TYPES
from games.site import archive

OVER, ACTIVE = "over", "active"


def _game_types() -> list[tuple[str, str]]:
    return [("", "Any game"), *((key, gt.name) for key, gt in GAME_TYPES.items())]


class ArchiveFilterForm(forms.Form):
    show = forms.ChoiceField(choices=[(OVER, "Finished"), (ACTIVE, "In progress")], required=False)
    game_type = forms.ChoiceField(choices=_game_types, required=False, label="Game")
    player = forms.CharField(required=False, max_length=150, label="Player")
    ended_from = forms.DateField(required=False, label="Ended from",
                                 widget=forms.DateInput(attrs={"type": "date"}))
    ended_to = forms.DateField(required=False, label="Ended to",
                               widget=forms.DateInput(attrs={"type": "date"}))
    result = forms.ChoiceField(required=False, label="Result", choices=[
        ("", "Any result"), (archive.WON, "Won (by the player)"), (archive.LOST, "Lost (by the player)"),
        (archive.ABORTED, "Aborted")])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("result") in (archive.WON, archive.LOST) and not data.get("player"):
            self.add_error("result", "Choose a player: won and lost are theirs.")
        return data

    def window(self) -> tuple[datetime | None, datetime | None]:
        """The ended-between window of the chosen days, half-open as ``archive.ended_between``."""
        start, end = self.cleaned_data.get("ended_from"), self.cleaned_data.get("ended_to")
        after = datetime.combine(start, time.min, tzinfo=UTC) if start else None
        before = None
        if end and end < date.max:  # the last day there is has no end to stop before
            before = datetime.combine(end + timedelta(days=1), time.min, tzinfo=UTC)
        return after, before
