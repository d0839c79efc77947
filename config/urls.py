from csp.decorators import csp_update
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from games.api.schema_views import RedocView, SchemaView, SwaggerView
from games.riichi.transport import majiang_server

# Swagger UI styles itself with inline styles; its scripts still come only from this site
# (drf-spectacular-sidecar), and the split view serves Swagger's set-up as a file.
docs_page = csp_update({"style-src": ["'unsafe-inline'"]})
# ReDoc styles itself the same way, and runs its search index in a worker it makes from a blob.
redoc_page = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

# An error under /api/ is JSON in the API's error shape (games/api/errors.py), an unknown URL
# included; elsewhere the site's page.
handler400 = "games.api.errors.bad_request"
handler403 = "games.api.errors.permission_denied"
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"

urlpatterns = [
    # Browsers ask for /favicon.ico on pages that name no icon (and on non-HTML responses).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg")), name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", docs_page(SwaggerView.as_view(
        url_name="schema", template_name="api/swagger_ui.html")), name="api-docs"),
    # ReDoc renders the same schema as one long page. Its bundle always reaches for its own logo on
    # a CDN: the page's policy (img-src this site) refuses that before any request is made.
    path("api/redoc/", redoc_page(RedocView.as_view(url_name="schema", template_name="api/redoc.html")),
         name="api-redoc"),
    path("api/", include("games.api.urls")),
    # majiang-server's log-in and log-out, as majiang-bot calls them (its socket.io is in config/asgi.py).
    path("majiang/auth/", majiang_server.auth, name="majiang-auth"),
    path("majiang/logout", majiang_server.logout, name="majiang-logout"),
    path("", include("games.site.urls")),
]
