"""REST rate limits (docs/security.md): DRF's throttles, answered with 429 and ``Retry-After``.

The rates are read from the settings on every request rather than once at import (DRF's own
classes freeze ``DEFAULT_THROTTLE_RATES`` into a class attribute), so an operator's environment
and a test's ``settings`` fixture both take effect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

if TYPE_CHECKING:  # DRF's settings import this module while rest_framework.views is half loaded
    from rest_framework.request import Request
    from rest_framework.views import APIView


class AnonymousRate(AnonRateThrottle):
    """Calls without a user, per client address."""

    def get_rate(self) -> str:
        return settings.API_RATE_ANONYMOUS


class UserRate(UserRateThrottle):
    """Calls of a logged-in user (session or token), per account. Anonymous calls are
    ``AnonymousRate``'s alone: DRF's class would also count them by address, so a reader allowed
    more than ``API_RATE_USER`` anonymously was still stopped there."""

    def get_rate(self) -> str:
        return settings.API_RATE_USER

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None  # DRF: not throttled by this class
        return super().get_cache_key(request, view)


class ExportRate(UserRateThrottle):
    """Whole-game downloads (exports, paifu, review data), which cost far more than a call: per
    account, or per address for anonymous readers."""

    scope = "export"

    def get_rate(self) -> str:
        return settings.API_RATE_EXPORT
