"""Every edit of a map is one of these ``QUndoCommand`` s (verb-phrase names, Tiled style).

Commands keep the smallest diff that undoes them: the old and new value of each entry they touch.
Commands with the same :class:`CommandId` and merge key merge, so one drag stroke is one undo step
and repeated edits of one property field are one step; a merged command whose net change is
nothing marks itself obsolete.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any

from PySide6.QtGui import QUndoCommand

from engine.mapdef import MapDef, RuleSetRef
from mapeditor.document import ABSENT, MapDocument


class CommandId(IntEnum):
    """Merge ids: commands merge only with the same id (and the same merge key)."""

    CHANGE_ENTRIES = 1
    CHANGE_ATTRIBUTE = 2
    SET_RULE_SET = 3


class ChangeEntries(QUndoCommand):
    """Set or remove entries of one map collection (land, towns, cities, ferries, …).

    ``changes`` maps a key to its new value (:data:`ABSENT` removes it; for sets use ``True``).
    ``merge_key`` (e.g. a stroke id) makes consecutive commands with the same key one undo step.
    """

    def __init__(
        self,
        document: MapDocument,
        attr: str,
        changes: Mapping[Any, Any],
        text: str,
        *,
        merge_key: object = None,
    ) -> None:
        super().__init__(text)
        self._doc = document
        self._attr = attr
        self._new = dict(changes)
        self._old = {key: document._entry(attr, key) for key in self._new}
        self._merge_key = merge_key

    def redo(self) -> None:
        self._doc._apply_entries(self._attr, self._new)

    def undo(self) -> None:
        self._doc._apply_entries(self._attr, self._old)

    def id(self) -> int:
        return int(CommandId.CHANGE_ENTRIES) if self._merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, ChangeEntries):
            return False
        if other._merge_key != self._merge_key or other._attr != self._attr:
            return False
        for key, value in other._new.items():
            self._old.setdefault(key, other._old[key])  # keep the first old value of each key
            self._new[key] = value
        if all(_same(self._old[k], self._new[k]) for k in self._new):
            self.setObsolete(True)
        return True

    @property
    def changed_keys(self) -> list[Any]:
        return list(self._new)


class ChangeAttribute(QUndoCommand):
    """Change one scalar field (``"name"``, ``"setup.chip_count"``, …).

    Consecutive edits of the same field merge into one undo step.
    """

    def __init__(self, document: MapDocument, name: str, value: Any, text: str = "") -> None:
        super().__init__(text or f"Change {name.replace('_', ' ').replace('.', ' ')}")
        self._doc = document
        self._name = name
        self._old = document.attribute(name)
        self._new = value

    def redo(self) -> None:
        self._doc._apply_attribute(self._name, self._new)

    def undo(self) -> None:
        self._doc._apply_attribute(self._name, self._old)

    def id(self) -> int:
        return int(CommandId.CHANGE_ATTRIBUTE)

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, ChangeAttribute) or other._name != self._name:
            return False
        self._new = other._new
        if _same(self._old, self._new):
            self.setObsolete(True)
        return True


class ChangeAttributes(QUndoCommand):
    """Change several scalar fields as one undo step (``{"setup.tile_pool_max": 92, ...}``):
    the old value of each is kept, so undo restores them exactly."""

    def __init__(self, document: MapDocument, values: Mapping[str, Any], text: str) -> None:
        super().__init__(text)
        self._doc = document
        self._new = dict(values)
        self._old = {name: document.attribute(name) for name in self._new}

    def redo(self) -> None:
        for name, value in self._new.items():
            self._doc._apply_attribute(name, value)

    def undo(self) -> None:
        for name, value in self._old.items():
            self._doc._apply_attribute(name, value)


class ReplaceMap(QUndoCommand):
    """Swap in a whole new map (grid resize, moving a selection): both maps are kept."""

    def __init__(self, document: MapDocument, new: MapDef, text: str) -> None:
        super().__init__(text)
        self._doc = document
        self._old = document.map
        self._new = new

    def redo(self) -> None:
        self._doc._apply_map(self._new)

    def undo(self) -> None:
        self._doc._apply_map(self._old)


class SetRuleSet(QUndoCommand):
    """Replace the map's rule set as a whole (a module name, or a data rule set embedded or in
    its own file): the old and new :data:`~engine.mapdef.RuleSetRef` (frozen values) are kept, so
    undo restores exactly.

    Consecutive commands with the same ``merge_key`` (one field's spin box) are one undo step.
    """

    def __init__(
        self, document: MapDocument, new: RuleSetRef, text: str, *, merge_key: object = None
    ) -> None:
        super().__init__(text)
        self._doc = document
        self._old = document.map.rule_set
        self._new = new
        self._merge_key = merge_key

    def redo(self) -> None:
        self._doc._apply_rule_set(self._new)

    def undo(self) -> None:
        self._doc._apply_rule_set(self._old)

    def id(self) -> int:
        return int(CommandId.SET_RULE_SET) if self._merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, SetRuleSet) or other._merge_key != self._merge_key:
            return False
        self._new = other._new
        if self._old == self._new:
            self.setObsolete(True)
        return True


def set_rule_set(
    document: MapDocument, new: RuleSetRef, text: str, *, merge_key: object = None
) -> bool:
    """Push a :class:`SetRuleSet` unless the rule set is already ``new``; ``True`` if pushed."""
    if document.map.rule_set == new:
        return False
    document.undo_stack.push(SetRuleSet(document, new, text, merge_key=merge_key))
    return True


def change_attributes(document: MapDocument, values: Mapping[str, Any], text: str) -> bool:
    """Push one :class:`ChangeAttributes` for the fields of ``values`` not already so; ``True``
    if pushed."""
    effective = {k: v for k, v in values.items() if not _same(document.attribute(k), v)}
    if not effective:
        return False
    document.undo_stack.push(ChangeAttributes(document, effective, text))
    return True


def _same(a: Any, b: Any) -> bool:
    if a is ABSENT or b is ABSENT:
        return a is b
    return bool(a == b)


def change_entries(
    document: MapDocument,
    attr: str,
    changes: Mapping[Any, Any],
    text: str,
    *,
    merge_key: object = None,
) -> bool:
    """Push a :class:`ChangeEntries` unless it would change nothing; ``True`` if pushed."""
    effective = {k: v for k, v in changes.items() if not _same(document._entry(attr, k), v)}
    if not effective:
        return False
    document.undo_stack.push(ChangeEntries(document, attr, effective, text, merge_key=merge_key))
    return True


def change_attribute(document: MapDocument, name: str, value: Any, text: str = "") -> bool:
    """Push a :class:`ChangeAttribute` unless the value is already ``value``."""
    if _same(document.attribute(name), value):
        return False
    document.undo_stack.push(ChangeAttribute(document, name, value, text))
    return True
