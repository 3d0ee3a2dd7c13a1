"""The peer's side of ``benchmarks/bench_cross.py``: a game of 33fred33/CarcassonneAI and one of
its players in this process, run with its checkout on ``PYTHONPATH`` (none of its code is kept
here), driven by JSON lines on stdin, one answer line per request.

Requests::

    {"table": true}                  -> {"table": {...its Tile_dict dictionaries...}}
    {"new": {"deck": [9, 21, ...], "bot": "star25" | "mcts", "seed": 3, "depth": 1,
             "iterations": 500}}
    {"choose": true}                 -> {"move": [tile, x, y, rotation, key], "cpu": s}
    {"apply": [tile, x, y, rotation, key]}

The deck replaces the peer's shuffled one after its start tile (and its box: the counts of its
table are not the base game's). Every answer after a game starts carries ``state``: the tiles on
the board, the meeples ever placed (its tiles keep them), meeples in supply, the seat to move,
the tile in hand (after the peer has discarded those that fit nowhere), whether the game is over
and the peer's own scores. A move the peer does not list is answered with ``error``. Its players
print progress lines: they go to stderr, the answers to the real stdout.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
import types
from typing import Any

sys.modules["cv2"] = types.ModuleType("cv2")  # only its image viewer uses OpenCV
try:
    import pandas  # noqa: F401  # its players' CSV logs only (off here)
except ImportError:
    sys.modules["pandas"] = types.ModuleType("pandas")
try:
    import numpy  # noqa: F401
except ImportError:  # e.g. PyPy (--peer-python): its MCTS calls only these four
    _np = types.ModuleType("numpy")
    _np.sqrt = math.sqrt  # type: ignore[attr-defined]
    _np.log = math.log  # type: ignore[attr-defined]
    _np.argmax = lambda xs: max(range(len(xs)), key=xs.__getitem__)  # type: ignore[attr-defined]
    _np.argmin = lambda xs: min(range(len(xs)), key=xs.__getitem__)  # type: ignore[attr-defined]
    sys.modules["numpy"] = _np

from Carcassonne_Game import Tile_dict  # type: ignore[import-not-found]  # noqa: E402
from Carcassonne_Game.Carcassonne import CarcassonneState  # type: ignore[import-not-found]  # noqa: E402

TABLE = (
    "TILE_COUNT_DICT",
    "NO_ROTATIONS",
    "ONE_ROTATION",
    "CITY_OPENINGS_DICT",
    "ROAD_OPENINGS_DICT",
    "FARM_OPENINGS_DICT",
    "IS_DOUBLE",
    "HAS_MONASTERY",
)


def new_game(spec: dict[str, Any]) -> tuple[Any, Any]:
    random.seed(spec["seed"])
    state = CarcassonneState(None, None)  # plays its start tile (16, city N, road W-E)
    deck = [int(t) for t in spec["deck"]]
    state.deck = deck
    state.TileIndexList = sorted(deck)
    state.TileQuantities = [deck.count(t) for t in range(len(state.TileQuantities))]
    state.TotalTiles = len(deck)
    if spec["bot"] == "star25":
        from player.Star2_5_Player import Star2_5  # type: ignore[import-not-found]

        player = Star2_5(MaxDepth=spec.get("depth", 1))
    else:
        from player.MCTS_Player import MCTSPlayer  # type: ignore[import-not-found]

        player = MCTSPlayer(iterations=spec.get("iterations", 500))
    settle(state)
    return state, player


def settle(state: Any) -> None:
    """Discard the tiles that fit nowhere now, as the peer does when it lists moves."""
    if not state.isGameOver and state.availableMoves(TilesOnly=True)[0].TileIndex == -1:
        state.EndGameRoutine()


def report(state: Any) -> dict[str, Any]:
    meeples = []
    for (x, y), tile in state.Board.items():
        if tile.Meeple is not None:
            feature, where, symbol = tile.Meeple
            key = next(
                k
                for k, v in Tile_dict.MEEPLE_LOC_DICT[tile.TileIndex].items()
                if k[0] == feature and tuple(v) == tuple(where)
            )
            meeples.append([x, y, key[0], key[1], symbol - 1])
    return {
        "tiles": [[x, y, t.TileIndex, t.Rotation] for (x, y), t in state.Board.items()],
        "meeples": meeples,
        "supply": list(state.Meeples),
        "to_move": state.playerSymbol - 1,
        "tile": None if state.isGameOver else state.nextTileIndex(),
        "over": state.isGameOver,
        "scores": list(state.Scores[2:4]),
    }


def main() -> None:
    answers = sys.stdout
    sys.stdout = sys.stderr  # its players' progress prints
    state: Any = None
    player: Any = None
    for line in sys.stdin:
        req = json.loads(line)
        out: dict[str, Any] = {}
        if "table" in req:
            out["table"] = {name: getattr(Tile_dict, name) for name in TABLE}
        elif "new" in req:
            state, player = new_game(req["new"])
        elif "choose" in req:
            t0 = time.process_time()
            move = player.chooseAction(state)
            out["cpu"] = time.process_time() - t0
            out["move"] = list(move)
            state.move(move)
            settle(state)
        elif "apply" in req:
            tile, x, y, rot, key = req["apply"]
            move = (tile, x, y, rot, None if key is None else (key[0], key[1]))
            if move not in [m.move for m in state.availableMoves()]:
                out["error"] = f"the peer does not list the move {move}"
            else:
                state.move(move)
                settle(state)
        if state is not None:
            out["state"] = report(state)
        answers.write(json.dumps(out) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
