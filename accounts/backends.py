"""Password log-in with the log-in limits (accounts/login_limits.py), for every place a password is
checked: the log-in form, the admin's, and the WebSocket and UMP log-ins (all call
``django.contrib.auth.authenticate``; the ASGI ones pass the client's ``address``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import login_limits
from accounts.models import User
from games.core.errors import GameError


class LockoutBackend(ModelBackend):
    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     address: str | None = None, **kwargs: Any) -> User | None:
        """``address``: the client's (``login_limits.scope_address``) when there is no request."""
        if username is None or password is None:
            return None
        if address is None:
            address = login_limits.request_address(request)
        try:
            counted = login_limits.begin_password(address, username)
        except GameError as refused:
            # PermissionDenied, not None: Django then tries no other backend. The password is not
            # even hashed, so a refused guess costs nothing and tells an attacker nothing.
            login_limits.note_refusal(refused)
            raise PermissionDenied(refused.reason) from None
        user = super().authenticate(request, username=username, password=password, **kwargs)
        login_limits.end_password(address, username, user is not None, counted)
        return user
