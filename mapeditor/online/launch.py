"""Putting a host together: resume the saved tables, add a new one per map, run the server."""

from __future__ import annotations

import argparse
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from engine import MapDef
from mapeditor.online import store
from mapeditor.online.seats import SeatState, new_token
from mapeditor.online.server import Host, HostSettings
from mapeditor.online.table import Table, TableOptions
from mapeditor.playtest.setup_dialog import PlaytestSetup


def new_table(
    game_id: str, m: MapDef, setup: PlaytestSetup, options: TableOptions | None = None
) -> Table:
    """A new table of ``m`` with the seats and game options of ``setup``.

    :raises EngineError: a setup that does not fit the map (the engine's sentence)."""
    game = setup.make_game(m)
    seats = [SeatState(s.name, s.colour, s.kind, s.strength) for s in setup.seats]
    return Table(game_id, game, seats, new_token(), options or TableOptions())


def build_host(args: argparse.Namespace, state_dir: Path) -> tuple[Host, list[str]]:
    """The host of a command line: every table saved in ``state_dir`` (resumed) and a new table
    for each map named that has none there. Returns the host and notes to print."""
    from mapeditor.play_cli import load_playable, setup_from

    store.ensure_private(state_dir)
    tables, notes = store.load_tables(state_dir)
    notes = [f"note: not resumed: {n}" for n in notes]
    notes += [f"resumed {t.game_id} at action {len(t.game.history)}" for t in tables]
    by_map = {t.game.map.id: t for t in tables if t.game.map is not None}
    options = TableOptions(takeover_after=args.takeover, move_clock=args.clock)
    for text in args.maps:
        m = load_playable(text)
        if m.id in by_map and not by_map[m.id].game.is_over():
            continue  # its game goes on
        gid = store.game_id_for(m, {t.game_id for t in tables})
        table = new_table(gid, m, setup_from(args, m), options)
        store.save_table(table, state_dir)
        tables.append(table)
    if args.load is not None:
        tables.append(_loaded(args, state_dir, {t.game_id for t in tables}, options))
    settings = HostSettings(state_dir=state_dir, bot_pace=args.pace, warm_art=True)
    return Host(settings, tables, bot_pool()), notes


def _loaded(
    args: argparse.Namespace, state_dir: Path, taken: set[str], options: TableOptions
) -> Table:
    """A new table continuing the saved game ``args.load``: its players keep their names; the
    seats' kinds come from ``--players`` (every seat human without it)."""
    from engine.record import load_record, new_game
    from mapeditor.play_cli import UsageError, parse_players
    from mapeditor.playtest.setup_dialog import DEFAULT_COLOURS

    record = load_record(args.load)
    names = list(record.players)
    kinds = parse_players(args.players) if args.players else None
    if kinds is not None and len(kinds) != len(names):
        raise UsageError(
            f"--players: {len(kinds)} seats for the {len(names)} players of {args.load}"
        )
    seats = [
        SeatState(
            name,
            DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)],
            kinds[i].kind if kinds else "human",
            kinds[i].strength if kinds else 3,
        )
        for i, name in enumerate(names)
    ]
    game_map = new_game(record).map
    gid = store.game_id_for(game_map, taken)
    table = store.table_from_record(gid, record, seats, new_token(), options, source=str(args.load))
    store.save_table(table, state_dir)
    return table


def bot_pool() -> ProcessPoolExecutor:
    """One worker process for the bots (``spawn``: never fork a process that runs Qt)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def run(host: Host, address: str, port: int) -> None:
    """Serve until interrupted (SIGINT or SIGTERM); the bot worker is stopped afterwards."""
    from aiohttp import web

    try:
        web.run_app(host.app(), host=address, port=port, print=None, handle_signals=True)
    finally:
        if host.bot_pool is not None:
            host.bot_pool.shutdown(wait=False, cancel_futures=True)
