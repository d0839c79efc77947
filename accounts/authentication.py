"""REST authentication by API token: ``Authorization: Token <key>``, checked against the stored
hashes (accounts/tokens.py). ``request.auth`` is the ``ApiToken``."""

from __future__ import annotations

from rest_framework import authentication, exceptions

from .models import ApiToken, User
from .tokens import check_token


class ApiTokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and error answers (``WWW-Authenticate: Token``); our token store."""

    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        token = check_token(key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        return token.user, token
