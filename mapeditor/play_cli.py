"""``python -m mapeditor play MAP``: the playtest window without the editor.

MAP is a map file or the name of a shipped map (``germany``/``deutschland``, ``france``, ...).
Without ``--no-setup`` the setup dialog opens first, filled in from the options.

Examples::

    python -m mapeditor play maps/france.json --seed 7
    python -m mapeditor play benelux --players "Ann=human,Bob=greedy,mcts:6" --no-setup
    python -m mapeditor play deutschland --load my-game.json

Bad input prints one line naming the problem and exits with status 2 (1 when the map has
validation errors); never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from engine.errors import EngineError
from engine.mapdef import MapDef
from mapeditor.game_args import (  # noqa: F401 - parse_players is the tests' too
    USAGE_EXIT,
    Parser,
    UsageError,
    add_game_arguments,
    load_playable,
    parse_players,
    setup_from,
)

if TYPE_CHECKING:
    from mapeditor.playtest.setup import PlaytestSetup


def build_parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog="python -m mapeditor play",
        description="Play a map in the playtest window (humans and bots).",
    )
    ap.add_argument("map", help="a map file, or the name of a shipped map")
    add_game_arguments(ap)
    ap.add_argument("--pace", type=int, default=700, help="ms pause before each bot action")
    ap.add_argument("--load", default=None, help="continue a saved game record")
    ap.add_argument("--no-setup", action="store_true", help="start at once, no setup dialog")
    return ap


def prepare(argv: list[str] | None = None) -> tuple[MapDef, PlaytestSetup, argparse.Namespace]:
    """Read the command line: the map (validated), the setup and the parsed arguments.

    :raises UsageError: a bad option value; :raises EngineError: a bad map, record or setup.
    """
    args = build_parser().parse_args(argv)
    m = load_playable(args.map)
    if args.pace < 0:
        raise UsageError(f"--pace: {args.pace} is negative")
    setup = setup_from(args, m)
    if args.load is None:
        setup.make_game(m)  # fail here, with the engine's sentence, not in the window
    else:
        from engine.record import load_record

        load_record(args.load)
    return m, setup, args


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    try:
        m, setup, args = prepare(argv)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_EXIT
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1 if "has errors" in str(exc) else USAGE_EXIT
    return _run(m, setup, args)


def _no_display() -> bool:
    """Whether Qt would find no display to open a window on (it would abort, not raise)."""
    if os.environ.get("QT_QPA_PLATFORM") or not sys.platform.startswith("linux"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _run(m: MapDef, setup: PlaytestSetup, args: argparse.Namespace) -> int:
    if _no_display():
        print(
            "error: no display to open the playtest window on (set DISPLAY, or "
            "QT_QPA_PLATFORM=offscreen for a headless run)",
            file=sys.stderr,
        )
        return USAGE_EXIT
    from PySide6.QtWidgets import QApplication, QDialog

    from mapeditor.playtest.setup_dialog import SetupDialog
    from mapeditor.playtest.window import PlaytestWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if not args.no_setup and args.load is None:
        dlg = SetupDialog(m, setup)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return 0
        setup = dlg.setup()
    window = PlaytestWindow(m, setup, pace_ms=args.pace)
    if args.load is not None:
        try:
            window.load_from(args.load)
        except EngineError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return USAGE_EXIT
    window.show()
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
