from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

# The seeds' limit on names is in bytes, not characters: a name must fit in 64 bytes of UTF-8.
USERNAME_MAX_BYTES = 64


def validate_username_bytes(value: str) -> None:
    if len(value.encode("utf-8")) > USERNAME_MAX_BYTES:
        raise ValidationError(
            f"Username must be at most {USERNAME_MAX_BYTES} bytes of UTF-8.", code="username_too_long"
        )


class User(AbstractUser):
    username = models.CharField(
        "username",
        max_length=USERNAME_MAX_BYTES,
        unique=True,
        help_text="At most 64 bytes. Letters, digits and @/./+/-/_ only.",
        validators=[UnicodeUsernameValidator(), validate_username_bytes],
        error_messages={"unique": "A user with that username already exists."},
    )
    # House bots sit at tables when a host adds them; the game service plays their seats.
    is_bot = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.username


class ApiToken(models.Model):
    """One API token of a user (accounts/tokens.py). The key itself is never stored: only its
    SHA-256, and its first few characters so that the owner can tell the tokens apart."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=64, blank=True, help_text="The owner's label, e.g. which bot uses it.")
    prefix = models.CharField(max_length=8, help_text="The key's first characters: enough to recognise it, "
                                                      "useless to log in with.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)
    expires = models.DateTimeField(null=True, blank=True, help_text="Refused from then on; empty: never.")

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}…"

    @property
    def expired(self) -> bool:
        return self.expires is not None and self.expires <= timezone.now()


class Preferences(models.Model):
    """How the table page tells this user that a game waits for them (docs/browser.md, "Turn
    signals"). A user without a row has the defaults: the row is made on the first change."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences")
    # The title mark costs nothing and cannot disturb anyone: on. The sound plays only in a hidden
    # tab after the player has touched the page (browsers allow no earlier audio): on. A
    # notification needs the browser's permission, which only a click may ask for: off until the
    # player turns it on, which asks.
    turn_title = models.BooleanField(default=True, help_text="Mark the tab's title while the game waits for you.")
    turn_notification = models.BooleanField(default=False,
                                             help_text="Show a browser notification when your turn comes.")
    turn_sound = models.BooleanField(default=True, help_text="Beep when your turn comes.")

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"preferences of {self.user}"
