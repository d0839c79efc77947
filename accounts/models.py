from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models

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
