"""Exports of a finished riichi game's Majiang paifu to other formats (pure Python, no Django).

- ``tenhou6.to_tenhou6(paifu, rule)``: the tenhou.net/6 JSON log (Tenhou's viewer, mjai-reviewer).
- ``mjai.to_mjai(paifu, rule)``: the mjai event list (Mortal, mjai-reviewer, akochan).

The mapping and every known difference: docs/records.md.
"""

from games.riichi.records.exports.mjai import to_mjai
from games.riichi.records.exports.tenhou6 import to_tenhou6

__all__ = ["to_mjai", "to_tenhou6"]
