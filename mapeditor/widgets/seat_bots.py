"""A bot, its play style and (MCTS) its strength level, for every seat or one per seat (the
balance dialog's table).

A choice is a bot spec as the engine and the command line read it
(:class:`engine.bots.spec.BotSpec`): ``greedy``, ``greedy:farmer``, ``mcts:cities``,
``mcts@4``, ``mcts:farmer@6``; the random bot has no style, only the MCTS bot a level. The
default bot's level (:data:`engine.bots.spec.DEFAULT_LEVEL`) is written without one (``mcts``),
as the command line's default: the same bot, the same games.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from engine.analysis.simulate import BOTS
from engine.bots.spec import DEFAULT_LEVEL, BotSpec
from engine.bots.styles import STYLES
from engine.errors import EngineError

__all__ = ["BotChoice", "SeatBots", "STYLE_NAMES"]

STYLE_NAMES = ["balanced", *sorted(s for s in STYLES if s != "balanced")]
MAX_SEATS = 6


class BotChoice(QWidget):
    """A bot combo box, a style combo box (off for the random bot) and a strength level 1..10
    (on for the MCTS bot only, the default bot's level preselected)."""

    changed = Signal()

    def __init__(self, bot: str = "greedy", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bot = QComboBox()
        self.bot.addItems(list(BOTS))
        self.bot.setCurrentText(bot)
        self.play_style = QComboBox()
        self.play_style.addItems(STYLE_NAMES)
        for k, name in enumerate(STYLE_NAMES):
            self.play_style.setItemData(k, STYLES[name].description, Qt.ItemDataRole.ToolTipRole)
        self.play_style.setToolTip(
            "The bot's play style: what its plan adds to the greedy evaluation"
        )
        self.level = QSpinBox(minimum=1, maximum=10, value=DEFAULT_LEVEL)
        self.level.setPrefix("level ")
        self.level.setToolTip(
            f"The MCTS bot's strength level: 1 searches almost nothing and blunders now and then, "
            f"{DEFAULT_LEVEL} is the default bot, 10 thinks four times as long (mcts@LEVEL)"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bot)
        layout.addWidget(self.play_style, 1)
        layout.addWidget(self.level)
        self.bot.currentIndexChanged.connect(self._bot_changed)
        self.play_style.currentIndexChanged.connect(self.changed)
        self.level.valueChanged.connect(self.changed)
        self._bot_changed()

    def _bot_changed(self, _index: int = 0) -> None:
        bot = self.bot.currentText()
        self.play_style.setEnabled(bot != "random")
        self.level.setEnabled(bot == "mcts")
        self.changed.emit()

    def bot_spec(self) -> BotSpec:
        """The choice as a :class:`BotSpec` (the default level as none: ``mcts``)."""
        bot, style, level = self.bot.currentText(), self.play_style.currentText(), None
        if bot == "mcts" and self.level.value() != DEFAULT_LEVEL:
            level = self.level.value()
        return BotSpec(bot, None if bot == "random" or style == "balanced" else style, level)

    def spec(self) -> str:
        """The bot spec as the command line writes it: ``greedy``, ``greedy:farmer``,
        ``mcts:cities``, ``mcts@4``, ``mcts:cities@6``."""
        return str(self.bot_spec())

    def set_spec(self, text: str) -> None:
        """Show ``text``, a bot spec (``mcts`` at the default level); a bad one is refused with
        the parser's error and nothing changes."""
        spec = BotSpec.parse(text)
        self.bot.setCurrentText(spec.name)
        self.play_style.setCurrentText(spec.style or "balanced")
        self.level.setValue(DEFAULT_LEVEL if spec.level is None else spec.level)


class SeatBots(QWidget):
    """ "A bot per seat" and, when checked, a :class:`BotChoice` per seat (as many as players):
    a mixed table, turned by one seat each game so every bot plays every seat."""

    def __init__(self, players: int = 2, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mixed = QCheckBox("A bot per seat")
        self.mixed.setToolTip(
            "A mixed table: the table turns by one seat each game, so every bot plays every seat"
        )
        self.choices = [BotChoice() for _ in range(MAX_SEATS)]
        self._labels = [QLabel(f"Seat {k + 1}") for k in range(MAX_SEATS)]
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.mixed, 0, 0, 1, 2)
        for k, (label, choice) in enumerate(zip(self._labels, self.choices, strict=True)):
            grid.addWidget(label, k + 1, 0)
            grid.addWidget(choice, k + 1, 1)
        self._players = players
        self.mixed.toggled.connect(lambda _on: self.set_players(self._players))
        self.set_players(players)

    def set_players(self, players: int) -> None:
        """Show one row per player while "a bot per seat" is checked."""
        self._players = players
        for k, (label, choice) in enumerate(zip(self._labels, self.choices, strict=True)):
            shown = self.mixed.isChecked() and k < players
            label.setVisible(shown)
            choice.setVisible(shown)

    def specs(self) -> tuple[str, ...]:
        """One bot spec per seat, or ``()`` when every seat plays the dialog's bot."""
        if not self.mixed.isChecked():
            return ()
        return tuple(c.spec() for c in self.choices[: self._players])

    def set_specs(self, specs: Sequence[str]) -> None:
        """A mixed table of ``specs`` (``()``: every seat the same bot); a bad spec is refused
        with the parser's error and nothing changes."""
        for text in specs:
            BotSpec.parse(text)
        if len(specs) > MAX_SEATS:
            raise EngineError(f"seats: {len(specs)} bots for at most {MAX_SEATS} seats")
        for choice, text in zip(self.choices, specs, strict=False):
            choice.set_spec(text)
        self.mixed.setChecked(bool(specs))
        self.set_players(self._players)
