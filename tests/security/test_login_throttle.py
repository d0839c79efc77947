"""Failed log-ins limited per client address, per (address, username) and per username
(accounts/login_limits.py, docs/security.md "guessing a password"): spraying passwords or tokens
from one address is refused past the cap on every transport, before any hashing or token look-up;
an attacker's guesses do not lock out a person logging in from elsewhere; guesses spread over many
addresses still lock the username. In process (Django's test client, Channels communicators with
a client address in their scope) and against the served child over real sockets from distinct
loopback addresses."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import threading
import time

import pytest
import websockets
from channels.db import database_sync_to_async
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client as HttpClient
from django.urls import reverse

from accounts import tokens
from accounts.tokens import token_for
from tests.conftest import Client
from tests.served import serve

pytestmark = pytest.mark.django_db(transaction=True)

ATTACKER, PERSON, ELSEWHERE = "203.0.113.7", "198.51.100.20", "192.0.2.33"


class CountingHasher(MD5PasswordHasher):
    """The suite's fast hasher, counting every hash it computes (``slow``: each takes that long,
    as a real one does, so that guesses sent at once overlap)."""

    algorithm = "md5"  # reads the hashes the suite's users are made with
    lock = threading.Lock()
    hashes = 0
    slow = 0.0

    @classmethod
    def count(cls) -> None:
        with cls.lock:
            cls.hashes += 1
        if cls.slow:
            time.sleep(cls.slow)

    def encode(self, password: str, salt: str) -> str:
        self.count()
        return super().encode(password, salt)


@pytest.fixture
def hasher(settings):
    settings.PASSWORD_HASHERS = [f"{CountingHasher.__module__}.CountingHasher"]
    CountingHasher.hashes, CountingHasher.slow = 0, 0.0
    yield CountingHasher
    CountingHasher.slow = 0.0


@pytest.fixture
def looked_up(monkeypatch):
    """How many times a token was looked up."""
    calls = []
    real = tokens.check_token
    monkeypatch.setattr(tokens, "check_token", lambda key: calls.append(key) or real(key))
    return calls


def bot_from(address: str, path: str = "/ws/bot/") -> Client:
    """A WebSocket client whose connection comes from ``address`` (``scope["client"]``, as Daphne
    sets it from the peer)."""
    client = Client(path)
    client.comm.scope["client"] = [address, 40000]
    return client


async def ws_login(address: str, **credentials: str) -> dict:
    bot = bot_from(address)
    await bot.connect()
    await bot.send({"type": "Login", "version": 1, **credentials})
    answer = await bot.recv()
    while answer["type"] not in ("Greetings", "FatalError"):
        answer = await bot.recv()
    await bot.close()
    return answer


def form_login(address: str, username: str, password: str):
    browser = HttpClient(REMOTE_ADDR=address)
    page = browser.post(reverse("login"), {"username": username, "password": password})
    return page, "_auth_user_id" in browser.session


# -- one address spraying ---------------------------------------------------------------------


async def test_spraying_passwords_from_one_address_is_refused_before_hashing(make_user, settings, hasher):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    ann = await database_sync_to_async(make_user)("ann", password="right-password")
    hasher.hashes = 0
    for n in range(4):  # four usernames, one guess each: no username's lock-out is near
        answer = await ws_login(ATTACKER, username=f"user{n}", password="password1")
        assert answer["code"] == "IncorrectPassword"
    assert hasher.hashes == 4
    answer = await ws_login(ATTACKER, username="ann", password="right-password")
    assert answer["code"] == "RateLimited" and re.search(r"try again in \d+ s", answer["reason"])
    page, logged_in = await database_sync_to_async(form_login)(ATTACKER, "ann", "right-password")
    assert page.status_code == 429 and int(page["Retry-After"]) > 0 and not logged_in
    assert "Too many failed log-ins from your address" in page.content.decode()
    assert hasher.hashes == 4  # refused unhashed
    key = await database_sync_to_async(token_for)(ann)
    assert (await ws_login(ATTACKER, token=key))["code"] == "RateLimited"  # tokens too, from there
    # From anywhere else nothing changed.
    assert (await ws_login(PERSON, username="ann", password="right-password"))["type"] == "Greetings"
    assert (await database_sync_to_async(form_login)(PERSON, "ann", "right-password"))[1]


async def test_guesses_sent_at_once_cannot_slip_past_the_cap(make_user, settings, hasher):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    await database_sync_to_async(make_user)("ann", password="right-password")
    hasher.hashes, hasher.slow = 0, 0.3  # every guess is still hashing when the next arrives
    answers = await asyncio.gather(*(ws_login(ATTACKER, username="ann", password=f"guess {n}") for n in range(8)))
    codes = sorted(answer["code"] for answer in answers)
    assert codes == ["IncorrectPassword"] * 3 + ["RateLimited"] * 5, codes
    assert hasher.hashes == 3


def test_wrong_tokens_are_throttled_per_address_over_rest(make_user, settings, looked_up):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    key = token_for(make_user("ann"))
    attacker, person = HttpClient(REMOTE_ADDR=ATTACKER), HttpClient(REMOTE_ADDR=PERSON)
    for n in range(3):
        answer = attacker.get("/api/game-types/", HTTP_AUTHORIZATION=f"Token {n:064x}")
        assert answer.status_code == 401
    assert len(looked_up) == 3
    answer = attacker.get("/api/game-types/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert answer.json()["code"] == "RateLimited" and "failed log-ins" in answer.json()["reason"]
    assert len(looked_up) == 3  # refused before the look-up
    assert person.get("/api/game-types/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    # A right token does not count: a bot calling all day from one address is never throttled.
    for _ in range(5):
        assert person.get("/api/game-types/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200


def test_majiang_auth_is_throttled_per_address(make_user, settings, looked_up):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    key = token_for(make_user("ann"))
    attacker = HttpClient(REMOTE_ADDR=ATTACKER)
    for n in range(2):
        assert attacker.post("/majiang/auth/", {"name": f"ann:{n:064x}", "passwd": "*"}).status_code == 403
    answer = attacker.post("/majiang/auth/", {"name": f"ann:{key}", "passwd": "*"})
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0 and "MAJIANG" not in answer.cookies
    assert len(looked_up) == 2
    answer = HttpClient(REMOTE_ADDR=PERSON).post("/majiang/auth/", {"name": f"ann:{key}", "passwd": "*"})
    assert answer.status_code == 204 and "MAJIANG" in answer.cookies


async def test_wrong_tokens_count_across_transports(make_user, settings, looked_up):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    key = await database_sync_to_async(token_for)(await database_sync_to_async(make_user)("ann"))
    assert (await ws_login(ATTACKER, token="0" * 64))["code"] == "InvalidToken"
    majiang = bot_from(ATTACKER, "/ws/majiang/")
    await majiang.connect()
    await majiang.send({"type": "login", "token": "1" * 64})
    assert (await majiang.recv())["code"] == "InvalidToken"
    await majiang.close()
    # The cap reached over two transports refuses the third: CRIBBAGEBBER over WebSocket.
    cribbage = bot_from(ATTACKER, "/ws/cribbage/")
    await cribbage.connect()
    assert await cribbage.comm.receive_from() == "P:0.1/DNM"
    await cribbage.comm.send_to(text_data=f"IM:ann/{key}")
    assert (await cribbage.comm.receive_from()).startswith("WA:RATELIMITED(too many failed log-ins")
    assert await cribbage.comm.receive_from() == "E:LOGIN"
    assert len(looked_up) == 2


# -- locking out a person ---------------------------------------------------------------------------


def test_an_attackers_guesses_do_not_lock_out_a_person_elsewhere(make_user, settings):
    make_user("ann", password="right-password")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        page, logged_in = form_login(ATTACKER, "ann", "wrong")
        assert page.status_code == 200 and not logged_in
    page, logged_in = form_login(ATTACKER, "ann", "right-password")
    assert page.status_code == 429 and not logged_in  # the attacker's own address is locked for ann
    assert "Too many failed log-ins for this account" in page.content.decode()
    assert form_login(PERSON, "ann", "right-password")[1]  # ann, at home, is not


async def test_an_attackers_guesses_do_not_lock_out_a_bot_elsewhere(make_user, settings):
    await database_sync_to_async(make_user)("ann", password="right-password")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert (await ws_login(ATTACKER, username="ann", password="wrong"))["code"] == "IncorrectPassword"
    assert (await ws_login(ATTACKER, username="ann", password="right-password"))["code"] == "LoginLocked"
    assert (await ws_login(PERSON, username="ann", password="right-password"))["type"] == "Greetings"


def test_guessing_from_many_addresses_locks_the_username_everywhere(make_user, settings, hasher):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 4
    make_user("ann", password="right-password")
    make_user("bob", password="right-password")
    for n in range(4):  # each address stays under its own limit for ann
        assert not form_login(f"10.0.0.{n}", "ann", "wrong")[1]
    hasher.hashes = 0
    page, logged_in = form_login(ELSEWHERE, "ann", "right-password")
    assert page.status_code == 429 and not logged_in and hasher.hashes == 0
    assert form_login(ELSEWHERE, "bob", "right-password")[1]  # only that username


def test_ipv6_clients_are_counted_by_their_64(make_user, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    make_user("ann", password="right-password")
    for host in ("2001:db8:1:2::1", "2001:db8:1:2::2"):
        assert not form_login(host, "nobody", "wrong")[1]
    assert form_login("2001:db8:1:2:ffff::9", "ann", "right-password")[0].status_code == 429
    assert form_login("2001:db8:1:3::1", "ann", "right-password")[1]


# -- the served site, real sockets from distinct loopback addresses ---------------------------------

SETUP = """
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
ann = User.objects.create_user(username="ann", password="right-password")
print(json.dumps({"ann": token_for(ann)}))
"""


def rest(port: int, source: str, key: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    connection.request("GET", "/api/game-types/", headers={"Authorization": f"Token {key}"})
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer


async def served_login(port: int, source: str, **credentials: str) -> dict:
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/bot/", open_timeout=30,
                                  local_addr=(source, 0)) as ws:
        await ws.send(json.dumps({"type": "Login", "version": 1, "history": False, **credentials}))
        while True:
            answer = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if answer["type"] in ("Greetings", "FatalError"):
                return answer


async def line_link(port: int, source: str, line: str, until: str | None = None) -> list[str]:
    """Connect from ``source``, say ``line`` after the server's first line, read to the end (or
    to a line holding ``until``)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    lines = [(await asyncio.wait_for(reader.readline(), 30)).decode().strip()]
    writer.write(f"{line}\n".encode())
    await writer.drain()
    while raw := await asyncio.wait_for(reader.readline(), 30):
        lines.append(raw.decode().strip())
        if until is not None and until in lines[-1]:
            break
    writer.close()
    return lines


