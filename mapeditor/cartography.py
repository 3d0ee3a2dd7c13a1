"""The print's cartographic furniture: title cartouche, legend, scale bar and north arrow.

What goes in the legend (:func:`legend_entries`: every print the map uses, and the prints its rule
set asks for) and where each piece sits (:func:`place_furniture`: on whole outside squares,
sea first, then neighbouring land, clouds last, never on a map square or next to a border road,
city or ferry). Pure Python (no Qt); :mod:`mapeditor.print_painting` draws it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine.geo.backdrop import Backdrop, cloud_squares
from engine.geometry import Square
from engine.mapdef import IslandRole, MapDef

LEGEND_ROW = 0.3
"""Height of one legend row, in squares (13.5 mm on a 45 mm square)."""
LEGEND_HEAD = 0.4
"""The legend's title line and padding, in squares."""


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: the symbol to draw (``key``) and what it means."""

    key: str
    text: str
    drawn: tuple[str, str] | None = None
    """A designer mark's icon and colour (key ``mark``)."""


_RULE_SET_PRINTS: dict[str, str] = {
    "town_colours": "town_colour",
    "border_coa": "coat_of_arms",
    "tracks": "track",
    "island_stacks": "stack",
    "waves": "waves",
    "chip_squares": "chip_square",
    "isle_of_man": "isle_of_man",
    "gated_coa_islands": "gated",
}
"""A rule set's print names → the legend symbol that shows it."""


def legend_entries(m: MapDef) -> list[LegendEntry]:
    """Every print the map uses, in a fixed order, then what its rule set asks for that the map
    does not show yet (marked "rule set")."""
    shown: list[LegendEntry] = []
    has = {
        "start": bool(m.start_squares),
        "town": bool(m.towns),
        "town_colour": any(t.grape is not None for t in m.towns.values()),
        "large_city": bool(m.large_cities),
        "border_road": any(f.kind.value == "road" for f in m.border_features.values()),
        "border_city": any(f.kind.value == "city" for f in m.border_features.values()),
        "coat_of_arms": any(f.coats_of_arms for f in m.border_features.values())
        or any(c.coats_of_arms for c in m.large_cities.values())
        or any(f.coats_of_arms for f in m.ferries.values()),
        "clouds": bool(m.land_borders),
        "ferry": bool(m.ferries),
        "island": bool(m.islands),
        "stack": any(
            i.role is IslandRole.STACK for isl in m.islands.values() for i in isl.squares.values()
        ),
        "gated": any(
            i.role is IslandRole.GATED for isl in m.islands.values() for i in isl.squares.values()
        ),
        "waves": bool(m.waves),
        "chip_square": bool(m.chip_squares),
        "track": bool(m.tracks),
        "isle_of_man": m.isle_of_man is not None,
    }
    texts = {
        "start": "Start square",
        "town": "Town",
        "town_colour": "Town colour (grapes)",
        "large_city": "Large city",
        "border_road": "Border road",
        "border_city": "Border city",
        "coat_of_arms": "Coat of arms",
        "clouds": "Clouds: land border",
        "ferry": "Ferry",
        "island": "Island",
        "stack": "Island stack",
        "gated": "Ferry-gated island",
        "waves": "Waves",
        "chip_square": "Chip square",
        "track": "Track",
        "isle_of_man": "Isle of Man",
    }
    for key, text in texts.items():
        if has[key]:
            shown.append(LegendEntry(key, text))
    spec = m.rule_set.spec
    if spec is not None:
        for print_name in spec.prints:
            wanted = _RULE_SET_PRINTS.get(print_name)
            if wanted is not None and not has.get(wanted, False):
                title = spec.title or spec.name
                shown.append(LegendEntry(wanted, f"{texts[wanted]} (rule set {title})"))
        printed = {mark.mark for mark in m.marks.values()}
        for kind in spec.marks:  # the designer's own prints, by their names
            if kind.id in printed:
                shown.append(LegendEntry("mark", kind.name, (kind.icon, kind.colour)))
    return shown


