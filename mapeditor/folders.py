"""Where file dialogs start, and the editor's settings file (QtCore only: the file life cycle
uses it too).

File dialogs start in the map's folder, else the last folder used, else the user's documents —
never the current working directory. Everything the editor remembers lives in one settings
file, ``CarcassonneMapsStudio/editor``; tests point QSettings at a temporary folder
(tests/mapeditor/conftest.py) so they never read or write the user's settings.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

__all__ = ["ORGANISATION", "documents_dir", "editor_settings", "remember_dir", "start_dir"]

ORGANISATION = "CarcassonneMapsStudio"
LAST_DIR_KEY = "last_dir"


def editor_settings() -> QSettings:
    """The editor's settings (one file for every window and dialog)."""
    return QSettings(ORGANISATION, "editor")


def documents_dir() -> Path:
    """The user's documents folder (the home folder when the platform names none)."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(docs) if docs and Path(docs).is_dir() else Path.home()


def start_dir(map_path: Path | None = None, settings: QSettings | None = None) -> Path:
    """Where a file dialog starts: the map's folder, else the last folder used, else the user's
    documents — never the current working directory (a source checkout, say)."""
    if map_path is not None and map_path.parent.is_dir():
        return map_path.parent.resolve()
    last = (settings or editor_settings()).value(LAST_DIR_KEY, "")
    if isinstance(last, str) and last and Path(last).is_dir():
        return Path(last)
    return documents_dir()


def remember_dir(path: Path, settings: QSettings | None = None) -> None:
    """A file was chosen at ``path``: its folder is where the next dialog starts."""
    (settings or editor_settings()).setValue(LAST_DIR_KEY, str(path.resolve().parent))
