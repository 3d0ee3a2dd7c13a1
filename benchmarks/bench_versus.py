"""Two MCTS bots of two checkouts play each other, side by side: is the new bot stronger?

``python benchmarks/bench_versus.py [--base a1cce19] [--table classic] [--deals 100]
[--new-set NAME=VALUE ...] [--base-set NAME=VALUE ...] [--compiled DIR] [--jobs 2] [--until HH:MM]``

The baseline commit is checked out into a temporary git worktree (removed at the end; ``--base
.`` plays this checkout against itself, e.g. one strength level against another). Each side
plays in its own process on its own engine (``benchmarks/versus_worker.py`` with that
checkout on ``PYTHONPATH``): a bot chooses on its engine, the action goes to the other side in
record form (``Action.to_dict``) and both engines play it; after every action the two report
their state (turn, phase, seat to move, tile in hand, scores, meeples, history length), and a
difference stops the run as an error. Both engines deal the same tiles from the same seed.

Paired games: deal ``k`` (seed ``k``, from ``--first``) is played twice, the new bot in seat 1
then in seat 2. The new bot's win rate is printed with the Wilson interval over games and the
interval over deals (``engine.analysis.paired.block_rate``), ties counting half in the deal
score and not as won; the mean margin (new minus base) with its interval over deals; and each
side's CPU per searched move (``time.process_time`` in its own process, one core), with the
build it ran. ``--compiled DIR`` runs this checkout's compiled build (docs/performance.md);
the baseline runs its sources. Options: ``--new-set``/``--base-set NAME=VALUE`` (an MCTS
option, or ``level=N``), e.g. ``--new-set level=10`` against ``--base .``. ``--until HH:MM``
(UTC) starts no game after that time; SIGTERM stops at once (with one pair of workers, the
games finished so far are still summed up).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.deadline import deadline  # noqa: E402
from engine.analysis.balance import wilson  # noqa: E402
from engine.analysis.paired import block_rate, mean_ci  # noqa: E402


class OutOfStep(Exception):
    """The two engines disagree about the game."""


class Stopped(Exception):
    """SIGTERM: stop after the games played so far, print them, remove the worktree."""


def _stop(_signum: int, _frame: Any) -> None:
    raise Stopped


@dataclass
class Side:
    """One checkout's worker process."""

    name: str
    proc: subprocess.Popen[str]

    @classmethod
    def start(
        cls,
        name: str,
        tree: Path,
        import_from: Path,
        script: str = "versus_worker.py",
        python: str | None = None,
    ) -> Side:
        """``script`` (in benchmarks/) run in ``tree`` with ``import_from`` on the path, by
        this interpreter or ``python`` (another one, e.g. PyPy for a peer's pure-Python
        engine; it may predate ``-P``, so its script's folder stays on its path)."""
        env = dict(os.environ, PYTHONPATH=str(import_from), OPENBLAS_NUM_THREADS="1")
        command = [sys.executable, "-P"] if python is None else [python]
        proc = subprocess.Popen(
            [*command, str(HERE / script)],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        return cls(name, proc)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.name} worker died (its error is above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def kill(self) -> None:
        self.proc.kill()  # it may be searching: its answer is not wanted any more
        self.proc.wait()


def play(
    sides: tuple[Side, Side], table: str, deal: int, new_seat: int, opts: tuple[dict, dict]
) -> dict[str, Any]:
    """One game between ``sides`` (new, base), the new bot in ``new_seat``."""
    new, base = sides
    for k, side in enumerate(sides):
        seed = deal * 2 + (1 if k == 0 else 2)  # each bot its own seed, the same in both seats
        side.ask({"new": {"table": table, "deal": deal, "bot": opts[k], "seed": seed}})
    cpu = [0.0, 0.0]
    searched = [0, 0]
    st: list[Any] = new.ask({})["state"]
    while not st[-1]:
        mover_k = 0 if st[2] == new_seat else 1
        mover, other = sides[mover_k], sides[1 - mover_k]
        got = mover.ask({"choose": True})
        cpu[mover_k] += got["cpu"]
        searched[mover_k] += got["searched"]
        seen = other.ask({"apply": got["action"]})["state"]
        if seen != got["state"]:
            raise OutOfStep(
                f"deal {deal}: after {got['action']} the {mover.name} engine has {got['state']}, "
                f"the {other.name} engine {seen}"
            )
        st = seen
    scores = st[4]
    mine, theirs = scores[new_seat], scores[1 - new_seat]
    return {
        "deal": deal,
        "seat": new_seat,
        "scores": scores,
        "result": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "margin": mine - theirs,
        "cpu": cpu,
        "searched": searched,
    }


def _worker(job: tuple[list[tuple[int, int]], dict[str, Any]]) -> list[dict[str, Any]]:
    """Play ``games`` (deal, new seat) in one pair of worker processes."""
    games, cfg = job
    sides = (
        Side.start("new", REPO, Path(cfg["new_import"])),
        Side.start("base", Path(cfg["base_tree"]), Path(cfg["base_tree"])),
    )
    out = []
    try:
        for deal, seat in games:
            if time.time() >= cfg["until"]:
                break
            try:
                g = play(sides, cfg["table"], deal, seat, cfg["opts"])
            except Stopped:
                break
            print(
                f"  deal {g['deal']} new in seat {seat + 1}: scores {g['scores']} "
                f"result {g['result']} cpu/move new "
                f"{g['cpu'][0] / max(g['searched'][0], 1):.3f} base "
                f"{g['cpu'][1] / max(g['searched'][1], 1):.3f}",
                flush=True,
            )
            out.append(g)
    finally:
        for s in sides:
            s.kill()
    return out


def deal_jobs(
    first: int, deals: int, jobs: int, cfg: dict[str, Any]
) -> list[tuple[list[tuple[int, int]], dict[str, Any]]]:
    """Each pair of workers' games, (deal, seat of the side measured), both seats per deal."""
    # each pair takes whole deals in turn, so a run cut short by --until leaves few half-played
    return [
        ([(d, s) for d in range(first + j, first + deals, jobs) for s in (0, 1)], cfg)
        for j in range(jobs)
    ]


def run_jobs(worker: Callable[[Any], Any], jobs: list[Any]) -> Iterator[Any]:
    """Each job's result as it finishes, in forked processes when there are several."""
    if len(jobs) == 1:
        yield worker(jobs[0])
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(len(jobs)) as pool:
        yield from pool.imap_unordered(worker, jobs)


def summary(
    games: list[dict[str, Any]], label: str, names: tuple[str, str] = ("new", "base")
) -> str:
    """Win rate of the first side (``names[0]``) with intervals, margin and CPU per move."""
    n = len(games)
    wins = sum(g["result"] == 1.0 for g in games)
    ties = sum(g["result"] == 0.5 for g in games)
    lo, hi = wilson(wins, n)
    deals: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        deals.setdefault(g["deal"], []).append(g)
    blocks = [[g["result"] for g in v] for _d, v in sorted(deals.items())]
    paired = block_rate(blocks)
    m, mlo, mhi = mean_ci([statistics.fmean(g["margin"] for g in v) for v in deals.values()])
    cpu = [
        sum(g["cpu"][k] for g in games) / max(1, sum(g["searched"][k] for g in games))
        for k in (0, 1)
    ]
    spread = (
        f"{mlo:+.1f} to {mhi:+.1f} over deals" if not math.isnan(mlo) else "one deal: no interval"
    )
    by_seat = [
        f"{sum(g['result'] == 1.0 for g in games if g['seat'] == s)}/"
        f"{sum(1 for g in games if g['seat'] == s)}"
        for s in (0, 1)
    ]
    return (
        f"{label}: {names[0]} won {wins}/{n} = {100 * wins / max(n, 1):.1f} % "
        f"(95 % interval {100 * lo:.1f}-{100 * hi:.1f} % by games, "
        f"{100 * paired['ci'][0]:.1f}-{100 * paired['ci'][1]:.1f} % over {paired['deals']} deals), "
        f"{ties} ties, won in seat 1 and seat 2: {by_seat[0]} and {by_seat[1]}; "
        f"margin {m:+.1f} ({spread}); "
        f"CPU per searched move: {names[0]} {cpu[0]:.3f} s, {names[1]} {cpu[1]:.3f} s"
    )


def _options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            out[name] = float(value) if "." in value else int(value)
        except ValueError:  # a word: evaluation=learned
            out[name] = value
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="a1cce19", help="baseline commit, or . for this checkout")
    ap.add_argument("--table", default="classic", help="classic, or a bundled map's name")
    ap.add_argument("--deals", type=int, default=100, help="deals, each played in both seats")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal")
    ap.add_argument("--new-set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--base-set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--compiled", type=Path, help="this checkout's compiled build (a directory)")
    ap.add_argument("--jobs", type=int, default=1, help="pairs of worker processes in parallel")
    ap.add_argument("--until", default=None, help="HH:MM UTC: start no game after that")
    args = ap.parse_args()
    until = deadline(args.until)
    tmp = None
    if args.base == ".":
        base_tree = REPO
    else:
        tmp = Path(tempfile.mkdtemp(prefix="bench-versus-"))
        base_tree = tmp / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(base_tree), args.base],
            cwd=REPO,
            check=True,
        )
    new_import = args.compiled.resolve() if args.compiled else REPO
    cfg = {
        "table": args.table,
        "opts": (_options(args.new_set), _options(args.base_set)),
        "base_tree": str(base_tree),
        "new_import": str(new_import),
        "until": until,
    }
    jobs = deal_jobs(args.first, args.deals, args.jobs, cfg)
    build = "compiled" if args.compiled else "pure Python"
    print(
        f"{args.table}: new (this checkout, {build}, {cfg['opts'][0] or 'default'}) against "
        f"base ({args.base}, pure Python, {cfg['opts'][1] or 'default'}), {args.deals} deals",
        flush=True,
    )
    played: list[dict[str, Any]] = []
    failed = False
    # a background run is stopped by SIGTERM (SIGINT is ignored there): finish cleanly
    signal.signal(signal.SIGTERM, _stop)
    try:
        for got in run_jobs(_worker, jobs):
            played.extend(got)
    except Stopped:
        print("stopped (SIGTERM)", flush=True)
    except OutOfStep as exc:
        print(f"ERROR: the two engines are out of step: {exc}", flush=True)
        failed = True
    finally:
        if tmp is not None:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base_tree)], cwd=REPO, check=False
            )
            subprocess.run(["git", "worktree", "prune"], cwd=REPO, check=False)
            shutil.rmtree(tmp, ignore_errors=True)
    if played:
        print(summary(played, args.table))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
