"""The playtest window's model when it plays one seat of an online game; no widgets.

The host stays the referee. :class:`RemoteSession` keeps a copy of the host's game (replayed
from the host's record, then action by action as the host reports them) so that the playtest
window draws it as it draws any game. A click becomes a ``play`` message, sent only for an
action among the host's own choices for this seat; the copy moves on only when the host says the
game did. Chat lines and the other players' moves arrive in the log.

:class:`Joining` connects to a join link and, once the host has sent its record, makes the session
(the window is made by :mod:`mapeditor.online.joined_window`).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from engine.errors import EngineError, IllegalMoveError
from engine.moves import Action, action_from_dict
from engine.record import GameRecord
from engine.replaying import new_game
from engine.scoring import ScoreEvent
from mapeditor.online.link import JoinLink, OnlineLink
from mapeditor.playtest.session import LogEntry, PlaytestSession
from mapeditor.playtest.setup import PlaytestSetup, Seat

JOIN_TIMEOUT_MS = 30_000
"""How long :class:`Joining` waits for the host's record."""


def _plain(data: Any) -> Any:
    """``data`` as the JSON it travels as (tuples become lists), to compare with the host's."""
    return json.loads(json.dumps(data))


def seats_of(state: dict[str, Any]) -> list[Seat]:
    """The seats a host's state describes (names, colours, human or bot)."""
    return [Seat(str(p["name"]), str(p["colour"]), str(p["kind"])) for p in state["players"]]


class RemoteSession(PlaytestSession):
    """One seat of the online game behind ``link``, which has sent ``record`` and ``state``."""

    connection = Signal(str)
    """The link's status: ``"connected"`` or why it is down."""

    def __init__(
        self,
        link: OnlineLink,
        record: GameRecord,
        state: dict[str, Any],
        parent: QObject | None = None,
    ) -> None:
        game_map = new_game(record).map
        if game_map is None:
            raise EngineError("the host's record has no map")
        seats = seats_of(state)
        setup = PlaytestSetup(seats=seats, seed=record.seed, options=record.options)
        super().__init__(game_map, setup, parent, pace_ms=0)
        self.link = link
        self.seat: int = int(state["you"])
        self.state = state
        """The host's last state message."""
        self.chat_seen = 0
        self._record = record
        self._asked: int | None = None
        """``since`` of the record request in flight."""
        self._sent = False
        """A move went to the host and its answer has not come yet."""
        link.received.connect(self._received)
        link.status.connect(self._link_status)

    # -- the session's interface, for a seat of an online game --------------------------------

    def begin(self) -> None:
        self.rebuild(self._record)
        self._show_chat(self.state)

    def schedule_bot(self) -> None:
        """The host runs the bots."""

    def human_to_move(self) -> bool:
        """This seat is to move and the host offers it choices for the position shown."""
        s = self.state
        return (
            not self._sent
            and s.get("moves") is not None
            and s.get("actions") == len(self.game.history)
            and self.game.to_move == self.seat
            and not self.game.is_over()
        )

    @property
    def waiting(self) -> bool:
        """A move went to the host and its answer has not come yet."""
        return self._sent

    def humans(self) -> set[int]:
        return {self.seat}

    def undo_target(self) -> int | None:
        return None  # the host keeps the game: nothing is taken back

    def has_unsaved_play(self) -> bool:
        return False  # the host saves after every move

    def play(self, action: Action) -> list[ScoreEvent]:
        """Send ``action`` to the host (it must be one of the host's choices for this seat).
        The game shown moves on when the host reports the move.

        :raises IllegalMoveError: not this seat's turn, or not a move the host offers.
        """
        if not self.human_to_move():
            raise IllegalMoveError("it is not your turn on the host")
        data = _plain(action.to_dict())
        if not self.offered(data):
            raise IllegalMoveError(f"the host does not offer {data}")
        if not self.link.send({"type": "play", "seen": len(self.game.history), "action": data}):
            raise IllegalMoveError("not connected to the host: wait for the link to come back")
        self._sent = True
        self.changed.emit()
        return []

    def offered(self, data: dict[str, Any]) -> bool:
        """Whether the host's last choices for this seat include the action ``data``."""
        moves = self.state.get("moves") or {}
        if data.get("type") == "place":
            for x, y, r, spots in moves.get("placements", []):
                if (x, y, r) == (data.get("x"), data.get("y"), data.get("rotation")):
                    meeple = data.get("meeple")
                    return meeple is None or any(s[0] == meeple for s in spots)
            return False
        return any(a["action"] == data for a in moves.get("actions", []))

    def chat(self, text: str) -> bool:
        """Send a chat line to the table; ``False`` when the link is down."""
        text = " ".join(text.split())[:300]
        return bool(text) and self.link.send({"type": "chat", "text": text})

    def close(self) -> None:
        self.link.close()
        super().close()

    # -- what the host says -------------------------------------------------------------------

    def _received(self, msg: dict[str, Any]) -> None:
        try:
            kind = msg["type"]
            if kind == "state":
                self._on_state(msg)
            elif kind == "record":
                self._on_record(msg)
            elif kind == "error":
                self._sent = False
                self.logged.emit(LogEntry(f"The host refused: {msg['message']}"))
                self.changed.emit()
            elif kind == "welcome":
                self.seat = int(msg["seat"])
                self._sent = False
        except (KeyError, TypeError, ValueError, EngineError) as exc:
            self.logged.emit(LogEntry(f"The host sent a message this window cannot use: {exc}"))

    def _link_status(self, text: str) -> None:
        if text != "connected":
            self._asked = None  # the answer is lost with the connection
        self.connection.emit(text)

    def _on_state(self, msg: dict[str, Any]) -> None:
        self.state = msg
        self._show_chat(msg)
        have = len(self.game.history)
        if msg["actions"] != have:
            self._sent = False
            self._ask(have if msg["actions"] > have else 0)
        self.changed.emit()  # whose turn, presence and stand-ins may have changed

    def _ask(self, since: int) -> None:
        if self._asked != since and self.link.send({"type": "record", "since": since}):
            self._asked = since

    def _on_record(self, msg: dict[str, Any]) -> None:
        since = int(msg["since"])
        self._asked = None
        if since == 0 and "record" in msg:
            record = GameRecord.from_dict(
                {**msg["record"], "actions": msg["actions"]}, source="host"
            )
            self._record = record
            self.rebuild(record, fit=False)
        elif since == len(self.game.history):
            for data in msg["actions"]:
                # the base class plays on the copy and logs the move like a local one
                super().play(action_from_dict(data, self.game.rules))
        if self.state["actions"] != len(self.game.history):
            self._ask(len(self.game.history) if self.state["actions"] > since else 0)
        self.changed.emit()

    def _show_chat(self, state: dict[str, Any]) -> None:
        chat = state.get("chat") or []
        if len(chat) < self.chat_seen:
            self.chat_seen = 0  # the host keeps the last lines only
        for line in chat[self.chat_seen :]:
            who = str(line["from"])
            player = self.game.players.index(who) if who in self.game.players else None
            self.logged.emit(LogEntry(f"{who} says: {line['text']}", player))
        self.chat_seen = len(chat)


