"""Walk a finished riichi game and set one seat's decisions beside the strong bot's (docs/review.md).

``build(engine, actions, seat)`` replays the action log on a fresh engine (the game's own, made from
its seed and rules, as ``games.state.replay`` makes it). Before each action of ``seat`` it asks
the engine what that seat saw and might do (``view(seat)``, never revealed, and
``legal_actions(seat)``), exactly what the seat's client and the house bots are given; where there
was a real choice it asks the strong bot (``strong.choose``, with a ``random.Random`` seeded by the
step, so a review is the same every time it is built) and measures both choices
(``measure.py``). Then it applies the logged action and goes on.

A decision has a real choice when more than one thing could be done: on one's own turn more than
one discard, or a riichi, kan, tsumo or nine-terminals draw beside the discard; on another's
discard (or an added kan) a call or a ron beside the pass. A riichi hand's forced tsumogiri and
the passes with nothing else on offer are not decisions. Showing a tenpai hand at the exhaustive
draw is not weighed (the strong bot always shows it).

``step`` is the replay page's log step the decision was made at: the state after ``step`` actions,
which is what the seat saw (its action is action ``step + 1``). The page opens the visible step
that holds it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from games.riichi.bots import strong
from games.riichi.records.review.measure import Action, label, measure, position

VERSION = 1
BOT = "strong"
COSTLIEST = 5  # how many of the costliest decisions the review names
Progress = Callable[[int, int], None]


class Logged(NamedTuple):
    """One action of the game's log, as the service reads it."""

    seq: int
    seat: int  # riichi logs every action with its seat (kaiju: the host's)
    type: str
    params: list[Any]
    auto: bool = False


class Engine(Protocol):
    """What the walk uses of ``RiichiGame``: no more than a seat's client could ask."""

    @property
    def is_over(self) -> bool: ...

    def apply(self, seat: int, action_type: str, params: list[Any]) -> Any: ...

    def view(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]: ...

    def legal_actions(self, seat: int) -> list[dict[str, Any]]: ...


def _options(legal: list[dict[str, Any]]) -> list[Action]:
    """The distinct things the seat could do, the own turn's pass (the default discard) and
    showing tenpai left out: a pass always stands beside the others."""
    return [(a["type"], list(a["params"])) for a in legal
            if a.get("allowed", True) and a["type"] not in ("pass", "daopai", "kaiju")]


def _own_turn(legal: list[dict[str, Any]]) -> bool:
    return any(a["type"] == "dapai" for a in legal)


def has_choice(legal: list[dict[str, Any]]) -> bool:
    """Whether a seat offered ``legal`` had a real choice (module docstring)."""
    options = _options(legal)
    if _own_turn(legal):
        return len(options) > 1
    return bool(options)


def normalise(action: Action, legal: list[dict[str, Any]]) -> Action:
    """A choice as the review compares it: on one's own turn a pass is the discard it defaults to;
    showing tenpai weighs as a pass (the call window's choice is between the call and not)."""
    kind, params = action
    if kind == "pass" and _own_turn(legal):
        default = next((a.get("default") for a in legal if a["type"] == "pass"), None)
        if default:
            return (default[0], list(default[1]))
    if kind == "daopai":
        return ("pass", [])
    return (kind, list(params))


def _same(a: Action, b: Action) -> bool:
    """The same choice: a discard of the drawn tile and of its twin in the hand keep the same
    hand (``m1_`` and ``m1``), so they agree."""
    def key(action: Action) -> tuple[Any, ...]:
        kind, params = action
        if kind == "dapai":
            return (kind, params[0].replace("_", ""))
        return (kind, *params)
    return key(a) == key(b)


def _kind(legal: list[dict[str, Any]], view: dict[str, Any]) -> str:
    """The sort of decision: the own turn after a draw, the discard after a call, or an answer to
    another's discard (a call) or added kan (chankan)."""
    if _own_turn(legal):
        return "turn" if view.get("status") in ("zimo", "gangzimo") else "discard"
    return "chankan" if view.get("status") == "gang" else "call"


def decide(view: dict[str, Any], legal: list[dict[str, Any]], played: Action, step: int,
           choose: strong.Choose = strong.choose) -> dict[str, Any]:
    """One decision: the player's choice and the bot's for the same view, measured, and the cost
    of the player's (the equity the bot's choice keeps over it; 0 when they agree or the player's
    keeps more)."""
    pos = position(view)
    mine = normalise(played, legal)
    bot = normalise(choose(view, legal, random.Random(step)), legal)
    same = _same(mine, bot)
    player_figures = {"action": {"type": mine[0], "params": mine[1]}, "label": label(mine), **measure(pos, mine)}
    bot_figures = player_figures if same else {
        "action": {"type": bot[0], "params": bot[1]}, "label": label(bot), **measure(pos, bot)}
    cost = 0 if same else max(0, bot_figures["equity"] - player_figures["equity"])
    return {
        "step": step,
        "kind": _kind(legal, view),
        "round": {"zhuangfeng": view.get("zhuangfeng", 0), "jushu": view.get("jushu", 0),
                  "changbang": view.get("changbang", 0)},
        "paishu": view.get("paishu"),
        "hand": view["me"]["shoupai"],
        "options": len(_options(legal)),
        "player": player_figures,
        "bot": {**bot_figures},
        "same": same,
        "cost": cost,
    }


def build(engine: Engine, actions: Sequence[Logged] | Iterable[Logged], seat: int, *,
          progress: Progress | None = None, choose: strong.Choose = strong.choose) -> dict[str, Any]:
    """The review of ``seat`` (module docstring). ``engine`` is a fresh engine of the game; each
    of the log's actions is applied to it in order. ``progress(done, total)`` is called after each
    of the seat's actions (``total``: the seat's actions in the log)."""
    log = list(actions)
    total = sum(1 for a in log if a.seat == seat)
    done = 0
    decisions: list[dict[str, Any]] = []
    if progress:
        progress(0, total)
    for action in log:
        if action.seat == seat and not engine.is_over:
            legal = engine.legal_actions(seat)
            if has_choice(legal):
                decision = decide(engine.view(seat), legal, (action.type, list(action.params)), action.seq - 1, choose)
                decision["auto"] = action.auto
                decisions.append(decision)
        engine.apply(action.seat, action.type, list(action.params))
        if action.seat == seat:
            done += 1
            if progress:
                progress(done, total)
    return {
        "version": VERSION,
        "seat": seat,
        "bot": BOT,
        "decisions": decisions,
        "costliest": costliest(decisions),
        "summary": summary(decisions),
    }


def costliest(decisions: list[dict[str, Any]], count: int = COSTLIEST) -> list[dict[str, Any]]:
    """The player's own decisions that cost most, costliest first (ties: the earlier first); the
    server's moves for the seat (time-outs, a forfeit) are not the player's."""
    ranked = sorted((i for i, d in enumerate(decisions) if d["cost"] > 0 and not d.get("auto")),
                    key=lambda i: (-decisions[i]["cost"], i))
    return [{"index": i, "step": decisions[i]["step"], "cost": decisions[i]["cost"]} for i in ranked[:count]]


def summary(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    mine = [d for d in decisions if not d.get("auto")]
    return {"decisions": len(decisions), "agreed": sum(1 for d in mine if d["same"]),
            "auto": len(decisions) - len(mine), "cost": sum(d["cost"] for d in mine)}
