"""``python -m engine validate FILE...``: check map files and report every issue.

A rule-set file (``*.ruleset.json``, as a map's ``{"file": ...}`` names) is checked as a rule
set: every problem its schema and mechanics have, as ``ruleset-invalid`` errors. So
``python -m engine validate maps/*.json`` checks a folder of maps and their rule sets.

Exit codes: 0 every file is valid, 1 some file has errors (or warnings with ``--strict``),
2 some file is unreadable or neither a map nor a rule set (one line on stderr naming the file
and the problem).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine import boundedio
from engine.chips import ChipReading
from engine.errors import EngineError, MapFormatError
from engine.mapio import read_map
from engine.rules.data.ruleset import FORMAT as RULESET_FORMAT
from engine.rules.data.ruleset import MAX_FILE_BYTES as MAX_RULESET_BYTES
from engine.rules.data.ruleset import check_ruleset_dict
from engine.tiles import default_tileset
from engine.validation import Issue, Severity, validate_map

READINGS = tuple(r.value for r in ChipReading)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check map files (exit 0 valid, 1 invalid, 2 unreadable)",
        description="Check map files: schema, then every semantic rule (see engine/VALIDATION.md).",
    )
    p.add_argument(
        "maps",
        nargs="+",
        metavar="FILE",
        help="map file(s) (.json); rule-set files are checked too",
    )
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


def _ruleset_data(path: str) -> dict[str, Any] | None:
    """The content of ``path`` if it is a rule-set file (its ``format`` says so), else ``None``."""
    try:
        data = boundedio.read_json(path, limit=MAX_RULESET_BYTES, what="rule set")
    except boundedio.InputFileError:
        return None
    return data if isinstance(data, dict) and data.get("format") == RULESET_FORMAT else None


def _check_ruleset(path: str, data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    issues = [
        Issue(Severity.ERROR, "ruleset-invalid", f"{p.path or '(top)'}: {p.message}")
        for p in check_ruleset_dict(data)
    ]
    return {
        "file": path,
        "readable": True,
        "valid": not issues,
        "kind": "ruleset",
        "name": data.get("name"),
        "errors": len(issues),
        "warnings": 0,
        "issues": issues,
    }


def _check(path: str, args: argparse.Namespace) -> dict[str, Any]:
    try:
        m, issues = read_map(path)
    except MapFormatError as exc:
        # only a file that is no map is read again: a rule set is checked as one
        ruleset = _ruleset_data(path) if "'format'" in str(exc) else None
        if ruleset is not None:
            return _check_ruleset(path, ruleset, args)
        return {"file": path, "readable": False, "valid": False, "error": str(exc)}
    issues = issues + validate_map(m, tile_pool=args.tile_pool, chip_reading=args.chip_reading)
    errors = sum(1 for i in issues if i.severity is Severity.ERROR)
    warnings = len(issues) - errors
    valid = errors == 0 and not (args.strict and warnings)
    return {
        "file": path,
        "readable": True,
        "valid": valid,
        "kind": "map",
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