@pytest.mark.own_server
async def test_spraying_is_refused_per_address_on_the_served_site(tmp_path, monkeypatch):
    monkeypatch.setenv("LOGIN_ADDRESS_FAILURE_LIMIT", "2")
    with serve(tmp_path, SETUP, cribbage=True, ump=True, quiet=True) as site:
        key = json.loads(site.setup_output.strip().splitlines()[-1])["ann"]
        http_port, crib, ump = site.http_port, site.tcp_port, site.ump_port
        # 127.0.0.2 sprays passwords over the bot WebSocket, a username each.
        for n in range(2):
            answer = await served_login(http_port, "127.0.0.2", username=f"user{n}", password="password1")
            assert answer["code"] == "IncorrectPassword"
        answer = await served_login(http_port, "127.0.0.2", username="ann", password="right-password")
        assert answer["code"] == "RateLimited"
        # ... and from there every log-in is refused, whatever the transport.
        refused = await asyncio.to_thread(rest, http_port, "127.0.0.2", key)
        assert refused.status == 429 and int(refused.getheader("Retry-After")) > 0
        lines = await line_link(crib, "127.0.0.2", f"IM:ann/{key}")
        assert lines[1].startswith("WA:RATELIMITED(too many failed log-ins") and lines[2:] == ["E:LOGIN"], lines
        lines = await line_link(ump, "127.0.0.2", f"1 hello ump=1 user=ann password={key}")
        assert lines[-1].startswith("2 error RateLimited"), lines
        # 127.0.0.3 sprays tokens over CRIBBAGEBBER's TCP port.
        for n in range(2):
            assert (await line_link(crib, "127.0.0.3", f"IM:ann/{n:064x}"))[1:] == ["E:LOGIN"]
        lines = await line_link(crib, "127.0.0.3", f"IM:ann/{key}")
        assert lines[1].startswith("WA:RATELIMITED(too many failed log-ins") and lines[2:] == ["E:LOGIN"], lines
        # 127.0.0.4 sprays tokens over REST.
        for n in range(2):
            assert (await asyncio.to_thread(rest, http_port, "127.0.0.4", f"{n:064x}")).status == 401
        assert (await asyncio.to_thread(rest, http_port, "127.0.0.4", key)).status == 429
        # Ann, from her own address, logs in everywhere.
        assert (await asyncio.to_thread(rest, http_port, "127.0.0.5", key)).status == 200
        greeted = await served_login(http_port, "127.0.0.5", username="ann", password="right-password")
        assert greeted["type"] == "Greetings"
        lines = await line_link(ump, "127.0.0.5", f"1 hello ump=1 user=ann password={key}", until="_ex_")
        assert " _ex_ " in lines[-1] and not [line for line in lines if " error " in line], lines


