"""The map model: every printed element of a Carcassonne Maps board, as plain mutable data.

A :class:`MapDef` is what the editor edits, the validator checks and the game is played on. It is
pure data with a few read-only queries; loading and saving live in :mod:`engine.mapio`, checks in
:mod:`engine.validation`.

Squares are ``(x, y)`` (see :mod:`engine.geometry`). The map's *squares* (``land``) are every printed
grid square; everything else is outside the map (sea, clouds, neighbour countries). Some squares
take no tile: large-city squares, wave squares and island stack squares.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from engine.geometry import Edge, Side, Square, neighbour

if TYPE_CHECKING:
    from engine.rules.data.ruleset import RuleSetSpec

FORMAT_VERSION = 2
"""Current map file format version (see :mod:`engine.mapio` for migrations)."""


MAX_GRID = 400
"""Largest grid side the map format accepts (``schemas/map.schema.json`` says the same)."""


class Colour(StrEnum):
    """The three Map-Chips / grape / island colours."""

    PURPLE = "purple"
    LIGHT_BLUE = "light_blue"
    ORANGE = "orange"


class RuleSet(StrEnum):
    """The Map-Chips mini-expansion a map is made for."""

    NONE = "none"
    FRANCE = "france"
    BENELUX = "benelux"
    GREAT_BRITAIN = "great_britain"
    IBERICA = "iberica"
    DEUTSCHLAND = "deutschland"


class EdgeKind(StrEnum):
    """What is printed on an edge: a city, a road or a field."""

    CITY = "city"
    ROAD = "road"
    FIELD = "field"


class IslandRole(StrEnum):
    """What an island square is for."""

    LAND = "land"
    """An ordinary placeable square that is part of a named island."""
    GATED = "gated"
    """Placeable only once a ferry reaches it (Península Ibérica: the Balearics); may carry coats of arms."""
    STACK = "stack"
    """Holds a stack of land tiles and takes no tile itself (Benelux)."""


def track_colour(number: int) -> Colour:
    """The colour band of a Península Ibérica track: 1–4 orange, 5–8 light blue, 9–12 purple."""
    if 1 <= number <= 4:
        return Colour.ORANGE
    if 5 <= number <= 8:
        return Colour.LIGHT_BLUE
    return Colour.PURPLE


@dataclass(frozen=True)
class NamedRuleSet:
    """A rule set the map names (``"rule_set": "france"``): one of the registry's, ``"none"``
    for the plain Maps rules. The validator checks that the registry knows it."""

    name: str = "none"
    spec: ClassVar[None] = None
    file: ClassVar[None] = None


@dataclass(frozen=True)
class EmbeddedRuleSet:
    """A data rule set written inside the map file (``"rule_set": {...}``), checked."""

    spec: RuleSetSpec
    file: ClassVar[None] = None

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(frozen=True)
class FileRuleSet:
    """A data rule set in its own file beside the map (``"rule_set": {"file": ...}``), read and
    checked. Saving the map writes the reference back; the file is saved with ``save_ruleset``."""

    file: str
    """Relative to the map's folder, never leading outside it."""
    spec: RuleSetSpec

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(frozen=True)
class UnreadableRuleSet:
    """A data rule set that could not be read: embedded with mistakes (``raw``), or a file that
    was not read, could not be read (``file``), or was read with mistakes (both). Kept as written
    so saving loses nothing; the validator reports ``error`` as ``ruleset-invalid`` and a game
    refuses to start."""

    error: str
    """Why, in one line naming the file or the JSON path."""
    name: str = "invalid"
    """The name the rule set gives itself when that is a valid name, else ``"invalid"``."""
    file: str | None = None
    """The rule-set file the map names, if it names one."""
    raw: Any = None
    """The rule set as written (a dict, embedded or read from ``file``), if any was read."""
    spec: ClassVar[None] = None

    def __post_init__(self) -> None:
        if self.file is None and self.raw is None:
            raise ValueError("an unreadable rule set is a file, a written rule set, or both")


