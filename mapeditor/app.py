"""Start the editor: ``python -m mapeditor [MAP]``."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication


def run_editor(argv: list[str]) -> int:
    """Open the editor on ``argv[0]`` (a map file), or on its start page without one."""
    if argv and argv[0] in ("-h", "--help"):
        print(
            "usage: python -m mapeditor [MAP]\n       python -m mapeditor export MAP OUT\n"
            "       python -m mapeditor play MAP"
        )
        return 0
    from mapeditor.widgets.main_window import open_editor

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Carcassonne Maps Studio")
    app.setOrganizationName("CarcassonneMapsStudio")
    window = open_editor(Path(argv[0]) if argv else None)
    window.show()
    return app.exec()
