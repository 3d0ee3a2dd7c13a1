"""The screenshot of the Studio's playtest window in an online game:
``python -m mapeditor.online.join_screens OUTDIR``.

A host of Deutschland on a free port of 127.0.0.1 (a child process, stopped at the end) with
Ann's seat human and two greedy bots; the window joins Ann's link, says hello in the chat, plays
a few turns with its own controls, and is grabbed at Ann's next turn with a tile under the mouse
(``OUTDIR/studio-joined.png``, docs/online-play.md's picture).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from engine.game import Phase
from mapeditor.online.joined_window import JoinedWindow, join_game
from mapeditor.online.screens import HostProcess
from mapeditor.painting import square_rect
from mapeditor.screen_args import out_dir


def _wait(app: Any, done: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the host did not answer in time")
        app.processEvents()
        time.sleep(0.01)


def _play_turn(app: Any, w: JoinedWindow) -> None:
    before = len(w.game.history)
    if w.game.phase is Phase.PLACE:
        x, y, r, _spots = w.remote.state["moves"]["placements"][0]
        w.rotation = r
        w.click_square((x, y))
        if w.pending is not None:
            w.no_meeple()
    else:
        w.action_buttons()[0].click()
    _wait(app, lambda: len(w.game.history) > before)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    out = out_dir(argv, "mapeditor.online.join_screens")
    if out is None:
        return 2
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        players = "Ann=human,greedy,greedy"
        host = HostProcess(Path(tmp), ["deutschland", "--players", players, "--seed", "5"])
        host.start()
        try:
            _joining, opened = join_game(host.links["Ann"])
            _wait(app, lambda: bool(opened))
            w = opened[0]
            w.resize(1500, 1000)
            w.show()
            for _ in range(8):
                _wait(app, lambda: w.human_to_move() or w.game.is_over())
                _play_turn(app, w)
            _wait(app, w.human_to_move)
            w.chat_text.setText("Hello from the Studio")
            w.send_chat()
            _wait(app, lambda: any("Hello from the Studio" in line for line in w.log.lines()))
            w.view.fit()
            fits = w.scene.overlay.fits
            if fits:
                sq, rots = sorted(fits.items())[0]
                while w.rotation not in rots:
                    w.rotate(1)
                pos: QPoint = w.view.mapFromScene(square_rect(sq).center())
                QTest.mouseMove(w.view.viewport(), pos)
            for _ in range(30):
                app.processEvents()
            path = out / "studio-joined.png"
            w.grab().save(str(path))
            print(path)
            w.close()
        finally:
            host.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
