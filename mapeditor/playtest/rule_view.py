"""What the window shows of the Map-Chips rule modules' state, read defensively.

The rule modules keep their state in ``game.rule_state[name]`` in shapes of their own; this module
is the one place that knows them, so the board and the score board only see plain tuples. A module
this file does not know (or a state it cannot read) simply shows nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.game import Game
from engine.geometry import Square


@dataclass(frozen=True)
class ChipView:
    square: Square
    colour: str
    value: int | None
    face_up: bool


@dataclass(frozen=True)
class StackView:
    square: Square
    tile: str | None
    """The face-up tile, ``None`` when the stack is empty."""
    count: int


@dataclass(frozen=True)
class TreatView:
    square: Square
    colour: str
    value: int


@dataclass
class Pieces:
    chips: list[ChipView] = field(default_factory=list)
    stacks: list[StackView] = field(default_factory=list)
    treats: list[TreatView] = field(default_factory=list)
    upgraded: set[int] = field(default_factory=set)
    """Ids of upgraded meeples."""
    isle_of_man: Square | None = None
    isle_meeples: dict[int, int] = field(default_factory=dict)
    """Meeples on the Isle of Man by player."""


def _get(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def _sq(value: Any) -> Square | None:
    try:
        x, y = value
        return (int(x), int(y))
    except (TypeError, ValueError):
        return None


def _chip(value: Any) -> tuple[str, int | None]:
    """``(colour, value)`` of a chip in any of the shapes a module may use."""
    if isinstance(value, tuple | list) and len(value) >= 2:
        return str(getattr(value[0], "value", value[0])), _int(value[1])
    colour = _get(value, "colour", "color")
    return str(getattr(colour, "value", colour)), _int(_get(value, "value", "points"))


def _int(v: Any) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _states(game: Game) -> Iterable[Any]:
    for r in game.rules:
        state = game.rule_state.get(r.name)
        if state is not None and r.name != "towns":
            yield state


def pieces(game: Game) -> Pieces:
    """Every rule-set piece on the board now."""
    out = Pieces()
    m = game.map
    if m is not None:
        out.isle_of_man = m.isle_of_man
    for state in _states(game):
        board = _get(state, "board", "on_board", "board_chips", "chips_on_board")
        face_up = _get(state, "face_up", "revealed") or ()
        if isinstance(board, dict):
            for sq, chip in board.items():
                square = _sq(sq)
                if square is None or square in game.board.tiles:
                    continue
                colour, value = _chip(chip)
                up = bool(_get(chip, "face_up")) or square in face_up
                out.chips.append(ChipView(square, colour, value, up))
        stacks = _get(state, "stacks")
        if isinstance(stacks, dict):
            for sq, tiles in stacks.items():
                square = _sq(sq)
                if square is None:
                    continue
                tiles = list(tiles or ())
                out.stacks.append(StackView(square, tiles[-1] if tiles else None, len(tiles)))
        treats = _get(state, "treats")
        if isinstance(treats, dict):
            for sq, chip in treats.items():
                square = _sq(sq)
                if square is None:
                    continue
                colour, value = _chip(chip)
                out.treats.append(TreatView(square, colour, value or 0))
        upgraded = _get(state, "upgraded", "upgrades")
        if isinstance(upgraded, dict | set | list | tuple | frozenset):
            out.upgraded.update(int(m) for m in upgraded if isinstance(m, int))
        isle = _get(state, "isle", "isle_of_man", "isle_meeples")
        if isinstance(isle, dict):
            out.isle_meeples = {int(p): int(n) for p, n in isle.items() if int(n) > 0}
        elif isinstance(isle, list | tuple):
            out.isle_meeples = {p: int(n) for p, n in enumerate(isle) if int(n) > 0}
    return out


def chips_held(game: Game, player: int) -> list[tuple[str, int | None]]:
    """The chips ``player`` holds, as ``(colour, value)``."""
    for state in _states(game):
        held = _get(state, "held", "hands", "chips_held", "player_chips")
        if isinstance(held, dict):
            held = held.get(player, ())
        elif isinstance(held, list | tuple) and len(held) == len(game.players):
            held = held[player]
        else:
            continue
        return [_chip(c) for c in held or ()]
    return []


def wines(game: Game, player: int) -> list[str]:
    """Colours of the wines ``player`` could sell (France only)."""
    if not any(r.name == "france" for r in game.rules):
        return []
    values: dict[str, list[int]] = {}
    for colour, value in chips_held(game, player):
        values.setdefault(colour, []).append(value or 0)
    # a wine is chips of one colour worth exactly 2: one 2, or two 1s
    return sorted(c for c, vs in values.items() if 2 in vs or vs.count(1) >= 2)
