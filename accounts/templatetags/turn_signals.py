"""The table page's turn-signal menu reads the user's preferences here, so it is drawn with them
(no request after load, no moment with the wrong switches)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.preferences import preferences_of

register = template.Library()


@register.simple_tag(takes_context=True)
def turn_signal_preferences(context: dict[str, Any]) -> dict[str, bool]:
    return preferences_of(context["user"])
