"""Acquire throughput: bot games in the engine alone, bot clients over WebSockets against one
Daphne process, bot games through the game service in-process, and oracle replays.

    .venv/bin/python bench/acquire.py [--parts abcd] [--engine-seconds 8]
        [--ws-games 50] [--ws-seconds 60] [--service-seconds 15] [--oracle-seconds 5]

(a) built-in bots play complete games against the engine directly (no Django, no database);
(b) ``--ws-games`` Acquire tables (Singles 4) play at once over WebSockets against ONE Daphne child
    process for ``--ws-seconds``: four bot clients per table, each deciding with
    ``games.acquire.bots.house.choose`` exactly as a remote bot would, a finished table starting a new game
    at once. Reported: actions per second, and p50 / p99 of the time from sending an action to all
    four clients of that table having received the GameMessages carrying that action's ``v``, with
    the frames dropped, errors and CPU. This is ``bench/live.py --game acquire --daphnes 1``; its
    docstring gives the method (which push a bot decides from, old and new servers, gaps and
    stalls, the database and channel layer);
(c) the same bots play complete games through the lobby and ``moves.apply_action`` in this
    process on a fresh SQLite file in a temporary directory (migrated first), exactly as
    ``manage.py playbots`` does;
(d) the 100 reference games in ../shared/oracle/acquire/games.jsonl are replayed from their
    review arrays.

(a), (c) and (d) run whole games until their time budget is spent (at least one game). The last
line is one JSON object with the figures. There is no peer implementation to compare with, so
every figure is absolute.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ORACLE = ROOT.parent / "shared" / "oracle" / "acquire" / "games.jsonl"
ENGINE_MODES = (2, 3, 4, 5, 6, 7, 8, 9)  # every mode with opponents; Singles 1 is trivial

sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))  # bench/live.py, however this file is started


def bench_engine(seconds: float, seed: int) -> dict[str, Any]:
    from games.acquire.bots.house import choose
    from games.acquire.engine.game import AcquireGame
    from games.acquire.engine.modes import MODES

    games = actions = 0
    began = time.perf_counter()
    while games == 0 or time.perf_counter() - began < seconds:
        mode = MODES[ENGINE_MODES[games % len(ENGINE_MODES)]]
        game = AcquireGame.create(mode=mode, seed=seed + games, rules={})
        rng = random.Random(seed + games)
        game.apply(*game.initial_actions()[0])
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(seat, *choose(game.view(seat), game.legal_actions(seat), rng))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - began
    return {"games": games, "actions": actions, "seconds": elapsed}


# ---------------------------------------------------------------------- (b) over WebSockets


def bench_websocket(tables: int, seconds: float, seed: int, workdir: Path, environ: dict[str, str]) -> dict[str, Any]:
    """(b): ``tables`` concurrent Singles 4 games of bot clients against one Daphne child process
    (bench/live.py, which also runs on its own, for other game types and several Daphnes)."""
    from live import run

    return run("acquire", tables, seconds, seed, daphnes=1, workdir=workdir, environ=environ)


def bench_service(seconds: float, seed: int, players: int, workdir: Path) -> dict[str, Any]:
    # A throwaway SQLite file, whatever the environment points at: this measures the service on
    # the default single-machine setup, and must never touch a real database.
    os.environ["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from games.core.registry import get_game_type
    from games.management.commands.playbots import bot_users, choose_mode, load_bot, play_table

    migrate_began = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    migrate_seconds = time.perf_counter() - migrate_began

    game_type = get_game_type("acquire")
    assert game_type is not None
    mode = choose_mode(game_type, players, None)
    users = bot_users("acquire", mode.seats)
    choose = load_bot("acquire")
    games = actions = 0
    began = time.perf_counter()
    while games == 0 or time.perf_counter() - began < seconds:
        played = play_table("acquire", mode, users, choose, random.Random(f"{seed}:{games}"))
        games += 1
        actions += played.actions
    elapsed = time.perf_counter() - began
    connections.close_all()
    return {
        "games": games,
        "actions": actions,
        "seconds": elapsed,
        "players": mode.seats,
        "migrate_seconds": migrate_seconds,
    }


def bench_oracle(seconds: float) -> dict[str, Any] | None:
    from games.acquire.engine.review import replay

    if not ORACLE.exists():
        return None
    reviews = [json.loads(line)["review"] for line in ORACLE.read_text().splitlines() if line.strip()]
    replays = 0
    began = time.perf_counter()
    while replays == 0 or time.perf_counter() - began < seconds:
        replay(reviews[replays % len(reviews)])
        replays += 1
    return {"replays": replays, "seconds": time.perf_counter() - began}


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 2) if seconds > 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="abcd", help="which parts to run, e.g. 'ab' (default: all)")
    parser.add_argument("--engine-seconds", type=float, default=8)
    parser.add_argument("--ws-games", type=int, default=50, help="(b) games played at once, 4 bot clients each")
    parser.add_argument("--ws-seconds", type=float, default=60, help="(b) measuring window")
    parser.add_argument("--service-seconds", type=float, default=15)
    parser.add_argument("--oracle-seconds", type=float, default=5)
    parser.add_argument("--players", type=int, default=4, help="players per service game (Singles N)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    environ = dict(os.environ)  # before (c) points this process at its own SQLite file

    print("Acquire bench; no peer implementation exists to compare with, so figures are absolute.")
    figures: dict[str, Any] = {}
    if "a" in args.parts:
        engine = bench_engine(args.engine_seconds, args.seed)
        print(
            f"(a) engine alone:   {engine['games']} bot games in {engine['seconds']:.1f}s = "
            f"{_rate(engine['games'], engine['seconds'])} games/s "
            f"({_rate(engine['actions'], engine['seconds'])} actions/s; modes {list(ENGINE_MODES)})"
        )
        figures["engine_games_per_s"] = _rate(engine["games"], engine["seconds"])
        figures["engine_actions_per_s"] = _rate(engine["actions"], engine["seconds"])

    if "b" in args.parts:
        from live import describe

        with tempfile.TemporaryDirectory(prefix="acquire-ws-bench-") as workdir:
            ws = bench_websocket(args.ws_games, args.ws_seconds, args.seed, Path(workdir), environ)
        print("(b) WebSocket:     ", "\n".join(describe(ws, indent=" " * 20)))
        figures.update({
            "ws_games": ws["tables"],
            "ws_actions_per_s": ws["actions_per_s"],
            "ws_latency_p50_ms": ws["p50_ms"],
            "ws_latency_p99_ms": ws["p99_ms"],
            "ws_latency_samples": ws["latency_samples"],
            "ws_games_finished": ws["games_finished"],
            "ws_decided_from": ws["decided_from"],
            "ws_incomplete": ws["incomplete"],
            "ws_gaps": ws["gaps"],
            "ws_stalls": ws["stalls"],
            "ws_errors": ws["errors"],
            "ws_server_cpu": ws["server_cpu_total"],
            "ws_client_cpu": ws["client_cpu"],
            "ws_database": ws["database"],
            "ws_channel_layer": ws["channel_layer"],
        })

    if "c" in args.parts:
        with tempfile.TemporaryDirectory(prefix="acquire-bench-") as workdir:
            service = bench_service(args.service_seconds, args.seed, args.players, Path(workdir))
        print(
            f"(c) game service:   {service['games']} bot games in {service['seconds']:.1f}s = "
            f"{_rate(service['games'], service['seconds'])} games/s "
            f"({_rate(service['actions'], service['seconds'])} actions/s; Singles {service['players']}, "
            f"in-process, SQLite in a temp dir, migrate took {service['migrate_seconds']:.1f}s)"
        )
        figures["service_games_per_s"] = _rate(service["games"], service["seconds"])
        figures["service_actions_per_s"] = _rate(service["actions"], service["seconds"])

    if "d" in args.parts:
        oracle = bench_oracle(args.oracle_seconds)
        if oracle is None:
            print(f"(d) oracle replays: skipped, {ORACLE} not found")
        else:
            print(
                f"(d) oracle replays: {oracle['replays']} in {oracle['seconds']:.1f}s = "
                f"{_rate(oracle['replays'], oracle['seconds'])} replays/s"
            )
        figures["oracle_replays_per_s"] = _rate(oracle["replays"], oracle["seconds"]) if oracle else None

    figures["peer"] = None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
