"""What differs between two maps, in words: what a comparison says before its figures.

Two versions of one map differ in a few places; a designer comparing them wants those named
("start square Southtown removed", "rule set: supply.per_colour 10 → 8", "2 squares added near
Kassel") so the figures that follow can be read against them. Places are named from the maps'
own names (:class:`engine.geo.naming.PlaceNames`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from engine.geo.naming import PlaceNames
from engine.geometry import Square
from engine.gridgraph import components
from engine.mapdef import MapDef

MAX_LINES = 40
"""At most this many lines; the rest are counted."""


def _flat(data: Any, path: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}}`` → ``{"a.b": 1}`` (lists stay values)."""
    if isinstance(data, Mapping):
        out: dict[str, Any] = {}
        for k, v in data.items():
            out.update(_flat(v, f"{path}.{k}" if path else str(k)))
        return out
    return {path: data}


def _changed(
    title: str, a: Mapping[str, Any], b: Mapping[str, Any], skip: Iterable[str] = ()
) -> list[str]:
    ignored = set(skip)
    return [
        f"{title}: {key} {a.get(key, '-')} → {b.get(key, '-')}"
        for key in sorted(set(a) | set(b))
        if key not in ignored and a.get(key) != b.get(key)
    ]


def _square_groups(names: PlaceNames, squares: set[Square], verb: str) -> list[str]:
    out = []
    for group in sorted(components(squares), key=lambda c: (-len(c), min(c))):
        n = len(group)
        out.append(f"{n} square{'s' if n > 1 else ''} {verb} {names.squares(group)}")
    return out


def _named(
    kind: str, a: Mapping[Square, str], b: Mapping[Square, str], names: PlaceNames
) -> list[str]:
    """Named squares (start squares, towns) added, removed, moved (same name, other square)
    or renamed (same square, other name)."""
    out = []
    a_by_name = {n: sq for sq, n in a.items() if n}
    b_by_name = {n: sq for sq, n in b.items() if n}
    moved = {n for n in a_by_name.keys() & b_by_name.keys() if a_by_name[n] != b_by_name[n]}
    for n in sorted(moved):
        out.append(f"{kind} {n} moved {names.square(b_by_name[n], besides=n)}")
    for sq in sorted(a.keys() - b.keys()):
        if a[sq] not in moved:
            out.append(f"{kind} {a[sq] or names.square(sq)} removed")
    for sq in sorted(b.keys() - a.keys()):
        if b[sq] not in moved:
            out.append(f"{kind} {b[sq] or names.square(sq)} added")
    for sq in sorted(a.keys() & b.keys()):
        if a[sq] != b[sq]:
            out.append(f"{kind} {a[sq] or '(unnamed)'} renamed {b[sq] or '(unnamed)'}")
    return out


def _rule_numbers(m: MapDef) -> dict[str, Any]:
    spec = m.rule_set.spec
    return _flat(spec.to_dict()) if spec is not None else {}


def map_differences(a: MapDef, b: MapDef) -> list[str]:
    """What differs from map ``a`` to map ``b``, one line each (at most ``MAX_LINES``)."""
    names = PlaceNames(b)
    names_a = PlaceNames(a)
    out: list[str] = []
    if (a.width, a.height) != (b.width, b.height):
        out.append(f"grid {a.width} × {a.height} → {b.width} × {b.height}")
    if a.rule_set.name != b.rule_set.name:
        out.append(f"rule set {a.rule_set.name} → {b.rule_set.name}")
    else:
        out += _changed("rule set", _rule_numbers(a), _rule_numbers(b), skip=("name",))
    out += _changed("setup", dataclasses.asdict(a.setup), dataclasses.asdict(b.setup))
    out += _named(
        "start square",
        {sq: s.name for sq, s in a.start_squares.items()},
        {sq: s.name for sq, s in b.start_squares.items()},
        names,
    )
    out += _square_groups(names, set(b.land) - set(a.land), "added")
    out += _square_groups(names_a, set(a.land) - set(b.land), "removed")
    out += _named(
        "town",
        {sq: t.name for sq, t in a.towns.items()},
        {sq: t.name for sq, t in b.towns.items()},
        names,
    )
    cities_a = {c.name or cid: sorted(c.squares) for cid, c in a.large_cities.items()}
    cities_b = {c.name or cid: sorted(c.squares) for cid, c in b.large_cities.items()}
    for city in sorted(cities_a.keys() - cities_b.keys()):
        out.append(f"large city {city} removed")
    for city in sorted(cities_b.keys() - cities_a.keys()):
        out.append(f"large city {city} added")
    for city in sorted(cities_a.keys() & cities_b.keys()):
        if cities_a[city] != cities_b[city]:
            out.append(f"large city {city} covers other squares")
    borders_a = {e: str(f.kind) for e, f in a.border_features.items()}
    borders_b = {e: str(f.kind) for e, f in b.border_features.items()}
    for e in sorted(borders_a.keys() - borders_b.keys()):
        f = a.border_features[e]
        out.append(f"{names_a.border(e, str(f.kind), f.neighbour)} removed")
    for e in sorted(borders_b.keys() - borders_a.keys()):
        f = b.border_features[e]
        out.append(f"{names.border(e, str(f.kind), f.neighbour)} added")
    for label, left, right in (
        ("ferries", set(a.ferries), set(b.ferries)),
        ("chip squares", set(a.chip_squares.items()), set(b.chip_squares.items())),
        ("waves", set(a.waves), set(b.waves)),
        ("islands", set(a.islands), set(b.islands)),
        ("tracks", set(a.tracks), set(b.tracks)),
        ("marks", set(a.marks), set(b.marks)),
        ("land borders (clouds)", set(a.land_borders), set(b.land_borders)),
    ):
        gone, new = len(left - right), len(right - left)
        if gone or new:
            out.append(f"{label}: {new} added, {gone} removed")
    if len(out) > MAX_LINES:
        out = [*out[: MAX_LINES - 1], f"and {len(out) - MAX_LINES + 1} more differences"]
    return out


__all__ = ["MAX_LINES", "map_differences"]
