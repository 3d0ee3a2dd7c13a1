"""``python -m engine new-from-country NAME|GEOJSON -o OUT.json``: a new map from a real country.

Rasterises the country outline (Natural Earth by English, native or common name or ISO code,
needs the ``geo`` extra; or any GeoJSON file) into map squares and writes the map, cropped to the
land with one square of margin. Without ``--columns``/``--km`` the square size is chosen for
``--squares`` land squares (default: 1.6 x the middle of a 110-120 tile pool). Prints the grid,
the land parts with their sizes, the biggest city candidates, the neighbours along the border and
every note (islands kept or too small, cities left out or moved, city names in the local
language or why not). The map, its neighbours and its cities are named in the country's language
(Sverige, Norge, Göteborg); ``--geonames-names`` keeps the data's English names. ``--draft`` writes a playable
first draft (:mod:`engine.geo.draft`). The neighbour names are kept in the map's editor settings, as
the editor's dialog does. Exit codes: 0 written, 2 bad input (unknown country, bad GeoJSON,
missing geo extra, bad sizes, unwritable output).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from engine.errors import EngineError
from engine.geo.country import import_country
from engine.geo.draft import keep_import_settings, make_draft
from engine.gridshape import size_advice, target_squares
from engine.islands import land_parts
from engine.mapio import save_map


def register(sub: Any) -> None:
    p = sub.add_parser(
        "new-from-country",
        help="new map from a real country outline (Natural Earth name or GeoJSON)",
        description="Rasterise a country outline into a new map file.",
    )
    p.add_argument(
        "source",
        metavar="NAME|GEOJSON",
        help="country name or ISO code (several joined with '+', e.g. Belgium+Netherlands), "
        "or a GeoJSON file",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument("--columns", type=int, help="grid width in squares")
    size.add_argument("--km", type=float, help="square size in km")
    size.add_argument(
        "--squares",
        type=int,
        help="choose the square size for about this many land squares (default: 1.6 x the "
        "middle of a 110-120 tile pool)",
    )
    p.add_argument(
        "--no-crop", action="store_true", help="keep the full grid (default: crop to the land)"
    )
    p.add_argument(
        "--draft",
        action="store_true",
        help="write a playable first draft: start squares, large cities, towns, border roads, "
        "ferries, land borders and a fitting tile pool",
    )
    p.add_argument(
        "--min-land",
        type=float,
        default=0.5,
        help="least share of a square that must be land, 0..1 (default 0.5)",
    )
    p.add_argument(
        "--bbox",
        metavar="W,S,E,N",
        help="keep only this longitude/latitude window (default: drop overseas parts)",
    )
    p.add_argument("--cities", type=int, default=20, help="city candidates to list (default 20)")
    p.add_argument(
        "--geonames-names",
        action="store_true",
        help="English names for the map, its neighbours and its cities (GeoNames' main names: "
        "Sweden, Norway, Gothenburg) instead of the country's own (Sverige, Norge, Göteborg)",
    )
    p.add_argument("--id", dest="map_id", help="map id (default: from the name)")
    p.add_argument("--name", help="map name (default: the country's name)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json", help="map file to write")
    p.add_argument("--json", action="store_true", help="print a JSON summary instead")
    p.set_defaults(func=run)


def _bbox(text: str | None) -> tuple[float, float, float, float] | None:
    if text is None:
        return None
    try:
        west, south, east, north = (float(v) for v in text.split(","))
    except ValueError:
        raise EngineError(f"--bbox must be W,S,E,N in degrees, got {text!r}") from None
    if not (west < east and south < north):
        raise EngineError(f"--bbox {text!r} is empty (need W < E and S < N)")
    return (west, south, east, north)


def run(args: argparse.Namespace) -> int:
    source: Any = args.source
    is_file = source.lower().endswith((".json", ".geojson")) or "/" in source or "\\" in source
    if not is_file and "+" in source:
        source = [part.strip() for part in source.split("+") if part.strip()]
    notes: list[str] = []
    try:
        bbox = _bbox(args.bbox)
        squares = None
        if args.columns is None and args.km is None:
            squares = args.squares if args.squares is not None else target_squares()
        result = import_country(
            source,
            columns=args.columns,
            km=args.km,
            squares=squares,
            min_land=args.min_land,
            bbox=bbox,
            cities=max(0, args.cities) if not args.draft else max(40, args.cities),
            map_id=args.map_id,
            name=args.name,
            crop=None if args.no_crop else 1,
            keep_small_parts=True,
            local_names=not args.geonames_names,
        )
        if args.draft:
            draft = make_draft(result)
            m = draft.map
            notes = draft.notes
        else:
            m = result.map
            notes = result.notes
            keep_import_settings(m, result)
        save_map(m, args.output)
    except (EngineError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    parts = land_parts(m)
    advice = size_advice(len(m.placeable_squares()))
    if advice.too_many:
        print(f"warning: {advice.message}", file=sys.stderr)
    borders = Counter(result.neighbours.values())
    if args.json:
        out = {
            "output": str(args.output),
            "map": m.id,
            "width": m.width,
            "height": m.height,
            "squares": len(m.land),
            "projection": result.projection.to_dict(),
            "cities": [
                {"name": c.name, "population": c.population, "x": c.square[0], "y": c.square[1]}
                for c in result.cities
            ],
            "neighbours": dict(sorted(borders.items())),
            "parts": [len(p) for p in parts],
            "notes": notes,
            "size": advice.message,
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(
        f"{args.output}: {m.name}, {m.width}x{m.height} grid, {len(m.land)} squares of "
        f"{result.projection.km:.1f} km"
    )
    for y in range(m.height):
        print("".join("#" if (x, y) in m.land else "." for x in range(m.width)))
    print(f"{advice.message}; land parts: {', '.join(str(len(p)) for p in parts)} squares")
    if args.draft:
        print(
            f"draft: {len(m.start_squares)} start squares, {len(m.large_cities)} large cities, "
            f"{len(m.towns)} towns, {len(m.border_features)} border features, "
            f"{len(m.ferries)} ferries, tile pool {m.setup.tile_pool_min}-{m.setup.tile_pool_max}"
        )
    if notes:
        print("notes:")
        for note in notes:
            print(f"  {note}")
    if result.cities:
        print("city candidates (biggest first):")
        for c in result.cities:
            print(f"  {c.name:<24} {c.population:>10,}  square ({c.square[0]}, {c.square[1]})")
    if borders:
        print("neighbours along the border (edges):")
        for name, count in sorted(borders.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {name}: {count}")
    return 0
