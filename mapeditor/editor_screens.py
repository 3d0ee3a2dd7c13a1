"""Screenshots of the editor for the docs: ``python -m mapeditor.editor_screens OUTDIR [MAP...]``.

Run under a display (``xvfb-run -a``). Writes ``OUTDIR/<map>.png`` for each shipped map (or the
ones named) and ``OUTDIR/start-page.png``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths
from PySide6.QtWidgets import QApplication

from engine.resources import bundled_map, shipped_maps


def _settle(app: QCoreApplication, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m mapeditor.editor_screens OUTDIR [MAP...]", file=sys.stderr)
        return 2
    from mapeditor.widgets.main_window import open_editor

    out = Path(args.pop(0))
    out.mkdir(parents=True, exist_ok=True)
    names = args or [p.stem for p in shipped_maps()]
    app = QApplication.instance() or QApplication([])
    # The user's own settings (recent files) stay out of the pictures.
    QStandardPaths.setTestModeEnabled(True)
    start = open_editor()
    start.settings.setValue("recent", [str(Path.home() / "maps" / "my-island.json")])
    start._refresh_recent()
    start.resize(1500, 950)
    start.show()
    _settle(app, 0.5)
    start.grab().save(str(out / "start-page.png"))
    start.close()
    for name in names:
        window = open_editor(bundled_map(name))
        window.resize(1500, 950)
        window.show()
        _settle(app, 2.0)  # validation and the chips feasibility answer arrive
        window.statusBar().clearMessage()
        window.view.fit()
        _settle(app, 0.3)
        path = out / f"{name}.png"
        window.grab().save(str(path))
        print(path)
        window.document.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
