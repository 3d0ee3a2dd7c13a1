"""Putting a host together: new tables and running the server."""

from __future__ import annotations

from engine import MapDef
from mapeditor.online.seats import SeatState, new_token
from mapeditor.online.server import Host
from mapeditor.online.table import Table, TableOptions
from mapeditor.playtest.setup import PlaytestSetup


def new_table(
    game_id: str, m: MapDef, setup: PlaytestSetup, options: TableOptions | None = None
) -> Table:
    """A new table of ``m`` with the seats and game options of ``setup``.

    :raises EngineError: a setup that does not fit the map (the engine's sentence)."""
    game = setup.make_game(m)
    seats = [SeatState(s.name, s.colour, s.kind, s.strength) for s in setup.seats]
    return Table(game_id, game, seats, new_token(), options or TableOptions())


def run(host: Host, address: str, port: int) -> None:
    """Serve until interrupted (SIGINT or SIGTERM); the bot worker is stopped afterwards."""
    from aiohttp import web

    try:
        web.run_app(host.app(), host=address, port=port, print=None, handle_signals=True)
    finally:
        if host.bot_pool is not None:
            host.bot_pool.shutdown(wait=False, cancel_futures=True)
