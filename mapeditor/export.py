"""Export a map as PNG, SVG, or a true-scale PDF tiled over pages (A4 to A0, US papers), a
print-shop sheet or a chip sheet; print it the same way.

The page tiling is pure maths (:func:`layout_pages`, :func:`crop_marks`): the board, at its real
size (``MapDef.square_size_mm``, 45 mm by default), is cut into page *tiles* that partition it
exactly. Tile edges fall on square edges whenever a square fits on the printable area, so a cut
never splits a square. Each page prints its tile plus a small *bleed* of its neighbours' content
(so a slightly crooked cut leaves no white seam), crop marks in the margin at the tile's four
corners, a label (``"Deutschland — page B3 (row B, column 3) of 4×3"``: rows are letters, columns
numbers, and ``4×3`` is columns × rows like a grid's width × height) and the names of the
neighbouring pages. The PDF starts with an assembly overview page.

Drawing is :func:`mapeditor.painting.paint_map` on a translated, scaled and clipped painter, so
exports look exactly like the editor. Uses QtGui, QtSvg and QtPrintSupport only (no widgets), so
it runs without a display (``QT_QPA_PLATFORM=offscreen``) under a ``QGuiApplication``.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from pathlib import Path

from PySide6.QtCore import QLineF, QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)

from engine.mapdef import MapDef
from mapeditor.painting import SQUARE
from mapeditor.print_painting import PrintLook, paint_print, print_look
from mapeditor.print_size import PAPERS, SAFE_ZONE_MM, board_size_mm

MM_PER_INCH = 25.4

_PAGE_SIZE_IDS = {
    "A4": QPageSize.PageSizeId.A4,
    "A3": QPageSize.PageSizeId.A3,
    "A2": QPageSize.PageSizeId.A2,
    "A1": QPageSize.PageSizeId.A1,
    "A0": QPageSize.PageSizeId.A0,
    "Letter": QPageSize.PageSizeId.Letter,
    "Legal": QPageSize.PageSizeId.Legal,
    "Tabloid": QPageSize.PageSizeId.Tabloid,
}

DEFAULT_MARGIN_MM = 12.0
"""White border on every side of a page: above common printers' unprintable 4–6 mm, and room
for the bleed, the crop marks and the label."""
DEFAULT_BLEED_MM = 3.0
"""How far a page prints past its tile into a neighbour's content."""
CROP_GAP_MM = 4.0
"""Crop marks start this far from the tile corner (beyond the bleed) ..."""
CROP_LENGTH_MM = 6.0
"""... and are this long."""
MAX_IMAGE_SIDE = 32_000
"""Largest PNG side in pixels (QImage's own limit is 32 767)."""
MAX_IMAGE_PIXELS = 400_000_000
"""Largest PNG area: 400 megapixels, about 1.6 GB of memory at 4 bytes a pixel."""


class ExportError(ValueError):
    """An export that cannot be made (unwritable file, image too large, bad option)."""


class Orientation(StrEnum):
    PORTRAIT = "portrait"
    LANDSCAPE = "landscape"


