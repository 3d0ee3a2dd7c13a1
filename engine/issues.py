"""What a check finds: located issues (:class:`Issue`, :class:`Where`, :class:`Severity`) and
the table of the map checks' stable issue codes.

The bottom of the engine: the map reader, the validator and the rule sets all report in these
types, so none of them has to import another to say what it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from engine.geometry import Edge, Side, Square


class Severity(StrEnum):
    """How bad an issue is: errors make a map invalid, warnings only with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Where:
    """Where an issue is: squares, edges and/or a named city, ferry or island."""

    squares: tuple[Square, ...] = ()
    edges: tuple[Edge, ...] = ()
    city: str | None = None
    ferry: str | None = None
    island: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "squares": [list(sq) for sq in self.squares],
            "edges": [{"x": e.x, "y": e.y, "side": Side(e.side).value} for e in self.edges],
            "city": self.city,
            "ferry": self.ferry,
            "island": self.island,
        }

    def __str__(self) -> str:
        parts: list[str] = []
        if self.city is not None:
            parts.append(f"city {self.city!r}")
        if self.ferry is not None:
            parts.append(f"ferry {self.ferry!r}")
        if self.island is not None:
            parts.append(f"island {self.island!r}")
        if self.edges:
            parts.append(list_text([str(e) for e in self.edges]))
        elif self.squares:
            parts.append(list_text([f"({x}, {y})" for x, y in self.squares]))
        return ", ".join(parts)


def list_text(items: list[str], limit: int = 6) -> str:
    """``items`` joined by spaces, the first ``limit`` of them and how many more."""
    if len(items) <= limit:
        return " ".join(items)
    return " ".join(items[:limit]) + f" (+{len(items) - limit} more)"


@dataclass(frozen=True)
class Issue:
    """One finding: ``severity``, a stable ``code``, a human ``message`` and its location."""

    severity: Severity
    code: str
    message: str
    where: Where = field(default_factory=Where)

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": Severity(self.severity).value,
            "code": self.code,
            "message": self.message,
            "where": self.where.to_dict(),
        }

    def __str__(self) -> str:
        loc = str(self.where)
        return f"{self.severity} {self.code}" + (f" at {loc}" if loc else "") + f": {self.message}"


class CodeInfo(NamedTuple):
    severity: Severity
    meaning: str
    fix: str


E, W = Severity.ERROR, Severity.WARNING

