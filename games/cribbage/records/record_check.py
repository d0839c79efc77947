"""Replaying a cribbage record (``games.cribbage.records.record``) through the engine, and checking it.

``replay_record`` rebuilds the game from nothing but what the document states: an engine dealt
the record's own cards (not the seed's), fed the record's decisions (discards, cards played,
claims, muggins calls and votes), and recorded afresh. ``verify_record`` compares that fresh
record with the stated one field by field, so every count, pegged point, show total, score and
the result is re-derived by the engine rather than trusted; when the record says its deals come
from the seed, it also checks each deal against the seed's shuffle (a changed card that no
later event betrays, say one never played because the game ended, is still caught).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.engine import Rejection
from games.cribbage.engine import CribbageGame
from games.cribbage.engine.cards import is_card, new_deck
from games.cribbage.engine.rules import DEALS
from games.cribbage.records.record import DEALS_FROM_SEED, FORMAT, VERSION, Recorder, deal_cards

MAX_DIFFERENCES = 100  # a record refused early differs everywhere after; the first ones say why

Action = tuple[int, str, list[Any]]


class RecordError(ValueError):
    """A document the checker cannot even replay: not a record, or a field it needs is unusable."""


@dataclass
class Replayed:
    """What the engine makes of a record's deals and decisions."""

    engine: CribbageGame  # where the replay stopped: the game's end, or the refused decision
    record: dict[str, Any]  # the engine's own record of it, to compare with the stated one
    refusal: str | None  # the decision the engine refused (path in the record, and why), if any


def replay_record(record: dict[str, Any]) -> Replayed:
    """Play the record's decisions on an engine dealt the record's cards. Raises ``RecordError``
    if the document is not a record this checker can replay."""
    _check_header(record)
    try:
        start = _start_engine(record)
        names = [str(player["name"]) for player in record["players"]]
        deals_from = record["game"]["deals_from"]
    except (KeyError, TypeError, IndexError) as error:
        raise RecordError(f"missing or malformed field: {error!r}") from None
    start_scores = start.result()["scores"]
    recorder = Recorder(start)
    refusal = _play(recorder, record)
    names = (names + [""] * start.seats)[:start.seats]  # a wrong count of players shows as a difference
    return Replayed(recorder.engine, recorder.document(names, deals_from, start_scores), refusal)


def verify_record(record: dict[str, Any]) -> list[str]:
    """Every way the record differs from its replay (empty: the record is consistent)."""
    try:
        replayed = replay_record(record)
    except RecordError as error:
        return [str(error)]
    problems = [replayed.refusal] if replayed.refusal else []
    if record["game"].get("deals_from") == DEALS_FROM_SEED:
        # Before the field differences: one changed card makes every later score differ, and
        # this line says where the record left the seed's deals.
        problems += _seed_problems(record)
    problems += differences(record, replayed.record)
    if len(problems) > MAX_DIFFERENCES:
        problems = [*problems[:MAX_DIFFERENCES], f"... and {len(problems) - MAX_DIFFERENCES} more"]
    return problems


def differences(stated: Any, replayed: Any, path: str = "") -> list[str]:
    """Field by field, what ``stated`` says that ``replayed`` does not; paths like
    ``deals[2].pegging[5].count``. Types count: ``true`` is not ``1``."""
    if isinstance(stated, dict) and isinstance(replayed, dict):
        found = [f"{_join(path, key)}: not part of a cribbage record" for key in stated if key not in replayed]
        for key, value in replayed.items():
            if key not in stated:
                found.append(f"{_join(path, key)}: missing (the replay gives {_show(value)})")
            else:
                found += differences(stated[key], value, _join(path, key))
        return found
    if isinstance(stated, list) and isinstance(replayed, list):
        found = []
        if len(stated) != len(replayed):
            found.append(f"{path}: the record has {len(stated)} entries, the replay {len(replayed)}")
        for index, (one, other) in enumerate(zip(stated, replayed)):
            found += differences(one, other, f"{path}[{index}]")
        return found
    if type(stated) is not type(replayed) or stated != replayed:
        return [f"{path}: the record says {_show(stated)}, the replay gives {_show(replayed)}"]
    return []


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else str(key)