@dataclass(frozen=True)
class RectMM:
    """An axis-aligned rectangle in millimetres."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def qrect(self) -> QRectF:
        return QRectF(self.x, self.y, self.w, self.h)


Segment = tuple[float, float, float, float]
"""A line ``(x1, y1, x2, y2)`` in page millimetres."""


def row_name(row: int) -> str:
    """Spreadsheet-style row letters: 0 → ``A``, 25 → ``Z``, 26 → ``AA``."""
    name = ""
    row += 1
    while row:
        row, rem = divmod(row - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


@dataclass(frozen=True)
class PageTile:
    """One printed page of a tiled board."""

    row: int
    col: int
    map_rect: RectMM
    """The part of the board (board mm, origin at the grid's top-left) this page is for: the
    tiles of a layout partition the board exactly."""
    bleed_rect: RectMM
    """The part of the board drawn: ``map_rect`` grown by the bleed towards neighbouring pages."""
    page_rect: RectMM
    """Where ``map_rect`` sits on the paper (page mm, origin at the paper's top-left)."""

    @property
    def name(self) -> str:
        """``"B3"``: row letter, 1-based column number."""
        return f"{row_name(self.row)}{self.col + 1}"

    @property
    def offset(self) -> tuple[float, float]:
        """Add to board mm to get page mm."""
        return (self.page_rect.x - self.map_rect.x, self.page_rect.y - self.map_rect.y)


@dataclass(frozen=True)
class PageLayout:
    """A board cut into pages (see :func:`layout_pages`)."""

    paper: str
    orientation: Orientation
    page_w_mm: float
    page_h_mm: float
    margin_mm: float
    bleed_mm: float
    board_w_mm: float
    board_h_mm: float
    rows: int
    cols: int
    tiles: tuple[PageTile, ...]
    """Row by row, left to right (every cell of the grid, printed or not)."""
    skipped: frozenset[str] = frozenset()
    """Names of pages left out because they hold no map square (only sea or outside)."""

    @property
    def printed_tiles(self) -> tuple[PageTile, ...]:
        """The pages printed, row by row."""
        return tuple(t for t in self.tiles if t.name not in self.skipped)

    @property
    def page_count(self) -> int:
        """Tile pages printed (the PDF adds one assembly overview page)."""
        return len(self.tiles) - len(self.skipped)

    def tile(self, row: int, col: int) -> PageTile:
        return self.tiles[row * self.cols + col]

    def label(self, tile: PageTile, map_name: str) -> str:
        """``"Deutschland — page B3 (row B, column 3) of 4×3"`` (columns × rows)."""
        return (
            f"{map_name} — page {tile.name} (row {row_name(tile.row)}, column {tile.col + 1})"
            f" of {self.cols}×{self.rows}"
        )

    def neighbours(self, tile: PageTile) -> dict[str, PageTile]:
        """The pages glued to ``tile`` on each side (``"N"``, ``"E"``, ``"S"``, ``"W"``)."""
        out: dict[str, PageTile] = {}
        for side, (dr, dc) in {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}.items():
            r, c = tile.row + dr, tile.col + dc
            if 0 <= r < self.rows and 0 <= c < self.cols:
                other = self.tile(r, c)
                if other.name not in self.skipped:
                    out[side] = other
        return out


def _cells(length: float, usable: float, snap: float | None) -> tuple[float, int]:
    """Tile length along one axis and how many tiles cover ``length``."""
    step = usable
    if snap is not None and snap <= usable:
        step = math.floor(usable / snap + 1e-9) * float(snap)
    count = max(1, math.ceil(length / step - 1e-9))
    return step, count


def layout_pages(
    board_w_mm: float,
    board_h_mm: float,
    *,
    paper: str = "A4",
    orientation: Orientation | str | None = None,
    margin_mm: float = DEFAULT_MARGIN_MM,
    bleed_mm: float = DEFAULT_BLEED_MM,
    square_mm: float | None = None,
    paper_size_mm: tuple[float, float] | None = None,
) -> PageLayout:
    """Cut a ``board_w_mm`` × ``board_h_mm`` board into pages.

    :param paper: a name from :data:`PAPERS` (or any name when ``paper_size_mm`` gives the size).
    :param orientation: ``None`` picks the orientation needing fewer pages (portrait on a tie).
    :param square_mm: when given, tile edges fall on multiples of it (whole squares per page)
        as long as one square fits on the printable area.
    :raises ExportError: for an unknown paper, or margins leaving no printable area.

    >>> lay = layout_pages(13 * 45, 17 * 45, paper="A4", square_mm=45)
    >>> lay.orientation.value, lay.cols, lay.rows, lay.tiles[0].map_rect
    ('portrait', 4, 3, RectMM(x=0.0, y=0.0, w=180.0, h=270.0))
    """
    if paper_size_mm is None:
        if paper not in PAPERS:
            raise ExportError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)}")
        paper_size_mm = PAPERS[paper]
    if board_w_mm <= 0 or board_h_mm <= 0:
        raise ExportError(f"empty board ({board_w_mm:g} × {board_h_mm:g} mm)")
    if not 0 <= bleed_mm < margin_mm:
        raise ExportError(f"bleed {bleed_mm:g} mm must be at least 0 and below the margin")
    short, long_ = sorted(paper_size_mm)
    options = []
    for orient in (Orientation.PORTRAIT, Orientation.LANDSCAPE):
        if orientation is not None and Orientation(orientation) is not orient:
            continue
        pw, ph = (short, long_) if orient is Orientation.PORTRAIT else (long_, short)
        uw, uh = pw - 2 * margin_mm, ph - 2 * margin_mm
        if uw <= 0 or uh <= 0:
            raise ExportError(f"margins of {margin_mm:g} mm leave no room on {paper}")
        step_w, cols = _cells(board_w_mm, uw, square_mm)
        step_h, rows = _cells(board_h_mm, uh, square_mm)
        options.append((cols * rows, orient, pw, ph, step_w, step_h, cols, rows))
    # min() keeps the first of equal counts: portrait wins a tie.
    _, orient, pw, ph, step_w, step_h, cols, rows = min(options, key=lambda o: o[0])
    # A full tile sits centred on the paper (whole squares rarely fill the printable area); a
    # partial last tile keeps the same top-left corner, so every page is cut the same way.
    left, top = (pw - step_w) / 2, (ph - step_h) / 2
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x, y = float(c * step_w), float(r * step_h)
            mr = RectMM(x, y, min(step_w, board_w_mm - x), min(step_h, board_h_mm - y))
            # Bleed only towards a neighbouring page: the board's own outline stays crisp.
            bx0 = max(0.0, mr.x - bleed_mm) if c > 0 else mr.x
            by0 = max(0.0, mr.y - bleed_mm) if r > 0 else mr.y
            bx1 = min(board_w_mm, mr.right + bleed_mm) if c < cols - 1 else mr.right
            by1 = min(board_h_mm, mr.bottom + bleed_mm) if r < rows - 1 else mr.bottom
            tiles.append(
                PageTile(
                    row=r,
                    col=c,
                    map_rect=mr,
                    bleed_rect=RectMM(bx0, by0, bx1 - bx0, by1 - by0),
                    page_rect=RectMM(left, top, mr.w, mr.h),
                )
            )
    return PageLayout(
        paper=paper,
        orientation=orient,
        page_w_mm=pw,
        page_h_mm=ph,
        margin_mm=margin_mm,
        bleed_mm=bleed_mm,
        board_w_mm=board_w_mm,
        board_h_mm=board_h_mm,
        rows=rows,
        cols=cols,
        tiles=tuple(tiles),
    )


