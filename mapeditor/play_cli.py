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
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from engine.errors import EngineError
from engine.mapdef import MapDef

if TYPE_CHECKING:
    from mapeditor.playtest.setup import PlaytestSetup, Seat

USAGE_EXIT = 2


class UsageError(Exception):
    """A bad command-line value; the message names it."""


def parse_players(text: str) -> list[Seat]:
    """Seats from ``"Ann=human,Bob=greedy,mcts:6"``: ``[NAME=]KIND[:STRENGTH]`` per player.

    :raises UsageError: naming the bad item.
    """
    from engine.game import PLAYER_NAMES
    from mapeditor.playtest.setup import BOT_KINDS, DEFAULT_COLOURS, Seat

    items = [t.strip() for t in text.split(",") if t.strip()]
    if not 2 <= len(items) <= 6:
        raise UsageError(f"--players: {len(items)} players given; a game has 2 to 6")
    seats = []
    for i, item in enumerate(items):
        name, _, kind = item.rpartition("=")
        name = name.strip() or PLAYER_NAMES[i]
        kind, _, strength_text = kind.strip().lower().partition(":")
        if kind == "bot":
            kind = "greedy"
        if kind not in BOT_KINDS:
            known = ", ".join(BOT_KINDS)
            raise UsageError(f"--players: item {i + 1} {item!r}: unknown kind {kind!r} ({known})")
        strength = 3
        if strength_text:
            if kind != "mcts" or not strength_text.isdigit() or not 1 <= int(strength_text) <= 10:
                raise UsageError(
                    f"--players: item {i + 1} {item!r}: a strength 1..10 goes with mcts only"
                )
            strength = int(strength_text)
        seats.append(Seat(name, DEFAULT_COLOURS[i], kind, strength))
    names = [s.name for s in seats]
    for n in names:
        if names.count(n) > 1:
            raise UsageError(f"--players: the name {n!r} is used twice")
    return seats


def _load(path: Path) -> MapDef:
    from engine.mapio import load_map
    from mapeditor.playtest.launch import map_errors

    m = load_map(path)
    errors = map_errors(m)
    if errors:
        lines = "\n".join(f"  {e}" for e in errors)
        raise EngineError(f"{path}: the map has errors; fix them before playing:\n{lines}")
    return m


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (a :class:`UsageError`)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(
        prog="python -m mapeditor play",
        description="Play a map in the playtest window (humans and bots).",
    )
    ap.add_argument("map", help="a map file, or the name of a shipped map")
    ap.add_argument("--seed", type=int, default=None, help="the game's seed (default: random)")
    ap.add_argument(
        "--players",
        default=None,
        help='seats as "[NAME=]KIND[:STRENGTH],...", KIND human|random|greedy|mcts '
        '(default "human,greedy")',
    )
    ap.add_argument("--meeples", type=int, default=None, help="meeples per player")
    ap.add_argument(
        "--pool", choices=("base", "base+ic", "base+ic+tb"), default=None, help="tile pool"
    )
    ap.add_argument("--tiles", type=int, default=None, help="play this many tiles of the pool")
    ap.add_argument("--no-chips", action="store_true", help="plain Maps rules (no Map-Chips)")
    ap.add_argument("--towns", default="", help="town variants to switch on, e.g. 'a' or 'a,b,c'")
    ap.add_argument("--pace", type=int, default=700, help="ms pause before each bot action")
    ap.add_argument("--load", default=None, help="continue a saved game record")
    ap.add_argument("--no-setup", action="store_true", help="start at once, no setup dialog")
    return ap


def prepare(argv: list[str] | None = None) -> tuple[MapDef, PlaytestSetup, argparse.Namespace]:
    """Read the command line: the map (validated), the setup and the parsed arguments.

    :raises UsageError: a bad option value; :raises EngineError: a bad map, record or setup.
    """
    from dataclasses import replace

    from engine.resources import find_map
    from mapeditor.playtest.setup import PlaytestSetup, default_setup, rule_set_available

    args = build_parser().parse_args(argv)
    path = find_map(args.map)
    m = _load(path)
    base = default_setup(m, seed=args.seed)
    seats = parse_players(args.players) if args.players else base.seats
    towns = {t.strip().lower() for t in args.towns.split(",") if t.strip()}
    bad = towns - {"a", "b", "c"}
    if bad:
        raise UsageError(f"--towns: unknown variant(s) {', '.join(sorted(bad))} (a, b, c)")
    if args.meeples is not None and not 1 <= args.meeples <= 30:
        raise UsageError(f"--meeples: {args.meeples} is not in 1..30")
    if args.pace < 0:
        raise UsageError(f"--pace: {args.pace} is negative")
    rule_set = base.options.rule_set
    if args.no_chips:
        rule_set = "none"
    elif m.rule_set_error:
        print(f"note: {m.rule_set_error}; playing plain Maps rules")
    elif str(m.rule_set) != "none" and not rule_set_available(str(m.rule_set), m):
        print(f"note: the engine has no {m.rule_set} rules yet; playing plain Maps rules")
    options = replace(
        base.options,
        rule_set=rule_set,
        meeples=args.meeples,
        tile_pool=args.pool,
        tile_count=args.tiles,
        town_extra_tile="a" in towns,
        town_cost="b" in towns,
        town_road_bonus="c" in towns,
    )
    setup = PlaytestSetup(seats=seats, seed=base.seed, options=options)
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
