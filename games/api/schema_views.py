"""The API's description (/api/schema/) and its two browsable pages, answering errors as the API does.

drf-spectacular's views render whatever they answer with the renderer the request negotiated, or
the first one: an error (``?format=zzz``, a wrong method) came back as YAML or through an HTML
template. Here every error is the API's ``{"code", "reason"}`` JSON (games/api/errors.py).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.errors import ApiErrorsMixin


class JsonErrorsMixin(ApiErrorsMixin):
    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        if getattr(response, "exception", False):
            # The negotiated renderer (YAML, a page template) has no error shape of its own.
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


class SchemaView(JsonErrorsMixin, SpectacularAPIView):
    pass


class SwaggerView(JsonErrorsMixin, SpectacularSwaggerSplitView):
    pass


class RedocView(JsonErrorsMixin, SpectacularRedocView):
    pass
