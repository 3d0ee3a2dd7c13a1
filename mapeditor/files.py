"""The file life cycle of one editor window: open, save, autosave, recovery and recent files.

:class:`EditorFiles` does the work and keeps the state; the window only asks the user (which
file, overwrite or not, restore or not) and shows what it is told through :attr:`~EditorFiles.
status`. No widgets here: the tests drive it without a window.

Work is never lost between two windows or after a crash:

- a file changed on disk since this window opened or saved it is not overwritten without
  asking (:class:`ChangedOnDisk`), as Tiled does;
- each window has its own recovery slots, and holds a lock file while it runs: the slots of a
  window whose lock is free (it crashed) are listed by :meth:`EditorFiles.recoverable`;
- a save that fails (a full disk, a read-only folder) keeps the document as it was, writes its
  autosave at once and says why in one sentence (:func:`save_failure_text`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import threading
import uuid
from pathlib import Path

from PySide6.QtCore import (
    QLockFile,
    QObject,
    QRunnable,
    QSettings,
    QStandardPaths,
    QThreadPool,
    Signal,
)

from engine import boundedio
from engine.errors import EngineError, MapFormatError
from engine.gridshape import default_tile_pool
from engine.mapdef import MapDef
from engine.mapio import MAX_FILE_BYTES
from engine.resources import maps_dir
from mapeditor import recovery
from mapeditor.document import MapDocument
from mapeditor.folders import documents_dir, remember_dir, start_dir

MAX_RECENT = 8


def recovery_dir() -> Path:
    """Where autosaves go (one file per open map)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".carcassonne-maps") / "recovery"


def recovery_path(path: Path | None, untitled_id: str, owner: str = "") -> Path:
    """The recovery slot of the map file ``path`` (keyed by its full path) in the window
    ``owner``, or of an unsaved map (its own slot, ``untitled_id``): see
    :mod:`mapeditor.recovery`."""
    return recovery.slot(recovery_dir(), path, untitled_id, owner)


def file_digest(path: Path) -> str | None:
    """What ``path`` holds, as a SHA-256 (``None``: no such file, or unreadable)."""
    try:
        data = boundedio.read_bytes(path, limit=MAX_FILE_BYTES, what="map")
    except (EngineError, OSError):
        return None
    return hashlib.sha256(data).hexdigest()


