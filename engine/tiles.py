"""Land tile types and tile sets: the 114 tiles of the base game, Inns & Cathedrals and Traders &
Builders as data (``engine/data/tiles.json``, validated by ``schemas/tileset.schema.json``).

Orientation: rotation 0 of a tile is the JCloisterZone definition orientation (edges N, E, S, W);
rotations are clockwise degrees 0, 90, 180, 270. Fields are described by half-edges ``NL NR EL ER
SL SR WL WR`` (L/R as seen from the tile centre looking out through the edge), so a 90° turn maps
``NL→EL``, ``NR→ER``, … and the half facing ``NL`` across a tile border is ``SR`` of the tile above.

Expansion tiles are played as plain tiles on Maps: inns, cathedrals and goods are kept as data
(``Segment.inn``, ``.cathedral``, ``.goods``) for drawing and documentation only; the rules engine
ignores them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from engine import boundedio
from engine.errors import TileSetError
from engine.resources import data_dir, schema_path

SegmentKind = Literal["city", "road", "field", "monastery"]

SIDES = ("N", "E", "S", "W")
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
"""The eight half-edges, clockwise from the NW corner (JCZ bit order)."""
ROTATIONS = (0, 90, 180, 270)
EDGE_KINDS = {"C": "city", "R": "road", "F": "field"}

# Across a tile border a half-edge meets the mirrored half of the neighbour (JCZ Location.rev()).
OPPOSITE_HALF = {
    "NL": "SR", "NR": "SL", "EL": "WR", "ER": "WL",
    "SL": "NR", "SR": "NL", "WL": "ER", "WR": "EL",
}  # fmt: skip

STANDARD_POOLS = {"base": 72, "base+ic": 90, "base+ic+tb": 114}
"""The bundled pools and their sizes (the Maps recommendation is all 114)."""


def _steps(rotation: int) -> int:
    if rotation % 90:
        raise ValueError(f"rotation must be a multiple of 90 degrees, not {rotation}")
    return (rotation // 90) % 4


def rotate_side(side: str, rotation: int) -> str:
    """The side ``side`` ends up on after turning the tile clockwise by ``rotation`` degrees."""
    return SIDES[(SIDES.index(side) + _steps(rotation)) % 4]


def rotate_half(half: str, rotation: int) -> str:
    """The half-edge ``half`` ends up as after a clockwise turn: ``rotate_half("NL", 90) == "EL"``."""
    return rotate_side(half[0], rotation) + half[1]


@dataclass(frozen=True)
class Segment:
    """One feature of a tile: a city, road, field or monastery.

    ``edges`` holds sides (``"N"``..``"W"``) for cities and roads, half-edges (``"NL"``..``"WR"``)
    for fields, and is empty for an inner field or a monastery. A road with a single edge ends
    inside the tile (``ends`` says where, for drawing). ``cities`` (fields only) are indices into
    the tile's ``segments`` of the cities the field touches. ``inn``, ``cathedral`` and ``goods``
    are expansion markers with no effect on Maps scoring.
    """

    kind: SegmentKind
    edges: tuple[str, ...]
    coats_of_arms: int = 0
    inn: bool = False
    cathedral: bool = False
    goods: str | None = None
    cities: tuple[int, ...] = ()
    ends: str | None = None

    def rotated(self, rotation: int) -> Segment:
        """This segment with its edges turned clockwise by ``rotation`` degrees."""
        if not self.edges or not _steps(rotation):
            return self
        turn = rotate_half if self.kind == "field" else rotate_side
        return Segment(
            self.kind,
            tuple(turn(e, rotation) for e in self.edges),
            self.coats_of_arms,
            self.inn,
            self.cathedral,
            self.goods,
            self.cities,
            self.ends,
        )


@dataclass(frozen=True)
class TileType:
    """A land tile type at rotation 0, with the number of copies in its box.

    ``edges`` is ``"CRFR"``-style: N, E, S, W with C city, R road, F field. Segment indices are
    stable across rotations, so ``segments_at(r)[i]`` is ``segments[i]`` turned by ``r``.
    """

    id: str
    name: str
    jcz: tuple[str, ...]
    expansion: str
    count: int
    edges: str
    segments: tuple[Segment, ...]
    description: str = ""
    _edges_at: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)
    _segments_at: tuple[tuple[Segment, ...], ...] = field(
        default=(), init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        # Precomputed because the rules engine asks for rotated tiles in its inner loop.
        e = self.edges
        object.__setattr__(self, "_edges_at", tuple(e[4 - k :] + e[: 4 - k] for k in range(4)))
        object.__setattr__(
            self,
            "_segments_at",
            tuple(tuple(s.rotated(r) for s in self.segments) for r in ROTATIONS),
        )

    def edges_at(self, rotation: int) -> str:
        """Edge letters N, E, S, W after a clockwise turn: ``"CRFR"`` at 90 is ``"RCRF"``."""
        return self._edges_at[_steps(rotation)]

    def segments_at(self, rotation: int) -> tuple[Segment, ...]:
        """The segments in board orientation after a clockwise turn (same order and indices)."""
        return self._segments_at[_steps(rotation)]

    @property
    def coats_of_arms(self) -> int:
        """Coats of arms on the whole tile."""
        return sum(s.coats_of_arms for s in self.segments)

    @property
    def has_monastery(self) -> bool:
        return any(s.kind == "monastery" for s in self.segments)

    def distinct_rotations(self) -> tuple[int, ...]:
        """The rotations giving different edge strings (e.g. only ``(0,)`` for tile C)."""
        seen: dict[str, int] = {}
        for r in ROTATIONS:
            seen.setdefault(self.edges_at(r), r)
        return tuple(seen.values())


@dataclass
class TileSet:
    """The tile types of a set, by id, in file order. Treat ``types`` as read-only."""

    types: dict[str, TileType]
    name: str = ""
    start_tile: str = "D"
    source: str = "<data>"
    _pools: dict[str, tuple[str, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Pools already listed, by name: every game's set-up asks for one (``types`` is read-only)."""

    def __getitem__(self, tile_id: str) -> TileType:
        try:
            return self.types[tile_id]
        except KeyError:
            valid = ", ".join(self.types)
            raise TileSetError(
                f"unknown tile id {tile_id!r} in tile set {self.name or self.source!r}; "
                f"valid ids: {valid}"
            ) from None

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self.types

    def __iter__(self) -> Iterator[TileType]:
        """The tile types in file order."""
        return iter(self.types.values())

    def __len__(self) -> int:
        return len(self.types)

    @property
    def expansions(self) -> tuple[str, ...]:
        """The expansions present, in file order (``("base", "ic", "tb")`` for the default set)."""
        return tuple(dict.fromkeys(t.expansion for t in self.types.values()))

    def pool_names(self) -> list[str]:
        """Pool names offered for this set: the expansions added one by one."""
        exps = self.expansions
        return ["+".join(exps[: i + 1]) for i in range(len(exps))]

    def full_pool(self, name: str = "base+ic+tb") -> list[str]:
        """Every tile of the named pool, one id per copy, in file order."""
        known = self._pools.get(name)
        if known is not None:
            return list(known)
        wanted = name.split("+")
        exps = self.expansions  # a scan of every type: once, not once per name
        unknown = [e for e in wanted if e not in exps]
        if unknown or not name:
            raise TileSetError(
                f"unknown tile pool {name!r}: {', '.join(unknown) or 'empty name'} is not an "
                f"expansion of this tile set; valid pools: {', '.join(self.pool_names())}"
            )
        tiles = [t.id for t in self.types.values() if t.expansion in wanted for _ in range(t.count)]
        self._pools[name] = tuple(tiles)
        return tiles

    def pool(
        self, name: str = "base+ic+tb", size: int | None = None, rng: random.Random | None = None
    ) -> list[str]:
        """The tile ids of a pool (one per copy), in file order; the game shuffles them.

        Pools: ``"base"`` (72), ``"base+ic"`` (90), ``"base+ic+tb"`` (114), or any ``+``-joined
        expansions of the set. With ``size``, a random subset of that many tiles drawn with
        ``rng`` (seed it for repeatable games; ``None`` means unseeded), always including one
        start tile (``start_tile``, "D"), e.g. 90–100 tiles for Great Britain.
        """
        tiles = self.full_pool(name)
        if size is None:
            return tiles
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= len(tiles):
            raise TileSetError(
                f"tile pool size {size!r} out of range: pool {name!r} has {len(tiles)} tiles, "
                f"choose 1..{len(tiles)}"
            )
        if self.start_tile not in tiles:
            raise TileSetError(
                f"pool {name!r} holds no start tile {self.start_tile!r}; cannot draw a subset"
            )
        start = tiles.index(self.start_tile)
        rest = [i for i in range(len(tiles)) if i != start]
        chosen = (rng or random.Random()).sample(rest, size - 1)
        return [tiles[i] for i in sorted([start, *chosen])]

    def edge_signatures(self, pool: str | Iterable[str] = "base+ic+tb") -> set[str]:
        """Every edge string (N,E,S,W at all four rotations) of the tiles in ``pool``.

        ``pool`` is a pool name or an iterable of tile ids.
        """
        ids = self.full_pool(pool) if isinstance(pool, str) else pool
        return {self[i].edges_at(r) for i in set(ids) for r in ROTATIONS}


