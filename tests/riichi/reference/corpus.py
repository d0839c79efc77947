"""Reference games from @kobalab/majiang-core, made on demand by bench/majiang/.

Helpers for tests (and for a shell: ``python -m tests.riichi.reference.corpus OUTDIR``) that make a
small seeded corpus of majiang-core games and hand it to ``manage.py paifu verify``. Node and npm do
the playing; the pinned packages are installed with ``npm ci`` from bench/majiang/package-lock.json
when node_modules is missing.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
BENCH = REPO / "bench" / "majiang"

# Names of bench/majiang/presets.js; each is a set of overrides of Majiang.rule()'s defaults.
PRESETS = (
    "default",
    "no-red-east-only",
    "no-kuitan-headbump-kiriage",
    "double-wind-2fu-no-abort",
)


def npm_missing_reason() -> str | None:
    """Why the reference games cannot be made here, or None when they can: Node.js runs them and
    npm installs majiang-core. Nothing else is a reason to skip (a failed ``npm ci`` fails)."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not on PATH: the majiang-core reference games need Node.js and npm"
    return None


def ensure_node_modules() -> None:
    """Install the pinned packages of bench/majiang (majiang-core, majiang-ai, majiang-server:
    ``npm ci``) unless all are installed already. One process at a time (the suite's pytest-xdist
    workers may both ask): ``npm ci`` starts by removing node_modules."""

    def installed() -> bool:
        return all((BENCH / "node_modules" / "@kobalab" / name / "package.json").is_file()
                   for name in ("majiang-core", "majiang-ai", "majiang-server"))

    if installed():
        return
    folder = os.open(BENCH, os.O_RDONLY)  # the lock: on the folder itself, no file left behind
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        if installed():
            return
        proc = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=BENCH, capture_output=True, text=True)
    finally:
        os.close(folder)  # and with it the lock
    if proc.returncode != 0:
        raise RuntimeError(f"npm ci in {BENCH} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")


def make_games(out: Path, *, player: str, preset: str, games: int, seed: str, first: int = 0) -> dict[str, Any]:
    """Play ``games`` seeded games into ``out`` (JSON lines of {"rule", "paifu"}); return the run's summary."""
    proc = subprocess.run(
        [
            "node",
            str(BENCH / "make_games.js"),
            "--player",
            player,
            "--preset",
            preset,
            "--games",
            str(games),
            "--seed",
            seed,
            "--first",
            str(first),
            "--out",
            str(out),
            "--quiet",
        ],
        cwd=BENCH,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"make_games.js failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# majiang-ai takes about 10-25 s a hanchan; its games in the small corpus are east-only (tonpuusen),
# half as long, so the test stays quick on a slow machine.
AI_PRESET = "no-red-east-only"


def make_small_corpus(directory: Path, *, fast_games: int = 10, ai_games: int = 1) -> list[Path]:
    """``fast_games`` fast-player games per preset and ``ai_games`` majiang-ai games (``AI_PRESET``)."""
    directory.mkdir(parents=True, exist_ok=True)
    files = []
    for preset in PRESETS:
        path = directory / f"fast-{preset}.jsonl"
        make_games(path, player="fast", preset=preset, games=fast_games, seed=f"pytest-fast-{preset}")
        files.append(path)
    if ai_games:
        path = directory / f"ai-{AI_PRESET}.jsonl"
        make_games(path, player="ai", preset=AI_PRESET, games=ai_games, seed=f"pytest-ai-{AI_PRESET}")
        files.append(path)
    return files


def read_corpus(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def verify(files: list[Path]) -> subprocess.CompletedProcess[str]:
    """Replay the files through our engine: ``python manage.py paifu verify FILE...``."""
    return subprocess.run(
        [sys.executable, "manage.py", "paifu", "verify", *map(str, files)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/majiang-corpus-small")
    reason = npm_missing_reason()
    if reason:
        sys.exit(reason)
    ensure_node_modules()
    for made in make_small_corpus(target):
        print(made)
