"""Per-user API tokens for bots, HTTP and TCP clients (DRF's authtoken table)."""

from rest_framework.authtoken.models import Token

from .models import User


def token_for(user: User) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def rotate_token(user: User) -> str:
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user).key


def user_for_token(key: str) -> User | None:
    if not key:
        return None
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return None
    return token.user
