from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The staff views live with the site's other pages (games/site/admin.py); Django's admin
        # looks only for ``games.admin``, so they are registered here.
        from games.site import admin  # noqa: F401