def crop_marks(
    rect: RectMM, *, gap_mm: float = CROP_GAP_MM, length_mm: float = CROP_LENGTH_MM
) -> list[Segment]:
    """Eight lines in the margin continuing the four sides of ``rect`` beyond its corners.

    Each corner gets a horizontal and a vertical mark on the lines of the cut, starting
    ``gap_mm`` away from the corner (clear of the bleed) and ``length_mm`` long.

    >>> crop_marks(RectMM(10, 10, 100, 50))[:2]
    [(6.0, 10, 0.0, 10), (10, 6.0, 10, 0.0)]
    """
    out: list[Segment] = []
    for cx, sx in ((rect.x, -1), (rect.right, 1)):
        for cy, sy in ((rect.y, -1), (rect.bottom, 1)):
            out.append((cx + sx * gap_mm, cy, cx + sx * (gap_mm + length_mm), cy))
            out.append((cx, cy + sy * gap_mm, cx, cy + sy * (gap_mm + length_mm)))
    return out


# -- drawing -----------------------------------------------------------------------------------


def _paint_board(
    painter: QPainter,
    m: MapDef,
    px_per_square: float,
    region_squares: QRectF | None = None,
    look: PrintLook | None = None,
) -> None:
    """Draw ``m``'s print (:mod:`mapeditor.print_painting`) with one square = ``px_per_square``
    painter units, origin at the grid corner; ``look`` is :func:`print_look` of ``m`` (worked out
    here when not given)."""
    painter.save()
    k = px_per_square / SQUARE
    painter.scale(k, k)
    region = None
    if region_squares is not None:
        region = QRectF(
            region_squares.x() * SQUARE,
            region_squares.y() * SQUARE,
            region_squares.width() * SQUARE,
            region_squares.height() * SQUARE,
        )
        painter.setClipRect(region, Qt.ClipOperation.IntersectClip)
    paint_print(painter, m, look or print_look(m), region=region)
    painter.restore()


