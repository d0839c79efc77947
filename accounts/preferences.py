"""A user's preferences (accounts.models.Preferences): read with the defaults filled in, and changed.

Reading never writes: a user who never changed anything has no row, and reads the model's
defaults. The API (games/api/preferences_views.py) and the table page (accounts/templatetags)
both come here.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import Preferences

# The signals the table page may give when a game waits for the player, in the order it lists them.
TURN_SIGNALS = ("turn_title", "turn_notification", "turn_sound")


def preferences_of(user: Any) -> dict[str, bool]:
    """The user's preferences as the API shows them; the defaults for a user without a row (or an
    anonymous visitor, who has no turn to be told of)."""
    stored = Preferences.objects.filter(user_id=user.pk).first() if user.is_authenticated else None
    row = stored or Preferences()
    return {name: getattr(row, name) for name in TURN_SIGNALS}


def update_preferences(user: Any, changes: dict[str, bool]) -> dict[str, bool]:
    """Set the named preferences (already validated) and answer all of them."""
    with transaction.atomic():
        # Locked, so two concurrent changes of different fields both survive.
        row, _ = Preferences.objects.select_for_update().get_or_create(user=user)
        for name, value in changes.items():
            setattr(row, name, value)
        if changes:
            row.save(update_fields=list(changes))
    return {name: getattr(row, name) for name in TURN_SIGNALS}
