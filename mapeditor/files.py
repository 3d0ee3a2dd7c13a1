"""The file life cycle of one editor window: open, save, autosave, recovery and recent files.

:class:`EditorFiles` does the work and keeps the state; the window only asks the user (which
file, overwrite or not, restore or not) and shows what it is told through :attr:`~EditorFiles.
status`. No widgets here: the tests drive it without a window.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QSettings, QStandardPaths, QThreadPool, Signal

from engine.errors import EngineError, MapFormatError
from engine.gridshape import default_tile_pool
from engine.mapdef import MapDef
from engine.resources import maps_dir
from mapeditor import recovery
from mapeditor.document import MapDocument

MAX_RECENT = 8


def recovery_dir() -> Path:
    """Where autosaves go (one file per open map)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".carcassonne-maps") / "recovery"


def recovery_path(path: Path | None, untitled_id: str) -> Path:
    """The recovery slot of the map file ``path`` (keyed by its full path), or of an unsaved map
    (its own slot, ``untitled_id``): see :mod:`mapeditor.recovery`."""
    return recovery.slot(recovery_dir(), path, untitled_id)


def documents_dir() -> Path:
    """The user's documents folder (where a new map is saved by default)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(base) if base else Path.home()


def is_shipped(path: Path) -> bool:
    """Whether ``path`` is one of the maps shipped with the program (never written in place)."""
    try:
        return path.resolve().parent == maps_dir().resolve()
    except OSError:
        return False


def blank_map(width: int, height: int) -> MapDef:
    """A blank map whose tile pool suits a grid of this size once it is filled."""
    m = MapDef("new-map", "New map", width, height)
    m.setup.tile_pool_min, m.setup.tile_pool_max = default_tile_pool(width * height)
    return m


class EditorFiles(QObject):
    """Opens and saves the maps of one window, autosaves its unsaved work and lists recent files.

    Errors of :meth:`open` and :meth:`save` are raised for the window to show; autosave errors
    go to :attr:`status` (autosave never interrupts the user).
    """

    status = Signal(str)
    """A short message for the status bar."""
    recentChanged = Signal()
    """The recent-files list changed."""
    autosaved = Signal(object)
    """A background autosave finished: its error text, or ``None``."""

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._autosaving = False
        self._autosave_dropped = threading.Event()
        self._signals = _AutosaveSignals(self)
        self._signals.done.connect(self._autosave_finished)

    # -- open and save -----------------------------------------------------------------------

    def open(self, path: Path) -> MapDocument:
        """Load ``path``. A shipped map opens as an untitled copy (its ``path`` is ``None``);
        any other file joins the recent files.

        :raises MapFormatError, EngineError, OSError: the file cannot be loaded (nothing changed).
        """
        document = MapDocument.open(path)
        if is_shipped(path):
            document.path = None  # never edited in place: Save asks where
        else:
            self.add_recent(path)
        return document

    def save(self, document: MapDocument, path: Path) -> None:
        """Save ``document`` to ``path``; its autosave is then no longer needed.

        :raises MapFormatError, EngineError, OSError: the save failed; the old file, the
            document (still modified) and its autosave are kept.
        """
        old_recovery, old_path = self.recovery_of(document), document.path
        document.save(path)
        self._drop_autosave()
        recovery.remove(old_recovery, old_path)  # this document's own slot only
        self.add_recent(path)

    # -- autosave and recovery ---------------------------------------------------------------

    def recovery_of(self, document: MapDocument) -> Path:
        """The recovery slot of ``document``."""
        return recovery_path(document.path, document.untitled_id)

    def autosave(self, document: MapDocument) -> Path | None:
        """Write unsaved work to the document's recovery file (atomically, now); the map file is
        not touched. Returns the file written (``None``: nothing to save, or it failed)."""
        if not document.modified:
            return None
        target = self.recovery_of(document)
        try:
            recovery.write(document.map, target, document.path)
        except (MapFormatError, EngineError, OSError) as exc:
            self.status.emit(f"Autosave failed: {exc}")
            return None
        return target

    def autosave_in_background(self, document: MapDocument) -> None:
        """:meth:`autosave` with the writing in a worker thread (a large map takes a moment to
        write); the map is copied first, so later edits never mix into the file."""
        if not document.modified or self._autosaving:
            return
        self._autosaving = True
        job = _AutosaveJob(
            document.snapshot(), self.recovery_of(document), document.path, self._signals
        )
        self._autosave_dropped = job.dropped
        QThreadPool.globalInstance().start(job)

    def _drop_autosave(self) -> None:
        """The work is saved or discarded: a background autosave still writing deletes its file."""
        self._autosave_dropped.set()

    def _autosave_finished(self, error: str | None) -> None:
        self._autosaving = False
        if error is not None:
            self.status.emit(f"Autosave failed: {error}")
        self.autosaved.emit(error)

    def pending_recovery(self, document: MapDocument) -> MapDef | None:
        """The document's own autosave when it is newer than its file (a crash), else ``None``.

        Recovery files are keyed by the map's full path and name it inside; another file's
        recovery (same file name, another folder) is never offered nor deleted.
        """
        target = self.recovery_of(document)
        recovered = recovery.read(target, document.path)
        if recovered is None:
            return None
        path = document.path
        if path is not None and path.is_file() and target.stat().st_mtime <= path.stat().st_mtime:
            return None
        return recovered

    def discard_recovery(self, document: MapDocument) -> None:
        """The user declined the document's autosave, or closed it: delete its own slot."""
        self._drop_autosave()
        recovery.remove(self.recovery_of(document), document.path)

    # -- recent files ------------------------------------------------------------------------

    def recent(self) -> list[str]:
        """The recent files, newest first (full paths)."""
        value = self.settings.value("recent", [])
        if isinstance(value, str):  # QSettings gives a one-item list back as a string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def add_recent(self, path: Path) -> None:
        path = path.resolve()
        recent = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("recent", recent[:MAX_RECENT])
        self.settings.setValue("last_dir", str(path.parent))
        self.recentChanged.emit()

    def last_dir(self) -> Path:
        """Where file dialogs start: the last folder used, else the user's documents (never the
        folder of the shipped maps)."""
        last = Path(str(self.settings.value("last_dir", "") or documents_dir()))
        return documents_dir() if is_shipped(last / "x.json") or not last.is_dir() else last


class _AutosaveSignals(QObject):
    done = Signal(object)
    """The error text, or ``None``; emitted from the worker, delivered on the UI thread."""


class _AutosaveJob(QRunnable):
    """Writes one autosave off the UI thread."""

    def __init__(
        self, m: MapDef, target: Path, path: Path | None, signals: _AutosaveSignals
    ) -> None:
        super().__init__()
        self._args = (m, target, path)
        self._signals = signals
        self.dropped = threading.Event()
        """Set when the work was saved or discarded meanwhile: the file written is removed."""

    def run(self) -> None:
        error: str | None = None
        try:
            recovery.write(*self._args)
            if self.dropped.is_set():
                recovery.remove(self._args[1], self._args[2])
        except (MapFormatError, EngineError, OSError) as exc:
            error = str(exc)
        with contextlib.suppress(RuntimeError):  # the window was closed meanwhile
            self._signals.done.emit(error)
