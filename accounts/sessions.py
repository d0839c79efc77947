"""How a link's log-in ends, whatever it logged in with: an API token (revoked or expired) or a
session (logged out or expired: the site's session of a browser, or majiang-server's ``MAJIANG``
cookie, which is a session of its own).

Every link records what it logged in with (``token_id``, ``session_key``) and joins its user's
channel-layer group. An ending that happens at a moment someone chooses is announced to that group
(``token.revoked`` from accounts/tokens.py, ``session.ended`` from here); an ending that comes with
time (a token's ``expires``, a session's expiry date) is known to the link itself, which looks
again when it comes (``ending``/``deadline``) and closes if the log-in is over by then.
"""

from __future__ import annotations

from datetime import datetime
from importlib import import_module
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import ApiToken
from games.service.push import user_group

# The channel-layer message a log-out sends to the user's group (handled in games/transport/guard.py and by
# majiang-server's sessions): ``{"type": SESSION_ENDED, "sessions": [session_key, ...]}``.
SESSION_ENDED = "session.ended"

# Why a link's log-in ended: the code each protocol says it with, and the reason.
ENDED = {
    "TokenRevoked": "the API token this connection logged in with was revoked",
    "TokenExpired": "the API token this connection logged in with expired",
    "LoggedOut": "the session this connection logged in with was logged out",
    "SessionExpired": "the session this connection logged in with expired",
}


def store(session_key: str | None = None) -> SessionBase:
    """A session of the site's session engine (the database's, unless configured otherwise)."""
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key)


def session_until(session_key: str) -> tuple[str | None, datetime | None]:
    """Whether a session still holds: (None, its expiry date) if it does, else (why not, None)."""
    engine = store()
    if not hasattr(engine, "get_model_class"):  # a store without rows (cache, cookies): no date to read
        return (None, None) if engine.exists(session_key) else ("LoggedOut", None)
    row = engine.get_model_class().objects.filter(session_key=session_key).values_list("expire_date").first()
    if row is None:
        return "LoggedOut", None
    if row[0] <= timezone.now():
        return "SessionExpired", None
    return None, row[0]


def token_until(token_id: int) -> tuple[str | None, datetime | None]:
    """Whether a token still holds: (None, its expiry or None for never) if it does, else (why not, None)."""
    row = ApiToken.objects.filter(pk=token_id).values_list("expires").first()
    if row is None:
        return "TokenRevoked", None
    if row[0] is not None and row[0] <= timezone.now():
        return "TokenExpired", None
    return None, row[0]


def ending(token_id: int | None, session_key: str | None,
           until: datetime | None = None) -> tuple[str | None, datetime | None]:
    """A link's log-in as it stands now: (why it ended, None), or (None, when to look again: the
    earliest of its token's, its session's and ``until``'s dates; None: never)."""
    dates = [until] if until is not None else []
    for kind, key in ((token_until, token_id), (session_until, session_key)):
        if key is None:
            continue
        why, date = kind(key)
        if why is not None:
            return why, None
        if date is not None:
            dates.append(date)
    return None, min(dates, default=None)


def seconds_until(date: datetime) -> float:
    return max(0.0, (date - timezone.now()).total_seconds())


def end_session(user_id: int, session_key: str) -> None:
    """Delete a session and close every link that logged in with it (once the deletion commits)."""
    store(session_key).delete()
    transaction.on_commit(lambda: announce(user_id, [session_key]), robust=True)


def announce(user_id: int, session_keys: list[str]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": SESSION_ENDED, "sessions": session_keys})


@receiver(user_logged_out, dispatch_uid="accounts.sessions.logged_out")
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # Every log-out of the site (its page, the admin's) passes here, before Django flushes the
    # session. The session is deleted here already, so that a link logging in with it right now
    # either hears the announcement or finds the session gone when it looks again.
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    if user is not None and key:
        end_session(user.id, key)
