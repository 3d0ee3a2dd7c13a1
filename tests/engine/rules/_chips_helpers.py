"""Small maps built in code and helpers to play Map-Chips games turn by turn (rules tests only)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.game import Game, GameOptions, Phase
from engine.geometry import Square
from engine.mapdef import MapDef, NamedRuleSet, StartSquare
from engine.moves import Action, Draw, Move, Pass
from engine.rules.chips_common import ChipState, invariant_violations

TOTAL = 30


def make_map(
    rows: Sequence[str],
    *,
    start: Iterable[Square] = ((0, 0),),
    rule_set: str = "none",
    **elements: Any,
) -> MapDef:
    """A map from row strings ('#' = map square, anything else = outside) plus elements."""
    land = {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"}
    m = MapDef(
        id="test",
        name="Test",
        width=max(len(r) for r in rows),
        height=len(rows),
        land=land,
        rule_set=NamedRuleSet(rule_set),
        **elements,
    )
    for sq in start:
        m.start_squares[sq] = StartSquare(f"start {sq}")
    return m


def new_game(
    m: MapDef,
    tiles: Sequence[str],
    rule_set: str,
    *,
    chips: Sequence[Sequence[Any]] | None = (),
    start: Sequence[Square] = ((0, 0),),
    start_tile: str = "B",
    players: int = 2,
    seed: int = 0,
    game_options: dict[str, Any] | None = None,
    **rule_options: Any,
) -> Game:
    """A game on ``m`` drawing ``tiles`` in order, with exactly ``chips`` laid out
    (``[x, y, colour, value]``; ``None``: the module's own random setup)."""
    ro = dict(rule_options)
    if chips is not None:
        ro["chips"] = [list(c) for c in chips]
    opts = GameOptions(
        start_squares=tuple(start),
        start_tile=start_tile,
        draw_order=tuple(tiles),
        rule_set=rule_set,
        rule_options=ro,
        **(game_options or {}),
    )
    return Game(m, players=players, seed=seed, options=opts)


def place(g: Game, sq: Square, rot: int = 0, meeple: str | None = None) -> None:
    """Draw face down if the game asks, then place the current tile (checked)."""
    if g.phase is Phase.DRAW:
        g.play(Draw())
    g.play(Move(sq, rot, meeple))


def finish(g: Game) -> None:
    """Pass through the optional action phases until the next turn (or the end)."""
    while g.phase in (Phase.ACTION, Phase.AFTER):
        g.play(Pass())


def turn(g: Game, sq: Square, rot: int = 0, meeple: str | None = None) -> None:
    place(g, sq, rot, meeple)
    finish(g)


def offered(g: Game, kind: type) -> list[Action]:
    return [a for a in g.legal_moves() if isinstance(a, kind)]


def check_invariants(g: Game) -> None:
    """Chips conserved (board + held + out = 30, each chip in one place) and meeples conserved
    (supply + board + Isle of Man = meeples per player); see ``invariant_violations``."""
    assert any(isinstance(g.rule_state.get(r.name), ChipState) for r in g.rules)
    assert invariant_violations(g) == []
    for r in g.rules:
        st = g.rule_state[r.name]
        if isinstance(st, ChipState):
            assert sum(st.counts()) == TOTAL


def random_game(
    m: MapDef, seed: int, *, players: int = 2, check_every: int = 1, **options: Any
) -> Game:
    """A full random game (unchecked ``apply`` on legal moves), invariants checked as it goes."""
    rng = random.Random(seed)
    g = Game(m, players=players, seed=seed, options=GameOptions(**options))
    n = 0
    while not g.is_over():
        g.apply(rng.choice(g.legal_moves().list()))
        n += 1
        if n % check_every == 0:
            check_invariants(g)
    check_invariants(g)
    return g
