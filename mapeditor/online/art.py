"""The board art the browsers show, drawn by the editor's own painters once per host.

The map is :func:`mapeditor.export.render_image` (the PNG export's look), each tile type
:func:`mapeditor.tile_painter.tile_image` at rotation 0 (the browser turns it), and meeple spots
the playtest board's :func:`~mapeditor.playtest.board_scene.meeple_spot`. Qt runs headless here
(``QT_QPA_PLATFORM=offscreen`` unless set), so a host needs no display.
"""

from __future__ import annotations

import os
from typing import Any

from engine import Game, MapDef

TILE_PX = 128
"""Side of a tile image (the browser scales it to the square)."""
MAP_MAX_SIDE = 4096
"""Longest side of the map image, in pixels."""
MAP_PX_PER_SQUARE = 96.0


def ensure_gui() -> Any:
    """The application's QGuiApplication (created headless if there is none)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication(["carcassonne-host"])


def _png(image: Any) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def map_png(m: MapDef) -> tuple[bytes, float]:
    """The map as a PNG and its pixels per square."""
    from mapeditor.export import render_image

    ensure_gui()
    px = min(MAP_PX_PER_SQUARE, MAP_MAX_SIDE / max(m.width, m.height, 1))
    return _png(render_image(m, px_per_square=px)), px


class TileArt:
    """PNG images of a tile set's tiles, drawn on first request and kept."""

    def __init__(self, tileset: Any) -> None:
        self.tileset = tileset
        self._png: dict[str, bytes] = {}

    def png(self, tile_id: str) -> bytes | None:
        """The image of ``tile_id``; ``None`` for an id the tile set does not have (the id comes
        from a URL: it is looked up, never used as a file name)."""
        if tile_id not in self._png:
            if tile_id not in self.tileset:
                return None
            from mapeditor.tile_painter import tile_image

            ensure_gui()
            self._png[tile_id] = _png(tile_image(self.tileset[tile_id], 0, TILE_PX))
        return self._png[tile_id]


def spot(game: Game, tile_id: str, rotation: int, location: str) -> tuple[float, float]:
    """Where a meeple on ``location`` of ``tile_id`` turned by ``rotation`` stands, as
    fractions of the square from its top-left corner."""
    key = (game.tileset[tile_id], rotation, location)
    got = _SPOTS.get(key)
    if got is None:
        got = _SPOTS[key] = _spot(game, tile_id, rotation, location)
    return got


def _spot(game: Any, tile_id: str, rotation: int, location: str) -> tuple[float, float]:
    from mapeditor.painting import SQUARE
    from mapeditor.playtest.board_scene import meeple_spot

    p = meeple_spot(game, tile_id, rotation, (0, 0), location)
    return (round(p.x() / SQUARE, 3), round(p.y() / SQUARE, 3))


_SPOTS: dict[tuple[Any, int, str], tuple[float, float]] = {}
"""Meeple spots by tile definition, rotation and location (a few thousand at most)."""
_ROLES: dict[tuple[Any, int, str], str] = {}


def spot_and_role(
    game: Game, tile_id: str, rotation: int, location: str
) -> tuple[float, float, str]:
    """:func:`spot` and the meeple's name there (``Knight``, ``Thief``, ``Farmer``, ``Monk``)."""
    key = (game.tileset[tile_id], rotation, location)
    role = _ROLES.get(key)
    if role is None:
        from mapeditor.playtest.board_scene import meeple_role

        role = _ROLES[key] = meeple_role(game, tile_id, rotation, location)[0]
    u, v = spot(game, tile_id, rotation, location)
    return u, v, role


def all_spots() -> list[tuple[str, int, str, tuple[float, float]]]:
    """Every meeple spot of the default tile set (for a worker process: finding a good spot is
    a distance transform in pure Python, about a second per tile on a loaded machine)."""
    ensure_gui()
    game = Game(None)
    out = []
    for tile in game.tileset:
        for rotation in (0, 90, 180, 270):
            for location in game.board.oriented(tile.id, rotation).aliases:
                out.append((tile.id, rotation, location, _spot(game, tile.id, rotation, location)))
    return out


def remember_spots(spots: list[tuple[str, int, str, tuple[float, float]]]) -> None:
    """Keep the spots :func:`all_spots` found, for the default tile set."""
    from engine.tiles import default_tileset

    tileset = default_tileset()
    for tile_id, rotation, location, uv in spots:
        _SPOTS.setdefault((tileset[tile_id], rotation, location), uv)
