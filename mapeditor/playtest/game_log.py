"""The game log: each action and each scoring event, in words; the mouse over a scoring line
names its event (:attr:`GameLog.event_hovered`), and the board picks out its feature."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QMouseEvent
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from engine.scoring import ScoreEvent
from mapeditor.designer_icons import icon


class GameLog(QListWidget):
    """Append-only list; scoring events are indented and coloured."""

    event_hovered = Signal(object)
    """The :class:`ScoreEvent` of the line under the mouse, or ``None`` (off a scoring line)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)
        self.setMouseTracking(True)
        self._scroll_due = False
        self._hovered: ScoreEvent | None = None
        self.itemEntered.connect(lambda item: self._hover(item.data(Qt.ItemDataRole.UserRole)))
        self.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        off = event.type() == QEvent.Type.Leave or (
            isinstance(event, QMouseEvent)
            and event.type() == QEvent.Type.MouseMove
            and self.itemAt(event.position().toPoint()) is None
        )
        if off:
            self._hover(None)
        return False

    def _hover(self, event: ScoreEvent | None) -> None:
        if event is not self._hovered:
            self._hovered = event
            self.event_hovered.emit(event)

    def add_line(
        self,
        text: str,
        colour: QColor | None = None,
        drawn: tuple[str, str] | None = None,
        event: ScoreEvent | None = None,
    ) -> None:
        """Append ``text`` (in ``colour``), with the designer's icon ``drawn`` (name, colour);
        hovering a line with a scoring ``event`` picks out its feature on the board."""
        if not text:
            return
        item = QListWidgetItem(text)
        if drawn is not None:
            item.setIcon(icon(*drawn))
        if event is not None:
            item.setData(Qt.ItemDataRole.UserRole, event)
            item.setToolTip("The mouse here picks out the feature on the board")
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
        colour = QColor("#1b5e20" if event.points >= 0 else "#b00020")
        self.add_line(f"   ★ {event.text}", colour, event=event if event.squares else None)

    def lines(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]