# --------------------------------------------------------------------------- loading


def _jpath(parts: Iterable[str | int]) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


@cache
def _validator() -> Any:
    # deferred: jsonschema costs ~0.1 s to import and only a refused file needs it
    import jsonschema

    schema = json.loads(schema_path("tileset").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _schema_error(data: Any, source: str) -> TileSetError | None:
    # deferred: jsonschema costs ~0.1 s to import and only a refused file needs it
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(data))
    if error is None:
        return None
    # Inside a segment, the "if/then" branch of its kind gives the most precise message.
    return TileSetError(f"{source}: {_jpath(error.absolute_path)}: {error.message}")


def _check_tile(t: dict[str, Any], where: list[str | int], source: str) -> TileType:
    """Cross-checks the schema cannot express; returns the TileType."""

    def fail(path: list[str | int], message: str) -> TileSetError:
        return TileSetError(f"{source}: {_jpath(where + path)}: tile {t['id']}: {message}")

    edges: str = t["edges"]
    segs = t["segments"]
    covered: dict[str, int] = {}
    halves: dict[str, int] = {}
    for i, s in enumerate(segs):
        kind = s["kind"]
        if kind in ("city", "road"):
            letter = "C" if kind == "city" else "R"
            for side in s["edges"]:
                if edges[SIDES.index(side)] != letter:
                    raise fail(
                        ["segments", i, "edges"],
                        f"{kind} on edge {side}, but edge {side} is "
                        f"{EDGE_KINDS[edges[SIDES.index(side)]]} ({edges!r})",
                    )
                if side in covered:
                    raise fail(
                        ["segments", i, "edges"],
                        f"edge {side} belongs to segments {covered[side]} and {i}",
                    )
                covered[side] = i
        elif kind == "field":
            for half in s["edges"]:
                if edges[SIDES.index(half[0])] == "C":
                    raise fail(
                        ["segments", i, "edges"], f"field half {half} lies on city edge {half[0]}"
                    )
                if half in halves:
                    raise fail(
                        ["segments", i, "edges"],
                        f"half-edge {half} belongs to fields {halves[half]} and {i}",
                    )
                halves[half] = i
            for k, ref in enumerate(s.get("cities", [])):
                if ref >= len(segs) or segs[ref]["kind"] != "city":
                    raise fail(
                        ["segments", i, "cities", k], f"field refers to {ref}, not a city segment"
                    )
    for n, side in enumerate(SIDES):
        letter = edges[n]
        if letter in "CR" and side not in covered:
            raise fail(
                ["edges"], f"{EDGE_KINDS[letter]} edge {side} has no {EDGE_KINDS[letter]} segment"
            )
        if letter in "FR":
            for half in (side + "L", side + "R"):
                if half not in halves:
                    raise fail(["edges"], f"half-edge {half} of edge {side} is in no field")
    if sum(s["kind"] == "monastery" for s in segs) > 1:
        raise fail(["segments"], "more than one monastery")
    return TileType(
        id=t["id"],
        name=t["name"],
        jcz=tuple(t.get("jcz", ())),
        expansion=t["expansion"],
        count=t["count"],
        edges=edges,
        segments=tuple(
            Segment(
                kind=s["kind"],
                edges=tuple(s.get("edges", ())),
                coats_of_arms=s.get("coats_of_arms", 0),
                inn=s.get("inn", False),
                cathedral=s.get("cathedral", False),
                goods=s.get("goods"),
                cities=tuple(s.get("cities", ())),
                ends=s.get("ends"),
            )
            for s in segs
        ),
        description=t.get("description", ""),
    )


