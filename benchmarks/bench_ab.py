"""A/B speed of this checkout against the baseline commit, side by side in one run.

``python benchmarks/bench_ab.py [--base a46416a] [--rounds 7] [--only classic,deutschland,...]``

The baseline is checked out into a temporary git worktree (removed at the end) and the two
are run alternately, round after round, each in a fresh process, so that the load of a shared
machine falls on both alike. Game batches time the CPU time of the thread that plays
(``time.thread_time``; the CPU time of the whole process is printed too, see
``benchmarks/ab_games.py``); whole-process figures are wall time. Each line prints the median of both and their ratio
(baseline / this checkout: above 1 means this checkout is faster), plus the minima.

Cases:

- ``classic``: random games on the classic table (2 players, 72 base tiles, farmers), every
  action uniform over ``legal_moves()`` (``benchmarks/ab_games.py``);
- ``deutschland``: the same on the Deutschland map, 4 players, Map-Chips on; also prints the
  share of set-up (``Game(...)``) in a game;
- ``startup``: the whole process ``python -m engine validate maps/deutschland.json`` (wall
  time, and its CPU time, which the load of other processes disturbs less);
- ``greedy``: games of the greedy bot on Deutschland as the balance report plays them
  (``engine.analysis.simulate.play_one``, 4 per round; the scores are compared like the digests);
- ``mcts``: the default Monte-Carlo bot's move (250 iterations) at turn 30 of Deutschland,
  4 players, the positions reached by greedy play (2 per round; the moves chosen are compared),
  judged by the projected scores as at a1cce19 (``evaluation="projected"``: the learned
  evaluation of the default since plays other moves; ``bench_versus.py`` measures it);
- ``mcts-default``: the same with the bot's default evaluation (the learned one), against a
  baseline that has it (c06933c or later);
- ``validate60`` / ``validate400``: ``validate_map`` of a generated all-land map with 4 start
  squares and 6 large cities (``benchmarks/bench_validate.py``'s map) of that size.

Both checkouts play the same seeded games: the game batches print a digest of the actions
played, and a differing digest is reported as an error.

``--compiled DIR`` runs this checkout's compiled build (the directory its wheel was unpacked
into, docs/performance.md) in place of its sources; ``--base-compiled DIR`` the baseline's
(a wheel built from the ``--base`` commit), to compare two compiled builds.

``--instructions`` also counts the machine instructions per game of ``classic`` and
``deutschland`` in both checkouts (valgrind's cachegrind, without cache simulation: a batch of
games less the same process with none; one OpenBLAS thread, see ``instructions``), a figure the
load of other processes does not change.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GAMES = {"classic": 120, "deutschland": 40}

VALIDATE = """
import sys, time
sys.argv = ["bench_validate", "--runs", "1"]
import benchmarks.bench_validate as bv
bv.SIZE = {size}
m = bv.big_map()
from engine.validation import validate_map
validate_map(bv.big_map()) if {size} <= 60 else None
t = time.process_time()
validate_map(m)
print(time.process_time() - t)
"""


GREEDY_GAMES = 4
GREEDY = """
import hashlib, time
from engine.mapio import load_map
from engine.resources import bundled_map
try:
    from engine.analysis.simulate import SimConfig, play_one, rule_set_for
except ImportError:  # a baseline from before engine/analysis/ (a1cce19, a46416a)
    from engine.simulate import SimConfig, play_one, rule_set_for
m = load_map(bundled_map("deutschland"))
rule_set, _ = rule_set_for(m, True)
config = SimConfig(games={games}, bot="greedy", seed=1)
play_one(m, config, 10_000, rule_set)
h = hashlib.sha256()
t = time.thread_time()
for i in range({seed}, {seed} + {games} * {play}):
    h.update(repr(play_one(m, config, i, rule_set)["scores"]).encode())
print(time.thread_time() - t, h.hexdigest()[:16])
"""

MCTS_MOVES = 2
MCTS = """
import hashlib, json, time
from engine.bots.greedy_bot import GreedyBot
from engine.bots.mcts_bot import MCTSBot
from engine.mapio import load_map
from engine.resources import bundled_map
try:
    from engine.analysis.simulate import new_game, rule_set_for
except ImportError:  # a checkout before engine.analysis
    from engine.simulate import new_game, rule_set_for
m = load_map(bundled_map("deutschland"))
rule_set, _ = rule_set_for(m, True)

def position(seed):
    game = new_game(m, 4, seed, rule_set)
    bot = GreedyBot(seed=seed)
    while game.turn < 30:
        game.apply(bot.choose(game))
    return game

