"""Speed of the five presets played as data against the country modules, side by side.

``python benchmarks/bench_ruleset.py [--base 4a09b67] [--rounds 5] [--games 30] [--greedy 2]``

The country modules before the presets existed (commit ``--base``, checked out into a temporary
git worktree removed at the end) play ``rule_set="<name>"``; this checkout plays the same seeded
games as ``rule_set="data:<name>"`` (the preset, :class:`engine.rules.data.DataRules`). The two
run alternately, round after round, each in a fresh process, so the load of a shared machine
falls on both alike; each batch times CPU (``time.process_time``) inside its process. Per preset
and in total the script prints the medians and the ratio preset / module (the time a preset game
takes for each second a module game took: 1.15 is 15 % slower). Batches: ``--games`` random
games (every action uniform over the legal moves) and ``--greedy`` greedy-bot games, 3 players,
on the shipped map of the preset. Both sides must play identical games: a differing digest of the
actions played is an error.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from engine.rules.data.ruleset import PRESET_MAPS as MAPS  # noqa: E402

BATCH = """
import hashlib, random, time
from engine.bots import make_bot
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map
m = load_map(bundled_map({map!r}))
Game(m, players=3, seed=0, options=GameOptions(rule_set={rule_set!r}))  # imports, caches
h = hashlib.sha256()
t = time.process_time()
for i in range({seed}, {seed} + {games} + {greedy}):
    g = Game(m, players=3, seed=i, options=GameOptions(rule_set={rule_set!r}))
    bots = [make_bot("greedy" if i >= {seed} + {games} else "random", seed=i * 7 + k) for k in range(3)]
    while not g.is_over():
        a = bots[g.to_move].choose(g)
        h.update(repr(a.to_dict()).encode())
        g.play(a)
    h.update(repr(g.scores).encode())
print(time.process_time() - t, h.hexdigest()[:16])
"""


def batch(
    tree: Path, rule_set: str, name: str, seed: int, games: int, greedy: int
) -> tuple[float, str]:
    code = BATCH.format(map=MAPS[name], rule_set=rule_set, seed=seed, games=games, greedy=greedy)
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(f"{tree}: {rule_set} batch failed:\n{out.stderr}")
    secs, digest = out.stdout.split()
    return float(secs), digest


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="4a09b67", help="commit with the country modules (4a09b67)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=30, help="random games per batch")
    ap.add_argument("--greedy", type=int, default=2, help="greedy games per batch")
    ap.add_argument("--only", default=",".join(MAPS), help="comma-separated presets")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-ruleset-"))
    base = tmp / "base"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(base), args.base], cwd=REPO, check=True
    )
    failed = False
    totals: dict[str, list[float]] = {"module": [], "preset": []}
    try:
        for name in args.only.split(","):
            runs: dict[str, list[tuple[float, str]]] = {"module": [], "preset": []}
            for r in range(args.rounds):
                seed = 1000 * r
                runs["module"].append(batch(base, name, name, seed, args.games, args.greedy))
                runs["preset"].append(
                    batch(REPO, f"data:{name}", name, seed, args.games, args.greedy)
                )
            mod = [s for s, _ in runs["module"]]
            pre = [s for s, _ in runs["preset"]]
            totals["module"].append(statistics.median(mod))
            totals["preset"].append(statistics.median(pre))
            print(
                f"{name:14s} module {statistics.median(mod):7.3f} s  preset {statistics.median(pre):7.3f} s  "
                f"ratio preset/module {statistics.median(pre) / statistics.median(mod):5.3f} "
                f"(min {min(pre) / min(mod):5.3f}, {args.rounds} rounds)"
            )
            if [d for _, d in runs["module"]] != [d for _, d in runs["preset"]]:
                print(f"{'':14s} ERROR: the module and the preset played different games")
                failed = True
            sys.stdout.flush()
        m, p = sum(totals["module"]), sum(totals["preset"])
        print(
            f"{'all five':14s} module {m:7.3f} s  preset {p:7.3f} s  ratio preset/module {p / m:5.3f}"
        )
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=REPO, check=False)
        subprocess.run(["git", "worktree", "prune"], cwd=REPO, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
