"""Replay steps of a finished game: read from its stored replay frames, against replayed from its log.

    .venv/bin/python bench/replay_steps.py [--game riichi|acquire|cribbage] [--seed 1] [--reads 20]

Plays one whole game with the built-in bots (``manage.py playbots``: riichi under the default
rules, east and south rounds; Acquire with four players; cribbage with two) in this process, on a
fresh SQLite file in a temporary directory. Then times ``GET /api/games/<id>/replay/?step=N``'s
service call at the first, a quarter, half, three quarters and the last step, ``--reads`` times
each (median), two ways:

- ``frames``: ``reads.replay_step``, as served: the record's history and one chunk of the
  replay frames (games/records/frames.py), whatever the step;
- ``log``: ``reads.logged_step``, the replay of the first N actions every finished game's
  replay step cost before the frames.

Also: the time to build the game's frames (``store.frame_fields``, done once, by the first
replay step asked) and their stored size. No peer serves replays of these games, so the figures are absolute;
``log / frames`` at the last step is the ratio of the two ways. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYBOTS = {
    "riichi": ["--games", "1"],
    "acquire": ["--games", "1", "--players", "4"],
    "cribbage": ["--games", "1", "--players", "2"],
}


def median_ms(call: Any, reads: int) -> float:
    times = []
    for _ in range(reads):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(PLAYBOTS), default="riichi")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reads", type=int, default=20)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="replay-bench-"))
    # A throwaway SQLite file whatever the environment points at: never a real database.
    os.environ["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games.models import Game, ReplayFrame
    from games.records import store
    from games.service import reads

    call_command("migrate", verbosity=0, interactive=False)
    call_command("playbots", args.game, "--seed", str(args.seed), *PLAYBOTS[args.game], stdout=io.StringIO())
    game = Game.objects.filter(game_type=args.game).order_by("-id").first()
    assert game is not None and game.is_over, "the bots did not finish their game"

    began = time.perf_counter()
    store.build_frames(game)  # as the first replay step asked does
    build_ms = (time.perf_counter() - began) * 1000
    stored = sum(len(bytes(data)) for data in ReplayFrame.objects.filter(game=game).values_list("data", flat=True))

    steps = sorted({0, game.seq // 4, game.seq // 2, game.seq * 3 // 4, game.seq})
    rows = []
    for step in steps:
        frames_ms = median_ms(lambda step=step: reads.replay_step(game, None, step), args.reads)
        log_ms = median_ms(lambda step=step: reads.logged_step(game, None, step, reveal=True),
                           max(1, args.reads // 4))
        rows.append({"step": step, "frames_ms": round(frames_ms, 2), "log_ms": round(log_ms, 2)})
        print(f"step {step:5d} of {game.seq}: frames {frames_ms:7.2f} ms   log replay {log_ms:8.2f} ms")
    last = rows[-1]
    ratio = last["log_ms"] / last["frames_ms"]
    print(f"frames built in {build_ms:.0f} ms, {stored / 1024:.0f} KB stored; "
          f"at the last step the log replay takes {ratio:.1f}x the frames' read")
    print(json.dumps({"game": args.game, "steps": game.seq, "build_ms": round(build_ms, 1), "stored_bytes": stored,
                      "reads": rows, "log_over_frames_at_last_step": round(ratio, 1)}))


if __name__ == "__main__":
    main()
