"""``python -m engine validate MAP...``: check map files and report every issue.

Exit codes: 0 every map is valid, 1 some map has errors (or warnings with ``--strict``),
2 some file is unreadable or not a map (one line on stderr naming the file and the problem).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.chips import ChipReading
from engine.errors import MapFormatError
from engine.mapio import read_map
from engine.validation import Issue, Severity, validate_map

READINGS = tuple(r.value for r in ChipReading)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check map files (exit 0 valid, 1 invalid, 2 unreadable)",
        description="Check map files: schema, then every semantic rule (see engine/VALIDATION.md).",
    )
    p.add_argument("maps", nargs="+", metavar="MAP", help="map file(s) (.json)")
    p.add_argument("--json", action="store_true", help="print one JSON object for all files")
    p.add_argument("--strict", action="store_true", help="warnings make a map invalid too")
    p.add_argument(
        "--tile-pool",
        default="base+ic+tb",
        metavar="NAME",
        help="tile pool whose tiles must fit printed edges: base, base+ic, base+ic+tb (default)",
    )
    p.add_argument(
        "--chip-reading",
        choices=READINGS,
        default="open_sides",
        help="what 'adjacent to an open side of a large city' forbids for chips (engine/RULES.md)",
    )
    p.set_defaults(func=run)


def _check(path: str, args: argparse.Namespace) -> dict[str, Any]:
    try:
        m, issues = read_map(path)
    except MapFormatError as exc:
        return {"file": path, "readable": False, "valid": False, "error": str(exc)}
    issues = issues + validate_map(m, tile_pool=args.tile_pool, chip_reading=args.chip_reading)
    errors = sum(1 for i in issues if i.severity is Severity.ERROR)
    warnings = len(issues) - errors
    valid = errors == 0 and not (args.strict and warnings)
    return {
        "file": path,
        "readable": True,
        "valid": valid,
        "map_id": m.id,
        "errors": errors,
        "warnings": warnings,
        "issues": issues,
    }


def _human(result: dict[str, Any]) -> str:
    path = result["file"]
    if not result["readable"]:
        return ""
    issues: list[Issue] = result["issues"]
    verdict = "valid" if result["valid"] else "INVALID"
    head = f"{path}: {verdict} ({result['errors']} error(s), {result['warnings']} warning(s))"
    return "\n".join([head, *(f"  {i}" for i in issues)])


def _check_tile_pool(name: str) -> str | None:
    """An error line if ``name`` is not a pool of the default tile set."""
    from engine.errors import EngineError
    from engine.tiles import default_tileset

    try:
        default_tileset().pool(name)
    except EngineError as exc:
        return f"--tile-pool: {exc}"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _check_tile_pool(args.tile_pool)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    results = [_check(path, args) for path in args.maps]
    for r in results:
        if not r["readable"]:
            print(r["error"], file=sys.stderr)
    if args.json:
        out = {
            "valid": all(r["valid"] for r in results),
            "strict": args.strict,
            "files": [
                {
                    **{k: v for k, v in r.items() if k != "issues"},
                    **({"issues": [i.to_dict() for i in r["issues"]]} if r["readable"] else {}),
                }
                for r in results
            ],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for r in results:
            text = _human(r)
            if text:
                print(text)
    if any(not r["readable"] for r in results):
        return 2
    return 0 if all(r["valid"] for r in results) else 1
