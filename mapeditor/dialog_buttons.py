"""The OK / Cancel row every editor and playtest dialog ends with."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton


def ok_cancel(dialog: QDialog, ok_text: str = "") -> tuple[QDialogButtonBox, QPushButton]:
    """OK and Cancel buttons wired to ``dialog``'s accept and reject; OK reads ``ok_text`` when
    given ("Play", "Create map"). Returns the box (to lay out) and its OK button."""
    box = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    ok = box.button(QDialogButtonBox.StandardButton.Ok)
    if ok_text:
        ok.setText(ok_text)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box, ok
