"""A pure-Python riichi mahjong core behaving exactly like Majiang (@kobalab/majiang-core).

No Django here. Modules (Majiang's vocabulary), imported by module path, e.g.
``from games.riichi.engine.hule import hule, hule_param``:

- ``rule``: ``rule(**overrides)``, Majiang.rule() options and defaults.
- ``tile``: tile and meld notation (``valid_pai``, ``valid_mianzi``, ``zhenbaopai``).
- ``shoupai``: ``Shoupai``, the hand, with parse/format and the moves.
- ``xiangting``: shanten numbers and waits (``xiangting``, ``tingpai``).
- ``hule``: scoring (``hule``, ``hule_param``, ``hule_mianzi``).
- ``hule_shapes``: precomputed per-suit-shape and per-meld counters for ``hule``'s fast path.
- ``allow``: the rule-aware checks of Majiang.Game (``get_dapai``, ``allow_lizhi``, ...).
- ``he``, ``shan``: the river (``He``) and the wall (``Shan``).
- ``game``: ``Game``, Majiang.Game's flow as a resumable state machine (and its paifu).
- ``waits``: exact fast shanten-0 and waits for the flow.
- ``replay``: replay a paifu decision by decision (Majiang.Dev.Game) and report divergences.
- ``table``: ``RiichiGame``, the platform's ``games.core.engine.Engine`` (imports ``games.core.engine``).

The package namespace deliberately does not re-export the functions named like their modules
(``rule``, ``xiangting``, ``hule``): that would hide the modules themselves
(``import games.riichi.engine.hule as m`` would give the function). See docs/riichi-engine.md.
"""

from games.riichi.engine.he import He
from games.riichi.engine.shan import Shan
from games.riichi.engine.shoupai import Shoupai, ShoupaiError

__all__ = ["He", "Shan", "Shoupai", "ShoupaiError"]
