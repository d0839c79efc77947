"""A bot bench's named deal seed (``rules["deal_seed"]``, games/service/lobby.py's DEAL_SEED):
refused unless the server allows it; where allowed, two tables naming one seed are dealt the same
walls seat for seat, hand by hand (``walls_by_hand``: each hand's wall from the seed and the
hand's round, dealer and counters), and the seed is shown to nobody."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from games.core.engine import Mode
from games.core.errors import GameError
from games.riichi.engine.table import WALLS_BY_HAND, RiichiGame
from games.service import lobby, reads
from games.service.lobby import DEAL_SEED


def hands(game, users) -> list[str]:
    """The first hand's concealed tiles, by position."""
    return [reads.snapshot(game, users[p])["view"]["me"]["shoupai"] for p in range(4)]


@pytest.mark.django_db
def test_a_server_without_the_setting_refuses_a_deal_seed(make_user, settings):
    settings.ALLOW_DEAL_SEED = False
    host = make_user()
    with pytest.raises(GameError) as refused:
        lobby.create_table(host, "riichi", 4, rules={"preset": "tenhou", DEAL_SEED: 7})
    assert (refused.value.code, refused.value.reason) == (
        "InvalidRules", "deal_seed is for bot benches: this server does not take it")
    game = lobby.create_table(host, "riichi", 4, rules={"preset": "tenhou"})
    with pytest.raises(GameError) as refused:
        lobby.configure(host, game.id, 4, {DEAL_SEED: 7})
    assert refused.value.code == "InvalidRules"
    game.refresh_from_db()
    assert game.rules == {"preset": "tenhou"}


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [-1, 2**63, True, "7", 1.5, None])
def test_a_deal_seed_is_a_whole_number_in_range(make_user, settings, seed):
    settings.ALLOW_DEAL_SEED = True
    with pytest.raises(GameError) as refused:
        lobby.create_table(make_user(), "riichi", 4, rules={DEAL_SEED: seed})
    assert (refused.value.code, refused.value.reason) == (
        "InvalidRules", f"deal_seed is a whole number from 0 to {2**63 - 1}")


@pytest.mark.django_db(transaction=True)
def test_tables_naming_one_seed_are_dealt_alike_and_nobody_sees_it(riichi_table, settings):
    settings.ALLOW_DEAL_SEED = True
    seed = 2**63 - 5
    first, first_users = riichi_table(rules={"preset": "tenhou", DEAL_SEED: seed})
    second, second_users = riichi_table(rules={"preset": "tenhou", DEAL_SEED: seed})
    other, other_users = riichi_table(rules={"preset": "tenhou", DEAL_SEED: seed - 1})
    assert first.seed == second.seed == seed and other.seed == seed - 1
    assert hands(first, first_users) == hands(second, second_users)
    assert hands(first, first_users) != hands(other, other_users)
    # The key leaves the rules at the start, and the engine never sees it; the walls go by hand.
    assert first.rules.get(DEAL_SEED) is None and first.rules["preset"] == "tenhou"
    assert first.rules[WALLS_BY_HAND] is True
    for p in range(4):
        assert str(seed) not in str(reads.snapshot(first, first_users[p]))


@pytest.mark.django_db
def test_the_lobby_is_not_shown_the_seed(make_user, settings):
    settings.ALLOW_DEAL_SEED = True
    game = lobby.create_table(make_user(), "riichi", 4, rules={"preset": "tenhou", DEAL_SEED: 12345})
    assert game.rules[DEAL_SEED] == 12345
    assert lobby.setup_state(game)["rules"] == {"preset": "tenhou"}


@pytest.mark.django_db
def test_a_server_restarted_without_the_setting_deals_at_random(make_user, settings):
    settings.ALLOW_DEAL_SEED = True
    users = [make_user() for _ in range(4)]
    game = lobby.create_table(users[0], "riichi", 4, rules={DEAL_SEED: 99})
    settings.ALLOW_DEAL_SEED = False
    for user in users[1:]:
        lobby.join(user, game.id)
    for user in users:
        lobby.accept(user, game.id)
    game.refresh_from_db()
    assert game.status == "active" and game.seed != 99 and DEAL_SEED not in game.rules
    assert WALLS_BY_HAND not in game.rules


def test_a_host_may_not_ask_for_walls_by_hand(make_user, settings):
    settings.ALLOW_DEAL_SEED = True
    with pytest.raises(GameError) as refused:
        lobby.create_table(make_user(), "riichi", 4, rules={WALLS_BY_HAND: True})
    assert refused.value.code == "InvalidRules"


def walls(rules: dict, hands: list[tuple[int, int, int]]) -> list[list[str]]:
    """The walls a game from seed 5 deals for hands at (round wind, hand, counters), in order."""
    game = RiichiGame.create(mode=Mode(4, "Four players", 4), seed=5, rules=rules).game
    return [game._shan_factory(SimpleNamespace(zhuangfeng=z, jushu=j, changbang=c))._pai for z, j, c in hands]


def test_walls_by_hand_deal_each_hand_from_its_place_in_the_game() -> None:
    by_hand = {WALLS_BY_HAND: True}
    plain = walls(by_hand, [(0, 0, 0), (0, 1, 0), (0, 1, 1)])
    # East 2 dealt after a dealer's repeat in East 1, or straight after East 1: the same wall.
    renchan = walls(by_hand, [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)])
    assert renchan[0] == plain[0] and renchan[2] == plain[1] and renchan[3] == plain[2]
    assert len({tuple(w) for w in renchan}) == 4
    # Without the rule the walls are the seed's successive draws, whatever the hand.
    sequential = walls({}, [(0, 0, 0), (0, 0, 1), (0, 1, 0)])
    assert sequential[2] != plain[1] and sequential == walls({}, [(1, 3, 9), (0, 0, 0), (0, 0, 0)])
