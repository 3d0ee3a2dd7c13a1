"""Fit the MCTS bot's learned evaluation (``engine.bots.evaluation``) on self-play games.

``python benchmarks/fit_evaluation.py [--games 300] [--write]``

Plays epsilon-greedy self-play games (the greedy bot, a random action 10 % of the time, as the
MCTS playouts play) on the classic table and on Deutschland with its Map-Chips rules, half
each; takes every seat's features (``seat_features``) at every turn, and fits each seat's final
score as a linear function of them by least squares (numpy), the positions of both tables
weighed alike. Prints the weights and how well they predict the final margin on held-out games
(every fifth game) beside the projected score's prediction; ``--write`` stores them in
``engine/data/mcts_evaluation.json``. Reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.bench_bots import new_table  # noqa: E402
from engine.bots.evaluation import FEATURE_NAMES, WEIGHTS_FILE, seat_features  # noqa: E402
from engine.bots.greedy_bot import GreedyBot  # noqa: E402
from engine.resources import data_dir  # noqa: E402

TABLES = ("classic", "deutschland")


def positions(
    table: str, seed: int
) -> tuple[list[list[float]], list[float], list[float], list[int]]:
    """One epsilon-greedy game: features and projections of every seat at every turn, and the
    final score of that seat (repeated per row)."""
    game = new_table(table, seed)
    rng = random.Random(seed)
    bots = [GreedyBot(seed=seed * 2 + k, samples=1) for k in range(2)]
    rows: list[list[float]] = []
    proj: list[float] = []
    seats: list[int] = []
    last_turn = -1
    while not game.is_over():
        if game.turn != last_turn:
            last_turn = game.turn
            projected = game.projected_scores()
            for p, x in enumerate(seat_features(game)):
                rows.append(x)
                proj.append(projected[p] + game.supply[p])
                seats.append(p)
        if rng.random() < 0.1:
            game.apply(rng.choice(game.legal_moves().list()))
        else:
            game.apply(bots[game.to_move].choose(game))
    finals = [float(game.scores[p]) for p in seats]
    return rows, finals, proj, seats


def collect(games: int, seed: int) -> dict[str, np.ndarray]:
    """Every turn of ``games`` self-play games, alternately classic and Deutschland: seat 0's
    features less seat 1's, the final margin, the projected margin, the table and the game."""
    diff: list[list[float]] = []
    final: list[float] = []
    proj: list[float] = []
    table_of: list[int] = []
    game_of: list[int] = []
    for i in range(games):
        table = TABLES[i % 2]
        rows, finals, projected, _seats = positions(table, seed + i)
        for k in range(0, len(rows), 2):
            diff.append([a - b for a, b in zip(rows[k], rows[k + 1], strict=True)])
            final.append(finals[k] - finals[k + 1])
            proj.append(projected[k] - projected[k + 1])
            table_of.append(i % 2)
            game_of.append(i)
        if i % 50 == 49:
            print(f"  {i + 1} games, {len(diff)} positions", flush=True)
    return {
        "x": np.array(diff),
        "y": np.array(final),
        "proj": np.array(proj),
        "table": np.array(table_of),
        "game": np.array(game_of),
    }


def fit(data: dict[str, np.ndarray]) -> np.ndarray:
    """Least-squares weights of the margin on the feature differences, the two tables' positions
    weighed alike."""
    x, y = data["x"], data["y"]
    classic = data["table"] == 0
    share = np.where(classic, 1.0, np.mean(classic) / np.mean(~classic))
    sw = np.sqrt(share)
    w, *_ = np.linalg.lstsq(x * sw[:, None], y * sw, rcond=None)
    return np.asarray(w)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=100_000)
    ap.add_argument(
        "--cache", type=Path, help="an .npz of the positions: read if it exists, else written"
    )
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if args.cache and args.cache.exists():
        data = dict(np.load(args.cache))
    else:
        data = collect(args.games, args.seed)
        if args.cache:
            np.savez(args.cache, **data)
    held = data["game"] % 5 == 4
    train = {k: v[~held] for k, v in data.items()}
    w = fit(train)
    for name, v in zip(FEATURE_NAMES, w, strict=True):
        print(f"  {name:16s} {v:+.3f}")
    for t, table in enumerate(TABLES):
        sel = held & (data["table"] == t)
        y = data["y"][sel]
        for label, pred in (
            ("learned", data["x"][sel] @ w),
            ("projected + supply", data["proj"][sel]),
        ):
            err = pred - y
            sign = np.mean(np.sign(pred) == np.sign(y))
            print(
                f"{table}: held-out margin error of {label}: RMS {np.sqrt(np.mean(err**2)):.2f} "
                f"points, leader right {100 * sign:.1f} % ({len(y)} positions)"
            )
    if args.write:
        out = {
            "about": "engine.bots.evaluation weights: a seat's final margin from its features "
            f"less the other's, least squares over {len(set(data['game']))} epsilon-greedy games "
            "(benchmarks/fit_evaluation.py)",
            "weights": {n: round(float(v), 4) for n, v in zip(FEATURE_NAMES, w, strict=True)},
        }
        path = data_dir() / WEIGHTS_FILE
        path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
