"""mjai's real peers against the server `make run` starts (``manage.py serve``, real sockets, a SQLite
file): PyPI mjai 0.2.1's bots (AGPL: in their own venv, tests/riichi/mjai_peers.py) behind
``manage.py mjaibot``, the process bridge, on the mjai TCP port.

- Four bridges (RulebaseBot twice, RiichiBot, the base Bot) play a whole east-south game at one
  table; the paifu replays with zero divergences in our engine and in majiang-core, and each bot
  was sent the game's mjai export but for what its seat may not see.
- A mixed table: an mjai bot, an unmodified majiang-bot (socket.io), a UMP client (manage.py
  umpbot) and a house bot play a game to the end.
- An mjai bot the operator registered (MJAI_BOTS) is added to a table like a house bot, run by the
  server for its seat while the game lasts, and gone (its token with it) when it ends.
docs/protocols/mjai.md."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from games.riichi.records.exports.mjai import to_mjai
from tests.riichi.mjai_peers import MISSING, MJAI_PYTHON
from tests.riichi.protocols.test_mjai_seat import export_differences
from tests.riichi.transport.link import api
from tests.riichi.transport.mmj_peer import post
from tests.riichi.transport.sio import start_bot
from tests.riichi.transport.test_mjai_served import Peer, check_hidden
from tests.riichi.transport.test_sio_served import replay_both_ways, stopped_at_the_end
from tests.served import SiteSpec

pytestmark = pytest.mark.own_server

ROOT = Path(__file__).resolve().parents[3]
BOT = "tests/riichi/mjai_bots/rulebase_bot.py"
# Every bot class mjai 0.2.1 ships: RulebaseBot twice, RiichiBot, and the base Bot (tsumogiri).
BOTS = (BOT, "tests/riichi/mjai_bots/riichi_bot.py", BOT, "tests/riichi/mjai_bots/base_bot.py")
NAMES = ("ann", "ben", "cat", "dan", "uu", "mo", "mx", "hal")
SETUP = f"""
import json
import django
django.setup()
from django.core.management import call_command
from accounts.models import User
from accounts.tokens import token_for
call_command("migrate", verbosity=0)
print(json.dumps({{name: token_for(User.objects.create_user(username=name, password=None)) for name in {NAMES!r}}}))
"""
SITE = SiteSpec(SETUP, name="mjai-peers", mjai=True, ump=True, node=True,
                env={"GAME_CLOCK_SWEEPER": "1",
                     "MJAI_BOTS": json.dumps({"rulebase": f"{MJAI_PYTHON.relative_to(ROOT)} {BOT} {{seat}}",
                                              "tsumogiri": f"{MJAI_PYTHON.relative_to(ROOT)} {BOTS[3]} {{seat}}"})})


def bridge(port: int, name: str, token: str, game: int, directory: Path, bot: str = BOT) -> subprocess.Popen:
    """``manage.py mjaibot`` with one of mjai 0.2.1's bots (``bot``: its bot.py, RulebaseBot's by
    default) at ``game``; every line it hears in ``<name>.out`` (``-v 2``), the bot's stderr in
    ``<name>.log``."""
    out = (directory / f"{name}.out").open("wb")
    return subprocess.Popen([sys.executable, "manage.py", "mjaibot", "--cmd", f"{MJAI_PYTHON} {bot} {{seat}}",
                             "127.0.0.1", str(port), "--user", name, "--game", str(game), "--log",
                             str(directory / f"{name}.log"), "--retry", "5", "-v", "2"],
                            cwd=ROOT, env={**__import__("os").environ, "MJAI_TOKEN": token},
                            stdout=out, stderr=subprocess.STDOUT)


def heard(directory: Path, name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The events the bridge was sent (its ``<-`` lines) and the ``error`` messages among them.
    hello and errors are left out, and so is the question sent again after an error (the server
    refuses an answer with ``error`` and asks again: docs/protocols/mjai.md): each event once."""
    events: list[dict[str, Any]] = []
    errors: list[str] = []
    refused = False
    for line in (directory / f"{name}.out").read_text().splitlines():
        if not line.startswith("<- "):
            continue
        event = json.loads(line[3:])
        if event["type"] == "error":
            errors.append(event["message"])
            refused = True
        elif event["type"] != "hello":
            if not (refused and events and event == events[-1]):
                events.append(event)
            refused = False
    return events, errors