RuleSetRef: TypeAlias = NamedRuleSet | EmbeddedRuleSet | FileRuleSet | UnreadableRuleSet
"""A map's rule set (:attr:`MapDef.rule_set`): one of four kinds, each holding only what it
needs. Every kind has ``name`` (what games and reports call it), ``spec`` (its
:class:`~engine.rules.data.ruleset.RuleSetSpec`, ``None`` for a named or unreadable one) and
``file`` (the rule-set file the map names, or ``None``)."""

_REF_KINDS = (NamedRuleSet, EmbeddedRuleSet, FileRuleSet, UnreadableRuleSet)


@dataclass
class Setup:
    """The map's setup recommendations."""

    start_squares_used: int = 2
    """How many start squares a game uses (2 or 3 per the general rules; the rule set may fix it)."""
    chip_count: int = 30
    """Chips laid out at random by the Map-Chips setup (Benelux: 20; 0 when the map uses none)."""
    tile_pool_min: int = 110
    tile_pool_max: int = 120
    meeples_per_player: int = 9


@dataclass
class StartSquare:
    """A start square: a small town with red edging where the first tiles go."""

    name: str


@dataclass
class Town:
    """A town square (a small house); ``grape`` is its wine colour on France maps."""

    name: str
    grape: Colour | None = None


@dataclass
class LargeCity:
    """A pre-printed city tile covering one or more squares.

    ``edges`` says what is printed on each *outer* edge of its squares (edges between two of its own
    squares are inside the city and not listed). Its *open sides* are its city edges.
    """

    id: str
    name: str
    squares: set[Square] = field(default_factory=set)
    coats_of_arms: int = 0
    edges: dict[Edge, EdgeKind] = field(default_factory=dict)

    def outer_edges(self) -> list[Edge]:
        """Every edge of its squares that does not lead into another of its squares, sorted."""
        return sorted(
            Edge(x, y, side)
            for (x, y) in self.squares
            for side in Side
            if neighbour((x, y), side) not in self.squares
        )

    def edge_kind(self, edge: Edge) -> EdgeKind:
        """What is printed on an outer edge; unlisted outer edges are fields."""
        return self.edges.get(edge, EdgeKind.FIELD)

    def open_sides(self) -> list[Edge]:
        """Its city edges, sorted."""
        return sorted(e for e, k in self.edges.items() if k is EdgeKind.CITY)


@dataclass
class BorderFeature:
    """A printed road or city running abroad across an edge facing the outside of the map."""

    kind: EdgeKind
    coats_of_arms: int = 0
    neighbour: str = ""
    """The neighbouring country's name, e.g. ``"Denmark"``."""


@dataclass
class Ferry:
    """A printed road link across water between two coastal square edges."""

    id: str
    a: Edge
    b: Edge
    coats_of_arms: int = 0


@dataclass(frozen=True)
class MarkSquare:
    """A designer's mark printed on a square: the mark's id in the rule set, and optionally a
    chip colour and a value of this square's own (a highlight bordered in a colour)."""

    mark: str
    colour: Colour | None = None
    value: int | None = None


@dataclass
class IslandSquare:
    role: IslandRole = IslandRole.LAND
    coats_of_arms: int = 0


@dataclass
class Island:
    """A named group of squares, tinted in ``colour``."""

    id: str
    name: str
    colour: Colour | None = None
    squares: dict[Square, IslandSquare] = field(default_factory=dict)


@dataclass
class Track:
    """A Península Ibérica track: a numbered band of rows whose colour follows its number."""

    number: int
    rows: tuple[int, ...]

    @property
    def colour(self) -> Colour:
        return track_colour(self.number)


