"""``python -m engine ruleset check FILE...`` / ``ruleset preset NAME [-o FILE]``: rule sets as data.

``check`` prints every problem of each rule-set file, one line each (``FILE: field: reason``),
and exits 2 when any file has one (0: all valid). ``preset`` writes the preset ``NAME`` (one of
the five official mini-expansions) as a rule-set file to start a new one from (stdout without
``-o``); ``preset --list`` names them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from engine import boundedio
from engine.boundedio import OutputFileError, write_text_atomically
from engine.rules.data import RuleSetError, check_ruleset_dict, preset_dict, preset_names
from engine.rules.data.ruleset import MAX_FILE_BYTES


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ruleset",
        help="check a rule-set file, or write a preset to start one from",
        description="Rule sets as data (docs/rule-sets.md, 'Rule sets as data').",
    )
    actions = p.add_subparsers(dest="ruleset_command", required=True, metavar="ACTION")
    check = actions.add_parser("check", help="list every problem of rule-set files (exit 2)")
    check.add_argument("files", metavar="FILE", nargs="+", help="rule-set file (.ruleset.json)")
    check.set_defaults(func=run_check)
    preset = actions.add_parser("preset", help="write a preset as a rule-set file")
    preset.add_argument("name", metavar="NAME", nargs="?", help=", ".join(preset_names()))
    preset.add_argument("-o", "--output", metavar="FILE", help="file to write (default stdout)")
    preset.add_argument("--list", action="store_true", help="name the presets")
    preset.set_defaults(func=run_preset)


def run_check(args: argparse.Namespace) -> int:
    bad = False
    for path in args.files:
        source = boundedio.shown(path)
        try:
            data = boundedio.read_json(path, limit=MAX_FILE_BYTES, what="rule set")
        except boundedio.InputFileError as exc:
            print(exc, file=sys.stderr)
            bad = True
            continue
        problems = check_ruleset_dict(data)
        for p in problems:
            print(f"{source}: {p}")
        if problems:
            bad = True
        else:
            print(f"{source}: ok ({data['name']}, {len(data['mechanics'])} mechanic(s))")
    return 2 if bad else 0


def run_preset(args: argparse.Namespace) -> int:
    if args.list or not args.name:
        print("\n".join(preset_names()))
        return 0
    try:
        data = preset_dict(args.name)
    except RuleSetError as exc:
        print(exc, file=sys.stderr)
        return 2
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if not args.output:
        sys.stdout.write(text)
        return 0
    try:
        if os.path.lexists(args.output):  # a dangling link too: never written through
            raise OutputFileError(args.output, "exists already; not overwritten")
        folder = os.path.dirname(args.output) or "."
        if not os.path.isdir(folder):
            raise OutputFileError(args.output, f"no folder {boundedio.shown(folder)}")
        write_text_atomically(args.output, text, follow_links=False)
    except OSError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"wrote preset {args.name} to {args.output}")
    return 0
