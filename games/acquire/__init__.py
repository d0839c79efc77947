"""Acquire: the hotel-chain board game (engine in ``games.acquire.engine``)."""
