"""What a data rule set needs printed on its map, checked with located issues.

Every print a spec needs (:attr:`RuleSetSpec.prints`: declared, or implied by its mechanics) is
checked here; a missing or incomplete one is a ``ruleset-missing-<print>`` issue (``_`` written ``-``) located on the
squares, edges or islands concerned. ``ruleset-invalid`` is a map whose rule set cannot be read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.issues import list_text
from engine.mapdef import Colour, EdgeKind, IslandRole
from engine.rules.spec import IssueCode

if TYPE_CHECKING:
    from engine.mapdef import MapDef
    from engine.rules.data.ruleset import RuleSetSpec
    from engine.rules.spec import IssueSink


def missing_code(print_name: str) -> str:
    """The issue code of a missing print: ``ruleset-missing-town-colours``."""
    return "ruleset-missing-" + print_name.replace("_", "-")


_MEANING = {
    "town_colours": ("every town needs a colour (its grape)", "Give every town a colour."),
    "border_coa": (
        "the map needs a printed border road or city with a coat of arms",
        "Add a coat of arms to a border road or city.",
    ),
    "tracks": (
        "tracks 1..12 must all exist and cover every row holding map squares, the orange band "
        "(1-4) above light blue (5-8) above purple (9-12)",
        "Fix the track rows.",
    ),
    "island_stacks": (
        "the map needs islands with stack squares, each island with a colour",
        "Mark stack squares on coloured islands.",
    ),
    "waves": ("the map needs wave squares", "Mark wave squares."),
    "chip_squares": (
        "the map needs as many chip squares of each colour as the rule set has chips of it",
        "Add or remove chip squares.",
    ),
    "isle_of_man": ("the map needs an Isle of Man (the parking area)", "Place the Isle of Man."),
    "gated_coa_islands": (
        "the map needs island squares with coats of arms",
        "Add coats of arms to island squares.",
    ),
}

ISSUE_CODES: dict[str, IssueCode] = {
    **{
        missing_code(name): IssueCode("error", f"Rule set: {meaning}.", fix)
        for name, (meaning, fix) in _MEANING.items()
    },
    "ruleset-unknown-mark": IssueCode(
        "error",
        "A square carries a mark the map's rule set does not declare.",
        "Remove the mark, or declare it in the rule set's marks.",
    ),
    "ruleset-missing-mark": IssueCode(
        "warning",
        "A mark the rule set's rules read, or that carries chips, is on no square of the map.",
        "Mark some squares with it (the editor's tool of that mark).",
    ),
    "ruleset-mark-on-start": IssueCode(
        "error",
        "A mark whose squares take no tile is on a start square.",
        "Move the mark or the start square.",
    ),
    "ruleset-invalid": IssueCode(
        "error",
        "The map's rule set cannot be read (a rule-set file or embedded rule set with a mistake).",
        "Fix the field the message names (python -m engine ruleset check FILE).",
    ),
}
"""Every issue code a data rule set reports."""


def track_problems(m: MapDef) -> list[str]:
    """What is wrong with ``m``'s tracks for treats (Península Ibérica), one phrase each."""
    problems = []
    missing = [n for n in range(1, 13) if n not in m.tracks or not m.tracks[n].rows]
    if missing:
        problems.append(f"missing track(s) {', '.join(map(str, missing))}")
    map_rows = sorted({y for _, y in m.land})
    uncovered = [r for r in map_rows if m.track_of_row(r) is None]
    if uncovered:
        problems.append(f"row(s) {list_text([str(r) for r in uncovered], 10)} are in no track")
    bands = [range(1, 5), range(5, 9), range(9, 13)]
    spans = []
    for band in bands:
        rows = [r for n in band if n in m.tracks for r in m.tracks[n].rows]
        spans.append((min(rows), max(rows)) if rows else None)
    for (upper, lower), names in zip(
        [(spans[0], spans[1]), (spans[1], spans[2])],
        [("orange (1-4)", "light blue (5-8)"), ("light blue (5-8)", "purple (9-12)")],
        strict=True,
    ):
        if upper and lower and upper[1] >= lower[0]:
            problems.append(f"the {names[0]} band is not above the {names[1]} band")
    return problems


