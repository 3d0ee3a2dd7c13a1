"""The tool interface: tools get plain :class:`ToolEvent` s (no Qt widgets) and push commands."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import ClassVar

from engine.geometry import Edge, Square
from mapeditor.document import MapDocument

_strokes = itertools.count(1)


def new_stroke_id() -> int:
    """A fresh merge key: every command of one drag stroke shares it (one undo step)."""
    return next(_strokes)


@dataclass(frozen=True)
class ToolEvent:
    """A mouse event in map terms.

    ``kind`` is ``"press"``, ``"move"`` or ``"release"``; ``square`` the square under the cursor
    (possibly outside the grid); ``edge`` the side of that square nearest the cursor;
    ``button`` ``"left"``/``"right"``/``""`` (move without a button).
    """

    kind: str
    square: Square
    edge: Edge
    button: str = "left"
    shift: bool = False
    ctrl: bool = False


@dataclass
class Tool:
    """Base class. Subclasses set the class attributes and override the handlers they need."""

    document: MapDocument
    name: ClassVar[str] = ""
    shortcut: ClassVar[str] = ""
    hint: ClassVar[str] = ""
    preview: set[Square] = field(default_factory=set)
    """Squares the scene highlights while the tool is in use."""
    preview_edges: list[Edge] = field(default_factory=list)
    notice: str = ""
    """Why the last event did nothing (the window shows it in the status bar, then clears it)."""

    @property
    def tooltip(self) -> str:
        return f"{self.name} ({self.shortcut})\n{self.hint}" if self.shortcut else self.name

    def press(self, event: ToolEvent) -> None:
        """A mouse button went down."""

    def move(self, event: ToolEvent) -> None:
        """The cursor moved to another square or edge (button held or not)."""

    def release(self, event: ToolEvent) -> None:
        """The mouse button went up."""

    def cancel(self) -> None:
        """Drop a drag in progress (Esc, or another tool chosen): nothing is committed."""
        self.preview = set()
        self.preview_edges = []


def not_land_notice(what: str, square: Square) -> str:
    """The status-bar words for a click on water or outside the map with a land-only tool."""
    return (
        f"{what} go on map squares: ({square[0]}, {square[1]}) is water or outside the map. "
        "Paint it with the Land brush (B) first."
    )


def line(a: Square, b: Square) -> list[Square]:
    """Squares on the straight line from ``a`` to ``b`` (Bresenham), both ends included.

    Fast drags skip squares between two mouse events; painting the line between them leaves
    no gaps.
    """
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    out = []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def rectangle(a: Square, b: Square) -> list[Square]:
    """Every square of the rectangle with corners ``a`` and ``b``."""
    (x0, y0), (x1, y1) = a, b
    return [
        (x, y)
        for y in range(min(y0, y1), max(y0, y1) + 1)
        for x in range(min(x0, x1), max(x0, x1) + 1)
    ]
