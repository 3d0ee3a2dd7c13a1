"""Load on one online host (not a test; prints figures): many games, four scripted players each.

A host process (this script with ``--serve``) runs GAMES tables of a map with four human seats
and listens on 127.0.0.1. This process opens one websocket per seat (GAMES x 4) and plays: a
client whose seat is to move waits THINK seconds, then sends the first action it is offered;
the time from sending to receiving the position after it is that move's latency. Every move
goes through the host's checks, its engine and its atomic save, as a browser's would. The run
stops after SECONDS or when every game has played MOVES actions; the host is stopped.

    python benchmarks/bench_online.py [--games 100] [--map deutschland] [--think 1.0]
                                      [--moves 40] [--seconds 120]

Prints the move latency (median, p95, max), the moves played, and the host's memory (resident
now and at its peak, from /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def serve(args: argparse.Namespace) -> int:
    """The host side: GAMES tables, their tokens written to ``args.links``, then serve."""
    from dataclasses import replace

    from aiohttp import web

    from engine import load_map
    from engine.resources import find_map
    from mapeditor.online.art import all_spots, ensure_gui, remember_spots
    from mapeditor.online.launch import new_table
    from mapeditor.online.server import Host, HostSettings
    from mapeditor.online.store import save_table
    from mapeditor.online.table import TableOptions
    from mapeditor.playtest.setup import DEFAULT_COLOURS, PlaytestSetup, Seat, default_setup

    ensure_gui()
    # what `host` does in a helper process at start-up: the figures are of a warmed host
    remember_spots(all_spots())
    m = load_map(find_map(args.map))
    tables = []
    for i in range(args.games):
        base = default_setup(m, seed=i)
        seats = [Seat(f"P{k}", DEFAULT_COLOURS[k], "human") for k in range(4)]
        setup = PlaytestSetup(seats, i, replace(base.options))
        tables.append(new_table(f"g{i}", m, setup, TableOptions(takeover_after=None)))
    settings = HostSettings(state_dir=Path(args.state), rate=50.0, burst=50.0)
    host = Host(settings, tables)
    for t in tables:
        save_table(t, settings.state_dir)
    links = {t.game_id: [s.token for s in t.seats] for t in tables}
    Path(args.links).write_text(json.dumps(links))
    if os.environ.get("BENCH_PROFILE"):  # where the host's time goes: BENCH_PROFILE=out.prof
        import cProfile

        with cProfile.Profile() as prof:
            try:
                web.run_app(host.app(), host="127.0.0.1", port=args.port, print=None)
            finally:
                prof.dump_stats(os.environ["BENCH_PROFILE"])
        return 0
    web.run_app(host.app(), host="127.0.0.1", port=args.port, print=None)
    return 0


async def player(
    session: object,
    url: str,
    token: str,
    think: float,
    moves: int,
    stop_at: float,
    latencies: list[float],
    errors: list[str],
) -> None:
    """One scripted seat: join, then move whenever offered a choice."""
    ws = await session.ws_connect(url)  # type: ignore[attr-defined]
    await ws.send_json({"type": "join", "token": token})
    sent_at: float | None = None
    seen = -1
    try:
        while time.monotonic() < stop_at:
            try:
                msg = await ws.receive_json(timeout=max(0.1, stop_at - time.monotonic()))
            except (TimeoutError, TypeError):
                break
            if msg["type"] == "error":
                errors.append(msg["message"])
                sent_at = None
                await ws.send_json({"type": "sync"})
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["actions"] > seen:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if msg["over"] or msg["actions"] >= moves:
                break
            choices = msg.get("moves")
            if choices and sent_at is None:
                await asyncio.sleep(think)
                seen = msg["actions"]
                if choices["placements"] and msg["phase"] == "place":
                    x, y, r, spots = choices["placements"][0]
                    action = {"type": "place", "x": x, "y": y, "rotation": r, "meeple": None}
                else:
                    action = choices["actions"][0]["action"]
                sent_at = time.monotonic()
                await ws.send_json({"type": "play", "seen": seen, "action": action})
    finally:
        await ws.close()


def rss_kb(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


async def drive(args: argparse.Namespace, links: dict[str, list[str]], pid: int) -> None:
    import aiohttp

    latencies: list[float] = []
    errors: list[str] = []
    stop_at = time.monotonic() + args.seconds
    base = f"http://127.0.0.1:{args.port}"
    started = time.monotonic()
    # no pool limit: every seat keeps its websocket open (the default allows 100 at a time)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        rss_start = rss_kb(pid)
        tasks = [
            player(
                session, f"{base}/ws/{gid}", tok, args.think, args.moves, stop_at, latencies, errors
            )
            for gid, tokens in links.items()
            for tok in tokens
        ]
        await asyncio.gather(*tasks)
    took = time.monotonic() - started
    rss, peak = rss_kb(pid)
    lat = sorted(latencies)
    if not lat:
        print("no move was played")
        return
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(f"{args.games} games x 4 clients on {args.map}, think {args.think} s, {took:.0f} s")
    print(f"moves played: {len(lat)} ({len(lat) / took:.1f}/s); refused: {len(errors)}")
    for e in sorted(set(errors))[:5]:
        print(f"  refused: {e}")
    print(
        f"move latency: median {statistics.median(lat) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
    )
    print(
        f"host memory: {rss_start[0] / 1024:.0f} MB with the games set up, "
        f"{rss / 1024:.0f} MB at the end (peak {peak / 1024:.0f} MB)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--map", default="deutschland")
    ap.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    ap.add_argument("--moves", type=int, default=40, help="actions per game")
    ap.add_argument("--seconds", type=float, default=120.0, help="stop after this long")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--state", help=argparse.SUPPRESS)
    ap.add_argument("--links", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        return serve(args)
    if not args.port:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        links_file = Path(tmp) / "links.json"
        cmd = [sys.executable, __file__, "--serve", "--state", str(Path(tmp) / "state")]
        cmd += ["--links", str(links_file), "--port", str(args.port)]
        cmd += ["--games", str(args.games), "--map", args.map]
        host = subprocess.Popen(cmd)
        try:
            deadline = time.monotonic() + 300
            while not links_file.exists():
                if host.poll() is not None or time.monotonic() > deadline:
                    print("the host did not start", file=sys.stderr)
                    return 1
                time.sleep(0.2)
            time.sleep(1.0)  # the links are written just before it listens
            links = json.loads(links_file.read_text())
            asyncio.run(drive(args, links, host.pid))
        finally:
            host.terminate()
            host.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
