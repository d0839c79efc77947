"""``manage.py playbots GAME_TYPE``: built-in bots play complete games on the real platform.

Tables are opened through the lobby and every move goes through ``door.apply_action``, so
the games are stored exactly like people's games (log, seats, result). Each bot decides from
``door.snapshot`` of its own seat: the same view and legal actions a client would get.

Each game type names its bot's ``choose(view, legal, rng)`` function in ``games.core.registry``.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from games.core.engine import Mode
from games.core.errors import GameError
from games.core.registry import GAME_TYPES, GameType, get_game_type
from games.models import Game, Status
from games.riichi.engine import presets
from games.service import door

BotChoice = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], tuple[str, list[Any]]]

# A game that has not ended after this many actions is a bug, not a long game.
MAX_ACTIONS = 10_000


@dataclass
class Played:
    game: Game
    usernames: list[str]  # in player order
    actions: int
    seconds: float


def load_bot(game_type: str) -> BotChoice:
    return GAME_TYPES[game_type].bot()


def choose_mode(game_type: GameType, players: int | None, mode_id: int | None) -> Mode:
    """``mode_id`` if given, else the every-player-for-themselves mode seating ``players``, or the
    only mode seating them when there is no such mode (cribbage's four players are two teams)."""
    if mode_id is not None:
        mode = game_type.mode(mode_id)
        if mode is None:
            raise CommandError(f"{game_type.name} has no mode {mode_id}; modes: {_modes(game_type)}")
        return mode
    seats = players if players is not None else 4
    mode = next((m for m in game_type.modes if m.seats == seats and not m.teams), None)
    if mode is None:
        seating = [m for m in game_type.modes if m.seats == seats]
        if len(seating) != 1:
            raise CommandError(
                f"{game_type.name} has no singles mode for {seats} players; modes: {_modes(game_type)}"
            )
        mode = seating[0]
    return mode


def _modes(game_type: GameType) -> str:
    return ", ".join(f"{m.id} ({m.name})" for m in game_type.modes)


def parse_rules(game_type: str, text: str) -> dict[str, Any]:
    """``--rule``: a JSON object of rules, or for riichi the bare name of a rule preset (the lobby
    checks the rules themselves, as for any table)."""
    if game_type == "riichi" and text in presets.PRESETS:
        return {presets.PRESET_KEY: text}
    try:
        rules = json.loads(text)
    except ValueError as error:
        hint = f" or a preset ({', '.join(presets.PRESETS)})" if game_type == "riichi" else ""
        raise CommandError(f"--rule is not JSON{hint}: {error}") from None
    if not isinstance(rules, dict):
        raise CommandError("--rule must be a JSON object")
    return rules


def bot_users(game_type: str, count: int) -> list[User]:
    """``bot-<type>-1`` .. ``bot-<type>-<count>``, created on first use, reused after."""
    users = []
    for number in range(1, count + 1):
        user, created = User.objects.get_or_create(username=f"bot-{game_type}-{number}")
        if created:
            user.set_unusable_password()  # nobody logs in as a bot
            user.save(update_fields=["password"])
        users.append(user)
    return users


def open_table(game_type: str, mode: Mode, users: list[User], rules: dict[str, Any] | None = None) -> Game:
    """Create, fill and accept a table; the lobby starts the game once everyone has accepted."""
    try:
        game = door.create_table(users[0], game_type, mode.id, rules=rules)
    except GameError as error:  # rules the engine refuses: say so, as the lobby would
        raise CommandError(f"--rule: {error.code}: {error.reason}") from None
    for user in users[1:]:
        door.join(user, game.id)
    for user in users:
        if not game.seats.filter(user=user, accepted=True).exists():
            door.accept(user, game.id)
    game.refresh_from_db()
    if game.status != Status.ACTIVE:
        raise CommandError(f"table {game.id} did not start (status {game.status})")
    return game


def play_table(game_type: str, mode: Mode, users: list[User], choose: BotChoice, rng: random.Random,
               rules: dict[str, Any] | None = None) -> Played:
    """One complete game: every decision answered by the bot from its seat's snapshot."""
    began = time.perf_counter()
    game = open_table(game_type, mode, users, rules)
    by_position = {
        s.position: s.user for s in game.seats.select_related("user").exclude(position=None).order_by("position")
    }
    user = by_position[0]
    actions = 0
    for _ in range(MAX_ACTIONS):
        game = door.game_row(game.id)  # as a Snapshot request reads it (door.snapshot_for)
        # A bot decides from the view and legal actions; the history it has no use for is left out
        # (``start`` at its end), so a decision costs the same early and late in the game.
        snap = door.snapshot(game, user, start=game.history_size)
        if game.status != Status.ACTIVE or not snap["to_act"]:
            break
        # Seats whose answer to an open call window is kept back (games/service/window.py) are done.
        deciding = [p for p in snap["to_act"] if p not in door.answered(game)]
        if snap["position"] not in deciding:
            # Another seat is to act: look again, from that seat.
            user = by_position[deciding[0]]
            snap = door.snapshot(game, user, start=game.history_size)
        action_type, params = choose(snap["view"], snap["legal"], rng)
        try:
            door.apply_action(game.id, user, action_type, params, answers=game.seq, hold=False)
        except GameError as error:
            raise CommandError(f"game {game.id}: {user.username} played {action_type} {params}: {error}") from None
        actions += 1
    else:
        raise CommandError(f"game {game.id} did not end within {MAX_ACTIONS} actions")
    game.refresh_from_db()
    if game.status != Status.FINISHED:
        raise CommandError(f"game {game.id} stopped while {game.status}")
    names = [by_position[p].username for p in sorted(by_position)]
    return Played(game, names, actions, time.perf_counter() - began)


def describe(played: Played) -> str:
    """One line: game, mode, end reason, actions, then each player's score and rank."""
    result = played.game.result or {}
    players = result.get("players", [])
    scores = ", ".join(f"{name} {p.get('score')} (#{p.get('rank')})" for name, p in zip(played.usernames, players))
    teams = "".join(f"  team {t['team']} {t['score']} (#{t['rank']})" for t in result.get("teams", []))
    end = result.get("end_reason") or "-"
    return (
        f"game {played.game.id}  mode {played.game.mode}  {end}  {played.actions} actions  "
        f"{played.seconds:.2f}s  {scores}{teams}"
    )


class Command(BaseCommand):
    help = "Let built-in bots play complete games through the lobby and the game service."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_type", help=f"game type: one of {', '.join(GAME_TYPES)}")
        parser.add_argument("--players", type=int, help="players at each table: the singles mode, or the only mode "
                            "seating that many (cribbage's 4 is 2 vs 2); default 4")
        parser.add_argument("--mode", type=int, help="mode id instead of --players (for team modes)")
        parser.add_argument("--games", type=int, default=1, help="number of games to play (default 1)")
        parser.add_argument("--seed", type=int, default=0, help="seed of the bots' choices (default 0)")
        parser.add_argument(
            "--rule",
            help="the table's rules as a JSON object (riichi: a preset and/or overrides of Majiang.rule(), "
            'e.g. \'{"preset": "tenhou", "場数": 1}\', or just a preset\'s name: tenhou; '
            'cribbage: e.g. \'{"counting": "manual", "variants": "D"}\'); default: the game\'s defaults',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        key = options["game_type"]
        game_type = get_game_type(key)
        if game_type is None:
            raise CommandError(f"unknown game type {key!r}; known: {', '.join(GAME_TYPES)}")
        if game_type.bot_path is None or not game_type.playable:
            playable = sorted(k for k, t in GAME_TYPES.items() if t.bot_path and t.playable)
            raise CommandError(f"{game_type.name} has no bot yet; playbots can play: {', '.join(playable)}")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        rules = None
        if options["rule"] is not None:
            rules = parse_rules(key, options["rule"])
        mode = choose_mode(game_type, options["players"], options["mode"])
        users = bot_users(key, mode.seats)
        choose = load_bot(key)
        seed = options["seed"]

        wins: Counter[str] = Counter()
        totals: Counter[str] = Counter()
        actions = 0
        began = time.perf_counter()
        for index in range(options["games"]):
            # Each game's bots draw from their own stream, so game k replays the same choices
            # for the same seed whatever came before it.
            played = play_table(key, mode, users, choose, random.Random(f"{seed}:{index}"), rules)
            self.stdout.write(describe(played))
            actions += played.actions
            for name, player in zip(played.usernames, (played.game.result or {}).get("players", [])):
                totals[name] += player.get("score", 0)
                wins[name] += player.get("rank") == 1
        elapsed = time.perf_counter() - began
        games = options["games"]
        standings = ", ".join(
            f"{u.username} {wins[u.username]} wins, mean {totals[u.username] / games:.0f}" for u in users
        )
        self.stdout.write(
            f"{games} {game_type.name} games, {mode.name}, seed {seed}: {standings}; "
            f"{actions} actions in {elapsed:.1f}s ({games / elapsed:.2f} games/s)"
        )
