"""API tokens (accounts/tokens.py): only a hash is stored, a key is shown once, a user lists and
revokes their tokens, the admin shows no key nor hash, tokens expire, and the plain keys of
before are hashed by the migration so that running bots keep working."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.tokens import check_token, create_token, revoke, token_for
from games.service.push import user_group

pytestmark = pytest.mark.django_db

PAGE = "/accounts/token/"


def rest_status(key: str) -> int:
    return APIClient().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}").status_code


def stored_text() -> str:
    """Every value of every token row, as text."""
    return repr(list(ApiToken.objects.values_list()))


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def page(alice) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get(PAGE)  # sets the CSRF cookie
    return client


def post(client: Client, **data) -> object:
    return client.post(PAGE, data, HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def shown_key(response) -> str:
    match = re.search(r'value="([0-9a-f]{64})"[^>]*data-testid="api-token"', response.content.decode())
    assert match, "no key on the page"
    return match.group(1)


# -- storage ---------------------------------------------------------------------------------------


def test_only_a_hash_and_a_prefix_are_stored(alice):
    token, key = create_token(alice, "my bot")
    assert re.fullmatch(r"[0-9a-f]{64}", key)  # 32 random bytes; letters and digits only (IM:)
    token.refresh_from_db()
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:8]
    assert key not in stored_text()
    assert not hasattr(token, "key")
    assert check_token(key) == token
    assert check_token(key[:-1] + ("0" if key[-1] != "0" else "1")) is None
    assert check_token(token.digest) is None  # the hash is no key


def test_keys_are_distinct_and_each_authenticates(alice):
    keys = [token_for(alice) for _ in range(3)]
    assert len(set(keys)) == 3
    assert all(rest_status(key) == 200 for key in keys)
    assert rest_status("0" * 64) == 401


def test_last_use_is_noted(alice):
    token, key = create_token(alice)
    assert token.last_used is None
    assert rest_status(key) == 200
    token.refresh_from_db()
    assert token.last_used is not None and timezone.now() - token.last_used < timedelta(minutes=1)


# -- the token page --------------------------------------------------------------------------------


def test_a_new_key_is_shown_once(page, alice):
    empty = page.get(PAGE)
    assert empty.status_code == 200
    assert 'data-testid="api-token"' not in empty.content.decode()
    assert 'data-testid="no-tokens"' in empty.content.decode()

    made = post(page, action="create", name="acquire bot")
    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"]  # not kept by a cache or the history
    key = shown_key(made)
    token = ApiToken.objects.get(user=alice)
    assert token.name == "acquire bot" and token.digest == hashlib.sha256(key.encode()).hexdigest()

    later = page.get(PAGE).content.decode()
    assert key not in later and token.digest not in later
    assert f"{key[:8]}…" in later and "acquire bot" in later
    assert rest_status(key) == 200


def test_making_or_revoking_needs_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(PAGE, {"action": "create"}).status_code == 403
    assert not ApiToken.objects.exists()
    token, key = create_token(alice)
    assert client.post(PAGE, {"action": "revoke", "token": token.id}).status_code == 403
    assert rest_status(key) == 200


def test_revoke_one_token_keeps_the_others(page, alice):
    first, first_key = create_token(alice, "first")
    second, second_key = create_token(alice, "second")
    response = post(page, action="revoke", token=first.id)
    assert response.status_code == 302
    assert list(ApiToken.objects.filter(user=alice)) == [second]
    assert rest_status(first_key) == 401
    assert rest_status(second_key) == 200
    listing = page.get(PAGE).content.decode()
    assert f"Token {first.prefix}… revoked" in listing
    assert f"{second.prefix}…" in listing


def test_nobody_revokes_another_users_token(page, make_user):
    bob = make_user("bob")
    token, key = create_token(bob)
    for value in (token.id, "x", "", "²", "9" * 40):
        post(page, action="revoke", token=value)
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert rest_status(key) == 200
    assert "No such token" in page.get(PAGE).content.decode()


def test_the_page_needs_a_login():
    assert Client().get(PAGE).status_code == 302


def test_a_name_too_long_is_refused(page):
    response = post(page, action="create", name="x" * 65)
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_one_user_holds_a_bounded_number_of_tokens(page, alice):
    from accounts import tokens

    for _ in range(tokens.MAX_TOKENS_PER_USER):
        create_token(alice)
    assert post(page, action="create").status_code == 400
    assert ApiToken.objects.filter(user=alice).count() == tokens.MAX_TOKENS_PER_USER


# -- revocation is announced to the owner's connections, once it commits -----------------------------


@pytest.mark.django_db(transaction=True)
async def test_revocation_is_announced_to_the_owners_group_after_commit(db_call, make_user):
    alice = await db_call(make_user, "alice")
    kept, _ = await db_call(create_token, alice)
    revoked, _ = await db_call(create_token, alice)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(user_group(alice.id), channel)

    def rolled_back() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            revoke(alice, kept.id)
            raise RuntimeError("rolled back")

    await db_call(rolled_back)
    assert await db_call(ApiToken.objects.filter(pk=kept.pk).exists)
    assert (await db_call(revoke, alice, revoked.id)).prefix == revoked.prefix
    # The first announcement is the committed one: the rolled-back revocation said nothing.
    assert await layer.receive(channel) == {"type": "token.revoked", "tokens": [revoked.id]}


# -- the admin -----------------------------------------------------------------------------------


def test_the_admin_shows_no_key_nor_hash(alice, make_user):
    token, key = create_token(alice, "my bot")
    staff = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin/accounts/apitoken/")
    change = client.get(f"/admin/accounts/apitoken/{token.pk}/change/")
    for response in (listing, change):
        assert response.status_code == 200
        text = response.content.decode()
        assert key not in text and token.digest not in text
        assert f"{token.prefix}…" in text and "alice" in text
    # Read-only: no field of the token can be edited, the hash least of all.
    assert set(re.findall(r'<(?:input|textarea|select)[^>]*name="([^"]+)"', change.content.decode())) <= {
        "csrfmiddlewaretoken"}
    # Only the owner makes a token (the key is shown to them only); DRF's plain-key table is gone.
    assert client.get("/admin/accounts/apitoken/add/").status_code == 403
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 404


def test_deleting_in_the_admin_revokes(alice, make_user):
    token, key = create_token(alice)
    staff = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    response = client.post(f"/admin/accounts/apitoken/{token.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert rest_status(key) == 401


# -- expiry ----------------------------------------------------------------------------------------


def test_a_token_expires_after_the_configured_days(alice, settings):
    settings.API_TOKEN_TTL_DAYS = 30
    token, key = create_token(alice)
    assert timedelta(days=29, hours=23) < token.expires - timezone.now() <= timedelta(days=30)
    assert rest_status(key) == 200
    ApiToken.objects.filter(pk=token.pk).update(expires=timezone.now() - timedelta(seconds=1))
    assert check_token(key) is None
    assert rest_status(key) == 401
    assert "expired" in _page_of(alice)


def test_zero_days_means_no_expiry(alice, settings):
    settings.API_TOKEN_TTL_DAYS = 0
    token, key = create_token(alice)
    assert token.expires is None
    assert check_token(key) == token


def test_the_default_is_a_year(alice):
    token, _ = create_token(alice)
    assert timedelta(days=364) < token.expires - timezone.now() <= timedelta(days=365)


@pytest.mark.django_db(transaction=True)
async def test_an_expired_token_cannot_log_in_on_the_websocket(clients, db_call, make_user):
    alice = await db_call(make_user, "alice")
    token, key = await db_call(create_token, alice)
    await db_call(ApiToken.objects.filter(pk=token.pk).update, expires=timezone.now())
    client = await clients()
    await client.connect()
    await client.send({"type": "Login", "version": 1, "token": key})
    assert (await client.recv())["code"] == "InvalidToken"


def _page_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(PAGE).content.decode()


# -- the migration of plain keys -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_hashes_plain_keys_so_running_bots_keep_working():
    before = [("accounts", "0002_user_is_bot"), ("authtoken", "0004_alter_tokenproxy_options")]
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("accounts", "User").objects.create(username="oldbot")
    plain = "0123456789abcdef0123456789abcdef01234567"  # DRF's 40 hex digits
    made = timezone.now() - timedelta(days=400)
    old_tokens = old.get_model("authtoken", "Token").objects
    old_tokens.create(key=plain, user_id=user.id)
    old_tokens.filter(key=plain).update(created=made)  # auto_now_add on create

    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0003_api_tokens")])
    executor = MigrationExecutor(connection)
    executor.migrate(leaves)

    token = ApiToken.objects.get()
    assert token.user_id == user.id and token.prefix == plain[:8] and token.created == made
    assert token.digest == hashlib.sha256(plain.encode()).hexdigest()
    assert plain not in stored_text()
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0  # the plain keys are gone
    # The bot's key still works, and from now on it expires like a new one.
    assert check_token(plain) == token
    assert rest_status(plain) == 200
    assert timedelta(days=364) < token.expires - timezone.now() <= timedelta(days=365)
