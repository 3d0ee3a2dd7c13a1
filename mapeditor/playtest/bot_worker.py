"""Bots think off the UI thread: :class:`BotWorker` runs ``bot.choose`` on a copy of the game in a
thread pool and hands the chosen action back through a queued signal.

Each request carries a token; the window ignores answers whose token is stale (the game was
undone, reloaded or restarted while the bot was thinking), so a late answer can never be played
on the wrong position.
"""

from __future__ import annotations

import traceback
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from engine.game import Game


class _Signals(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _BotTask(QRunnable):
    def __init__(self, token: int, bot: Any, game: Game, signals: _Signals) -> None:
        super().__init__()
        self.token = token
        self.bot = bot
        self.game = game
        self.signals = signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            action = self.bot.choose(self.game)
        except Exception as exc:  # noqa: BLE001 - report any bot failure to the window
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            self.signals.failed.emit(self.token, detail)
            return
        self.signals.done.emit(self.token, action)


class BotWorker(QObject):
    """Runs one bot decision at a time in a background thread.

    ``chosen(token, action)`` or ``failed(token, message)`` arrive on the UI thread.
    """

    chosen = Signal(int, object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.done.connect(self._done)
        self._signals.failed.connect(self._failed)
        self._busy = 0

    def request(self, token: int, bot: Any, game: Game) -> None:
        """Ask ``bot`` for an action on a copy of ``game`` (the original is never touched)."""
        self._busy += 1
        self._pool.start(_BotTask(token, bot, game.copy(), self._signals))

    def _done(self, token: int, action: object) -> None:
        self._busy -= 1
        self.chosen.emit(token, action)

    def _failed(self, token: int, message: str) -> None:
        self._busy -= 1
        self.failed.emit(token, message)

    @property
    def busy(self) -> bool:
        """Whether a bot is thinking now."""
        return self._busy > 0

    def wait(self, msecs: int = -1) -> bool:
        """Block until the running decision is over (closing the window)."""
        return self._pool.waitForDone(msecs)
