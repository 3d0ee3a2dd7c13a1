"""One side of ``benchmarks/bench_versus.py``: a game and a bot in this process, on the engine of
the checkout on ``PYTHONPATH``, driven by JSON lines on stdin (one answer line per request).

Requests::

    {"new": {"table": "classic", "deal": 3, "bot": {...make_bot options...}, "seed": 7}}
    {"choose": true}              -> {"action": {...record form...}, "cpu": s, "searched": 0/1}
    {"apply": {...record form...}} -> {}

Every answer carries ``state``, a summary of the game both engines must agree on after every
action (turn, phase, seat to move, tile in hand, scores, meeples in supply, tiles left). A
request with ``"look": true`` also gets ``look``: the tiles on the board, the meeples on them
and the tiles still to come in drawing order (``benchmarks/bench_cross.py`` compares them with
another engine's).

The code runs on older checkouts too (the baseline of issue 31 is a1cce19): it uses only the
record form of actions and the public ``Game`` API.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from engine.bots import make_bot
from engine.game import Game, GameOptions
from engine.moves import action_from_dict


def new_table(table: str, deal: int) -> Game:
    if table == "classic":
        return Game(None, players=2, seed=deal)
    try:
        from engine.analysis.simulate import rule_set_for
    except ImportError:  # a checkout before engine.analysis (a1cce19)
        from engine.simulate import rule_set_for  # type: ignore[no-redef]
    from engine.mapio import load_map
    from engine.resources import bundled_map

    m = load_map(bundled_map(table))
    rule_set, _ = rule_set_for(m, True)
    return Game(m, players=2, seed=deal, options=GameOptions(rule_set=rule_set))


def state(game: Game) -> list[Any]:
    return [
        game.turn,
        str(game.phase),
        game.to_move,
        game.current_tile,
        list(game.scores),
        list(game.supply),
        len(game.history),
        game.is_over(),
    ]


def look(game: Game) -> dict[str, Any]:
    """The board, its meeples and the tiles to come, in hand first (public ``Game`` state)."""
    return {
        "tiles": [[sq[0], sq[1], o.tile_id, o.rotation] for sq, o in game.board.tiles.items()],
        "meeples": [
            [m.square[0], m.square[1], m.location, m.player] for m in game.meeples.values()
        ],
        "order": ([game.current_tile] if game.current_tile else []) + game.pile[::-1],
    }


def main() -> None:
    game: Game | None = None
    bot: Any = None
    for line in sys.stdin:
        req = json.loads(line)
        out: dict[str, Any] = {}
        if "new" in req:
            spec = req["new"]
            game = new_table(spec["table"], spec["deal"])
            bot = make_bot("mcts", seed=spec["seed"], **spec["bot"])
        elif "choose" in req:
            assert game is not None
            t0 = time.process_time()
            action = bot.choose(game)
            out["cpu"] = time.process_time() - t0
            out["searched"] = 1 if getattr(bot, "last_iterations", 1) else 0
            out["action"] = action.to_dict()
            game.play(action)
        elif "apply" in req:
            assert game is not None
            game.play(action_from_dict(req["apply"], game.rules))
        out["state"] = state(game) if game is not None else None
        if req.get("look") and game is not None:
            out["look"] = look(game)
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
