"""A post-game review of one seat's riichi decisions beside the strong bot's (docs/review.md).

- ``measure``: the figures of one choice from the seat's own view (shanten, acceptance, danger per
  threatening opponent, the hand's expected value, an equity to compare choices by);
- ``build``: walks a finished game's action log through a fresh engine and, at each decision of
  the seat that had a real choice, sets the player's choice beside the strong bot's.

Pure: no Django. Only what the seat saw is read (``engine.view(seat)``, never revealed, and
``engine.legal_actions(seat)``), as the bots themselves read it.
"""
