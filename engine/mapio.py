"""Reading and writing map files: the ``carcassonne-map`` JSON format.

A map file is one JSON object::

    {
      "format": "carcassonne-map",
      "format_version": 2,
      "id": "...", "name": "...", "author": "...", "description": "...",
      "rule_set": "none", "setup": {...}, "square_size_mm": 45.0,
      "grid": {"width": 12, "height": 9},
      "squares": ["..####..", ...],          # one string per row: '#' map square, '.' outside
      "start_squares": [{"x": 1, "y": 2, "name": "..."}, ...],
      ...                                     # one list per element kind, sorted
      "editor": {...}
    }

Output is deterministic and diff-friendly: elements are sorted (row by row, then by id) and every
element object sits on its own line. ``loads_map(dumps_map(m)) == m`` for every map that passes
the schema. Older format versions are upgraded on load through :data:`MIGRATIONS`; newer ones are
rejected with a message saying so. Every failure is a :class:`~engine.errors.MapFormatError`
naming the file and, where relevant, the JSON path.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from engine import boundedio
from engine.boundedio import (  # the atomic writer lives in boundedio; re-exported here
    OutputFileError,
    remove_stale_temporaries,
    writable_target,
    write_bytes_atomically,
    write_text_atomically,
)
from engine.errors import MapFormatError
from engine.geometry import Edge, Side, Square
from engine.issues import Issue, Severity, Where
from engine.mapdef import (
    FORMAT_VERSION,
    MAX_GRID,
    BorderFeature,
    Colour,
    EdgeKind,
    EmbeddedRuleSet,
    Ferry,
    FileRuleSet,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    MarkSquare,
    NamedRuleSet,
    RuleSetRef,
    Setup,
    StartSquare,
    Town,
    Track,
    UnreadableRuleSet,
)
from engine.resources import schema_path
from engine.rules.data.ruleset import (
    NAME_PATTERN,
    RuleSetError,
    check_ruleset_dict,
    load_ruleset,
    spec_of_valid_dict,
)
from engine.schemacheck import schema_message, short_repr, strict_validator_class

FORMAT_NAME = "carcassonne-map"
MAX_FILE_BYTES = boundedio.LIMITS["map"]
"""Map files larger than this are refused before parsing (a real map is a few kB)."""
MAX_EDITOR_BYTES = 256 * 1024
"""Largest ``editor`` block (as compact JSON): editor settings are a few hundred bytes; a larger
block is dropped on load (with a warning) and refused on save, so saving never stalls on it."""

_LINE_WIDTH = 120

# -- migrations ------------------------------------------------------------------------------


def _migrate_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 kept ``width``/``height`` at the top and the map squares as ``land: [[x, y], ...]``.

    Version 1 moved them to ``grid`` and row strings (``squares``). Squares outside the grid cannot
    be expressed as rows; they are dropped here (the grid is what the designer drew).
    """
    out = {k: v for k, v in data.items() if k not in ("width", "height", "land")}
    width, height = data.get("width"), data.get("height")
    land = data.get("land", [])
    if not isinstance(width, int) or not isinstance(height, int) or isinstance(width, bool):
        raise MapFormatError("version 0 map needs integer 'width' and 'height'")
    if not isinstance(land, list):
        raise MapFormatError("'land' must be a list of [x, y] pairs", path="$.land")
    if not (1 <= width <= MAX_GRID and 1 <= height <= MAX_GRID):
        raise MapFormatError(f"grid {width}x{height} is out of range 1..{MAX_GRID}")
    rows = [["."] * width for _ in range(height)]
    for i, item in enumerate(land):
        ok = (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        )
        if not ok:
            raise MapFormatError("expected an [x, y] pair of integers", path=f"$.land[{i}]")
        x, y = item
        if 0 <= x < width and 0 <= y < height:
            rows[y][x] = "#"
    out["grid"] = {"width": width, "height": height}
    out["squares"] = ["".join(r) for r in rows]
    out["format_version"] = 1
    return out


