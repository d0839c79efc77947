"""mjai.app's bot.py for PyPI mjai 0.2.1's base ``Bot`` (it discards every tile it draws), run by
.venv-mjai: tests/riichi/mjai_peers.py."""

import sys

from mjai import Bot

if __name__ == "__main__":
    Bot(player_id=int(sys.argv[1])).start()
