"""Start a playtest from the editor: refuse a map with errors, ask for the setup, open the window.

The editor calls :func:`open_playtest` with ``document.snapshot()`` (a copy of the map), so the
game can never change the map being edited.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from engine.mapdef import MapDef
from mapeditor.playtest.setup import default_setup
from mapeditor.playtest.setup_dialog import SetupDialog
from mapeditor.playtest.window import PlaytestWindow


def map_errors(m: MapDef) -> list[str]:
    """The validation errors that keep ``m`` from being played (``code: message`` each)."""
    from engine.validation import Severity, validate_map

    return [f"{i.code}: {i.message}" for i in validate_map(m) if i.severity is Severity.ERROR]


def unplayable(m: MapDef) -> str | None:
    """Why the engine cannot play ``m`` at all (``None``: it can, errors or not)."""
    from engine.errors import EngineError
    from engine.game import Game

    try:
        Game(m, players=2, seed=0)
    except (EngineError, ValueError, KeyError, IndexError) as exc:
        return str(exc) or exc.__class__.__name__
    return None


def confirm_errors(m: MapDef, parent: QWidget | None = None) -> bool:
    """Whether to play ``m``: yes at once without errors; with errors, after a confirmation
    listing them; never when the engine cannot play it (said with the reason)."""
    errors = map_errors(m)
    if not errors:
        return True
    shown = "\n".join(f"• {e}" for e in errors[:15])
    more = f"\n… and {len(errors) - 15} more" if len(errors) > 15 else ""
    count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
    reason = unplayable(m)
    if reason is not None:
        QMessageBox.warning(
            parent, "Playtest", f"This map cannot be played ({reason}).\n\n{count}:\n{shown}{more}"
        )
        return False
    answer = QMessageBox.question(
        parent,
        "Playtest",
        f"This map has {count}:\n\n{shown}{more}\n\nPlay a test game anyway?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


def open_playtest(
    m: MapDef, parent: QWidget | None = None, *, ask_setup: bool = True, allow_errors: bool = False
) -> PlaytestWindow | None:
    """Open a playtest window on ``m`` (pass a copy); ``None`` when refused or cancelled.

    A map with validation errors is refused with the list of its errors, unless
    ``allow_errors`` (the caller asked first: :func:`confirm_errors`).
    """
    errors = [] if allow_errors else map_errors(m)
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
