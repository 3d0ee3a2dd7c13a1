"""Answer modal message boxes with a real mouse click on the chosen button."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox


def answer_next_message_box(button: QMessageBox.StandardButton, seen: list[str]) -> None:
    """When the next message box opens, click ``button`` on it; its text goes into ``seen``."""

    def poll() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, poll)
            return
        seen.append(box.text())
        QTest.mouseClick(box.button(button), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, poll)
