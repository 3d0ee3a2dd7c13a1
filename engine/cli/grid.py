"""Grid shaping and island verbs: ``crop``, ``resize``, ``shift`` and ``ferries``.

``python -m engine crop MAP [--margin 1] [-o OUT]`` cuts the grid to the map's content;
``resize MAP WIDTH HEIGHT [--anchor nw|n|...|c|...|se]`` and ``shift MAP DX DY`` change the grid.
Every element moves with its squares. What would fall off the grid is listed first, and nothing
is written unless ``--yes`` accepts the loss. ``ferries MAP`` lists the land parts and the ferries
that would make every square reachable; ``--apply`` adds them. Without ``-o`` the map file is
rewritten in place. Exit codes: 0 done, 1 refused (losses without ``--yes``), 2 bad input.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from engine import boundedio
from engine.errors import EngineError
from engine.gridshape import crop_arguments, reshape, reshape_losses, resize_arguments
from engine.islands import land_parts, suggest_ferries
from engine.mapdef import MapDef, UnreadableRuleSet
from engine.mapio import load_map, save_map
from engine.rules.data.ruleset import RuleSetError, load_ruleset, save_ruleset
from engine.validation import reachable_squares


def register(sub: Any) -> None:
    crop = sub.add_parser("crop", help="crop a map's grid to its content (one-square margin)")
    crop.add_argument("map", metavar="MAP", help="map file (.json)")
    crop.add_argument("--margin", type=int, default=1, help="outside squares all round (1)")
    resize = sub.add_parser("resize", help="change a map's grid size")
    resize.add_argument("map", metavar="MAP", help="map file (.json)")
    resize.add_argument("width", type=int)
    resize.add_argument("height", type=int)
    resize.add_argument(
        "--anchor", default="nw", help="what stays put: nw, n, ne, w, c, e, sw, s, se (nw)"
    )
    shift = sub.add_parser("shift", help="move everything on a map's grid")
    shift.add_argument("map", metavar="MAP", help="map file (.json)")
    shift.add_argument("dx", type=int, help="squares east (negative: west)")
    shift.add_argument("dy", type=int, help="squares south (negative: north)")
    ferries = sub.add_parser(
        "ferries", help="list land parts and suggest ferries so every square is reachable"
    )
    ferries.add_argument("map", metavar="MAP", help="map file (.json)")
    ferries.add_argument("--apply", action="store_true", help="add the suggested ferries")
    for p in (crop, resize, shift, ferries):
        p.add_argument("-o", "--output", metavar="OUT.json", help="write here (default: MAP)")
        p.set_defaults(func=run)
    for p in (crop, resize, shift):
        p.add_argument("--yes", action="store_true", help="accept dropping what falls off")


def _reshape_args(args: argparse.Namespace, m: MapDef) -> tuple[int, int, int, int]:
    if args.command == "crop":
        return crop_arguments(m, args.margin)
    if args.command == "shift":
        return m.width, m.height, args.dx, args.dy
    return resize_arguments(m, args.width, args.height, args.anchor)


def _carry_rule_set_file(m: MapDef, source: str, out: str) -> None:
    """A map written to another folder takes its rule-set file along (``{"file": ...}`` is
    relative to the map): copied there, or left when that folder holds the same rule set.

    :raises EngineError: the rule set could not be read, or another rule set has its name there.
    """
    ref = m.rule_set
    if ref.file is None:
        return
    if os.path.realpath(os.path.dirname(source) or ".") == os.path.realpath(
        os.path.dirname(out) or "."
    ):
        return
    if isinstance(ref, UnreadableRuleSet):
        raise EngineError(
            f"{out}: not written: the map's rule-set file cannot be copied to that folder "
            f"({ref.error})"
        )
    try:
        target = boundedio.inside_folder(ref.file, out, what="rule set")
    except boundedio.InputFileError as exc:
        raise EngineError(f"{out}: not written: {exc}") from None
    if os.path.lexists(target):
        try:
            same = load_ruleset(target) == ref.spec
        except RuleSetError:
            same = False
        if not same:
            raise EngineError(
                f"{out}: not written: {boundedio.shown(str(target))} holds another rule set; "
                "write the map to a folder without it"
            )
        return
    save_ruleset(ref.spec, target)
    print(f"{target}: the map's rule-set file copied")


def run(args: argparse.Namespace) -> int:
    out = args.output or args.map
    try:
        m = load_map(args.map)
        if args.command == "ferries":
            parts = land_parts(m)
            print(f"{len(parts)} land part(s): " + ", ".join(f"{len(p)}" for p in parts))
            suggested = suggest_ferries(m)
            for f in suggested:
                print(f"  ferry {f.id}: {f.a} -> {f.b}")
            if not suggested:
                done = not m.start_squares or reachable_squares(m) == m.placeable_squares()
                print("  no ferry needed" if done else "  no sea crossing found")
            if args.apply and suggested:
                for f in suggested:
                    m.ferries[f.id] = f
                _carry_rule_set_file(m, args.map, out)
                save_map(m, out)
                print(f"{out}: {len(suggested)} ferr{'y' if len(suggested) == 1 else 'ies'} added")
            return 0
        width, height, dx, dy = _reshape_args(args, m)
        lost = reshape_losses(m, width, height, dx, dy)
        if lost:
            print(f"{len(lost)} element(s) would fall off the {width}x{height} grid:")
            for line in lost:
                print(f"  {line}")
            if not args.yes:
                print("nothing written; add --yes to drop them", file=sys.stderr)
                return 1
        _carry_rule_set_file(m, args.map, out)
        save_map(reshape(m, width, height, dx, dy), out)
    except (EngineError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{out}: {width}x{height} grid (was {m.width}x{m.height}), moved by ({dx}, {dy})")
    return 0
