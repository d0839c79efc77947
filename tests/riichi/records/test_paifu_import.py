"""``games.riichi.records.paifu_import`` and ``manage.py paifu import``: a Majiang paifu stored as a
finished riichi game, rebuilt from its log like any game played here, and written out again as the
same paifu.

The 37 reference games of majiang-core (script.json, read in place) are imported one by one; a
game played here by bots is downloaded and imported again; a changed discard is refused.
"""

from __future__ import annotations

import copy
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import User
from games.core.errors import GameError
from games.models import Game, Status
from games.records import store
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import shan_pai
from games.riichi.engine.table import tile_kinds
from games.riichi.records.paifu_import import complete_wall, import_paifu
from games.service import lobby
from games.state import replay as state
from tests.riichi.engine.oracle import script_games

pytestmark = pytest.mark.django_db

# Majiang.rule({'順位点': ['20','10','-10','-20']}): the rule of every game in script.json.
SCRIPT_OVERRIDES = {"順位点": ["20", "10", "-10", "-20"]}
SCRIPT_RULE = make_rule(SCRIPT_OVERRIDES)
IMPORTED_AT_MS = 1_700_000_000_000


def without_rule(paifu: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in paifu.items() if key != "rule"}


def first_discard(paifu: dict[str, Any]) -> int:
    return next(i for i, record in enumerate(paifu["log"][0]) if "dapai" in record)


def tampered(paifu: dict[str, Any]) -> dict[str, Any]:
    """``paifu`` with its first discard changed to a tile the dealer does not hold (Majiang plays
    that reply as a tsumogiri, so the records that follow no longer match)."""
    bad = copy.deepcopy(paifu)
    hand = bad["log"][0]
    record = first_discard(bad)
    held = tile_kinds(hand[0]["qipai"]["shoupai"][0] + hand[record - 1]["zimo"]["p"])
    hand[record]["dapai"]["p"] = next(s + n for s in "zmps" for n in "1234567" if s + n not in held)
    return bad


# The games differ in what the engine does, not in what is stored: one of them is enough for the
# scale-out run (tests/conftest.py, runs_once).
@pytest.mark.parametrize("index", [0] + [pytest.param(i, marks=pytest.mark.same_on_every_database)
                                         for i in range(1, 37)], ids=lambda i: f"script{i:02d}")
def test_a_reference_game_imports_replays_and_round_trips(client, index: int) -> None:
    paifu = script_games()[index]
    game = import_paifu(paifu, SCRIPT_OVERRIDES, imported_at_ms=IMPORTED_AT_MS)
    game.refresh_from_db()

    assert (game.game_type, game.mode, game.status, game.seed) == ("riichi", 4, Status.FINISHED, 0)
    seats = list(game.seats.select_related("user").order_by("position"))
    assert [(s.position, s.user.username) for s in seats] == list(enumerate(paifu["player"]))
    assert all(not s.user.has_usable_password() for s in seats)
    assert game.host_id == seats[0].user_id
    # The rule as overrides of Majiang's defaults (no preset); no hand-end acks in an import.
    rules = dict(game.rules)
    imported = rules.pop("imported")
    assert rules == SCRIPT_OVERRIDES
    assert (imported["qijia"], imported["title"]) == (paifu["qijia"], paifu["title"])
    assert len(imported["walls"]) == len(paifu["log"])
    assert all(Counter(wall) == Counter(shan_pai(SCRIPT_RULE)) for wall in imported["walls"])
    actions = list(game.actions.order_by("seq").values_list("seq", "type", "timestamp_ms", "auto"))
    assert [a[0] for a in actions] == list(range(1, game.seq + 1))
    assert actions[0][1] == "kaiju" and {a[2:] for a in actions} == {(IMPORTED_AT_MS, False)}

    entry = state.replay(game)
    assert entry.engine.is_over and entry.seq == game.seq
    assert entry.engine.result() == game.result
    assert len(entry.history) == game.history_size
    assert [p["rank"] for p in game.result["players"]] == paifu["rank"]

    stored = store.native_record(game)
    assert without_rule(stored) == paifu  # title and players included: nothing else changes
    assert stored["rule"] == SCRIPT_RULE
    assert store.verify(game) == []

    snapshot = client.get(reverse("api-game-snapshot", args=[game.id]))
    assert snapshot.status_code == 200, snapshot.content
    body = snapshot.json()
    assert (body["status"], body["result"], body["position"]) == ("finished", game.result, None)
    assert body["view"]["is_over"] and body["view"]["title"] == paifu["title"]
    history = client.get(reverse("api-game-history", args=[game.id]))
    assert history.status_code == 200
    assert len(history.json()["messages"]) == game.history_size == len(body["history"])


def test_players_are_found_by_name_and_the_host_s_seat_starts(make_user) -> None:
    paifu = script_games()[0]
    import_paifu(paifu, SCRIPT_OVERRIDES)
    host = User.objects.get(username=paifu["player"][2])
    again = import_paifu(paifu, SCRIPT_OVERRIDES, host=host)
    assert User.objects.filter(username__in=paifu["player"]).count() == 4  # made once, then found
    assert again.host_id == host.id and again.rules["host_seat"] == 2
    assert again.actions.get(seq=1).seat == 2  # the host's seat starts the game, as in the lobby
    assert without_rule(store.native_record(again)) == paifu
    staff = make_user()  # a host who did not play: recorded, and seat 0 starts
    third = import_paifu(paifu, SCRIPT_OVERRIDES, host=staff)
    assert third.host_id == staff.id and "host_seat" not in third.rules and third.actions.get(seq=1).seat == 0


