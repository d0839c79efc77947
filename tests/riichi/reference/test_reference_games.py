"""Our riichi engine replays games played by the reference implementation, @kobalab/majiang-core.

A small seeded corpus is made on the spot with bench/majiang/make_games.js (10 fast-player games per
rule preset, 1 majiang-ai game, east-only without red fives) and handed to ``manage.py paifu verify``, which
must replay every paifu exactly and exit 0. See README.md beside this file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.riichi.reference.corpus import (
    AI_PRESET,
    PRESETS,
    ensure_node_modules,
    make_games,
    make_small_corpus,
    npm_missing_reason,
    read_corpus,
    verify,
)

pytestmark = pytest.mark.skipif(npm_missing_reason() is not None, reason=npm_missing_reason() or "")

FAST_GAMES = 10
AI_GAMES = 1


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    ensure_node_modules()
    return make_small_corpus(tmp_path_factory.mktemp("majiang-corpus"), fast_games=FAST_GAMES, ai_games=AI_GAMES)


def test_corpus_holds_complete_games(corpus: list[Path]) -> None:
    assert [path.name for path in corpus] == [f"fast-{p}.jsonl" for p in PRESETS] + [f"ai-{AI_PRESET}.jsonl"]
    for path in corpus:
        records = read_corpus(path)
        assert len(records) == (AI_GAMES if path.name.startswith("ai-") else FAST_GAMES)
        for record in records:
            assert set(record) == {"rule", "paifu"}
            paifu = record["paifu"]
            assert paifu["log"] and all(hand[0].get("qipai") for hand in paifu["log"])
            assert sorted(paifu["rank"]) == [1, 2, 3, 4]
            last = list(paifu["log"][-1][-1])[0]
            assert last in ("hule", "pingju")


def test_corpus_is_reproducible(corpus: list[Path], tmp_path: Path) -> None:
    # Same seed, same games: the wall and every fast-player choice come from seeded PRNGs.
    again = tmp_path / "again.jsonl"
    make_games(again, player="fast", preset=PRESETS[1], games=FAST_GAMES, seed=f"pytest-fast-{PRESETS[1]}")
    assert again.read_bytes() == corpus[1].read_bytes()


def test_engine_replays_reference_games(corpus: list[Path]) -> None:
    # Fails until `manage.py paifu verify` exists (games/riichi is being written).
    result = verify(corpus)
    assert result.returncode == 0, f"paifu verify exited {result.returncode}\n{result.stdout}\n{result.stderr}"
