"""A websocket to an online host for the Studio's own windows: aiohttp's client in a thread.

:class:`OnlineLink` speaks the browser page's protocol (``schemas/online-message.schema.json``):
it joins with the seat token of a join link, hands every message from the host to the Qt thread
as a queued :attr:`OnlineLink.received` signal, and sends what the window asks it to. When the
connection drops (the network, a restarted host) it connects again with a growing pause and joins
again; the host then sends the state, and the window catches up from it.

The host's messages are bounded (:data:`MAX_HOST_MESSAGE_BYTES`) and must be JSON objects with
a ``type``; anything else is dropped and reported on :attr:`OnlineLink.status`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Signal

MAX_HOST_MESSAGE_BYTES = 16 * 1024 * 1024
"""Largest message taken from a host (a record with a large embedded map is a few MB)."""
RETRY_S = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Pauses before each new attempt to connect (the last one repeats)."""
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_GAME = re.compile(r"^/play/([A-Za-z0-9_.-]{1,64})/?$")


class LinkError(ValueError):
    """Not a join link; the text says why."""


@dataclass(frozen=True)
class JoinLink:
    """A join link taken apart: where the websocket is and the seat's token."""

    websocket: str
    token: str
    game: str


def parse_link(text: str) -> JoinLink:
    """The join link ``http(s)://HOST:PORT/play/GAME#t=TOKEN`` that a host printed.

    >>> parse_link("http://127.0.0.1:8765/play/deutschland#t=abcdefghijklmnopqrstuvwx")
    JoinLink(websocket='ws://127.0.0.1:8765/ws/deutschland', token='abcdefghijklmnopqrstuvwx', game='deutschland')

    :raises LinkError: naming what is missing or wrong.
    """
    text = text.strip()
    if len(text) > 2000:
        raise LinkError("the link is too long to be a join link")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{text!r} is not a join link (it starts http:// or https://)")
    m = _GAME.match(parts.path)
    if m is None:
        raise LinkError(f"{text!r}: a join link's path is /play/GAME")
    fragment = dict(p.partition("=")[::2] for p in parts.fragment.split("&") if p)
    token = fragment.get("t", "")
    if not _TOKEN.match(token):
        raise LinkError(f"{text!r} has no seat token (the part after #t=)")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return JoinLink(f"{scheme}://{parts.netloc}/ws/{m.group(1)}", token, m.group(1))


class OnlineLink(QObject):
    """The websocket of one seat, run by aiohttp in a thread of its own; :meth:`start` it."""

    received = Signal(object)
    """A message from the host (a dict with a ``type``), delivered in the Qt thread."""
    status = Signal(str)
    """``"connected"``, or why the link is down and that it is connecting again."""

    def __init__(
        self, link: JoinLink, parent: QObject | None = None, *, retry_s: tuple[float, ...] = RETRY_S
    ) -> None:
        super().__init__(parent)
        self.link = link
        self.retry_s = retry_s
        self.connected = False
        self._loop = asyncio.new_event_loop()
        self._ws: Any = None
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="online-link", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` (a schema message); ``False`` when the link is down (the window
        learns the host's state again once it is back)."""
        ws = self._ws
        if ws is None or ws.closed or self._stopping:
            return False
        text = json.dumps(message, separators=(",", ":"))
        self._loop.call_soon_threadsafe(self._loop.create_task, self._send_text(ws, text))
        return True

    def close(self) -> None:
        """Close the connection and stop the thread (waits for it, briefly)."""
        if self._stopping:
            return
        self._stopping = True
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._wake)
            self._thread.join(10)

    # -- the thread ---------------------------------------------------------------------------

    def _wake(self) -> None:
        for task in asyncio.all_tasks(self._loop):
            task.cancel()

    @staticmethod
    async def _send_text(ws: Any, text: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(text)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except asyncio.CancelledError:
            pass
        finally:
            self._loop.close()

    async def _main(self) -> None:
        import aiohttp  # deferred: the online extra, loaded only when someone joins a game

        attempt = 0
        async with aiohttp.ClientSession() as http:
            while not self._stopping:
                why = "the host closed the connection"
                try:
                    async with http.ws_connect(
                        self.link.websocket, heartbeat=20.0, max_msg_size=MAX_HOST_MESSAGE_BYTES
                    ) as ws:
                        self._ws = ws
                        attempt = 0
                        await ws.send_str(json.dumps({"type": "join", "token": self.link.token}))
                        self.connected = True
                        self.status.emit("connected")
                        async for msg in ws:
                            if msg.type == aiohttp.WSMsgType.TEXT:
                                self._deliver(msg.data)
                            elif msg.type == aiohttp.WSMsgType.ERROR:
                                why = f"connection error: {ws.exception()}"
                                break
                except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                    why = f"cannot reach the host ({exc.__class__.__name__}: {exc})"
                self._ws = None
                self.connected = False
                if self._stopping:
                    break
                pause = self.retry_s[min(attempt, len(self.retry_s) - 1)]
                attempt += 1
                self.status.emit(f"{why}; connecting again in {pause:g} s")
                await asyncio.sleep(pause)

    def _deliver(self, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            self.status.emit("the host sent a message that is not JSON (ignored)")
            return
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            self.status.emit("the host sent a message without a type (ignored)")
            return
        self.received.emit(data)
