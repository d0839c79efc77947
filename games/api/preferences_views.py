"""The requester's preferences: which turn signals the table page gives (docs/browser.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.preferences import TURN_SIGNALS, preferences_of, update_preferences
from games.api.base import ApiView
from games.api.schema import errors


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``: DRF's own field would also take ``"yes"``, ``1`` or ``"off"``,
    and a client that sends those has a bug worth hearing about."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            raise serializers.ValidationError(f"'{self.field_name}' must be true or false")
        return data


class PreferencesSerializer(serializers.Serializer):
    turn_title = StrictBooleanField(required=False, help_text="Mark the tab's title while a game waits for you "
                                                              "and the tab is in the background (default true)")
    turn_notification = StrictBooleanField(required=False, help_text="A browser notification when your turn comes "
                                                                     "in a background tab, if the browser allows "
                                                                     "it (default false)")
    turn_sound = StrictBooleanField(required=False, help_text="A short beep when your turn comes in a background "
                                                              "tab (default true)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A misspelt name would otherwise be dropped silently and the change seem to have worked.
        unknown = sorted(set(self.initial_data) - set(TURN_SIGNALS))
        if unknown:
            raise serializers.ValidationError({unknown[0]: [f"unknown preference; known: {', '.join(TURN_SIGNALS)}"]})
        return attrs


class PreferencesResponseSerializer(serializers.Serializer):
    turn_title = serializers.BooleanField()
    turn_notification = serializers.BooleanField()
    turn_sound = serializers.BooleanField()


class PreferencesView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_preferences_retrieve", tags=["account"],
                   responses={200: PreferencesResponseSerializer, **errors(401, 403)})
    def get(self, request: Request) -> Response:
        """Your preferences: which signals the table page gives when a game waits for you."""
        return Response(preferences_of(request.user))

    @extend_schema(operation_id="me_preferences_update", tags=["account"], request=PreferencesSerializer,
                   responses={200: PreferencesResponseSerializer, **errors(400, 401, 403)})
    def patch(self, request: Request) -> Response:
        """Change some of your preferences (only the fields sent); answers all of them. A refused body
        changes nothing."""
        data = PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(update_preferences(request.user, dict(data.validated_data)))
