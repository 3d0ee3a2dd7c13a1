"""The maps of the later presets (Taiwan, Ukraine, Nordics), designed on the country import.

Commands (the import needs the optional ``geo`` extra)::

    python -m engine new-from-country Taiwan --draft -o /tmp/taiwan.json
    python -m engine new-from-country Ukraine --draft -o /tmp/ukraine.json
    python -m engine new-from-country Norway+Sweden+Denmark+Finland --draft -o /tmp/nordics.json
    python -m engine.geo.mapbuild.presetmaps /tmp/taiwan.json /tmp/ukraine.json /tmp/nordics.json

Each draft gets, by the real longitude and latitude of its places (the import's projection), the
prints its preset needs (``maps-rules-notes.md`` §3.7-3.9): Taiwan's two start squares (Mount
Snow, Mount Jade) and its ferry-gated islands with coats of arms; Ukraine's Chumak squares on the
salt roads; the Nordics' chip spaces (a square of every large city, then towns), highlights and
lake waves. The preset is embedded as the map's rule set. This is a build tool of the repository,
not part of the installed ``engine`` package.
"""

from __future__ import annotations

import sys
from collections import deque

from engine.geo.country import Projection
from engine.geometry import Square
from engine.mapdef import (
    Colour,
    EmbeddedRuleSet,
    Island,
    IslandRole,
    IslandSquare,
    MapDef,
    MarkSquare,
    StartSquare,
)
from engine.mapio import load_map, save_map
from engine.resources import maps_dir
from engine.rules.data.ruleset import preset_spec

TAIWAN_STARTS = {"Mount Snow": (121.23, 24.38), "Mount Jade": (120.96, 23.47)}
TAIWAN_ISLANDS = {"Penghu": ("Magong", 1), "Kinmen": ("Jincheng", 1)}
"""Island -> (its town, coats of arms on the town's square)."""
CHUMAK = {
    "Perekop": (33.70, 46.15),
    "Kherson": (32.62, 46.64),
    "Mykolaiv": (31.99, 46.97),
    "Uman": (30.22, 48.75),
    "Kremenchuk": (33.42, 49.07),
    "Poltava": (34.55, 49.59),
    "Bakhmut": (38.00, 48.60),
}
"""Chumak squares: places on the salt and fish roads of the chumaks."""
HIGHLIGHTS = {
    "Nordkapp": ((25.78, 71.17), Colour.PURPLE),
    "Lofoten": ((14.55, 68.23), Colour.LIGHT_BLUE),
    "Geirangerfjord": ((7.21, 62.10), Colour.ORANGE),
    "Lapland": ((24.00, 67.50), Colour.PURPLE),
}
LAKES = {"Vänern": (13.30, 58.90), "Vättern": (14.55, 58.35), "Saimaa": (28.30, 61.35)}
CHIP_SPACES = 15


def _projection(m: MapDef) -> Projection:
    return Projection.from_dict(m.editor["projection"])


def _free(m: MapDef, sq: Square) -> bool:
    return (
        sq in m.land
        and sq not in m.start_squares
        and m.city_at(sq) is None
        and sq not in m.marks
        and sq not in m.waves
    )


def _component(m: MapDef, start: Square) -> set[Square]:
    seen, todo = {start}, deque([start])
    while todo:
        x, y = todo.popleft()
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if q in m.land and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def taiwan(m: MapDef) -> None:
    proj = _projection(m)
    m.start_squares.clear()
    for name, (lon, lat) in TAIWAN_STARTS.items():
        sq = proj.square(lon, lat)
        m.towns.pop(sq, None)
        m.start_squares[sq] = StartSquare(name)
    m.setup.start_squares_used = 2
    towns = {t.name: sq for sq, t in m.towns.items()}
    for island, (town, coats) in TAIWAN_ISLANDS.items():
        sq = towns[town]
        squares = {
            q: IslandSquare(IslandRole.GATED, coats if q == sq else 0) for q in _component(m, sq)
        }
        m.islands[island.lower()] = Island(island.lower(), island, None, squares)


def ukraine(m: MapDef) -> None:
    proj = _projection(m)
    for lon, lat in CHUMAK.values():
        sq = proj.square(lon, lat)
        if _free(m, sq):
            m.towns.pop(sq, None)  # the Chumak square is the place's print
            m.marks[sq] = MarkSquare("chumak")


def nordics(m: MapDef) -> None:
    proj = _projection(m)
    for lon, lat in LAKES.values():
        sq = proj.square(lon, lat)
        if _free(m, sq):
            m.towns.pop(sq, None)
            m.waves.add(sq)
    for (lon, lat), colour in HIGHLIGHTS.values():
        sq = proj.square(lon, lat)
        if _free(m, sq):
            m.towns.pop(sq, None)
            m.marks[sq] = MarkSquare("highlight", colour)
    spaces = [min(c.squares) for _id, c in sorted(m.large_cities.items())]
    spaces += sorted(m.towns, key=lambda sq: (m.towns[sq].name, sq))
    for sq in spaces[:CHIP_SPACES]:
        m.marks[sq] = MarkSquare("chip_city")


DESIGNS = {"taiwan": taiwan, "ukraine": ukraine, "nordics": nordics}
TITLES = {
    "taiwan": "Taiwan",
    "ukraine": "Ukraine",
    "nordics": "Nordics (Norway, Sweden, Denmark, Finland)",
}


def build(draft: str, preset: str) -> MapDef:
    """The shipped map of ``preset`` made from the import's draft file."""
    m = load_map(draft)
    DESIGNS[preset](m)
    spec = preset_spec(preset)
    m.id, m.name, m.author = preset, TITLES[preset], "Carcassonne Maps Studio"
    m.description = (
        f"{TITLES[preset]}, made in this repository for the {spec.display_title} preset (not a "
        "Hans im Glück map): imported with python -m engine new-from-country --draft, then "
        "designed by engine/geo/mapbuild/presetmaps.py. " + m.description
    )
    m.rule_set = EmbeddedRuleSet(spec)
    if spec.sheet_setup is not None:
        m.setup.chip_count = spec.sheet_setup.chips
    return m


def main(argv: list[str]) -> int:
    for path in argv:
        name = load_map(path).id.split("-")[0]
        preset = "nordics" if name == "norway" else name
        save_map(build(path, preset), maps_dir() / f"{preset}.json")
        print(f"{preset}: {maps_dir() / f'{preset}.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
