"""Riichi mahjong (Majiang / 電脳麻将 rules and protocol)."""
