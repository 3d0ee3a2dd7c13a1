"""The game log: each action and each scoring event, in words."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from engine.scoring import ScoreEvent
from mapeditor.designer_icons import icon


class GameLog(QListWidget):
    """Append-only list; scoring events are indented and coloured."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)
        self._scroll_due = False

    def add_line(
        self, text: str, colour: QColor | None = None, drawn: tuple[str, str] | None = None
    ) -> None:
        """Append ``text`` (in ``colour``), with the designer's icon ``drawn`` (name, colour)."""
        if not text:
            return
        item = QListWidgetItem(text)
        if drawn is not None:
            item.setIcon(icon(*drawn))
        if colour is not None:
            item.setForeground(QBrush(colour))
        self.addItem(item)
        if not self._scroll_due:
            # one scroll per event-loop pass: a replayed game adds hundreds of lines at once
            self._scroll_due = True
            QTimer.singleShot(0, self._scroll)

    def _scroll(self) -> None:
        self._scroll_due = False
        self.scrollToBottom()

    def add_event(self, event: ScoreEvent) -> None:
        self.add_line(f"   ★ {event.text}", QColor("#1b5e20" if event.points >= 0 else "#b00020"))

    def lines(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]
