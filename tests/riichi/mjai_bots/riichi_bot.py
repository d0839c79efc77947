"""mjai.app's bot.py for PyPI mjai 0.2.1's RiichiBot (run by .venv-mjai: tests/riichi/mjai_peers.py)."""

import sys

from mjai.bot.riichibot import RiichiBot

if __name__ == "__main__":
    RiichiBot(player_id=int(sys.argv[1])).start()
