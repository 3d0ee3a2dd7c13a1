"""Drawing land tiles from their definitions (mapeditor.tile_painter)."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QTransform

from engine.tiles import ROTATIONS, Segment, TileType, default_tileset
from mapeditor.tile_painter import (
    DEFAULT_STYLE,
    TileStyle,
    feature_anchor,
    geometry_problems,
    meeple_path,
    paint_tile,
    segment_at,
    tile_image,
)

TS = default_tileset()
ALL = list(TS)
SIZE = 128
RECT = QRectF(0, 0, SIZE, SIZE)


@pytest.fixture(autouse=True)
def _gui(qapp: object) -> None:
    """QPainter on a QImage needs a Qt GUI application."""


def render(tile: TileType, rotation: int, style: TileStyle = DEFAULT_STYLE) -> QImage:
    image = QImage(SIZE, SIZE, QImage.Format.Format_RGB32)
    image.fill(QColor("magenta"))
    painter = QPainter(image)
    paint_tile(painter, tile, rotation, RECT, style=style)
    painter.end()
    return image


def colour_at(image: QImage, x: float, y: float) -> str:
    return image.pixelColor(int(x), int(y)).name()


def near(image: QImage, x: float, y: float, colour: QColor, tol: int = 12) -> bool:
    c = image.pixelColor(int(x), int(y))
    return all(abs(a - b) <= tol for a, b in zip(c.getRgb()[:3], colour.getRgb()[:3], strict=True))


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_every_tile_renders_at_every_rotation(tile: TileType) -> None:
    for rotation in ROTATIONS:
        image = render(tile, rotation)
        # the whole rect is painted (no background left) and the painting is not blank
        corners = [(1, 1), (SIZE - 2, 1), (1, SIZE - 2), (SIZE - 2, SIZE - 2)]
        assert all(colour_at(image, x, y) != "#ff00ff" for x, y in corners)
        colours = {colour_at(image, x, y) for x in range(4, SIZE, 9) for y in range(4, SIZE, 9)}
        assert len(colours) >= 1


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_drawing_shows_exactly_the_defined_fields(tile: TileType) -> None:
    for rotation in ROTATIONS:
        assert geometry_problems(tile, rotation) == []


def test_edge_colours_follow_the_edge_letters_at_every_rotation() -> None:
    style = DEFAULT_STYLE
    expected = {"C": style.city, "R": style.road, "F": style.field}
    # a point just inside the middle of each side: N, E, S, W
    probes = [(SIZE / 2, 3), (SIZE - 4, SIZE / 2), (SIZE / 2, SIZE - 4), (3, SIZE / 2)]
    for tile in ALL:
        for rotation in ROTATIONS:
            image = render(tile, rotation)
            edges = tile.edges_at(rotation)
            for letter, (x, y) in zip(edges, probes, strict=True):
                assert near(image, x, y, expected[letter]), (tile.id, rotation, letter)


def test_pixel_checks() -> None:
    style = DEFAULT_STYLE
    assert near(render(TS["C"], 0), SIZE / 2, SIZE / 2, style.city)
    monastery = render(TS["B"], 0)
    assert near(monastery, SIZE / 2, SIZE * 0.55, style.monastery)
    assert any(near(monastery, SIZE / 2, y, style.roof) for y in range(int(SIZE * 0.36), SIZE // 2))
    u90 = render(TS["U"], 90)
    assert near(u90, SIZE / 2, 2, style.road)
    assert near(u90, SIZE - 3, SIZE / 2, style.field)
    d90 = render(TS["D"], 90)
    assert near(d90, SIZE - 6, SIZE / 2, style.city)
    assert near(d90, 6, SIZE / 2, style.field)
    # a coat of arms is drawn on C, none on G
    assert any(
        near(render(TS["C"], 0), x, y, style.shield) for x in range(SIZE) for y in range(0, SIZE, 2)
    )
    g = render(TS["G"], 0)
    assert not any(near(g, x, y, style.shield) for x in range(SIZE) for y in range(0, SIZE, 2))


def _feature_colour(seg: Segment) -> list[QColor]:
    s = DEFAULT_STYLE
    return {
        "city": [s.city],
        "road": [s.road],
        "field": [s.field],
        "monastery": [s.monastery, s.roof],
    }[seg.kind]


@pytest.mark.parametrize("tile", ALL, ids=lambda t: t.id)
def test_anchors_lie_on_their_feature(tile: TileType) -> None:
    for rotation in ROTATIONS:
        image = render(tile, rotation)
        points = []
        for i, seg in enumerate(tile.segments_at(rotation)):
            p = feature_anchor(tile, rotation, i, RECT)
            assert RECT.contains(p)
            # the anchor and its close surroundings show the feature's colour
            for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                assert any(near(image, p.x() + dx, p.y() + dy, c) for c in _feature_colour(seg)), (
                    tile.id,
                    rotation,
                    i,
                    seg.kind,
                )
            points.append(p)
        for a, b in itertools.combinations(points, 2):
            assert (a - b).manhattanLength() >= 8


def test_anchors_follow_rotation_and_rect() -> None:
    d = TS["D"]
    city = feature_anchor(d, 0, 0, RECT)
    assert city.y() < SIZE * 0.3
    turned = feature_anchor(d, 90, 0, RECT)
    assert turned.x() > SIZE * 0.7
    moved = feature_anchor(d, 90, 0, QRectF(1000, 500, 2 * SIZE, 2 * SIZE))
    assert moved.x() == pytest.approx(1000 + 2 * turned.x(), abs=0.01)
    assert moved.y() == pytest.approx(500 + 2 * turned.y(), abs=0.01)
    # the inner field of I&C H sits in the middle, between its four city caps
    inner = feature_anchor(TS["IC-H"], 0, 4, RECT)
    assert abs(inner.x() - SIZE / 2) < 8 and abs(inner.y() - SIZE / 2) < 8
    with pytest.raises(IndexError, match="tile D has segments 0..3, not 9"):
        feature_anchor(d, 0, 9, RECT)


def test_paint_tile_restores_the_painter() -> None:
    image = QImage(64, 64, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    painter.translate(3, 4)
    before = QTransform(painter.transform())
    paint_tile(painter, TS["TB-X"], 270, QRectF(0, 0, 50, 50))
    assert painter.transform() == before
    assert not painter.hasClipping()
    painter.end()


def test_style_colours_and_no_border() -> None:
    style = TileStyle(field=QColor("#000080"), border=None, markers=False)
    image = render(TS["B"], 0, style)
    assert near(image, 0, 0, style.field)
    assert near(image, 4, SIZE / 2, style.field)


def test_designer_tile_draws_too() -> None:
    tile = TileType(
        id="LAKE-2",
        name="Keep",
        jcz=(),
        expansion="lakes",
        count=1,
        edges="FCFR",
        segments=(
            Segment("city", ("E",), coats_of_arms=3),
            Segment("road", ("W",), ends="junction"),
            Segment("field", ("NL", "NR", "SL", "SR", "WL", "WR"), cities=(0,)),
        ),
    )
    for rotation in ROTATIONS:
        assert geometry_problems(tile, rotation) == []
        image = render(tile, rotation)
        assert near(image, *_side_probe(tile.edges_at(rotation).index("C")), DEFAULT_STYLE.city)


def _side_probe(side_index: int) -> tuple[float, float]:
    return [(SIZE / 2, 3), (SIZE - 4, SIZE / 2), (SIZE / 2, SIZE - 4), (3, SIZE / 2)][side_index]


def test_meeple_path() -> None:
    rect = QRectF(10, 20, 40, 40)
    path = meeple_path(rect)
    box = path.boundingRect()
    assert rect.adjusted(-0.01, -0.01, 0.01, 0.01).contains(box)
    assert box.width() > 35 and box.height() > 35
    assert path.contains(QPointF(30, 40))  # the body
    assert path.contains(QPointF(30, 27))  # the head
    assert not path.contains(QPointF(30, 59))  # between the legs
    assert not path.contains(QPointF(12, 22))  # beside the head


def test_segment_at_hits_the_feature_under_the_point() -> None:
    for tile in ALL:
        for rotation in ROTATIONS:
            for i in range(len(tile.segments)):
                p = feature_anchor(tile, rotation, i, RECT)
                assert segment_at(tile, rotation, RECT, p) == i, (tile.id, rotation, i)
    d = TS["D"]
    assert segment_at(d, 0, RECT, QPointF(SIZE / 2, 2)) == 0  # the city on N
    assert segment_at(d, 90, RECT, QPointF(SIZE - 2, SIZE / 2)) == 0  # now on E
    assert segment_at(d, 0, RECT, QPointF(SIZE / 2, SIZE - 3)) == 3  # the field below the road
    assert segment_at(TS["X"], 0, RECT, QPointF(SIZE / 2, SIZE / 2)) is None  # the village
    assert segment_at(d, 0, RECT, QPointF(SIZE + 5, 5)) is None


def test_tile_image_is_cached_for_the_default_style() -> None:
    a = tile_image(TS["D"], 90, 48)
    assert a is tile_image(TS["D"], 450, 48)
    assert a.size().width() == 48
    assert near(a, 44, 24, DEFAULT_STYLE.city)
    custom = TileStyle(city=QColor("#ff0000"))
    b = tile_image(TS["D"], 90, 48, style=custom)
    assert b is not a
    assert near(b, 44, 24, QColor("#ff0000"))