def _show(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."


# ---------------------------------------------------------------------- building the engine


def _check_header(record: Any) -> None:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} document")
    if record.get("version") != VERSION:
        raise RecordError(f"{FORMAT} version {record.get('version')!r}: this checker reads version {VERSION}")
    for key in ("game", "rules", "players", "deals", "result"):
        if not isinstance(record.get(key), list if key in ("players", "deals") else dict):
            raise RecordError(f"{key}: missing or malformed")


def engine_rules(record: dict[str, Any]) -> dict[str, Any]:
    """The engine's own rule options, as the record states them."""
    rules = record["rules"]
    return {"counting": rules["counting"], "variants": rules["variants"], "first_dealer": rules["first_dealer"]}


def _start_engine(record: dict[str, Any]) -> CribbageGame:
    """An engine that deals the record's first hand, then each later one in turn."""
    game = record["game"]
    mode, seed = game["mode"], game["seed"]
    deals = record["deals"]
    try:
        if not deals:  # a game not dealt yet
            return CribbageGame(mode, seed, engine_rules(record))
        first = deals[0]
        filler = _deck_for(first, len(first["dealt"]), len(first["dealt"][0]))
        engine = CribbageGame.with_hands(mode, first["dealt"], first["starter"] or filler[-1],
                                         crib_card=first["crib_card"], rules=engine_rules(record), seed=seed,
                                         scores=_side_scores(game["start_scores"], mode))
    except Rejection as error:  # BadRules
        raise RecordError(f"rules: {error}") from None
    except ValueError as error:
        raise RecordError(f"deals[0]: {error}") from None
    # The engine's only randomness is one shuffle of a new deck per deal (docs/cribbage-engine.md):
    # handing it a "shuffle" that lays out the record's next deal makes it deal the record's cards.
    engine._rng = _RecordedShuffle(deals[1:], engine.seats, DEALS[engine.mode.id].hand)  # type: ignore[assignment]
    return engine


def _side_scores(start_scores: Sequence[int], mode: int) -> list[int] | None:
    # Per seat in the record; per side (the first seats are sides 0, 1, ...) for the engine.
    sides = list(start_scores[: 2 if mode == 4 else mode])
    return sides if any(sides) else None


