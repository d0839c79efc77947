"""mjai.app's bot.py for PyPI mjai 0.2.1's RulebaseBot, run by its own venv (.venv-mjai:
tests/riichi/mjai_peers.py) as ``python rulebase_bot.py <seat>``: the bot the served tests register
in MJAI_BOTS and run behind ``manage.py mjaibot``."""

import sys

from mjai.bot.rulebase import RulebaseBot

if __name__ == "__main__":
    RulebaseBot(player_id=int(sys.argv[1])).start()
