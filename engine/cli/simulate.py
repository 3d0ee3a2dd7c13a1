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
from engine.analysis.candidate import write_answer
from engine.analysis.cluster import check_address, cluster_for_run, silence_dask_logging
from engine.analysis.compare import compare_runs, write_comparison
from engine.analysis.plans import (
    SKILL_DEALS,
    parse_levels,
    skill_trace,
    style_figures,
    style_warnings,
)
from engine.analysis.report import has_matplotlib, write_report
from engine.analysis.simulate import Cancelled, SimConfig, default_workers, simulate
from engine.analysis.sweep import parse_sweep, sweep, write_sweep
from engine.analysis.tune import (
    check,
    check_space,
    parse_target,
    parse_tune,
    shown_values,
    tune,
    write_tuning,
)
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
        "start_squares, bot, seats (mcts/greedy/greedy), rule.NAME (a rule-set option), "
        "ruleset/PATH (a number inside the map's data rule set), start.NAME=X,Y|X,Y (where "
        "a start square lies)",
    )
    p.add_argument(
        "--seats",
        metavar="BOT,BOT,...",
        help="a mixed table, one bot per seat (e.g. mcts,greedy,greedy,greedy), rotated each game",
    )
    p.add_argument(
        "--unpaired",
        action="store_true",
        help="mixed tables: a new deal every game (default: each deal played once per seat "
        "rotation, so every bot meets the same tiles in every seat)",
    )
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument(
        "--players",
        default="2",
        metavar="P[,P...]",
        help="players per game, 2-6; several counts (e.g. 2,3,4) take turns (default 2)",
    )
    p.add_argument(
        "--bot",
        default="greedy",
        metavar="BOT",
        help="who plays every seat: greedy (default), mcts, random, a play style greedy:STYLE "
        "or mcts:STYLE (farmer, cities, roads, chips, thrifty, balanced), a level "
        "mcts@1..mcts@10, or both: mcts:STYLE@LEVEL",
    )
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
    p.add_argument(
        "--styles",
        type=int,
        default=0,
        metavar="DEALS",
        help="add 'which plan wins on this map': every play style against the balanced greedy "
        "bot, and the seat effect of each bot, over DEALS paired 2-player deals (0: off)",
    )
    p.add_argument(
        "--skill-trace",
        metavar="LEVELS",
        help="add a skill trace: each MCTS level (e.g. 2-6) against the level below it",
    )
    p.add_argument(
        "--skill-deals",
        type=int,
        default=SKILL_DEALS,
        metavar="DEALS",
        help=f"paired deals per level of the skill trace (default {SKILL_DEALS})",
    )
    p.add_argument(
        "--tune",
        action="append",
        default=[],
        metavar="PARAM=LOW..HIGH",
        help="search a number for values meeting the --target figures (repeatable): "
        "rule.NAME (a numeric rule-set option), ruleset/PATH (a number inside a rule-set file "
        "or an embedded rule set, e.g. ruleset/mechanics/vino/reward/points/town_colour=6..12), "
        "tile_count, start_squares (how many are used), or where a start square lies: "
        "start.NAME=X,Y|X,Y|... (needs the tune extra)",
    )
    p.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="FIGURE=VALUE±TOL",
        help="a figure the tuner must bring within VALUE±TOL (repeatable): seat1, turns, "
        "winning_score, margin, lead_changes, drama, decisive_share, final_flip, share.KIND",
    )
    p.add_argument(
        "--tune-trials", type=int, default=30, help="candidates the tuner tries (default 30)"
    )
    p.add_argument(
        "--tune-games",
        default="40..360",
        metavar="MIN..MAX",
        help="games per candidate: MIN in the first rung, three times as many each rung after, "
        "up to MAX (default 40..360)",
    )
    p.add_argument(
        "--tune-check",
        type=int,
        default=0,
        metavar="GAMES",
        help="play the answer again on GAMES fresh games and say whether it holds",
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


def _map_file(name: str) -> Path | None:
    """The map file the user named (for the report's re-run command); ``None`` for a shipped
    map named by its name, which works from anywhere."""
    path = Path(name)
    return path if find_map(name) == path else None


def run(args: argparse.Namespace) -> int:
    try:
        if args.compare and (args.map or args.sweep):
            raise EngineError("--compare A B takes no MAP and no --sweep")
        if not args.compare and not args.map:
            raise EngineError("give a MAP (or --compare A B)")
        if args.scheduler is not None:
            check_address(args.scheduler)  # a malformed address: one line, before any work
            silence_dask_logging()  # what goes wrong on the cluster is said once, below
        seats = tuple(t.strip() for t in args.seats.split(",") if t.strip()) if args.seats else ()
        config = SimConfig(
            games=args.games,
            players=_parse_players(args.players),
            bot=args.bot,
            rules=args.rules == "on",
            seed=args.seed,
            mcts_iterations=args.mcts_iterations,
            seats=seats,
            paired=not args.unpaired,
        )
        if args.workers is not None and args.workers < 1:
            raise EngineError(f"--workers: {args.workers} is not a positive number")
        _check_studies(args)
        m = None if args.compare else _load(args.map)
    except (EngineError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # every simulation of the run (a tuning's candidates, a sweep's points, a report's studies)
    # plays on one local cluster, closed when the run ends, also on an error or Ctrl-C
    workers = default_workers() if args.workers is None else args.workers
    try:
        with cluster_for_run(args.scheduler, workers) as args.cluster:
            return _run_games(args, m, config)
    except EngineError as exc:  # the local cluster could not start
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _run_games(args: argparse.Namespace, m: Any, config: SimConfig) -> int:
    """The run's games once its options are checked: a comparison, a sweep, a tuning or a
    report, on ``args.cluster`` (:func:`engine.analysis.cluster.cluster_for_run`)."""
    try:
        if args.compare:
            return _compare(args, config)
        if args.sweep:
            return _sweep(args, m, config)
        if args.tune:
            return _tune(args, m, config)
    except (EngineError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bar = None if args.quiet else ProgressBar(config.games)
    try:
        result = simulate(m, config, workers=args.workers, progress=bar, scheduler=args.cluster)
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
        _studies(args, m, config, report)
    except EngineError as exc:
        print(f"\nerror: {args.map}: {exc}", file=sys.stderr)
        return 2
    try:
        files = write_report(
            report, args.out, m, charts=not args.no_charts, map_file=_map_file(args.map)
        )
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


def _check_studies(args: argparse.Namespace) -> None:
    """Refuse bad study options before any game is played; ``args.skill_levels`` gets the
    levels of ``--skill-trace`` (``2-6`` or ``2,4,8``)."""
    if args.styles < 0 or args.skill_deals < 1:
        raise EngineError("--styles and --skill-deals take a number of deals (--styles 0: off)")
    if (args.styles or args.skill_trace) and (args.compare or args.sweep or args.tune):
        raise EngineError(
            "--styles and --skill-trace add to a report: not with --compare, --sweep or --tune"
        )
    if args.tune and (args.compare or args.sweep):
        raise EngineError("--tune searches one map: not with --compare or --sweep")
    if args.target and not args.tune:
        raise EngineError("--target goes with --tune PARAM=LOW..HIGH")
    if args.tune:
        args.tune_params = parse_tune(args.tune)
        args.tune_targets = parse_target(args.target)
        low, dots, high = args.tune_games.partition("..")
        if not dots or not low.strip().isdigit() or not high.strip().isdigit():
            raise EngineError(f"--tune-games: {args.tune_games!r}: write MIN..MAX, e.g. 40..360")
        args.tune_sizes = (int(low), int(high))
        if args.tune_check < 0:
            raise EngineError(f"--tune-check: {args.tune_check} is not a number of games")
    args.skill_levels = parse_levels(args.skill_trace) if args.skill_trace else []


def _studies(args: argparse.Namespace, m: Any, config: Any, report: Any) -> None:
    """The optional studies of :mod:`engine.analysis.plans`, added to ``report`` (and its warnings)."""

    def play(c: Any) -> Any:
        bots = "/".join(c.seats) if c.seats else c.bot
        return _play(args, m, c, f"study: {bots}, {c.games} games")

    if args.styles:
        report["styles"] = style_figures(play, config, args.styles)
        report["warnings"] += style_warnings(report["styles"])
    if args.skill_trace:
        report["skill_trace"] = skill_trace(play, config, args.skill_levels, args.skill_deals)


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
        result = simulate(m, config, workers=args.workers, progress=bar, scheduler=args.cluster)
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
    cmp = compare_runs(
        maps[0], results[0], maps[1], results[1], labels=labels, files=(name_a, name_b)
    )
    files = write_comparison(
        cmp,
        results[0].games,
        results[1].games,
        args.out,
        (maps[0], maps[1]),
        charts=not args.no_charts,
    )
    print(f"verdict: {cmp['headline']}")
    print(f"comparison: {files['markdown']}  {files['html']}  {files['json']}")
    return 0


def _tune(args: argparse.Namespace, m: Any, config: Any) -> int:

    def play(c: Any) -> Any:
        return _play(args, m, c)

    def on_trial(entry: dict[str, Any]) -> None:
        values = shown_values(entry["values"])
        if entry["status"] == "refused":
            print(f"candidate {entry['trial']}: {entry['refused']}", file=sys.stderr)
            return
        last = entry["rungs"][-1]
        figs = ", ".join(f"{f['figure']} {f['mean']:.3g} ({f['status']})" for f in last["figures"])
        state = "pruned" if entry.get("pruned") else entry["status"]
        print(
            f"candidate {entry['trial']}: {values}: {last['games']} games, {figs}: {state}",
            file=sys.stderr,
        )

    check_space(m, config, args.tune_params)  # before any game is spent
    lo, hi = args.tune_sizes
    result = tune(
        play,
        config,
        args.tune_params,
        args.tune_targets,
        trials=args.tune_trials,
        min_games=lo,
        max_games=hi,
        on_trial=None if args.quiet else on_trial,
        map_info={"id": m.id, "name": m.name},
    )
    if args.tune_check and result["best"] is not None:
        result["check"] = check(
            play, config, result["best"]["values"], args.tune_targets, args.tune_check
        )
    if best := result["best"]:
        found = write_answer(m, best["values"], _map_file(args.map), Path(args.out))
        result["written"] = {kind: str(path) for kind, path in found.items()}
    files = write_tuning(result, args.out)
    values = shown_values(best["values"]) if best else "-"
    verdict = "met" if result["met"] else "not met"
    held = ""
    if "check" in result:
        held = f"; on {args.tune_check} fresh games: {result['check']['status']}"
    print(f"tuning: {verdict}: {values} ({result['games_played']} games){held}")
    for kind, path in result.get("written", {}).items():
        print(f"tuning: the answer's {'rule set' if kind == 'ruleset' else kind}: {path} (new)")
    print(f"tuning: {files['markdown']}  {files['html']}  {files['json']}")
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
