"""Start a playtest from the editor: refuse a map with errors, ask for the setup, open the window.

The editor calls :func:`open_playtest` with ``document.snapshot()`` (a copy of the map), so the
game can never change the map being edited.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from engine.mapdef import MapDef
from mapeditor.playtest.setup_dialog import SetupDialog, default_setup
from mapeditor.playtest.window import PlaytestWindow


def map_errors(m: MapDef) -> list[str]:
    """The validation errors that keep ``m`` from being played (``code: message`` each)."""
    from engine.validation import Severity, validate_map

    return [f"{i.code}: {i.message}" for i in validate_map(m) if i.severity is Severity.ERROR]


def open_playtest(
    m: MapDef, parent: QWidget | None = None, *, ask_setup: bool = True
) -> PlaytestWindow | None:
    """Open a playtest window on ``m`` (pass a copy); ``None`` when refused or cancelled.

    A map with validation errors is refused with the list of its errors.
    """
    errors = map_errors(m)
    if errors:
        shown = "\n".join(f"• {e}" for e in errors[:15])
        more = f"\n… and {len(errors) - 15} more" if len(errors) > 15 else ""
        QMessageBox.warning(
            parent,
            "Playtest",
            f"This map has {len(errors)} error{'s' if len(errors) != 1 else ''}; fix "
            f"{'them' if len(errors) != 1 else 'it'} before playing:\n\n{shown}{more}",
        )
        return None
    setup = default_setup(m)
    if ask_setup:
        dlg = SetupDialog(m, setup, parent)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        setup = dlg.setup()
    window = PlaytestWindow(m, setup)  # a top-level window of its own
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    window.show()
    return window
