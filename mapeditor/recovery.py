"""Autosave slots: one recovery file per map and window, and the list of them after a crash.

A recovery file is a map file whose editor settings also say which file it recovers
(:data:`ORIGIN_KEY`: the map's resolved path, or ``""`` for a map never saved) and which window
wrote it (:data:`OWNER_KEY`). Two maps with the same file name in different folders get
different slots, and so do two windows on one file: one window's Save never deletes the other's
autosave. A recovery is offered only for the file it names: another file's recovery is never
offered, loaded or deleted. Whether the window that wrote a slot still runs is the caller's
question (:mod:`mapeditor.files` asks a lock file). No Qt here.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from engine import boundedio
from engine.errors import EngineError
from engine.mapdef import MapDef
from engine.mapio import MAX_FILE_BYTES, read_map, save_map
from mapeditor.ruleset_files import EMBEDDED_FILE_KEY, embedded_copy, unembed

ORIGIN_KEY = "autosave_of"
"""Editor-settings key of a recovery file: the path of the map it recovers ("" if unsaved)."""
OWNER_KEY = "autosave_owner"
"""Editor-settings key of a recovery file: the id of the window that wrote it."""
RULE_SET_FILE_KEY = EMBEDDED_FILE_KEY
"""Editor-settings key of a recovery file: the rule-set file the map names. A recovery file
lives elsewhere, so it embeds that rule set (with its unsaved changes) and says its file here."""
SUFFIX = ".autosave.json"
MAX_LISTED = 64
"""At most this many recovery files are listed (the newest)."""


def origin_of(path: Path | None) -> str:
    """How a map's file is named inside its recovery file (its resolved path)."""
    return "" if path is None else str(Path(path).resolve())


def slot(folder: Path, path: Path | None, untitled_id: str, owner: str = "") -> Path:
    """The recovery file of the map at ``path`` in the window ``owner`` (or of the unsaved map
    ``untitled_id``, which no other window edits)."""
    if path is None:
        return folder / f"untitled-{untitled_id}{SUFFIX}"
    origin = origin_of(path)
    digest = hashlib.sha256(origin.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(path).stem)[:40] or "map"
    return folder / f"{stem}-{digest}{'-' + owner if owner else ''}{SUFFIX}"


def write(m: MapDef, target: Path, path: Path | None, owner: str = "") -> None:
    """Write ``m`` (a snapshot) as the recovery of ``path`` to ``target``, atomically."""
    snap = embedded_copy(m)
    snap.editor = {**snap.editor, ORIGIN_KEY: origin_of(path), OWNER_KEY: owner}
    target.parent.mkdir(parents=True, exist_ok=True)
    save_map(snap, target)


def read(target: Path, path: Path | None) -> MapDef | None:
    """The map saved in ``target`` if it is the recovery of ``path``; ``None`` otherwise (no
    such file, unreadable, or another file's recovery)."""
    if not target.is_file():
        return None
    try:
        m, _issues = read_map(target)
    except (EngineError, OSError):
        return None
    if m.editor.get(ORIGIN_KEY) != origin_of(path):
        return None
    unembed(m)
    m.editor = {k: v for k, v in m.editor.items() if k not in (ORIGIN_KEY, OWNER_KEY)}
    return m


def remove(target: Path, path: Path | None) -> bool:
    """Delete ``target`` only if it is the recovery of ``path`` (or not a readable recovery at
    all, i.e. garbage in this file's own slot). Returns whether it was deleted."""
    if not target.is_file():
        return False
    with contextlib.suppress(EngineError, OSError):
        m, _issues = read_map(target)
        if m.editor.get(ORIGIN_KEY, origin_of(path)) != origin_of(path):
            return False
    with contextlib.suppress(OSError):
        target.unlink()
        return True
    return False


@dataclass(frozen=True)
class Entry:
    """One recovery file, as the start page lists it."""

    file: Path
    origin: Path | None
    """The map file it recovers (``None``: a map never saved)."""
    owner: str
    """The window that wrote it (``""``: a recovery file of an older version)."""
    name: str
    """The map's name."""
    saved: float
    """When it was written (seconds since the epoch)."""


def entries(folder: Path) -> list[Entry]:
    """The readable recovery files in ``folder``, newest first (at most :data:`MAX_LISTED`).

    Only the name, origin and owner are read (not the whole map): the list is shown at start.
    """
    found: list[tuple[float, Path]] = []
    with contextlib.suppress(OSError):
        for file in folder.glob(f"*{SUFFIX}"):
            with contextlib.suppress(OSError):
                if file.is_file():
                    found.append((file.stat().st_mtime, file))
    listed: list[Entry] = []
    for saved, file in sorted(found, reverse=True)[:MAX_LISTED]:
        try:
            data = boundedio.read_json(file, limit=MAX_FILE_BYTES, what="recovery file")
        except (EngineError, OSError):
            continue
        editor = data.get("editor") if isinstance(data, dict) else None
        origin = editor.get(ORIGIN_KEY) if isinstance(editor, dict) else None
        if not isinstance(origin, str):
            continue  # not a recovery file
        owner = editor.get(OWNER_KEY, "") if isinstance(editor, dict) else ""
        name = data.get("name")
        listed.append(
            Entry(
                file=file,
                origin=Path(origin) if origin else None,
                owner=owner if isinstance(owner, str) else "",
                name=name if isinstance(name, str) and name else file.stem,
                saved=saved,
            )
        )
    return listed
