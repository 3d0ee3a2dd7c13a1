"""Actions of a playtest game in words, for its log; no widgets."""

from __future__ import annotations

from engine.features import KIND_NAMES
from engine.game import Game
from engine.geo.naming import PlaceNames
from engine.moves import Action, Draw, Move, Pass

_ROLE = {
    "city": "a knight in the city",
    "road": "a thief on the road",
    "field": "a farmer on the field",
    "monastery": "a monk in the monastery",
}


def describe_action(action: Action) -> str:
    """A short label for any action: its own ``describe()`` if it has one, else its text."""
    describe = getattr(action, "describe", None)
    if callable(describe):
        return str(describe())
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Draw):
        return "draw a tile"
    text = str(action).replace("_", " ")
    return text[:1].upper() + text[1:]


def _meeple_words(game: Game, move: Move) -> str:
    """``"a thief on the road (N)"`` for the meeple of a move just played."""
    o = game.board.tiles.get(move.square)
    seg = o.aliases.get(move.meeple) if o is not None and move.meeple else None
    if o is None or seg is None:
        return f"meeple on {move.meeple}"
    kind = KIND_NAMES[o.kinds[seg]]
    return f"{_ROLE.get(kind, 'a meeple on the ' + kind)} ({move.meeple})"


def describe_move(game: Game, player: int, action: Action, tile: str | None) -> str:
    """A sentence for an action just played by ``player`` (``tile``: the tile it placed)."""
    name = game.players[player]
    if isinstance(action, Move):
        x, y = action.square
        # the square for the board's coordinates, the place for the designer ("near Kassel")
        where = f" {PlaceNames(game.map).square(action.square)}" if game.map is not None else ""
        if where == f" ({x}, {y})":
            where = ""  # no name near: the coordinates say it already
        elif where.startswith(" at "):
            where = " in " + where[4:]
        text = f"{name} placed {tile} at ({x}, {y}){where}, turned {action.rotation}°"
        if action.meeple:
            text += f", {_meeple_words(game, action)}"
        return text
    if isinstance(action, Pass):
        return ""
    if isinstance(action, Draw):
        return f"{name} drew a tile"
    return f"{name}: {describe_action(action)}"
