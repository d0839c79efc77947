"""Settings, all overridable from the environment.

The embedded default needs nothing installed: a SQLite file and Channels' in-memory layer.
Scale-out is configuration only: DATABASE_URL (PostgreSQL) and REDIS_URL (channels-redis).
"""

import json
import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.channel_layers import channel_layers
from config.secret import secret_key_file

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_number(name: str, default: float) -> float:
    value = os.environ.get(name)
    return default if value is None or not value.strip() else float(value)


def mjai_bots(value: str) -> dict[str, str]:
    """MJAI_BOTS: a JSON object of bot names (lower-case letters, digits, hyphens; at most 20) and
    their commands, each with ``{seat}``. A wrong value stops the server at start, saying why."""
    if not value.strip():
        return {}
    bots = json.loads(value)
    if not isinstance(bots, dict) or not all(
            isinstance(name, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,19}", name)
            and isinstance(command, str) and "{seat}" in command for name, command in bots.items()):
        raise ImproperlyConfigured('MJAI_BOTS is {"name": "command with {seat}", ...}: names of lower-case '
                                   "letters, digits and hyphens (at most 20), each command with {seat}")
    return bots


# Off unless asked for: a debug page shows settings and URLs to whoever gets an error.
DEBUG = env_bool("DEBUG", False)
# From the environment, else the git-ignored file `make run` made on its first start.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or secret_key_file(
    Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key")))
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    # Only for its migrations: accounts 0003 hashes the plain keys of its table into accounts.ApiToken
    # and empties it. Nothing authenticates with it (accounts/authentication.py does).
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, never from a CDN
    "django_filters",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{os.environ.get('SQLITE_PATH', BASE_DIR / 'db.sqlite3')}",
        # Persistent connections, one per database thread (games/core/db.py): opening one per call
        # cost a connect (and on SQLite its PRAGMAs) on every request.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
# Threads that run database work for the consumers (games/core/db.py): two, so one slow call does not
# stall every client; on SQLite more only contend for the interpreter lock (docs/dependencies.md). On
# PostgreSQL six: a thread waiting for the server's answer holds no lock, so more moves overlap
# their round trips (bench/live.py, 50 Acquire tables: 2, 4 and 6 threads about 420, 520 and 575
# actions/s; 8 no better than 6 and less steady).
DATABASE_THREADS = int(os.environ.get(
    "DATABASE_THREADS", "6" if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else "2"))
# The least time a riichi discard's call decisions take to resolve, however fast everyone answers:
# an automatic pass, a bot's instant answer and a person's quick decline then look the same to
# the table (docs/riichi-table.md, "The timing rule"). 0 turns it off.
CALL_FLOOR_MS = int(os.environ.get("CALL_FLOOR_MS", "600"))
# Bot benches only: tables may name the seed they are dealt from (games/service/lobby.py's
# DEAL_SEED). Off unless ALLOW_DEAL_SEED=1: a named seed makes every wall known to whoever named it.
ALLOW_DEAL_SEED = os.environ.get("ALLOW_DEAL_SEED", "") == "1"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend with writers queued in the process (config/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    # Several writers (Daphne threads, a TCP gateway) share the file: wait for the lock
    # instead of failing, and take the write lock at BEGIN so select_for_update's
    # serialisation holds on SQLite too.
    # With WAL, synchronous=NORMAL syncs the log at checkpoints instead of on every commit (one
    # fsync per move was most of a move's cost): a committed move survives the server process
    # crashing or being killed; only the operating system going down may lose the last moments.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE",
         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
    # Tests: in memory unless SQLITE_TEST_PATH names a file. ":memory:" is what Django makes of no
    # name, said outright so that pytest-django, which does not know this engine for SQLite, leaves
    # it be instead of naming a file per pytest-xdist worker after NAME (a file it cannot open).
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("SQLITE_TEST_PATH") or ":memory:"}

# Lobby messages that reach a client following the lobby within this many milliseconds go out as
# one frame (docs/protocols/lobby.md, "Following the lobby"); 0 sends each at once.
LOBBY_TICK_MS = int(os.environ.get("LOBBY_TICK_MS", "100"))

REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYERS = channel_layers(REDIS_URL, os.environ.get("REDIS_CHANNEL_LAYER") or None)
# Rate-limit counters and lock-outs: shared by every process when there is a Redis.
# Its keys share the channel layer's Redis database, so they carry a prefix of their own.
CACHES = {"default": {**({"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
                         if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}),
                      "KEY_PREFIX": "limits"}}

