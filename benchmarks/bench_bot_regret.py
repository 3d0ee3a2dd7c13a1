"""Root-decision regret of MCTS settings against a large search (a cheap proxy for strength).

Win rates need hundreds of games to tell two settings apart; this asks a narrower question,
quickly: on fixed positions, how much worse is the move a setting picks than the best move by a
search of many iterations (the *oracle*, ``--oracle-iterations``, wide widening)? Regret is on
the bot's reward scale (0..1), averaged over the positions and ``--repeats`` seeds per position;
``agree`` is how often the setting picks the oracle's move.

Positions: greedy-against-greedy games (seed 1000 + k), stopped at a placing turn with more than
three moves, turns spread over the game. The oracle's values are cached in ``--cache`` (one
JSON file per table and oracle size), so comparing settings costs only their own searches.

Run: ``python benchmarks/bench_bot_regret.py --table classic --positions 30 --set iterations=250``
     ``python benchmarks/bench_bot_regret.py --table classic --set halving=0 --set iterations=250``

The oracle is itself a noisy search (and shares the bot's evaluation), so read small
differences as noise; a greedy move (``--set iterations=1``) shows the scale.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.bots.mcts_bot import MCTSBot, _key
from engine.game import Game, Phase

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bots import new_table  # noqa: E402


def position(table: str, k: int) -> Game:
    """Position ``k``: a greedy game stopped at a placing turn with a real choice."""
    game = new_table(table, 1000 + k)
    bots = [make_bot("greedy", seed=k), make_bot("greedy", seed=k + 99)]
    target = 6 + (k * 7) % (40 if table == "classic" else 80)
    while not game.is_over():
        if game.turn >= target and game.phase is Phase.PLACE and len(game.legal_moves()) > 3:
            break
        game.play(bots[game.to_move].choose(game))
    return game


def root_values(bot: MCTSBot, game: Game) -> dict[str, tuple[float, int]]:
    """Each root move's value (mean reward with the greedy prior) and visits after a search."""
    bot.choose(game)
    root = bot._root
    assert root is not None
    n0 = bot.prior_visits
    base = root.mean(game.to_move)
    return {
        repr(k): ((c.total + n0 * (base + c.prior)) / (c.visits + n0), c.visits)
        for k, c in root.children.items()
    }


def oracle(table: str, positions: int, iterations: int, cache: Path) -> dict[str, Any]:
    path = cache / f"oracle-{table}-{iterations}.json"
    got: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    for k in range(positions):
        if str(k) in got:
            continue
        bot = MCTSBot(iterations=iterations, seed=77, widening=3.0, halving=False)
        got[str(k)] = root_values(bot, position(table, k))
        path.write_text(json.dumps(got))
        print(f"  oracle: position {k} ({len(got[str(k)])} moves)", flush=True)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", choices=["classic", "deutschland"], default="classic")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--oracle-iterations", type=int, default=6000)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "bot-regret")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    opts: dict[str, Any] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        opts[name] = float(value) if "." in value else int(value)
    values = oracle(args.table, args.positions, args.oracle_iterations, args.cache)
    regret = 0.0
    agree = 0
    tries = 0
    for k in range(args.positions):
        vals = values[str(k)]
        best_key = max(vals, key=lambda m: vals[m][0])
        best = vals[best_key][0]
        ranked = sorted(v for v, _n in vals.values())
        game = position(args.table, k)
        for rep in range(args.repeats):
            move = make_bot("mcts", seed=5 + rep, **opts).choose(game)
            key = repr(_key(game, move))
            # a move the oracle hardly tried counts as a median one
            mine = vals[key][0] if key in vals and vals[key][1] >= 30 else ranked[len(ranked) // 2]
            regret += best - mine
            agree += key == best_key
            tries += 1
    print(
        f"{args.table} {opts or 'default'}: regret {regret / tries:.4f}, "
        f"agrees with the oracle {agree}/{tries}"
    )


if __name__ == "__main__":
    main()
