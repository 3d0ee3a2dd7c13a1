"""The playtest board: the map drawn as in the editor, placed tiles drawn from their definitions,
meeples, chips, island stacks, treats and the Isle of Man, plus the placement overlay.

Layers, so that a hover or an action repaints little: :class:`_MapItem` (the printed map, cached
as a device pixmap), one :class:`_PieceItem` per piece on the board (tiles, meeples, chips,
stacks; an action adds and removes only the pieces it changed) and :class:`_OverlayItem`
(fitting squares, the tile under the mouse, meeple spots).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from engine.game import Game
from engine.geometry import Square
from engine.mapdef import MapDef
from mapeditor.painting import COLOURS, SQUARE, PaintOptions, map_rect, paint_map, square_rect
from mapeditor.playtest import rule_view
from mapeditor.tile_painter import feature_anchor, meeple_path, tile_image

MEEPLE = 0.34
"""Meeple size as a fraction of a square."""
SPOT_RADIUS = 0.16
"""Radius of a clickable meeple spot, as a fraction of a square."""

MEEPLE_ROLES = {
    "city": "Knight",
    "road": "Thief",
    "field": "Farmer",
    "monastery": "Monk",
}
"""What a meeple on each kind of feature is called (the spot's label)."""


CALLOUT_RADIUS = 1.02
"""How far from the tile's centre the labelled meeple targets sit (squares): just outside it."""
CALLOUT_SIZE = (0.92, 0.3)
"""A meeple target's width and height (squares): large enough to hit, room for its name."""


def callout_positions(square: Square, anchors: dict[str, QPointF]) -> dict[str, QPointF]:
    """Where each meeple location's labelled target goes: around the tile, in the direction of
    its feature, spread evenly so that no two overlap (a leader line joins it to the feature)."""
    if not anchors:
        return {}
    c = square_rect(square).center()
    angle = {
        loc: math.atan2(p.y() - c.y(), p.x() - c.x())
        if (p - c).manhattanLength() > 2
        else math.pi / 2
        for loc, p in anchors.items()
    }
    order = sorted(anchors, key=lambda loc: angle[loc])
    n = len(order)
    step = 2 * math.pi / n
    # the rotation of an even spread that best keeps every target on its feature's side
    offset = math.atan2(
        sum(math.sin(angle[loc] - i * step) for i, loc in enumerate(order)),
        sum(math.cos(angle[loc] - i * step) for i, loc in enumerate(order)),
    )
    r = CALLOUT_RADIUS * SQUARE
    out = {}
    for i, loc in enumerate(order):
        a = offset + i * step
        # an ellipse, wider than tall: the targets are wider than tall
        out[loc] = QPointF(c.x() + math.cos(a) * r * 1.15, c.y() + math.sin(a) * r * 0.85)
    return out


def callout_rect(centre: QPointF) -> QRectF:
    w, h = CALLOUT_SIZE[0] * SQUARE, CALLOUT_SIZE[1] * SQUARE
    return QRectF(centre.x() - w / 2, centre.y() - h / 2, w, h)


def meeple_role(game: Game, tile_id: str, rotation: int, location: str) -> tuple[str, str]:
    """``("Knight", "city")``: the meeple's name and the feature kind at ``location``."""
    segment = game.board.oriented(tile_id, rotation).segment_at(location)
    assert segment is not None, f"{tile_id} has no meeple location {location}"
    kind = str(game.tileset[tile_id].segments[segment].kind)
    return MEEPLE_ROLES.get(kind, kind.title()), kind


def square_at(point: QPointF) -> Square:
    """The square under a scene point."""
    return (int(point.x() // SQUARE), int(point.y() // SQUARE))


def meeple_spot(game: Game, tile_id: str, rotation: int, square: Square, location: str) -> QPointF:
    """Scene point of the meeple location ``location`` (board orientation) of a tile on
    ``square``: the tile painter's anchor of the segment that location names."""
    segment = game.board.oriented(tile_id, rotation).segment_at(location)
    assert segment is not None, f"{tile_id} has no meeple location {location}"
    return feature_anchor(game.tileset[tile_id], rotation, segment, square_rect(square))


def _draw_tile(painter: QPainter, game: Game, tile_id: str, rotation: int, rect: QRectF) -> None:
    # Blit a cached image at the on-screen size: painting every tile on every repaint is slow.
    lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    size = max(16, min(512, round(SQUARE * lod)))
    image = tile_image(game.tileset[tile_id], rotation, size)
    painter.drawImage(rect, image)


def _draw_meeple(
    painter: QPainter, centre: QPointF, colour: QColor, *, upgraded: bool = False, scale: float = 1
) -> None:
    s = MEEPLE * SQUARE * scale
    rect = QRectF(centre.x() - s / 2, centre.y() - s / 2, s, s)
    if upgraded:
        # an upgraded meeple stands on a gold chip
        painter.setPen(QPen(QColor("#5a4300"), 1.2))
        painter.setBrush(QColor("#f5c400"))
        painter.drawEllipse(rect.adjusted(-s * 0.18, s * 0.55, s * 0.18, s * 0.3))
    painter.setPen(QPen(colour.darker(220), 1.4))
    painter.setBrush(colour)
    painter.drawPath(meeple_path(rect))


def _draw_chip(
    painter: QPainter, centre: QPointF, colour: QColor, value: int | None, *, radius: float = 0.2
) -> None:
    """A round chip: face down shows only its colour, face up its value too."""
    r = radius * SQUARE
    painter.setPen(QPen(QColor(30, 30, 30), 1.5))
    painter.setBrush(colour if value is not None else colour.darker(125))
    painter.drawEllipse(centre, r, r)
    painter.setPen(QPen(QColor(255, 255, 255, 200), 1.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(centre, r * 0.72, r * 0.72)
    if value is not None:
        f = QFont("DejaVu Sans")
        f.setPixelSize(max(1, round(r * 1.1)))
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QColor("white"))
        painter.drawText(
            QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r),
            Qt.AlignmentFlag.AlignCenter,
            str(value),
        )


def chip_colour(name: str | None) -> QColor:
    """The printed colour of a chip colour name (``purple``, ``light_blue``, ``orange``);
    a neutral chip back when the colour is hidden (``None``)."""
    for key, colour in COLOURS.items():
        if name is not None and str(getattr(key, "value", key)) == name:
            return colour
    return QColor("#8a7a62")


class _MapItem(QGraphicsItem):
    def __init__(self, m: MapDef) -> None:
        super().__init__()
        self.map = m
        self.options = PaintOptions(outside_grid=False)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return map_rect(self.map).adjusted(-2, -2, 2, 2)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        paint_map(painter, self.map, self.options)


class _PieceItem(QGraphicsItem):
    """One piece on the board (a tile, a meeple, a chip, a stack...): a rectangle and a painter
    function. Pieces are separate items so that an action repaints only what it changed."""

    def __init__(self, rect: QRectF, draw: Callable[[QPainter], None], z: float) -> None:
        super().__init__()
        self._rect = rect
        self._draw = draw
        self.setZValue(z)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._draw(painter)


PieceKey = tuple[Any, ...]


def _pieces(
    bs: BoardScene, game: Game
) -> dict[PieceKey, tuple[QRectF, Callable[..., None] | None, float]]:
    """Every piece to show, by a key that changes whenever its drawing would."""
    out: dict[PieceKey, tuple[QRectF, Callable[..., None] | None, float]] = {}
    for sq, o in game.board.tiles.items():
        r = square_rect(sq)
        out[("tile", sq, o.tile_id, o.rotation)] = (
            r,
            lambda p, r=r, t=o.tile_id, rot=o.rotation: _draw_tile(p, game, t, rot, r),
            1,
        )
    last = game.last_placement
    if last is not None and last[0] in game.board.tiles:
        r = square_rect(last[0])

        def frame(p: QPainter, r: QRectF = r) -> None:
            p.setPen(QPen(QColor(255, 255, 255, 230), 2.5))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(r.adjusted(1.5, 1.5, -1.5, -1.5))

        out[("last", last[0])] = (r, frame, 2)
    views = rule_view.pieces(game)
    for chip in views.chips:
        c = square_rect(chip.square).center()
        rad = 0.2 * SQUARE + 2
        out[("chip", chip.square, chip.colour, chip.value)] = (
            QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad),
            lambda p, c=c, col=chip.colour, v=chip.value: _draw_chip(p, c, chip_colour(col), v),
            3,
        )
    for stack in views.stacks:
        r = square_rect(stack.square)
        out[("stack", stack.square, stack.tile, stack.count)] = (
            r,
            lambda p, r=r, t=stack.tile, n=stack.count: _draw_stack(p, game, r, t, n),
            3,
        )
    for mid, (player, sq, loc, _node, _s) in game.meeples.items():
        placed = game.board.tiles.get(sq)
        if placed is None:
            continue
        upgraded = mid in views.upgraded or game.meeple_strength(mid) > 1
        key = ("meeple", mid, player, sq, loc, upgraded, bs.colour(player).name())
        if key in bs._items:
            out[key] = (bs._items[key].boundingRect(), None, 4)  # unchanged: keep its item
            continue
        spot = meeple_spot(game, placed.tile_id, placed.rotation, sq, loc)
        s = MEEPLE * SQUARE
        colour = bs.colour(player)
        out[key] = (
            QRectF(spot.x() - s, spot.y() - s, 2 * s, 2 * s),
            lambda p, c=spot, col=colour, u=upgraded: _draw_meeple(p, c, col, upgraded=u),
            4,
        )
    if views.isle_of_man is not None and views.isle_meeples:
        r = square_rect(views.isle_of_man)
        counts = tuple(sorted(views.isle_meeples.items()))
        colours = tuple(bs.colour(p).name() for p, _ in counts)
        out[("isle", counts, colours)] = (
            r,
            lambda p, r=r, counts=counts: _draw_isle(p, bs, r, counts),
            4,
        )
    return out


def _draw_stack(p: QPainter, game: Game, r: QRectF, tile: str | None, count: int) -> None:
    """An island stack: its face-up tile (if any) and how many tiles are left."""
    if tile is not None:
        _draw_tile(p, game, tile, 0, r.adjusted(5, 5, -5, -5))
    elif count:
        p.setPen(QPen(QColor(40, 40, 40), 1))
        p.setBrush(QColor("#6b4f33"))  # the back of a face-down tile
        p.drawRect(r.adjusted(8, 8, -8, -8))
    p.setPen(QPen(QColor(20, 20, 20), 1))
    p.setBrush(QColor(255, 255, 255, 225))
    badge = QRectF(r.right() - 22, r.bottom() - 16, 20, 14)
    p.drawRoundedRect(badge, 3, 3)
    f = QFont("DejaVu Sans")
    f.setPixelSize(10)
    p.setFont(f)
    p.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(count))


def _draw_isle(p: QPainter, bs: BoardScene, r: QRectF, counts: tuple[tuple[int, int], ...]) -> None:
    """The Isle of Man: one meeple per player with a count (a dozen would not fit)."""
    cols = 2 if len(counts) > 1 else 1
    rows = (len(counts) + cols - 1) // cols
    f = QFont("DejaVu Sans")
    f.setPixelSize(11)
    f.setBold(True)
    cw, ch = r.width() / cols, r.height() / rows
    for i, (player, count) in enumerate(counts):
        cell = QRectF(r.left() + (i % cols) * cw, r.top() + (i // cols) * ch, cw, ch)
        c = QPointF(cell.left() + cw * 0.35, cell.center().y())
        _draw_meeple(p, c, bs.colour(player), scale=0.75)
        badge = QRectF(cell.left() + cw * 0.58, cell.center().y() - 7, 14, 14)
        p.setPen(QPen(QColor(40, 40, 40), 1))
        p.setBrush(QColor(255, 255, 255, 235))  # the count stays readable on the printed isle
        p.drawRoundedRect(badge, 3, 3)
        p.setFont(f)
        p.setPen(QColor("black"))
        p.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(count))


@dataclass
class Overlay:
    """What the overlay shows (the window sets it, the scene draws it)."""

    fits: dict[Square, set[int]] = field(default_factory=dict)
    """Squares where the current tile fits, with the rotations that fit."""
    tile: str | None = None
    rotation: int = 0
    hover: Square | None = None
    pending: tuple[Square, int] | None = None
    """A tile put down but not yet played (the meeple step)."""
    spots: dict[str, QPointF] = field(default_factory=dict)
    """Meeple spots offered in the meeple step, by location."""
    spot_hover: str | None = None
    spot_labels: dict[str, str] = field(default_factory=dict)
    """The name shown at each meeple spot (``"Knight"``, ``"Farmer"``...)."""
    callouts: dict[str, QPointF] = field(default_factory=dict)
    """Centres of the labelled targets around the pending tile, by location."""
    targets: dict[Square, str] = field(default_factory=dict)
    """Squares a rule action can be played on (clickable), with the action's label."""
    highlight: frozenset[Square] = frozenset()
    """The squares of a feature picked out (a scoring line or a player's row under the mouse)."""
    unfillable: frozenset[Square] = frozenset()
    """Open squares no tile left can fill (marked while the tiles-left panel is open)."""

    def looks(self) -> tuple[Any, ...]:
        """What the drawing depends on: equal looks, no repaint needed."""
        shows_tile = self.pending is not None or (self.hover is not None and bool(self.fits))
        return (
            tuple(sorted((sq, tuple(sorted(r))) for sq, r in self.fits.items())),
            self.rotation if self.fits else None,
            (self.tile, self.rotation, self.hover) if shows_tile else None,
            self.pending,
            tuple(sorted((k, p.x(), p.y()) for k, p in self.spots.items())),
            tuple(sorted(self.spot_labels.items())),
            self.spot_hover,
            tuple(sorted(self.targets)),
            self.highlight,
            self.unfillable,
        )


LEGAL_FILL = QColor(20, 170, 70, 120)
LEGAL_EDGE = QColor("#0a6b2c")
"""Squares where the tile fits as turned now: green fill, dark green edge inside a white one."""
HIGHLIGHT_FILL = QColor(255, 214, 0, 110)
HIGHLIGHT_EDGE = QColor("#ff9800")
"""A feature picked out from the log or the score board: amber."""
UNFILLABLE = QColor("#c62828")


class _OverlayItem(QGraphicsItem):
    def __init__(self, scene: BoardScene) -> None:
        super().__init__()
        self.board_scene = scene
        self.setZValue(10)

    def boundingRect(self) -> QRectF:
        return self.board_scene.sceneRect()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        bs = self.board_scene
        game = bs.game
        ov = bs.overlay
        if game is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        if ov.pending is None:
            for sq, rots in ov.fits.items():
                r = square_rect(sq).adjusted(3, 3, -3, -3)
                if ov.rotation in rots:
                    # Fits as the tile is turned now: a strong fill and a double outline that
                    # stand out on the pale map squares.
                    painter.setPen(QPen(QColor("white"), 6))
                    painter.setBrush(LEGAL_FILL)
                    painter.drawRoundedRect(r, 6, 6)
                    painter.setPen(QPen(LEGAL_EDGE, 3))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawRoundedRect(r, 6, 6)
                else:
                    # Fits turned another way: dashed, lighter.
                    painter.setPen(QPen(LEGAL_EDGE, 2.5, Qt.PenStyle.DashLine))
                    painter.setBrush(QColor(255, 255, 255, 70))
                    painter.drawRoundedRect(r, 6, 6)
        for sq in ov.unfillable:
            # no tile left fits here: a red cross on a pale square
            r = square_rect(sq).adjusted(10, 10, -10, -10)
            painter.setPen(QPen(QColor(255, 255, 255, 200), 7))
            painter.drawLine(r.topLeft(), r.bottomRight())
            painter.drawLine(r.topRight(), r.bottomLeft())
            painter.setPen(QPen(UNFILLABLE, 3.5))
            painter.drawLine(r.topLeft(), r.bottomRight())
            painter.drawLine(r.topRight(), r.bottomLeft())
        if ov.highlight:
            painter.setPen(QPen(HIGHLIGHT_EDGE, 4))
            painter.setBrush(HIGHLIGHT_FILL)
            for sq in ov.highlight:
                painter.drawRect(square_rect(sq).adjusted(2, 2, -2, -2))
        for sq, _label in ov.targets.items():
            r = square_rect(sq).adjusted(6, 6, -6, -6)
            painter.setPen(QPen(QColor("#00b3b3"), 3, Qt.PenStyle.DashLine))
            painter.setBrush(QColor(0, 200, 200, 50))
            painter.drawEllipse(r)
        if ov.pending is None and ov.hover is not None and ov.tile is not None:
            sq = ov.hover
            r = square_rect(sq)
            if sq not in game.board.tiles:
                legal = ov.rotation in ov.fits.get(sq, set())
                painter.setOpacity(0.85 if legal else 0.55)
                _draw_tile(painter, game, ov.tile, ov.rotation, r)
                painter.setOpacity(1.0)
                colour = QColor("#1db954") if legal else QColor("#e0245e")
                painter.setPen(QPen(colour, 4))
                painter.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 60))
                painter.drawRect(r.adjusted(2, 2, -2, -2))
        if ov.pending is not None and ov.tile is not None:
            sq, rot = ov.pending
            r = square_rect(sq)
            _draw_tile(painter, game, ov.tile, rot, r)
            painter.setPen(QPen(QColor("#1db954"), 3))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(r.adjusted(1.5, 1.5, -1.5, -1.5))
            colour = bs.colour(game.to_move)
            font = QFont("DejaVu Sans")
            font.setPixelSize(13)
            font.setBold(True)
            painter.setFont(font)
            for loc, p in ov.spots.items():
                hot = loc == ov.spot_hover
                target = ov.callouts.get(loc)
                if target is not None:
                    # the leader line from the feature to its labelled target
                    painter.setPen(QPen(QColor("white"), 4))
                    painter.drawLine(p, target)
                    painter.setPen(QPen(QColor(20, 20, 20), 1.8))
                    painter.drawLine(p, target)
                painter.setPen(QPen(QColor("white"), 2))
                painter.setBrush(colour if hot else QColor(20, 20, 20))
                painter.drawEllipse(p, 5.5, 5.5)
                if hot:
                    _draw_meeple(painter, p, colour, scale=0.8)
                if target is None:
                    continue
                box = callout_rect(target)
                painter.setPen(QPen(QColor(20, 20, 20) if not hot else colour.darker(160), 2))
                painter.setBrush(colour if hot else QColor(255, 255, 255, 240))
                painter.drawRoundedRect(box, 7, 7)
                painter.setPen(QColor("white") if hot else QColor("black"))
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, ov.spot_labels.get(loc, loc))


