"""The tiles-left panel: every tile still in the pile, drawn with its art and counted, and how
many open squares no tile left can fill (the board marks them while the panel is open)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QLabel, QListView, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from engine.game import Game
from mapeditor.playtest import aids
from mapeditor.tile_painter import tile_image

ICON = 56
"""Side of a tile's picture, in pixels."""


class TilesLeftPanel(QWidget):
    """``show_game`` fills it; :attr:`counts` holds what it shows (tests, tools)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel()
        self.summary.setObjectName("tiles_left_summary")
        self.summary.setWordWrap(True)
        self.tiles = QListWidget()
        self.tiles.setObjectName("tiles_left")
        self.tiles.setViewMode(QListView.ViewMode.IconMode)
        self.tiles.setIconSize(QSize(ICON, ICON))
        self.tiles.setGridSize(QSize(ICON + 18, ICON + 22))
        self.tiles.setResizeMode(QListView.ResizeMode.Adjust)
        self.tiles.setMovement(QListView.Movement.Static)
        self.tiles.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.tiles.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.summary)
        lay.addWidget(self.tiles, 1)
        self.counts: list[tuple[str, int]] = []
        self._icons: dict[str, QIcon] = {}
        self._tileset: object = None

    def show_game(self, game: Game, unfillable: int) -> None:
        counts = aids.tiles_left(game)
        self.summary.setText(
            f"{game.tiles_left()} tiles left in the pile, {len(counts)} kinds. "
            + (
                f"{unfillable} open square{'s' if unfillable != 1 else ''} no tile left can "
                "fill (✕ on the board)."
                if unfillable
                else "Every open square can still be filled."
            )
        )
        if game.tileset is not self._tileset:  # a loaded game of another map: other art
            self._tileset = game.tileset
            self._icons.clear()
            self.counts = []
        if counts == self.counts:
            return
        self.counts = counts
        self.tiles.clear()
        for tile_id, n in counts:
            icon = self._icons.get(tile_id)
            if icon is None:
                icon = QIcon(QPixmap.fromImage(tile_image(game.tileset[tile_id], 0, ICON)))
                self._icons[tile_id] = icon
            item = QListWidgetItem(icon, f"{tile_id} ×{n}")
            item.setToolTip(f"Tile {tile_id}: {n} left")
            self.tiles.addItem(item)
