"""Map ▸ Host a game online…: the editor starts ``python -m mapeditor host`` for a copy of the map
and shows the join links to send.

The host runs as a child process (:class:`QProcess`), so the editor stays responsive and a
crashing host leaves the editor alone; its games are saved in the application's data folder and
resume when the same map is hosted again. Closing the dialog stops the host (the games are kept).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QProcess, QStandardPaths
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine import MapDef, save_map
from mapeditor.online import DEFAULT_PORT

DEFAULT_SEATS = "You=human,Friend=human,greedy"


def state_folder() -> Path:
    """Where games hosted from the editor are kept."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "online-games"


class HostDialog(QDialog):
    """Seats and port, then the running host's output (its join links)."""

    def __init__(self, m: MapDef, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.map = m
        self.setWindowTitle(f"Host {m.name or m.id} online")
        self.process: QProcess | None = None
        self.seats = QLineEdit(DEFAULT_SEATS)
        self.seats.setObjectName("host_seats")
        self.seats.setToolTip(
            'Seats as "[NAME=]KIND[:STRENGTH],...", KIND human|random|greedy|mcts'
        )
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(DEFAULT_PORT)
        form = QFormLayout()
        form.addRow("Players", self.seats)
        form.addRow("Port", self.port)
        self.output = QPlainTextEdit()
        self.output.setObjectName("host_output")
        self.output.setReadOnly(True)
        self.output.setPlaceholderText("The join links appear here once the host runs.")
        self.start_button = QPushButton("Start hosting")
        self.start_button.clicked.connect(self.start)
        self.copy_button = QPushButton("Copy the links")
        self.copy_button.clicked.connect(self.copy_links)
        self.copy_button.setEnabled(False)
        stop = QPushButton("Stop and close")
        stop.clicked.connect(self.close)
        buttons = QHBoxLayout()
        for b in (self.start_button, self.copy_button, stop):
            buttons.addWidget(b)
        note = QLabel(
            "Players on this computer can open the links as they are; for players elsewhere see "
            "docs/online-play.md (a LAN, or the internet behind a TLS proxy)."
        )
        note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(note)
        lay.addWidget(self.output)
        lay.addLayout(buttons)
        self.resize(720, 420)

    def command(self) -> list[str]:
        """The host's command line (the map copy is written by :meth:`start`)."""
        folder = state_folder()
        return [
            "-m", "mapeditor", "host", str(folder / f"{self.map.id or 'map'}.hosted.json"),
            "--players", self.seats.text(), "--port", str(self.port.value()),
            "--state", str(folder),
        ]  # fmt: skip

    def start(self) -> None:
        folder = state_folder()
        folder.mkdir(parents=True, exist_ok=True)
        save_map(self.map, folder / f"{self.map.id or 'map'}.hosted.json")
        proc = QProcess(self)
        proc.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)
        proc.readyReadStandardOutput.connect(self._read)
        proc.finished.connect(self._finished)
        self.process = proc
        self.start_button.setEnabled(False)
        self.output.clear()
        proc.start(sys.executable, self.command())

    def _read(self) -> None:
        if self.process is not None:
            data: Any = self.process.readAllStandardOutput().data()
            self.output.insertPlainText(bytes(data).decode("utf-8", "replace"))
            self.copy_button.setEnabled("/play/" in self.output.toPlainText())

    def _finished(self, code: int, _status: object) -> None:
        self.output.appendPlainText(f"(the host stopped, status {code})")
        self.start_button.setEnabled(True)
        self.process = None

    def links(self) -> list[str]:
        """The lines with a join or spectator link."""
        return [line.strip() for line in self.output.toPlainText().splitlines() if "/play/" in line]

    def copy_links(self) -> None:
        QGuiApplication.clipboard().setText("\n".join(self.links()))

    def stop(self) -> None:
        """Stop the host (its games are saved; hosting the map again resumes them)."""
        proc = self.process
        if proc is not None:
            proc.terminate()
            if not proc.waitForFinished(5000):
                proc.kill()
                proc.waitForFinished(2000)

    def closeEvent(self, event: Any) -> None:
        self.stop()
        super().closeEvent(event)


def add_host_action(window: Any, menu: Any) -> Any:
    """Add "Host a game online…" to ``menu`` (the editor's Map menu), on a copy of the map."""

    def show() -> None:
        dialog = HostDialog(window.document.snapshot(), window)
        window._host_dialog = dialog
        dialog.show()

    action = menu.addAction("&Host a game online…")
    action.setStatusTip("Start a game server for this map; friends join from a web browser")
    action.triggered.connect(show)
    return action