def _check_writable(path: Path) -> None:
    parent = path.resolve().parent
    if not parent.is_dir():
        raise ExportError(f"{path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ExportError(f"{path}: folder {parent} is not writable")


def png_size(m: MapDef, *, px_per_square: float) -> QSize:
    return QSize(max(1, round(m.width * px_per_square)), max(1, round(m.height * px_per_square)))


def px_per_square_for_dpi(m: MapDef, dpi: float) -> float:
    """Pixels per square for a true-scale image at ``dpi``."""
    return dpi * m.square_size_mm / MM_PER_INCH


def render_image(m: MapDef, *, px_per_square: float = 64.0) -> QImage:
    """The whole board as an ARGB image (transparent outside the drawing)."""
    if px_per_square <= 0:
        raise ExportError(f"pixels per square must be positive, got {px_per_square:g}")
    size = png_size(m, px_per_square=px_per_square)
    if max(size.width(), size.height()) > MAX_IMAGE_SIDE or (
        size.width() * size.height() > MAX_IMAGE_PIXELS
    ):
        raise ExportError(
            f"a {size.width()}×{size.height()} px image is too large: "
            f"lower the pixels per square (now {px_per_square:g}) or the DPI"
        )
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    _paint_board(painter, m, px_per_square)
    painter.end()
    return image


def export_png(
    m: MapDef,
    path: str | os.PathLike[str],
    *,
    px_per_square: float | None = None,
    dpi: float | None = None,
) -> QSize:
    """Write a PNG. Give ``px_per_square`` (default 64) or ``dpi`` (true scale at that resolution);
    with ``dpi`` the file also records it, so image viewers print it at true size.

    :returns: the image size.
    """
    path = Path(path)
    _check_writable(path)
    if dpi is not None:
        if dpi <= 0:
            raise ExportError(f"DPI must be positive, got {dpi:g}")
        px_per_square = px_per_square_for_dpi(m, dpi)
    image = render_image(m, px_per_square=px_per_square or 64.0)
    if dpi is not None:
        dots_per_metre = round(dpi / MM_PER_INCH * 1000)
        image.setDotsPerMeterX(dots_per_metre)
        image.setDotsPerMeterY(dots_per_metre)
    # PySide6 6.11's stub types the format as bytes, but the binding accepts only str
    if not image.save(str(path), "PNG"):  # type: ignore[call-overload]
        raise ExportError(f"{path}: could not write the PNG")
    return image.size()


SVG_PX_PER_MM = 10
"""SVG drawing units per millimetre (the file's width/height are in true-scale mm)."""


def export_svg(m: MapDef, path: str | os.PathLike[str]) -> tuple[float, float]:
    """Write an SVG whose ``width``/``height`` are the board's true size in mm.

    :returns: ``(width_mm, height_mm)``.
    """
    from PySide6.QtSvg import QSvgGenerator  # noqa: PLC0415  (only needed here)

    path = Path(path)
    _check_writable(path)
    w_mm, h_mm = m.width * m.square_size_mm, m.height * m.square_size_mm
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setTitle(m.name or m.id)
    gen.setDescription(f"{m.name} — Carcassonne Maps board, {m.square_size_mm:g} mm squares")
    # Qt writes width/height in mm from size / resolution: 254 dpi = 10 units per mm.
    gen.setResolution(round(SVG_PX_PER_MM * MM_PER_INCH))
    size = QSize(round(w_mm * SVG_PX_PER_MM), round(h_mm * SVG_PX_PER_MM))
    gen.setSize(size)
    gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
    painter = QPainter()
    if not painter.begin(gen):
        raise ExportError(f"{path}: could not write the SVG")
    _paint_board(painter, m, m.square_size_mm * SVG_PX_PER_MM)
    painter.end()
    return (w_mm, h_mm)


# -- pages (PDF and printer) -------------------------------------------------------------------

_INK = QColor(0, 0, 0)
_GREY = QColor(90, 90, 90)


def layout_for(m: MapDef, *, paper: str = "A4", **kwargs: object) -> PageLayout:
    """:func:`layout_pages` for a map at its true size, tiles snapped to whole squares; pages
    holding no map square (only sea or outside) are left out (:attr:`PageLayout.skipped`)."""
    sq = m.square_size_mm
    lay = layout_pages(m.width * sq, m.height * sq, paper=paper, square_mm=sq, **kwargs)  # type: ignore[arg-type]
    skipped = frozenset(t.name for t in lay.tiles) - _tiles_with_land(lay, m)
    if len(skipped) == len(lay.tiles):
        skipped = frozenset()  # a map without squares still prints its grid
    return dataclasses.replace(lay, skipped=skipped)


def _tiles_with_land(lay: PageLayout, m: MapDef) -> set[str]:
    """Names of the pages holding a map square (wholly or partly): each column and row of
    squares knows the page columns and rows it overlaps, so the work follows the map's squares,
    not pages × squares."""
    sq = m.square_size_mm
    eps = 1e-6

    def spans(count: int, step: float, pages: int) -> list[range]:
        out = []
        for i in range(count):
            first = math.floor(i * sq / step + eps)
            last = max(first, math.floor((i + 1) * sq / step - eps))
            out.append(range(min(first, pages - 1), min(last, pages - 1) + 1))
        return out

    cols = spans(m.width, lay.tiles[1].map_rect.x if lay.cols > 1 else math.inf, lay.cols)
    rows = spans(m.height, lay.tile(1, 0).map_rect.y if lay.rows > 1 else math.inf, lay.rows)
    if all(len(c) == 1 for c in cols) and all(len(r) == 1 for r in rows):
        cells = {(rows[y][0], cols[x][0]) for x, y in m.land if m.in_grid((x, y))}
    else:
        cells = {(r, c) for x, y in m.land if m.in_grid((x, y)) for r in rows[y] for c in cols[x]}
    return {lay.tile(r, c).name for r, c in cells}


def tile_squares(tile: PageTile, square_mm: float) -> set[tuple[int, int]]:
    """The squares a page's part of the board covers (wholly or partly)."""
    r = tile.map_rect
    eps = 1e-6
    xs = range(math.floor(r.x / square_mm + eps), math.ceil((r.x + r.w) / square_mm - eps))
    ys = range(math.floor(r.y / square_mm + eps), math.ceil((r.y + r.h) / square_mm - eps))
    return {(x, y) for y in ys for x in xs}


def _font(painter: QPainter, size_mm: float, *, bold: bool = False) -> None:
    font = QFont("DejaVu Sans")
    # The painter works in mm; a pixel size in painter units is a size in mm.
    font.setPixelSize(max(1, round(size_mm * 10)))
    font.setBold(bold)
    painter.setFont(font)


def _text(
    painter: QPainter,
    rect: QRectF,
    flags: Qt.AlignmentFlag,
    text: str,
    size_mm: float,
    *,
    bold: bool = False,
    knockout: bool = False,
) -> None:
    """Draw ``text`` in ``rect`` (page mm); ``knockout`` clears a white box behind it first, so
    a crop mark that runs into a label never makes it unreadable."""
    # Fonts get integer pixel sizes, so draw at 10× and scale down for 0.1 mm precision.
    painter.save()
    _font(painter, size_mm, bold=bold)
    painter.scale(0.1, 0.1)
    r = QRectF(rect.x() * 10, rect.y() * 10, rect.width() * 10, rect.height() * 10)
    if knockout:
        box = painter.boundingRect(r, int(flags), text).adjusted(-8, -2, 8, 2)
        painter.fillRect(box, QColor(255, 255, 255))
    painter.drawText(r, int(flags), text)
    painter.restore()


def _paint_tile_page(
    painter: QPainter, m: MapDef, lay: PageLayout, tile: PageTile, look: PrintLook
) -> None:
    """One tile page, painter in page mm."""
    ox, oy = tile.offset
    painter.save()
    painter.translate(ox, oy)
    b = tile.bleed_rect
    sq = m.square_size_mm
    painter.setClipRect(b.qrect())
    _paint_board(painter, m, sq, QRectF(b.x / sq, b.y / sq, b.w / sq, b.h / sq), look)
    painter.restore()

    pen = QPen(_INK, 0.25)
    painter.setPen(pen)
    for x1, y1, x2, y2 in crop_marks(tile.page_rect, gap_mm=lay.bleed_mm + 1.0):
        painter.drawLine(QLineF(x1, y1, x2, y2))

    pr = tile.page_rect
    band = lay.bleed_mm + 1.0
    # Top margin: the label, then (nearest the cut) the page to glue above; bottom margin: the
    # page to glue below, then printing advice. Both stay clear of the crop marks' corners.
    _text(
        painter,
        QRectF(0, max(0.5, pr.y - band - 7.0), lay.page_w_mm, 3.6),
        Qt.AlignmentFlag.AlignCenter,
        lay.label(tile, m.name or m.id),
        3.0,
        bold=True,
        knockout=True,
    )
    foot = (
        f"Print at 100 % (no “fit to page”): squares are {sq:g} mm. "
        "Cut on the crop marks and butt the pages together."
    )
    _text(
        painter,
        QRectF(0, pr.bottom + band + 3.4, lay.page_w_mm, 3.0),
        Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
        foot,
        2.2,
        knockout=True,
    )
    # Which page goes next to each side, written in the margin at the middle of that side.
    painter.setPen(QPen(_GREY, 0.25))
    for side, other in lay.neighbours(tile).items():
        text = {"N": "▲ ", "E": "▶ ", "S": "▼ ", "W": "◀ "}[side] + other.name
        if side in ("N", "S"):
            y = pr.y - band - 3.3 if side == "N" else pr.bottom + band
            _text(
                painter,
                QRectF(pr.x + pr.w / 2 - 20, y, 40, 3.3),
                Qt.AlignmentFlag.AlignCenter,
                text,
                2.6,
                bold=True,
            )
        else:
            painter.save()
            x = pr.x - band - 2.5 if side == "W" else pr.right + band + 2.5
            painter.translate(x, pr.y + pr.h / 2)
            painter.rotate(-90 if side == "W" else 90)
            _text(
                painter, QRectF(-20, -2, 40, 4), Qt.AlignmentFlag.AlignCenter, text, 2.6, bold=True
            )
            painter.restore()


def _paint_overview_page(painter: QPainter, m: MapDef, lay: PageLayout, look: PrintLook) -> None:
    """The assembly overview: the whole board scaled to the page, with the page grid over it."""
    margin = lay.margin_mm
    name = m.name or m.id
    _text(
        painter,
        QRectF(margin, margin, lay.page_w_mm - 2 * margin, 8),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        f"{name} — assembly overview",
        6.0,
        bold=True,
    )
    sq = m.square_size_mm
    left_out = f" ({len(lay.skipped)} pages without map squares left out)" if lay.skipped else ""
    info = (
        f"{lay.page_count} pages of {lay.paper} {lay.orientation.value} after this one"
        f"{left_out} · board {lay.board_w_mm / 10:g} × {lay.board_h_mm / 10:g} cm"
        f" · {m.width}×{m.height} squares of {sq:g} mm · print at 100 %"
    )
    _text(
        painter,
        QRectF(margin, margin + 9, lay.page_w_mm - 2 * margin, 9),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
        info,
        3.0,
    )
    board, headers = overview_frame(lay)
    k = board.w / lay.board_w_mm
    painter.save()
    painter.translate(board.x, board.y)
    painter.setClipRect(QRectF(0, 0, board.w, board.h))
    _paint_board(painter, m, sq * k, look=look)
    painter.restore()
    painter.save()
    painter.translate(board.x, board.y)
    painter.setPen(QPen(QColor(200, 0, 40), 0.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for t in lay.printed_tiles:
        painter.drawRect(
            QRectF(t.map_rect.x * k, t.map_rect.y * k, t.map_rect.w * k, t.map_rect.h * k)
        )
    painter.restore()
    painter.setPen(QPen(QColor(200, 0, 40), 0.3))
    for rect, text in headers:
        _text(painter, rect.qrect(), Qt.AlignmentFlag.AlignCenter, text, 3.6, bold=True)


OVERVIEW_HEADER_MM = 7.0
"""Room beside the overview's board for the page columns' numbers and rows' letters."""


def overview_frame(lay: PageLayout) -> tuple[RectMM, list[tuple[RectMM, str]]]:
    """Where the overview page draws the board (page mm), and its page headers: each column's
    number above the board, each row's letter left of it, like a spreadsheet, so no page name
    covers the map (page B2 is row B, column 2)."""
    margin = lay.margin_mm
    top = margin + 20 + OVERVIEW_HEADER_MM
    left = margin + OVERVIEW_HEADER_MM
    avail_w, avail_h = lay.page_w_mm - margin - left, lay.page_h_mm - top - margin
    k = min(avail_w / lay.board_w_mm, avail_h / lay.board_h_mm)
    board = RectMM(
        left + (avail_w - lay.board_w_mm * k) / 2, top, lay.board_w_mm * k, lay.board_h_mm * k
    )
    headers: list[tuple[RectMM, str]] = []
    for c in range(lay.cols):
        t = lay.tile(0, c)
        x = board.x + t.map_rect.x * k
        headers.append(
            (
                RectMM(x, board.y - OVERVIEW_HEADER_MM, t.map_rect.w * k, OVERVIEW_HEADER_MM - 1),
                str(c + 1),
            )
        )
    for r in range(lay.rows):
        t = lay.tile(r, 0)
        y = board.y + t.map_rect.y * k
        headers.append(
            (
                RectMM(board.x - OVERVIEW_HEADER_MM, y, OVERVIEW_HEADER_MM - 1, t.map_rect.h * k),
                row_name(r),
            )
        )
    return board, headers


def pages(
    m: MapDef, lay: PageLayout, *, overview: bool = True
) -> Iterator[Callable[[QPainter], None]]:
    """One painting function per page, in print order (overview first)."""
    look = print_look(m)
    if overview:
        yield partial(_paint_overview_page, m=m, lay=lay, look=look)
    for tile in lay.printed_tiles:
        yield partial(_paint_tile_page, m=m, lay=lay, tile=tile, look=look)


def paint_pages(
    device: QPagedPaintDevice, m: MapDef, lay: PageLayout, *, overview: bool = True
) -> int:
    """Paint every page on ``device`` (a :class:`QPdfWriter` or ``QPrinter`` whose page layout has
    zero margins, so the painter's origin is the paper corner). :returns: pages painted."""
    painter = QPainter()
    if not painter.begin(device):
        raise ExportError("could not start painting on the output device")
    dpi = device.logicalDpiX()
    count = 0
    try:
        for index, paint in enumerate(pages(m, lay, overview=overview)):
            if index:
                device.newPage()
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            painter.scale(dpi / MM_PER_INCH, dpi / MM_PER_INCH)
            paint(painter)
            painter.restore()
            count += 1
    finally:
        painter.end()
    return count


def render_page(m: MapDef, lay: PageLayout, index: int, *, dpi: float = 50.0) -> QImage:
    """Page ``index`` (0 = the overview when ``overview``) as a white image at ``dpi``: the same
    painting as the PDF, for previews, screenshots and tests of the true scale."""
    painters = list(pages(m, lay))
    if not 0 <= index < len(painters):
        raise ExportError(f"page {index + 1} does not exist (the layout has {len(painters)})")
    k = dpi / MM_PER_INCH
    image = QImage(round(lay.page_w_mm * k), round(lay.page_h_mm * k), QImage.Format.Format_RGB32)
    image.fill(QColor(255, 255, 255))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.scale(k, k)
    painters[index](painter)
    painter.end()
    return image


def page_layout_of_paper(
    paper: str, orientation: Orientation = Orientation.PORTRAIT
) -> QPageLayout:
    """The Qt page layout of a paper from :data:`PAPERS`, zero margins."""
    w, h = PAPERS[paper]
    return page_layout_of(
        layout_pages(
            w - 2 * DEFAULT_MARGIN_MM,
            h - 2 * DEFAULT_MARGIN_MM,
            paper=paper,
            orientation=orientation,
        )
    )


def page_layout_of(lay: PageLayout) -> QPageLayout:
    """The Qt page layout (paper, orientation, zero margins) matching ``lay``."""
    size_id = _PAGE_SIZE_IDS.get(lay.paper)
    if size_id is not None:
        size = QPageSize(size_id)
    else:
        short, long_ = sorted((lay.page_w_mm, lay.page_h_mm))
        size = QPageSize(QSizeF(short, long_), QPageSize.Unit.Millimeter, lay.paper)
    orient = (
        QPageLayout.Orientation.Portrait
        if lay.orientation is Orientation.PORTRAIT
        else QPageLayout.Orientation.Landscape
    )
    return QPageLayout(size, orient, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)


def export_pdf(
    m: MapDef,
    path: str | os.PathLike[str],
    *,
    paper: str = "A4",
    orientation: Orientation | str | None = None,
    overview: bool = True,
) -> PageLayout:
    """Write a true-scale PDF: an assembly overview page, then one page per tile.

    :returns: the layout used (``page_count + 1`` pages with the overview).
    """
    path = Path(path)
    _check_writable(path)
    lay = layout_for(m, paper=paper, orientation=orientation)
    writer = QPdfWriter(str(path))
    writer.setTitle(f"{m.name or m.id} — true-scale print")
    writer.setCreator("Carcassonne Maps Studio")
    writer.setResolution(600)
    writer.setPageLayout(page_layout_of(lay))
    paint_pages(writer, m, lay, overview=overview)
    del writer  # flushes and closes the file
    if not path.is_file():
        raise ExportError(f"{path}: could not write the PDF")
    return lay


def size_summary(m: MapDef, papers: tuple[str, ...] = ("A4", "A3")) -> str:
    """The board's printed size and what printing it takes, in one line: ``"72 × 94.5 cm
    (16 × 21 squares of 45 mm) · 16 pages of A4, 8 of A3"``."""
    w, h = board_size_mm(m)
    size = f"{w / 10:g} × {h / 10:g} cm ({m.width} × {m.height} squares of {m.square_size_mm:g} mm)"
    counts = [f"{layout_for(m, paper=p).page_count} of {p}" for p in papers]
    if not counts:
        return size
    counts[0] = counts[0].replace(" of ", " pages of ", 1)
    return f"{size} · {', '.join(counts)}"


# -- print shop --------------------------------------------------------------------------------

PRINT_SHOP_BLEED_MM = 3.0
"""Print shops ask for artwork 3 mm past the trim on every side."""


def _mirrored_bleed(
    painter: QPainter, w: float, h: float, bleed: float, paint: Callable[[], None]
) -> None:
    """Paint the 8 bleed strips around a ``w`` × ``h`` board (origin at its corner) with the
    board mirrored across the trim: the edge's colours run on past the cut, seamlessly."""
    for fx in (-1, 0, 1):
        for fy in (-1, 0, 1):
            if fx == fy == 0:
                continue
            strip = QRectF(
                -bleed if fx < 0 else (w if fx > 0 else 0),
                -bleed if fy < 0 else (h if fy > 0 else 0),
                bleed if fx else w,
                bleed if fy else h,
            )
            painter.save()
            painter.setClipRect(strip)
            # Reflect about x = 0 (x = w) and y = 0 (y = h) for the strips on those sides.
            painter.translate(2 * w if fx > 0 else 0, 2 * h if fy > 0 else 0)
            painter.scale(-1 if fx else 1, -1 if fy else 1)
            paint()
            painter.restore()


def paint_print_shop_sheet(
    painter: QPainter,
    m: MapDef,
    *,
    bleed_mm: float = PRINT_SHOP_BLEED_MM,
    safe_mm: float = SAFE_ZONE_MM,
    guides: bool = False,
    look: PrintLook | None = None,
) -> None:
    """The whole board at true scale on one sheet of the board's size plus ``bleed_mm`` all
    round, painter in sheet mm. ``guides`` draws the trim (cyan) and the safe zone (magenta)
    for a proof; the print shop's file goes without."""
    w, h = board_size_mm(m)
    look = look or print_look(m)
    painter.save()
    painter.translate(bleed_mm, bleed_mm)

    def board() -> None:
        _paint_board(painter, m, m.square_size_mm, look=look)

    board()
    _mirrored_bleed(painter, w, h, bleed_mm, board)
    if guides:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(0, 170, 220), 0.3))
        painter.drawRect(QRectF(0, 0, w, h))
        painter.setPen(QPen(QColor(220, 0, 160), 0.3, Qt.PenStyle.DashLine))
        painter.drawRect(QRectF(safe_mm, safe_mm, w - 2 * safe_mm, h - 2 * safe_mm))
    painter.restore()


def export_print_shop_pdf(
    m: MapDef,
    path: str | os.PathLike[str],
    *,
    bleed_mm: float = PRINT_SHOP_BLEED_MM,
    guides: bool = False,
) -> tuple[float, float]:
    """One true-scale sheet for a print shop: the board plus ``bleed_mm`` on every side (the
    bleed mirrors the board's edge), everything printed kept inside the safe zone
    (:data:`SAFE_ZONE_MM` within the trim). :returns: the sheet's size in mm."""
    path = Path(path)
    _check_writable(path)
    if not 0 <= bleed_mm <= 20:
        raise ExportError(f"bleed {bleed_mm:g} mm: give 0 to 20 mm")
    w, h = board_size_mm(m)
    sheet = (w + 2 * bleed_mm, h + 2 * bleed_mm)
    writer = QPdfWriter(str(path))
    writer.setTitle(f"{m.name or m.id} — print-shop sheet, {bleed_mm:g} mm bleed")
    writer.setCreator("Carcassonne Maps Studio")
    writer.setResolution(300)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QSizeF(*sheet), QPageSize.Unit.Millimeter, "board"),
            QPageLayout.Orientation.Portrait,
            QMarginsF(0, 0, 0, 0),
            QPageLayout.Unit.Millimeter,
        )
    )
    painter = QPainter()
    if not painter.begin(writer):
        raise ExportError(f"{path}: could not write the PDF")
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    k = writer.logicalDpiX() / MM_PER_INCH
    painter.scale(k, k)
    paint_print_shop_sheet(painter, m, bleed_mm=bleed_mm, guides=guides)
    painter.end()
    del writer
    if not path.is_file():
        raise ExportError(f"{path}: could not write the PDF")
    return sheet
