"""The engine's error family. Every error is a ``ValueError`` with a message naming what is wrong."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class MapFormatError(EngineError):
    """A map file cannot be read: not JSON, not a map, or structurally invalid.

    ``source`` names the file (or ``"<data>"``), ``path`` the JSON path of the offending field.
    """

    def __init__(self, message: str, *, source: str = "<data>", path: str = "") -> None:
        self.source = source
        self.path = path
        where = f"{source}: {path}: " if path else f"{source}: "
        super().__init__(where + message)
        self.reason = message


class TileSetError(EngineError):
    """A tile set file is invalid, or a tile id is unknown."""


class IllegalMoveError(EngineError):
    """An action that the rules do not allow now; the game state is unchanged."""


class RecordError(EngineError):
    """A game record cannot be read or replayed."""
