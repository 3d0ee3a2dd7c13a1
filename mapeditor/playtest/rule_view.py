"""What the window shows of the Map-Chips rule modules' state, as plain values.

The rule modules keep their state in ``game.rule_state[name]``: a
:class:`engine.rules.chips_common.ChipState` (chips face down ``down``, face up ``up``, under
upgraded meeples ``under``, ``held`` by players, ``out``) plus module fields (Benelux ``stacks``,
Great Britain ``isle``). This module is the one place that reads them, so the board and the
score board only see plain tuples; a state it does not know shows nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.game import Game
from engine.geometry import Square


@dataclass(frozen=True)
class ChipView:
    square: Square
    colour: str | None
    """``None`` when the colour is hidden too (face down, except Great Britain's marked squares)."""
    value: int | None
    """``None`` when face down."""


@dataclass(frozen=True)
class StackView:
    square: Square
    tile: str | None
    """The face-up tile, ``None`` when the stack is empty or its next tile not yet revealed."""
    count: int


@dataclass
class Pieces:
    chips: list[ChipView] = field(default_factory=list)
    """Chips on map squares, face down or face up (treats)."""
    stacks: list[StackView] = field(default_factory=list)
    upgraded: set[int] = field(default_factory=set)
    """Ids of upgraded meeples."""
    isle_of_man: Square | None = None
    isle_meeples: dict[int, int] = field(default_factory=dict)
    """Meeples on the Isle of Man by player."""


def _chip_states(game: Game) -> Iterator[Any]:
    from engine.rules.chips_common import ChipState

    for r in game.rules:
        state = game.rule_state.get(r.name)
        if isinstance(state, ChipState):
            yield state


def _colour(c: Any) -> str:
    return str(getattr(c, "value", c))


def pieces(game: Game) -> Pieces:
    """Every rule-set piece on the board now."""
    out = Pieces()
    m = game.map
    if m is not None:
        out.isle_of_man = m.isle_of_man
    colour_known = bool(m is not None and m.chip_squares)
    for state in _chip_states(game):
        for sq, cid in sorted(state.down.items()):
            chip = state.chips[cid]
            out.chips.append(ChipView(sq, _colour(chip.colour) if colour_known else None, None))
        for sq, cid in sorted(state.up.items()):
            chip = state.chips[cid]
            out.chips.append(ChipView(sq, _colour(chip.colour), chip.value))
        out.upgraded.update(state.under)
        stacks = getattr(state, "stacks", None)
        if isinstance(stacks, dict):
            face_up = getattr(state, "face_up", None)
            for sq, tiles in sorted(stacks.items()):
                top = face_up(sq) if callable(face_up) else (tiles[-1] if tiles else None)
                out.stacks.append(StackView(sq, top, len(tiles)))
        isle = getattr(state, "isle", None)
        if isinstance(isle, list):
            out.isle_meeples = {p: n for p, n in enumerate(isle) if n > 0}
    return out


def chips_held(game: Game, player: int) -> list[tuple[str, int]]:
    """The chips ``player`` holds face up, as ``(colour, value)``."""
    for state in _chip_states(game):
        return [(_colour(c.colour), c.value) for c in state.held_chips(player)]
    return []


def isle_meeples(game: Game, player: int) -> int:
    """Meeples ``player`` has on the Isle of Man (Great Britain)."""
    return pieces(game).isle_meeples.get(player, 0)


def wines(game: Game, player: int) -> list[str]:
    """Colours of the wines ``player`` has (France: chips of one colour worth exactly 2)."""
    if not any(r.name == "france" for r in game.rules):
        return []
    values: dict[str, list[int]] = {}
    for colour, value in chips_held(game, player):
        values.setdefault(colour, []).append(value)
    # a wine is chips of one colour worth exactly 2: one 2, or two 1s
    return sorted(c for c, vs in values.items() if 2 in vs or vs.count(1) >= 2)