@dataclass(frozen=True)
class Placement:
    """A piece of furniture on whole squares: ``x``, ``y`` (top-left square), ``w`` × ``h``."""

    kind: str
    x: int
    y: int
    w: int
    h: int


def _busy_squares(m: MapDef) -> set[Square]:
    """Outside squares furniture must leave free: beyond border features, under ferries, islands,
    waves and the Isle of Man, plus the map's own squares."""
    busy = set(m.land) | set(m.waves)
    for edge in m.border_features:
        busy.add(edge.outer_square)
    for ferry in m.ferries.values():
        (ax, ay), (bx, by) = ferry.a.outer_square, ferry.b.outer_square
        steps = max(abs(bx - ax), abs(by - ay), 1)
        for k in range(steps + 1):
            busy.add((round(ax + (bx - ax) * k / steps), round(ay + (by - ay) * k / steps)))
    for island in m.islands.values():
        busy |= set(island.squares)
    if m.isle_of_man is not None:
        busy.add(m.isle_of_man)
    return busy


def _fits(free: set[Square], x: int, y: int, w: int, h: int) -> bool:
    return all((x + i, y + j) in free for j in range(h) for i in range(w))


def _corner_distance(m: MapDef, x: int, y: int, w: int, h: int) -> float:
    """How far a block is from the grid's nearest corner (furniture sits in the corners)."""
    dx = min(x, m.width - (x + w))
    dy = min(y, m.height - (y + h))
    return float(dx + dy)


def _find(
    m: MapDef, tiers: list[set[Square]], sizes: Iterable[tuple[int, int]]
) -> tuple[int, int, int, int] | None:
    """The first size (in order) that fits on the first tier of free squares that has room,
    nearest a corner."""
    for free in tiers:
        for w, h in sizes:
            spots = [
                (x, y)
                for y in range(m.height - h + 1)
                for x in range(m.width - w + 1)
                if _fits(free, x, y, w, h)
            ]
            if spots:
                x, y = min(spots, key=lambda p: (_corner_distance(m, p[0], p[1], w, h), p[1], p[0]))
                return x, y, w, h
    return None


def legend_size(entries: int) -> list[tuple[int, int]]:
    """Block sizes (w, h in squares) that hold ``entries`` legend rows, best first: one column of
    rows three squares wide, else two columns."""
    one = math.ceil(entries * LEGEND_ROW + LEGEND_HEAD)
    two = math.ceil(math.ceil(entries / 2) * LEGEND_ROW + LEGEND_HEAD)
    return [(3, one), (6, two), (4, one)]


def place_furniture(m: MapDef, backdrop: Backdrop, legend_rows: int) -> list[Placement]:
    """Where the cartouche, the legend and the scale bar with the north arrow go (those that find
    room; a map without outside squares gets none)."""
    busy = _busy_squares(m)
    grid = {(x, y) for y in range(m.height) for x in range(m.width)}
    clouds = cloud_squares(m)
    label_squares = {(int(lab.x), int(lab.y)) for lab in backdrop.labels}
    label_squares |= {(int(lab.x) + dx, int(lab.y)) for lab in backdrop.labels for dx in (-1, 1)}
    sea = grid - busy - clouds - label_squares - backdrop.neighbour_squares
    land = grid - busy - clouds - label_squares
    tiers = [sea, land, grid - busy - label_squares]
    out: list[Placement] = []
    wanted: list[tuple[str, list[tuple[int, int]]]] = [
        ("cartouche", [(4, 1), (3, 1), (2, 1)]),
        ("legend", legend_size(legend_rows) if legend_rows else []),
        ("scale", [(2, 1), (1, 1)]),
    ]
    for kind, sizes in wanted:
        spot = _find(m, tiers, sizes)
        if spot is None:
            continue
        x, y, w, h = spot
        out.append(Placement(kind, x, y, w, h))
        taken = {(x + i, y + j) for j in range(h) for i in range(w)}
        tiers = [t - taken for t in tiers]
    return out
