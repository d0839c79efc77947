"""Per-user API tokens for bots, HTTP and TCP clients.

A token is 32 random bytes, written as 64 hex digits (letters and digits only, so it fits in
CRIBBAGEBBER's ``IM:<nickname>/<token>``). Only its SHA-256 is stored: a fast hash is enough for a
key with 256 bits of entropy (there is nothing to guess), and it lets a key be found by its hash
in one indexed look-up. The key is shown once, when it is made; the owner recognises a token later
by its first characters (``prefix``), its name and its dates.

A user may hold several tokens (one per bot, say). Revoking one (``revoke``, the token page, the
admin, or deleting the user) closes every live connection that logged in with it: once the
deletion commits, the user's channel-layer group hears ``token.revoked`` with the token's id,
and each consumer that recorded that id closes its link (``games/transport/guard.py``).

Expiry: a token made now expires ``API_TOKEN_TTL_DAYS`` days later (``0``: never); an expired
token is refused wherever it is presented, and a link open with it closes at its expiry (each
link wakes then: accounts/sessions.py, games/transport/guard.py).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import ApiToken, User
from games.service.push import user_group

KEY_BYTES = 32
PREFIX_LENGTH = 8
# The channel-layer message a revocation sends to the owner's group (handled in games/transport/guard.py).
REVOKED = "token.revoked"
# ``last_used`` is written at most this often per token, so that a busy bot's every REST call
# does not turn into a database write.
LAST_USED_PRECISION = timedelta(minutes=1)
# How many tokens the token page lets one user hold.
MAX_TOKENS_PER_USER = 20


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def expiry_from(now: datetime) -> datetime | None:
    days = settings.API_TOKEN_TTL_DAYS
    return now + timedelta(days=days) if days and days > 0 else None


def create_token(user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new token for ``user``, and its key: the only time the key is known."""
    key = secrets.token_hex(KEY_BYTES)
    now = timezone.now()
    token = ApiToken.objects.create(user=user, name=name, prefix=key[:PREFIX_LENGTH], digest=digest(key),
                                    created=now, expires=expiry_from(now))
    return token, key


def token_for(user: User) -> str:
    """Make a new token for ``user`` and return its key (scripts, tests, benchmarks)."""
    return create_token(user)[1]


def check_token(key: object) -> ApiToken | None:
    """The live token whose key this is (with its user), or None: unknown, expired, or its user is
    inactive. Notes the use."""
    if not isinstance(key, str) or not key or len(key) > 2 * KEY_BYTES:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest(key)).first()
    if token is None or token.expired or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token


def revoke(user: User, token_id: int) -> ApiToken | None:
    """Delete one of ``user``'s tokens; the deleted token (for its prefix and name), or None if
    ``user`` has no such token. Its connections close once the deletion commits (see
    ``_announce_revocation``)."""
    with transaction.atomic():
        token = ApiToken.objects.filter(user=user, pk=token_id).first()
        if token is not None:
            token.delete()
    return token


@receiver(post_delete, sender=ApiToken, dispatch_uid="accounts.tokens.revoked")
def _announce_revocation(sender, instance: ApiToken, **kwargs) -> None:
    # Every way a token goes (the page, the admin, a user deleted, the shell) passes here. Only
    # after the commit: a rolled-back revocation must not cut anyone off.
    user_id, token_id = instance.user_id, instance.pk
    transaction.on_commit(lambda: _send_revoked(user_id, [token_id]), robust=True)


def _send_revoked(user_id: int, token_ids: list[int]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": REVOKED, "tokens": token_ids})
