"""The five shipped country maps, produced reproducibly from real geography.

Commands::

    python -m engine.geo.mapbuild.countrymaps build [--out DIR] [--only ID ...] [--refresh]
    python -m engine.geo.mapbuild.countrymaps check [--out DIR] [--only ID ...] [--refresh]
    python -m engine.geo.mapbuild.countrymaps table      # the README's "Shipped maps" table

The printed Hans im Glück maps are not available, so ``maps/deutschland.json``, ``france.json``,
``benelux.json``, ``great-britain.json`` and ``iberica.json`` are our own renditions. Each is made
in two stages:

1. **Import** (the editor's "New map from country"): :mod:`engine.geo.country` rasterises the Natural
   Earth outline of the country (or countries) into map squares at a given square size in km and a
   minimum land share, and names the neighbour beyond every border edge. The result (grid, land
   rows, projection, neighbour names) is committed as ``maps/sources/country_rasters.json``, so
   stage 2 runs without the optional ``geo`` extra (``--refresh`` re-imports it; that needs it).
2. **Design** (pure, deterministic): every printed element is given in the country's design file
   ``maps/sources/countries/<id>.json`` (data only, read by :func:`load_design`; its fields are
   the :class:`CountrySpec` dataclasses below) by its real **longitude and latitude** and converted to a square through the import's projection: start squares, large
   cities (footprint, per-side city/road/field, coats of arms), towns (France: grape colours),
   border roads and cities into named neighbours, ferries, islands, waves, chip squares, tracks and
   the Isle of Man. Land the players could never reach (small islands without a ferry) is dropped
   and the grid is cropped to the map with one square of outside all round.

This is a build tool of the repository, not part of the installed ``engine`` package.

The element lists carry every name and fact the rule sheets and ``maps-rules-notes.md`` give; the
rest (footprints, coats of arms, which towns, where the border features are) is our design, chosen
to be faithful to the real map of Europe and playable with the country's Map-Chips rules.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import math
import sys
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.chips import ChipReading, feasibility
from engine.geo.country import grid_point, import_country
from engine.geometry import Edge, Side, Square, orthogonal_neighbours
from engine.gridshape import reshape
from engine.mapdef import (
    BorderFeature,
    Colour,
    EdgeKind,
    Ferry,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    NamedRuleSet,
    RuleSet,
    Setup,
    StartSquare,
    Town,
    Track,
)
from engine.mapio import dumps_map, loads_map
from engine.resources import maps_dir
from engine.rules.registry import map_chip_layout

C, R, F = EdgeKind.CITY, EdgeKind.ROAD, EdgeKind.FIELD
N, E, S, W = Side.N, Side.E, Side.S, Side.W
PURPLE, BLUE, ORANGE = Colour.PURPLE, Colour.LIGHT_BLUE, Colour.ORANGE
STACK, GATED = IslandRole.STACK, IslandRole.GATED

AUTHOR = "Carcassonne Maps Studio"
SEA = ""
"""Neighbour name of an outside square that is sea (or no country)."""

# -- the design vocabulary -----------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A named real place. ``nudge`` moves it by whole squares when two places share a square."""

    name: str
    lon: float
    lat: float
    nudge: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class TownSpec(Place):
    """A town (or start square) at a real place; ``grape`` is its France wine colour."""

    grape: Colour | None = None


@dataclass(frozen=True)
class CitySpec(Place):
    """A large city: ``shape`` are square offsets from the square at (lon, lat).

    ``sides`` says what is printed on every outer edge on that side of the footprint (unlisted:
    field); ``edges`` overrides single outer edges as ``(dx, dy, side, kind)``. Edges that face the
    outside of the map are always fields.
    """

    id: str = ""
    shape: tuple[tuple[int, int], ...] = ((0, 0),)
    coats_of_arms: int = 1
    sides: tuple[tuple[Side, EdgeKind], ...] = ()
    edges: tuple[tuple[int, int, Side, EdgeKind], ...] = ()


@dataclass(frozen=True)
class BorderSpec(Place):
    """A printed road or city running abroad at a real border crossing (lon, lat).

    ``name`` is where it leads (a place abroad), ``neighbour`` the country as Natural Earth names it.
    """

    neighbour: str = ""
    kind: EdgeKind = EdgeKind.ROAD
    coats_of_arms: int = 1
    side: Side | None = None
    """Only an edge on this side of its square (where the nearest one would look wrong)."""


