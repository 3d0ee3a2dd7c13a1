"""The start page shown when the editor opens without a map: new, open, recent, shipped maps."""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.resources import shipped_maps
from mapeditor.recovery import Entry


def _map_name(path: Path) -> str:
    """The name a shipped map gives itself (its file name when it cannot be read)."""
    try:
        name = json.loads(path.read_text(encoding="utf-8")).get("name")
    except (OSError, ValueError, AttributeError):
        name = None
    return name if isinstance(name, str) and name else path.stem.replace("-", " ").title()


class StartPage(QWidget):
    """Buttons for New, New map from country and Open; lists of recent files and shipped maps.

    Shipped maps open as untitled copies (the window decides that, see ``MainWindow.open_path``).
    """

    new_requested = Signal()
    country_requested = Signal()
    open_requested = Signal()
    path_chosen = Signal(object)
    """A recent file or a shipped map was chosen (a :class:`~pathlib.Path`)."""
    recovery_chosen = Signal(object)
    """The autosave of a window that is gone was chosen (a :class:`mapeditor.recovery.Entry`)."""
    recovery_discarded = Signal(object)
    """The user deletes that autosave (an :class:`~mapeditor.recovery.Entry`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("start_page")
        title = QLabel("<h1>Carcassonne Maps Studio</h1><p>Design and playtest maps.</p>")
        buttons = QVBoxLayout()
        self.new_button = QPushButton("New map…")
        self.country_button = QPushButton("New map from country…")
        self.open_button = QPushButton("Open…")
        for button, signal in (
            (self.new_button, self.new_requested),
            (self.country_button, self.country_requested),
            (self.open_button, self.open_requested),
        ):
            button.setMinimumHeight(36)
            button.clicked.connect(signal.emit)
            buttons.addWidget(button)
        buttons.addStretch(1)
        for button in (self.new_button, self.country_button, self.open_button):
            button.setMinimumWidth(220)
        self.recent = QListWidget()
        self.recent.setObjectName("recent_list")
        self.shipped = QListWidget()
        self.shipped.setObjectName("shipped_list")
        for stem_path in shipped_maps():
            item = QListWidgetItem(_map_name(stem_path))
            item.setData(Qt.ItemDataRole.UserRole, stem_path)
            item.setToolTip(f"Opens a copy of {stem_path.name}; Save As keeps your version")
            self.shipped.addItem(item)
        for lst in (self.recent, self.shipped):
            lst.setMinimumWidth(280)
            lst.setMaximumWidth(420)
            lst.itemActivated.connect(self._chosen)
            lst.itemClicked.connect(self._chosen)
        lists = QHBoxLayout()
        for heading, lst in (
            ("Open recent", self.recent),
            ("Shipped maps (opened as untitled copies)", self.shipped),
        ):
            col = QVBoxLayout()
            col.addWidget(QLabel(f"<b>{heading}</b>"))
            col.addWidget(lst)
            lists.addLayout(col, 1)
        # Work left by a window that crashed (maps never saved included): shown only then.
        self.recoverable = QListWidget()
        self.recoverable.setObjectName("recovery_list")
        self.recoverable.setMinimumWidth(280)
        self.recoverable.setMaximumWidth(420)
        self.recoverable.itemActivated.connect(self._recover)
        self.discard_button = QPushButton("Discard")
        self.discard_button.setToolTip("Delete the selected autosave")
        self.discard_button.clicked.connect(self._discard)
        self.recovery_box = QWidget()
        col = QVBoxLayout(self.recovery_box)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(QLabel("<b>Recover unsaved work</b> (double-click to open)"))
        col.addWidget(self.recoverable)
        col.addWidget(self.discard_button)
        self.recovery_box.hide()
        lists.addWidget(self.recovery_box, 1)
        lists.addStretch(1)
        row = QHBoxLayout()
        row.addLayout(buttons)
        row.addLayout(lists, 1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(48, 32, 48, 32)
        outer.addWidget(title)
        outer.addLayout(row, 1)

    def set_recent(self, paths: list[str]) -> None:
        self.recent.clear()
        for p in paths:
            item = QListWidgetItem(Path(p).name)
            item.setToolTip(p)
            item.setData(Qt.ItemDataRole.UserRole, Path(p))
            self.recent.addItem(item)
        if not paths:
            empty = QListWidgetItem("(no recent files)")
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(empty)

    def set_recoverable(self, entries: list[Entry]) -> None:
        """List the autosaves left by windows that are gone (hidden when there are none)."""
        self.recoverable.clear()
        for entry in entries:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.saved))
            where = entry.origin.name if entry.origin is not None else "never saved"
            item = QListWidgetItem(f"{entry.name}\n    {where}, {when}")
            item.setToolTip(str(entry.origin) if entry.origin is not None else str(entry.file))
            item.setData(Qt.ItemDataRole.UserRole, entry)
            self.recoverable.addItem(item)
        self.recovery_box.setVisible(bool(entries))

    def _entry(self, item: QListWidgetItem | None) -> Entry | None:
        entry = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return entry if isinstance(entry, Entry) else None

    def _recover(self, item: QListWidgetItem) -> None:
        entry = self._entry(item)
        if entry is not None:
            self.recovery_chosen.emit(entry)

    def _discard(self) -> None:
        entry = self._entry(self.recoverable.currentItem())
        if entry is not None:
            self.recovery_discarded.emit(entry)

    def _chosen(self, item: QListWidgetItem) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path is not None:
            self.path_chosen.emit(Path(path))