def finished(site, game_id: int, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while site.database.game(game_id)[1] != "finished":
        assert time.monotonic() < deadline, site.database.game(game_id)
        time.sleep(0.2)


def test_four_mjai_bots_play_a_whole_east_south_game(site, tmp_path):
    assert MJAI_PYTHON.exists(), MISSING
    tokens = site.setup
    players = ("ann", "ben", "cat", "dan")
    game_id = post(site.port, tokens["ann"], "games/", {"game_type": "riichi", "mode": 4,
                                                        "rules": {"preset": "tenhou"}})["id"]
    bridges = [bridge(site.served.mjai_port, name, tokens[name], game_id, tmp_path, bot)
               for name, bot in zip(players, BOTS, strict=True)]
    with stopped_at_the_end(bridges):
        for name, process in zip(players, bridges, strict=True):
            assert process.wait(timeout=280) == 0, (tmp_path / f"{name}.out").read_text()[-3000:]
    assert site.database.game(game_id)[1] == "finished"
    # No seat was played by the server: every move came from a bot.
    assert not [a for a in site.database.actions(game_id) if a[1] is not None and a[4]]
    paifu = replay_both_ways(site.port, tokens["ann"], game_id, tmp_path)
    assert len(paifu["log"]) >= 8 or any(s < 0 for s in paifu["defen"])  # east-south, unless someone busted
    export = to_mjai(paifu)
    for name in players:
        events, errors = heard(tmp_path, name)
        # mjai's bots may answer what the rules refuse (a call on the last tile, a riichi discard
        # that leaves the hand not ready); each is refused in the game's own terms, never a fault.
        assert not [e for e in errors if e.startswith(("InternalError", "Breach", "Malformed"))], errors
        me = events[0]["id"]
        check_hidden(events, me)
        seat_export = [dict(e, pai="?") if e["type"] == "tsumo" and e["actor"] != me else
                       dict(e, tehais=[h if i == me else ["?"] * 13 for i, h in enumerate(e["tehais"])])
                       if e["type"] == "start_kyoku" else e for e in export]
        export_differences(events, seat_export)
        log = (tmp_path / f"{name}.log").read_text() + (tmp_path / f"{name}.out").read_text()
        assert tokens[name] not in log


def test_a_mixed_table_plays_to_the_end(site, tmp_path):
    """An mjai bot, a majiang-bot (socket.io), a UMP client and a house bot at one table."""
    assert MJAI_PYTHON.exists(), MISSING
    tokens = site.setup
    ump_log = (tmp_path / "ump.log").open("w")
    ump = subprocess.Popen([sys.executable, "manage.py", "umpbot", "127.0.0.1", str(site.served.ump_port),
                            "--user", "uu", "--token", tokens["uu"], "--bots", "1", "--preset", "tenhou-east",
                            "--retry", "30"], cwd=ROOT, stdout=ump_log, stderr=subprocess.STDOUT)
    processes = [ump]
    with stopped_at_the_end(processes):
        deadline = time.monotonic() + 30
        while not (rows := site.database.rows(
                "SELECT g.id FROM games_game g JOIN games_seat s ON s.game_id = g.id JOIN accounts_user u "
                "ON u.id = s.user_id WHERE g.status = 'setup' AND u.username = 'uu'")):
            assert time.monotonic() < deadline and ump.poll() is None, (tmp_path / "ump.log").read_text()
            time.sleep(0.1)
        game_id = rows[0][0]
        processes.append(start_bot(site.port, game_id, f"mo:{tokens['mo']}", tmp_path / "mo.log"))
        processes.append(bridge(site.served.mjai_port, "mx", tokens["mx"], game_id, tmp_path))
        finished(site, game_id)
        assert processes[2].wait(timeout=60) == 0, (tmp_path / "mx.out").read_text()[-3000:]
        assert ump.wait(timeout=60) == 0, (tmp_path / "ump.log").read_text()[-3000:]
    users = {u for (u,) in site.database.rows(
        "SELECT u.username FROM games_seat s JOIN accounts_user u ON u.id = s.user_id WHERE s.game_id = ?", game_id)}
    assert users == {"uu", "mo", "mx", "house-bot-1"}
    replay_both_ways(site.port, tokens["uu"], game_id, tmp_path)


def test_a_registered_mjai_bot_is_run_for_its_seat(site, tmp_path):
    """The host adds "mjai: tsumogiri" (mjai's base Bot: it discards every tile it draws and calls
    nothing) as a house bot; the server runs the bridge for the seat while the game lasts, and the
    seat's every discard is the bot's (a house bot would not discard as it draws); afterwards no
    bridge is left and its token is gone."""
    assert MJAI_PYTHON.exists(), MISSING
    tokens = site.setup
    game_id = post(site.port, tokens["hal"], "games/", {"game_type": "riichi", "mode": 4,
                                                        "rules": {"preset": "tenhou-east"}})["id"]
    added = post(site.port, tokens["hal"], f"games/{game_id}/add-bot/", {"bot": "mjai:tsumogiri"})
    assert [u["username"] for u in added["setup"]["users"]][-1] == "mjai-tsumogiri-1"
    for _ in range(2):
        post(site.port, tokens["hal"], f"games/{game_id}/add-bot/", {})
    import asyncio

    async def play() -> list[dict[str, Any]]:
        peer = await Peer.connect(site.served.mjai_port)
        await peer.join("hal", tokens["hal"], game_id)
        try:
            return await asyncio.wait_for(peer.play(), 240)
        finally:
            peer.close()

    events = asyncio.run(play())
    assert events[-1]["type"] == "end_game" and site.database.game(game_id)[1] == "finished"
    seat = site.database.seat(game_id, "mjai-tsumogiri-1")
    moves = [a for a in site.database.actions(game_id) if a[1] == seat]
    assert moves and not [a for a in moves if a[4]], moves[:5]  # the bot's own moves, none the server's
    paifu = api(site.port, tokens["hal"], f"games/{game_id}/paifu/")
    player = paifu["player"].index("mjai-tsumogiri-1")
    discards = [step["dapai"]["p"] for hand in paifu["log"] for step in hand  # l: the seat from the dealer
                if "dapai" in step and step["dapai"]["l"] == (player - paifu["qijia"] - hand[0]["qipai"]["jushu"]) % 4]
    assert discards and all("_" in p for p in discards), discards
    deadline = time.monotonic() + 20
    while site.database.rows("SELECT COUNT(*) FROM accounts_apitoken t JOIN accounts_user u ON u.id = t.user_id "
                             "WHERE u.username = 'mjai-tsumogiri-1'")[0][0]:
        assert time.monotonic() < deadline, "the bridge's token outlived the game"
        time.sleep(0.2)


def test_an_unknown_bot_is_refused(site):
    tokens = site.setup
    game_id = post(site.port, tokens["hal"], "games/", {"game_type": "riichi", "mode": 4})["id"]
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as refused:
        post(site.port, tokens["hal"], f"games/{game_id}/add-bot/", {"bot": "mjai:mortal"})
    body = json.loads(refused.value.read())
    assert refused.value.code == 400 and body["code"] == "UnknownBot" and "mjai:rulebase" in body["reason"]
    assert api(site.port, tokens["hal"], f"games/{game_id}/")["setup"]["users"][-1]["username"] == "hal"