class BoardScene(QGraphicsScene):
    """The board of a playtest game. ``set_game`` binds a game; ``refresh`` after it changed."""

    MARGIN = SQUARE * 0.5

    def __init__(self, m: MapDef, colours: list[QColor], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.map = m
        self.colours = colours
        self.game: Game | None = None
        self.overlay = Overlay()
        rect = map_rect(m).adjusted(-self.MARGIN, -self.MARGIN, self.MARGIN, self.MARGIN)
        self.setSceneRect(rect)
        self.setBackgroundBrush(QBrush(QColor("#5d7f95")))
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._map_item = _MapItem(m)
        self._overlay = _OverlayItem(self)
        self._items: dict[PieceKey, _PieceItem] = {}
        for item in (self._map_item, self._overlay):
            self.addItem(item)

    def set_map(self, m: MapDef) -> None:
        """Show another map (a loaded game of another map)."""
        self.map = m
        self.removeItem(self._map_item)
        self._map_item = _MapItem(m)
        self.addItem(self._map_item)
        self._map_item.setZValue(-1)
        self.setSceneRect(
            map_rect(m).adjusted(-self.MARGIN, -self.MARGIN, self.MARGIN, self.MARGIN)
        )

    def colour(self, player: int) -> QColor:
        return self.colours[player % len(self.colours)] if self.colours else QColor("red")

    def set_game(self, game: Game | None) -> None:
        self.game = game
        self.overlay = Overlay()
        for item in self._items.values():
            self.removeItem(item)
        self._items.clear()
        self.refresh()

    def refresh(self, *, overlay: bool = True) -> None:
        """Bring the pieces in line with the game (after an action): only pieces that changed
        are added or removed, so only their squares repaint. ``overlay``: repaint it too."""
        game = self.game
        wanted = _pieces(self, game) if game is not None else {}
        for key in [k for k in self._items if k not in wanted]:
            self.removeItem(self._items.pop(key))
        for key, (rect, draw, z) in wanted.items():
            if key not in self._items and draw is not None:
                item = _PieceItem(rect, draw, z)
                self._items[key] = item
                self.addItem(item)
        if overlay:
            self._overlay.update()

    def piece_keys(self) -> list[PieceKey]:
        """Keys of the pieces shown (tests, tools)."""
        return list(self._items)

    def update_overlay(self, rects: list[QRectF] | None = None) -> None:
        """Repaint the overlay, only ``rects`` when given (hover moves)."""
        if rects is None:
            self._overlay.update()
        else:
            for r in rects:
                self._overlay.update(r.adjusted(-4, -4, 4, 4))

    def spot_at(self, point: QPointF) -> str | None:
        """The offered meeple spot under a scene point (its labelled target or the feature's
        spot), if any."""
        for loc, centre in self.overlay.callouts.items():
            if callout_rect(centre).contains(point):
                return loc
        best: tuple[float, str] | None = None
        for loc, p in self.overlay.spots.items():
            d = QPointF(p - point)
            dist = (d.x() ** 2 + d.y() ** 2) ** 0.5
            if dist <= SPOT_RADIUS * SQUARE * 1.15 and (best is None or dist < best[0]):
                best = (dist, loc)
        return best[1] if best else None
