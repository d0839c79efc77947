"""Fixtures for CRIBBAGEBBER over WebSocket: line clients on the full ASGI app, the server-side truth
of a game, and a driver that plays whole games through the protocol."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.tokens import token_for
from games.core.engine import Event
from games.core.registry import get_game_type
from games.cribbage.engine.game import CribbageGame
from games.cribbage.engine.rules import MAX_CLAIM
from games.models import Action, Game, Seat
from tests.cribbage.transport.peer import CARD, LineClient, split


@pytest.fixture
async def links():
    """Open CRIBBAGEBBER links (``IM:`` sent unless ``im=False``); all are closed at the end."""
    opened: list[LineClient] = []

    async def open_link(user, game_id: int | None = None, *, im: bool = True, token: bool = True,
                        headers: list[tuple[bytes, bytes]] | None = None) -> LineClient:
        path = f"/ws/cribbage/{game_id}/" if game_id else "/ws/cribbage/"
        key = await database_sync_to_async(token_for)(user) if token else None
        link = LineClient(path, key, headers, name=user.username)
        opened.append(link)
        await link.connect()
        if im:
            assert await link.expect("P:") == "P:0.1/DNM"
            await link.send(f"IM:{user.username}")
        return link

    yield open_link
    for link in opened:
        try:
            await link.close()
        except Exception:  # noqa: BLE001 - a link the server or the test closed already
            pass


def host_table(user_id: int) -> int:
    return Seat.objects.filter(user_id=user_id, game__status="setup").latest("game_id").game_id


@dataclass
class Hand:
    dealt: dict[int, list[str]] = field(default_factory=dict)
    crib: list[str] = field(default_factory=list)
    starter: str | None = None


class Truth:
    """The game as the server knows it: the engine rebuilt from the stored action log."""

    def __init__(self, game_id: int) -> None:
        game = Game.objects.get(id=game_id)
        self.game_id = game_id
        mode = get_game_type("cribbage").mode(game.mode)
        self.engine = CribbageGame.create(mode=mode, seed=game.seed, rules=game.rules)
        self.manual = game.rules.get("counting") == "manual"
        self.names = dict(Seat.objects.filter(game=game).exclude(position=None).values_list("position",
                                                                                            "user__username"))
        self.seq = 0
        self.history: list[Event] = []
        self.sync()

    def sync(self) -> CribbageGame:
        for seq, seat, kind, params in Action.objects.filter(game_id=self.game_id, seq__gt=self.seq).order_by(
                "seq").values_list("seq", "seat", "type", "params"):
            self.history += self.engine.apply(seat, kind, params)
            self.seq = seq
        return self.engine

    def apply(self, seat: int, action: str, params: list[Any]) -> None:
        """Mirror an action the server is known to have applied (its echo came back), sparing a
        database round trip per move; ``verify`` compares with the stored log at the end."""
        self.history += self.engine.apply(seat, action, params)
        self.seq += 1

    def verify(self) -> None:
        stored = Truth(self.game_id)
        stored.sync()
        assert stored.engine.action_log == self.engine.action_log
        assert [e.render(None, True) for e in stored.history] == [e.render(None, True) for e in self.history]

    def hands(self) -> list[Hand]:
        hands: list[Hand] = []
        for event in self.history:
            if event.type == "Deal":
                if event.params[0] == 0:
                    hands.append(Hand())
                hands[-1].dealt[event.params[0]] = list(event.params[1])
            elif event.type == "Discarded":
                hands[-1].crib += event.params[0]
            elif event.type == "CribCard":
                hands[-1].crib += event.params
            elif event.type == "Starter":
                hands[-1].starter = event.params[0]
        return hands


def numbering(link: LineClient) -> dict[str, int]:
    """The link's card numbers for its current hand, from its last SE: line."""
    se = link.last("SE:")
    assert se is not None, link
    return {card[1:]: int(card[0]) for card in re.findall(CARD, split(se)[1][2])}


