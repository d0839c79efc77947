"""A pure-Python Acquire engine implementing the platform's ``games.engine.Engine`` contract.

Nothing here imports Django: the engine is one game's state plus the rules that move it.
"""

from .game import AcquireGame

__all__ = ["AcquireGame"]
