"""The seats of an online table: who plays each colour, their join token and their presence.

A seat is a human's or a bot's, chosen at set-up. A human seat has an unguessable join token
(:func:`secrets.token_urlsafe`); whoever holds it acts for that seat, and nobody else does. A
human seat whose player has been away longer than the table's takeover delay is played by a bot
until the player returns (:meth:`SeatState.bot_plays`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

TOKEN_BYTES = 18
"""Random bytes per token (24 URL-safe characters: 144 bits, beyond guessing)."""

TAKEOVER_BOT = "greedy"
"""The bot that stands in for an absent human (fast; it only has to keep the game moving)."""

KINDS = ("human", "random", "greedy", "mcts")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class SeatState:
    """One seat: set-up data (saved) and presence (not saved: a restarted host has no one)."""

    name: str
    colour: str
    kind: str = "human"
    """``human`` or a bot kind (``random``, ``greedy``, ``mcts``)."""
    strength: int = 3
    token: str = field(default_factory=new_token)
    connections: int = 0
    away_since: float | None = None
    """When the last connection of a human seat closed (``None``: here, or never came)."""
    turn_started: float | None = None
    """When the seat's current turn began (the move clock)."""

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"

    def bot_plays(self, now: float, takeover_after: float | None) -> bool:
        """Whether a bot acts for this seat now: a bot seat, or a human away for longer than
        ``takeover_after`` seconds (``None``: never taken over)."""
        if self.is_bot:
            return True
        if takeover_after is None or self.connections > 0 or self.away_since is None:
            return False
        return now - self.away_since >= takeover_after

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "colour": self.colour,
            "kind": self.kind,
            "strength": self.strength,
            "token": self.token,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatState:
        return cls(
            name=str(data["name"]),
            colour=str(data["colour"]),
            kind=str(data["kind"]),
            strength=int(data["strength"]),
            token=str(data["token"]),
        )
