"""Bots think off the UI thread, and by default outside the UI's Python interpreter.

:class:`BotWorker` sends "choose for this player" requests to a bot process
(:mod:`mapeditor.playtest.bot_process`, one per application, started on first use) that keeps its
own copy of each game; a reader thread turns the answers into queued Qt signals. Pure-Python bots
in a thread would hold the GIL and starve the UI thread (measured: stalls over 100 ms); in a
process they cannot. If no process can be started, the worker falls back to a thread that runs
the bot on ``game.copy()``.

Each request carries a token (unique in the application); the window ignores answers whose token
is stale (the game was undone, reloaded or restarted meanwhile), so a late answer is never played
on the wrong position.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import traceback
import weakref
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from engine.game import Game
from engine.moves import action_from_dict
from mapeditor.offload import hidden_main
from mapeditor.playtest.bot_process import make_bot

PROCESS_GONE = "the bot process stopped"
_tokens = itertools.count(1)
_game_ids = itertools.count(1)


def next_token() -> int:
    """A request token unique in this application."""
    return next(_tokens)


class _Signals(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _BotProcess:
    """The application's bot process and the thread that reads its answers."""

    _instance: _BotProcess | None = None

    def __init__(self) -> None:
        import multiprocessing

        from mapeditor.playtest.bot_process import serve

        ctx = multiprocessing.get_context("spawn")  # never fork a process that runs Qt
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=serve, args=(child, os.getpid()), daemon=True, name="playtest-bots"
        )
        with hidden_main():  # the start reads __main__ synchronously
            self.proc.start()
        child.close()
        self.lock = threading.Lock()
        self.routes: dict[int, weakref.ref[_Signals]] = {}
        self.reader = threading.Thread(target=self._read, daemon=True, name="playtest-bot-reader")
        self.reader.start()
        self.users = 0

    @classmethod
    def acquire(cls) -> _BotProcess:
        """The running bot process (started if needed), for one more window."""
        if cls._instance is None or not cls._instance.proc.is_alive():
            cls._instance = cls()
        cls._instance.users += 1
        return cls._instance

    @classmethod
    def get(cls) -> _BotProcess | None:
        """The running bot process, if any."""
        return cls._instance

    def release(self) -> None:
        """One window less; the last one stops the process (no process outlives the windows)."""
        self.users -= 1
        if self.users > 0 or _BotProcess._instance is not self:
            return
        _BotProcess._instance = None
        with contextlib.suppress(OSError, EOFError):
            self.send(("stop",))
        self.proc.join(2)
        if self.proc.is_alive():  # still busy with a long decision
            self.proc.terminate()
            self.proc.join(2)
        self.conn.close()

    def send(self, msg: tuple[Any, ...]) -> None:
        with self.lock:
            self.conn.send(msg)

    def route(self, token: int, signals: _Signals) -> None:
        self.routes[token] = weakref.ref(signals)

    def _read(self) -> None:
        while True:
            try:
                kind, token, payload = self.conn.recv()
            except (EOFError, OSError):
                # the process is gone: every open request fails, and is retried in a thread
                for token, ref in list(self.routes.items()):
                    signals = ref()
                    if signals is not None:
                        with contextlib.suppress(RuntimeError):  # the window went away
                            signals.failed.emit(token, PROCESS_GONE)
                self.routes.clear()
                return
            route = self.routes.pop(token, None)
            signals = route() if route is not None else None
            if signals is None:
                continue
            try:
                if kind == "chosen":
                    signals.done.emit(token, payload)
                else:
                    signals.failed.emit(token, str(payload))
            except RuntimeError:  # the window went away meanwhile
                continue


class _BotTask(QRunnable):
    """The thread fallback: one decision on a copy of the game."""

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
        self.signals.done.emit(self.token, action.to_dict())


