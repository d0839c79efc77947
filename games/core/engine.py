"""The contract between the platform and a game engine.

Engines are pure Python and import nothing from Django. The platform (lobby, game service,
consumers, REST) only ever talks to a game through this interface, so every game type gets
the same event log, visibility rule, resync and replay machinery.

An engine instance is one game's state. It is deterministic: the same seed, mode, rules and
actions always give the same events, byte for byte. That is what lets the service rebuild
any game from its action log after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

MAX_REASON_BYTES = 512


class Rejection(Exception):
    """An action that may not be applied; the engine state is exactly as it was."""

    def __init__(self, reason: str) -> None:
        encoded = reason.encode("utf-8")[:MAX_REASON_BYTES]
        self.reason = encoded.decode("utf-8", errors="ignore")
        super().__init__(self.reason)


@dataclass(frozen=True)
class Mode:
    """A way to seat a game: how many players and, for partnership games, how many teams."""

    id: int
    name: str
    seats: int
    teams: int = 0  # 0: every player for themselves

    def team_of(self, position: int) -> int | None:
        # Teammates sit alternately (Acquire's and cribbage's partnership rule).
        return position % self.teams if self.teams else None


@dataclass(frozen=True)
class Event:
    """One game history message.

    ``visible_to`` names the seats that may see ``params``; ``None`` means everyone. Seats that
    may not see the content still receive the event with ``hidden_params`` (typically the same
    shape with the secret replaced by ``None``) so that every seat's history has the same length.
    """

    type: str
    player: int | None
    params: list[Any] = field(default_factory=list)
    visible_to: frozenset[int] | None = None
    hidden_params: list[Any] | None = None

    def render(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        """The message as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        visible = reveal_all or self.visible_to is None or (
            viewer is not None and viewer in self.visible_to
        )
        params = self.params if visible else (self.hidden_params or [])
        message: dict[str, Any] = {"type": self.type, "params": params}
        if self.player is not None:
            message["player"] = self.player
        return message


class Engine(Protocol):
    """What every game engine provides. See ``games.acquire.engine`` for a full example."""

    game_type: ClassVar[str]

    @classmethod
    def create(cls, *, mode: Mode, seed: int, rules: dict[str, Any]) -> Engine:
        """A new game, all randomness drawn from ``seed``."""

    def initial_actions(self) -> list[tuple[int, str, list[Any]]]:
        """Actions (seat, type, params) the platform applies when the game starts."""

    def apply(self, seat: int, action_type: str, params: list[Any]) -> list[Event]:
        """Apply one action; raise ``Rejection`` (state untouched) if it is not legal now."""

    def to_act(self) -> list[int]:
        """The seats whose decision the game waits for (their clocks run). Other seats may
        still act when ``legal_actions`` offers them something, e.g. a pause."""

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may do now, for user interfaces and bots."""

    def auto_action(self, seat: int) -> tuple[str, list[Any]]:
        """The action played for a seat whose clock ran out or who forfeited."""

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        """A snapshot of the state as ``viewer`` may see it (JSON-serialisable)."""

    @property
    def is_over(self) -> bool: ...

    # Optional: ``decision_window() -> bool``, true while the game waits for decisions whose
    # timing would reveal hidden information (riichi's calls on a discard). The service then
    # keeps every answer that does not close the window back (``check(seat, type, params)``,
    # which raises ``Rejection`` without changing anything, says whether it is legal) and applies
    # them all with the one that closes it, no sooner than ``settings.CALL_FLOOR_MS`` after the
    # window opened (games/service/window.py).

    # Optional: ``hands_dealt() -> int``, how many hands (deals) the game has had so far. A
    # per-decision clock renews every seat's time bank when it changes (games/service/clocks.py); a game
    # without it keeps one bank for the whole game.

    def result(self) -> dict[str, Any]:
        """Final scores and ranking once ``is_over``."""