def mcts(seed):
    # the judge of a1cce19 (projected scores), so both checkouts search the same way and the
    # chosen moves can be compared; a checkout before the learned evaluation has no option
    try:
        return MCTSBot(seed=seed, evaluation="projected")
    except TypeError:
        return MCTSBot(seed=seed)

mcts(0).choose(position(10_000))  # warm-up
games = [position(s) for s in range({seed}, {seed} + {games})]
bots = [mcts(s) for s in range({seed}, {seed} + {games})]
t = time.thread_time()
chosen = [bot.choose(game) for bot, game in zip(bots, games)] if {play} else []
secs = time.thread_time() - t
h = hashlib.sha256(json.dumps([a.to_dict() for a in chosen], sort_keys=True).encode())
print(secs, h.hexdigest()[:16])
"""
MCTS_DEFAULT = MCTS.replace('MCTSBot(seed=seed, evaluation="projected")', "MCTSBot(seed=seed)")
"""The ``mcts`` case with the bot's default evaluation (the learned one since issue 31): compare
it with a checkout that has the same default (``--base c06933c`` or later)."""
BOT_CASES = {
    "greedy": (GREEDY, GREEDY_GAMES),
    "mcts": (MCTS, MCTS_MOVES),
    "mcts-default": (MCTS_DEFAULT, MCTS_MOVES),
}


IMPORT_FROM: dict[Path, Path] = {}
"""A checkout -> the directory its engine is imported from instead (``--compiled``)."""


def _path(tree: Path) -> str:
    return str(IMPORT_FROM.get(tree, tree))


def _run_code(tree: Path, code: str) -> str:
    env = dict(os.environ, PYTHONPATH=_path(tree))
    # -P: the engine comes from PYTHONPATH, not from the working directory
    out = subprocess.run(
        [sys.executable, "-P", "-c", code], cwd=tree, env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(f"{tree}: benchmark code failed:\n{out.stderr}")
    return out.stdout.strip()


def _run(tree: Path, args: list[str]) -> str:
    env = dict(os.environ, PYTHONPATH=_path(tree))
    out = subprocess.run(
        [sys.executable, "-P", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise SystemExit(f"{tree}: {' '.join(args)} failed:\n{out.stderr}")
    return out.stdout.strip()


def measure(case: str, tree: Path, round_no: int) -> tuple[float, float, str]:
    """(seconds, set-up seconds, digest) of one run of ``case`` in ``tree``; for game batches
    the digest is followed by the CPU seconds of the whole process."""
    if case in GAMES:
        script = str(HERE / "ab_games.py")
        secs, setup, digest, process = _run(
            tree, [script, case, str(GAMES[case]), str(round_no)]
        ).split()
        return float(secs), float(setup), f"{digest} {process}"
    if case in BOT_CASES:
        code, n = BOT_CASES[case]
        secs, digest = _run_code(tree, code.format(games=n, seed=round_no * n, play=1)).split()
        return float(secs), 0.0, digest
    if case == "startup":
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        _run(tree, ["-m", "engine", "validate", "maps/deutschland.json"])
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, ""
    if case.startswith("validate"):
        size = int(case[len("validate") :])
        # bench_validate.py of this checkout builds the map for both (the baseline has it too)
        code = VALIDATE.format(size=size)
        env = dict(os.environ, PYTHONPATH=f"{tree}{os.pathsep}{REPO}")
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True
        )
        if out.returncode:
            raise SystemExit(f"{tree}: validate {size} failed:\n{out.stderr}")
        return float(out.stdout.split()[-1]), 0.0, ""
    raise SystemExit(f"unknown case {case!r}")


def instructions(case: str, tree: Path, games: int) -> float:
    """Machine instructions per game of ``case`` in ``tree`` (see ``--instructions``)."""

    def count(n: int) -> int:
        # one BLAS thread: numpy's OpenBLAS workers spin for a while after numpy is imported
        # (by the chip layout of the warm-up game), and valgrind runs threads one at a time,
        # so their spinning would be counted as instructions of the games (a few million per
        # game, varying from run to run); the engine itself makes no BLAS call
        env = dict(os.environ, PYTHONPATH=_path(tree), OPENBLAS_NUM_THREADS="1")
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        if case in BOT_CASES:
            # the same process less its timed part (the bot cases set up per game or move)
            cmd += [
                sys.executable,
                "-P",
                "-c",
                BOT_CASES[case][0].format(games=games, seed=0, play=n),
            ]
        else:
            cmd += [sys.executable, "-P", str(HERE / "ab_games.py"), case, str(n), "0"]
        out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
        found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if out.returncode or found is None:
            raise SystemExit(f"{tree}: valgrind failed:\n{out.stderr[-2000:]}")
        return int(found.group(1).replace(",", ""))

    return (count(1) - count(0)) / games if case in BOT_CASES else (count(games) - count(0)) / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="a46416a", help="baseline commit (default a46416a)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument(
        "--only",
        default="classic,deutschland,startup,validate60,validate400",
        help="comma-separated cases",
    )
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions per game under valgrind (classic, deutschland)",
    )
    ap.add_argument(
        "--compiled",
        type=Path,
        help="run this checkout's compiled build: the directory its wheel was unpacked into",
    )
    ap.add_argument(
        "--base-compiled",
        type=Path,
        help="run the baseline's compiled build instead of its sources: the directory its "
        "wheel (built from the --base commit) was unpacked into",
    )
    args = ap.parse_args()
    if args.compiled:
        IMPORT_FROM[REPO] = args.compiled.resolve()
    if args.instructions and shutil.which("valgrind") is None:
        ap.error("--instructions needs valgrind on the PATH")
    cases = args.only.split(",")
    tmp = Path(tempfile.mkdtemp(prefix="bench-ab-"))
    base = tmp / "base"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(base), args.base], cwd=REPO, check=True
    )
    if args.base_compiled:
        IMPORT_FROM[base] = args.base_compiled.resolve()
    failed = False
    try:
        for case in cases:
            rounds = args.rounds if case != "validate400" else max(2, args.rounds // 3)
            runs: dict[str, list[tuple[float, float, str]]] = {"base": [], "new": []}
            for r in range(rounds):
                for name, tree in (("base", base), ("new", REPO)):
                    runs[name].append(measure(case, tree, r))
            b = [s for s, _, _ in runs["base"]]
            n = [s for s, _, _ in runs["new"]]
            mb, mn = statistics.median(b), statistics.median(n)
            per_run = GAMES.get(case, BOT_CASES[case][1] if case in BOT_CASES else 0)
            unit = "moves/s" if case.startswith("mcts") else "games/s" if per_run else "s"
            if per_run:
                fb, fn = per_run / mb, per_run / mn
            else:
                fb, fn = mb, mn
            print(
                f"{case:12s} base {fb:8.3f} {unit}  new {fn:8.3f} {unit}  "
                f"ratio {mb / mn:5.2f}x (min: {min(b) / min(n):5.2f}x, {rounds} rounds)"
            )
            if case == "startup":
                cb = statistics.median(c for _, c, _ in runs["base"])
                cn = statistics.median(c for _, c, _ in runs["new"])
                print(f"{'':12s} CPU time of the process: base {cb:.3f} s, new {cn:.3f} s")
            if case in GAMES:
                pb, pn = (
                    statistics.median(float(d.split()[1]) for _, _, d in runs[k])
                    for k in ("base", "new")
                )
                print(
                    f"{'':12s} CPU time of the whole process (with numpy's idle BLAS threads): "
                    f"base {per_run / pb:.3f} games/s, new {per_run / pn:.3f} games/s, "
                    f"ratio {pb / pn:.2f}x"
                )
                setup = statistics.median(s / t for t, s, _ in runs["new"])
                setup_b = statistics.median(s / t for t, s, _ in runs["base"])
                print(f"{'':12s} set-up share of a game: base {setup_b:.1%}, new {setup:.1%}")
            if case.startswith("mcts"):
                print(
                    f"{'':12s} CPU time per move: base {mb / per_run * 1e3:.0f} ms, new {mn / per_run * 1e3:.0f} ms"
                )
            if (case in GAMES or case in BOT_CASES) and args.instructions:
                n_games = max(4, GAMES[case] // 3) if case in GAMES else BOT_CASES[case][1]
                ib, i_n = (instructions(case, t, n_games) for t in (base, REPO))
                print(
                    f"{'':12s} instructions per game: base {ib / 1e6:.1f} M, new {i_n / 1e6:.1f} M,"
                    f" ratio {ib / i_n:.2f}x ({n_games} games)"
                )
            played = [{d.split()[0] if d else d for _, _, d in runs[k]} for k in ("base", "new")]
            if per_run and played[0] != played[1]:
                print(f"{'':12s} ERROR: the two checkouts played different games")
                failed = True
            sys.stdout.flush()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=REPO, check=False)
        subprocess.run(["git", "worktree", "prune"], cwd=REPO, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
