"""``python -m engine simulate MAP``: batch playtests with bots and a balance report.

Plays ``--games`` full games in parallel processes (all cores by default), shows a progress bar on
stderr, and writes ``report.json`` (every figure), ``report.md`` and ``report.html`` (with PNG
charts when matplotlib is installed) into ``--out``.

``--compare A B`` plays two maps with the same settings and writes ``comparison.*`` (see
:mod:`engine.analysis.compare`); ``--sweep NAME=V1,V2`` (repeatable) plays a grid of settings and writes
``sweep.*`` (see :mod:`engine.analysis.sweep`); ``--seats`` sets a mixed table; ``--scheduler`` sends the
games to a Dask cluster (:mod:`engine.analysis.cluster`).

Exit codes: 0 report written; 2 unreadable map or bad arguments; 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.analysis import humans
from engine.analysis.balance import balance_report
from engine.analysis.compare import compare_runs, write_comparison
from engine.analysis.report import has_matplotlib, write_report
from engine.analysis.simulate import Cancelled, SimConfig, simulate
from engine.analysis.sweep import parse_sweep, sweep, write_sweep
from engine.bots.mcts_bot import DEFAULT_ITERATIONS
from engine.errors import EngineError
from engine.mapio import load_map
from engine.resources import find_map


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many bot games of a map and write a balance report",
        description="Play N full games of a map with bots (in parallel) and write a balance "
        "report: JSON with every figure, Markdown and HTML pages (PNG charts with matplotlib).",
    )
    p.add_argument(
        "map", metavar="MAP", nargs="?", help="map file (.json) or the name of a shipped map"
    )
    p.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="play two maps (or two versions of one) with the same settings and seed and write "
        "one comparison report with significance tests and a verdict",
    )
    p.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="sweep a parameter (repeat for a grid): players, tile_count, tile_pool, "
        "start_squares, bot, seats (mcts/greedy/greedy), rule.NAME (a rule-set option)",
    )
    p.add_argument(
        "--seats",
        metavar="BOT,BOT,...",
        help="a mixed table, one bot per seat (e.g. mcts,greedy,greedy,greedy), rotated each game",
    )
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument(
        "--players",
        default="2",
        metavar="P[,P...]",
        help="players per game, 2-6; several counts (e.g. 2,3,4) take turns (default 2)",
    )
    p.add_argument("--bot", choices=["greedy", "mcts", "random"], default="greedy")
    p.add_argument(
        "--mcts-iterations",
        type=int,
        default=DEFAULT_ITERATIONS,
        help=f"iterations per move of the mcts bot (default {DEFAULT_ITERATIONS}, about 0.3 s a move)",
    )
    p.add_argument(
        "--rules",
        choices=["on", "off"],
        default="on",
        help="play the map's Map-Chips rule set (default on)",
    )
    p.add_argument("--workers", type=int, help="worker processes (default: every core)")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on a Dask cluster: its scheduler's address (tcp://HOST:8786), or 'local' for "
        "a local cluster of --workers processes (needs the cluster extra; docs/cluster.md)",
    )
    p.add_argument("--seed", type=int, default=0, help="run seed (same seed, same report)")
    p.add_argument(
        "--humans",
        metavar="DIR",
        help="game records of people (an online host's state folder): their figures beside the "
        "bots' in humans.md, and where they differ",
    )
    p.add_argument("--out", default="balance-report", help="output folder (default balance-report)")
    p.add_argument("--no-charts", action="store_true", help="do not draw PNG charts")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


class ProgressBar:
    """The run's progress as a tqdm bar on ``stream`` (stderr): games done, rate and ETA.

    Called as ``progress(done, total)`` by :func:`engine.analysis.simulate.simulate`."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        # deferred: only a run with a progress bar needs it
        from tqdm import tqdm

        self.bar = tqdm(
            total=total,
            unit="game",
            file=stream if stream is not None else sys.stderr,
            mininterval=0.2,
            dynamic_ncols=True,
        )

    def __call__(self, done: int, total: int) -> None:
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        self.bar.close()


def _parse_players(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(t) for t in text.split(",") if t.strip())
    except ValueError:
        raise EngineError(f"--players: {text!r} is not a number or a list like 2,3,4") from None
    if not counts:
        raise EngineError("--players: give at least one player count")
    return counts


def _load(name: str) -> Any:
    return load_map(find_map(name))