class ChangedOnDisk(EngineError):
    """The file was changed by another window or program since this window opened or saved it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(
            f"{boundedio.shown(str(path))} was changed on disk since you opened or saved it "
            "(by another window or program)"
        )


class SaveFailed(EngineError):
    """A save failed: why, in one sentence, and where the work is kept meanwhile."""

    def __init__(self, path: Path, cause: BaseException, rescued: Path | None) -> None:
        self.path, self.rescued = path, rescued
        kept = (
            f"Your work is still open here and autosaved to {boundedio.shown(str(rescued))}."
            if rescued is not None
            else "Your work is still open here (the autosave failed too): save it elsewhere."
        )
        super().__init__(f"{save_failure_text(path, cause)} {kept}")


def save_failure_text(path: Path, exc: BaseException) -> str:
    """One sentence saying why saving ``path`` failed, naming the map (not a temporary file)."""
    shown = boundedio.shown(str(path))
    if isinstance(exc, OSError) and not isinstance(exc, EngineError):
        code = exc.errno
        if code in (errno.ENOSPC, errno.EDQUOT):
            why = "the disk is full"
        elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
            why = f"the folder {boundedio.shown(str(path.parent))} is read-only for you"
        elif code == errno.ENOENT:
            why = f"the folder {boundedio.shown(str(path.parent))} does not exist"
        else:
            why = exc.strerror or type(exc).__name__
        return f"{shown} was not saved: {why}."
    if isinstance(exc, RecursionError):
        return f"{shown} was not saved: the map is nested too deeply to be written."
    return f"{shown} was not saved: {str(exc).rstrip('.')}."


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
        self.owner = uuid.uuid4().hex[:12]
        """This window's id: it names the window's recovery slots and its lock file."""
        folder = recovery_dir()
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
        # Held while the window runs; free once it is closed or its process died.
        self._lock = QLockFile(str(_lock_path(folder, self.owner)))
        self._lock.setStaleLockTime(0)  # only a dead process's lock is stale, however old
        self._lock.tryLock(0)
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
        digest = file_digest(path)  # before reading: a change in between is seen at Save
        document = MapDocument.open(path)
        if is_shipped(path):
            document.path = None  # never edited in place: Save asks where
        else:
            document.disk_digest = digest
            self.add_recent(path)
        return document

    def save(self, document: MapDocument, path: Path, *, overwrite: bool = False) -> None:
        """Save ``document`` to ``path``; its autosave is then no longer needed.

        :raises ChangedOnDisk: ``path`` is the document's own file and another window or program
            changed it since (``overwrite=True``: replace it anyway).
        :raises SaveFailed: the save failed; the old file and the document (still modified)
            are kept, and its autosave is written at once.
        """
        if not overwrite and self.changed_on_disk(document, path):
            raise ChangedOnDisk(path)
        old_recovery, old_path = self.recovery_of(document), document.path
        try:
            document.save(path)
        except (EngineError, OSError, RecursionError, UnicodeError) as exc:
            rescued = self.autosave(document)
            raise SaveFailed(path, exc, rescued) from exc
        document.disk_digest = file_digest(path)
        self._drop_autosave()
        recovery.remove(old_recovery, old_path)  # this window's own slot only
        self.add_recent(path)

    def changed_on_disk(self, document: MapDocument, path: Path | None = None) -> bool:
        """Whether the document's file (``path``, when it is that file) holds something else
        than what this window last read or wrote there."""
        own = document.path
        if own is None or (path is not None and path.resolve() != own.resolve()):
            return False
        now = file_digest(own)
        return now is not None and now != document.disk_digest

    # -- autosave and recovery ---------------------------------------------------------------

    def recovery_of(self, document: MapDocument) -> Path:
        """The recovery slot of ``document`` in this window."""
        return recovery_path(document.path, document.untitled_id, self.owner)

    def autosave(self, document: MapDocument) -> Path | None:
        """Write unsaved work to the document's recovery file (atomically, now); the map file is
        not touched. Returns the file written (``None``: nothing to save, or it failed)."""
        if not document.modified:
            return None
        target = self.recovery_of(document)
        try:
            recovery.write(document.map, target, document.path, self.owner)
        except (MapFormatError, EngineError, OSError, RecursionError) as exc:
            self.status.emit(f"Autosave failed: {exc}")
            return None
        return target

    def autosave_in_background(self, document: MapDocument) -> None:
        """:meth:`autosave` with the writing in a worker thread (a large map takes a moment to
        write); the map is copied first, so later edits never mix into the file."""
        if not document.modified or self._autosaving:
            return
        try:
            snapshot = document.snapshot()
        except RecursionError:  # a map nested too deeply to copy: say so, try again next time
            self.status.emit("Autosave failed: the map is nested too deeply to be copied")
            return
        self._autosaving = True
        job = _AutosaveJob(
            snapshot,
            self.recovery_of(document),
            document.path,
            self.owner,
            self._signals,
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

    def recoverable(self) -> list[recovery.Entry]:
        """The recovery files of windows that are gone (closed without saving by a crash),
        newest first: what the start page offers back."""
        folder = recovery_dir()
        listed = [e for e in recovery.entries(folder) if not self._running(folder, e.owner)]
        # the locks of windows that crashed with nothing to recover: freed, so removed
        owners = {e.owner for e in listed}
        with contextlib.suppress(OSError):
            for lock in folder.glob("window-*.lock"):
                owner = lock.stem.removeprefix("window-")
                if owner not in owners:
                    self._running(folder, owner)
        return listed

    def _running(self, folder: Path, owner: str) -> bool:
        """Whether the window ``owner`` still runs (in this process or another)."""
        if owner == self.owner:
            return True
        if not owner:
            return False  # a recovery file of an older version, no window holds it
        lock = QLockFile(str(_lock_path(folder, owner)))
        lock.setStaleLockTime(0)
        if not lock.tryLock(0):
            return True
        lock.unlock()  # also removes the lock file of the window that is gone
        return False

    def pending_recovery(self, document: MapDocument) -> recovery.Entry | None:
        """The newest autosave of the document's file left by a window that is gone, when it is
        newer than the file (a crash); ``None`` otherwise.

        Recovery files are keyed by the map's full path and name it inside; another file's
        recovery (same file name, another folder) is never offered nor deleted, nor is the
        autosave of another window still editing the same file.
        """
        path = document.path
        if path is None:
            return None
        origin = Path(recovery.origin_of(path))
        mtime = path.stat().st_mtime if path.is_file() else None
        for entry in self.recoverable():
            if entry.origin == origin and (mtime is None or entry.saved > mtime):
                return entry
        return None

    def read_recovery(self, entry: recovery.Entry) -> MapDef | None:
        """The map saved in ``entry`` (``None``: it cannot be read any more)."""
        return recovery.read(entry.file, entry.origin)

    def adopt(self, document: MapDocument, entry: recovery.Entry) -> None:
        """``document`` now holds the work of ``entry``: keep it in this window's own slot and
        delete the old file (never before the work is written again)."""
        if entry.file != self.recovery_of(document) and self.autosave(document) is not None:
            recovery.remove(entry.file, entry.origin)

    def discard(self, entry: recovery.Entry) -> None:
        """The user declined ``entry``: delete it."""
        recovery.remove(entry.file, entry.origin)

    def discard_recovery(self, document: MapDocument) -> None:
        """The document's work was saved or discarded, or its window closes: delete its own
        slot (never another window's)."""
        self._drop_autosave()
        recovery.remove(self.recovery_of(document), document.path)

    def close(self) -> None:
        """The window closes: free its lock (its slots are deleted by then)."""
        self._lock.unlock()

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
        remember_dir(path, self.settings)
        self.recentChanged.emit()

    def last_dir(self) -> Path:
        """Where file dialogs start: the last folder used, else the user's documents (never the
        folder of the shipped maps)."""
        last = start_dir(None, self.settings)
        return documents_dir() if is_shipped(last / "x.json") else last


def _lock_path(folder: Path, owner: str) -> Path:
    return folder / f"window-{owner}.lock"


class _AutosaveSignals(QObject):
    done = Signal(object)
    """The error text, or ``None``; emitted from the worker, delivered on the UI thread."""


class _AutosaveJob(QRunnable):
    """Writes one autosave off the UI thread."""

    def __init__(
        self, m: MapDef, target: Path, path: Path | None, owner: str, signals: _AutosaveSignals
    ) -> None:
        super().__init__()
        self._args = (m, target, path, owner)
        self._signals = signals
        self.dropped = threading.Event()
        """Set when the work was saved or discarded meanwhile: the file written is removed."""

    def run(self) -> None:
        error: str | None = None
        try:
            recovery.write(*self._args)
            if self.dropped.is_set():
                recovery.remove(self._args[1], self._args[2])
        except (MapFormatError, EngineError, OSError, RecursionError) as exc:
            error = str(exc)
        with contextlib.suppress(RuntimeError):  # the window was closed meanwhile
            self._signals.done.emit(error)
