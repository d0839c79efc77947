"""PyPI mjai (mjai.app's simulator, libriichi and its example bots) as the tests' real peer: it is
AGPL-3.0, so it lives in a venv of its own (``.venv-mjai``, made by ``make mjai-bots``, which
``make test`` runs; ``MJAI_VENV`` names another) and runs only as separate processes, never
imported by the project's own."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MJAI_PYTHON = Path(os.environ.get("MJAI_VENV", ROOT / ".venv-mjai")) / "bin" / "python"
MISSING = f"no PyPI mjai 0.2.1 at {MJAI_PYTHON}: run `make mjai-bots` (`make test` does)"

# mjai.app's bot.py for one of the package's bots: started as `python bot.py <seat>`.
BOT_PY = """import sys

from {module} import {cls}

if __name__ == "__main__":
    {cls}(player_id=int(sys.argv[1])).start()
"""
