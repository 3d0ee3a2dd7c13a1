"""``python -m engine info MAP``: a summary of a map (square counts, elements) and an ASCII drawing.

``python -m engine info`` without a map says which build of the engine is running (pure Python
or the compiled build, see :mod:`engine.build`); ``python -m engine info --map-schema`` prints the
map file schema with the registry's rule-set names filled in
(:func:`engine.rules.registry.map_schema`).

Exit codes: 0 printed, 2 unreadable or not a map (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.ascii import draw_map
from engine.build import build_summary
from engine.errors import MapFormatError
from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.rules.registry import map_schema
from engine.validation import coastline_length, land_parts


def register(sub: Any) -> None:
    p = sub.add_parser(
        "info",
        help="summary and ASCII drawing of a map",
        description="Print a map's metadata, square counts and an ASCII drawing; without a "
        "map, which build of the engine is running.",
    )
    p.add_argument(
        "map", metavar="MAP", nargs="?", help="map file (.json); without it: the engine's build"
    )
    p.add_argument(
        "--map-schema",
        action="store_true",
        help="print the map file schema, its rule-set names those of this engine's registry",
    )
    p.set_defaults(func=run)


def summary(m: MapDef) -> list[tuple[str, str]]:
    """``(label, value)`` rows describing ``m``."""
    s = m.setup
    stacks = m.stack_squares()
    gated = m.gated_squares()
    rows = [
        ("Map", f"{m.name} ({m.id})"),
        ("Author", m.author or "-"),
        ("Rule set", m.rule_set.name),
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


def details(m: MapDef) -> list[str]:
    """One line per large city, border feature, ferry and island."""
    lines = []
    for cid in sorted(m.large_cities):
        c = m.large_cities[cid]
        opens = ", ".join(str(e) for e in c.open_sides()) or "none"
        roads = ", ".join(str(e) for e in sorted(e for e, k in c.edges.items() if k == "road"))
        lines.append(
            f"Large city {c.name} ({cid}): {len(c.squares)} square(s), {c.coats_of_arms} coat(s) "
            f"of arms, open sides {opens}" + (f", roads {roads}" if roads else "")
        )
    for e in sorted(m.border_features, key=lambda e: (e.y, e.x, e.side.ordinal)):
        f = m.border_features[e]
        lines.append(
            f"Border {f.kind.value} at {e} to {f.neighbour or '?'}, {f.coats_of_arms} coat(s) of arms"
        )
    for fid in sorted(m.ferries):
        ferry = m.ferries[fid]
        lines.append(f"Ferry {fid}: {ferry.a} <-> {ferry.b}, {ferry.coats_of_arms} coat(s) of arms")
    for iid in sorted(m.islands):
        i = m.islands[iid]
        roles: dict[str, int] = {}
        for info in i.squares.values():
            roles[info.role.value] = roles.get(info.role.value, 0) + 1
        kinds = ", ".join(f"{n} {role}" for role, n in sorted(roles.items())) or "no squares"
        colour = i.colour.value if i.colour is not None else "no colour"
        lines.append(f"Island {i.name} ({iid}), {colour}: {kinds}")
    return lines


def run(args: argparse.Namespace) -> int:
    if args.map_schema:
        print(json.dumps(map_schema(), indent=2))
        return 0
    if args.map is None:
        print(build_summary())
        return 0
    try:
        m = load_map(args.map)
    except MapFormatError as exc:
        print(exc, file=sys.stderr)
        return 2
    rows = summary(m)
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label + ':':<{width + 1}} {value}")
    extra = details(m)
    if extra:
        print()
        print("\n".join(extra))
    print()
    print(draw_map(m), end="")
    return 0
