"""Paper sizes and the board's physical size (pure: no Qt, so the command line can use it).

>>> from engine.mapdef import MapDef
>>> m = MapDef("m", "M", 16, 21)
>>> board_size_mm(m)
(720.0, 945.0)
>>> square_mm_to_fit(m, 60, 80)
37.5
"""

from __future__ import annotations

import math

from engine.mapdef import MapDef

PAPERS: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "A2": (420.0, 594.0),
    "A1": (594.0, 841.0),
    "A0": (841.0, 1189.0),
    "Letter": (215.9, 279.4),
    "Legal": (215.9, 355.6),
    "Tabloid": (279.4, 431.8),
}
"""Portrait paper sizes in millimetres: home printers' A4/A3 and US Letter/Legal/Tabloid, and the
plotters' A2–A0 (a copy shop prints a whole board on one or two of those)."""


SAFE_ZONE_MM = 5.0
"""A print shop's safe zone: nothing that matters (cartouche, legend, scale) within this of the
trim, since the cut may wander that far."""
MIN_SQUARE_MM = 10.0
MAX_SQUARE_MM = 200.0
"""The printed square's bounds (the Properties field's)."""


def board_size_mm(m: MapDef) -> tuple[float, float]:
    """The printed board's width and height in millimetres."""
    return (m.width * m.square_size_mm, m.height * m.square_size_mm)


def square_mm_to_fit(m: MapDef, width_cm: float, height_cm: float) -> float:
    """The largest square (whole tenths of a millimetre) with which the grid fits a
    ``width_cm`` × ``height_cm`` board, within :data:`MIN_SQUARE_MM`..:data:`MAX_SQUARE_MM`.

    :raises ValueError: for a size that is not positive.
    """
    if width_cm <= 0 or height_cm <= 0:
        raise ValueError(f"a board of {width_cm:g} × {height_cm:g} cm: give positive sizes")
    best = min(width_cm * 10 / m.width, height_cm * 10 / m.height)
    fitted = math.floor(best * 10 + 1e-9) / 10
    return max(MIN_SQUARE_MM, min(MAX_SQUARE_MM, fitted))
