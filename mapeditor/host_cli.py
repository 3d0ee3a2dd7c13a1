"""``python -m mapeditor host [MAP ...]``: host games of maps for players in web browsers.

The host itself is :mod:`mapeditor.online`; this module reads the command line.

Each MAP gets a table with the seats of ``--players`` and prints one join link per human seat
and a spectator link. Games saved in the state folder (``--state``) are resumed, so running the
same command again after a stop (or a crash) continues every game. Examples::

    python -m mapeditor host deutschland --players "Ann=human,Bob=human,greedy"
    python -m mapeditor host maps/france.json --host 0.0.0.0 --port 8765 --takeover off --clock 86400
    python -m mapeditor host --load my-game.json --players "Ann=human,Bob=human"

Bad input prints one line naming the problem and exits with status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import EngineError
from mapeditor.game_args import USAGE_EXIT, Parser, UsageError, add_game_arguments
from mapeditor.online import DEFAULT_PORT

if TYPE_CHECKING:
    from mapeditor.online.server import Host
    from mapeditor.online.table import Table, TableOptions


def _seconds_or_off(text: str) -> float | None:
    if text.strip().lower() in ("off", "never", "none"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds or 'off'") from None
    if not 0 <= value <= 30 * 86400:
        raise argparse.ArgumentTypeError(f"{text!r} is not in 0..2592000 seconds")
    return value


def build_parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog="python -m mapeditor host",
        description="Host games of maps for players in web browsers (docs/online-play.md).",
    )
    ap.add_argument("maps", nargs="*", help="map files or shipped maps' names (one game each)")
    add_game_arguments(ap)
    ap.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    ap.add_argument(
        "--state", default="online-games", help="folder of the saved games (default online-games)"
    )
    ap.add_argument(
        "--url",
        default=None,
        help="the address players use, for the printed links (behind a reverse proxy: "
        "https://games.example.org)",
    )
    ap.add_argument(
        "--takeover",
        type=_seconds_or_off,
        default=60.0,
        help="seconds a player may be disconnected before a bot plays for them, or 'off' "
        "(default 60)",
    )
    ap.add_argument(
        "--clock",
        type=_seconds_or_off,
        default=None,
        help="seconds a player may take for one turn before a bot plays it (default off)",
    )
    ap.add_argument("--pace", type=float, default=0.4, help="seconds before each bot action")
    ap.add_argument(
        "--load",
        default=None,
        help="continue a saved game record online (its players keep their names; --players "
        "gives their seats' kinds, every seat human otherwise)",
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_EXIT
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_EXIT


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 < args.port < 65536:
        raise UsageError(f"--port: {args.port} is not a port number")
    if args.pace < 0:
        raise UsageError(f"--pace: {args.pace} is negative")
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise UsageError(
            "hosting needs aiohttp: pip install 'carcassonne-maps-studio[online]'"
        ) from None
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from mapeditor.online.launch import run

    state_dir = Path(args.state)
    host, notes = build_host(args, state_dir)
    if not host.tables:
        raise UsageError("no game to host: name a map (none is saved in " + str(state_dir) + ")")
    for note in notes:
        print(note)
    base = args.url or f"http://{args.host}:{args.port}"
    for table in host.tables.values():
        print(f"\n{table.intro()}")
        for seat in table.seats:
            if not seat.is_bot:
                print(f"  {seat.name}: {base.rstrip('/')}/play/{table.game_id}#t={seat.token}")
        print(f"  spectators: {base.rstrip('/')}/play/{table.game_id}#t={table.spectator_token}")
    print(f"\nListening on {args.host}:{args.port} (Ctrl+C stops; the games are kept)", flush=True)
    run(host, args.host, args.port)
    return 0


def build_host(args: argparse.Namespace, state_dir: Path) -> tuple[Host, list[str]]:
    """The host of a command line: every table saved in ``state_dir`` (resumed) and a new table
    for each map named that has none there. Returns the host and notes to print."""
    from mapeditor.game_args import load_playable, setup_from
    from mapeditor.online import store
    from mapeditor.online.launch import new_table
    from mapeditor.online.server import Host, HostSettings
    from mapeditor.online.table import TableOptions
    from mapeditor.online.workers import bot_pool

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
    from engine.record import load_record
    from engine.replaying import new_game
    from mapeditor.game_args import parse_players
    from mapeditor.online import store
    from mapeditor.online.seats import SeatState, new_token
    from mapeditor.playtest.setup import DEFAULT_COLOURS

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
