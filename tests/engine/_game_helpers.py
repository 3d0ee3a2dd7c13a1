"""Small maps built in code and helpers to play scripted games on them (engine tests only)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.game import Game, GameOptions
from engine.geometry import Square
from engine.mapdef import MapDef, StartSquare
from engine.moves import Move


def make_map(rows: Sequence[str], *, start: Iterable[Square] = (), **elements: object) -> MapDef:
    """A map from row strings ('#' = map square, anything else = outside) plus elements."""
    land = {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"}
    m = MapDef(
        id="test",
        name="Test",
        width=max(len(r) for r in rows),
        height=len(rows),
        land=land,
        **elements,  # type: ignore[arg-type]
    )
    for sq in start:
        m.start_squares[sq] = StartSquare(f"start {sq}")
    return m


def scripted(
    m: MapDef | None,
    start: Square | None,
    moves: Sequence[tuple[str, Square, int, str | None]],
    *,
    start_tile: str = "B",
    players: int = 2,
    **options: object,
) -> Game:
    """A game whose draw order is the tiles of ``moves``; plays every move (checked)."""
    opts = GameOptions(
        start_squares=(start,) if start is not None else None,
        start_tile=start_tile,
        draw_order=tuple(t for t, *_ in moves),
        **options,  # type: ignore[arg-type]
    )
    g = Game(m, players=players, seed=0, options=opts)
    for tile, sq, rot, meeple in moves:
        assert g.current_tile == tile, (g.current_tile, tile)
        g.play(Move(sq, rot, meeple))
    return g
