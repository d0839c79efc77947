"""Password log-in with a lock-out, for every place a password is checked: the log-in form, the
admin's, and the bot WebSocket's ``Login`` (all call ``django.contrib.auth.authenticate``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from games import limits

from .models import User


class LockoutBackend(ModelBackend):
    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> User | None:
        if username is None or password is None:
            return None
        if limits.login_locked(username):
            # PermissionDenied, not None: Django then tries no other backend. The password is not
            # even checked, so a locked account tells an attacker nothing about a guess.
            raise PermissionDenied("too many failed log-ins")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            limits.login_failed(username)
        else:
            limits.login_succeeded(username)
        return user
