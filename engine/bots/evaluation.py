"""A learned evaluation of a position for the MCTS bot: the expected final margin between two
seats as a linear function of what each holds now, fitted on self-play games.

The projected score (open features counted as if the game ended now, ``Game.projected_scores``)
undervalues an open city that will be finished and a meeple kept for later, and overvalues a
farmer placed with most of the game still to come. :func:`seat_features` splits a seat's
projection by feature kind and lets each part, and the meeples in supply, count differently as
the draw pile empties; :func:`weights` (``engine/data/mcts_evaluation.json``, fitted by
``benchmarks/fit_evaluation.py``) says how much.

>>> from engine.game import Game
>>> from engine.bots.evaluation import seat_values
>>> first, second = seat_values(Game(None, seed=7))
>>> round(first - second, 2)  # an empty board: the seat to move holds the next tile
0.86
"""

from __future__ import annotations

import json
from functools import cache
from operator import mul
from typing import TYPE_CHECKING

from engine.errors import EngineError
from engine.features import CITY, FIELD, MONASTERY, ROAD
from engine.resources import data_dir
from engine.scoring import final_points

if TYPE_CHECKING:
    from engine.game import Game

FEATURE_NAMES = (
    "score",
    "city",
    "road",
    "monastery",
    "field",
    "supply",
    "city*left",
    "road*left",
    "monastery*left",
    "field*left",
    "supply*left",
    "to_move",
)
"""The features of a seat, in the order of the weights: ``city`` .. ``field`` are the points its
occupied open features would give if the game ended now; ``supply`` its meeples in supply;
``*left`` a feature times the share of the tiles still to draw; ``to_move`` 1 for the seat to
move (it holds the next tile). Only differences between seats are fitted, so there is no
constant term."""

WEIGHTS_FILE = "mcts_evaluation.json"

_SLOT = {CITY: 0, ROAD: 1, MONASTERY: 2, FIELD: 3}
"""Where a feature kind's points go among a seat's parts."""


@cache
def weights() -> tuple[float, ...]:
    """The fitted weights (``engine/data/mcts_evaluation.json``), one per :data:`FEATURE_NAMES`.

    :raises EngineError: naming the file and the weight missing or not a number.
    """
    path = data_dir() / WEIGHTS_FILE
    table = json.loads(path.read_text(encoding="utf-8")).get("weights", {})
    out = []
    for name in FEATURE_NAMES:
        value = table.get(name)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise EngineError(f"{path}: weights.{name}: {value!r} is not a number")
        out.append(float(value))
    return tuple(out)


def seat_features(game: Game) -> list[list[float]]:
    """Every seat's features (:data:`FEATURE_NAMES`)."""
    n = len(game.scores)
    parts = [[0.0, 0.0, 0.0, 0.0] for _ in range(n)]  # city, road, monastery, field
    board = game.board
    f = board.features
    kinds = f.kind
    on_feature = f.meeples
    majority_of = game.majority_of
    seen: set[int] = set()
    farmers = game.options.farmers
    for player, sq, _loc, node, _s in game.meeples.values():
        if node < 0:
            parts[player][2] += 1 + board.monk_neighbour_count(sq)
            continue
        root = f.find(node)  # a C call on the compiled build (evaluation.pxd)
        if root in seen:
            continue
        seen.add(root)
        pts = final_points(f, root, farmers)
        slot = _SLOT[kinds[root]]
        for p in majority_of(on_feature.get(root, ())):
            parts[p][slot] += pts
    left_n = game.tiles_left()
    left = left_n / max(1, left_n + len(board.order))
    out = []
    for p in range(n):
        c, r, m, fl = parts[p]
        s = float(game.supply[p])
        out.append(
            [float(game.scores[p]), c, r, m, fl, s, c * left, r * left, m * left, fl * left]
            + [s * left, 1.0 if p == game.to_move else 0.0]
        )
    return out


def seat_values(game: Game) -> list[float]:
    """Every seat's value by the learned weights: one seat's less another's is the final margin
    expected between them (the scores themselves when the game is over)."""
    if game.is_over():
        return [float(s) for s in game.scores]
    w = weights()
    # the products summed in the weights' order, as a generator over zip(w, x) would
    return [sum(map(mul, w, x)) for x in seat_features(game)]


__all__ = ["FEATURE_NAMES", "seat_features", "seat_values", "weights"]