def tileset_from_dict(data: Any, *, source: str = "<data>", schema: bool = True) -> TileSet:
    """Build a TileSet from parsed JSON; raises TileSetError naming ``source`` and the JSON path.

    ``schema=False`` skips the JSON-schema check (the bundled file: the test suite checks it,
    and skipping it saves ~0.1 s at every start); the cross-checks always run."""
    error = _schema_error(data, source) if schema else None
    if error is not None:
        raise error
    types: dict[str, TileType] = {}
    if data.get("extends") == "default":
        types.update(default_tileset().types)
    for n, t in enumerate(data["tiles"]):
        if t["id"] in types:
            raise TileSetError(
                f"{source}: {_jpath(['tiles', n, 'id'])}: duplicate tile id {t['id']!r}"
            )
        types[t["id"]] = _check_tile(t, ["tiles", n], source)
    start = data.get("start_tile", "D")
    if start not in types:
        raise TileSetError(f"{source}: $.start_tile: start tile {start!r} is not a tile of the set")
    return TileSet(types=types, name=data["name"], start_tile=start, source=source)


def load_tileset(path: str | Path | None = None) -> TileSet:
    """Read and validate a tile set file (default: the bundled 114-tile set).

    Errors (unreadable file, bad JSON, schema or cross-reference violations) raise TileSetError
    with the file name and the JSON path of the offending field.
    """
    file = Path(path) if path is not None else data_dir() / "tiles.json"
    try:
        data = boundedio.read_json(file, limit=boundedio.LIMITS["tile set"], what="tile set")
    except boundedio.InputFileError as exc:
        raise TileSetError(str(exc)) from None
    # the bundled file passes its schema (tests/engine/test_startup.py): not re-checked per start
    return tileset_from_dict(data, source=boundedio.shown(file), schema=path is not None)


@cache
def default_tileset() -> TileSet:
    """The bundled 114-tile set, loaded once."""
    return load_tileset()
