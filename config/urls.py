from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.riichi import majiang_server

# Swagger UI styles itself with inline styles; its scripts still come only from this site
# (drf-spectacular-sidecar), and the split view serves Swagger's set-up as a file.
docs_page = csp_update({"style-src": ["'unsafe-inline'"]})

# A 500 under /api/ is JSON in the API's error shape (games/api/errors.py); elsewhere Django's page.
handler500 = "games.api.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", docs_page(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    # Redoc was a second renderer of the same schema, and it always reaches for its logo on a CDN:
    # its old address leads to Swagger UI.
    path("api/redoc/", RedirectView.as_view(pattern_name="api-docs", permanent=True), name="api-redoc"),
    path("api/", include("games.api.urls")),
    # majiang-server's log-in and log-out, as majiang-bot calls them (its socket.io is in config/asgi.py).
    path("majiang/auth/", majiang_server.auth, name="majiang-auth"),
    path("majiang/logout", majiang_server.logout, name="majiang-logout"),
    path("", include("games.urls")),
]
