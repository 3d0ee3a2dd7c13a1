"""The command line of a screenshot script that takes one output folder (``OUTDIR``)."""

from __future__ import annotations

import sys
from pathlib import Path


def out_dir(argv: list[str] | None, command: str) -> Path | None:
    """The one ``OUTDIR`` of ``python -m COMMAND OUTDIR`` (``argv``, else ``sys.argv``), made
    if missing; ``None`` after printing the usage, when the arguments are not exactly one."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(f"usage: python -m {command} OUTDIR", file=sys.stderr)
        return None
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    return out