def rest_via_proxy(port: int, forwarded_for: str, key: str) -> int:
    """A REST call as a reverse proxy passes one on: from the proxy's address (127.0.0.1), naming
    the client in X-Forwarded-For."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/api/game-types/", headers={"Authorization": f"Token {key}",
                                                           "X-Forwarded-For": forwarded_for})
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.mark.own_server
@pytest.mark.parametrize("behind_proxy", [True, False])
def test_behind_a_proxy_each_client_is_counted_by_its_own_address(tmp_path, monkeypatch, behind_proxy):
    """``BEHIND_PROXY``: the per-address limits count the client X-Forwarded-For names, so one
    client's wrong tokens do not lock out everyone behind the proxy. Without it the header is not
    believed (a client reaching the server directly could claim any address)."""
    monkeypatch.setenv("LOGIN_ADDRESS_FAILURE_LIMIT", "2")
    monkeypatch.setenv("BEHIND_PROXY", "1" if behind_proxy else "0")
    with serve(tmp_path, SETUP, cribbage=False, quiet=True) as site:
        key = json.loads(site.setup_output.strip().splitlines()[-1])["ann"]
        assert [rest_via_proxy(site.http_port, "203.0.113.7", "0" * 64) for _ in range(2)] == [401, 401]
        assert rest_via_proxy(site.http_port, "203.0.113.7", key) == 429
        assert rest_via_proxy(site.http_port, "198.51.100.9", key) == (200 if behind_proxy else 429)
