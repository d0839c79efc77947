"""The riichi bot's levels: each a chooser with the house bot's interface, ``choose(view, legal, rng)``.

- ``"beginner"``: the house bot without its defence (``house.choose_without_defence``) — tile
  efficiency by acceptance alone, calls only on value honours and towards tanyao, and it plays
  its hand on against a riichi: sensible, but it misses defence and value;
- ``"intermediate"``: the house bot (``house.py``) — the same, with a fixed fold against any
  riichi unless tenpai (genbutsu, suji, then the least dangerous tile);
- ``"strong"``: the strong bot (``strong.py``): value-weighted discards, tile-by-tile danger
  against riichi and open hands with push/fold by expected points, calls by value and speed,
  placement awareness at the last hand.

All three read only what their seat may see; the ``rng`` only breaks ties, so a level is
deterministic for a given seed. The dict's order is the order of strength, the order the lobby
shows them in. Measured by ``bench/bot_levels.py`` (also ``bench/bot_strength.py --levels``),
every pair on the engine alone, 200 east-south games a pair (docs/performance.md, issue 31, third
pass): mean rank strong 2.36, intermediate 2.52, beginner 2.62; strong − beginner −0.46 (95% CI
−0.63 to −0.29) in mean rank per table, separated; strong − intermediate −0.12 (−0.30 to +0.06)
and intermediate − beginner −0.03 (−0.21 to +0.15), in that order but within the noise. The
beginner deals in on 19-20% of hands against 10-12% for the others. Against majiang-ai the
strong level is level with it (+0.085, 95% CI −0.090 to +0.260, over 200 tables, 400 seats a
side: docs/performance.md, issue 31, fourth pass), not better.
"""

from __future__ import annotations

from games.riichi.bots import house, strong

LEVELS: dict[str, strong.Choose] = {
    "beginner": house.choose_without_defence,
    "intermediate": house.choose,
    "strong": strong.choose,
}