@dataclass(frozen=True)
class FerrySpec:
    """A ferry route between two real ports (each end on a coastal edge facing the sea)."""

    id: str
    a: Place
    b: Place
    coats_of_arms: int = 1


@dataclass(frozen=True)
class IslandSquareSpec:
    """One square of an island, as an offset from the island's anchor square."""

    dx: int
    dy: int
    role: IslandRole = IslandRole.LAND
    coats_of_arms: int = 0


@dataclass(frozen=True)
class IslandSpec:
    """A named island: its anchor square is at (lon, lat) of ``anchor``."""

    id: str
    name: str
    colour: Colour | None
    anchor: Place
    squares: tuple[IslandSquareSpec, ...]


@dataclass(frozen=True)
class ChipSquareSpec(Place):
    """A Great Britain chip square at a real place, marked in ``colour``."""

    colour: Colour = Colour.PURPLE


@dataclass(frozen=True)
class ImportSettings:
    """How the outline is rasterised (stage 1)."""

    countries: tuple[str, ...]
    km: float
    min_land_share: float
    bbox: tuple[float, float, float, float] | None = None
    """(west, south, east, north) in degrees: keeps the mainland, drops far-away territories."""


@dataclass(frozen=True)
class CountrySpec:
    """Everything about one country map: import settings and every designed element.

    ``description`` holds the hand-written notes appended to the generated description.
    """

    id: str
    name: str
    rule_set: RuleSet
    setup: Setup
    settings: ImportSettings
    description: str
    starts: tuple[TownSpec, ...]
    """Start squares; one with a grape colour is also a town (France: Nancy, orange)."""
    cities: tuple[CitySpec, ...]
    towns: tuple[TownSpec, ...]
    borders: tuple[BorderSpec, ...] = ()
    ferries: tuple[FerrySpec, ...] = ()
    islands: tuple[IslandSpec, ...] = ()
    waves: tuple[Place, ...] = ()
    chip_squares: tuple[ChipSquareSpec, ...] = ()
    isle_of_man: Place | None = None
    tracks: bool = False
    extra_land: tuple[Place, ...] = field(default=())
    """Squares printed although less land than the share (e.g. a port on a thin peninsula)."""
    drop_land: tuple[Place, ...] = field(default=())
    """Squares not printed although land (e.g. lake squares)."""


# -- the design files ------------------------------------------------------------------------------

DESIGN_FORMAT = "carcassonne-country-design"
DESIGN_VERSION = 1


def sources_dir() -> Path:
    """The build's inputs: ``maps/sources/`` (design files and the committed import results)."""
    return Path(__file__).resolve().parents[3] / "maps" / "sources"


def _convert(value: Any, hint: Any, where: str) -> Any:
    """``value`` from JSON as the type ``hint`` (dataclasses, enums, tuples, optionals)."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [h for h in typing.get_args(hint) if h is not type(None)]
        return None if value is None else _convert(value, options[0], where)
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise DesignError(f"{where}: expected an object")
        return _build(hint, value, where)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            raise DesignError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise DesignError(f"{where}: expected {len(args)} values")
        pairs = enumerate(zip(value, args, strict=True))
        return tuple(_convert(v, h, f"{where}[{i}]") for i, (v, h) in pairs)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise DesignError(f"{where}: unknown value {value!r}") from None
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(hint, type) and isinstance(value, hint):
        return value
    raise DesignError(f"{where}: expected {getattr(hint, '__name__', hint)}, got {value!r}")


def _build(cls: Any, data: dict[str, Any], where: str) -> Any:
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise DesignError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    return cls(**{k: _convert(v, hints[k], f"{where}.{k}") for k, v in data.items()})


def load_design(path: Path) -> CountrySpec:
    """One country's design file (see ``maps/sources/countries/``); DesignError naming the
    file and field on bad content."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DesignError(f"{path}: cannot read ({exc})") from None
    if not isinstance(data, dict) or data.pop("format", None) != DESIGN_FORMAT:
        raise DesignError(f"{path}: not a {DESIGN_FORMAT} file")
    if data.pop("format_version", None) != DESIGN_VERSION:
        raise DesignError(f"{path}: unsupported format_version")
    spec: CountrySpec = _build(CountrySpec, data, str(path))
    if f"{spec.id}.json" != path.name:
        raise DesignError(f"{path}: id {spec.id!r} does not match the file name")
    return spec


def load_countries(folder: Path | None = None) -> dict[str, CountrySpec]:
    """Every country design, in the order ``order.json`` gives (the build's order)."""
    folder = folder or sources_dir() / "countries"
    order = json.loads((folder / "order.json").read_text(encoding="utf-8"))["order"]
    return {cid: load_design(folder / f"{cid}.json") for cid in order}


