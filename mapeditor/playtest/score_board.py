"""The score board: one row per player with score, meeples left, chips held, wines (by the
rule set's name for them) and each of the designer's resources (their names and colours).

With projected scores on, the Score column also shows what each player would have if the game
ended now; the mouse over a player's row names that player (:attr:`ScoreBoard.player_hovered`),
and the board picks out the features their meeples hold."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from engine.game import Game
from mapeditor.designer_icons import icon
from mapeditor.playtest import rule_view

COLUMNS = ("Player", "Score", "Meeples", "Chips", "Wines")


_SHORT = {"purple": "P", "light_blue": "B", "orange": "O"}


def _short(colour: str) -> str:
    return _SHORT.get(colour, colour[:1].upper())


def _chip_text(chips: list[tuple[str, int]]) -> str:
    # value 0: a chip kept face down (its colour shows, not its value)
    return " ".join(f"{_short(c)}{v or '?'}" for c, v in chips)


def _meeples_text(game: Game, player: int) -> str:
    text = f"{game.supply[player]}/{game.meeples_per_player}"
    isle = rule_view.isle_meeples(game, player)
    return f"{text} ({isle} on Man)" if isle else text


class ScoreBoard(QTableWidget):
    """Read-only table; ``show_game`` refreshes it and marks whose turn it is."""

    player_hovered = Signal(object)
    """The player whose row is under the mouse, or ``None``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setMouseTracking(True)
        self._hovered: int | None = None
        self.cellEntered.connect(lambda row, _col: self._hover(row))
        self.viewport().installEventFilter(self)
        self.setHorizontalHeaderLabels(COLUMNS)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setToolTip("Chips: P purple, B light blue, O orange, with their values")
        # Names are never cut short: the Player column fits them; the Chips column takes the
        # rest of the width and wraps a long hand onto more lines.
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        header = self.horizontalHeader()
        for c in range(len(COLUMNS)):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("Chips"), QHeaderView.ResizeMode.Stretch)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave:
            self._hover(None)
        return False

    def _hover(self, row: int | None) -> None:
        if row != self._hovered:
            self._hovered = row
            self.player_hovered.emit(row)

    def _show_headers(self, game: Game) -> list[rule_view.ResourceView]:
        """The rule set's names as headers: its wines' name, one column per resource."""
        resources = rule_view.resources(game)
        names = [*COLUMNS[:-1], rule_view.wines_title(game), *(r.name for r in resources)]
        if self.columnCount() != len(names):
            self.setColumnCount(len(names))
            header = self.horizontalHeader()
            for c in range(len(COLUMNS), len(names)):
                header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
            # the resources' columns are seen whole: the hand of chips wraps onto more lines
            chips = COLUMNS.index("Chips")
            header.setSectionResizeMode(
                chips,
                QHeaderView.ResizeMode.Stretch
                if len(names) == len(COLUMNS)
                else QHeaderView.ResizeMode.Interactive,
            )
            if len(names) > len(COLUMNS):
                self.setColumnWidth(chips, 56)
        for c, name in enumerate(names):
            title = self.horizontalHeaderItem(c) or QTableWidgetItem()
            title.setText(name)
            if c >= len(COLUMNS):
                r = resources[c - len(COLUMNS)]
                title.setIcon(icon(r.icon, r.colour))
                title.setToolTip(f"{r.name}: what each player holds")
            self.setHorizontalHeaderItem(c, title)
        # a rule set without wines has no Wines column (its resources need the room)
        self.setColumnHidden(COLUMNS.index("Wines"), not rule_view.has_wines(game))
        return resources

    def show_game(
        self,
        game: Game,
        colours: list[QColor],
        labels: list[str],
        projected: list[int] | None = None,
    ) -> None:
        """Show ``game``; ``projected``: each player's score if the game ended now, shown as
        "score → projected"."""
        n = len(game.players)
        self.setRowCount(n)
        resources = self._show_headers(game)
        for p in range(n):
            mine = p == game.decider and not game.is_over()
            chips = rule_view.chips_held(game, p)
            wines = rule_view.wines(game, p)
            cells = (
                f"{'▶ ' if mine else ''}{game.players[p]}",
                str(game.scores[p]) if projected is None else f"{game.scores[p]} → {projected[p]}",
                _meeples_text(game, p),
                _chip_text(chips) or "-",
                " ".join(_short(w) for w in wines) or "-",
                *(str(r.held[p]) if p < len(r.held) else "-" for r in resources),
            )
            for c, text in enumerate(cells):
                item = self.item(p, c)
                if item is None:
                    item = QTableWidgetItem()
                    self.setItem(p, c, item)
                item.setText(text)
                f = QFont(self.font())
                f.setBold(mine)
                item.setFont(f)
                if c == 0:
                    item.setForeground(QBrush(colours[p % len(colours)].darker(115)))
                    item.setToolTip(labels[p] if p < len(labels) else "")
        self.resizeRowsToContents()
        h = self.horizontalHeader().height() + sum(self.rowHeight(r) for r in range(n)) + 4
        self.setFixedHeight(h)
        if resources:  # the side panel widens (to its maximum) so every resource is seen
            shown = range(self.columnCount())
            w = sum(self.columnWidth(c) for c in shown if not self.isColumnHidden(c))
            self.setMinimumWidth(w + 2 * self.frameWidth())

    def headers(self) -> list[str]:
        """The columns' titles as shown (the rule set's names)."""
        items = [self.horizontalHeaderItem(c) for c in range(self.columnCount())]
        return [i.text() if i is not None else "" for i in items]

    def cell_text(self, row: int, column: str) -> str:
        """The text of one cell (``column`` by its name in :data:`COLUMNS` or as shown), for
        tests and tools."""
        shown = self.headers()
        c = COLUMNS.index(column) if column in COLUMNS else shown.index(column)
        item = self.item(row, c)
        return item.text() if item is not None else ""