def test_a_changed_discard_is_refused_with_the_divergence_and_nothing_is_stored() -> None:
    paifu = script_games()[3]
    users = User.objects.count()
    with pytest.raises(ValueError, match=rf"diverges from the engine at hand 0 record {first_discard(paifu)}: "):
        import_paifu(tampered(paifu), SCRIPT_OVERRIDES)
    assert not Game.objects.exists() and User.objects.count() == users


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.update(player=["a", "a", "b", "c"]), "need different names"),
        (lambda p: p.update(player=["a b", "c", "d", "e"]), "player name 'a b' is not a username here"),
        (lambda p: p.update(rule={"赤ドラ": 1}), "unknown rule option '赤ドラ'"),
        (lambda p: p.update(log=[]), "not a paifu"),
        (lambda p: p.update(qijia=1.0), "qijia must be a seat 0 to 3, got 1.0"),
    ],
    ids=["same-names", "bad-username", "bad-rule", "no-hands", "float-qijia"],
)
def test_what_cannot_be_stored_is_refused(change, message: str) -> None:
    paifu = copy.deepcopy(script_games()[0])
    change(paifu)
    with pytest.raises(ValueError, match=message):
        import_paifu(paifu, SCRIPT_OVERRIDES)
    assert not Game.objects.exists()


def test_unknown_wall_tiles_are_the_hand_s_unused_ones_always_the_same() -> None:
    wall = ["_"] * 136
    wall[135], wall[134], wall[4] = "m0", "z7", "p5"
    filled = complete_wall(SCRIPT_RULE, wall)
    assert filled[135] == "m0" and filled[134] == "z7" and filled[4] == "p5"
    assert Counter(filled) == Counter(shan_pai(SCRIPT_RULE)) and complete_wall(SCRIPT_RULE, wall) == filled
    assert filled[0] == "m1"  # Majiang's unshuffled order
    with pytest.raises(ValueError, match="beyond the rule's set"):
        complete_wall(make_rule({"赤牌": {"m": 0, "p": 0, "s": 0}}), wall)


@pytest.mark.django_db(transaction=True)  # playbots: on_commit runs, engines go back to the cache
def test_a_paifu_downloaded_from_this_site_imports_as_the_same_game(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 1003)  # the same game every run
    call_command("playbots", "riichi", "--games", "1", "--seed", "3", "--rule", json.dumps({"場数": 1}),
                 stdout=io.StringIO())
    played = Game.objects.get(game_type="riichi")
    paifu = store.native_record(played)
    path = tmp_path / "downloaded.json"
    path.write_text(json.dumps(paifu, ensure_ascii=False), "utf-8")

    out = io.StringIO()
    call_command("paifu", "import", str(path), stdout=out)  # the file's own rule, not --rule's
    game = Game.objects.exclude(id=played.id).get()
    assert out.getvalue().splitlines() == [
        f"game {game.id}: imported ({len(paifu['log'])} hands) from {path}", "1 games imported"]
    assert store.native_record(game) == paifu  # players, rule and title included
    assert game.rules["場数"] == 1 and "hand_end_ack" not in game.rules
    assert [s.user_id for s in game.seats.order_by("position")] == [
        s.user_id for s in played.seats.exclude(position=None).order_by("position")]  # the bots, found by name
    assert game.result == played.result and store.verify(game) == []


def test_the_command_imports_a_file_of_paifu_all_or_nothing(tmp_path: Path) -> None:
    games = script_games()[:2]
    out = io.StringIO()
    good = tmp_path / "two.json"
    good.write_text(json.dumps(games, ensure_ascii=False), "utf-8")
    call_command("paifu", "import", str(good), "--rule", json.dumps(SCRIPT_OVERRIDES), stdout=out)
    ids = list(Game.objects.order_by("id").values_list("id", flat=True))
    assert out.getvalue().splitlines() == [
        f"game {ids[0]}: imported ({len(games[0]['log'])} hands) from {good}[0]",
        f"game {ids[1]}: imported ({len(games[1]['log'])} hands) from {good}[1]",
        "2 games imported",
    ]

    lines = tmp_path / "bad.jsonl"
    lines.write_text("".join(json.dumps({"rule": SCRIPT_OVERRIDES, "paifu": g}, ensure_ascii=False) + "\n"
                             for g in (games[0], tampered(games[1]))), "utf-8")
    with pytest.raises(CommandError, match=rf"{lines}:2: the paifu diverges .*; nothing imported"):
        call_command("paifu", "import", str(lines), stdout=io.StringIO())
    assert Game.objects.count() == 2  # the good first line was not kept either
    # Without the placings of script.json the final points differ: the rule matters.
    with pytest.raises(CommandError, match=r"diverges from the engine at result: point"):
        call_command("paifu", "import", str(good), stdout=io.StringIO())


def test_a_host_can_never_set_the_imported_walls(make_user, client) -> None:
    walls = {"walls": [shan_pai(SCRIPT_RULE)] * 8, "qijia": 0}
    host = make_user()
    with pytest.raises(GameError) as refused:
        lobby.create_table(host, "riichi", 4, rules={"imported": walls})
    assert (refused.value.code, refused.value.reason) == ("InvalidRules", "rules may not set ['imported']")
    client.force_login(host)
    response = client.post(reverse("api-games"), {"game_type": "riichi", "mode": 4, "rules": {"imported": walls}},
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "InvalidRules"
    table = lobby.create_table(host, "riichi", 4)
    with pytest.raises(GameError, match="rules may not set"):
        lobby.configure(host, table.id, 4, {"imported": walls})
    assert not Game.objects.exclude(id=table.id).exists()
    assert "imported" not in Game.objects.get(id=table.id).rules
