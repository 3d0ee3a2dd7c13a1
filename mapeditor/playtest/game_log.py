"""The game log: each action and each scoring event, in words."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from engine.game import Game
from engine.moves import Action, Draw, Move, Pass
from engine.scoring import ScoreEvent

_LOCATION_WORDS = {"C": "the monastery", "I": "the field"}
_KIND = {0: "city", 1: "road", 2: "field", 3: "monastery"}


def describe_action(action: Action) -> str:
    """A short label for any action: its own ``describe()`` if it has one, else its text."""
    describe = getattr(action, "describe", None)
    if callable(describe):
        return str(describe())
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Draw):
        return "draw a tile"
    return str(action).replace("_", " ")


def describe_move(game: Game, player: int, action: Action, tile: str | None) -> str:
    """A sentence for an action just played by ``player`` (``tile``: the tile it placed)."""
    name = game.players[player]
    if isinstance(action, Move):
        x, y = action.square
        text = f"{name} placed {tile} at ({x}, {y}), turned {action.rotation}°"
        if action.meeple:
            where = _LOCATION_WORDS.get(action.meeple, action.meeple)
            text += f", meeple on {where}"
        return text
    if isinstance(action, Pass):
        return ""
    if isinstance(action, Draw):
        return f"{name} drew a tile"
    return f"{name}: {describe_action(action)}"


class GameLog(QListWidget):
    """Append-only list; scoring events are indented and coloured."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)

    def add_line(self, text: str, colour: QColor | None = None) -> None:
        if not text:
            return
        item = QListWidgetItem(text)
        if colour is not None:
            item.setForeground(QBrush(colour))
        self.addItem(item)
        self.scrollToBottom()

    def add_event(self, event: ScoreEvent) -> None:
        self.add_line(f"   ★ {event.text}", QColor("#1b5e20" if event.points >= 0 else "#b00020"))

    def lines(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]
