"""The players of games imported from records made elsewhere (Acquire reviews, Majiang paifu)."""

from __future__ import annotations

from accounts.models import User


def user_named(name: str) -> User:
    """The user of that name, made if new. Imported players never logged in here; they can claim
    the name with a password reset."""
    user = User.objects.filter(username=name).first()
    if user is None:
        user = User.objects.create_user(username=name, password=None)
    return user
