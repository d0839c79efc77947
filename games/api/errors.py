"""One error shape for the whole API: ``{"code": ..., "reason": ...}``.

Service errors (``games.errors.GameError``) already carry a wire code and an HTTP status; DRF's own
errors (validation, authentication, CSRF, content negotiation) are reshaped into the same form so
that clients parse a single format. Anything else is a bug and stays a 500.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import GameError

# DRF's default codes are snake_case; the platform's codes are CamelCase (docs/protocols/lobby.md).
_CODE_OVERRIDES = {"invalid": "InvalidRequest", "throttled": "RateLimited"}


def _camel(code: str) -> str:
    return _CODE_OVERRIDES.get(code) or "".join(part.capitalize() for part in code.split("_"))


def _first_message(detail: Any) -> str:
    """The first human-readable message inside a (possibly nested) DRF error detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            message = _first_message(value)
            return message if key == "non_field_errors" else f"{key}: {message}"
        return "invalid request"
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "invalid request"
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        retry_after = getattr(exc, "retry_after", None)  # games.limits.RateLimited
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        return Response(exc.as_dict(), status=exc.status, headers=headers)
    # Converted here (DRF would do it too) so the code below sees DRF's exception and its code.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "InvalidRequest", "reason": _first_message(exc.detail), "errors": exc.detail}
        return response
    detail = getattr(exc, "detail", None)
    reason = _first_message(detail) if detail is not None else str(exc)
    code = getattr(exc, "default_code", None) or "error"
    if isinstance(exc, exceptions.PermissionDenied) and reason.startswith("CSRF Failed"):
        code = "csrf_failed"
    response.data = {"code": _camel(code), "reason": reason}
    return response


class ApiErrorsMixin:
    """Mix into every API view (before the DRF base class) so the project-wide
    EXCEPTION_HANDLER setting can stay DRF's default for any other API."""

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return api_exception_handler
