"""One timed batch of random games for :mod:`benchmarks.bench_ab` (runs in either checkout).

``python benchmarks/ab_games.py SCENARIO GAMES SEED`` prints ``seconds setup_seconds digest
process_seconds``. ``SCENARIO``: ``classic`` (2 players, 72 base tiles, farmers) or
``deutschland`` (4 players, Map-Chips on). Every action is uniform over ``legal_moves()``, drawn
with ``rng.choice`` (on the view itself where it is a sequence, else on its list: the same
action for the same RNG state). Set-up is ``Game(...)`` alone: the previous game is freed before
its clock starts (still inside the total).

``seconds`` and ``setup_seconds`` are CPU time of the thread that plays (``time.thread_time``):
the engine runs on one thread. ``process_seconds`` is CPU time of the whole process, which also
counts numpy's OpenBLAS worker threads: the chip layout imports numpy in the warm-up game, and
those threads spin idle on another core for a while after the import (about 50 ms of CPU in all,
the same in both checkouts, and no work of any game). The digest is of the actions played, in their record form (``to_dict()``: an action class may move
between modules or gain a defaulted field without the game changing), so the two checkouts can
be shown to play the same games; it is made after the clock stops (the actions are only kept
while playing). Final scores are left out on purpose: against ``a46416a`` one Deutschland seed
in 11 ends 3 points apart, a scoring correction that was already on main at ``4a09b67``, before
the speed work.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from typing import Any


def main() -> None:
    scenario, games, seed0 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    from engine.game import Game
    from engine.mapio import load_map
    from engine.resources import bundled_map

    if scenario == "classic":
        m, players = None, 2
    else:
        m, players = load_map(bundled_map("deutschland")), 4
    Game(m, players=players, seed=10**6)  # warm-up: tile tables compiled once
    probe = Game(m, players=players, seed=0).legal_moves()
    as_sequence = hasattr(probe, "__getitem__") and hasattr(probe, "__len__")
    played: list[Any] = []
    keep = played.append
    setup = 0.0
    start, start_process = time.thread_time(), time.process_time()
    g = None
    for i in range(games):
        # the previous game is freed before the set-up clock starts: freeing it is the end of
        # that game (its CPU time stays in the total), not the set-up of the next one
        g = None
        t0 = time.thread_time()
        g = Game(m, players=players, seed=seed0 + i)
        setup += time.thread_time() - t0
        rng = random.Random(seed0 + i)
        while not g.is_over():
            moves = g.legal_moves()
            action = rng.choice(moves if as_sequence else moves.list())
            g.apply(action)
            keep(action)
    seconds = time.thread_time() - start
    process_seconds = time.process_time() - start_process
    digest = hashlib.sha256()  # outside the timed part: it measures the harness, not the engine
    for action in played:
        digest.update(json.dumps(action.to_dict(), sort_keys=True).encode())
    print(f"{seconds:.6f} {setup:.6f} {digest.hexdigest()[:16]} {process_seconds:.6f}")


if __name__ == "__main__":
    main()
