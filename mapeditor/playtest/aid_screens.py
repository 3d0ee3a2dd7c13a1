"""Screenshots of the playtest aids: ``python -m mapeditor.playtest.aid_screens OUTDIR``.

A seeded hot-seat game of Deutschland, its moves chosen by a greedy bot for both seats, is
stopped mid-game; then the window is grabbed with the tiles-left panel open (unfillable squares
crossed), with projected scores on and a player's row under the mouse, and with a scoring line
of the log under the mouse. A game of Great Britain is stopped after a placement that leaves the
turn open (an extra turn to buy), to show "Take back". The pictures are docs/playtest's (``aid-*.png``).
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from engine.bots import make_bot
from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.playtest import aids
from mapeditor.playtest.setup import PlaytestSetup, Seat, default_setup
from mapeditor.playtest.window import PlaytestWindow
from mapeditor.screen_args import out_dir


def _settle(app: Any, rounds: int = 30) -> None:
    for _ in range(rounds):
        app.processEvents()


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    out = out_dir(argv, "mapeditor.playtest.aid_screens")
    if out is None:
        return 2
    app = QApplication.instance() or QApplication([])

    def window(name: str, seed: int) -> PlaytestWindow:
        m = load_map(bundled_map(name))
        seats = [Seat("Anna", "#d7301f"), Seat("Ben", "#2b6cc4"), Seat("Cleo", "#2e9b43")]
        setup = PlaytestSetup(seats, seed, default_setup(m, seed=seed).options)
        w = PlaytestWindow(m, setup, pace_ms=0)
        w.ask_to_keep_game = False  # a picture, not a game to keep
        w.resize(1500, 1000)
        w.show()
        _settle(app)
        return w

    def shoot(w: PlaytestWindow, name: str) -> None:
        _settle(app)
        path = out / name
        w.grab().save(str(path))
        print(path)

    def hover(widget: Any, point: QPoint) -> None:
        QTest.mouseMove(widget, point + QPoint(2, 2))
        QTest.mouseMove(widget, point)
        _settle(app)

    bot = make_bot("greedy", seed=3)
    w = window("deutschland", 7)
    while w.game.turn < 44:
        w.play(bot.choose(w.game))
    w.projected_box.click()
    board = w.score_board
    g = w.game
    most = max(range(len(g.players)), key=lambda p: len(aids.held_squares(g, p)))
    cell = board.item(most, 1)
    assert cell is not None
    hover(board.viewport(), board.visualItemRect(cell).center())
    shoot(w, "aid-projected.png")

    log = w.log
    rows = [i for i in range(log.count()) if "★" in log.item(i).text()]
    if rows:
        item = log.item(rows[-1])
        log.scrollToItem(item)
        _settle(app)
        hover(log.viewport(), log.visualItemRect(item).center())
    shoot(w, "aid-scoring-line.png")
    w.projected_box.click()
    # on to a position with an open square that no tile left can fill
    while not aids.unfillable_squares(w.game) and w.game.tiles_left() > 2:
        w.play(bot.choose(w.game))
    w.tiles_left_action.trigger()
    _settle(app)
    w.view.fit()
    shoot(w, "aid-tiles-left.png")
    w.close()

    w = window("great-britain", 3)
    while not (w.take_back_action.isEnabled() and w.game.turn > 6):
        w.play(bot.choose(w.game))
    hover(w.view.viewport(), QPoint(5, 5))  # the mouse off the log: no feature picked out
    shoot(w, "aid-take-back.png")
    w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
