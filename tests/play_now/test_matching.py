"""games/core/play_now.py: what a Play now request may ask for, and who is seated with whom."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import play_now
from games.core.play_now import Invalid, Waiting, read, tables, window
from games.riichi.engine import presets


def test_a_riichi_request_names_its_preset_length_and_clock():
    r = read({"game_type": "riichi", "preset": "tenhou", "length": "east", "clock": "fast", "bots_after": 60})
    assert (r.mode, r.seats, r.rules, r.bots_after) == (4, 4, {"preset": "tenhou-east"}, 60)
    assert r.clock == {"time_control": {"per_decision": 5, "bank": 10}}
    assert r.options == {"preset": "tenhou", "length": "east", "clock": "fast", "bot_level": "intermediate"}
    # Defaults: Tenhou-like east-south, untimed, intermediate bots after 15 s.
    d = read({"game_type": "riichi"})
    assert (d.rules, d.clock, d.bots_after, d.bot_level) == ({"preset": "tenhou"}, {}, 15, "intermediate")
    assert d.key != r.key and read({"game_type": "riichi", "preset": "tenhou"}).key == d.key


def test_the_bot_level_is_a_choice_that_does_not_split_the_queue():
    """Players who chose different bot levels wait for the same table (docs/play-now.md): the
    level is kept with the request, not in its key."""
    levels = {level: read({"game_type": "riichi", "bot_level": level}) for level in play_now.RIICHI_BOT_LEVELS}
    assert list(levels) == ["beginner", "intermediate", "strong"]
    assert {r.bot_level for r in levels.values()} == set(levels) and len({r.key for r in levels.values()}) == 1
    assert read({"game_type": "riichi", "bot_level": None}).bot_level == "intermediate"
    # Games without levels ignore the field, as they ignore riichi's other settings.
    assert read({"game_type": "cribbage", "bot_level": "strong"}).bot_level is None
    assert play_now.choices()["riichi"]["bot_level"] == {"beginner": "Beginner", "intermediate": "Intermediate",
                                                         "strong": "Strong"}


@pytest.mark.parametrize("ruleset", list(play_now.RIICHI_RULESETS))
@pytest.mark.parametrize("length", list(play_now.RIICHI_LENGTHS))
def test_every_riichi_choice_is_a_table_of_that_length(ruleset, length):
    rules = read({"game_type": "riichi", "preset": ruleset, "length": length}).rules
    preset = presets.get(rules["preset"])
    rounds = rules.get("場数", preset.rule()["場数"])
    assert rounds == (1 if length == "east" else 2), (ruleset, length, rules)
    # The red fives follow the ruleset, whatever the length.
    assert (preset.rule()["赤牌"]["m"] == 0) == (ruleset == "no-red")


def test_acquire_and_cribbage_choose_players():
    assert read({"game_type": "acquire", "players": 6}).mode == 6
    assert read({"game_type": "acquire"}).seats == 4
    teams = read({"game_type": "cribbage", "players": 4, "clock": "normal"})
    assert (teams.mode, teams.seats, teams.clock) == (4, 4, {"time_start": 600, "time_increment": 10})
    assert read({"game_type": "cribbage", "bots_after": None}).bots_after is None


@pytest.mark.parametrize("fields, named", [
    ({}, "game_type"), ({"game_type": "chess"}, "game_type"), ({"game_type": ["riichi"]}, "game_type"),
    ({"game_type": "riichi", "preset": "tenhou-east"}, "preset"), ({"game_type": "riichi", "length": 1}, "length"),
    ({"game_type": "acquire", "players": 7}, "players"), ({"game_type": "acquire", "players": True}, "players"),
    ({"game_type": "acquire", "players": "4"}, "players"), ({"game_type": "cribbage", "players": 5}, "players"),
    ({"game_type": "cribbage", "clock": "bullet"}, "clock"), ({"game_type": "cribbage", "clock": []}, "clock"),
    ({"game_type": "riichi", "preset": {}}, "preset"), ({"game_type": {}}, "game_type"),
    *(({"game_type": "riichi", "bot_level": bad}, "bot_level") for bad in ("expert", "Strong", 2, [])),
    *(({"game_type": "cribbage", "bots_after": bad}, "bots_after") for bad in (-1, 601, 1.5, True, "15")),
])
def test_a_wrong_field_is_named(fields, named):
    with pytest.raises(Invalid, match=named):
        read(fields)


def w(id_, mu=25.0, since=0, bots=15):
    return Waiting(id_, mu, since, bots)


def ids(seated):
    return [([p.id for p in group], bots) for group, bots in seated]


def test_a_full_table_of_similar_players_is_seated_at_once():
    waiting = [w(1), w(2, 26), w(3, 24.5), w(4, 25.5), w(5, 25.2)]
    # The longest-waiting first, then the nearest in skill; the fifth waits for the next table.
    assert ids(tables(waiting, 4, 0)) == [([1, 5, 3, 4], 0)]  # 3 and 4 equally near: the earlier id


def test_the_window_widens_with_the_wait():
    waiting = [w(1, 25, since=0, bots=None), w(2, 31, since=0, bots=None)]
    assert window(0) == 2.0 and window(20_000) == 6.0
    assert tables(waiting, 2, 10_000) == []  # 6 apart, windows of 4
    assert ids(tables(waiting, 2, 20_000)) == [([1, 2], 0)]
    # Both must accept: a newcomer's narrow window holds the other back.
    late = [w(1, 25, since=0, bots=None), w(2, 31, since=19_000, bots=None)]
    assert tables(late, 2, 20_000) == []
    assert ids(tables(late, 2, 39_000)) == [([1, 2], 0)]


def test_bots_fill_the_seats_once_the_first_players_wait_is_over():
    waiting = [w(1, since=0, bots=15), w(2, since=5_000, bots=60), w(3, since=6_000, bots=None)]
    assert tables(waiting, 4, 14_999) == []
    # Player 1's wait is over: seated with player 2 (who accepts bots, though their own wait goes
    # on) and two bots; player 3 chose people only and keeps waiting.
    assert ids(tables(waiting, 4, 15_000)) == [([1, 2], 2)]


def test_at_once_means_at_once_and_never_means_never():
    assert ids(tables([w(1, bots=0)], 4, 0)) == [([1], 3)]
    assert tables([w(1, bots=None)], 2, 10**9) == []
    # A "never" player first in line does not hold up a later player whose wait is over.
    assert ids(tables([w(1, bots=None), w(2, mu=40, since=1_000, bots=0)], 4, 1_000)) == [([2], 3)]


waitings = st.lists(
    st.builds(Waiting, st.integers(1, 10**6), st.floats(0, 50), st.integers(0, 10**6),
              st.one_of(st.none(), st.integers(0, 600))),
    max_size=30, unique_by=lambda x: x.id)


@settings(max_examples=300, deadline=None)
@given(waitings, st.integers(2, 6), st.integers(0, 2 * 10**6))
def test_seated_tables_keep_every_rule(waiting, seats, now):
    seated = tables(waiting, seats, now)
    chosen = [p.id for group, _ in seated for p in group]
    assert len(chosen) == len(set(chosen)) <= len(waiting)  # nobody twice
    for group, bots in seated:
        assert group and len(group) + bots == seats and bots >= 0
        if bots:
            # Bots only for players who accept them, once the first one's wait is over.
            assert all(p.bots_after is not None for p in group)
            assert now - group[0].since_ms >= group[0].bots_after * 1000
        for a in group:
            for b in group:
                assert abs(a.mu - b.mu) <= min(window(now - a.since_ms), window(now - b.since_ms)) + 1e-9
    # Nobody whose wait for bots is over is left waiting.
    for p in waiting:
        if p.id not in chosen:
            assert p.bots_after is None or now - p.since_ms < p.bots_after * 1000, p
