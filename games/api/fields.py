"""Request fields that apply ``games/core/validation.py``'s rules, so REST accepts exactly what the
WebSocket accepts: DRF's own fields coerce (``"2"`` and ``2.0`` become 2, ``5`` becomes ``"5"``).

A refusal is a DRF validation error (400 ``InvalidRequest`` naming the field) whose message is the
WebSocket's reason for the same value.
"""

from __future__ import annotations

import sys
from typing import Any

from rest_framework import serializers

from games.core import validation


def _name(field: serializers.Field) -> str:
    # A list's items are bound with an empty name: name the list.
    return field.field_name or getattr(field.parent, "field_name", "") or "value"


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (never ``"2"``, ``2.0`` or ``true``) in ``min_value..max_value``; the bounds
    also go into the OpenAPI schema."""

    def __init__(self, *, min_value: int = 0, max_value: int = validation.MAX_INT, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        try:
            return validation.integer(data, _name(self), minimum=self.min_value, maximum=self.max_value)
        except validation.FieldError as error:
            raise serializers.ValidationError(error.reason) from None


class StrictCharField(serializers.CharField):
    """A JSON string (``5`` is refused, never stored as ``"5"``), valid Unicode without NUL, taken
    as sent: never trimmed. Without ``max_length`` the length is the service's to judge (e.g. the
    chat's ``ChatTooLong``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        max_length = sys.maxsize if self.max_length is None else self.max_length
        try:
            return validation.text(data, _name(self), max_length=max_length, allow_blank=self.allow_blank)
        except validation.FieldError as error:
            raise serializers.ValidationError(error.reason) from None
