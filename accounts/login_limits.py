"""How often log-ins may fail, for every way of logging in (docs/security.md, "guessing a password").

Three counts, all in Django's cache (shared by every process under Redis, as ``games.core.limits``'s):

- per client address: failed log-ins of any kind (passwords and tokens, every transport) within a
  fixed window of ``LOGIN_ADDRESS_WINDOW_SECONDS``. Past ``LOGIN_ADDRESS_FAILURE_LIMIT`` every
  log-in from the address is refused (``RateLimited``) before any password is hashed or any token
  looked up. A password attempt is counted before it is hashed and given back if it succeeds, so
  that many guesses sent at once cannot all slip past the check while the first ones hash.
- per (address, username): ``LOGIN_FAILURE_LIMIT`` wrong passwords within
  ``LOGIN_FAILURE_WINDOW_SECONDS`` lock that username's password log-in *from that address* for
  ``LOGIN_LOCKOUT_SECONDS`` (``LoginLocked``). An attacker elsewhere cannot lock a person out.
- per username: ``LOGIN_USERNAME_FAILURE_LIMIT`` wrong passwords within the same window, from any
  addresses, lock its password log-in everywhere: the back-stop against guessing spread over many
  addresses. A success does not reset it (an attacker's own successes must not either).

Tokens and sessions keep working through a username's lock-out; only the address throttle stops
them, since it cannot tell an attacker's token from a victim's.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import threading
import time
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from accounts import tokens
from accounts.models import ApiToken
from games.core.errors import GameError
from games.core.limits import RateLimited

UNKNOWN = "unknown"  # a client whose address the transport does not give: they share one count
ADDRESS_REASON = "too many failed log-ins from this address"


class LoginLocked(GameError):
    """Password log-in for this username is locked (from this address, or everywhere)."""

    status = 429

    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__("LoginLocked", f"too many failed log-ins; try again in {self.retry_after} s")


# -- the client's address -----------------------------------------------------------------------


def address_key(host: str | None) -> str:
    """The bucket of a client address. An IPv6 client is counted by its /64: one host is given a
    whole /64 and could otherwise try from as many addresses as it likes."""
    if not host:
        return UNKNOWN
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return UNKNOWN
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def scope_address(scope: Mapping[str, Any]) -> str:
    """An ASGI connection's (WebSocket, socket.io, the TCP line bridge): ``scope["client"]``."""
    client = scope.get("client")
    return address_key(client[0] if client else None)


def request_address(request: HttpRequest | None) -> str:
    """A Django request's: ``REMOTE_ADDR`` (the peer; behind a proxy, the proxy)."""
    return address_key(request.META.get("REMOTE_ADDR") if request is not None else None)


# -- counts -------------------------------------------------------------------------------------


def _address_counter(address: str) -> tuple[str, float]:
    """The cache key of the address's current window, and when that window ends."""
    window = settings.LOGIN_ADDRESS_WINDOW_SECONDS
    start = int(time.time() // window * window)
    return f"login-address:{address}:{start}", start + window


def _increment(key: str, timeout: float) -> int:
    # add() creates the counter once; incr() is atomic on Redis and under locmem's lock.
    cache.add(key, 0, timeout=int(timeout) + 1)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=int(timeout) + 1)
        return 1


def _address_refused(address: str) -> RateLimited | None:
    key, ends = _address_counter(address)
    if (cache.get(key) or 0) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
        return RateLimited(ADDRESS_REASON, ends - time.time())
    return None


def _user(username: str) -> str:
    # Hashed: a username may hold spaces and any character, which cache keys should not.
    return hashlib.sha256(username.casefold().encode("utf-8", "surrogatepass")).hexdigest()


def _pair(address: str, username: str) -> str:
    return f"{address}|{_user(username)}"


def _locked_until(name: str) -> float | None:
    until = cache.get(f"login-locked:{name}")
    return until if until is not None and until > time.time() else None


def _strike(name: str, limit: int) -> None:
    """One more wrong password for ``name`` (a pair or a username); the ``limit``-th within the
    window locks it."""
    key = f"login-failures:{name}"
    if _increment(key, settings.LOGIN_FAILURE_WINDOW_SECONDS) >= limit:
        lockout = settings.LOGIN_LOCKOUT_SECONDS
        cache.set(f"login-locked:{name}", time.time() + lockout, timeout=int(lockout) + 1)
        cache.delete(key)


# -- the checks the log-in paths call ------------------------------------------------------------


def refusal(address: str, username: str | None = None) -> GameError | None:
    """Why a log-in from ``address`` (with a password for ``username``, if given) would be refused
    now, without counting anything: ``RateLimited``, ``LoginLocked`` or None. For the paths that
    say so in their own terms before they hand the password to ``authenticate``."""
    refused = _address_refused(address)
    if refused is not None or username is None:
        return refused
    untils = [u for u in (_locked_until(_pair(address, username)), _locked_until(_user(username))) if u]
    return LoginLocked(max(untils) - time.time()) if untils else None


def begin_password(address: str, username: str) -> str:
    """Before a password is hashed: raise if it may not be (``refusal``); else count the attempt
    against the address, and return the counter's key for ``end_password``, which gives the
    attempt back if it succeeds."""
    refused = refusal(address, username)
    if refused is not None:
        raise refused
    key, ends = _address_counter(address)
    if _increment(key, ends - time.time()) > settings.LOGIN_ADDRESS_FAILURE_LIMIT:
        raise RateLimited(ADDRESS_REASON, ends - time.time())
    return key


# The refusal ``begin_password`` raised inside the authentication backend, per thread: Django's
# ``authenticate`` turns the backend's PermissionDenied into a plain None, and a log-in path that
# answers in its own terms must still say RateLimited or LoginLocked, not a wrong password (guesses
# sent at once pass ``refusal`` together and are refused only there).
_backend = threading.local()


def note_refusal(refused: GameError) -> None:
    _backend.refused = refused


def take_refusal() -> GameError | None:
    """The refusal the backend met on this thread since the last call, if any."""
    refused, _backend.refused = getattr(_backend, "refused", None), None
    return refused


def end_password(address: str, username: str, succeeded: bool, counted: str) -> None:
    """After the password was checked; ``counted``: what ``begin_password`` returned."""
    if succeeded:
        try:
            cache.decr(counted)
        except ValueError:  # that window is over: nothing to give back
            pass
        cache.delete(f"login-failures:{_pair(address, username)}")
        return
    _strike(_pair(address, username), settings.LOGIN_FAILURE_LIMIT)
    _strike(_user(username), settings.LOGIN_USERNAME_FAILURE_LIMIT)


def check_address(address: str) -> None:
    """Before a credential other than a password is looked up: ``RateLimited`` past the cap."""
    refused = _address_refused(address)
    if refused is not None:
        raise refused


def failed(address: str) -> None:
    """A log-in from ``address`` that was refused (a wrong token, a bad cookie)."""
    key, ends = _address_counter(address)
    _increment(key, ends - time.time())


def token_login(key: object, address: str) -> ApiToken | None:
    """``tokens.check_token`` for a token presented from ``address``: ``RateLimited`` if the address
    is past its cap (the token is not looked up), and an unknown token counts against it."""
    check_address(address)
    token = tokens.check_token(key)
    if token is None:
        failed(address)
    return token