class Joining(QObject):
    """Connect to ``link`` and wait for the host's welcome, state and record."""

    ready = Signal(object)
    """The :class:`RemoteSession`, once the host has sent what it needs."""
    failed = Signal(str)

    def __init__(self, link: JoinLink, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.link = OnlineLink(link, self)
        self.state: dict[str, Any] | None = None
        self.errors: list[str] = []
        self._done = False
        self.link.received.connect(self._received)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._timed_out)

    def start(self) -> None:
        self._timer.start(JOIN_TIMEOUT_MS)
        self.link.start()

    def _received(self, msg: dict[str, Any]) -> None:
        if self._done:
            return
        kind = msg.get("type")
        if kind == "error":
            self._fail(f"the host refused to seat you: {msg.get('message')}")
        elif kind == "state" and self.state is None:
            self.state = msg
            if msg.get("you", -1) < 0:
                self._fail("this link opens no seat (a spectator's link only watches)")
            else:
                self.link.send({"type": "record", "since": 0})
        elif kind == "record" and self.state is not None and "record" in msg:
            try:
                record = GameRecord.from_dict(
                    {**msg["record"], "actions": msg["actions"]}, source="the host's record"
                )
                self._done = True
                self._timer.stop()
                self.link.received.disconnect(self._received)
                session = RemoteSession(self.link, record, self.state)
            except (EngineError, KeyError, TypeError, ValueError) as exc:
                self._fail(str(exc))
                return
            self.link.setParent(session)
            self.ready.emit(session)

    def _timed_out(self) -> None:
        self._fail(f"no answer from {self.link.link.websocket} in {JOIN_TIMEOUT_MS // 1000} s")

    def _fail(self, why: str) -> None:
        self._done = True
        self._timer.stop()
        self.link.close()
        self.failed.emit(why)
