"""REST authentication by API token: ``Authorization: Token <key>``, checked against the stored
hashes (accounts/tokens.py). ``request.auth`` is the ``ApiToken``. A wrong token counts against
the client's address, and past its cap (accounts/login_limits.py) a token is not even looked up:
429 with ``Retry-After``."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts import login_limits
from accounts.models import ApiToken, User
from games.core.limits import RateLimited


class ApiTokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and error answers (``WWW-Authenticate: Token``); our token store."""

    keyword = "Token"
    address = login_limits.UNKNOWN

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        # DRF makes an authenticator per request, so the address may wait here for the key.
        self.address = login_limits.request_address(request)
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        try:
            token = login_limits.token_login(key, self.address)
        except RateLimited as refused:
            raise _throttled(refused) from None
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        return token.user, token


def _throttled(refused: RateLimited) -> exceptions.Throttled:
    # DRF's own 429 (any DRF view answers it, with Retry-After), saying what ours says.
    throttled: Any = exceptions.Throttled(detail=refused.reason)
    throttled.wait = refused.retry_after
    return throttled