AUTH_USER_MODEL = "accounts.User"
# Password log-in counts failures and locks out (accounts/backends.py, accounts/login_limits.py).
AUTHENTICATION_BACKENDS = ["accounts.backends.LockoutBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 6}},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# API tokens (accounts/tokens.py): a token made now is refused this many days later; 0: never.
API_TOKEN_TTL_DAYS = env_number("API_TOKEN_TTL_DAYS", 365)
# majiang-server's log-in cookie (games/riichi/transport/majiang_server.py) is refused this long after it was
# set: majiang-server's session lasts 14 days. The token it names must be live as well.
MAJIANG_COOKIE_MAX_AGE_SECONDS = int(env_number("MAJIANG_COOKIE_MAX_AGE_SECONDS", 14 * 24 * 3600))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON only, read as the WebSocket reads a frame; no form parsers, whose fields are all strings.
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.StrictJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_THROTTLE_CLASSES": ["games.api.throttles.AnonymousRate", "games.api.throttles.UserRate"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Game table API",
    "DESCRIPTION": "Lobby, games, history, replays and exports for Acquire, riichi mahjong and cribbage.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The site's own icon (static/favicon.svg), as on every other page.
    "SWAGGER_UI_FAVICON_HREF": "/" + STATIC_URL.strip("/") + "/favicon.svg",
    # Deep links make each operation's path a link inside the button that opens it: a control
    # within a control, which keyboard and screen-reader users cannot reach on its own.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
}

# Every page: scripts and styles only from this site (the pages have no inline script), sockets
# only to it, no framing, no plugins. The API docs pages relax style-src (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django's own defaults give the "django" logger a console handler of its own (on when DEBUG
    # is) and let it propagate to the root's as well, so every "Not Found" and "Method Not Allowed"
    # was printed twice. Naming the logger here drops its handlers: its records reach the console
    # once, through the root (tests/platform/test_logging.py).
    "loggers": {"django": {"handlers": [], "level": LOG_LEVEL, "propagate": True}},
}

