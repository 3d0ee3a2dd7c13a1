"""The semantic map validator: a list of located issues, never an exception.

:func:`validate_map` checks everything the schema cannot: squares and elements outside the grid or
on the wrong squares, start squares, border features and ferries, large-city edges, reachability
from the start squares, tile-pool feasibility of printed edge constraints, the per-rule-set
requirements of the Map-Chips sheets and the exact chip feasibility proof.

Each :class:`Issue` carries a stable kebab-case ``code`` (all listed in :data:`CODES` and in
``engine/VALIDATION.md``) and a :class:`Where` that locates it, so an editor can jump there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.chips import ChipReading
from engine.errors import EngineError
from engine.geometry import SIDES, Edge, Side, Square
from engine.gridgraph import (
    coastline_length,
    components,
    land_outline,
    land_parts,
    reachable_squares,
    square_key,
)
from engine.islands import ferry_for
from engine.issues import MAP_CODES, CodeInfo, Issue, IssueList, Severity, Where
from engine.mapdef import EdgeKind, IslandRole, MapDef, UnreadableRuleSet
from engine.rules.chips_common import TOTAL_CHIPS
from engine.rules.data.prints import ISSUE_CODES
from engine.rules.registry import map_rules, rule_set_classes
from engine.startchoices import every_choice, worst_choice
from engine.tiles import default_tileset


def _rule_set_codes() -> dict[str, CodeInfo]:
    """The issue codes every rule set class declares (``Rules.issue_codes``)."""
    out: dict[str, CodeInfo] = {
        code: CodeInfo(Severity(info.severity), info.meaning, info.fix)
        for code, info in ISSUE_CODES.items()
    }
    for cls in rule_set_classes():
        for code, info in cls.issue_codes.items():
            out[code] = CodeInfo(Severity(info.severity), info.meaning, info.fix)
    return out


CODES: dict[str, CodeInfo] = {**MAP_CODES, **_rule_set_codes()}
"""Every issue code: severity, meaning and how to fix it (also in ``engine/VALIDATION.md``)."""

_KIND_CHAR = {EdgeKind.CITY: "C", EdgeKind.ROAD: "R", EdgeKind.FIELD: "F"}


def _sorted_squares(squares: Iterable[Square]) -> tuple[Square, ...]:
    return tuple(sorted(squares, key=square_key))


def _sq(sq: Square) -> str:
    return f"({sq[0]}, {sq[1]})"


class _Ctx(IssueList):
    """Per-run precomputed sets and the issue list."""

    def __init__(self, m: MapDef, signatures: Callable[[], set[str] | None], reading: Any) -> None:
        super().__init__()
        self.m = m
        self.signatures = signatures
        self.reading = reading
        self.land = set(m.land)
        self.city_of: dict[Square, str] = {}
        for cid in sorted(m.large_cities):
            for sq in m.large_cities[cid].squares:
                self.city_of.setdefault(sq, cid)
        self.stacks = m.stack_squares()
        self.gated = m.gated_squares()
        self.blocked = set(self.city_of) | set(m.waves) | self.stacks
        self.placeable = self.land - self.blocked


# -- checks ----------------------------------------------------------------------------------


def _check_grid(c: _Ctx) -> None:
    m = c.m
    if not c.land:
        c.err("no-squares", "the map has no map squares")
    outside = [sq for sq in c.land if not m.in_grid(sq)]
    if outside:
        c.err(
            "outside-grid",
            f"{len(outside)} map square(s) outside the {m.width}x{m.height} grid",
            squares=outside,
        )

    def element_squares() -> Iterable[tuple[str, Square, dict[str, Any]]]:
        for sq, s in m.start_squares.items():
            yield f"start square {s.name!r}", sq, {}
        for sq, t in m.towns.items():
            yield f"town {t.name!r}", sq, {}
        for cid, city in m.large_cities.items():
            for sq in city.squares:
                yield f"large city {city.name or cid!r}", sq, {"city": cid}
        for sq in m.waves:
            yield "wave", sq, {}
        for sq in m.chip_squares:
            yield "chip square", sq, {}
        for iid, island in m.islands.items():
            for sq in island.squares:
                yield f"island {island.name or iid!r}", sq, {"island": iid}

    for what, sq, where in element_squares():
        if not m.in_grid(sq):
            c.err("outside-grid", f"{what} at {_sq(sq)} is outside the grid", squares=[sq], **where)
        elif sq not in c.land:
            c.err(
                "not-a-map-square",
                f"{what} at {_sq(sq)} is not on a map square",
                squares=[sq],
                **where,
            )
    edges: list[tuple[str, Edge, dict[str, Any]]] = [
        ("border feature", e, {}) for e in m.border_features
    ]
    for fid, f in m.ferries.items():
        edges += [(f"ferry {fid!r}", f.a, {"ferry": fid}), (f"ferry {fid!r}", f.b, {"ferry": fid})]
    for what, e, where in edges:
        if not m.in_grid(e.square):
            c.err("outside-grid", f"{what} on edge {e} is outside the grid", edges=[e], **where)
    for cid, city in m.large_cities.items():
        for e in city.edges:
            if not m.in_grid(e.square):
                c.err(
                    "outside-grid",
                    f"edge {e} of large city {cid!r} is outside the grid",
                    edges=[e],
                    city=cid,
                )
    if m.isle_of_man is not None and not m.in_grid(m.isle_of_man):
        c.err(
            "outside-grid",
            f"the Isle of Man at {_sq(m.isle_of_man)} is outside the grid",
            squares=[m.isle_of_man],
        )
    for number in sorted(m.tracks):
        rows = [r for r in m.tracks[number].rows if not 0 <= r < m.height]
        if rows:
            c.err(
                "outside-grid",
                f"track {number} covers row(s) {', '.join(map(str, rows))} outside the grid "
                f"(rows 0..{m.height - 1})",
            )


def _check_names(c: _Ctx) -> None:
    """The same name on two different squares (a start square is its town: one place)."""
    m = c.m
    places: dict[str, set[Square]] = {}
    for sq, start in m.start_squares.items():
        if start.name:
            places.setdefault(start.name.casefold(), set()).add(sq)
    for sq, town in m.towns.items():
        if town.name:
            places.setdefault(town.name.casefold(), set()).add(sq)
    for city in m.large_cities.values():
        if city.name and city.squares:
            places.setdefault(city.name.casefold(), set()).add(min(city.squares, key=square_key))
    for squares in places.values():
        if len(squares) > 1:
            ordered = sorted(squares, key=square_key)
            name = _place_name(m, ordered[0])
            c.warn(
                "duplicate-name",
                f"{len(ordered)} places are called {name!r}: "
                + ", ".join(_sq(sq) for sq in ordered),
                squares=ordered,
            )


def _place_name(m: MapDef, sq: Square) -> str:
    for named in (m.start_squares.get(sq), m.towns.get(sq)):
        if named is not None and named.name:
            return named.name
    return next((c.name for c in m.large_cities.values() if sq in c.squares), "")


def _check_conflicts(c: _Ctx) -> None:
    m = c.m
    owners: dict[Square, list[str]] = {}
    for cid in sorted(m.large_cities):
        for sq in m.large_cities[cid].squares:
            owners.setdefault(sq, []).append(f"large city {cid!r}")
    for iid in sorted(m.islands):
        for sq, info in m.islands[iid].squares.items():
            what = f"island {iid!r}" + (" stack" if info.role is IslandRole.STACK else "")
            owners.setdefault(sq, []).append(what)
    for sq in m.waves:
        owners.setdefault(sq, []).append("wave")
    for sq in sorted(owners, key=square_key):
        names = owners[sq]
        cities = [n for n in names if n.startswith("large city")]
        islands = [n for n in names if n.startswith("island")]
        stack = any(n.endswith(" stack") for n in names)
        wave = "wave" in names
        bad = (
            len(cities) > 1 or len(islands) > 1 or (cities and (wave or stack)) or (wave and stack)
        )
        if bad:
            c.err(
                "element-conflict",
                f"square {_sq(sq)} is at once {' and '.join(names)}",
                squares=[sq],
            )
    # Things that need a tile on their square, on squares that never take one.
    for what, sq in [
        *((f"start square {s.name!r}", sq) for sq, s in m.start_squares.items()),
        *((f"town {t.name!r}", sq) for sq, t in m.towns.items()),
        *(("chip square", sq) for sq in m.chip_squares),
    ]:
        if sq in c.blocked and sq in c.land:
            c.err(
                "element-on-blocked-square",
                f"{what} at {_sq(sq)} is on a {_blocked_kind(c, sq)} square, which takes no tile",
                squares=[sq],
            )
    for e in m.border_features:
        if e.square in c.blocked and e.square in c.land:
            c.err(
                "element-on-blocked-square",
                f"border feature on edge {e} is on a {_blocked_kind(c, e.square)} square "
                "(a large city's own edges are set on the city)",
                edges=[e],
            )
    for fid, f in m.ferries.items():
        for e in (f.a, f.b):
            if e.square in c.blocked and e.square in c.land:
                c.err(
                    "element-on-blocked-square",
                    f"ferry {fid!r} ends on edge {e} of a {_blocked_kind(c, e.square)} square",
                    edges=[e],
                    ferry=fid,
                )


def _blocked_kind(c: _Ctx, sq: Square) -> str:
    if sq in c.city_of:
        return f"large-city ({c.city_of[sq]!r})"
    if sq in c.m.waves:
        return "wave"
    return "stack"


def _check_setup(c: _Ctx) -> None:
    m, s = c.m, c.m.setup
    need = max(2, s.start_squares_used)
    if len(m.start_squares) < need:
        c.err(
            "too-few-start-squares",
            f"the map has {len(m.start_squares)} start square(s); it needs at least {need} "
            f"(setup uses {s.start_squares_used}, the rules at least 2)",
            squares=list(m.start_squares),
        )
    if not 2 <= s.start_squares_used <= 3:
        c.warn(
            "setup-start-squares-used",
            f"setup.start_squares_used is {s.start_squares_used}; the general rules use 2 to 3",
        )
    if s.tile_pool_min > s.tile_pool_max:
        c.err(
            "setup-tile-pool-range",
            f"tile_pool_min {s.tile_pool_min} is larger than tile_pool_max {s.tile_pool_max}",
        )
    n = len(c.placeable & c.land)
    if s.tile_pool_max > n:
        c.err(
            "tile-pool-too-large",
            f"the recommended tile pool (up to {s.tile_pool_max} tiles) is larger than the "
            f"{n} placeable squares",
        )
    rules = _map_rules(m)
    sheet = rules.sheet_setup if rules is not None else None
    if rules is not None and sheet is not None:
        got = (len(m.start_squares), s.start_squares_used, _laid_out_chips(m, rules))
        if got != (sheet.start_squares, sheet.start_squares_used, sheet.chips):
            c.warn(
                "rule-set-setup",
                f"the {rules.name} sheet uses {sheet.start_squares_used} of "
                f"{sheet.start_squares} start squares and {sheet.chips} chips; this map has "
                f"{got[1]} of {got[0]} and {got[2]} chips",
            )


def _check_border_and_ferries(c: _Ctx) -> None:
    m = c.m
    for e in sorted(m.border_features, key=_edge_key):
        f = m.border_features[e]
        if e.square not in c.land or e.outer_square in c.land:
            why = (
                "its square is not a map square"
                if e.square not in c.land
                else "the square across it is a map square"
            )
            c.err(
                "border-feature-not-on-border",
                f"border feature ({EdgeKind(f.kind).value}) on edge {e} does not face the "
                f"outside: {why}",
                edges=[e],
            )
        if f.kind is EdgeKind.FIELD:
            c.err("border-feature-kind", f"border feature on edge {e} is a field", edges=[e])
    used: dict[Edge, str] = {e: "a border feature" for e in m.border_features}
    for fid in sorted(m.ferries):
        ferry = m.ferries[fid]
        for e in (ferry.a, ferry.b):
            if e.square not in c.land or e.outer_square in c.land:
                c.err(
                    "ferry-endpoint-not-on-border",
                    f"ferry {fid!r} endpoint {e} is not on a map square edge facing the water",
                    edges=[e],
                    ferry=fid,
                )
            elif e in m.land_borders:
                c.err(
                    "ferry-endpoint-on-land-border",
                    f"ferry {fid!r} endpoint {e} faces a land border (clouds), not the sea",
                    edges=[e],
                    ferry=fid,
                )
        if ferry.a.square == ferry.b.square:
            c.err(
                "ferry-endpoints-coincide",
                f"both endpoints of ferry {fid!r} are on square {_sq(ferry.a.square)}",
                edges=[ferry.a, ferry.b],
                ferry=fid,
            )
        for e in dict.fromkeys((ferry.a, ferry.b)):
            if e in used:
                c.err(
                    "ferry-endpoint-shared",
                    f"edge {e} is an endpoint of ferry {fid!r} and of {used[e]}",
                    edges=[e],
                    ferry=fid,
                )
            used[e] = f"ferry {fid!r}"
    if m.ferries:
        _check_ferry_lines(c)


def _edge_key(e: Edge) -> tuple[int, int, int]:
    return (e.y, e.x, Side(e.side).ordinal)


def _edge_midpoint(e: Edge) -> tuple[float, float]:
    dx, dy = Side(e.side).delta
    return (e.x + 0.5 + dx / 2, e.y + 0.5 + dy / 2)


def _check_ferry_lines(c: _Ctx) -> None:
    # deferred: shapely costs ~0.1 s to import and only maps with ferries need it here
    import shapely

    land = land_outline(c.land)
    if land.is_empty:
        return
    inner = land.buffer(-0.01, join_style="mitre")
    for fid in sorted(c.m.ferries):
        f = c.m.ferries[fid]
        if f.a.square == f.b.square:
            continue
        line = shapely.LineString([_edge_midpoint(f.a), _edge_midpoint(f.b)])
        if line.intersects(inner):
            c.warn(
                "ferry-crosses-land",
                f"the straight line of ferry {fid!r} from {f.a} to {f.b} crosses map squares",
                edges=[f.a, f.b],
                ferry=fid,
            )


def _check_cities(c: _Ctx) -> None:
    m = c.m
    for cid in sorted(m.large_cities):
        city = m.large_cities[cid]
        label = f"large city {city.name or cid!r}"
        if not city.squares:
            c.err("city-empty", f"{label} has no squares", city=cid)
            continue
        parts = components(set(city.squares))
        if len(parts) > 1:
            c.err(
                "city-not-contiguous",
                f"{label} is in {len(parts)} separate pieces",
                squares=city.squares,
                city=cid,
            )
        for e in sorted(city.edges, key=_edge_key):
            if e.square not in city.squares or e.outer_square in city.squares:
                why = (
                    "an internal edge between two of its squares"
                    if e.square in city.squares
                    else f"square {_sq(e.square)} is not one of its squares"
                )
                c.err(
                    "city-edge-not-outer",
                    f"{label} lists edge {e}, which is not an outer edge: {why}",
                    edges=[e],
                    city=cid,
                )
        # Shared edges with another city must agree (unlisted edges are fields).
        for e in city.outer_edges():
            other_id = c.city_of.get(e.outer_square)
            if other_id is None or other_id <= cid or other_id == cid:
                continue
            other = m.large_cities[other_id]
            mine, theirs = city.edge_kind(e), other.edge_kind(e.mirror())
            if mine != theirs:
                c.err(
                    "city-edges-disagree",
                    f"{label} prints {mine.value} on edge {e} but large city "
                    f"{other.name or other_id!r} prints {theirs.value} on the same edge",
                    edges=[e, e.mirror()],
                    city=cid,
                )
        opens = [
            e
            for e in city.open_sides()
            if e.square in city.squares and e.outer_square not in city.squares
        ]
        if not any(e.outer_square in c.placeable and e.outer_square not in c.gated for e in opens):
            c.err(
                "city-unconnectable",
                f"{label} has no open side (city edge) next to a placeable square",
                squares=city.squares,
                city=cid,
            )


def _check_reachability(c: _Ctx) -> None:
    m = c.m
    placeable = c.placeable & c.land
    # Gated parts with no ferry landing on them.
    ferry_squares = {e.square for f in m.ferries.values() for e in (f.a, f.b)}
    no_ferry: set[Square] = set()
    for part in components(c.gated & placeable):
        if not part & ferry_squares:
            no_ferry |= part
            island = m.island_square(min(part, key=square_key))
            c.err(
                "gated-without-ferry",
                f"{len(part)} ferry-gated island square(s) have no ferry landing on them",
                squares=part,
                island=island[0].id if island else None,
            )
    starts = [sq for sq in m.start_squares if sq in placeable]
    if not starts:
        return  # nothing to reach from; too-few-start-squares / element checks report it
    reached = reachable_squares(m)
    unreachable = placeable - reached - no_ferry
    for part in components(unreachable):
        ferry = ferry_for(m, part, reached)
        hint = ""
        if ferry is not None:
            there, here = (ferry.a, ferry.b) if ferry.a.square in part else (ferry.b, ferry.a)
            hint = f"; a ferry from {here} to {there} would fix it"
        c.err(
            "unreachable-square",
            f"{len(part)} placeable square(s) can never be reached from a start square{hint}",
            squares=part,
        )


def _check_tiles(c: _Ctx) -> None:
    m = c.m
    constraints: dict[Square, dict[int, set[str]]] = {}

    def need(sq: Square, side: Side, kind: EdgeKind) -> None:
        if sq in c.placeable and sq in c.land:
            constraints.setdefault(sq, {}).setdefault(side.ordinal, set()).add(_KIND_CHAR[kind])

    for e, f in m.border_features.items():
        if f.kind is not EdgeKind.FIELD:
            need(e.square, Side(e.side), f.kind)
    for city in m.large_cities.values():
        for e in city.outer_edges():
            need(e.outer_square, Side(e.side).opposite, city.edge_kind(e))
    for ferry in m.ferries.values():
        for e in (ferry.a, ferry.b):
            need(e.square, Side(e.side), EdgeKind.ROAD)
    if not constraints:
        return
    signatures = c.signatures()
    if signatures is None:
        return
    cache: dict[tuple[tuple[int, str], ...], bool] = {}
    for sq in sorted(constraints, key=square_key):
        sides = constraints[sq]
        text = ", ".join(
            f"{SIDES[i].value}={'/'.join(sorted(k))}" for i, k in sorted(sides.items())
        )
        if any(len(k) > 1 for k in sides.values()):
            c.err(
                "unsatisfiable-square",
                f"square {_sq(sq)} has conflicting printed features on one side ({text})",
                squares=[sq],
            )
            continue
        pattern = tuple(sorted((i, next(iter(k))) for i, k in sides.items()))
        ok = cache.get(pattern)
        if ok is None:
            ok = any(all(sig[i] == ch for i, ch in pattern) for sig in signatures)
            cache[pattern] = ok
        if not ok:
            c.err(
                "unsatisfiable-square",
                f"no tile of the tile pool fits square {_sq(sq)} ({text})",
                squares=[sq],
            )


def _check_tracks(c: _Ctx) -> None:
    m = c.m
    row_owner: dict[int, int] = {}
    for number in sorted(m.tracks):
        t = m.tracks[number]
        if not 1 <= number <= 12 or t.number != number:
            c.err("track-invalid", f"track number {number} is not between 1 and 12")
        if not t.rows:
            c.err("track-invalid", f"track {number} covers no rows")
        for r in t.rows:
            if r in row_owner and row_owner[r] != number:
                c.err("track-invalid", f"row {r} is in track {row_owner[r]} and track {number}")
            row_owner.setdefault(r, number)


def _map_rules(m: MapDef) -> Any:
    """The map's rule set class, ``None`` without one or when it cannot be read (reported by
    :func:`_check_rule_set` as ``ruleset-invalid``)."""
    try:
        return map_rules(m)
    except EngineError:
        return None


def _check_rule_set(c: _Ctx) -> None:
    if isinstance(c.m.rule_set, UnreadableRuleSet):
        c.err("ruleset-invalid", c.m.rule_set.error)
        return
    try:
        rules = map_rules(c.m)
    except EngineError as exc:  # a name no rule set has (the registry says why, and the known)
        c.err("ruleset-invalid", f"rule_set: {exc}")
        return
    if rules is not None:
        rules.check_map(c.m, c)


def _laid_out_chips(m: MapDef, rules: Any) -> int:
    """How many chips a game lays out: a data rule set's own ``layout.count``, else the map's
    ``setup.chip_count``."""
    spec = getattr(rules, "spec", None)
    if spec is not None and spec.layout.count is not None:
        return int(spec.layout.count)
    return m.setup.chip_count


def _check_chips(c: _Ctx) -> None:
    m = c.m
    rules = _map_rules(m)
    spec = getattr(rules, "spec", None)
    count = _laid_out_chips(m, rules)
    if rules is None or not rules.chip_layout.random or count <= 0:
        return
    box = spec.supply.total if spec is not None else TOTAL_CHIPS

    if count > box:
        c.err(
            "setup-chip-count",
            f"setup.chip_count is {count}; the Map-Chips box has {box} chips",
        )
        return
    reading = ChipReading(c.reading)

    def names(choice: tuple[Square, ...]) -> str:
        return ", ".join(f"{m.start_squares[sq].name or '?'} {_sq(sq)}" for sq in choice)

    every = every_choice(m, reading, chip_layout=rules.chip_layout)
    if every is not None:  # few choices: each one is checked and reported
        for choice, best in every.items():
            if best < count:
                c.err(
                    "chips-infeasible",
                    f"with start squares {names(choice)} used, at most {best} chips can be "
                    f"placed (setup lays out {count}; reading {reading.value})",
                    squares=choice,
                )
        return
    worst = worst_choice(m, reading, enough=count, chip_layout=rules.chip_layout)
    if worst is None or worst.lower_bound >= count:
        return
    if worst.chips < count:
        how = "the worst" if worst.exact else "a bad one"
        c.err(
            "chips-infeasible",
            f"with start squares {names(worst.choice)} used, at most {worst.chips} chips can be "
            f"placed (setup lays out {count}; reading {reading.value}; "
            f"{how} of {worst.choices} choices)",
            squares=worst.choice,
        )
        return
    c.warn(
        "chips-unproved",
        f"{worst.choices} choices of {m.setup.start_squares_used} start squares: every one "
        f"leaves room for at least {worst.lower_bound} chips (proved) and the worst found for "
        f"{worst.chips}, but {count} could not be proved within the work limit "
        f"(reading {reading.value})",
    )


_CHECKS: tuple[Callable[[_Ctx], None], ...] = (
    _check_grid,
    _check_conflicts,
    _check_names,
    _check_setup,
    _check_border_and_ferries,
    _check_cities,
    _check_reachability,
    _check_tiles,
    _check_tracks,
    _check_rule_set,
    _check_chips,
)


def validate_map(
    m: MapDef,
    *,
    tile_pool: str = "base+ic+tb",
    chip_reading: ChipReading | str = "open_sides",
    tile_signatures: Iterable[str] | None = None,
) -> list[Issue]:
    """Every issue of ``m``, errors and warnings, in a stable order. Never raises.

    ``tile_pool`` names the pool whose tiles must fit printed edge constraints (``engine.tiles``);
    ``tile_signatures`` replaces it with explicit edge strings (``"CRFR"`` = N, E, S, W), e.g. in
    tests. ``chip_reading`` selects what "open side of a large city" means for the chip
    feasibility proof (see ``engine/RULES.md``).
    """
    issues: list[Issue] = []

    def signatures() -> set[str] | None:
        if tile_signatures is not None:
            return set(tile_signatures)
        try:
            return default_tileset().edge_signatures(tile_pool)
        except Exception as exc:  # noqa: BLE001 - reported as an issue, never raised
            issues.append(
                Issue(
                    Severity.WARNING,
                    "tile-constraints-unchecked",
                    f"tile pool {tile_pool!r} unavailable, edge constraints not checked: {exc}",
                )
            )
            return None

    try:
        c = _Ctx(m, signatures, chip_reading)
    except Exception as exc:  # noqa: BLE001
        return [Issue(Severity.ERROR, "validator-failure", f"cannot inspect the map: {exc!r}")]
    for check in _CHECKS:
        before = len(c.issues)
        try:
            check(c)
        except Exception as exc:  # noqa: BLE001 - a broken check must not hide the others
            del c.issues[before:]
            c.err("validator-failure", f"check {check.__name__[7:]} failed: {exc!r}")
        c.issues.extend(issues)
        issues.clear()
    return c.issues


def rule_set_issues(m: MapDef, rules: Any) -> list[Issue]:
    """Only what rule set class ``rules`` requires of ``m`` (``Rules.map_issues``)."""
    c = _Ctx(m, lambda: None, "open_sides")
    rules.check_map(m, c)
    return c.issues


def has_errors(issues: Iterable[Issue]) -> bool:
    """Whether any issue is an error."""
    return any(i.severity is Severity.ERROR for i in issues)


__all__ = [
    "CODES",
    "CodeInfo",
    "Issue",
    "Severity",
    "Where",
    "coastline_length",
    "has_errors",
    "land_outline",
    "land_parts",
    "reachable_squares",
    "rule_set_issues",
    "validate_map",
]