def run(args: argparse.Namespace) -> int:
    try:
        if args.compare and (args.map or args.sweep):
            raise EngineError("--compare A B takes no MAP and no --sweep")
        if not args.compare and not args.map:
            raise EngineError("give a MAP (or --compare A B)")
        seats = tuple(t.strip() for t in args.seats.split(",") if t.strip()) if args.seats else ()
        config = SimConfig(
            games=args.games,
            players=_parse_players(args.players),
            bot=args.bot,
            rules=args.rules == "on",
            seed=args.seed,
            mcts_iterations=args.mcts_iterations,
            seats=seats,
        )
        if args.workers is not None and args.workers < 1:
            raise EngineError(f"--workers: {args.workers} is not a positive number")
        if args.compare:
            return _compare(args, config)
        m = _load(args.map)
        if args.sweep:
            return _sweep(args, m, config)
    except (EngineError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bar = None if args.quiet else ProgressBar(config.games)
    try:
        result = simulate(m, config, workers=args.workers, progress=bar, scheduler=args.scheduler)
    except Cancelled:  # pragma: no cover - no cancel callable from the command line
        return 130
    except EngineError as exc:
        print(f"\nerror: {args.map}: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    if result.rules_missing:
        print(
            f"warning: the engine has no {result.rules_missing!r} rule module; "
            "played with plain Maps rules",
            file=sys.stderr,
        )
    report = balance_report(m, result)
    try:
        files = write_report(report, args.out, charts=not args.no_charts)
    except OSError as exc:
        print(f"error: cannot write the report to {args.out}: {exc}", file=sys.stderr)
        return 2
    per_worker = len(result.games) / result.seconds / result.workers if result.seconds else 0.0
    print(
        f"{len(result.games)} games in {result.seconds:.1f} s on {result.workers} worker(s) "
        f"({per_worker:.2f} games/s per worker)"
    )
    for w in report["warnings"]:
        print(f"warning: {w['message']}")
    print(f"report: {files['markdown']}  {files['html']}  {files['json']}")
    if args.humans:
        try:
            _humans(args, m, result)
        except (EngineError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if not args.no_charts and not has_matplotlib():
        print("charts need matplotlib: pip install 'carcassonne-maps-studio[report]'")
    return 0


def _humans(args: argparse.Namespace, m: Any, result: Any) -> None:
    games, notes = humans.human_games(m, args.humans)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    comparison = humans.compare(m, result, games)
    md, _js = humans.write(comparison, args.out)
    print(f"people beside bots: {len(games)} human games; {md}")
    for d in comparison["differences"]:
        print(f"  differs: {d}")


def _play(args: argparse.Namespace, m: Any, config: Any, label: str = "") -> Any:
    """Simulate with the run's workers or cluster and a progress bar (``label`` before it)."""
    if label and not args.quiet:
        print(label, file=sys.stderr)
    bar = None if args.quiet else ProgressBar(config.games)
    try:
        result = simulate(m, config, workers=args.workers, progress=bar, scheduler=args.scheduler)
    finally:
        if bar is not None:
            bar.close()
    if result.rules_missing:
        print(
            f"warning: {m.id}: the engine has no {result.rules_missing!r} rule module; "
            "played with plain Maps rules",
            file=sys.stderr,
        )
    return result


def _compare(args: argparse.Namespace, config: Any) -> int:
    name_a, name_b = args.compare
    maps = []
    for name in (name_a, name_b):
        try:
            maps.append(_load(name))
        except (EngineError, OSError) as exc:
            raise EngineError(f"{name}: {exc}") from None
    results = [
        _play(args, m, config, f"{side}: {name}")
        for side, name, m in zip("AB", (name_a, name_b), maps, strict=True)
    ]
    labels = (_label(name_a), _label(name_b))
    cmp = compare_runs(maps[0], results[0], maps[1], results[1], labels=labels)
    files = write_comparison(
        cmp, results[0].games, results[1].games, args.out, charts=not args.no_charts
    )
    print(f"verdict: {cmp['headline']}")
    print(f"comparison: {files['markdown']}  {files['html']}  {files['json']}")
    return 0


def _label(name: str) -> str:
    return Path(name).stem if name.endswith(".json") else name


def _sweep(args: argparse.Namespace, m: Any, config: Any) -> int:
    axes = parse_sweep(args.sweep)

    def on_point(k: int, total: int, point: dict[str, Any]) -> None:
        if not args.quiet:
            text = ", ".join(f"{n}={v}" for n, v in point.items())
            print(f"point {k + 1}/{total}: {text}", file=sys.stderr)

    def play(c: Any) -> Any:
        return _play(args, m, c)

    report = sweep(m, config, axes, run=play, on_point=on_point)
    files = write_sweep(report, args.out, charts=not args.no_charts)
    print(f"sweep: {files['markdown']}  {files['html']}  {files['json']}")
    return 0
