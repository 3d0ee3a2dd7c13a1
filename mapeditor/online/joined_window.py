"""Map ▸ Join an online game…: the playtest window plays one seat of a game on an online host.

The window is the ordinary playtest window over a :class:`~mapeditor.online.remote.RemoteSession`
(the host referees and runs the bots), with a chat line and the connection's state in its status
bar; new game, load, undo and take back are the host's business and are hidden.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from mapeditor.online.link import LinkError, parse_link
from mapeditor.online.remote import Joining, RemoteSession
from mapeditor.playtest.session import LogEntry
from mapeditor.playtest.window import PlaytestWindow


class JoinedWindow(PlaytestWindow):
    """The playtest window on ``session``, one seat of an online game."""

    def __init__(self, session: RemoteSession, parent: QWidget | None = None) -> None:
        self.remote = session
        super().__init__(session.map, session.setup, parent, session=session)
        for action in (self.new_action, self.load_action, self.undo_action, self.take_back_action):
            action.setVisible(False)
        self.bots_box.setVisible(False)  # the host's bots keep their own pace
        self.ask_to_keep_game = False  # the host saves the game after every move
        row = QHBoxLayout()
        self.chat_text = QLineEdit()
        self.chat_text.setObjectName("chat_text")
        self.chat_text.setMaxLength(300)
        self.chat_text.setPlaceholderText("Say something to the table")
        self.chat_text.returnPressed.connect(self.send_chat)
        send = QPushButton("Send")
        send.setObjectName("chat_send")
        send.clicked.connect(self.send_chat)
        row.addWidget(self.chat_text, 1)
        row.addWidget(send)
        self.side_layout.addLayout(row)
        session.connection.connect(self._connection)
        self.game_changed.connect(self._show_turn)
        session.started.connect(lambda *_: self._title())
        self._title()
        self.statusBar().showMessage("Connected to the host")

    def _title(self) -> None:
        me = self.game.players[self.remote.seat]
        self.setWindowTitle(
            f"Online game: {self.map.name or self.map.id} — you play {me} "
            f"({self.remote.link.link.websocket})"
        )

    def _show_turn(self) -> None:
        """Whose turn it is as the host sees it: a move on its way, a bot standing in, away."""
        g = self.game
        if g.is_over():
            return
        if self.remote.waiting:
            self.turn_label.setText("Your move is with the host…")
            return
        if g.to_move == self.remote.seat:
            return
        players = self.remote.state.get("players") or []
        if g.to_move < len(players):
            p = players[g.to_move]
            who = "a bot stands in" if p.get("stand_in") else p.get("kind", "")
            away = "" if p.get("here", True) else ", away"
            self.turn_label.setText(f"{g.players[g.to_move]} ({who}{away}) to play")

    def send_chat(self) -> None:
        text = self.chat_text.text()
        if self.remote.chat(text):
            self.chat_text.clear()
        elif text.strip():
            self.statusBar().showMessage("Not connected: the line was not sent")

    def _connection(self, text: str) -> None:
        if text == "connected":
            self.statusBar().showMessage("Connected to the host")
        else:
            self.statusBar().showMessage(f"Connection lost: {text}")
            self.session.logged.emit(LogEntry(f"(connection lost: {text})"))


def join_game(
    url: str, parent: QWidget | None = None, *, on_failure: Any = None
) -> tuple[Joining, list[JoinedWindow]]:
    """Join the game of the join link ``url``: the window opens when the host has answered.
    Returns the joining step and the list the window is put in (tests wait on it).

    :raises LinkError: ``url`` is not a join link.
    """
    link = parse_link(url)
    joining = Joining(link, parent)
    opened: list[JoinedWindow] = []

    def ready(session: RemoteSession) -> None:
        window = JoinedWindow(session)
        opened.append(window)
        window.show()
        joining.deleteLater()

    joining.ready.connect(ready)
    if on_failure is not None:
        joining.failed.connect(on_failure)
    joining.start()
    return joining, opened


def add_join_action(window: Any, menu: Any) -> Any:
    """Add "Join an online game…" to ``menu`` (the editor's Map menu)."""
    windows: list[JoinedWindow] = []
    window._joined_windows = windows

    def ask() -> None:
        clip = QGuiApplication.clipboard().text().strip()
        start = clip if "/play/" in clip and "#t=" in clip else ""
        url, ok = QInputDialog.getText(
            window,
            "Join an online game",
            "The join link of your seat (http://…/play/GAME#t=…):",
            QLineEdit.EchoMode.Normal,
            start,
        )
        if not ok or not url.strip():
            return
        try:
            joining, opened = join_game(url, window, on_failure=failed)
        except LinkError as exc:
            QMessageBox.warning(window, "Join an online game", str(exc))
            return
        window.statusBar().showMessage(f"Joining {joining.link.link.websocket}…")
        joining.ready.connect(lambda _s: windows.extend(opened))

    def failed(why: str) -> None:
        window.statusBar().clearMessage()
        QMessageBox.warning(window, "Join an online game", f"Could not join: {why}")

    action = menu.addAction("&Join an online game…")
    action.setStatusTip("Play your seat of a game hosted online, in a playtest window")
    action.triggered.connect(ask)
    return action
