"""A pure-Python cribbage engine implementing the platform's ``games.core.engine.Engine`` contract.

Nothing here imports Django. See docs/cribbage-engine.md for the contract.
"""

from games.cribbage.engine.game import CribbageGame

__all__ = ["CribbageGame"]
