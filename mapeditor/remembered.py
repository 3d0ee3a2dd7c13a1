"""Dialog fields remembered between runs (QSettings, in the editor's settings file: see
:mod:`mapeditor.folders`)."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from mapeditor.folders import editor_settings

__all__ = ["RememberedFields", "remember_fields"]

Field = QAbstractButton | QComboBox | QSpinBox | QDoubleSpinBox | QLineEdit


class RememberedFields:
    """A dialog's fields kept under a settings group: :meth:`restore` puts the saved values back
    (a value that no longer fits, such as a removed choice, is skipped), :meth:`save` keeps the
    current ones."""

    def __init__(
        self, group: str, fields: Mapping[str, Field], settings: QSettings | None = None
    ) -> None:
        self.group = group
        self.fields = dict(fields)
        self.settings = settings or editor_settings()

    def _key(self, name: str) -> str:
        return f"{self.group}/{name}"

    def restore(self) -> None:
        for name, w in self.fields.items():
            key = self._key(name)
            if not self.settings.contains(key):
                continue
            # A settings file edited by hand may hold anything: such a value is skipped.
            text = str(self.settings.value(key, "", type=str))
            try:
                if isinstance(w, QAbstractButton):
                    w.setChecked(text.casefold() in ("true", "1"))
                elif isinstance(w, QSpinBox):
                    w.setValue(int(text))
                elif isinstance(w, QDoubleSpinBox):
                    w.setValue(float(text))
                elif isinstance(w, QComboBox):
                    if w.isEditable():
                        w.setEditText(text)
                    elif w.findText(text) >= 0:
                        w.setCurrentIndex(w.findText(text))
                else:
                    w.setText(text)
            except ValueError:
                continue

    def save(self) -> None:
        for name, w in self.fields.items():
            value: object
            if isinstance(w, QAbstractButton):
                value = w.isChecked()
            elif isinstance(w, QSpinBox | QDoubleSpinBox):
                value = w.value()
            elif isinstance(w, QComboBox):
                value = w.currentText()
            else:
                value = w.text()
            self.settings.setValue(self._key(name), value)
        self.settings.sync()


def remember_fields(
    dialog: QDialog | QWidget, group: str, fields: Mapping[str, Field]
) -> RememberedFields:
    """Restore ``fields`` now and save them whenever ``dialog`` is accepted."""
    remembered = RememberedFields(group, fields)
    remembered.restore()
    if isinstance(dialog, QDialog):
        dialog.accepted.connect(remembered.save)
    return remembered
