"""Actions a player takes: tile placements (with an optional meeple), passes, rule-set actions.

Every action is a small frozen value with a text form (``parse``/``str`` round-trip) and a JSON
form (``to_dict``/``action_from_dict``) used by game records.

Placement text: ``"3,4 R90"``; with a meeple ``"3,4 R90 +NL"``. Meeple locations are in **board
orientation**: ``N E S W`` for cities and roads, half-edges ``NL NR EL ER SL SR WL WR`` for fields,
``I`` for a field touching no edge, ``C`` for a monastery.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import RecordError
from engine.geometry import Square

LOCATIONS = ("N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "I", "C")
_PLACE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s+R(\d+)(?:\s+\+([A-Z]+))?\s*$")


class Action:
    """Base of every action. ``type`` names it in records."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on a square at a rotation (clockwise degrees)."""

    square: Square
    rotation: int

    def __str__(self) -> str:
        return f"{self.square[0]},{self.square[1]} R{self.rotation}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Place the current tile on ``square`` at ``rotation``, optionally with a meeple."""

    type: ClassVar[str] = "place"
    square: Square
    rotation: int
    meeple: str | None = None

    @property
    def placement(self) -> Placement:
        return Placement(self.square, self.rotation)

    def __str__(self) -> str:
        text = f"{self.square[0]},{self.square[1]} R{self.rotation}"
        return f"{text} +{self.meeple}" if self.meeple else text

    @classmethod
    def parse(cls, text: str) -> Move:
        """``Move`` from ``"x,y Rdeg"`` or ``"x,y Rdeg +LOC"``; ``ValueError`` otherwise."""
        m = _PLACE_RE.match(text)
        if not m or (m.group(4) and m.group(4) not in LOCATIONS):
            raise ValueError(f"not a move: {text!r} (expected e.g. '3,4 R90' or '3,4 R90 +NL')")
        return cls((int(m.group(1)), int(m.group(2))), int(m.group(3)), m.group(4))

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "place",
            "x": self.square[0],
            "y": self.square[1],
            "rotation": self.rotation,
            "meeple": self.meeple,
        }


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the current action phase (after placing: go on to scoring / the next player)."""

    type: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw face down from the pile (offered only when a rule set offers an alternative)."""

    type: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw"}


def action_from_dict(data: Any, rule_parsers: list[Any] | None = None) -> Action:
    """Read an action from its JSON form; rule modules parse their own types.

    :raises RecordError: naming what is wrong.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RecordError(f"an action must be an object with a 'type', got {data!r}")
    kind = data["type"]
    if kind == "place":
        try:
            x, y, rot = int(data["x"]), int(data["y"]), int(data["rotation"])
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"place action needs integer x, y, rotation: {data!r}") from None
        meeple = data.get("meeple")
        if meeple is not None and meeple not in LOCATIONS:
            raise RecordError(f"unknown meeple location {meeple!r} in {data!r}")
        return Move((x, y), rot, meeple)
    if kind == "pass":
        return Pass()
    if kind == "draw":
        return Draw()
    for rules in rule_parsers or ():
        action = rules.action_from_dict(data)
        if action is not None:
            return action
    raise RecordError(f"unknown action type {kind!r}")
