"""Screenshots of the editor on every shipped map (``docs/editor/<id>.png``).

Run under a display from the repository root: ``xvfb-run -a python docs/editor/make_screenshots.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

HERE = Path(__file__).resolve().parent


def main() -> int:
    app = QApplication(sys.argv)
    from engine.resources import shipped_maps
    from mapeditor.widgets.main_window import MainWindow

    for path in shipped_maps():
        window = MainWindow()
        window.resize(1500, 950)
        window.show()
        window.open_path(path, ask_save=False)
        window.view.fit()
        done = [False]
        window.validation.validated.connect(lambda d=done: d.__setitem__(0, True))
        window.validation.run_now()
        while not done[0]:
            app.processEvents()
        wait = [False]
        QTimer.singleShot(300, lambda w=wait: w.__setitem__(0, True))
        while not wait[0]:
            app.processEvents()
        out = HERE / f"{path.stem}.png"
        window.grab().save(str(out))
        print(f"wrote {out}")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
