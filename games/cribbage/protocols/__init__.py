"""Cribbage wire protocols. ``cribbagebber``: the seed's CRIBBAGEBBER line protocol (version 0.1),
``framing``: its lines on WebSocket frames and TCP streams. See docs/protocols/cribbage.md."""
