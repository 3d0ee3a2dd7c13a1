"""Command line of the engine: ``python -m engine COMMAND ...``.

Each command is a module in this package with ``register(subparsers)``, which adds its parser and
sets ``func(args) -> int`` (the exit code) as a default. Add a new command to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ["validate", "info", "chips", "replay", "new_from_country", "simulate", "grid"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Carcassonne Maps engine: validate maps, lay out chips, replay games.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"engine.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.cli.{name}":
                raise
            continue  # command not built yet
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
