from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

# Swagger UI and Redoc style themselves with inline styles; their scripts still come only from
# this site (drf-spectacular-sidecar), and the split view serves Swagger's set-up as a file.
# Redoc's search runs in a worker it makes from a blob.
docs_page = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

# A 500 under /api/ is JSON in the API's error shape (games/api/errors.py); elsewhere Django's page.
handler500 = "games.api.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", docs_page(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    path("api/redoc/", docs_page(SpectacularRedocView.as_view(url_name="schema")), name="api-redoc"),
    path("api/", include("games.api.urls")),
    path("", include("games.urls")),
]
