"""Random classic play of this engine against 33fred33/CarcassonneAI, side by side.

``python benchmarks/bench_peer.py PEER_CHECKOUT [--rounds 7] [--compiled build/compiled]``

``PEER_CHECKOUT`` is a checkout of https://github.com/33fred33/CarcassonneAI (its
``Carcassonne_Game`` package is imported from there; none of its code is kept here). Both play
uniformly random games of the base game, 2 players, 72 tiles, farmers: the peer draws each move
uniformly over all its legal moves (placement x meeple, ``getRandomMove``), this engine every
action uniformly over ``legal_moves()`` (``benchmarks/ab_games.py classic``). The peer imports
OpenCV only for its image viewer: the driver puts an empty ``cv2`` module in its place.

Each round runs one fresh process per contestant, alternately, each timing a batch of games by
the CPU time of the thread that plays after a warm-up game. ``--compiled DIR`` adds this engine's
compiled build (a directory the wheel was unpacked into, see docs/performance.md). Prints the
median games/s of each and the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OURS = 120
PEER = 30

PEER_CODE = """
import random, sys, time, types
sys.modules["cv2"] = types.ModuleType("cv2")  # only its image viewer uses OpenCV
from Carcassonne_Game.Carcassonne import CarcassonneState

def play():
    state = CarcassonneState(None, None)
    while not state.isGameOver:
        state.move(state.getRandomMove().move)

random.seed({seed})
play()  # warm-up
start = time.thread_time()
for _ in range({games}):
    play()
print(time.thread_time() - start)
"""


def _seconds(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{' '.join(cmd[:3])} failed:\n{out.stderr[-2000:]}")
    return float(out.stdout.split()[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peer", type=Path, help="checkout of 33fred33/CarcassonneAI")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--compiled", type=Path, help="directory of this engine's compiled build")
    args = ap.parse_args()
    peer = args.peer.resolve()
    if not (peer / "Carcassonne_Game" / "Carcassonne.py").is_file():
        ap.error(f"{peer}: no Carcassonne_Game/Carcassonne.py (not a CarcassonneAI checkout)")
    script = str(HERE / "ab_games.py")
    runs: dict[str, list[float]] = {"peer": [], "pure": []}
    if args.compiled:
        runs["compiled"] = []
    for r in range(args.rounds):
        env = dict(os.environ, PYTHONPATH=str(peer))
        code = PEER_CODE.format(seed=r, games=PEER)
        runs["peer"].append(PEER / _seconds([sys.executable, "-c", code], peer, env))
        env = dict(os.environ, PYTHONPATH=str(REPO))
        cmd = [sys.executable, "-P", script, "classic", str(OURS), str(r)]
        runs["pure"].append(OURS / _seconds(cmd, REPO, env))
        if args.compiled:
            env = dict(os.environ, PYTHONPATH=str(args.compiled.resolve()))
            runs["compiled"].append(OURS / _seconds(cmd, REPO, env))
    rates = {k: statistics.median(v) for k, v in runs.items()}
    for k, rate in rates.items():
        ratio = rate / rates["peer"]
        print(f"{k:9s} {rate:8.1f} games/s  {ratio:5.2f}x the peer  ({args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
