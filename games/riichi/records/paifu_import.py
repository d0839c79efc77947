"""Majiang paifu into the platform: ``import_paifu`` stores one as a finished riichi game.

The game is stored exactly as if it had been played here: its seats, its action log (the replies
of seed 001: ``kaiju``, ``dapai``, ``fulou``, ``gang``, ``hule``, ``pingju``, ``daopai``, ``pass``),
its result and its record (``GameRecord``, whose paifu is the download). It is rebuilt like any
other game by ``games.state.replay`` through ``RiichiGame.create``, which deals from the walls kept in
``Game.rules["imported"]`` (a paifu's walls cannot come from a seed; the seed is 0):

- ``walls``: each hand's 136 tiles in Majiang's wall order, rebuilt from the hand's records as
  ``replay.make_shan`` does; tiles the paifu never shows (never drawn, never turned) are filled
  with the hand's unused tiles in Majiang's unshuffled order, so that every wall is a whole set;
- ``qijia`` and ``title``: the paifu's first dealer and title.

Nothing is stored unless the paifu replays without divergence (``engine.replay.replay``) and the
platform's engine, answered with the paifu's decisions, writes the very same paifu again. The
platform rule ``hand_end_ack`` stays off: nobody acknowledges a hand's end in a paifu.
docs/records-import.md says what the import keeps and what it does not.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.imported import user_named
from accounts.models import User
from games.core.engine import Rejection
from games.core.registry import get_game_type
from games.models import Action, Game, Seat, Status
from games.records import store
from games.riichi.engine.game import GANGZIMO, ZIMO
from games.riichi.engine.replay import make_replies, make_shan, replay
from games.riichi.engine.rule import DEFAULT_RULE
from games.riichi.engine.rule import rule as make_rule
from games.riichi.engine.shan import spare_tiles
from games.riichi.engine.table import IMPORTED, SEATS, RiichiGame

GAME_TYPE = "riichi"
MODE = 4
# The paifu keys the platform's engine must write again exactly (``player`` becomes the seated
# users' names, which are the paifu's own).
_SAME_KEYS = ("title", "qijia", "log", "defen", "point", "rank")


@dataclass
class Played:
    """The platform's game, played to its end from a paifu's decisions."""

    engine: RiichiGame
    steps: list[tuple[int, str, list[Any]]]  # (seat, action type, params), the action log
    history_size: int


def import_paifu(paifu: Mapping[str, Any], rule: Mapping[str, Any] | None = None, *,
                 host: User | None = None, imported_at_ms: int | None = None) -> Game:
    """Store ``paifu`` as a finished riichi game and return it; a ``ValueError`` says why not.

    ``rule`` is the ``Majiang.rule()`` overrides for a paifu without a ``rule`` of its own (this
    site's downloads carry one, which is then used). ``host`` is recorded as the game's host (its
    seat, if it plays, starts the game); by default the player with id 0. Every action gets the
    one time ``imported_at_ms`` (default: now): a paifu has no times.
    """
    _check_shape(paifu)
    full = rule_of(paifu, rule)
    divergence = replay(paifu, full)
    if divergence is not None:
        raise ValueError(f"the paifu diverges from the engine at {divergence}")
    names = player_names(paifu)
    host_seat = names.index(host.username) if host is not None and host.username in names else 0
    rules = stored_rules(paifu, full, host_seat)
    played = play(paifu, rules)
    at_ms = imported_at_ms if imported_at_ms is not None else time.time_ns() // 1_000_000
    return _store(names, rules, played, host, at_ms)


def _check_shape(paifu: Any) -> None:
    """What the replay reads without checking it."""
    if not isinstance(paifu, Mapping) or not isinstance(paifu.get("log"), list) or not paifu["log"]:
        raise ValueError("not a paifu: it needs a log of at least one hand")
    qijia = paifu.get("qijia")
    if type(qijia) is not int or not 0 <= qijia < SEATS:
        raise ValueError(f"not a paifu: qijia must be a seat 0 to 3, got {qijia!r}")


def rule_of(paifu: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full rule the paifu was played with: its own ``rule`` when it has one, else
    ``Majiang.rule()`` with ``overrides`` (a ``ValueError`` names a bad option)."""
    own = paifu.get("rule")
    if own is not None and not isinstance(own, Mapping):
        raise ValueError("the paifu's rule is not an object")
    return make_rule(own if own is not None else overrides)


def player_names(paifu: Mapping[str, Any]) -> list[str]:
    """The four players' names, each a username this site accepts (its users are found or made
    by name)."""
    names = paifu.get("player")
    if not isinstance(names, list) or len(names) != SEATS or not all(isinstance(n, str) for n in names):
        raise ValueError(f"the paifu must name four players, it has {names!r}")
    if len(set(names)) != SEATS:
        raise ValueError(f"the paifu's four players need different names, it has {names}")
    field = User._meta.get_field("username")
    for name in names:
        try:
            field.clean(name, None)
        except ValidationError as error:
            raise ValueError(f"player name {name!r} is not a username here: {' '.join(error.messages)}") from None
    return names


def complete_wall(rule: Mapping[str, Any], pai: Sequence[str], hand: int = 0) -> list[str]:
    """A hand's wall with its unknown tiles (``'_'``) filled by the tiles of the set the hand does
    not use, in Majiang's unshuffled order: always the same fill for the same paifu."""
    try:
        spare = iter(spare_tiles(rule, pai))
    except ValueError as error:
        raise ValueError(f"hand {hand} shows {error}") from None
    return [p if p != "_" else next(spare) for p in pai]


def stored_rules(paifu: Mapping[str, Any], full: Mapping[str, Any], host_seat: int = 0) -> dict[str, Any]:
    """``Game.rules`` of the imported game: the options that differ from Majiang's defaults (no
    preset: Majiang's is the base) and the import's walls, first dealer and title."""
    rules: dict[str, Any] = {key: value for key, value in full.items() if DEFAULT_RULE[key] != value}
    # make_shan reads the records only; its Shan holds the wall as rebuilt, unknown tiles '_'.
    walls = [complete_wall(full, make_shan(full, log)._pai, hand) for hand, log in enumerate(paifu["log"])]
    rules[IMPORTED] = {"walls": walls, "qijia": paifu["qijia"], "title": paifu.get("title", "")}
    if host_seat:
        rules["host_seat"] = host_seat
    return rules


def _new_engine(rules: dict[str, Any]) -> RiichiGame:
    """The engine exactly as ``state.new_engine`` will build the stored game."""
    game_type = get_game_type(GAME_TYPE)
    assert game_type is not None
    return RiichiGame.create(mode=game_type.mode(MODE), seed=0, rules=rules)


def _recorded(engine: RiichiGame, replies: list[list[list[dict[str, Any]]]], seat: int) -> tuple[str, list[Any]]:
    """The action for ``seat``'s recorded reply to the message the engine now waits on."""
    game = engine.game
    # The reply to message k of a hand (qipai is 0) is the seat's k-th reply (replay.make_replies).
    hand_replies = replies[engine.hands_dealt() - 1][game.seat_of(seat)]
    k = game._n_message
    reply = hand_replies[k] if k < len(hand_replies) else {}
    for kind in ("dapai", "fulou", "gang"):
        if kind in reply:
            return kind, [reply[kind]]
    if "hule" in reply:
        return "hule", []
    if "daopai" in reply:  # on one's own draw: 九種九牌; on the last discard: a tenpai hand shown
        return ("pingju", []) if game.status in (ZIMO, GANGZIMO) else ("daopai", [])
    return "pass", []


def play(paifu: Mapping[str, Any], rules: dict[str, Any]) -> Played:
    """Play the stored game's engine to its end with the paifu's decisions and check that it
    writes the paifu again (a ``ValueError`` says where not)."""
    engine = _new_engine(rules)
    replies = [make_replies(log) for log in paifu["log"]]
    steps: list[tuple[int, str, list[Any]]] = [(engine.host, "kaiju", [])]
    history_size = len(engine.apply(engine.host, "kaiju", []))
    while not engine.is_over:
        seat = engine.to_act()[0]
        kind, params = _recorded(engine, replies, seat)
        try:
            events = engine.apply(seat, kind, params)
        except Rejection:
            # Majiang ignores a reply it cannot use (a tenpai hand offered where none is shown);
            # that is a pass here, whose default on one's own turn is Majiang's too.
            kind, params = "pass", []
            events = engine.apply(seat, kind, params)
        steps.append((seat, kind, params))
        history_size += len(events)
    _check_same(paifu, engine.paifu)
    return Played(engine, steps, history_size)


def _check_same(paifu: Mapping[str, Any], produced: Mapping[str, Any]) -> None:
    """The replay passed, so this fails only if the platform's engine asks or answers otherwise
    than Majiang's flow: nothing is stored that would not give back the paifu."""
    for key in _SAME_KEYS:
        if key in paifu and paifu[key] != produced.get(key):
            where = _first_different_hand(paifu["log"], produced["log"]) if key == "log" else key
            raise ValueError(f"the platform's game differs from the paifu in {where}")


def _first_different_hand(expected: list[Any], actual: list[Any]) -> str:
    for hand, (a, b) in enumerate(zip(expected, actual)):
        if a != b:
            return f"hand {hand}"
    return f"its number of hands ({len(actual)}, the paifu has {len(expected)})"


def _store(names: list[str], rules: dict[str, Any], played: Played, host: User | None, at_ms: int) -> Game:
    """The finished game, its seats, its log and its record, all or nothing."""
    moment = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    with transaction.atomic():
        users = [user_named(name) for name in names]
        game = Game.objects.create(
            game_type=GAME_TYPE,
            mode=MODE,
            host=host if host is not None else users[rules.get("host_seat", 0)],
            status=Status.FINISHED,
            rated=False,  # an imported game is casual: it was not played here (docs/ratings.md)
            seed=0,
            rules=rules,
            seq=len(played.steps),
            history_size=played.history_size,
            result=played.engine.result(),
            started=moment,
            ended=moment,
        )
        Game.objects.filter(id=game.id).update(created=moment)  # auto_now_add ignores a given value
        game.created = moment
        # Majiang's player ids are the platform's positions (paifu_io.native_record reads them so).
        Seat.objects.bulk_create(
            Seat(game=game, user=user, slot=p, position=p, accepted=True) for p, user in enumerate(users)
        )
        Action.objects.bulk_create(
            Action(game=game, seq=i, seat=seat, type=kind, params=params, timestamp_ms=at_ms, auto=False)
            for i, (seat, kind, params) in enumerate(played.steps, 1)
        )
        store.rebuild_record(game)  # the record as the log rebuilds it, like any finished game's
    return game


__all__ = ["complete_wall", "import_paifu", "play", "player_names", "rule_of", "stored_rules"]