# -- stage 1: the imported outline ---------------------------------------------------------------


@dataclass
class Raster:
    """The imported outline of one country map: its grid, land squares, neighbours, projection.

    ``neighbours`` names the country on every outside square next to the land (``""``: sea).
    ``projection`` holds the parameters of :mod:`engine.geo.country`'s projection, so longitudes and
    latitudes convert to squares without the geo data.
    """

    width: int
    height: int
    land: set[Square]
    neighbours: dict[Square, str]
    projection: dict[str, Any]
    sea_edges: set[Edge] = field(default_factory=set)
    """Edges of land squares that face a named neighbour across the sea (France's edge facing
    England): no land border there, so no clouds. Every other named edge is a land border."""

    def grid_point(self, lon: float, lat: float) -> tuple[float, float]:
        """Fractional grid position ``(x, y)`` of a longitude/latitude (square (0,0) spans 0..1)."""
        return _grid_point(self.projection, lon, lat)

    def to_dict(self) -> dict[str, Any]:
        rows = [
            "".join("#" if (x, y) in self.land else "." for x in range(self.width))
            for y in range(self.height)
        ]
        names = sorted({n for n in self.neighbours.values() if n})
        # One row string per grid row plus a frame of one square all round (the import also
        # names squares just beyond the grid): '.' not named, '~' sea, 'a'.. index into names.
        outside = [
            "".join(
                _neighbour_char(self.neighbours.get((x, y)), names)
                for x in range(-1, self.width + 1)
            )
            for y in range(-1, self.height + 1)
        ]
        return {
            "width": self.width,
            "height": self.height,
            "projection": self.projection,
            "land": rows,
            "neighbour_names": names,
            "neighbours": outside,
            "sea_edges": [[e.x, e.y, e.side.value] for e in sorted(self.sea_edges)],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Raster:
        land = {(x, y) for y, row in enumerate(d["land"]) for x, ch in enumerate(row) if ch == "#"}
        names: list[str] = d["neighbour_names"]
        neighbours: dict[Square, str] = {}
        for y, row in enumerate(d["neighbours"], start=-1):
            for x, ch in enumerate(row, start=-1):
                if ch == "~":
                    neighbours[(x, y)] = SEA
                elif ch != ".":
                    neighbours[(x, y)] = names[_CHARS.index(ch)]
        sea = {Edge(x, y, Side(side)) for x, y, side in d.get("sea_edges", [])}
        return cls(d["width"], d["height"], land, neighbours, dict(d["projection"]), sea)


_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _neighbour_char(name: str | None, names: list[str]) -> str:
    if name is None:
        return "."
    if name == SEA:
        return "~"
    return _CHARS[names.index(name)]


def rasters_path() -> Path:
    """The committed stage-1 results: ``maps/sources/country_rasters.json``."""
    return sources_dir() / "country_rasters.json"


def load_rasters(path: Path | None = None) -> dict[str, Raster]:
    data = json.loads((path or rasters_path()).read_text(encoding="utf-8"))
    return {cid: Raster.from_dict(d) for cid, d in data["rasters"].items()}


def dumps_rasters(rasters: dict[str, Raster]) -> str:
    body = {
        "about": "Stage 1 of engine.countrymaps: Natural Earth outlines rasterised by "
        "engine.geo.country (python -m engine.geo.mapbuild.countrymaps build --refresh). Natural Earth data "
        "is public domain.",
        "rasters": {cid: rasters[cid].to_dict() for cid in sorted(rasters)},
    }
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"


# -- stage 2: the design -------------------------------------------------------------------------


class DesignError(ValueError):
    """A designed element cannot be put on the imported grid (names the element and why)."""


def _centre_distance(point: tuple[float, float], sq: Square) -> float:
    return math.hypot(point[0] - (sq[0] + 0.5), point[1] - (sq[1] + 0.5))


def _edge_midpoint(edge: Edge) -> tuple[float, float]:
    dx, dy = edge.side.delta
    return (edge.x + 0.5 + dx / 2, edge.y + 0.5 + dy / 2)


class _Designer:
    """Puts one :class:`CountrySpec` onto its :class:`Raster`, raising :class:`DesignError`."""

    def __init__(self, spec: CountrySpec, raster: Raster) -> None:
        self.spec = spec
        self.raster = raster
        self.m = MapDef(
            id=spec.id,
            name=spec.name,
            width=raster.width,
            height=raster.height,
            author=AUTHOR,
            rule_set=NamedRuleSet(spec.rule_set),
            setup=Setup(**vars(spec.setup)),
            land=set(raster.land),
        )
        self.taken: dict[Square, str] = {}
        self.dropped_sides: list[tuple[str, EdgeKind, Edge]] = []
        """Large-city sides the design asks for that face the outside (reported by ``build``)."""
        self.offset = (0, 0)
        """How far :meth:`reframe` moved everything."""
        self.edges_taken: set[Edge] = set()
        self.constrained: set[Square] = set()

    # -- helpers --

    def point(self, p: Place) -> tuple[float, float]:
        x, y = self.raster.grid_point(p.lon, p.lat)
        return (x + p.nudge[0], y + p.nudge[1])

    def square(self, p: Place, what: str, *, on_land: bool = True, free: bool = True) -> Square:
        """The square of a place; on land (the nearest free land square if its own is sea)."""
        pt = self.point(p)
        sq = (math.floor(pt[0]), math.floor(pt[1]))
        if not self.m.in_grid(sq):
            raise DesignError(f"{self.spec.id}: {what} {p.name!r} at {sq} is outside the grid")
        if not on_land:
            return sq
        ok = self._usable(sq, free)
        if ok:
            return sq
        near = [
            (sq[0] + dx, sq[1] + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if self._usable((sq[0] + dx, sq[1] + dy), free)
        ]
        if not near:
            why = self.taken.get(sq, "sea or abroad")
            raise DesignError(f"{self.spec.id}: {what} {p.name!r} at {sq} lands on {why}")
        return min(near, key=lambda s: (_centre_distance(pt, s), s))

    def _usable(self, sq: Square, free: bool) -> bool:
        return sq in self.m.land and not (free and sq in self.taken)

    def take(self, sq: Square, what: str) -> None:
        if sq in self.taken:
            raise DesignError(f"{self.spec.id}: {what} at {sq} collides with {self.taken[sq]}")
        self.taken[sq] = what

    def blocked(self, sq: Square) -> bool:
        return sq in self.m.blocked_squares() or sq in self.m.gated_squares()

    def outside(self, sq: Square) -> bool:
        return sq not in self.m.land

    # -- elements --

    def apply_land_edits(self) -> None:
        for p in self.spec.extra_land:
            self.m.land.add(self.square(p, "extra land", on_land=False))
        for p in self.spec.drop_land:
            self.m.land.discard(self.square(p, "dropped land", on_land=False))

    def cities(self) -> None:
        for c in self.spec.cities:
            anchor = self.square(c, "large city")
            squares = {(anchor[0] + dx, anchor[1] + dy) for dx, dy in c.shape}
            for sq in sorted(squares):
                if sq not in self.m.land:
                    raise DesignError(f"{self.spec.id}: large city {c.name!r} square {sq} is sea")
                self.take(sq, f"large city {c.name!r}")
            city = LargeCity(id=c.id, name=c.name, squares=squares, coats_of_arms=c.coats_of_arms)
            sides = dict(c.sides)
            overrides = {Edge(anchor[0] + dx, anchor[1] + dy, s): k for dx, dy, s, k in c.edges}
            for e in city.outer_edges():
                kind = overrides.get(e, sides.get(e.side, F))
                if kind is not F and self.outside(e.outer_square):
                    self.dropped_sides.append((c.name, kind, e))
                elif kind is not F:
                    city.edges[e] = kind
            self.m.large_cities[c.id] = city

    def starts_and_towns(self) -> None:
        for t in self.spec.starts:
            sq = self.square(t, "start square")
            self.take(sq, f"start square {t.name!r}")
            self.m.start_squares[sq] = StartSquare(t.name)
            if t.grape is not None:
                self.m.towns[sq] = Town(t.name, t.grape)
        for t in self.spec.towns:
            sq = self.square(t, "town")
            self.take(sq, f"town {t.name!r}")
            self.m.towns[sq] = Town(t.name, t.grape)

    def waves_and_islands(self) -> None:
        for p in self.spec.waves:
            sq = self.square(p, "wave", on_land=False)
            self.take(sq, f"wave {p.name!r}")
            self.m.land.add(sq)
            self.m.waves.add(sq)
        for spec in self.spec.islands:
            island = Island(id=spec.id, name=spec.name, colour=spec.colour)
            anchor = self.square(spec.anchor, "island", on_land=False)
            for s in spec.squares:
                sq = (anchor[0] + s.dx, anchor[1] + s.dy)
                self.take(sq, f"island square of {spec.name}")
                self.m.land.add(sq)
                island.squares[sq] = IslandSquare(role=s.role, coats_of_arms=s.coats_of_arms)
            self.m.islands[spec.id] = island

    def _coast_edges(self, pt: tuple[float, float], radius: float, ok: Any) -> list[Edge]:
        x0, y0 = math.floor(pt[0]), math.floor(pt[1])
        r = math.ceil(radius) + 1
        found = []
        for y in range(y0 - r, y0 + r + 1):
            for x in range(x0 - r, x0 + r + 1):
                sq = (x, y)
                if sq not in self.m.land or sq in self.m.blocked_squares():
                    continue
                for side in Side:
                    e = Edge(x, y, side)
                    if (
                        self.outside(e.outer_square)
                        and e not in self.edges_taken
                        and ok(e)
                        and math.dist(_edge_midpoint(e), pt) <= radius
                    ):
                        found.append(e)
        return found

    def borders(self) -> None:
        for b in self.spec.borders:
            pt = self.point(b)

            def abroad(e: Edge, b: BorderSpec = b) -> bool:
                return self.raster.neighbours.get(e.outer_square) == b.neighbour and (
                    b.side is None or e.side is b.side
                )

            edges = self._coast_edges(pt, 2.5, abroad)
            if not edges:
                raise DesignError(
                    f"{self.spec.id}: no free border edge into {b.neighbour} near {b.name!r}"
                )
            # Prefer squares without another printed constraint, then the nearest edge.
            e = min(
                edges,
                key=lambda e: (
                    e.square in self.constrained or e.square in self.m.gated_squares(),
                    math.dist(_edge_midpoint(e), pt),
                    e,
                ),
            )
            self.edges_taken.add(e)
            self.constrained.add(e.square)
            self.m.border_features[e] = BorderFeature(b.kind, b.coats_of_arms, b.neighbour)

    def _ferry_end(self, f: FerrySpec, p: Place, other: tuple[float, float]) -> Edge:
        """The free sea edge nearest ``p``, preferring edges that face the far end."""
        pt = self.point(p)
        edges = self._coast_edges(
            pt, 2.0, lambda e: self.raster.neighbours.get(e.outer_square, SEA) == SEA
        )
        if not edges:
            raise DesignError(f"{self.spec.id}: ferry {f.id!r}: no free coast at {p.name!r}")
        hx, hy = other[0] - pt[0], other[1] - pt[1]
        norm = math.hypot(hx, hy) or 1.0

        def score(e: Edge) -> tuple[float, Edge]:
            facing = (e.side.delta[0] * hx + e.side.delta[1] * hy) / norm
            return (math.dist(_edge_midpoint(e), pt) - facing, e)

        e = min(edges, key=score)
        self.edges_taken.add(e)
        self.constrained.add(e.square)
        return e

    def ferries(self) -> None:
        for f in self.spec.ferries:
            a = self._ferry_end(f, f.a, self.point(f.b))
            b = self._ferry_end(f, f.b, self.point(f.a))
            self.m.ferries[f.id] = Ferry(f.id, a, b, f.coats_of_arms)

    def isle_of_man(self) -> None:
        p = self.spec.isle_of_man
        if p is None:
            return
        sq = self.square(p, "Isle of Man", on_land=False)
        if sq in self.m.land:
            raise DesignError(f"{self.spec.id}: the Isle of Man square {sq} is a map square")
        self.m.isle_of_man = sq

    def chip_squares(self) -> None:
        for c in self.spec.chip_squares:
            sq = self.square(c, f"{c.colour.value} chip square")
            if self.blocked(sq):
                raise DesignError(f"{self.spec.id}: chip square {c.name!r} at {sq} is blocked")
            self.take(sq, f"chip square {c.name!r}")
            self.m.chip_squares[sq] = c.colour

    def drop_unreachable(self) -> list[Square]:
        """Remove land no tile chain can reach (islands without a ferry); return it."""
        m = self.m
        keep_anyway = m.waves | m.stack_squares()
        links: dict[Square, set[Square]] = {}
        for f in m.ferries.values():
            links.setdefault(f.a.square, set()).add(f.b.square)
            links.setdefault(f.b.square, set()).add(f.a.square)
        seen = set(m.start_squares)
        todo = list(seen)
        while todo:
            sq = todo.pop()
            for n in [*orthogonal_neighbours(sq), *links.get(sq, ())]:
                if n in m.land and n not in seen and n not in keep_anyway:
                    seen.add(n)
                    todo.append(n)
        dropped = sorted(m.land - seen - keep_anyway)
        for sq in dropped:
            if sq in self.taken:
                raise DesignError(f"{self.spec.id}: {self.taken[sq]} at {sq} is unreachable")
            m.land.discard(sq)
        return dropped

    def neighbour_names(self) -> None:
        """Record the country beyond every border edge in the editor settings, as the editor's
        "New map from country" does (``editor["neighbours"]``: x, y, side, name; sorted)."""
        names = {
            Edge(x, y, side): name
            for x, y in self.m.land
            for side in Side
            if (name := self.raster.neighbours.get(Edge(x, y, side).outer_square, SEA))
            and Edge(x, y, side).outer_square not in self.m.land
        }
        self.m.editor["neighbours"] = [
            {"x": e.x, "y": e.y, "side": e.side.value, "name": names[e]} for e in sorted(names)
        ]
        # Clouds on land borders; edges facing a neighbour across the sea stay sea.
        self.m.land_borders = set(names) - self.raster.sea_edges

    def reframe(self) -> None:
        """Crop the grid to the map (and the Isle of Man) with a margin of one square all round.

        The import centres the outline in whole squares, which leaves an uneven strip of sea;
        one square of outside everywhere leaves room for the neighbours' names and border art.
        """
        m = self.m
        extent = set(m.land) | ({m.isle_of_man} if m.isle_of_man else set())
        dx = 1 - min(x for x, _ in extent)
        dy = 1 - min(y for _, y in extent)

        width = max(x for x, _ in extent) + dx + 2
        height = max(y for _, y in extent) + dy + 2
        self.m = reshape(m, width, height, dx, dy)
        self.offset = (dx, dy)

    def tracks(self) -> None:
        """Twelve tracks of whole rows, top to bottom, each with a fair share of the placeable
        squares: the row boundaries that keep every track closest to a twelfth of them (a
        linear partition; ties: the earlier boundary). The margin rows join tracks 1 and 12."""
        if not self.spec.tracks:
            return
        placeable = self.m.placeable_squares()
        rows = sorted({y for _, y in self.m.land})
        top, n = rows[0], rows[-1] - rows[0] + 1
        if n < 12:
            raise DesignError(f"{self.spec.id}: {n} rows cannot hold 12 tracks")
        counts = [sum(1 for _, y in placeable if y == top + i) for i in range(n)]
        bounds = _fair_partition(counts, 12)
        for k in range(1, 13):
            lo, hi = top + bounds[k - 1], top + bounds[k]
            if k == 1:
                lo = 0
            if k == 12:
                hi = self.m.height
            self.m.tracks[k] = Track(k, tuple(range(lo, hi)))

    def build(self) -> tuple[MapDef, list[Square]]:
        self.apply_land_edits()
        self.cities()
        self.waves_and_islands()
        self.starts_and_towns()
        self.isle_of_man()
        self.borders()
        self.ferries()
        dropped = self.drop_unreachable()
        self.chip_squares()
        self.neighbour_names()
        self.reframe()
        self.tracks()
        self.m.description = describe(self.spec, self.m)
        return self.m, dropped


def _fair_partition(counts: Sequence[int], groups: int) -> list[int]:
    """Boundaries ``0 = b0 < b1 < ... < b_groups = len(counts)`` splitting ``counts`` into
    ``groups`` non-empty runs whose sums are closest to equal (least sum of squared misses)."""
    n = len(counts)
    prefix = [0]
    for c in counts:
        prefix.append(prefix[-1] + c)
    share = prefix[-1] / groups
    inf = float("inf")
    best = [[inf] * (n + 1) for _ in range(groups + 1)]
    back = [[0] * (n + 1) for _ in range(groups + 1)]
    best[0][0] = 0.0
    for g in range(1, groups + 1):
        for end in range(g, n - (groups - g) + 1):
            for start in range(g - 1, end):
                if best[g - 1][start] == inf:
                    continue
                cost = best[g - 1][start] + (prefix[end] - prefix[start] - share) ** 2
                if cost < best[g][end] - 1e-9:
                    best[g][end], back[g][end] = cost, start
    bounds = [n]
    for g in range(groups, 0, -1):
        bounds.append(back[g][bounds[-1]])
    return bounds[::-1]


def design(spec: CountrySpec, raster: Raster) -> MapDef:
    """Stage 2: the finished map of ``spec`` on its imported ``raster`` (pure, deterministic)."""
    return _Designer(spec, raster).build()[0]


def design_notes(spec: CountrySpec, raster: Raster) -> list[str]:
    """What the design of ``spec`` asks for but its grid cannot hold: large-city sides facing the
    sea or abroad (printed as fields), land dropped as unreachable. ``build`` prints them."""
    designer = _Designer(spec, raster)
    _, dropped = designer.build()
    dx, dy = designer.offset
    notes = [
        f"{spec.id}: large city {name}: its {kind.value} side {Edge(e.x + dx, e.y + dy, e.side)} "
        "faces the outside; printed as a field"
        for name, kind, e in designer.dropped_sides
    ]
    if dropped:
        shown = ", ".join(f"({x + dx}, {y + dy})" for x, y in dropped)
        notes.append(f"{spec.id}: unreachable land left out: {shown}")
    return notes


_RULES_TEXT = {
    RuleSet.DEUTSCHLAND: "Map-Chips Deutschland (upgrading meeples): 2 of the 3 start squares, "
    "30 chips laid out at random",
    RuleSet.FRANCE: "Map-Chips France (wine): 2 of the 3 start squares, 30 chips laid out at "
    "random; every town shows a grape colour and every border road or city carries coats of "
    "arms for the wine export",
    RuleSet.BENELUX: "Map-Chips Benelux (island tiles): 2 of the 3 start squares, 20 of the 30 "
    "chips laid out at random, 3 wave squares, 3 Frisian islands of 2 stack squares, one per "
    "chip colour",
    RuleSet.GREAT_BRITAIN: "Map-Chips Great Britain (Isle of Man): all 3 start squares, the 30 "
    "chips on the fixed coloured squares (10 blue in Scotland, 10 orange in Ireland, 10 purple "
    "in England and Wales), the Isle of Man holding area in the Irish Sea",
    RuleSet.IBERICA: "Map-Chips Península Ibérica (treats): 3 of the 4 start squares, 30 chips "
    "laid out at random (none on the Balearic squares), 12 tracks from top to bottom (1-4 "
    "orange, 5-8 light blue, 9-12 purple)",
}


def _names(items: Iterable[str]) -> str:
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def describe(spec: CountrySpec, m: MapDef) -> str:
    """The map's description: what it is, where it comes from, what it carries, how to play."""
    s = spec.settings
    parts = [
        f"Our own rendition of the Carcassonne Maps {spec.name} board (the printed map was not "
        f"available), faithful to the real geography: the outline of {_names(s.countries)} from "
        f"Natural Earth (public domain), {s.km:g} km per square, every element placed at its "
        "real longitude and latitude (one square aside where two would share a square).",
        f"Start squares {_names(t.name for t in spec.starts)}; large cities "
        f"{_names(c.name for c in spec.cities)}; {len(spec.towns)} towns such as "
        f"{_names(t.name for t in spec.towns[:3])}.",
    ]
    if spec.borders:
        by: dict[str, list[str]] = {}
        for b in spec.borders:
            by.setdefault(b.neighbour, []).append(f"{b.kind.value} to {b.name}")
        parts.append(
            "Border roads and cities with coats of arms into "
            + "; ".join(f"{n} ({', '.join(v)})" for n, v in by.items())
            + "."
        )
    if spec.ferries:
        parts.append(
            "Ferry routes: " + ", ".join(f"{f.a.name}-{f.b.name}" for f in spec.ferries) + "."
        )
    parts.append(f"Made for {_RULES_TEXT[spec.rule_set]}; also plays with the plain Maps rules.")
    if spec.description:
        parts.append(spec.description)
    return " ".join(parts)


def _grid_point(projection: dict[str, Any], lon: float, lat: float) -> tuple[float, float]:
    # engine.geo.country's projection (pure numpy/shapely; needs no geo data).
    return grid_point(projection, lon, lat)


def import_raster(spec: CountrySpec) -> Raster:
    """Stage 1 for one country: the editor's "New map from country" import (needs the geo extra)."""
    s = spec.settings
    imp = import_country(
        list(s.countries),
        km=s.km,
        min_land=s.min_land_share,
        bbox=s.bbox,
        cities=0,
        local_names=False,  # the design files name the neighbours in English
    )
    return Raster(
        width=imp.raster.width,
        height=imp.raster.height,
        land=set(imp.raster.land),
        neighbours=dict(imp.outside),
        projection=imp.projection.to_dict(),
        sea_edges=set(imp.neighbours) - imp.land_borders,
    )


def import_all(only: Sequence[str] | None = None) -> dict[str, Raster]:
    """Stage 1 for every country map (or ``only`` these ids)."""
    return {cid: import_raster(COUNTRIES[cid]) for cid in (only or COUNTRIES)}


# -- the command ---------------------------------------------------------------------------------


def build_all(rasters: dict[str, Raster], only: Sequence[str] | None = None) -> dict[str, str]:
    """Stage 2 for every country (or ``only`` these ids): id → the map file's text."""
    ids = list(only) if only else list(COUNTRIES)
    out = {}
    for cid in ids:
        if cid not in COUNTRIES:
            raise DesignError(f"unknown country map {cid!r} (known: {', '.join(COUNTRIES)})")
        if cid not in rasters:
            raise DesignError(f"{cid}: no imported outline; run with --refresh")
        out[cid] = dumps_map(design(COUNTRIES[cid], rasters[cid]))
    return out


def readme_table(maps: dict[str, MapDef]) -> str:
    """The README's "Shipped maps" table: squares, pool ratio and the exact chip maximum."""
    lines = [
        "| Map | Grid | Map squares | Placeable | Large-city squares | Towns | Start squares "
        "| Tile pool | Placeable / pool | Chips (exact maximum over start choices) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for cid, m in maps.items():
        s = m.setup
        placeable = len(m.placeable_squares())
        if s.chip_count:
            layout = map_chip_layout(m)
            best = feasibility(m, ChipReading.OPEN_SIDES, chip_layout=layout).values()
            alt = feasibility(m, ChipReading.ANY_CITY_SQUARE, chip_layout=layout).values()
            chips = (
                f"{s.chip_count} (max {min(best)}–{max(best)}; "
                f"{min(alt)}–{max(alt)} with the any-city-square reading)"
            )
        else:
            chips = f"{len(m.chip_squares)} on fixed chip squares"
        lines.append(
            f"| [{m.name}](maps/{cid}.json) | {m.width}×{m.height} | {len(m.land)} | {placeable} "
            f"| {len(m.city_squares())} | {len(m.towns)} "
            f"| {len(m.start_squares)} ({s.start_squares_used} used) "
            f"| {s.tile_pool_min}–{s.tile_pool_max} "
            f"| {placeable / s.tile_pool_max:.2f}–{placeable / s.tile_pool_min:.2f} | {chips} |"
        )
    return "\n".join(lines) + "\n"


COUNTRIES: dict[str, CountrySpec] = load_countries()
"""The five shipped country maps by id (= file stem in ``maps/``), from their design files."""


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.geo.mapbuild.countrymaps build|check|table`` (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.geo.mapbuild.countrymaps",
        description="Build the shipped country maps from the committed country outlines.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the country maps")
    c = sub.add_parser("check", help="exit 1 unless a rebuild reproduces the map files")
    for p in (b, c):
        p.add_argument("--out", type=Path, default=None, help="folder (default: the shipped maps/)")
        p.add_argument("--only", nargs="*", default=None, metavar="ID", help="only these maps")
        p.add_argument(
            "--refresh",
            action="store_true",
            help="re-import the outlines from Natural Earth first (needs the 'geo' extra); "
            "build rewrites maps/sources/country_rasters.json, check compares it",
        )
    sub.add_parser("table", help="print the README's table of the shipped country maps")
    args = parser.parse_args(argv)
    try:
        if args.command == "table":
            texts = build_all(load_rasters())
            print(readme_table({k: loads_map(v, source=k) for k, v in texts.items()}), end="")
            return 0
        if args.refresh:
            rasters = import_all(args.only)
            text = dumps_rasters({**load_rasters(), **rasters} if args.only else rasters)
            if args.command == "build":
                rasters_path().write_text(text, encoding="utf-8")
                print(f"wrote {rasters_path()}")
            elif text != rasters_path().read_text(encoding="utf-8"):
                print(f"differs: {rasters_path()}")
                return 1
        else:
            rasters = load_rasters()
        out_dir = args.out or maps_dir()
        differ = 0
        for cid, text in build_all(rasters, args.only).items():
            path = out_dir / f"{cid}.json"
            if args.command == "build":
                out_dir.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
                for note in design_notes(COUNTRIES[cid], rasters[cid]):
                    print(f"  note: {note}")
            elif not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"differs: {path}")
                differ += 1
            else:
                print(f"reproduced: {path}")
    except (ValueError, OSError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
