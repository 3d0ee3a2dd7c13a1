"""Actions a player takes: tile placements (with an optional meeple), passes, rule-set actions.

Every action is a small frozen value with a text form (``parse``/``str`` round-trip) and a JSON
form (``to_dict``/``action_from_dict``) used by game records.

Placement text: ``"3,4 R90"``; with a meeple ``"3,4 R90 +NL"``. Meeple locations are in **board
orientation**: ``N E S W`` for cities and roads, half-edges ``NL NR EL ER SL SR WL WR`` for fields,
``I`` for a field touching no edge, ``C`` for a monastery.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import RecordError
from engine.geometry import Square

if TYPE_CHECKING:
    from engine.rules.base import Rules

LOCATIONS = ("N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "I", "C")
_PLACE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s+R(\d+)(?:\s+\+([A-Z]+))?\s*$")


class Action:
    """Base of every action. ``type`` names it in records."""

    __slots__ = ()
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


class Placement(tuple[Square, int]):  # noqa: SLOT001
    """A tile on a square at a rotation (clockwise degrees): an immutable ``(square, rotation)``."""

    __slots__ = ()

    def __new__(cls, square: Square, rotation: int) -> Placement:
        return tuple.__new__(cls, (square, rotation))

    @property
    def square(self) -> Square:
        return self[0]

    @property
    def rotation(self) -> int:
        return self[1]

    def __str__(self) -> str:
        return f"{self[0][0]},{self[0][1]} R{self[1]}"

    def __repr__(self) -> str:
        return f"Placement({self[0]!r}, {self[1]!r})"

    def __getnewargs__(self) -> tuple[Square, int]:
        return (self[0], self[1])


class Move(tuple[Square, int, str | None], Action):  # noqa: SLOT001 - a tuple: cheap to create, bots make thousands
    """Place the current tile on ``square`` at ``rotation``, optionally with a meeple.

    An immutable ``(square, rotation, meeple)`` triple; compare and hash like a tuple.
    """

    __slots__ = ()
    type: ClassVar[str] = "place"

    def __new__(cls, square: Square, rotation: int, meeple: str | None = None) -> Move:
        return tuple.__new__(cls, (square, rotation, meeple))

    @property
    def square(self) -> Square:
        return self[0]

    @property
    def rotation(self) -> int:
        return self[1]

    @property
    def meeple(self) -> str | None:
        return self[2]

    @property
    def placement(self) -> Placement:
        return Placement(self[0], self[1])

    def __str__(self) -> str:
        text = f"{self[0][0]},{self[0][1]} R{self[1]}"
        return f"{text} +{self[2]}" if self[2] else text

    def __repr__(self) -> str:
        return f"Move({self[0]!r}, {self[1]!r}, {self[2]!r})"

    def __getnewargs__(self) -> tuple[Square, int, str | None]:
        return (self[0], self[1], self[2])

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
            "x": self[0][0],
            "y": self[0][1],
            "rotation": self[1],
            "meeple": self[2],
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


def action_from_dict(data: Any, rule_parsers: Sequence[Rules] | None = None) -> Action:
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
