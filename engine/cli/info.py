"""``python -m engine info MAP``: a summary of a map (square counts, elements) and an ASCII drawing.

Exit codes: 0 printed, 2 unreadable or not a map (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.ascii import draw_map
from engine.errors import MapFormatError
from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.validation import coastline_length, land_parts


def register(sub: Any) -> None:
    p = sub.add_parser(
        "info",
        help="summary and ASCII drawing of a map",
        description="Print a map's metadata, square counts and an ASCII drawing.",
    )
    p.add_argument("map", metavar="MAP", help="map file (.json)")
    p.set_defaults(func=run)


def summary(m: MapDef) -> list[tuple[str, str]]:
    """``(label, value)`` rows describing ``m``."""
    s = m.setup
    stacks = m.stack_squares()
    gated = m.gated_squares()
    rows = [
        ("Map", f"{m.name} ({m.id})"),
        ("Author", m.author or "-"),
        ("Rule set", m.rule_set.value),
        ("Grid", f"{m.width} x {m.height} squares of {m.square_size_mm:g} mm"),
        ("Map squares", str(len(m.land))),
        ("Placeable squares", str(len(m.placeable_squares()))),
        ("Large-city squares", str(len(m.city_squares()))),
        ("Large cities", ", ".join(c.name or c.id for c in m.large_cities.values()) or "-"),
        ("Towns", str(len(m.towns))),
        (
            "Start squares",
            f"{len(m.start_squares)} ("
            + ", ".join(m.start_squares[sq].name for sq in sorted(m.start_squares))
            + f"), {s.start_squares_used} used",
        ),
        ("Border features", str(len(m.border_features))),
        ("Ferries", str(len(m.ferries))),
        ("Islands", str(len(m.islands))),
        ("Gated island squares", str(len(gated))),
        ("Stack squares", str(len(stacks))),
        ("Wave squares", str(len(m.waves))),
        ("Chip squares", str(len(m.chip_squares))),
        ("Tracks", str(len(m.tracks))),
        ("Isle of Man", "-" if m.isle_of_man is None else f"{m.isle_of_man}"),
        ("Land parts", str(len(land_parts(m.land)))),
        ("Coastline edges", str(coastline_length(m.land))),
        ("Chips laid out", str(s.chip_count)),
        ("Tile pool", f"{s.tile_pool_min}-{s.tile_pool_max} tiles"),
        ("Meeples per player", str(s.meeples_per_player)),
    ]
    return rows


def run(args: argparse.Namespace) -> int:
    try:
        m = load_map(args.map)
    except MapFormatError as exc:
        print(exc, file=sys.stderr)
        return 2
    rows = summary(m)
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label + ':':<{width + 1}} {value}")
    print()
    print(draw_map(m), end="")
    return 0
