"""Screenshots of a playtest in progress: ``python -m mapeditor.playtest.screens OUTDIR [MAP...]``.

Bots play a seeded game on each map for a number of turns, then it is the human's turn with the
tile under the mouse; the window is grabbed to ``OUTDIR/play-<map>.png``. Used for the README
and to eyeball the board drawing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from engine.game import Phase
    from engine.mapio import load_map
    from engine.resources import bundled_map, shipped_maps
    from mapeditor.painting import square_rect
    from mapeditor.playtest.setup import Seat, default_setup
    from mapeditor.playtest.window import PlaytestWindow

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m mapeditor.playtest.screens OUTDIR [MAP...]", file=sys.stderr)
        return 2
    out = Path(args.pop(0))
    out.mkdir(parents=True, exist_ok=True)
    names = args or [p.stem for p in shipped_maps() if p.stem != "example-small"]
    app = QApplication.instance() or QApplication([])
    for name in names:
        m = load_map(bundled_map(name))
        setup = default_setup(m, seed=11, players=3)
        setup.seats = [
            Seat("Red", "#d7301f", "greedy"),
            Seat("Blue", "#2b6cc4", "greedy"),
            Seat("Green", "#2e9b43", "greedy"),
        ]
        w = PlaytestWindow(m, setup, pace_ms=0)
        w.ask_to_keep_game = False  # a picture, not a game to keep
        w.resize(1500, 1000)
        w.show()
        turns = 24
        while w.game.turn < turns and not w.game.is_over():
            app.processEvents()
        w.skip = False
        # hand the game to a human seat for the picture: highlights and a hovered tile
        w.seats[w.game.to_move] = Seat(
            w.game.players[w.game.to_move], w.seats[w.game.to_move].colour
        )
        w._cancel_bot()
        for _ in range(50):
            app.processEvents()
        w._refresh()
        if w.game.phase is Phase.PLACE:
            fits = w.scene.overlay.fits
            if fits:
                sq, rots = sorted(fits.items())[0]
                w.rotation = sorted(rots)[0]
                w._refresh()
                pos: QPoint = w.view.mapFromScene(square_rect(sq).center())
                QTest.mouseMove(w.view.viewport(), pos)
        for _ in range(20):
            app.processEvents()
        path = out / f"play-{name}.png"
        w.grab().save(str(path))
        print(f"{path}: turn {w.game.turn}, scores {w.game.scores}")
        w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
