"""The secret key of an installation that was given none: made once, kept in a file.

`make run` must be safe on a fresh machine without any configuration, so the key cannot be a
constant in the code (anyone could forge sessions and password-reset links with it). The first
process to start writes a random key to a git-ignored file; every later one, and every other
process starting at the same moment, reads that same key.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def secret_key_file(path: Path) -> str:
    """The key in ``path``, created (owner-readable only) if it does not exist yet."""
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(key)
    try:
        # link() fails if another process got there first: then its key wins, never a mix of two.
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink()
    return _read(path)


def _read(path: Path) -> str:
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it to have a new secret key made, or set SECRET_KEY")
    return key