def _deck_for(deal: dict[str, Any], seats: int, size: int) -> list[str]:
    """A deck from which the engine deals exactly this deal: one card at a time from the dealer's
    left, then (mode 3) the crib's card from the deck, then the starter, then the rest."""
    dealt = deal["dealt"]
    if len(dealt) != seats or any(not isinstance(hand, list) or len(hand) != size for hand in dealt):
        raise ValueError(f"dealt: {seats} hands of {size} cards")
    dealer = deal["dealer"]
    if type(dealer) is not int or not 0 <= dealer < seats:
        raise ValueError(f"dealer: no seat {dealer!r}")
    order = [dealt[(dealer + 1 + index) % seats][index // seats] for index in range(size * seats)]
    order += [deal["crib_card"]] if deal["crib_card"] is not None else []
    order += [deal["starter"]] if deal["starter"] is not None else []
    if not all(is_card(card) for card in order) or len(set(order)) != len(order):
        raise ValueError(f"the cards {order} are not distinct card codes")
    return order + [card for card in new_deck() if card not in order]


class _RecordedShuffle:
    """Stands in for the engine's ``random.Random``: each shuffle lays out the record's next deal."""

    def __init__(self, deals: list[dict[str, Any]], seats: int, size: int) -> None:
        self.deals = deals
        self.seats = seats
        self.size = size
        self.dealt = 1  # the first deal came from ``with_hands``

    def shuffle(self, deck: list[str]) -> None:
        if self.dealt > len(self.deals):
            raise ValueError(f"deals[{self.dealt}]: the game goes on to another deal, which the record lacks")
        deal = self.deals[self.dealt - 1]
        try:
            deck[:] = _deck_for(deal, self.seats, self.size)
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ValueError(f"deals[{self.dealt}]: {error}") from None
        self.dealt += 1


# ---------------------------------------------------------------------- the decisions


def _play(recorder: Recorder, record: dict[str, Any]) -> str | None:
    """Apply the record's decisions in order; the first one refused (path and reason), or None."""
    engine = recorder.engine
    path = "rules.first_dealer"
    try:
        if record["deals"]:
            recorder.apply(engine.rules.first_dealer, "deal", [])
        for step, group in decisions(record):
            path = step  # named in the refusal if this group is refused
            for seat, kind, params in group:
                recorder.apply(seat, kind, params)
            _agree_to_everything(recorder)
    except RecordError as error:
        return str(error)
    except Rejection as error:
        return f"{path}: the engine refuses it: {error}"
    except (KeyError, TypeError, IndexError, ValueError) as error:
        return f"{path}: cannot be replayed: {error}"
    return None


def decisions(record: dict[str, Any]) -> Iterator[tuple[str, list[Action]]]:
    """The players' decisions the record states, in game order, each with its path in the record.

    A claim comes with the muggins call and votes on it: a claim stated without a muggins was
    agreed to by everyone (``_agree_to_everything``). Go, the go point, the reset, the cut, the
    automatic count and the next deal are the engine's, not decisions; pauses are not recorded.
    Raises ``RecordError`` naming an entry that cannot be read.
    """
    manual = record["rules"]["counting"] == "manual"
    for number, deal in enumerate(record["deals"]):
        for field in ("discards", "pegging", "shows"):
            entries = deal.get(field) if isinstance(deal, dict) else None
            if not isinstance(entries, list):
                raise RecordError(f"deals[{number}].{field}: missing or malformed")
            for index, entry in enumerate(entries):
                path = f"deals[{number}].{field}[{index}]"
                try:
                    actions = _actions(field, index, entry, manual)
                except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
                    raise RecordError(f"{path}: malformed: {error!r}") from None
                if actions:
                    yield path, actions


def _actions(field: str, index: int, entry: Any, manual: bool) -> list[Action]:
    """The decisions one entry of a deal states: none for what the engine does by itself."""
    if field == "discards":
        return [(index, "discard", list(entry))] if entry is not None else []
    if field == "pegging":
        if entry["type"] != "play":
            return []
        params = [entry["card"], entry["claimed"]] if manual else [entry["card"]]
        return [(entry["seat"], "play", params), *_muggins(entry)]
    if not manual or entry["claimed"] is None:
        return []  # automatic counting: the engine counts; or a hand shown and not yet counted
    return [(entry["seat"], "count", [entry["claimed"]]), *_muggins(entry)]


def _muggins(entry: dict[str, Any]) -> list[Action]:
    muggins = entry.get("muggins")
    if not muggins:
        return []
    return [(muggins["caller"], "muggins", [muggins["stated"]]),
            *((seat, "vote", [vote]) for seat, vote in muggins["votes"])]


def _agree_to_everything(recorder: Recorder) -> None:
    """Every seat the engine waits on for an agreement agrees (the record named no muggins)."""
    engine = recorder.engine
    while True:
        waiting = [seat for seat in engine.to_act()
                   if any(option["type"] == "agree" for option in engine.legal_actions(seat))]
        if not waiting:
            return
        for seat in waiting:
            recorder.apply(seat, "agree", [])


# ---------------------------------------------------------------------- the seed


def _seed_problems(record: dict[str, Any]) -> list[str]:
    """Does the seed deal the record's hands? The first deal it does not, if any."""
    game = record["game"]
    if any(game["start_scores"]):
        return ["game.deals_from: a game dealt from the seed starts from nothing, not from start_scores"]
    try:
        seeded = Recorder(CribbageGame(game["mode"], game["seed"], engine_rules(record)))
    except (Rejection, ValueError, TypeError) as error:
        return [f"game.seed: {error}"]
    _play(seeded, record)  # refusals here follow from a deal that differs, reported below
    stated = record["deals"]
    fields = ("dealer", "dealt", "crib_card", "starter")
    for number, (deal, claim) in enumerate(zip(seeded.deals, stated)):
        mine, theirs = deal_cards(deal), deal_cards(claim)
        for name, value, said in zip(fields, mine, theirs):
            if value != said and not (name == "starter" and value is None):
                return [f"deals[{number}].{name}: the record says {_show(said)}, seed {game['seed']} deals "
                        f"{_show(value)}"]
    if len(seeded.deals) < len(stated):
        return [f"deals[{len(seeded.deals)}]: the seed's game cannot reach this deal with the record's decisions"]
    return []


__all__ = ["RecordError", "Replayed", "decisions", "differences", "engine_rules", "replay_record", "verify_record"]
