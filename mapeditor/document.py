"""The editable map: a :class:`MapDef`, its undo stack, file path and selection.

Every change to the map goes through a :mod:`mapeditor.commands` command pushed on
:attr:`MapDocument.undo_stack`; commands call the ``_apply_*`` mutators here, which are the only
code that writes to the map and which emit the signals views redraw from (Tiled's MapDocument).
This module uses QtCore/QtGui only, never widgets.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from engine.geometry import Edge, Square
from engine.mapdef import MapDef, RuleSetRef
from engine.mapio import read_map
from engine.validation import Issue
from mapeditor import ruleset_files

ABSENT: Any = object()
"""Marks "no entry" in an element change (the key is removed, or was not there)."""

ELEMENT_ATTRS = (
    "land",
    "start_squares",
    "towns",
    "large_cities",
    "border_features",
    "ferries",
    "islands",
    "waves",
    "chip_squares",
    "tracks",
    "land_borders",
    "marks",
)
"""MapDef attributes edited as collections (sets map a key to ``True``)."""


def squares_of(attr: str, key: Any, value: Any) -> set[Square]:
    """The squares an element entry touches, for partial repaint."""
    if value is ABSENT or value is None:
        value = None
    if attr in ("land", "start_squares", "towns", "waves", "chip_squares", "marks"):
        return {key}
    if attr in ("border_features", "land_borders"):
        return {key.square, key.outer_square}
    if value is None:
        return set()
    if attr == "large_cities":
        return set(value.squares) | {e.outer_square for e in value.outer_edges()}
    if attr == "islands":
        return set(value.squares)
    if attr == "ferries":
        return {value.a.square, value.b.square, value.a.outer_square, value.b.outer_square}
    return set()


class MapDocument(QObject):
    """An open map. Read :attr:`map` freely; change it only through commands."""

    squaresChanged = Signal(object)
    """A set of squares whose drawing changed (``None``: everything)."""
    mapReplaced = Signal()
    selectionChanged = Signal()
    fileChanged = Signal()
    """The path or the clean state changed (window title)."""
    ruleSetChanged = Signal()
    """The map's rule set changed (module, data rule set, its file)."""

    def __init__(self, m: MapDef, path: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.map = m
        self.path = path
        self.untitled_id = uuid.uuid4().hex[:12]
        """Names this document's own autosave slot while it has no file (mapeditor.recovery)."""
        self.load_issues: list[Issue] = []
        self.disk_digest: str | None = None
        """What the file held when this document was last read from or written to it (a
        SHA-256, :func:`mapeditor.files.file_digest`): a save sees another program's change."""
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.selection: set[Square] = set()
        self.selected_edge: Edge | None = None
        self.selected_city: str | None = None
        self.selected_ferry: str | None = None
        self.selected_island: str | None = None

    def _on_clean_changed(self, _clean: bool) -> None:
        self.fileChanged.emit()

    # -- files -----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, parent: QObject | None = None) -> MapDocument:
        """Load a map file; raises :class:`engine.errors.MapFormatError` naming the problem."""
        m, issues = read_map(path)
        ruleset_files.unembed(m)  # a paired save that was interrupted
        ruleset_files.recover_raw(m, Path(path))
        doc = cls(m, Path(path), parent)
        doc.load_issues = issues
        return doc

    def save(self, path: str | Path | None = None) -> None:
        """Write the map atomically (to ``path``, or where it came from) and mark it clean; a
        rule set kept in its own file is written beside it, so that a crash never leaves a map
        beside the rule set of another save (:func:`ruleset_files.save_with_rule_set`)."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name: use Save As")
        same_folder = (
            self.path is not None and self.path.parent.resolve() == target.parent.resolve()
        )
        ruleset_files.save_with_rule_set(self.map, target, replace_other=same_folder)
        self.path = target
        self.load_issues = []
        self.undo_stack.setClean()
        self.fileChanged.emit()

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else f"{self.map.name or 'Untitled'} (unsaved)"

    def snapshot(self) -> MapDef:
        """An independent copy of the map (for the playtest, validation threads, export)."""
        return self.map.copy()

    # -- selection (not undoable: it changes no data) -------------------------------------------

    def select(
        self,
        squares: Iterable[Square] = (),
        *,
        edge: Edge | None = None,
        city: str | None = None,
        ferry: str | None = None,
        island: str | None = None,
        add: bool = False,
    ) -> None:
        new = set(squares)
        self.selection = (self.selection | new) if add else new
        self.selected_edge = edge
        self.selected_city = city
        self.selected_ferry = ferry
        self.selected_island = island
        self.selectionChanged.emit()

    # -- mutators: called only by commands ------------------------------------------------------

    def _apply_entries(self, attr: str, changes: Mapping[Any, Any]) -> None:
        """Set (or with :data:`ABSENT`, remove) entries of a collection attribute."""
        target = getattr(self.map, attr)
        touched: set[Square] = set()
        for key, value in changes.items():
            old = self._entry(attr, key)
            touched |= squares_of(attr, key, old) | squares_of(attr, key, value)
            if isinstance(target, set):
                if value is ABSENT:
                    target.discard(key)
                else:
                    target.add(key)
            elif value is ABSENT:
                target.pop(key, None)
            else:
                target[key] = value
        self.map.touch()  # tables derived from the map (engine.mapcache) are made anew
        self.squaresChanged.emit(touched)

    def _entry(self, attr: str, key: Any) -> Any:
        target = getattr(self.map, attr)
        if isinstance(target, set):
            return True if key in target else ABSENT
        return target.get(key, ABSENT)

    def _apply_attribute(self, name: str, value: Any) -> None:
        """Set a scalar attribute; dotted names reach into ``setup`` (``"setup.chip_count"``)."""
        obj, attr = self._resolve(name)
        setattr(obj, attr, value)
        self.map.touch()  # tables derived from the map (engine.mapcache) are made anew
        self.squaresChanged.emit(None)
        self.fileChanged.emit()

    def attribute(self, name: str) -> Any:
        obj, attr = self._resolve(name)
        return getattr(obj, attr)

    def _resolve(self, name: str) -> tuple[Any, str]:
        obj: Any = self.map
        *path, attr = name.split(".")
        for part in path:
            obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
        return obj, attr

    def _apply_rule_set(self, ref: RuleSetRef) -> None:
        """Set the map's rule set (module name or data rule set, embedded or in a file)."""
        self.map.rule_set = ref
        self.map.touch()
        self.ruleSetChanged.emit()
        self.squaresChanged.emit(None)
        self.fileChanged.emit()

    def _apply_map(self, m: MapDef) -> None:
        """Replace the whole map (grid resize, move of a selection)."""
        self.map = m
        self.mapReplaced.emit()
        self.ruleSetChanged.emit()
        self.squaresChanged.emit(None)
