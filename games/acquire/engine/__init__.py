"""A pure-Python Acquire engine implementing the platform's ``games.core.engine.Engine`` contract.

Nothing here imports Django: the engine is one game's state plus the rules that move it.
"""

from games.acquire.engine.game import AcquireGame

__all__ = ["AcquireGame"]
