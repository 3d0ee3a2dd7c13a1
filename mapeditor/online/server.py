"""The host's web server (aiohttp): the browser page, the board art and one websocket per browser.

Routes (nothing a client sends is used as a file name: game ids and tile ids are looked up in
dictionaries, static files are a fixed list read at start-up):

* ``GET /play/{game}``: the page; the join token travels in the link's fragment (``#t=...``),
  which browsers never send to a server, and reaches the host only inside the websocket.
* ``GET /static/{name}``: the page's script and style sheet, and the icons' sprite.
* ``GET /g/{game}/map.png`` and ``GET /tiles/{tile}.png``: the art (:mod:`mapeditor.online.art`).
* ``GET /ws/{game}``: the websocket. The first message is ``join`` with a seat's or the
  spectator token; then ``play``, ``chat``, ``sync`` and ``record``
  (``schemas/online-message.schema.json``). The host answers with ``welcome``, ``state`` (after
  every change, to everyone at the table), ``record`` (the actions a client that keeps its own
  copy of the game lacks) and ``error`` (one per refused message: the table is unchanged).

Each connection is throttled (a token bucket: :class:`Throttle`); a client that keeps flooding
is disconnected. Bots think in a worker process; a bot's choice is played through
:meth:`~mapeditor.online.table.Table.act` like a browser's, and dropped if the position moved on
meanwhile (the player came back, or someone else acted).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from engine.rules.data.icons import icon_sprite
from mapeditor.online import art, protocol, store, view
from mapeditor.online.table import BotTurn, Table, TableError

log = logging.getLogger("mapeditor.online")

STATIC = {
    "client.js": "application/javascript",
    "style.css": "text/css",
    "index.html": "text/html",
    "icons.svg": "image/svg+xml",
}
"""The page's files, served from ``mapeditor/online/static`` (a fixed list), and the icons'
sprite, built at start from :mod:`engine.rules.data.icons`."""
MAX_FRAME_BYTES = 64 * 1024
"""aiohttp closes a connection whose frame is larger (a message over
:data:`~mapeditor.online.protocol.MAX_MESSAGE_BYTES` but under this gets an error reply)."""
MAX_CLIENTS_PER_TABLE = 64
PAGE_HEADERS = {
    # the page loads only the host's own files and talks only to the host
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
BOT_RETRY_S = 10.0
"""Pause before a bot that failed is asked again."""


@dataclass
class Throttle:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    rate: float = 8.0
    burst: float = 24.0
    tokens: float = 24.0
    at: float = field(default_factory=time.monotonic)
    refused: int = 0
    """Messages refused in a row (a client that keeps going is disconnected)."""

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


@dataclass
class HostSettings:
    """How the host runs (set by the command line; tests make their own)."""

    state_dir: Path
    bot_pace: float = 0.4
    """Seconds before a bot acts, so people can follow."""
    tick: float = 1.0
    """How often absent players and move clocks are checked, in seconds."""
    rate: float = 8.0
    burst: float = 24.0
    kick_after: int = 200
    """Refused messages in a row after which a flooding client is disconnected."""
    warm_art: bool = False
    """Find every meeple spot in a helper process at start-up, so that no turn waits for one."""


class _Client:
    def __init__(self, ws: web.WebSocketResponse, settings: HostSettings) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.throttle = Throttle(settings.rate, settings.burst, settings.burst)
        self.warned_at = 0.0


class Host:
    """The tables a host runs, their browsers and their bots."""

    def __init__(
        self,
        settings: HostSettings,
        tables: list[Table],
        bot_pool: Executor | None = None,
    ) -> None:
        self.settings = settings
        self.tables: dict[str, Table] = {t.game_id: t for t in tables}
        self.clients: dict[str, set[_Client]] = {gid: set() for gid in self.tables}
        self.bot_pool = bot_pool
        self._bots: dict[str, asyncio.Task[None]] = {}
        self._bot_keys: dict[str, int] = {gid: i for i, gid in enumerate(self.tables, start=1)}
        self._maps: dict[str, tuple[bytes, float]] = {}
        self._tiles = {gid: art.TileArt(t.game.tileset) for gid, t in self.tables.items()}
        self._static = {
            name: (resources.files("mapeditor.online") / "static" / name).read_bytes()
            for name in STATIC
            if name != "icons.svg"
        }
        # the rule language's icons, from their one definition (the page draws them by name)
        self._static["icons.svg"] = icon_sprite().encode("utf-8")
        self._ticker: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._save_locks: dict[str, asyncio.Lock] = {}

    # -- the application ------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        app.router.add_get("/", self._front)
        app.router.add_get("/play/{game}", self._page)
        app.router.add_get("/static/{name}", self._static_file)
        app.router.add_get("/g/{game}/map.png", self._map_png)
        app.router.add_get("/g/{game}/tiles/{tile}.png", self._tile_png)
        app.router.add_get("/ws/{game}", self._websocket)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._shutdown)
        return app

    async def _start(self, _app: web.Application) -> None:
        from mapeditor.playtest.bot_process import warm_up

        if self.bot_pool is not None:
            self.bot_pool.submit(warm_up)  # the worker starts now, not at the first bot turn
        self._ticker = asyncio.create_task(self._tick())
        if self.settings.warm_art:
            self._warming = asyncio.create_task(self._warm_art())
        for table in self.tables.values():
            self.schedule_bot(table)

    async def _warm_art(self) -> None:
        from mapeditor.online.workers import helper_pool

        pool = helper_pool()
        try:
            spots = await asyncio.get_running_loop().run_in_executor(pool, art.all_spots)
            art.remember_spots(spots)
        except Exception:  # the spots are then found when needed, in the host
            log.exception("finding the meeple spots failed")
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    async def _shutdown(self, _app: web.Application) -> None:
        tasks = [t for t in [self._ticker, self._warming, *self._bots.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for clients in self.clients.values():
            for c in list(clients):
                await c.ws.close(code=1001, message=b"host stopping")

    def _table(self, request: web.Request) -> Table:
        table = self.tables.get(request.match_info["game"])
        if table is None:
            raise web.HTTPNotFound(text="no such game on this host")
        return table

    async def _front(self, _request: web.Request) -> web.Response:
        return web.Response(
            text="Carcassonne Maps host. Open the join link the host printed for your seat.\n"
        )

    async def _page(self, request: web.Request) -> web.Response:
        self._table(request)
        return web.Response(
            body=self._static["index.html"], content_type="text/html", headers=PAGE_HEADERS
        )

    async def _static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return web.Response(
            body=self._static[name], content_type=STATIC[name], headers=PAGE_HEADERS
        )

    async def _map_png(self, request: web.Request) -> web.Response:
        table = self._table(request)
        m = table.game.map
        if m is None:
            raise web.HTTPNotFound()
        if table.game_id not in self._maps:
            self._maps[table.game_id] = art.map_png(m)
        return web.Response(
            body=self._maps[table.game_id][0],
            content_type="image/png",
            headers={"Cache-Control": "max-age=3600"},
        )

    async def _tile_png(self, request: web.Request) -> web.Response:
        table = self._table(request)
        png = self._tiles[table.game_id].png(request.match_info["tile"])
        if png is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": "max-age=86400"}
        )

    # -- websockets -------------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        table = self._table(request)
        clients = self.clients[table.game_id]
        if len(clients) >= MAX_CLIENTS_PER_TABLE:
            raise web.HTTPServiceUnavailable(text="this game has too many connections")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME_BYTES, heartbeat=30.0)
        await ws.prepare(request)
        client = _Client(ws, self.settings)
        clients.add(client)
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    await self._message(table, client, msg.data)
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            clients.discard(client)
            if client.seat is not None:
                table.left(client.seat, time.time())
                await self.broadcast(table)
        return ws

    async def _send(self, client: _Client, message: dict[str, Any]) -> None:
        await self._send_text(client, json.dumps(message, separators=(",", ":")))

    async def _send_text(self, client: _Client, text: str) -> None:
        if client.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await client.ws.send_str(text)

    async def _error(self, client: _Client, text: str) -> None:
        await self._send(client, {"type": "error", "message": text})

    async def _message(self, table: Table, client: _Client, data: str | bytes) -> None:
        now = time.monotonic()
        if not client.throttle.allow(now):
            if client.throttle.refused >= self.settings.kick_after:
                await client.ws.close(code=1008, message=b"too many messages")
            elif now - client.warned_at >= 1.0:
                client.warned_at = now
                await self._error(client, "too many messages: slow down (this one was dropped)")
            return
        try:
            msg = protocol.parse(data)
        except protocol.ProtocolError as exc:
            await self._error(client, str(exc))
            return
        kind = msg["type"]
        if kind == "join":
            await self._join(table, client, msg["token"])
            return
        if client.seat is None:
            await self._error(client, "join first (with the token of your link)")
            return
        if kind == "sync":
            await self.send_state(table, client)
        elif kind == "record":
            await self._send(client, view.history(table, msg["since"]))
        elif kind == "chat":
            if client.seat < 0:
                await self._error(client, "spectators only watch")
                return
            text = " ".join(msg["text"].split())
            if not text:
                await self._error(client, "text: an empty chat line")
                return
            table.say(client.seat, text)
            await self.save(table)
            await self.broadcast(table)
        elif kind == "play":
            try:
                table.act(client.seat, msg["seen"], msg["action"])
            except TableError as exc:
                await self._error(client, str(exc))
                return
            await self.save(table)
            await self.broadcast(table)
            self.schedule_bot(table)

    async def _join(self, table: Table, client: _Client, token: str) -> None:
        if client.seat is not None:
            await self._error(client, "already joined")
            return
        seat = table.seat_of(token)
        if seat is None:
            await self._error(client, "this link opens no seat of this game")
            return
        client.seat = seat
        table.joined(seat)
        g = table.game
        m = g.map
        await self._send(
            client,
            {
                "type": "welcome",
                "game": table.game_id,
                "seat": seat,
                "map": None
                if m is None
                else {"name": m.name, "width": m.width, "height": m.height, "image": "map.png"},
                "tiles": f"/g/{table.game_id}/tiles/",
            },
        )
        await self.broadcast(table)
        # a returning player takes the seat back: a stand-in bot's late answer is dropped
        self.schedule_bot(table)

    async def send_state(self, table: Table, client: _Client) -> None:
        """Send the state to one browser."""
        await self._send_states(table, [client])

    async def broadcast(self, table: Table) -> None:
        """Send the state to every browser at ``table``."""
        await self._send_states(
            table, [c for c in self.clients[table.game_id] if c.seat is not None]
        )

    async def _send_states(self, table: Table, clients: list[_Client]) -> None:
        """The state (:func:`view.board`, encoded once), addressed to each client: its seat,
        and the choices (:func:`view.choices`) for the player to move, unless a bot plays."""
        if not clients:
            return
        head = json.dumps(view.board(table), separators=(",", ":"))[:-1]
        g = table.game
        mover_moves: str | None = None
        for c in clients:
            moves = "null"
            if c.seat == g.decider and not g.is_over():
                if mover_moves is None:
                    mine = table.bot_turn(time.time()) is None
                    mover_moves = json.dumps(view.choices(table)) if mine else "null"
                moves = mover_moves
            await self._send_text(c, f'{head},"you":{c.seat},"moves":{moves}}}')

    async def save(self, table: Table) -> None:
        """Save ``table`` as it is now, before anyone is told of the change. The files are
        written in a thread (an fsync takes milliseconds: the other games go on meanwhile),
        one save of a table after the other."""
        snap = store.snapshot(table, self.settings.state_dir)
        lock = self._save_locks.setdefault(table.game_id, asyncio.Lock())
        async with lock:
            await asyncio.to_thread(store.write_snapshot, snap)

    # -- bots -------------------------------------------------------------------------------------

    def schedule_bot(self, table: Table) -> None:
        """Start the bot of the seat to move, if a bot should act and none is thinking."""
        task = self._bots.get(table.game_id)
        if task is not None and not task.done():
            return
        turn = table.bot_turn(time.time())
        if turn is not None:
            self._bots[table.game_id] = asyncio.create_task(self._run_bot(table, turn))

    async def _run_bot(self, table: Table, turn: BotTurn) -> None:
        from mapeditor.playtest.bot_process import choose_in_pool

        await asyncio.sleep(self.settings.bot_pace)
        if table.bot_turn(time.time()) != turn:
            self._bots.pop(table.game_id, None)
            self.schedule_bot(table)
            return
        if turn.stand_in:
            await self.broadcast(table)  # show who plays now
        record = table.record().to_dict()
        actions = record.pop("actions")
        record["actions"] = []
        seed = table.game.seed * 31 + turn.player
        args = (self._bot_keys[table.game_id], record, actions, turn.player, turn.kind)
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(
                self.bot_pool, choose_in_pool, *args, turn.strength, seed
            )
        except Exception:  # a bot failure must not stop the host; the table says so
            log.exception("bot failed at %s", table.game_id)
            table.log.append(f"Bot error for {table.game.players[turn.player]}; trying again soon")
            await self.broadcast(table)
            await asyncio.sleep(BOT_RETRY_S)  # still registered: the ticker does not restart it
            self._bots.pop(table.game_id, None)
            return
        self._bots.pop(table.game_id, None)
        if table.bot_turn(time.time()) == turn:
            try:
                table.act(turn.player, turn.actions, action, by_bot=True)
            except TableError as exc:
                log.error("bot move refused at %s: %s", table.game_id, exc)
                return
            await self.save(table)
            await self.broadcast(table)
        self.schedule_bot(table)

    async def _tick(self) -> None:
        """Hand absent players' and timed-out turns to bots (the pages count clocks down)."""
        while True:
            await asyncio.sleep(self.settings.tick)
            for table in self.tables.values():
                self.schedule_bot(table)