MAP_CODES: dict[str, CodeInfo] = {
    # -- found while loading (engine.mapio.read_map) --
    "duplicate-square": CodeInfo(
        W,
        "A square is listed twice in one element list; the last entry was kept.",
        "Delete the duplicated entry from the file.",
    ),
    "duplicate-edge": CodeInfo(
        W,
        "An edge is listed twice (border features or one city's edges); the last was kept.",
        "Delete the duplicated entry from the file.",
    ),
    "duplicate-id": CodeInfo(
        W,
        "Two cities, ferries, islands or tracks share an id/number; the last was kept.",
        "Give each element its own id.",
    ),
    "duplicate-key": CodeInfo(
        W,
        'A JSON object repeats a key (e.g. two "name" fields); the last value was used.',
        "Delete the repeated key from the file.",
    ),
    "editor-settings-dropped": CodeInfo(
        W,
        "The editor settings block is larger than 256 kB; it was left out on load (the map "
        "itself is whole).",
        "Save the map again to drop the oversized settings for good.",
    ),
    # -- grid and squares --
    "no-squares": CodeInfo(E, "The map has no map squares at all.", "Paint the map squares."),
    "outside-grid": CodeInfo(
        E,
        "A square, element, edge or track row lies outside the grid.",
        "Move the element inside the grid or enlarge the grid.",
    ),
    "not-a-map-square": CodeInfo(
        E,
        "An element (start square, town, city, wave, chip or island square) is on a square "
        "that is not a map square.",
        "Paint the square as a map square or move the element.",
    ),
    "element-on-blocked-square": CodeInfo(
        E,
        "A start square, town, chip square, border feature or ferry endpoint is on a "
        "large-city, wave or stack square, where no tile is ever placed.",
        "Move the element to a placeable square.",
    ),
    "element-conflict": CodeInfo(
        E,
        "A square belongs to two things that exclude each other (two large cities, a city and "
        "a wave, a wave and a stack, two islands).",
        "Keep only one of them on the square.",
    ),
    # -- setup --
    "too-few-start-squares": CodeInfo(
        E,
        "Fewer start squares than the setup uses, or fewer than 2.",
        "Add start squares or lower setup.start_squares_used.",
    ),
    "setup-start-squares-used": CodeInfo(
        W,
        "setup.start_squares_used is not 2 or 3 (the general rules use 2 to 3).",
        "Set it to 2 or 3 unless the map's own rules say otherwise.",
    ),
    "setup-tile-pool-range": CodeInfo(
        E, "setup.tile_pool_min is larger than setup.tile_pool_max.", "Swap or fix the two values."
    ),
    "tile-pool-too-large": CodeInfo(
        E,
        "The recommended tile pool (tile_pool_max) is larger than the number of placeable "
        "squares, so the tiles cannot all be placed.",
        "Lower the tile pool or add squares.",
    ),
    "rule-set-setup": CodeInfo(
        W,
        "The start squares or chip count differ from the map's Map-Chips rule sheet.",
        "Match the sheet (e.g. France 2 of 3 start squares and 30 chips, Benelux 20 chips).",
    ),
    # -- border features and ferries --
    "border-feature-not-on-border": CodeInfo(
        E,
        "A border feature is not on an edge of a map square facing the outside.",
        "Move it to a coastline/border edge.",
    ),
    "border-feature-kind": CodeInfo(
        E,
        "A border feature is a field; only roads and cities run abroad.",
        "Make it a road or a city, or delete it.",
    ),
    "ferry-endpoint-not-on-border": CodeInfo(
        E,
        "A ferry endpoint is not on an edge of a map square facing the outside (the water).",
        "Move the endpoint to a coastline edge.",
    ),
    "ferry-endpoint-on-land-border": CodeInfo(
        E,
        "A ferry endpoint is on an edge facing a land border (clouds): ferries cross only the sea.",
        "Move the endpoint to an edge facing the sea, or mark that edge as sea.",
    ),
    "ferry-endpoints-coincide": CodeInfo(
        E, "Both endpoints of a ferry are on the same square.", "Move one endpoint."
    ),
    "ferry-endpoint-shared": CodeInfo(
        E,
        "An edge is the endpoint of two ferries, or of a ferry and a border feature.",
        "Give each route its own edge.",
    ),
    "ferry-crosses-land": CodeInfo(
        W,
        "The straight line between a ferry's endpoints crosses map squares.",
        "Check the endpoints; a printed route normally runs over water.",
    ),
    # -- large cities --
    "city-empty": CodeInfo(E, "A large city has no squares.", "Paint its squares or delete it."),
    "city-not-contiguous": CodeInfo(
        E,
        "A large city's squares are not orthogonally connected.",
        "Split it into two cities or fill the gap.",
    ),
    "city-edge-not-outer": CodeInfo(
        E,
        "A city edge is listed that is not an outer edge of the city (an internal edge "
        "between two of its squares, or an edge of a square it does not cover).",
        "Delete the edge entry.",
    ),
    "city-edges-disagree": CodeInfo(
        E,
        "Two adjacent large cities print different things on their shared edge.",
        "Make both sides city, road or field.",
    ),
    "city-unconnectable": CodeInfo(
        E,
        "A large city has no open side (city edge) next to a placeable square, so it can "
        "never be connected.",
        "Mark at least one edge towards a placeable square as city.",
    ),
    # -- reachability --
    "unreachable-square": CodeInfo(
        E,
        "Placeable squares that no tile chain can reach from any start square (through "
        "placeable land, connected large cities and ferries; gated squares only by ferry).",
        "Connect them by land or a ferry (the message names the shortest sea crossing), or "
        "remove them.",
    ),
    "gated-without-ferry": CodeInfo(
        E,
        "Ferry-gated island squares with no ferry landing on their island part.",
        "Add a ferry route to one of them.",
    ),
    # -- tiles --
    "unsatisfiable-square": CodeInfo(
        E,
        "No tile of the tile pool fits the printed constraints around a square (border "
        "features, large-city edges, ferry road), or two constraints on one side conflict.",
        "Change the printed features around the square.",
    ),
    "tile-constraints-unchecked": CodeInfo(
        W,
        "The tile pool could not be loaded, so printed edge constraints were not checked.",
        "Pick a known tile pool (base, base+ic, base+ic+tb).",
    ),
    # -- tracks --
    "track-invalid": CodeInfo(
        E,
        "A track number is not 1..12, a track has no rows, or a row is in two tracks.",
        "Number tracks 1..12 and give each row to one track.",
    ),
    # -- chips --
    "chips-infeasible": CodeInfo(
        E,
        "For some allowed choice of used start squares, fewer chips than setup.chip_count "
        "can legally be placed (exact maximum).",
        "Free up squares or lower the chip count.",
    ),
    "setup-chip-count": CodeInfo(
        E,
        "setup.chip_count asks for more chips than the Map-Chips box holds (30); a game could "
        "not be set up.",
        "Lower setup.chip_count to 30 or fewer.",
    ),
    "chips-unproved": CodeInfo(
        W,
        "There are too many choices of used start squares to prove within the work limit that "
        "every one leaves room for setup.chip_count chips; the message gives the proved bound.",
        "Use fewer start squares (or fewer used), or lower the chip count to the proved bound.",
    ),
    # -- internal --
    "validator-failure": CodeInfo(
        E,
        "A check failed unexpectedly on this map (a bug, or data no file can hold).",
        "Report it with the map file.",
    ),
}
"""The codes of the map checks (loading and validation): severity, meaning and how to fix it.
The rule sets' own codes join them in :data:`engine.validation.CODES` (every code, also in
``engine/VALIDATION.md``)."""


class IssueList:
    """Collects located issues (the ``IssueSink`` a rule set's ``check_map`` reports to):
    squares are kept in reading order, edges as a tuple."""

    def __init__(self) -> None:
        self.issues: list[Issue] = []

    def add(self, severity: Severity, code: str, message: str, **where: Any) -> None:
        if "squares" in where:
            where["squares"] = tuple(sorted(where["squares"], key=lambda sq: (sq[1], sq[0])))
        if "edges" in where:
            where["edges"] = tuple(where["edges"])
        self.issues.append(Issue(severity, code, message, Where(**where)))

    def err(self, code: str, message: str, **where: Any) -> None:
        self.add(Severity.ERROR, code, message, **where)

    def warn(self, code: str, message: str, **where: Any) -> None:
        self.add(Severity.WARNING, code, message, **where)


__all__ = ["MAP_CODES", "CodeInfo", "Issue", "IssueList", "Severity", "Where", "list_text"]
