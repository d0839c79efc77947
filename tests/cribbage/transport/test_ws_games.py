"""Whole cribbage games played by CRIBBAGEBBER test clients over real WebSockets (full ASGI app):
2, 3 and 4 players (2 vs 2), automatic and manual counting, muggins under both variants. Every
line each client received is checked against the server's truth: no hidden card ever shows."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from tests.cribbage.transport.conftest import Driver, Truth, check_lines, codes, open_table
from tests.cribbage.transport.peer import split

pytestmark = pytest.mark.django_db(transaction=True)

GAME_LINES = {"SE", "DI", "UD", "TO", "AC", "PL", "SC", "H", "CN", "EG", "GO", "RS", "PE"}
MANUAL_LINES = GAME_LINES | {"AG", "RE", "MU", "M", "YE", "NO", "MR"}


def totals_by_side(link, teams: bool) -> list[tuple[str, int, int]]:
    """(line, caller's side total before, after) for every MR: line the link received."""
    se = link.last("SE:")
    players = split(se)[1][1].split("/")
    side = {name: (i % 2 if teams else i) for i, name in enumerate(players)}
    totals: dict[int, int] = {}
    found = []
    for line in link.lines:
        code, fields = split(line)
        if code in ("PL", "PE", "CN"):
            totals[side[fields[0]]] = int(fields[2])  # PL: and PE: and CN: carry the total third
        elif code == "MR":
            _, caller, caller_total, claimer, claimer_total = fields
            found.append((line, totals.get(side[caller], 0), int(caller_total)))
            totals[side[caller]] = int(caller_total)
            totals[side[claimer]] = int(claimer_total)
    return found


@pytest.mark.parametrize(("players", "variants"), [(2, ""), (3, "D"), (4, "N")])
async def test_whole_game_automatic_counting(links, make_user, players, variants):
    table, game_id = await open_table(links, make_user, players, variants)
    truth = await database_sync_to_async(Truth)(game_id)
    await Driver(truth, table).play()
    for seat, name in truth.names.items():
        link = next(x for x in table if x.name == name)
        check_lines(truth, link, seat)
        eg = split(link.last("EG:"))[1]
        assert eg[0] == truth.names[truth.engine.result()["winner"]]
        assert [int(x) for x in eg[3:]] == truth.engine.result()["scores"]
    assert GAME_LINES <= codes(table)
    # Automatic counting: the server counts, so nobody is asked to agree and nothing is disputed.
    assert not any(line.startswith(("AG:", "MU:", "M:", "MR:", "WA:")) for link in table for line in link.lines)


@pytest.mark.parametrize(("players", "variants"), [(2, "DM"), (3, "NM"), (4, "DM")])
async def test_whole_game_manual_counting_with_muggins(links, make_user, players, variants):
    table, game_id = await open_table(links, make_user, players, variants)
    truth = await database_sync_to_async(Truth)(game_id)
    driver = Driver(truth, table, mischief=True)
    await driver.play()
    assert driver.calls >= 2
    for seat, name in truth.names.items():
        link = next(x for x in table if x.name == name)
        check_lines(truth, link, seat)
        assert [int(x) for x in split(link.last("EG:"))[1][3:]] == truth.engine.result()["scores"]
    assert MANUAL_LINES <= codes(table)
    assert not any(line.startswith("WA:") for link in table for line in link.lines)
    results = totals_by_side(table[0], teams=players == 4)
    passed = [r for r in results if r[0].startswith("MR:YES")]
    failed = [r for r in results if r[0].startswith("MR:NO")]
    assert passed and failed
    if "D" in variants:
        # D: a failed call costs the caller the points it was about (here always 2, unless at 0).
        assert any(after == max(0, before - 2) and after < before or before == 0 for _, before, after in failed)
    if "N" in variants:
        # N: a successful call corrects the claim but awards the caller nothing.
        assert all(after == before for _, before, after in passed)
    # Each settled claim is followed by its itemised true count.
    lines = table[0].lines
    for index, line in enumerate(lines):
        if line.startswith("CN:"):
            claimer = split(line)[1][0]
            later = next(x for x in lines[index:] if x.startswith(("SC:", "SE:", "EG:")))
            assert later.startswith(("SC:" + claimer, "EG:")), (line, later)
    assert all(re.fullmatch(r"RE:[a-z]+/\d+", x) for x in lines if x.startswith("RE:") and x != "RE:")
    # Muggins was called both on a count and on a pegging claim in the play (before the next card).
    disputed = [next(x[:2] for x in reversed(lines[:i]) if x.startswith(("PL:", "CN:", "RE:")))
                for i, line in enumerate(lines) if line.startswith("MU:")]
    assert "PL" in disputed and "CN" in disputed, disputed
