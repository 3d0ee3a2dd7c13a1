"""Head-to-head benchmark: the MCTS bot against greedy (or random), seats alternated.

Prints, per table, the games won by the MCTS bot with a 95 % Wilson interval, the ties, and the
CPU time (``time.process_time``, one core) per MCTS move. Tables: ``classic`` (no map, 72 base
tiles, 2 players) and the five 2019 presets' bundled maps with their Map-Chips rules
(``deutschland``, ``france``, ``great-britain``, ``iberica``, ``benelux``).

Run: ``python benchmarks/bench_bots.py --games 200 --table classic``
     ``python benchmarks/bench_bots.py --levels --games 20``  (the strength-level table;
     ``--levels 1-7`` or ``--levels 9,10`` for some levels)

Paired games (the default): games ``2k`` and ``2k + 1`` play deal ``k`` (seed ``k``, ``--first``
shifts it), the MCTS bot in seat 1 then seat 2, so both bots meet the same tile order in both
seats; the interval of the win rate is then taken over the deals (``engine.analysis.paired.block_rate``),
beside the Wilson interval that treats the games as independent. ``--unpaired``: game ``i`` uses
seed ``i``, the MCTS bot in seat ``i % 2`` (the benchmark before paired games). Budgets are
iteration counts, so a run reproduces exactly. ``--until HH:MM`` stops starting new games
after that wall-clock time (UTC) and reports what was played.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.deadline import deadline  # noqa: E402
from engine.analysis.balance import wilson  # noqa: E402
from engine.analysis.paired import block_rate, mean_ci  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.game import Game, GameOptions  # noqa: E402

PRESET_TABLES = ("deutschland", "france", "great-britain", "iberica", "benelux")
"""The bundled maps of the five 2019 sheets, each played with its own Map-Chips rules."""


def new_table(table: str, seed: int) -> Game:
    if table == "classic":
        return Game(None, players=2, seed=seed)
    from engine.analysis.simulate import rule_set_for
    from engine.mapio import load_map
    from engine.resources import bundled_map

    m = load_map(bundled_map(table))
    rule_set, _ = rule_set_for(m, True)
    return Game(m, players=2, seed=seed, options=GameOptions(rule_set=rule_set))


def play(table: str, seed: int, mcts_seat: int, opponent: str, mcts_opts: dict[str, Any]):
    """One game; returns (mcts result 1/0.5/0, mcts CPU seconds, mcts moves searched, scores)."""
    game = new_table(table, seed)
    bots: list[Any] = [None, None]
    bots[mcts_seat] = make_bot("mcts", seed=seed * 2 + 1, **mcts_opts)
    bots[1 - mcts_seat] = make_bot(opponent, seed=seed * 2 + 2)
    cpu = 0.0
    searched = 0
    while not game.is_over():
        bot = bots[game.decider]
        if game.decider == mcts_seat:
            t0 = time.process_time()
            action = bot.choose(game)
            cpu += time.process_time() - t0
            searched += 1 if bot.last_iterations else 0
        else:
            action = bot.choose(game)
        game.apply(action)
    s = game.scores
    mine, theirs = s[mcts_seat], s[1 - mcts_seat]
    result = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return result, cpu, searched, s


def _one(job: tuple[str, int, int, str, dict[str, Any], Any]) -> tuple[int, int, Any]:
    table, i, deal, opponent, mcts_opts, until = job
    if time.time() >= until:
        return i, deal, None
    return i, deal, play(table, deal, i % 2, opponent, mcts_opts)


def run(
    table: str,
    games: int,
    opponent: str,
    mcts_opts: dict[str, Any],
    first: int,
    until: float,
    jobs: int = 1,
    paired: bool = True,
) -> dict[str, Any]:
    wins = ties = played = 0
    cpu = 0.0
    moves = 0
    deals: dict[int, list[tuple[float, int]]] = {}
    todo = [
        (table, i, first + ((i - first) // 2 if paired else i - first), opponent, mcts_opts, until)
        for i in range(first, first + games)
    ]
    pool = None
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(jobs)
        outcomes: Any = pool.imap_unordered(_one, todo)
    else:
        outcomes = map(_one, todo)
    for i, deal, got in outcomes:
        if got is None:
            continue
        r, c, k, s = got
        deals.setdefault(deal, []).append((r, s[i % 2] - s[1 - i % 2]))
        played += 1
        wins += r == 1.0
        ties += r == 0.5
        cpu += c
        moves += k
        # running tallies: a run cut short still gives a usable (partial) figure
        print(
            f"  game {i} deal {deal} seat {i % 2} scores {s} result {r} cpu/move "
            f"{c / max(k, 1):.3f} | so far {wins}/{played} won, {ties} ties, "
            f"cpu/move {cpu / max(moves, 1):.3f}",
            flush=True,
        )
    if pool is not None:
        pool.close()
        pool.join()
    lo, hi = wilson(wins, played)
    # paired: the interval over deals (games of one deal are not independent)
    blocks = [[r for r, _m in v] for _d, v in sorted(deals.items())]
    margins = [statistics.fmean(m for _r, m in v) for _d, v in sorted(deals.items())]
    per_game = [m for _d, v in sorted(deals.items()) for _r, m in v]
    return {
        "paired": block_rate(blocks),
        "margin": mean_ci(margins),
        "margin_per_game": mean_ci(per_game),
        "table": table,
        "opponent": opponent,
        "games": played,
        "wins": wins,
        "ties": ties,
        "rate": wins / max(played, 1),
        "lo": lo,
        "hi": hi,
        "cpu_per_move": cpu / max(moves, 1),
    }


def line(r: dict[str, Any], label: str = "") -> str:
    p = r["paired"]
    m, mlo, mhi = r["margin"]
    _g, glo, ghi = r["margin_per_game"]
    return (
        f"{label}{r['table']:12} vs {r['opponent']:6} {r['wins']:4d}/{r['games']:<4d} won "
        f"= {100 * r['rate']:5.1f} % (95 % interval {100 * r['lo']:.1f}-{100 * r['hi']:.1f} % "
        f"by games, {100 * p['ci'][0]:.1f}-{100 * p['ci'][1]:.1f} % over {p['deals']} deals), "
        f"{r['ties']} ties, margin {m:+.1f} ({mlo:+.1f} to {mhi:+.1f} over deals, "
        f"{glo:+.1f} to {ghi:+.1f} by games), {r['cpu_per_move']:.3f} s CPU per MCTS move"
    )


def _level_list(text: str) -> list[int]:
    """``1-10``, ``8,9`` or ``1-3,9`` as a list of levels."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--table", choices=["classic", *PRESET_TABLES], action="append")
    ap.add_argument("--opponent", choices=["greedy", "random"], default="greedy")
    ap.add_argument("--iterations", type=int, default=None, help="MCTS budget (default: bot's)")
    ap.add_argument("--level", type=int, default=None, help="MCTS strength level 1..10")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="another MCTS option (number), e.g. --set prior_visits=5",
    )
    ap.add_argument(
        "--levels",
        nargs="?",
        const="1-10",
        default=None,
        metavar="LIST",
        help="levels vs greedy and random: all, or e.g. 1-7 or 8,9",
    )
    ap.add_argument("--first", type=int, default=0, help="seed of the first game")
    ap.add_argument("--until", default=None, help="HH:MM UTC: start no game after that")
    ap.add_argument("--jobs", type=int, default=1, help="games in parallel processes")
    ap.add_argument(
        "--unpaired", action="store_true", help="a new deal every game (no seat-swapped pairs)"
    )
    args = ap.parse_args()
    until = deadline(args.until)
    tables = args.table or ["classic", "deutschland"]
    pair = not args.unpaired
    if args.levels:
        print("level | table | vs greedy | vs random | CPU s/move")
        for level in _level_list(args.levels):
            for table in tables:
                g = run(
                    table,
                    args.games,
                    "greedy",
                    {"level": level},
                    args.first,
                    until,
                    args.jobs,
                    pair,
                )
                r = run(
                    table,
                    args.games,
                    "random",
                    {"level": level},
                    args.first,
                    until,
                    args.jobs,
                    pair,
                )
                print(
                    f"| {level} | {table} | {100 * g['rate']:.0f} % ({g['wins']}/{g['games']}) "
                    f"| {100 * r['rate']:.0f} % ({r['wins']}/{r['games']}) "
                    f"| {max(g['cpu_per_move'], r['cpu_per_move']):.3f} |",
                    flush=True,
                )
        return
    opts: dict[str, Any] = {}
    if args.iterations is not None:
        opts["iterations"] = args.iterations
    if args.level is not None:
        opts["level"] = args.level
    for item in args.set:
        name, _, value = item.partition("=")
        opts[name] = float(value) if "." in value else int(value)
    results = [
        run(t, args.games, args.opponent, opts, args.first, until, args.jobs, pair) for t in tables
    ]
    print(f"MCTS options {opts or 'default'}:")
    for r in results:
        print(line(r))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
