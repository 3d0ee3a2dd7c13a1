"""Replaying a game record: the game before any action, or after every action, checked."""

from __future__ import annotations

from pathlib import Path

from engine.errors import EngineError, IllegalMoveError, RecordError
from engine.game import Game
from engine.mapdef import MapDef
from engine.mapio import load_map, map_from_dict
from engine.moves import Action, action_from_dict
from engine.record import GameRecord
from engine.resources import bundled_map


def _resolve_map(record: GameRecord) -> tuple[MapDef | None, str | None]:
    if record.map_data is not None:
        try:
            return map_from_dict(record.map_data, source="record map"), None
        except EngineError as exc:
            raise RecordError(f"map: {exc}") from None
    if record.map_path is None:
        return None, None

    path = Path(record.map_path)
    if not path.is_absolute() and not path.exists():
        bundled = bundled_map(path.stem)
        if bundled.exists():
            path = bundled
    try:
        return load_map(path), record.map_path
    except EngineError as exc:
        raise RecordError(f"map: {exc}") from None


def new_game(record: GameRecord) -> Game:
    """The game of ``record`` before any action."""

    m, path = _resolve_map(record)
    try:
        return Game(
            m, players=record.players, seed=record.seed, options=record.options, map_path=path
        )
    except EngineError as exc:
        raise RecordError(f"cannot set the game up: {exc}") from None


def replay(record: GameRecord, *, upto: int | None = None) -> Game:
    """Rebuild the game by playing every action (the first ``upto`` ones if given), checked.

    :raises RecordError: for an illegal or unreadable action, naming the turn and the reason.
    """
    game = new_game(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for i, data in enumerate(actions, start=1):
        try:
            action: Action = action_from_dict(data, game.rules)
            game.play(action)
        except IllegalMoveError as exc:
            raise RecordError(f"action {i}: {exc}") from None
        except RecordError as exc:
            raise RecordError(f"action {i} (turn {game.turn + 1}): {exc}") from None
    return game


__all__ = ["new_game", "replay"]
