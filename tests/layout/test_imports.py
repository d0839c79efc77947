"""The package's layers (docs/architecture.md): no import circle, and no import from a lower layer to
a higher one, lazy imports (inside functions) and ``import_module("...")`` with a literal included.

Read with ``ast`` from the source, so nothing is imported to check it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts", "config")
GAMES = ("acquire", "cribbage", "riichi")

# Lowest first. A module belongs to the first layer one of whose prefixes it starts with; each game
# package has the same layers as the platform, named alike.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("engine", ("games.core", "games.models", *(f"games.{g}.engine" for g in GAMES),
                # the configuration's plain values and helpers, read by settings.py
                "config.settings", "config.channel_layers", "config.memory_layer", "config.redis_layer",
                "config.secret", "config.sqlite")),
    ("protocols, bots, clients",
     tuple(f"games.{g}.{part}" for g in GAMES for part in ("protocols", "bots", "clients"))),
    ("state", ("games.state",)),
    ("records", ("games.records", *(f"games.{g}.records" for g in GAMES))),
    ("service", ("games.service",)),
    ("transport", ("games.transport", *(f"games.{g}.transport" for g in GAMES))),
    ("api and site", ("games.api", "games.site")),
    ("commands and configuration", ("games.management", "games.apps", "config.asgi", "config.urls", "config.bodies",
                                    "config.daphne_bodies")),
]


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = modules()


def _resolve(name: str) -> str | None:
    """The module ``name`` is, or holds (``games.service.door.act`` is in ``games.service.door``)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


def imports(module: str) -> Iterator[tuple[str, int]]:
    """The project's modules ``module`` imports, with the line, wherever the import stands."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            # ``from a.b import c``: the module a.b.c if there is one, else a.b (c is a name in it)
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        elif (isinstance(node, ast.Call)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names = [node.args[0].value]
        for name in names:
            target = _resolve(name)
            if target is not None and target != module:
                yield target, node.lineno


def graph() -> dict[str, set[str]]:
    return {module: {target for target, _ in imports(module)} for module in MODULES}


def layer(module: str) -> int | None:
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walk_sees_imports_of_every_kind() -> None:
    """The walker itself: top-level, relative-free lazy imports and import_module all count."""
    edges = graph()
    assert "games.service.door" in edges["games.transport.lobby_consumer"]
    assert "games.state.replay" in edges["games.records.store"]
    assert "games.site.admin" in edges["games.apps"]  # a lazy import, inside ready()
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle() -> None:
    assert circles(graph()) == []


def test_every_module_of_games_has_a_layer() -> None:
    loose = [m for m in MODULES if m.startswith("games.") and layer(m) is None
             and m not in ("games", *(f"games.{g}" for g in GAMES))]
    assert loose == [], "add the module to a layer's package (docs/architecture.md)"


@pytest.mark.parametrize("name", [name for name, _ in LAYERS])
def test_no_import_reaches_a_higher_layer(name: str) -> None:
    rank = [n for n, _ in LAYERS].index(name)
    upward = []
    for module in MODULES:
        if layer(module) != rank:
            continue
        for target, line in imports(module):
            above = layer(target)
            if above is not None and above > rank:
                upward.append(f"{MODULES[module].relative_to(ROOT)}:{line} imports {target} ({LAYERS[above][0]})")
    assert upward == []


def test_transports_reach_the_service_through_its_door() -> None:
    """A transport, the API, the site and the commands use the service's door, presence (who is
    connected) and push (group names and encodings), nothing else of the service, and never the
    engine cache. Stored records (downloads, verification) they may read directly."""
    allowed = {"games.service.door", "games.service.presence", "games.service.push"}
    top = [prefix for _, prefixes in LAYERS[5:] for prefix in prefixes]
    strays = []
    for module in MODULES:
        if not any(module == p or module.startswith(p + ".") for p in top):
            continue
        for target, line in imports(module):
            if layer(target) in (2, 4) and target not in allowed:
                strays.append(f"{MODULES[module].relative_to(ROOT)}:{line} imports {target}")
    assert strays == []


def test_no_game_package_imports_the_lobby_consumer() -> None:
    edges = graph()
    strays = [f"{m} imports it" for m in MODULES if m.startswith(tuple(f"games.{g}." for g in GAMES))
              and "games.transport.lobby_consumer" in edges[m]]
    assert strays == []
