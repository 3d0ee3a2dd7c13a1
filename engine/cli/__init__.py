"""Command line of the engine: ``python -m engine COMMAND ...``.

Each command is a module in this package with ``register(subparsers)``, which adds its parser and
sets ``func(args) -> int`` (the exit code) as a default. Add a new command to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = [
    "validate",
    "info",
    "chips",
    "replay",
    "new_from_country",
    "simulate",
    "grid",
    "ruleset",
]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of ``command`` (a name of ``COMMANDS``: the other
    commands' modules are not imported, which keeps start-up short)."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Carcassonne Maps engine: validate maps, lay out chips, replay games.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in [command] if command in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"engine.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.cli.{name}":
                raise
            continue  # command not built yet
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    first = args_in[0] if args_in else None
    parser = build_parser(first if first in COMMANDS else None)
    args = parser.parse_args(args_in)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
