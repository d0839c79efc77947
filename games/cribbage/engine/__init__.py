"""A pure-Python cribbage engine implementing the platform's ``games.engine.Engine`` contract.

Nothing here imports Django. See docs/cribbage-engine.md for the contract.
"""

from .game import CribbageGame

__all__ = ["CribbageGame"]
