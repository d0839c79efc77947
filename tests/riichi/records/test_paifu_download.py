"""GET /api/games/<id>/paifu/: a finished riichi game's Majiang paifu, downloaded and replayed.

Bots play whole east-only games through the lobby (``manage.py playbots``); a logged-in user then
downloads the paifu through the REST API, and the file is replayed twice: by our engine
(``manage.py paifu verify FILE``) and by majiang-core itself (``node
bench/majiang/replay_paifu.js FILE``, through ``Majiang.Dev.Game``). Both must find no divergence,
which needs the rule the game was played with: the file carries it. The majiang-core replay is
skipped only where Node.js or npm is missing (``tests/riichi/reference/corpus.py``).
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.models import Game, Status
from games.riichi.engine.rule import rule as make_rule
from games.service import lobby
from tests.riichi.reference.corpus import BENCH, ensure_node_modules, npm_missing_reason

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: engines go back to the cache

EAST_ONLY = {"場数": 1}
NO_RED_EAST_ONLY = {"場数": 1, "赤牌": {"m": 0, "p": 0, "s": 0}}
MAJIANG_KEYS = ["title", "player", "qijia", "log", "defen", "point", "rank"]


def play_bots(rules: dict[str, Any], seed: int) -> Game:
    out = io.StringIO()
    call_command("playbots", "riichi", "--games", "1", "--seed", str(seed), "--rule", json.dumps(rules), stdout=out)
    game = Game.objects.filter(game_type="riichi").order_by("-id").first()
    assert game is not None and game.status == Status.FINISHED
    return game


def usernames(game: Game) -> list[str]:
    return [s.user.username for s in game.seats.select_related("user").exclude(position=None).order_by("position")]


def tile_set(hand: str) -> set[str]:
    """The tiles written in a hand string (``m123p5z11``), red fives as fives."""
    tiles, suit = set(), ""
    for ch in hand:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit():
            tiles.add(suit + ("5" if ch == "0" else ch))
    return tiles


def majiang_replay(path: Path) -> subprocess.CompletedProcess[str]:
    ensure_node_modules()
    return subprocess.run(["node", str(BENCH / "replay_paifu.js"), str(path)], cwd=BENCH, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize(("rules", "seed"), [(EAST_ONLY, 3), (NO_RED_EAST_ONLY, 5)], ids=["east-only", "no-red"])
def test_a_downloaded_paifu_replays_in_our_engine_and_in_majiang_core(client, make_user, tmp_path, monkeypatch,
                                                                      rules, seed):
    # The same game every run (the lobby draws a table's seed at random): what is checked below
    # about its hands must hold of this game, not of most games.
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 1000 + seed)
    game = play_bots(rules, seed)
    client.force_login(make_user())
    response = client.get(reverse("api-game-paifu", args=[game.id]))
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="riichi-{game.display_number}.json"'
    paifu = json.loads(response.content.decode("utf-8"))

    # Majiang's keys, then the rule; the players' real names, not the engine's "player 0".
    assert list(paifu) == [*MAJIANG_KEYS, "rule"]
    assert paifu["player"] == usernames(game) and all(name.startswith("bot-riichi-") for name in paifu["player"])
    assert paifu["rule"] == make_rule(rules)
    assert paifu["rank"] == game.result["rank"] and paifu["point"] == game.result["point"]
    dealt = "".join("".join(hand[0]["qipai"]["shoupai"]) for hand in paifu["log"])
    assert ("0" in dealt) == (rules is EAST_ONLY)  # red fives were dealt only where the rule has them
    assert len(paifu["log"]) >= 4  # east-only: four hands at least

    path = tmp_path / "downloaded.json"
    path.write_bytes(response.content)  # exactly the file a browser saves
    out = io.StringIO()
    call_command("paifu", "verify", str(path), stdout=out)
    assert out.getvalue().splitlines()[0].endswith("  OK"), out.getvalue()
    assert f"1 games, {len(paifu['log'])} hands, 0 divergences" in out.getvalue()

    # The rule in the file is the one the replay plays by: another one diverges. (Another starting
    # score shows at the first deal of every game; dropping the rule would not always show, since
    # a game ended early by a bust is the same game under 東南戦.)
    wrong = tmp_path / "wrong-rule.json"
    wrong.write_text(json.dumps({**paifu, "rule": {**paifu["rule"], "配給原点": 30000}}, ensure_ascii=False), "utf-8")
    with pytest.raises(CommandError, match="1 of 1 games diverged"):
        call_command("paifu", "verify", str(wrong), stdout=io.StringIO())

    reason = npm_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    majiang = majiang_replay(path)
    assert majiang.returncode == 0, majiang.stdout + majiang.stderr
    assert majiang.stdout.splitlines()[0].endswith("  OK"), majiang.stdout
    assert json.loads(majiang.stdout.splitlines()[-1])["divergences"] == 0
    # ... and majiang-core notices a changed decision or a missing rule as well.
    changed = json.loads(path.read_text("utf-8"))
    hand = changed["log"][0]
    record = next(i for i, r in enumerate(hand) if "dapai" in r)
    # The first discard is the dealer's, from its dealt hand and first draw: make it a tile it
    # does not hold, which majiang-core plays as a tsumogiri instead.
    held = "".join(hand[0]["qipai"]["shoupai"][0]) + hand[record - 1]["zimo"]["p"]
    hand[record]["dapai"]["p"] = next(s + n for s in "zmps" for n in "1234567" if s + n not in tile_set(held))
    doctored = tmp_path / "doctored.json"
    doctored.write_text(json.dumps(changed, ensure_ascii=False), "utf-8")
    for bad in (doctored, wrong):
        result = majiang_replay(bad)
        assert result.returncode == 1 and "DIVERGES at" in result.stdout, result.stdout + result.stderr
    assert f"hand 0 record {record}:" in majiang_replay(doctored).stdout


def live_riichi_game(host) -> Game:
    game = lobby.create_table(host, "riichi", 4, rules=EAST_ONLY)
    for _ in range(3):
        lobby.add_bot(host, game.id)
    lobby.accept(host, game.id)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    return game


def test_the_paifu_of_a_live_game_is_refused_to_everyone_staff_included(client, make_user):
    host = make_user()
    game = live_riichi_game(host)
    url = reverse("api-game-paifu", args=[game.id])
    staff = make_user(is_staff=True, is_superuser=True)
    for who in (None, host, staff):
        client.logout()
        if who is not None:
            client.force_login(who)
        response = client.get(url)
        assert response.status_code == 409
        assert response.json()["code"] == "GameNotOver"
        assert "Content-Disposition" not in response
    # Neither the game page nor the admin links it yet.
    client.force_login(staff)
    assert url not in client.get(reverse("game", args=[game.id])).content.decode()
    assert url not in client.get(reverse("admin:games_game_change", args=[game.id])).content.decode()


def test_the_paifu_is_refused_for_other_games(client, make_user):
    host = make_user()
    table = lobby.create_table(host, "riichi", 4)
    response = client.get(reverse("api-game-paifu", args=[table.id]))
    assert (response.status_code, response.json()["code"]) == (409, "GameNotStarted")

    acquire = lobby.create_table(host, "acquire", 2)
    response = client.get(reverse("api-game-paifu", args=[acquire.id]))
    assert (response.status_code, response.json()["code"]) == (404, "NoPaifu")
    assert "riichi" in response.json()["reason"]

    response = client.get(reverse("api-game-paifu", args=[987654]))
    assert (response.status_code, response.json()["code"]) == (404, "UnknownGame")

    aborted = live_riichi_game(make_user())
    from games.service import lifecycle

    lifecycle.abort(aborted.id)
    response = client.get(reverse("api-game-paifu", args=[aborted.id]))
    assert (response.status_code, response.json()["code"]) == (409, "GameAborted")


def test_a_finished_game_links_its_paifu_and_downloads_are_throttled(client, make_user, settings):
    game = play_bots({"場数": 0}, 7)  # one hand is enough here
    url = reverse("api-game-paifu", args=[game.id])
    page = client.get(reverse("game", args=[game.id])).content.decode()
    assert f'href="{url}"' in page and f'download="riichi-{game.display_number}.json"' in page
    client.force_login(make_user(is_staff=True, is_superuser=True))
    assert url in client.get(reverse("admin:games_game_change", args=[game.id])).content.decode()

    settings.API_RATE_EXPORT = "2/min"  # the whole-game downloads' own, lower rate
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 429]
    refused = client.get(url)
    assert refused.json()["code"] == "RateLimited" and "Retry-After" in refused
