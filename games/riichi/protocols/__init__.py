"""Riichi wire protocols. ``majiang``: seed 001's Game↔Player protocol of Majiang (電脳麻将) spoken
natively over WebSocket. See docs/protocols/majiang.md."""