class BotWorker(QObject):
    """One window's bot requests. ``chosen(token, action)`` or ``failed(token, message)`` arrive
    on the UI thread; ``action`` is an engine action of the game the request was made on."""

    chosen = Signal(int, object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None, *, use_process: bool = True) -> None:
        super().__init__(parent)
        self._signals = _Signals(self)
        self._signals.done.connect(self._done)
        self._signals.failed.connect(self._failed)
        self._pending: dict[int, Game] = {}
        self._requests: dict[int, tuple[int, str, int, int]] = {}
        self._process: _BotProcess | None = None
        self._pool: QThreadPool | None = None
        self._bots: dict[tuple[int, int, str, int, int], Any] = {}
        self._game_ids: dict[int, int] = {}
        if use_process:
            try:
                self._process = _BotProcess.acquire()
            except (OSError, RuntimeError, ImportError):
                self._process = None
        if self._process is None:
            self._pool = QThreadPool(self)
            self._pool.setMaxThreadCount(1)

    @property
    def in_process(self) -> bool:
        """Whether the bots run in their own process (else in a thread)."""
        return self._process is not None

    def _game_id(self, game: Game) -> int:
        """Tell the process about ``game`` (once); its id there."""
        assert self._process is not None
        gid = self._game_ids.get(id(game))
        if gid is None:
            header = game.record().to_dict()
            header["actions"] = []
            header.pop("result", None)
            gid = next(_game_ids)
            self._game_ids = {id(game): gid}  # only the current game is asked about
            self._process.send(("game", gid, header))
        return gid

    def request(
        self, token: int, game: Game, player: int, kind: str, strength: int, seed: int
    ) -> None:
        """Ask the bot of seat ``player`` (``kind``/``strength``, seeded) for an action now.

        The game itself is never touched: the process replays its actions, the thread fallback
        works on ``game.copy()``.
        """
        self._pending[token] = game
        self._requests[token] = (player, kind, strength, seed)
        if self._process is not None and not self._process.proc.is_alive():
            self._use_thread()
        if self._process is not None:
            actions = [a.to_dict() for a in game.history]
            self._process.route(token, self._signals)
            try:
                self._process.send(
                    ("choose", token, self._game_id(game), actions, player, kind, strength, seed)
                )
                return
            except (OSError, EOFError):
                self._use_thread()  # the process died: carry on in a thread
        key = (id(game), player, kind, strength, seed)
        if any(k[0] != id(game) for k in self._bots):
            self._bots.clear()  # a new game: new bots, so a seed replays the same game
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(kind, strength, seed)
        assert self._pool is not None
        self._pool.start(_BotTask(token, bot, game.copy(), self._signals))

    def _use_thread(self) -> None:
        if self._process is not None:
            self._process.release()
        self._process = None
        if self._pool is None:
            self._pool = QThreadPool(self)
            self._pool.setMaxThreadCount(1)

    def _done(self, token: int, data: object) -> None:
        self._requests.pop(token, None)
        game = self._pending.pop(token, None)
        if game is None:
            return
        try:
            action = action_from_dict(data, game.rules)
        except ValueError as exc:
            self.failed.emit(token, f"unreadable bot action {data!r}: {exc}")
            return
        self.chosen.emit(token, action)

    def _failed(self, token: int, message: str) -> None:
        if message == PROCESS_GONE and token in self._pending:
            self._use_thread()
            self.request(token, self._pending[token], *self._requests[token])
            return
        self._requests.pop(token, None)
        if self._pending.pop(token, None) is not None:
            self.failed.emit(token, message)

    def forget(self) -> None:
        """Drop every outstanding request (their answers will be ignored)."""
        self._pending.clear()
        self._requests.clear()

    @property
    def busy(self) -> bool:
        """Whether a bot is thinking for this window now."""
        return bool(self._pending)

    def close(self, msecs: int = 10_000) -> bool:
        """Stop waiting for answers and let go of the bot process (the window closes); in
        thread mode block until the running decision ends."""
        self._pending.clear()
        self._requests.clear()
        if self._process is not None:
            self._process.release()
            self._process = None
        if self._pool is not None:
            return self._pool.waitForDone(msecs)
        return True


class _WarmTask(QRunnable):
    def __init__(self, tiles: list[Any], stop: list[bool]) -> None:
        super().__init__()
        self.tiles = tiles
        self.stop = stop

    def run(self) -> None:
        from PySide6.QtCore import QRectF

        from mapeditor.tile_painter import feature_anchor, tile_image

        rect = QRectF(0, 0, 64, 64)
        for tile in self.tiles:
            for rotation in (0, 90, 180, 270):
                if self.stop[0]:
                    return
                tile_image(tile, rotation, 64)
                for i in range(len(tile.segments)):
                    feature_anchor(tile, rotation, i, rect)


class TileWarmer(QObject):
    """Works out the drawing of every tile of a game in the background (the tile painter caches
    it), so the first time a tile shows up does not stall the UI thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._stop = [False]

    def warm(self, game: Game) -> None:
        # in the order they will show up: the tiles on the board and in hand, then the pile
        # from its top, so the warmer stays ahead of the game
        order = [t for _sq, t, _r in game.start_tiles]
        if game.current_tile is not None:
            order.append(game.current_tile)
        for state in game.rule_state.values():
            for stack in getattr(state, "stacks", {}).values():
                order.extend(reversed(stack))
        order.extend(reversed(game.pile))
        seen: set[str] = set()
        tiles = []
        for t in order:
            if t is not None and t not in seen:
                seen.add(t)
                tiles.append(game.tileset[t])
        self._stop[0] = False
        self._pool.start(_WarmTask(tiles, self._stop))

    def stop(self, msecs: int = 5_000) -> None:
        self._stop[0] = True
        self._pool.waitForDone(msecs)
