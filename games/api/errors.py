"""One error shape for the whole API: ``{"code": ..., "reason": ...}``.

Service errors (``games.core.errors.GameError``) already carry a wire code and an HTTP status; DRF's own
errors (validation, parsing, authentication, CSRF, content negotiation) and Django's refusals of a
request (a body over DATA_UPLOAD_MAX_MEMORY_SIZE) are reshaped into the same form so that clients
parse a single format. Anything else is a bug: logged with its traceback, answered 500
``InternalError`` without any detail, in debug mode too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from games.core.errors import GameError
from games.core.validation import FieldError

# Django's own logger for 500s, so an API bug reaches the same handlers (and alerts) as any other.
log = logging.getLogger("django.request")

INTERNAL_ERROR = {"code": "InternalError", "reason": "the server failed; the error has been logged"}


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    default_code = "request_too_large"


class BadRequest(exceptions.APIException):
    """What Django answers 400 for any other ``SuspiciousOperation`` (e.g. too many query fields)."""

    status_code = 400
    default_code = "bad_request"


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


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, GameError):
        retry_after = getattr(exc, "retry_after", None)  # games.core.limits.RateLimited
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        body = exc.as_dict()
        if isinstance(exc, FieldError):
            # The field by name, as DRF's own validation errors give it.
            body["errors"] = {exc.field: [exc.reason]}
        return Response(body, status=exc.status, headers=headers)
    # Converted here (DRF would do it too) so the code below sees DRF's exception and its code.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    elif isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge(f"a request body is at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes")
    elif isinstance(exc, SuspiciousOperation):
        exc = BadRequest(str(exc))
    response = drf_exception_handler(exc, context)
    if response is None:
        request = context.get("request")
        log.error("Internal Server Error: %s", getattr(request, "path", "?"), exc_info=exc)
        set_rollback()
        return Response(INTERNAL_ERROR, status=500)
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

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response]:
        return api_exception_handler

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Reading the body first makes Django refuse one over DATA_UPLOAD_MAX_MEMORY_SIZE here, as a
        # 413 from the handler above, whatever its content type (a form body has no parser and would
        # otherwise be a 415) and before the session's CSRF check reads a form body itself.
        request.body  # noqa: B018 (reading it is the check)
        super().initial(request, *args, **kwargs)


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a 500 outside the API's views (e.g. the schema pages), in the API's shape
    under /api/. Django has logged it already; with DEBUG on, Django shows its debug page instead."""
    if is_api_path(request.path_info):
        return JsonResponse(INTERNAL_ERROR, status=500)
    return defaults.server_error(request)


# Django's own refusals that no API view sees: a URL no route matches, a request Django finds
# suspicious before routing (handler400), a refusal outside DRF (handler403). Under /api/ each is
# the API's JSON error, so a client parses one format whatever went wrong; elsewhere the site's page.


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``."""
    if is_api_path(request.path_info):
        return JsonResponse({"code": "NotFound", "reason": "no API endpoint at this path (see /api/schema/)"},
                            status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``."""
    if is_api_path(request.path_info):
        return JsonResponse({"code": "BadRequest", "reason": "the request was refused as malformed"}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler403``."""
    if is_api_path(request.path_info):
        return JsonResponse({"code": "PermissionDenied", "reason": "you may not do this"}, status=403)
    return defaults.permission_denied(request, exception)
