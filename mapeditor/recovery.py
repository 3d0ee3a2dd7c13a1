"""Autosave slots: one recovery file per map file (keyed by its full path), one per unsaved map.

A recovery file is a map file whose editor settings also say which file it recovers
(:data:`ORIGIN_KEY`: the map's resolved path, or ``""`` for a map never saved). Two maps with the
same file name in different folders get different slots, and a recovery is offered only for the
file it names: another file's recovery is never offered, loaded or deleted. No Qt here.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from pathlib import Path

from engine.errors import EngineError
from engine.mapdef import MapDef
from engine.mapio import read_map, save_map
from mapeditor.ruleset_data import storable

ORIGIN_KEY = "autosave_of"
"""Editor-settings key of a recovery file: the path of the map it recovers ("" if unsaved)."""
RULE_SET_FILE_KEY = "autosave_rule_set_file"
"""Editor-settings key of a recovery file: the rule-set file the map names. A recovery file
lives elsewhere, so it embeds that rule set (with its unsaved changes) and says its file here."""


def origin_of(path: Path | None) -> str:
    """How a map's file is named inside its recovery file (its resolved path)."""
    return "" if path is None else str(Path(path).resolve())


def slot(folder: Path, path: Path | None, untitled_id: str) -> Path:
    """The recovery file of the map at ``path`` (or of the unsaved map ``untitled_id``)."""
    if path is None:
        return folder / f"untitled-{untitled_id}.autosave.json"
    origin = origin_of(path)
    digest = hashlib.sha256(origin.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(path).stem)[:40] or "map"
    return folder / f"{stem}-{digest}.autosave.json"


def write(m: MapDef, target: Path, path: Path | None) -> None:
    """Write ``m`` (a snapshot) as the recovery of ``path`` to ``target``, atomically."""
    snap = m.copy()
    snap.editor = {**snap.editor, ORIGIN_KEY: origin_of(path)}
    if snap.rule_set_file is not None and (snap.rule_set_spec or snap.rule_set_raw) is not None:
        snap.editor[RULE_SET_FILE_KEY] = snap.rule_set_file
        snap.rule_set_file = None
        if snap.rule_set_raw is not None:
            snap.rule_set_raw = storable(snap.rule_set_raw)
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
    file = m.editor.get(RULE_SET_FILE_KEY)
    if isinstance(file, str) and m.rule_set_file is None:
        m.rule_set_file = file
    m.editor = {k: v for k, v in m.editor.items() if k not in (ORIGIN_KEY, RULE_SET_FILE_KEY)}
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