# -- limits and timeouts (docs/security.md lists each with why) ---------------------------------
# Presence: each server process beats; the clients of a process silent this long are removed.
PRESENCE_HEARTBEAT_SECONDS = env_number("PRESENCE_HEARTBEAT_SECONDS", 10)
PRESENCE_DEAD_AFTER_SECONDS = env_number("PRESENCE_DEAD_AFTER_SECONDS", 60)
# Abandoned games (docs/abandoned-games.md): an untimed game none of whose people is connected is
# adjourned after this long and aborted after the second, both counted from when they all went
# away; the server looks every ABANDON_CHECK_SECONDS.
ADJOURN_AFTER_SECONDS = env_number("ADJOURN_AFTER_SECONDS", 10 * 60)
ABORT_AFTER_SECONDS = env_number("ABORT_AFTER_SECONDS", 24 * 3600)
ABANDON_CHECK_SECONDS = env_number("ABANDON_CHECK_SECONDS", 5)
# Play now (docs/play-now.md): a REST request holds a player's place this long (a REST client
# polls within it); a place nobody holds (no connection, no poll) is removed after the grace.
PLAY_NOW_REST_HOLD_SECONDS = env_number("PLAY_NOW_REST_HOLD_SECONDS", 60)
PLAY_NOW_GRACE_SECONDS = env_number("PLAY_NOW_GRACE_SECONDS", 15)
# A table being set up at which no person sits any more (only house bots) is closed this long
# after the watch first finds it so (games/service/orphans.py); a person sitting down meanwhile keeps it.
ORPHAN_TABLE_GRACE_SECONDS = env_number("ORPHAN_TABLE_GRACE_SECONDS", 30)
# TCP links (CRIBBAGEBBER, UMP, mmj): lines queued before the link stops reading, silence before a
# link is closed, how long a peer may leave written lines unread.
TCP_MAX_PENDING_LINES = int(env_number("TCP_MAX_PENDING_LINES", 32))
TCP_IDLE_TIMEOUT_SECONDS = env_number("TCP_IDLE_TIMEOUT_SECONDS", 30 * 60)
TCP_WRITE_TIMEOUT_SECONDS = env_number("TCP_WRITE_TIMEOUT_SECONDS", 30)
# Every link (WebSocket, TCP, socket.io) that has not logged in this long after it opened is told so
# in its protocol's terms and closed (CRIBBAGEBBER's IM: included): a program logs in at once.
LOGIN_TIMEOUT_SECONDS = env_number("LOGIN_TIMEOUT_SECONDS", 20)
# An HTTP connection has this long to send a whole request (headers and body), counted from its
# opening or from its previous response: a client that trickles bytes (slowloris) is cut off.
HTTP_REQUEST_TIMEOUT_SECONDS = env_number("HTTP_REQUEST_TIMEOUT_SECONDS", 20)
# Open links per client address, every transport together (WebSocket, socket.io, TCP lines); each
# server process counts its own. Far above a browser and a few bots behind one address.
MAX_CONNECTIONS_PER_ADDRESS = int(env_number("MAX_CONNECTIONS_PER_ADDRESS", 64))
# Behind a reverse proxy: take the client's address from X-Forwarded-For (and its port and scheme
# from X-Forwarded-Port/-Proto), so every per-address limit counts clients, not the proxy. Only
# behind a proxy that sets them: a client reaching the server directly could claim any address.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
# The TCP line ports (CRIBBAGEBBER, UMP, mmj) behind a TCP proxy that says who connected with the
# PROXY protocol (version 1, HAProxy's `send-proxy`; deploy/cluster.py): each connection must then
# begin with that header, and its address is the client's. Only behind such a proxy.
TCP_PROXY_PROTOCOL = env_bool("TCP_PROXY_PROTOCOL", False)
# WebSocket: how long the server waits for a client's answer to its close frame before it drops the
# connection. Autobahn's own 1 s drops a slow client (a phone, a busy bot) with a TCP reset, which
# throws away the FatalError it had not read yet; a client library waits 10 s on its side.
WEBSOCKET_CLOSE_TIMEOUT_SECONDS = env_number("WEBSOCKET_CLOSE_TIMEOUT_SECONDS", 10)
# CRIBBAGEBBER (cribbage bots, seed 002) over TCP listens here; 0 turns it off.
CRIBBAGE_PORT = int(env_number("CRIBBAGE_PORT", 7321))
# UMP (riichi mahjong bots, seed 004) listens here beside CRIBBAGEBBER; 0 turns it off.
UMP_PORT = int(env_number("UMP_PORT", 7322))
# Every record written when a game ends is checked at once against a replay of the game's log
# (games/records/native.py), and a difference fails the action that ended the game. The test suite turns
# it on (tests/conftest.py), so every game that ends in a test run is verified; it costs a replay.
RECORDS_VERIFY_ON_WRITE = os.environ.get("RECORDS_VERIFY_ON_WRITE") == "1"
# mmj (riichi mahjong terminals, seed 000) listens here too; 0 turns it off.
MMJ_PORT = int(env_number("MMJ_PORT", 7323))
# mjai (riichi AIs: Mortal, akochan, mjai.app bots; gimite's mjsonp dialect) listens on mjai's own port; 0 turns it off.
MJAI_PORT = int(env_number("MJAI_PORT", 11600))
# mjai bots the server runs at riichi tables as house bots (docs/protocols/mjai.md, "mjai bots as
# house bots"): a JSON object of names and commands, {seat} standing for the seat, e.g.
# MJAI_BOTS='{"rulebase": "/opt/mjai/bin/python /opt/bots/rulebase/bot.py {seat}"}'.
MJAI_BOTS: dict[str, str] = mjai_bots(os.environ.get("MJAI_BOTS", ""))
# Log-in (accounts/login_limits.py): this many wrong passwords for one username from one address
# within the window lock that username's password log-in from that address for the lock-out (a
# person elsewhere is not locked out); LOGIN_USERNAME_FAILURE_LIMIT from any addresses together lock
# it everywhere (the back-stop against guessing from many addresses). Tokens and sessions keep working.
LOGIN_FAILURE_LIMIT = int(env_number("LOGIN_FAILURE_LIMIT", 10))
LOGIN_USERNAME_FAILURE_LIMIT = int(env_number("LOGIN_USERNAME_FAILURE_LIMIT", 100))
LOGIN_FAILURE_WINDOW_SECONDS = env_number("LOGIN_FAILURE_WINDOW_SECONDS", 15 * 60)
LOGIN_LOCKOUT_SECONDS = env_number("LOGIN_LOCKOUT_SECONDS", 15 * 60)
# Failed log-ins of any kind (password or token, every transport) per client address within a fixed
# window: past the limit every log-in from that address is refused, before any hashing or token
# look-up, until the window ends. Far above one person's typos or a misconfigured bot's retries.
LOGIN_ADDRESS_FAILURE_LIMIT = int(env_number("LOGIN_ADDRESS_FAILURE_LIMIT", 30))
LOGIN_ADDRESS_WINDOW_SECONDS = env_number("LOGIN_ADDRESS_WINDOW_SECONDS", 15 * 60)
# Chat, per user over every transport.
CHAT_MESSAGES_PER_MINUTE = int(env_number("CHAT_MESSAGES_PER_MINUTE", 30))
# Frames (WebSocket) and lines (CRIBBAGEBBER) per connection: a steady rate with a burst. Well
# above what a bot answering the server at full speed sends (a whole game of cribbage between
# bots here runs under it), far below what a flood sends.
FRAMES_PER_SECOND = env_number("FRAMES_PER_SECOND", 100)
FRAME_BURST = int(env_number("FRAME_BURST", 200))
# Bytes per connection, every byte counted (whitespace too), before and after log-in, on every
# transport: a steady rate with a burst. A link past it is told so and closed. A program's lines
# and frames are far smaller; a flood of bytes the parser must skip costs CPU before any frame.
BYTES_PER_SECOND = env_number("BYTES_PER_SECOND", 64 * 1024)
BYTE_BURST = int(env_number("BYTE_BURST", 512 * 1024))
# Open connections (WebSocket and TCP, all protocols) per user.
MAX_CONNECTIONS_PER_USER = int(env_number("MAX_CONNECTIONS_PER_USER", 20))
# REST calls per client (games/api/throttles.py; anonymous by address, users by account).
API_RATE_ANONYMOUS = os.environ.get("API_RATE_ANONYMOUS", "300/min")
API_RATE_USER = os.environ.get("API_RATE_USER", "1200/min")
API_RATE_EXPORT = os.environ.get("API_RATE_EXPORT", "30/min")