ECHO = {"discard": "DI:", "play": "PL:{}/", "count": "CN:{}/", "agree": "AG:{}", "vote": "{}:{}",
        "muggins": "MU:{}/", "pause": "PA:{}", "unpause": "UP:{}"}


def to_line(link: LineClient, action: str, params: list[Any], manual: bool) -> str:
    if action == "discard":
        numbers = numbering(link)
        return "CR:" + "".join(str(numbers[card]) for card in params)
    if action == "play":
        number = numbering(link)[params[0]]
        return f"PL:{number}/{params[1]}" if manual else f"PL:{number}"
    if action == "count":
        return f"CN:{params[0]}"
    if action == "muggins":
        return f"MU:{params[0]}"
    if action == "vote":
        return "YE:" if params[0] else "NO:"
    return {"agree": "AG:", "pause": "PA:", "unpause": "UP:"}[action]


def echo(link: LineClient, action: str, params: list[Any]) -> str:
    if action == "vote":
        return f"{'YE' if params[0] else 'NO'}:{link.name}"
    return ECHO[action].format(link.name)


async def until(predicate: Callable[[], bool], link: LineClient, timeout: float = 10) -> None:
    """Read ``link`` until ``predicate`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        await link.recv(max(0.01, deadline - loop.time()))


async def send_and_echo(link: LineClient, line: str, expected: str) -> None:
    """Send a line; read until its effect comes back (a WA: instead fails the test)."""
    start = len(link.lines)
    await link.send(line)

    def done() -> bool:
        new = link.lines[start:]
        assert not any(x.startswith(("WA:", "E:")) for x in new), (link, line, new)
        return any(x.startswith(expected) if expected.endswith(("/", ":")) else x == expected for x in new)

    await until(done, link)


async def open_table(links, make_user, players: int, variants: str = "", names: str = "ann bob cat dan"):
    """A table set up through the protocol: the first link is the control client, sets N and the
    variants, the others join by the table's address; everyone says YE: to RE:. Returns the links
    in seat order (exact order: the order of joining) and the game id."""
    users = [await database_sync_to_async(make_user)(name) for name in names.split()[:players]]
    control = await links(users[0])
    assert await control.expect("CO:") == f"CO:{users[0].username}"
    await control.send(f"NP:{players}/{variants}")
    await control.expect(f"NP:{players}/")
    game_id = await database_sync_to_async(host_table)(users[0].id)
    table = [control]
    for user in users[1:]:
        link = await links(user, game_id)
        assert await link.expect("WE:") == f"WE:{user.username}"
        table.append(link)
    for link in table:
        await link.expect("RE:")
        await link.send("YE:")
    for link in table:
        await link.expect("SE:")
    return table, game_id


class Driver:
    """Plays a game through the links, deciding with the server's truth (the engine's automatic
    player). With ``mischief`` (manual counting) some counts are claimed wrong, the next player on
    the other side calls muggins with the true count, and every other muggins is voted down."""

    def __init__(self, truth: Truth, table: list[LineClient], mischief: bool = False, mirror: bool = True) -> None:
        self.truth = truth
        # Seats without a link (forfeited: the server plays them) are never asked for anything.
        self.by_seat = {seat: link for seat, name in truth.names.items() for link in table if link.name == name}
        self.mischief = mischief
        # Mirror each move in the local engine; without mirroring (the server plays some seat by
        # itself), read the log after every move.
        self.mirror = mirror
        self.counts = 0
        self.plays = 0
        self.calls = 0
        self.steps = 0

    def side(self, seat: int) -> int:
        return seat % 2 if self.truth.engine.mode.teams else seat

    def decide(self, engine: CribbageGame) -> tuple[int, str, list[Any]]:
        to_act = engine.to_act()
        claim = engine._claim  # the server's truth, claimed count and true count alike
        if self.mischief and engine._muggins is not None:
            seat = to_act[0]
            truthful = engine._muggins.stated == claim.points
            vote = truthful and not (self.calls % 2 == 0 and seat == to_act[-1])
            return seat, "vote", [vote]
        if self.mischief and claim is not None and claim.claimed != claim.points:
            # Under review, those asked to agree may call; a pegging claim is open to the other side
            # from the moment the card is played until the next one.
            asked = to_act if claim.under_review else range(engine.seats)
            callers = [s for s in asked if self.side(s) != self.side(claim.seat)]
            if callers:
                self.calls += 1
                return callers[-1], "muggins", [claim.points]
        seat = to_act[0]
        action, params = engine.auto_action(seat)
        if self.mischief and action == "count":
            self.counts += 1
            true = params[0]
            # Wrong claims stay claimable (0..MAX_CLAIM): a 28-point hand is claimed low instead.
            if self.counts % 3 == 1 and true + 2 <= MAX_CLAIM:
                params = [true + 2]
            elif self.counts % 3 and true >= 2:
                params = [true - 2]
        elif self.mischief and action == "play":
            self.plays += 1
            if self.plays % 7 == 3:
                params = [params[0], params[1] + 1]
        return seat, action, params

    async def step(self, seat: int, action: str, params: list[Any]) -> None:
        link = self.by_seat[seat]
        if action in ("discard", "play"):
            # The link must have this hand's SE: before it can name the cards by number.
            hands = self.truth.engine.view(seat)["hands_dealt"]
            await until(lambda: sum(x.startswith("SE:") for x in link.lines) >= hands, link)
        line = to_line(link, action, params, self.truth.manual)
        if action == "muggins" and self.calls % 2:
            line = f"MU:{self.truth.names[self.truth.engine._claim.seat]}/{params[0]}"  # the long form
        await send_and_echo(link, line, echo(link, action, params))
        self.steps += 1
        if self.mirror:
            self.truth.apply(seat, action, params)

    async def current(self) -> CribbageGame:
        return self.truth.engine if self.mirror else await database_sync_to_async(self.truth.sync)()

    async def play(self, limit: int = 3000) -> None:
        while not (engine := await self.current()).is_over:
            await self.step(*self.decide(engine))
            assert self.steps < limit
        for link in self.by_seat.values():
            await link.expect("EG:")
        await database_sync_to_async(self.truth.verify)()


def check_lines(truth: Truth, link: LineClient, seat: int) -> None:
    """No line to ``seat`` ever names a card it may not see: its own hand is numbered, every other
    card in a line is the starter, a played card or a shown hand or crib, each matching the server's
    truth, and appears only from the line that makes it public."""
    hands = truth.hands()
    hand_no = -1
    own: set[str] = set()
    public: set[str] = set()
    seat_of = {name: s for s, name in truth.names.items()}
    for line in link.lines:
        code, fields = split(line)
        cards = re.findall(CARD, line) if code not in ("ME", "WA", "E") else []
        if code == "SE":
            hand_no += 1
            hand = hands[hand_no]
            dealt = [card[1:] for card in re.findall(CARD, fields[2])]
            assert dealt == hand.dealt[seat]
            assert [int(card[0]) for card in re.findall(CARD, fields[2])] == list(range(1, len(dealt) + 1))
            own, public = set(dealt), set()
        elif code == "TO":
            assert cards == ["0" + hands[hand_no].starter], line
            public.add(hands[hand_no].starter)
        elif code == "PL":
            card = cards[0][1:]
            assert card in hands[hand_no].dealt[seat_of[fields[0]]], line
            public.add(card)
        elif code == "H":
            shown = [card[1:] for card in re.findall(CARD, fields[1])]
            hand = hands[hand_no]
            if fields[-1] == "CRIB":
                assert sorted(shown) == sorted(hand.crib), line
            else:
                assert set(shown) <= set(hand.dealt[seat_of[fields[0]]]) and len(shown) == 4, line
            public |= set(shown)
        for card in cards:
            assert card[1:] in own | public, (link, line)
            assert (card[0] != "0") == (card[1:] in own), (link, line)


def codes(*tables: list[LineClient]) -> set[str]:
    return {split(line)[0] for table in tables for link in table for line in link.lines}