def _migrate_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 tells land borders (clouds) from the sea: ``land_borders`` lists the edges of
    map squares facing a neighbouring country. Version 1 maps knew only the outside, which they
    drew as sea, so they get none (the editor's neighbour names, where saved, say where they lie;
    the editor offers to mark them)."""
    out = dict(data)
    out.setdefault("land_borders", [])
    out["format_version"] = 2
    return out


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    0: _migrate_0_to_1,
    1: _migrate_1_to_2,
}
"""``version -> function`` upgrading a raw map dict of that version to the next version."""

_MAX_COORD = 1000


def migrate(data: dict[str, Any], *, source: str = "<data>") -> dict[str, Any]:
    """Upgrade a raw map dict to :data:`~engine.mapdef.FORMAT_VERSION` (returns a new dict)."""
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise MapFormatError(
            f"'format_version' must be an integer, got {json.dumps(version)}",
            source=source,
            path="$.format_version",
        )
    if version > FORMAT_VERSION:
        raise MapFormatError(
            f"format_version {version} is newer than this program supports ({FORMAT_VERSION}); "
            "update Carcassonne Maps Studio to open it",
            source=source,
            path="$.format_version",
        )
    if version < min(MIGRATIONS, default=FORMAT_VERSION):
        raise MapFormatError(
            f"format_version {version} is not a known version",
            source=source,
            path="$.format_version",
        )
    while version < FORMAT_VERSION:
        try:
            data = MIGRATIONS[version](data)
        except MapFormatError as exc:
            raise MapFormatError(
                f"cannot upgrade from format_version {version}: {exc.reason}",
                source=source,
                path=exc.path,
            ) from None
        version = data["format_version"]
    return data


# -- schema ----------------------------------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_path("map").read_text(encoding="utf-8"))
    return schema


@cache
def _validator() -> Any:
    # deferred: jsonschema costs ~0.1 s to import; a valid file never needs it (fastjsonschema)
    import jsonschema

    schema = _schema()
    cls = jsonschema.validators.validator_for(schema)
    # the bundled schema is checked against its metaschema by tests/engine/test_startup.py,
    # not at every start (0.1-0.4 s)
    return strict_validator_class(cls)(schema)


@cache
def _fast_validator() -> Callable[[Any], Any] | None:
    """The schema compiled by fastjsonschema (~40x faster on large maps), or ``None``.

    It only says yes or no: a "no" is explained by the jsonschema check. Its "integer" accepts
    3.0, so :func:`_check_integers` runs before it.
    """
    try:
        import fastjsonschema  # deferred: only files that are read need it
    except ImportError:  # pragma: no cover - a dependency; jsonschema alone is just slower
        return None
    return fastjsonschema.compile(_schema())


_PER_SQUARE = (
    "start_squares",
    "towns",
    "waves",
    "chip_squares",
    "large_cities",
    "islands",
    "marks",
)
_PER_EDGE = ("border_features", "ferries")
_NESTED_LISTS = {
    "large_cities": (("squares", "square"), ("edges", "edge")),
    "islands": (("squares", "square"),),
}


def element_bounds(width: int, height: int) -> dict[str, int]:
    """Most entries each element list may hold on a ``width`` x ``height`` grid: one per square
    (start squares, towns, waves, chip squares, large cities, islands, tracks; and the squares of
    all large cities or all islands together), one per edge between squares (border features,
    ferries), one per square side (the edges of all large cities together). More entries can only
    be repeats. Elements may lie just off the grid (the validator reports them), so each bound
    also counts a ring of squares around it, plus a little slack for tiny grids."""
    squares = width * height + 2 * (width + height) + 64
    edges = 2 * squares + width + height
    bounds = {key: squares for key in _PER_SQUARE}
    bounds.update({key: edges for key in _PER_EDGE})
    bounds.update({"tracks": squares, "square": squares, "edge": 4 * squares})
    return bounds


def _check_counts(data: dict[str, Any], source: str) -> None:
    """Refuse element lists longer than the grid can hold, before the (slower) schema check."""
    grid = data.get("grid")
    size = [MAX_GRID, MAX_GRID]
    if isinstance(grid, dict):
        for i, key in enumerate(("width", "height")):
            v = grid.get(key)
            if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_GRID:
                size[i] = v
    bounds = element_bounds(size[0], size[1])
    grid_text = f"a {size[0]}x{size[1]} grid"
    for key in (*_PER_SQUARE, *_PER_EDGE, "tracks"):
        items = data.get(key)
        if not isinstance(items, list):
            continue
        if len(items) > bounds[key]:
            raise MapFormatError(
                f"{len(items)} entries, more than {grid_text} can hold (at most {bounds[key]})",
                source=source,
                path=f"$.{key}",
            )
        for sub, kind in _NESTED_LISTS.get(key, ()):
            total = sum(
                len(it[sub])
                for it in items
                if isinstance(it, dict) and isinstance(it.get(sub), list)
            )
            if total > bounds[kind]:
                raise MapFormatError(
                    f"{total} {sub} in all {key} together, more than {grid_text} can hold "
                    f"(at most {bounds[kind]})",
                    source=source,
                    path=f"$.{key}",
                )


_Check = Callable[[Any], "tuple[list[str | int], float] | None"]


def _integer_checker(schema: Any) -> _Check | None:
    """A function finding the first float in an integer field of data shaped like ``schema``
    (``None`` if ``schema`` has no integer field below it). Built once from the schema, it walks
    only where integers live and builds a path only for what it finds."""
    if not isinstance(schema, dict):
        return None
    if schema.get("type") == "integer":

        def check_int(value: Any) -> tuple[list[str | int], float] | None:
            return ([], value) if type(value) is float else None

        return check_int
    props = {
        k: c
        for k, c in ((k, _integer_checker(v)) for k, v in schema.get("properties", {}).items())
        if c is not None
    }
    items = _integer_checker(schema.get("items"))
    if not props and items is None:
        return None

    def check(value: Any) -> tuple[list[str | int], float] | None:
        if isinstance(value, dict) and props:
            for key, sub in props.items():
                if key in value:
                    found = sub(value[key])
                    if found is not None:
                        return [key, *found[0]], found[1]
        elif isinstance(value, list) and items is not None:
            for i, item in enumerate(value):
                found = items(item)
                if found is not None:
                    return [i, *found[0]], found[1]
        return None

    return check


@cache
def _integers_of_schema() -> _Check:
    checker = _integer_checker(_schema())
    assert checker is not None  # the grid size is an integer
    return checker


def _json_path(path: list[str | int]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _check_integers(data: dict[str, Any], source: str) -> None:
    """Refuse a non-integer number (3.0, -0.0) in an integer field, naming the field."""
    found = _integers_of_schema()(data)
    if found is not None:
        path, value = found
        raise MapFormatError(
            f"{value!r} is not an integer (write it without a decimal point)",
            source=source,
            path=_json_path(path),
        )


def _check_storable(data: Any, source: str) -> None:
    """Refuse what JSON in UTF-8 cannot hold (1e999, a lone surrogate), naming the field."""
    bad = boundedio.unstorable(data)
    if bad is not None:
        raise MapFormatError(bad[1], source=source, path=bad[0])


def _schema_check(data: Any, source: str) -> None:
    from jsonschema.exceptions import best_match  # deferred: see _validator

    if isinstance(data, dict):
        _check_counts(data, source)
        _check_storable(data, source)
        _check_integers(data, source)
        fast = _fast_validator()
        if fast is not None:
            try:
                fast(data)
                return
            except Exception:  # noqa: BLE001 - explained precisely below
                pass
    error = best_match(_validator().iter_errors(data))
    if error is not None:
        path = "" if error.json_path == "$" else error.json_path
        raise MapFormatError(schema_message(error), source=source, path=path)


# -- MapDef -> dict ----------------------------------------------------------------------------


def _sq_key(square: Square) -> tuple[int, int]:
    return (square[1], square[0])


def _edge_key(edge: Edge) -> tuple[int, int, int]:
    return (edge.y, edge.x, Side(edge.side).ordinal)


def _edge_dict(edge: Edge) -> dict[str, Any]:
    return {"x": edge.x, "y": edge.y, "side": Side(edge.side).value}


def map_to_dict(m: MapDef, *, inline_rule_set: bool = False) -> dict[str, Any]:
    """The JSON-ready dict of ``m`` in the current format version, with every list sorted.

    Map squares outside the grid have no row to live in and are left out; :func:`dumps_map` and
    :func:`save_map` refuse such a map instead of losing them. ``inline_rule_set``: a rule set
    read from a file is embedded instead of named (a record's map stands alone).
    """
    rows = [
        "".join("#" if (x, y) in m.land else "." for x in range(m.width)) for y in range(m.height)
    ]
    s = m.setup
    out: dict[str, Any] = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "id": m.id,
        "name": m.name,
        "author": m.author,
        "description": m.description,
        "rule_set": rule_set_value(m, inline=inline_rule_set),
        "setup": {
            "start_squares_used": s.start_squares_used,
            "chip_count": s.chip_count,
            "tile_pool_min": s.tile_pool_min,
            "tile_pool_max": s.tile_pool_max,
            "meeples_per_player": s.meeples_per_player,
        },
        "square_size_mm": float(m.square_size_mm),
        "grid": {"width": m.width, "height": m.height},
        "squares": rows,
        "start_squares": [
            {"x": x, "y": y, "name": m.start_squares[(x, y)].name}
            for (x, y) in sorted(m.start_squares, key=_sq_key)
        ],
        "towns": [
            {
                "x": x,
                "y": y,
                "name": t.name,
                "grape": None if t.grape is None else Colour(t.grape).value,
            }
            for (x, y), t in sorted(m.towns.items(), key=lambda kv: _sq_key(kv[0]))
        ],
        "large_cities": [
            {
                "id": c.id,
                "name": c.name,
                "coats_of_arms": c.coats_of_arms,
                "squares": [{"x": x, "y": y} for (x, y) in sorted(c.squares, key=_sq_key)],
                "edges": [
                    {**_edge_dict(e), "kind": EdgeKind(c.edges[e]).value}
                    for e in sorted(c.edges, key=_edge_key)
                ],
            }
            for c in sorted(m.large_cities.values(), key=lambda c: c.id)
        ],
        "border_features": [
            {
                **_edge_dict(e),
                "kind": EdgeKind(f.kind).value,
                "coats_of_arms": f.coats_of_arms,
                "neighbour": f.neighbour,
            }
            for e, f in sorted(m.border_features.items(), key=lambda kv: _edge_key(kv[0]))
        ],
        "land_borders": [_edge_dict(e) for e in sorted(m.land_borders, key=_edge_key)],
        "ferries": [
            {
                "id": f.id,
                "a": _edge_dict(f.a),
                "b": _edge_dict(f.b),
                "coats_of_arms": f.coats_of_arms,
            }
            for f in sorted(m.ferries.values(), key=lambda f: f.id)
        ],
        "islands": [
            {
                "id": i.id,
                "name": i.name,
                "colour": None if i.colour is None else Colour(i.colour).value,
                "squares": [
                    {
                        "x": x,
                        "y": y,
                        "role": IslandRole(info.role).value,
                        "coats_of_arms": info.coats_of_arms,
                    }
                    for (x, y), info in sorted(i.squares.items(), key=lambda kv: _sq_key(kv[0]))
                ],
            }
            for i in sorted(m.islands.values(), key=lambda i: i.id)
        ],
        "waves": [{"x": x, "y": y} for (x, y) in sorted(m.waves, key=_sq_key)],
        "chip_squares": [
            {"x": x, "y": y, "colour": Colour(c).value}
            for (x, y), c in sorted(m.chip_squares.items(), key=lambda kv: _sq_key(kv[0]))
        ],
        "tracks": [
            {"number": t.number, "rows": list(t.rows)}
            for t in sorted(m.tracks.values(), key=lambda t: t.number)
        ],
        "isle_of_man": None
        if m.isle_of_man is None
        else {"x": m.isle_of_man[0], "y": m.isle_of_man[1]},
        "editor": m.editor,
    }
    if m.marks:  # written only when there are some: maps without marks stay as they were
        out["marks"] = [
            {
                "x": x,
                "y": y,
                "mark": mk.mark,
                **({} if mk.colour is None else {"colour": Colour(mk.colour).value}),
                **({} if mk.value is None else {"value": mk.value}),
            }
            for (x, y), mk in sorted(m.marks.items(), key=lambda kv: _sq_key(kv[0]))
        ]
    return out


# -- the rule set -----------------------------------------------------------------------------


def rule_set_value(m: MapDef, *, inline: bool = False) -> Any:
    """What a map file's ``rule_set`` holds for ``m``: ``{"file": ...}`` for a rule-set file
    (its content with ``inline``, once read), the embedded rule set, or the name (as the map was
    read: nothing is lost)."""
    ref = m.rule_set
    if isinstance(ref, NamedRuleSet):
        return ref.name
    if isinstance(ref, EmbeddedRuleSet) or (inline and isinstance(ref, FileRuleSet)):
        return ref.spec.to_dict()
    if ref.file is not None:
        return {"file": ref.file}
    return ref.raw


def read_rule_set(value: Any, source: str) -> RuleSetRef:
    """The rule set a map file's ``rule_set`` value (schema-valid) gives. A rule set that
    cannot be read is an :class:`UnreadableRuleSet` (the validator's ``ruleset-invalid``); a
    file reference is unreadable until :func:`resolve_rule_set_file` reads it."""
    if isinstance(value, str):
        # a name the registry knows is checked by the validator (ruleset-invalid otherwise)
        return NamedRuleSet(value)
    if set(value) == {"file"}:
        return UnreadableRuleSet(
            f"{source}: rule_set.file: {short_repr(value['file'])} is not read: the map was "
            "not loaded from a file",
            file=value["file"],
        )
    problems = check_ruleset_dict(value)
    if problems:
        name = value.get("name")
        p = problems[0]
        return UnreadableRuleSet(
            f"{source}: rule_set{'.' + p.path if p.path else ''}: {p.message}",
            name=name if isinstance(name, str) and re.fullmatch(NAME_PATTERN, name) else "invalid",
            raw=value,
        )
    return EmbeddedRuleSet(spec_of_valid_dict(value, f"{source}: rule_set"))


def resolve_rule_set_file(m: MapDef, map_path: str | os.PathLike[str]) -> None:
    """Read the rule-set file ``m`` names (``{"file": ...}``), relative to the folder of
    ``map_path`` and never outside it, within its size bound: ``m.rule_set`` becomes a
    :class:`FileRuleSet`, or an :class:`UnreadableRuleSet` saying why not."""
    file = m.rule_set.file
    if file is None:
        return
    try:
        target = boundedio.inside_folder(file, map_path, what="rule set")
        spec = load_ruleset(target)
    except (boundedio.InputFileError, RuleSetError) as exc:
        error = f"{boundedio.shown(os.fspath(map_path))}: rule_set.file: {exc}"
        m.rule_set = UnreadableRuleSet(error, file=file)
        return
    m.rule_set = FileRuleSet(file, spec)


# -- dict -> MapDef ----------------------------------------------------------------------------


def _load_issue(code: str, message: str, squares: Iterable[Square] = (), **where: Any) -> Issue:
    return Issue(Severity.WARNING, code, message, Where(squares=tuple(squares), **where))


class _Builder:
    """Converts a schema-valid version-1 dict into a MapDef, noting duplicates (kept last)."""

    MAX_NOTED = 50
    """Duplicates noted one by one; the rest are counted in one last issue."""

    def __init__(self, source: str = "<data>") -> None:
        self.source = source
        self.issues: list[Issue] = []
        self.unnoted = 0

    def _noted(self) -> bool:
        """Whether another duplicate may get its own issue (else it is only counted)."""
        if len(self.issues) < self.MAX_NOTED:
            return True
        self.unnoted += 1
        return False

    def _dup_square(self, what: str, square: Square) -> None:
        if not self._noted():
            return
        self.issues.append(
            _load_issue(
                "duplicate-square",
                f"{what} lists square {square} more than once; the last entry is kept",
                [square],
            )
        )

    def _dup_edge(self, what: str, edge: Edge) -> None:
        if not self._noted():
            return
        self.issues.append(
            _load_issue(
                "duplicate-edge",
                f"{what} lists edge {edge} more than once; the last entry is kept",
                edges=(edge,),
            )
        )

    def _dup_id(self, what: str, ident: object) -> None:
        if not self._noted():
            return
        self.issues.append(
            _load_issue(
                "duplicate-id",
                f"two {what} have the id {ident!r}; the last one is kept",
            )
        )

    def build(self, d: dict[str, Any]) -> MapDef:
        grid = d["grid"]
        width, height = grid["width"], grid["height"]
        rows = d["squares"]
        if len(rows) != height:
            raise MapFormatError(
                f"expected {height} rows (grid height), found {len(rows)}", path="$.squares"
            )
        land: set[Square] = set()
        for y, row in enumerate(rows):
            if len(row) != width:
                raise MapFormatError(
                    f"row {y} has {len(row)} squares, expected {width} (grid width)",
                    path=f"$.squares[{y}]",
                )
            land.update((x, y) for x, ch in enumerate(row) if ch == "#")
        s = d.get("setup", {})
        defaults = Setup()
        setup = Setup(
            start_squares_used=s.get("start_squares_used", defaults.start_squares_used),
            chip_count=s.get("chip_count", defaults.chip_count),
            tile_pool_min=s.get("tile_pool_min", defaults.tile_pool_min),
            tile_pool_max=s.get("tile_pool_max", defaults.tile_pool_max),
            meeples_per_player=s.get("meeples_per_player", defaults.meeples_per_player),
        )
        m = MapDef(
            id=d["id"],
            name=d["name"],
            width=width,
            height=height,
            author=d.get("author", ""),
            description=d.get("description", ""),
            rule_set=read_rule_set(d.get("rule_set", "none"), self.source),
            setup=setup,
            square_size_mm=float(d.get("square_size_mm", 45.0)),
            land=land,
        )
        for item in d.get("start_squares", []):
            sq = (item["x"], item["y"])
            if sq in m.start_squares:
                self._dup_square("start_squares", sq)
            m.start_squares[sq] = StartSquare(item["name"])
        for item in d.get("towns", []):
            sq = (item["x"], item["y"])
            if sq in m.towns:
                self._dup_square("towns", sq)
            grape = item.get("grape")
            m.towns[sq] = Town(item["name"], None if grape is None else Colour(grape))
        for item in d.get("large_cities", []):
            city = LargeCity(item["id"], item["name"], coats_of_arms=item.get("coats_of_arms", 0))
            for sq_item in item.get("squares", []):
                sq = (sq_item["x"], sq_item["y"])
                if sq in city.squares:
                    self._dup_square(f"large city {city.id!r}", sq)
                city.squares.add(sq)
            for e_item in item.get("edges", []):
                edge = _edge(e_item)
                if edge in city.edges:
                    self._dup_edge(f"large city {city.id!r}", edge)
                city.edges[edge] = EdgeKind(e_item["kind"])
            if city.id in m.large_cities:
                self._dup_id("large cities", city.id)
            m.large_cities[city.id] = city
        for item in d.get("border_features", []):
            edge = _edge(item)
            if edge in m.border_features:
                self._dup_edge("border_features", edge)
            m.border_features[edge] = BorderFeature(
                EdgeKind(item["kind"]), item.get("coats_of_arms", 0), item.get("neighbour", "")
            )
        for item in d.get("land_borders", []):
            m.land_borders.add(_edge(item))
        for item in d.get("ferries", []):
            ferry = Ferry(
                item["id"], _edge(item["a"]), _edge(item["b"]), item.get("coats_of_arms", 0)
            )
            if ferry.id in m.ferries:
                self._dup_id("ferries", ferry.id)
            m.ferries[ferry.id] = ferry
        for item in d.get("islands", []):
            colour = item.get("colour")
            island = Island(item["id"], item["name"], None if colour is None else Colour(colour))
            for sq_item in item.get("squares", []):
                sq = (sq_item["x"], sq_item["y"])
                if sq in island.squares:
                    self._dup_square(f"island {island.id!r}", sq)
                island.squares[sq] = IslandSquare(
                    IslandRole(sq_item.get("role", "land")), sq_item.get("coats_of_arms", 0)
                )
            if island.id in m.islands:
                self._dup_id("islands", island.id)
            m.islands[island.id] = island
        for item in d.get("waves", []):
            sq = (item["x"], item["y"])
            if sq in m.waves:
                self._dup_square("waves", sq)
            m.waves.add(sq)
        for item in d.get("marks", []):
            sq = (item["x"], item["y"])
            if sq in m.marks:
                self._dup_square("marks", sq)
            colour = item.get("colour")
            m.marks[sq] = MarkSquare(
                item["mark"], None if colour is None else Colour(colour), item.get("value")
            )
        for item in d.get("chip_squares", []):
            sq = (item["x"], item["y"])
            if sq in m.chip_squares:
                self._dup_square("chip_squares", sq)
            m.chip_squares[sq] = Colour(item["colour"])
        for item in d.get("tracks", []):
            track = Track(item["number"], tuple(item["rows"]))
            if track.number in m.tracks:
                self._dup_id("tracks", track.number)
            m.tracks[track.number] = track
        iom = d.get("isle_of_man")
        m.isle_of_man = None if iom is None else (iom["x"], iom["y"])
        m.editor = d.get("editor", {})
        if self.unnoted:
            self.issues.append(
                _load_issue(
                    "duplicate-square",
                    f"and {self.unnoted} more repeated entries (the last of each is kept)",
                )
            )
        return m


def _edge(item: dict[str, Any]) -> Edge:
    return Edge(item["x"], item["y"], Side(item["side"]))


def _check_header(data: Any, source: str) -> None:
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(data), "a number"
        )
        raise MapFormatError(
            f"not a map: the file holds {kind}, expected a JSON object", source=source
        )
    fmt = data.get("format")
    if fmt != FORMAT_NAME:
        got = "no 'format' field" if fmt is None else f"'format' is {json.dumps(fmt)[:60]}"
        raise MapFormatError(
            f"not a Carcassonne map ({got}; expected {FORMAT_NAME!r})", source=source
        )


def _bounded_editor(data: dict[str, Any], builder: _Builder) -> dict[str, Any]:
    """``data`` with an ``editor`` block over :data:`MAX_EDITOR_BYTES` dropped (and noted)."""
    editor = data.get("editor")
    if not isinstance(editor, dict) or not editor:
        return data
    try:
        size = len(json.dumps(editor, separators=(",", ":")))
    except (TypeError, ValueError, RecursionError):
        size = MAX_EDITOR_BYTES + 1
    if size <= MAX_EDITOR_BYTES:
        return data
    builder.issues.append(
        _load_issue(
            "editor-settings-dropped",
            f"the editor settings hold {size // 1024} kB, more than the "
            f"{MAX_EDITOR_BYTES // 1024} kB allowed; they were left out (the map itself is whole)",
        )
    )
    return {**data, "editor": {}}


def _from_dict(data: Any, source: str) -> tuple[MapDef, list[Issue]]:
    _check_header(data, source)
    data = migrate(data, source=source)
    builder = _Builder(source)
    data = _bounded_editor(data, builder)
    _schema_check(data, source)
    try:
        m = builder.build(data)
    except MapFormatError as exc:
        raise MapFormatError(exc.reason, source=source, path=exc.path) from None
    return m, builder.issues


def map_from_dict(data: Any, *, source: str = "<data>") -> MapDef:
    """The :class:`MapDef` of a raw map dict (any supported format version).

    Raises :class:`MapFormatError` naming ``source`` and the JSON path of the first problem.
    Duplicated entries are tolerated (the last one wins); :func:`read_map` reports them.
    """
    return _from_dict(data, source)[0]


# -- text ----------------------------------------------------------------------------------------


def _inline(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _pretty(value: Any, indent: int, key_len: int = 0) -> str:
    """JSON with each element object on one line where it fits, lists of objects one per line."""
    pad = " " * indent
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        flat = _inline(value)
        # Nested objects stay on one line when they fit; the top level never does.
        if indent > 0 and indent + key_len + len(flat) <= _LINE_WIDTH:
            return flat
        if not value:
            return "{}"
        parts = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            parts.append(inner + key + _pretty(v, indent + 2, len(key)))
        return "{\n" + ",\n".join(parts) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        structured = any(isinstance(v, dict | list | str) for v in value)
        flat = _inline(value)
        if not structured and indent + key_len + len(flat) <= _LINE_WIDTH:
            return flat
        items = [inner + _pretty(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _inline(value)


def dumps_map(m: MapDef) -> str:
    """The file text of ``m``: deterministic, sorted, one element per line, ending in a newline.

    Raises :class:`MapFormatError` if ``m`` cannot be written as a valid map file (e.g. an empty
    id, a negative coat-of-arms count, or map squares outside the grid, which rows cannot hold),
    so an unreadable or lossy file is never produced.
    """
    outside = sorted((sq for sq in m.land if not m.in_grid(sq)), key=lambda sq: (sq[1], sq[0]))
    if outside:
        shown = ", ".join(f"({x}, {y})" for x, y in outside[:5])
        more = f" and {len(outside) - 5} more" if len(outside) > 5 else ""
        raise MapFormatError(
            f"map squares {shown}{more} lie outside the {m.width}x{m.height} grid and cannot be "
            "saved; enlarge the grid or remove them",
            source=f"map {m.id!r}",
            path="$.squares",
        )
    data = map_to_dict(m)
    try:
        editor_text = json.dumps(data["editor"], allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise MapFormatError(f"editor settings are not JSON data: {exc}", path="$.editor") from None
    if len(editor_text) > MAX_EDITOR_BYTES:
        raise MapFormatError(
            f"editor settings hold {len(editor_text) // 1024} kB; at most "
            f"{MAX_EDITOR_BYTES // 1024} kB are saved (remove the large entry)",
            source=f"map {m.id!r}",
            path="$.editor",
        )
    _schema_check(data, f"map {m.id!r}")
    text = _pretty(data, 0) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate, e.g. from "\ud800" in a loaded file
        raise MapFormatError(
            f"text holds a character that UTF-8 cannot store ({exc.object[exc.start]!r})",
            source=f"map {m.id!r}",
        ) from None
    return text


def loads_map(text: str, *, source: str = "<data>") -> MapDef:
    """The :class:`MapDef` in map file text; :class:`MapFormatError` naming ``source`` otherwise."""
    return _loads(text, source)[0]


def _loads(text: str, source: str) -> tuple[MapDef, list[Issue]]:
    if not text.strip():
        raise MapFormatError("the file is empty", source=source)
    if "\x00" in text:
        raise MapFormatError("not a text file (binary data)", source=source)
    if len(text) > MAX_FILE_BYTES:
        raise MapFormatError(
            f"the text is too large (a map file may be at most {MAX_FILE_BYTES // 1024 // 1024} MB)",
            source=source,
        )
    repeated: list[str] = []

    def keep_last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                repeated.append(key)
            obj[key] = value
        return obj

    try:
        data = boundedio.parse_json(text, source, object_pairs_hook=keep_last)
    except boundedio.InputFileError as exc:
        raise MapFormatError(exc.reason, source=source) from None
    m, issues = _from_dict(data, source)
    for key in dict.fromkeys(repeated):
        issues.append(
            _load_issue(
                "duplicate-key",
                f"key {short_repr(key)} appears twice in one JSON object; the last value was used",
            )
        )
    return m, issues


def _read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    try:
        text = boundedio.read_text(path, limit=MAX_FILE_BYTES, what="map")
    except boundedio.InputFileError as exc:
        raise MapFormatError(exc.reason, source=exc.source) from None
    return text, boundedio.shown(os.fspath(path))


def read_map(path: str | os.PathLike[str]) -> tuple[MapDef, list[Issue]]:
    """Load a map file and also return the issues found while loading (duplicates, kept last).

    Stale temporary files of an interrupted save beside it are cleaned up.
    """
    text, source = _read_text(path)
    remove_stale_temporaries(path)
    m, issues = _loads(text, source)
    resolve_rule_set_file(m, path)
    return m, issues


def load_map(path: str | os.PathLike[str]) -> MapDef:
    """Load a map file; :class:`MapFormatError` naming the file and the problem otherwise."""
    return read_map(path)[0]


def save_map(m: MapDef, path: str | os.PathLike[str]) -> None:
    """Write ``m`` to ``path`` atomically (a temporary file in the same folder, then a rename).

    Either the whole new file is there afterwards or the old one is untouched.
    """
    write_text_atomically(path, dumps_map(m))


__all__ = [
    "FORMAT_NAME",
    "MAX_EDITOR_BYTES",
    "MAX_FILE_BYTES",
    "MIGRATIONS",
    "OutputFileError",
    "dumps_map",
    "load_map",
    "loads_map",
    "map_from_dict",
    "map_to_dict",
    "migrate",
    "read_map",
    "read_rule_set",
    "remove_stale_temporaries",
    "resolve_rule_set_file",
    "rule_set_value",
    "save_map",
    "writable_target",
    "write_bytes_atomically",
    "write_text_atomically",
]
