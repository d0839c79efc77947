"""Operations defaults (docs/security.md): `make run` is safe with no configuration at all.

DEBUG is off unless asked for, the secret key is made once per installation (never a constant in
the code), and every page carries a Content-Security-Policy that allows no inline script and no
other site."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from config.secret import secret_key_file

ROOT = Path(__file__).resolve().parents[2]

SHOW_SETTINGS = """
import django
django.setup()
from django.conf import settings
from django.test import Client
print(settings.DEBUG)
print(settings.SECRET_KEY)
answer = Client().get("/no/such/page/")
print(answer.status_code, b"REDIS_URL" in answer.content, b"urlpatterns" in answer.content.lower()
      or b"URLconf" in answer.content)
"""


def fresh_process(tmp_path: Path, **env: str) -> list[str]:
    """The settings a server started with no configuration but ``env`` sees."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL")}
    clean |= {"DJANGO_SETTINGS_MODULE": "config.settings", "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
              "SECRET_KEY_FILE": str(tmp_path / "secret")} | env
    done = subprocess.run([sys.executable, "-c", SHOW_SETTINGS], cwd=ROOT, env=clean, capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout.splitlines()


def test_debug_is_off_unless_asked_for_and_a_404_shows_nothing(tmp_path):
    debug, key, answer = fresh_process(tmp_path)
    assert debug == "False"
    assert answer == "404 False False"
    debug, *_ = fresh_process(tmp_path, DEBUG="1")
    assert debug == "True"


def test_the_secret_key_is_made_once_and_kept(tmp_path):
    _, first, _ = fresh_process(tmp_path)
    _, second, _ = fresh_process(tmp_path)
    assert first == second
    assert len(first) >= 50
    assert "insecure" not in first
    assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600
    _, given, _ = fresh_process(tmp_path, SECRET_KEY="from-the-environment")
    assert given == "from-the-environment"
    # Another installation gets another key.
    other = tmp_path / "other"
    other.mkdir()
    _, third, _ = fresh_process(other)
    assert third != first


def test_processes_starting_together_agree_on_one_key(tmp_path):
    path = tmp_path / "secret"
    with ProcessPoolExecutor(8) as pool:
        keys = set(pool.map(secret_key_file, [path] * 32))
    assert keys == {path.read_text()}
    assert [p.name for p in tmp_path.iterdir()] == ["secret"]  # no temporary file left behind


def test_an_empty_key_file_is_an_error_not_an_empty_key(tmp_path):
    (tmp_path / "secret").write_text("")
    with pytest.raises(RuntimeError, match="empty"):
        secret_key_file(tmp_path / "secret")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/admin/login/", "/api/games/",
                                  "/no/such/page/", "/api/docs/", "/api/redoc/"])
def test_every_page_has_a_content_security_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict((part.split(" ", 1) + [""])[:2] for part in policy.split("; "))
    assert directives["script-src"] == "'self'"  # no inline script, no other site, anywhere
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "http" not in policy
