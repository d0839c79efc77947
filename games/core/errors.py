"""Errors the platform answers with. Codes are part of the wire protocol (docs/protocols/lobby.md)."""

from __future__ import annotations


class GameError(Exception):
    """A request that was refused; nothing was changed."""

    status = 400

    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"{code}: {reason}")

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "reason": self.reason}


class NotFound(GameError):
    status = 404


class Forbidden(GameError):
    status = 403


class Conflict(GameError):
    status = 409
