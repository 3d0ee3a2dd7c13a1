"""``python -m engine replay RECORD.json [--json]``: replay a game record and print the scores.

Exit codes: 0 replayed; 1 the record holds an illegal action (the turn and the reason are
printed, with the scores up to there); 2 the file cannot be read as a game record.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import EngineError, IllegalMoveError, RecordError
from engine.moves import action_from_dict
from engine.record import load_record
from engine.replaying import new_game

_KIND_ORDER = ("city", "road", "monastery", "field")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="replay a game record and print each player's score",
        description="Replay a game record (checked) and print each player's score with its "
        "breakdown by feature type.",
    )
    p.add_argument("record", help="game record file (JSON)")
    p.add_argument("--json", action="store_true", help="print JSON, including every scoring event")
    p.set_defaults(func=run)


def _summary(game: Any, error: str | None) -> dict[str, Any]:
    players = []
    for i, name in enumerate(game.players):
        bd = game.breakdown[i]
        ordered = {k: bd.get(k, 0) for k in _KIND_ORDER}
        ordered.update({k: v for k, v in sorted(bd.items()) if k not in ordered})
        players.append({"name": name, "score": game.scores[i], "breakdown": ordered})
    out = game.outcome()
    return {
        "turns": game.turn,
        "over": game.is_over(),
        "winners": [game.players[i] for i in out.winners] if out else [],
        "players": players,
        "error": error,
    }


def run(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        game = new_game(record)
    except (RecordError, EngineError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    error: str | None = None
    for i, data in enumerate(record.actions, start=1):
        try:
            game.play(action_from_dict(data, game.rules))
        except IllegalMoveError as exc:
            error = f"action {i}: {exc}"
            break
        except RecordError as exc:
            error = f"action {i} (turn {game.turn + 1}): {exc}"
            break
    summary = _summary(game, error)
    if args.json:
        summary["events"] = [e.to_dict() for e in game.events]
        print(json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        state = "game over" if game.is_over() else f"stopped after {game.turn} turns"
        print(f"{args.record}: {state}")
        for p in summary["players"]:
            parts = ", ".join(
                f"{k} {v}" for k, v in p["breakdown"].items() if v or k in _KIND_ORDER
            )
            print(f"  {p['name']}: {p['score']} ({parts})")
        if summary["winners"]:
            print(f"  winner: {' and '.join(summary['winners'])}")
    if error is not None:
        print(f"error: illegal action in record: {error}", file=sys.stderr)
        return 1
    return 0
