"""File ▸ New map from country…: run the dialog and open the result as an unsaved map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog

from engine.mapdef import MapDef
from mapeditor.commands import ReplaceMap
from mapeditor.document import MapDocument
from mapeditor.widgets.new_from_country import NewFromCountryDialog

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


def new_map_from_country(
    window: MainWindow, dialog: NewFromCountryDialog | None = None
) -> MapDocument | None:
    """Run the dialog; the new map opens as an unsaved document."""
    if not window.maybe_save():
        return None
    dialog = dialog or NewFromCountryDialog(window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return open_imported(window, dialog.build_map())


def open_imported(window: MainWindow, m: MapDef) -> MapDocument:
    document = MapDocument(MapDef(m.id, m.name, m.width, m.height))
    document.undo_stack.push(ReplaceMap(document, m, "New map from country"))
    window.set_document(document)
    return document