@dataclass
class MapDef:
    """A Carcassonne Maps board. Mutable; :meth:`copy` gives an independent copy."""

    id: str
    name: str
    width: int
    height: int
    author: str = ""
    description: str = ""
    rule_set: RuleSetRef = field(default_factory=NamedRuleSet)
    """The rule set the map is made for: named, embedded, in a file, or unreadable."""
    setup: Setup = field(default_factory=Setup)
    square_size_mm: float = 45.0
    land: set[Square] = field(default_factory=set)
    start_squares: dict[Square, StartSquare] = field(default_factory=dict)
    towns: dict[Square, Town] = field(default_factory=dict)
    large_cities: dict[str, LargeCity] = field(default_factory=dict)
    border_features: dict[Edge, BorderFeature] = field(default_factory=dict)
    ferries: dict[str, Ferry] = field(default_factory=dict)
    islands: dict[str, Island] = field(default_factory=dict)
    waves: set[Square] = field(default_factory=set)
    chip_squares: dict[Square, Colour] = field(default_factory=dict)
    tracks: dict[int, Track] = field(default_factory=dict)
    isle_of_man: Square | None = None
    land_borders: set[Edge] = field(default_factory=set)
    marks: dict[Square, MarkSquare] = field(default_factory=dict)
    """Squares carrying a mark of the map's rule set (its ``marks``, docs/rule-language.md)."""
    """Edges of map squares that face a neighbouring country (drawn as clouds). Every other
    edge facing the outside faces the sea; ferries cross only the sea."""
    editor: dict[str, Any] = field(default_factory=dict)
    """Editor settings saved with the map but not part of it (underlay path and alignment, …)."""
    revision: int = field(default=0, compare=False, repr=False)
    """Bumped by :meth:`touch` after every edit made in place (the editor's document does it for
    every command), so what games derived from this map object (:mod:`engine.mapcache`) is
    made anew. Not part of the map: neither saved nor compared."""

    def __post_init__(self) -> None:
        if not isinstance(self.rule_set, _REF_KINDS):
            raise TypeError(
                f"MapDef.rule_set must be a RuleSetRef, e.g. NamedRuleSet({self.rule_set!r}), "
                f"not {type(self.rule_set).__name__}"
            )

    def touch(self) -> None:
        """Say the map was changed in place: tables derived from it are rebuilt on next use."""
        self.revision += 1

    def copy(self) -> MapDef:
        """An independent deep copy. Through pickle: 7x faster than ``copy.deepcopy`` on a
        200x200 map (the editor snapshots the map for every validation)."""
        copy: MapDef = pickle.loads(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))
        return copy

    # -- queries -------------------------------------------------------------------------------

    def in_grid(self, square: Square) -> bool:
        x, y = square
        return 0 <= x < self.width and 0 <= y < self.height

    def city_at(self, square: Square) -> LargeCity | None:
        """The large city covering ``square``, if any."""
        for city in self.large_cities.values():
            if square in city.squares:
                return city
        return None

    def city_squares(self) -> dict[Square, str]:
        """Every large-city square mapped to its city id."""
        return {sq: cid for cid, c in self.large_cities.items() for sq in c.squares}

    def island_square(self, square: Square) -> tuple[Island, IslandSquare] | None:
        for island in self.islands.values():
            info = island.squares.get(square)
            if info is not None:
                return island, info
        return None

    def stack_squares(self) -> set[Square]:
        return {
            sq
            for island in self.islands.values()
            for sq, info in island.squares.items()
            if info.role is IslandRole.STACK
        }

    def gated_squares(self) -> set[Square]:
        """Ferry-gated island squares (reachable only by ferry)."""
        return {
            sq
            for island in self.islands.values()
            for sq, info in island.squares.items()
            if info.role is IslandRole.GATED
        }

    def blocked_squares(self) -> set[Square]:
        """Map squares that never take a tile: large-city, wave and stack squares."""
        return set(self.city_squares()) | self.waves | self.stack_squares()

    def placeable_squares(self) -> set[Square]:
        """Squares where a land tile may go (ferry-gated squares included)."""
        return self.land - self.blocked_squares()

    def faces_outside(self, edge: Edge) -> bool:
        """Whether ``edge`` of a map square leads off the map (sea, clouds, abroad)."""
        return edge.outer_square not in self.land

    def faces_sea(self, edge: Edge) -> bool:
        """Whether ``edge`` of a map square faces the sea (outside, and not a land border)."""
        return self.faces_outside(edge) and edge not in self.land_borders

    def track_of_row(self, row: int) -> Track | None:
        for track in self.tracks.values():
            if row in track.rows:
                return track
        return None