def check_prints(spec: RuleSetSpec, m: MapDef, issues: IssueSink) -> None:
    """Report every print ``spec`` needs that ``m`` lacks, located."""
    title = spec.display_title
    for name in spec.prints:
        code = missing_code(name)
        if name == "town_colours":
            if not m.towns:
                issues.err(code, f"{title}: the map has no towns; a mechanic pays at towns")
            for sq in sorted(m.towns, key=lambda q: (q[1], q[0])):
                if m.towns[sq].grape is None:
                    issues.err(
                        code,
                        f"{title}: town {m.towns[sq].name!r} at ({sq[0]}, {sq[1]}) has no colour",
                        squares=[sq],
                    )
        elif name == "border_coa":
            if not any(
                bf.kind is not EdgeKind.FIELD and bf.coats_of_arms > 0
                for bf in m.border_features.values()
            ):
                issues.err(code, f"{title}: no border road or city has a coat of arms")
        elif name == "tracks":
            problems = track_problems(m)
            if problems:
                issues.err(code, f"{title}: tracks: " + "; ".join(problems))
        elif name == "island_stacks":
            stacked = {
                iid: i
                for iid, i in m.islands.items()
                if any(s.role is IslandRole.STACK for s in i.squares.values())
            }
            if not stacked:
                issues.err(code, f"{title}: no island has stack squares")
            for iid in sorted(stacked):
                if stacked[iid].colour is None:
                    issues.err(
                        code, f"{title}: island {iid!r} has stack squares but no colour", island=iid
                    )
        elif name == "waves":
            if not m.waves:
                issues.err(code, f"{title}: the map has no wave squares")
        elif name == "chip_squares":
            for colour in (Colour(c) for c in spec.supply.colours):
                squares = sorted(sq for sq, col in m.chip_squares.items() if col is colour)
                if len(squares) != spec.supply.per_colour:
                    issues.err(
                        code,
                        f"{title}: {len(squares)} {colour.value} chip square(s); the rule set "
                        f"lays out {spec.supply.per_colour}",
                        squares=squares,
                    )
        elif name == "isle_of_man":
            if m.isle_of_man is None:
                issues.err(code, f"{title}: the map has no Isle of Man")
        elif name == "gated_coa_islands" and not any(
            info.coats_of_arms > 0 for i in m.islands.values() for info in i.squares.values()
        ):
            issues.err(code, f"{title}: no island square has a coat of arms")
    check_marks(spec, m, issues)


def check_marks(spec: RuleSetSpec, m: MapDef, issues: IssueSink) -> None:
    """The map's marked squares against the marks ``spec`` declares and its rules read."""
    from engine.rules.data.lang import marks_used

    title = spec.display_title
    kinds = {k.id: k for k in spec.marks}
    for sq, mark in sorted(m.marks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        kind = kinds.get(mark.mark)
        where = f"({sq[0]}, {sq[1]})"
        if kind is None:
            issues.err(
                "ruleset-unknown-mark",
                f"{title}: the mark {mark.mark!r} at {where} is not one of its marks",
                squares=[sq],
            )
        elif not kind.takes_tile and sq in m.start_squares:
            issues.err(
                "ruleset-mark-on-start",
                f"{title}: {kind.name} at {where} takes no tile but is a start square",
                squares=[sq],
            )
    present = {mk.mark for mk in m.marks.values()}
    needed = marks_used(spec.rules) | {k.id for k in spec.marks if k.chips}
    for mid in sorted(needed & set(kinds) - present):
        issues.warn(
            "ruleset-missing-mark", f"{title}: no square carries the mark {kinds[mid].name!r}"
        )
