"""A live game's seed never reaches a client, in any form, over any transport.

The seed determines every shuffle (Acquire's tile bag, every riichi wall, every cribbage deal), so a
client holding it can rebuild every hidden tile and card. For each game type a person plays a game
against house bots over the WebSocket while a spectator watches over another socket and, along the
way, an anonymous reader and the player read every REST endpoint and page of the game. Everything
received while the game is live is then searched:

- for the seed as text (decimal or hexadecimal, alone or inside a longer string);
- for any number (a JSON integer, or a run of digits inside a string) that, used as a seed, deals
  the same opening as the real seed: so the seed leaking under another name or encoding of a number
  is caught too.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client as HttpClient

from games.core.registry import get_game_type
from games.models import Game, Seat
from games.state import replay as state

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [
    ("riichi", 4, {"場数": 0}),
    ("acquire", 2, None),
    ("cribbage", 2, None),
]
# A REST and page sweep every this many of the player's moves.
SWEEP_EVERY = 12
DIGITS = re.compile(r"\d{4,}")


def opening(game_type: str, mode: int, seed: int, rules: dict[str, Any]) -> str:
    """Everything hidden at the start of a game dealt from ``seed``: the engine's full view after its
    first steps (a riichi wall is dealt by the first ``kaiju``, a cribbage hand by the deal)."""
    kind = get_game_type(game_type)
    engine = kind.engine_class().create(mode=kind.mode(mode), seed=seed, rules=rules)
    for seat, action, params in engine.initial_actions():
        engine.apply(seat, action, params)
    return json.dumps(engine.view(None, reveal_all=True), sort_keys=True, default=str)


def numbers(value: Any, found: set[int]) -> None:
    """Every integer in a JSON value, and every run of digits in its strings and keys."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        found.add(abs(value))
    elif isinstance(value, str):
        found.update(int(run) for run in DIGITS.findall(value))
    elif isinstance(value, dict):
        for key, item in value.items():
            numbers(key, found)
            numbers(item, found)
    elif isinstance(value, list):
        for item in value:
            numbers(item, found)


def next_move(game_id: int, position: int) -> tuple[str, list] | None:
    game = Game.objects.get(id=game_id)
    engine = state.replay(game).engine
    if engine.is_over or position not in engine.to_act():
        return None
    return engine.auto_action(position)


def sweep(game_id: int, readers: list[HttpClient]) -> list[str]:
    """Every REST answer and page of the game, as each reader gets it (status aside: a refusal's
    body is a message to the client too)."""
    seq = Game.objects.get(id=game_id).seq
    paths = [
        "/api/games/", f"/api/games/{game_id}/", f"/api/games/{game_id}/history/",
        f"/api/games/{game_id}/snapshot/", f"/api/games/{game_id}/replay/?step={seq}",
        f"/api/games/{game_id}/replay/?step=0", f"/api/games/{game_id}/moves/", f"/api/games/{game_id}/chat/",
        f"/api/games/{game_id}/export/", f"/api/games/{game_id}/review/", f"/api/games/{game_id}/paifu/",
        "/api/games/export/",
        f"/games/{game_id}/", f"/games/{game_id}/replay/", "/",
    ]
    bodies = []
    for reader in readers:
        for path in paths:
            response = reader.get(path)
            assert response.status_code < 500, path
            body = b"".join(response.streaming_content) if response.streaming else response.content
            bodies.append(body.decode("utf-8"))
    return bodies


@pytest.mark.parametrize(("game_type", "mode", "rules"), GAMES, ids=[g[0] for g in GAMES])
async def test_no_client_can_rebuild_a_live_game_from_its_seed(clients, db_call, make_user, game_type, mode,
                                                                rules):
    player = await db_call(make_user)
    watcher = await db_call(make_user)
    conn = await clients(player)
    create: dict[str, Any] = {"type": "CreateGame", "game_type": game_type, "mode": mode}
    if rules:
        create["rules"] = rules
    await conn.send(create)
    game_id = (await conn.expect("GameCreated"))["game"]
    for _ in range(mode - 1):
        await conn.send({"type": "AddBot", "game": game_id})
        await conn.expect("UserJoinedGame")
    await conn.drain(0.2)
    await conn.send({"type": "AcceptSetup", "game": game_id})
    await conn.expect("GameStarted", game=game_id)
    spectator = await clients(watcher)
    await spectator.send({"type": "EnterGame", "game": game_id})
    await spectator.expect("Snapshot", game=game_id)
    position = await db_call(lambda: Seat.objects.get(game_id=game_id, user=player).position)

    anonymous, seated = HttpClient(), HttpClient()
    await db_call(seated.force_login, player)
    live_bodies: list[str] = []
    moves = 0
    while True:
        if moves % SWEEP_EVERY == 0:
            game = await db_call(Game.objects.get, id=game_id)
            if game.is_over:
                break
            live_bodies += await db_call(sweep, game_id, [anonymous, seated])
        move = await db_call(next_move, game_id, position)
        if move is None:
            break
        await conn.send({"type": "DoGameAction", "game": game_id, "action": move[0], "params": move[1]})
        await conn.expect("ActionApplied")
        moves += 1
        assert moves < 3000
    await conn.seen("GameInactive", game=game_id, timeout=30)
    await spectator.seen("GameInactive", game=game_id, timeout=30)
    await conn.drain(0.2)
    await spectator.drain(0.2)

    game = await db_call(Game.objects.get, id=game_id)
    assert game.is_over and moves > 5
    live_frames = []
    for client in (conn, spectator):
        for frame in client.received:
            if frame["type"] == "GameInactive" and frame.get("game") == game_id:
                break  # from here on the game may be revealed
            live_frames.append(frame)
    texts = [json.dumps(frame, ensure_ascii=False) for frame in live_frames] + live_bodies
    assert len(texts) > 50

    seed = game.seed
    for text in texts:
        assert str(seed) not in text and format(seed, "x") not in text.lower(), text[:300]

    candidates: set[int] = set()
    for frame in live_frames:
        numbers(frame, candidates)
    for body in live_bodies:
        candidates.update(int(run) for run in DIGITS.findall(body))
    candidates.discard(seed)  # already refused above as text; here the question is whether any other
    real = await db_call(opening, game_type, mode, seed, game.rules)
    same = [n for n in sorted(candidates) if n < 2**64 and opening(game_type, mode, n, game.rules) == real]
    assert same == [], f"a number a client received deals this game's opening: {same[:5]}"
    assert len(candidates) > 20  # the search had material
