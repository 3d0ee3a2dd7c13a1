"""ASCII drawing of a map: one character per square, for terminals, logs and tests.

Characters (see :data:`LEGEND`), highest priority first when a square holds several things::

    *  chip (only with a chip layout overlay)     C  large-city square
    S  start square                               ~  wave square
    =  island stack square                        t  town
    g  ferry-gated island square                  p b o  chip square (purple, light blue, orange)
    #  other map square                           .  outside the map
    M  Isle of Man (outside the map squares)

Each square is followed by a space so the drawing keeps the map's proportions in a terminal.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from engine.geometry import Square
from engine.mapdef import Colour, MapDef

LEGEND: dict[str, str] = {
    "#": "map square",
    "S": "start square",
    "t": "town",
    "C": "large-city square",
    "~": "wave square",
    "=": "island stack square",
    "g": "ferry-gated island square",
    "p": "purple chip square",
    "b": "light blue chip square",
    "o": "orange chip square",
    "M": "Isle of Man",
    ".": "outside the map",
    "*": "chip (layout)",
}
"""Character → meaning, in the order the legend is printed."""

_CHIP_CHAR = {Colour.PURPLE: "p", Colour.LIGHT_BLUE: "b", Colour.ORANGE: "o"}


def square_char(m: MapDef, square: Square, chips: frozenset[Square] = frozenset()) -> str:
    """The character drawn for ``square``."""
    if square in chips:
        return "*"
    if square not in m.land:
        return "M" if square == m.isle_of_man else "."
    if m.city_at(square) is not None:
        return "C"
    if square in m.start_squares:
        return "S"
    if square in m.waves:
        return "~"
    island = m.island_square(square)
    if island is not None and island[1].role.value == "stack":
        return "="
    if square in m.towns:
        return "t"
    if island is not None and island[1].role.value == "gated":
        return "g"
    colour = m.chip_squares.get(square)
    if colour is not None:
        return _CHIP_CHAR[Colour(colour)]
    return "M" if square == m.isle_of_man else "#"


def draw_map(
    m: MapDef, *, chips: Iterable[Square] | None = None, rulers: bool = True, legend: bool = True
) -> str:
    """The map as text, one row per grid row; ``chips`` overlays a chip layout as ``*``.

    ``rulers`` adds column numbers (last digit) on top and row numbers on the left; ``legend``
    appends the characters that occur in the drawing with their meaning.
    """
    overlay = frozenset(chips or ())
    lines: list[str] = []
    margin = len(str(max(m.height - 1, 0))) + 1 if rulers else 0
    if rulers:
        lines.append(" " * margin + " ".join(str(x % 10) for x in range(m.width)))
    used: set[str] = set()
    for y in range(m.height):
        chars = [square_char(m, (x, y), overlay) for x in range(m.width)]
        used.update(chars)
        row = " ".join(chars)
        lines.append((f"{y:>{margin - 1}} " if rulers else "") + row)
    if legend:
        items = [f"{ch} {text}" for ch, text in LEGEND.items() if ch in used]
        lines.append("")
        lines.extend(textwrap.wrap("Legend: " + ", ".join(items), 100, subsequent_indent="  "))
    return "\n".join(lines) + "\n"


__all__ = ["LEGEND", "draw_map", "square_char"]
