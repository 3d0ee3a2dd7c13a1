"""Hosts and scripted websocket clients for the online tests (aiohttp's test server)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from engine.resources import bundled_map
from mapeditor.online import store
from mapeditor.online.launch import new_table
from mapeditor.online.server import Host, HostSettings
from mapeditor.online.table import Table, TableOptions
from mapeditor.playtest.setup import DEFAULT_COLOURS, PlaytestSetup, Seat, default_setup


def make_table(
    kinds: tuple[str, ...] = ("human", "human", "greedy"),
    *,
    map_name: str = "deutschland",
    seed: int = 3,
    tiles: int | None = None,
    options: TableOptions | None = None,
    game_id: str = "deutschland",
) -> Table:
    """A new table of a shipped map with its own rule set (Map-Chips for Deutschland)."""
    from engine import load_map

    m = load_map(bundled_map(map_name))
    base = default_setup(m, seed=seed)
    seats = [Seat(f"P{i}", DEFAULT_COLOURS[i], k) for i, k in enumerate(kinds)]
    setup = PlaytestSetup(seats=seats, seed=seed, options=replace(base.options, tile_count=tiles))
    return new_table(game_id, m, setup, options or TableOptions(takeover_after=None))


def settings(state_dir: Path, **kw: Any) -> HostSettings:
    kw.setdefault("bot_pace", 0.0)
    kw.setdefault("tick", 0.05)
    return HostSettings(state_dir=state_dir, **kw)


@asynccontextmanager
async def serving(host: Host) -> AsyncIterator[TestClient]:
    """The host on a free port of 127.0.0.1, stopped on leaving."""
    for t in host.tables.values():
        store.save_table(t, host.settings.state_dir)
    client = TestClient(TestServer(host.app(), host="127.0.0.1"))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()


class Browser:
    """A scripted websocket client: what a browser page does, without the page."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.errors: list[str] = []

    @classmethod
    async def open(cls, client: TestClient, game: str, token: str | None = None) -> Browser:
        b = cls(await client.ws_connect(f"/ws/{game}"))
        if token is not None:
            await b.send({"type": "join", "token": token})
            await b.until(lambda m: m["type"] == "state")
        return b

    @classmethod
    async def seats(cls, client: TestClient, table: Any, *seats: int) -> list[Browser]:
        """Joined browsers of ``table``'s ``seats`` (in that order)."""
        return [await cls.open(client, table.game_id, table.seats[i].token) for i in seats]

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        msg = await self.ws.receive_json(timeout=timeout)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "error":
            self.errors.append(msg["message"])
        return dict(msg)

    async def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.receive(timeout)
                if pred(msg):
                    return msg

    async def error(self) -> str:
        return str((await self.until(lambda m: m["type"] == "error"))["message"])

    async def play(self, action: dict[str, Any]) -> None:
        assert self.state is not None
        await self.send({"type": "play", "seen": self.state["actions"], "action": action})
        self.state = {**self.state, "moves": None}  # spent: wait for the next state

    async def my_turn(self) -> dict[str, Any]:
        """The state in which this seat has choices (the last one received, or the next)."""
        if self.state is not None and self.state["moves"] is not None:
            return self.state
        return await self.until(lambda m: m["type"] == "state" and m["moves"] is not None)

    async def close(self) -> None:
        await self.ws.close()


def first_choice(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action from the choices a state offers: the first placement (with its first
    meeple spot), or the first other action."""
    moves = state["moves"]
    if state["phase"] == "place" and moves["placements"]:
        x, y, r, spots = moves["placements"][0]
        return {
            "type": "place",
            "x": x,
            "y": y,
            "rotation": r,
            "meeple": spots[0][0] if spots else None,
        }
    return dict(moves["actions"][0]["action"])
