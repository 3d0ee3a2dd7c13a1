"""``python -m mapeditor host [MAP ...]``: host games of maps for players in web browsers.

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

from engine.errors import EngineError
from mapeditor.play_cli import USAGE_EXIT, UsageError, _Parser, add_game_arguments

DEFAULT_PORT = 8765


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
    ap = _Parser(
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
    from mapeditor.online.launch import build_host, run

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
