"""``python -m engine chips MAP``: an evenly distributed Map-Chips layout, as ASCII and JSON.

Exit codes: 0 a layout was printed, 1 the requested count cannot fit (the exact maximum is
named), 2 unreadable map or bad arguments (unknown start square name, ...).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.chips import (
    ChipReading,
    allowed_squares,
    evenness,
    generate_layout,
    max_chips,
)
from engine.errors import EngineError
from engine.geometry import Square
from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.rules.registry import map_rules
from engine.startchoices import first_choices

LEGEND = (
    "o chip   # chip allowed   : no chip here   S used start   s unused start   T town   "
    "C large city   ~ wave   = stack   . outside"
)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "chips",
        help="lay out Map-Chips evenly (ASCII and JSON)",
        description="Generate an evenly distributed valid Map-Chips layout for a map.",
    )
    p.add_argument("map", metavar="MAP", help="map file (.json)")
    p.add_argument(
        "--starts",
        metavar="NAME,NAME",
        help="the used start squares by name (default: the first allowed choice)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same layout)")
    p.add_argument("--count", type=int, help="number of chips (default: the map's setup)")
    p.add_argument(
        "--reading",
        choices=[r.value for r in ChipReading],
        default=ChipReading.OPEN_SIDES.value,
        help="what 'adjacent to an open side of a large city' forbids (see engine/RULES.md)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead")
    p.set_defaults(func=run)


class _UsageError(Exception):
    pass


def _resolve_starts(m: MapDef, text: str | None) -> tuple[Square, ...]:
    if text is None:
        choices = first_choices(m, 1)  # not all of them: C(40, 20) would never end
        return choices[0] if choices else tuple(sorted(m.start_squares))
    valid = ", ".join(sorted({s.name for s in m.start_squares.values()})) or "none"
    chosen: list[Square] = []
    for raw in text.split(","):
        name = raw.strip()
        if not name:
            continue
        matches = [sq for sq, s in m.start_squares.items() if s.name == name]
        if not matches:
            matches = [
                sq for sq, s in m.start_squares.items() if s.name.casefold() == name.casefold()
            ]
        if not matches:
            raise _UsageError(f"unknown start square {name!r} (valid names: {valid})")
        if len(matches) > 1:
            raise _UsageError(f"start square name {name!r} is used by {sorted(matches)}")
        if matches[0] not in chosen:
            chosen.append(matches[0])
    return tuple(chosen)  # in the order given


def draw(m: MapDef, chips: set[Square], used: set[Square], allowed: set[Square]) -> str:
    """One character per square (see :data:`LEGEND`)."""
    city = set(m.city_squares())
    stacks = m.stack_squares()
    rows = []
    for y in range(m.height):
        row = []
        for x in range(m.width):
            sq = (x, y)
            if sq not in m.land:
                ch = "."
            elif sq in chips:
                ch = "o"
            elif sq in m.start_squares:
                ch = "S" if sq in used else "s"
            elif sq in m.towns:
                ch = "T"
            elif sq in city:
                ch = "C"
            elif sq in m.waves:
                ch = "~"
            elif sq in stacks:
                ch = "="
            else:
                ch = "#" if sq in allowed else ":"
            row.append(ch)
        rows.append("".join(row))
    return "\n".join(rows)


def _rules_of(m: MapDef) -> Any:
    """The map's rule set class, ``None`` without one or when it cannot be read."""
    try:
        return map_rules(m)
    except EngineError:
        return None


def run(args: argparse.Namespace) -> int:
    try:
        m = load_map(args.map)
    except (EngineError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        used = _resolve_starts(m, args.starts)
    except _UsageError as exc:
        print(f"error: {args.map}: {exc}", file=sys.stderr)
        return 2
    reading = ChipReading(args.reading)
    names = [m.start_squares[sq].name for sq in used]
    rules = _rules_of(m)
    chip_layout = rules.chip_layout if rules is not None else None
    spec = getattr(rules, "spec", None)
    fixed = rules is not None and rules.chip_layout.kind == "fixed" and args.count is None
    if fixed:
        layout = sorted(m.chip_squares)  # Great Britain: chips go on the printed chip squares
        count = len(layout)
        best = None
    else:
        count = m.setup.chip_count if args.count is None else args.count
        if args.count is None and spec is not None and spec.layout.count is not None:
            count = spec.layout.count  # a data rule set's own count
        try:
            layout = generate_layout(
                m, used, count, seed=args.seed, reading=reading, chip_layout=chip_layout
            )
        except EngineError as exc:
            print(f"error: {args.map}: {exc}", file=sys.stderr)
            return 1 if count >= 0 else 2
        best = max_chips(m, used, reading, chip_layout=chip_layout)
    score = evenness(m, layout)
    if args.json:
        out = {
            "map": m.id,
            "starts": names,
            "seed": args.seed,
            "reading": reading.value,
            "count": count,
            "fixed_chip_squares": fixed,
            "max_chips": best,
            "evenness": round(score, 4),
            "chips": [list(sq) for sq in layout],
        }
        print(json.dumps(out))
        return 0
    allowed = allowed_squares(m, used, reading, chip_layout=chip_layout)
    print(draw(m, set(layout), set(used), allowed))
    print(LEGEND)
    if fixed:
        print(f"{m.name}: {count} fixed chip squares (Great Britain rules)")
    else:
        print(
            f"{m.name}: {count} chips, starts {', '.join(names) or 'none'}, seed {args.seed}, "
            f"reading {reading.value}, evenness {score:.3f} (1.0 = perfect lattice), "
            f"at most {best} fit"
        )
    print(json.dumps([list(sq) for sq in layout]))
    return 0
