"""Export: the page-tiling maths, PNG/SVG/PDF files, and the headless command line."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtPrintSupport import QPrinter

from engine.mapdef import MapDef
from mapeditor.export import (
    PAPERS,
    ExportError,
    Orientation,
    RectMM,
    crop_marks,
    export_pdf,
    export_png,
    export_svg,
    layout_for,
    layout_pages,
    page_layout_of,
    paint_pages,
    render_page,
    row_name,
)

# -- tiling maths (pure) -----------------------------------------------------------------------


def test_row_names_are_spreadsheet_letters() -> None:
    assert [row_name(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]


def test_a4_portrait_holds_4_by_6_squares_of_45_mm() -> None:
    # A4 minus 12 mm margins = 186 × 273 mm: 4 × 6 whole 45 mm squares.
    lay = layout_pages(13 * 45, 17 * 45, paper="A4", square_mm=45)
    assert (lay.orientation, lay.cols, lay.rows, lay.page_count) == (Orientation.PORTRAIT, 4, 3, 12)
    assert (lay.page_w_mm, lay.page_h_mm) == (210, 297)
    assert lay.tile(0, 0).map_rect == RectMM(0, 0, 180, 270)
    # The last column and row hold what is left: 13 - 3*4 = 1 square, 17 - 2*6 = 5 squares.
    assert lay.tile(2, 3).map_rect == RectMM(540, 540, 45, 225)
    # A full 180 × 270 mm tile is centred on the paper: 15 mm left/right, 13.5 mm top/bottom.
    assert lay.tile(0, 0).page_rect == RectMM(15, 13.5, 180, 270)
    assert lay.tile(2, 3).page_rect == RectMM(15, 13.5, 45, 225)


def test_orientation_minimises_pages() -> None:
    # A wide board: 14 × 5 squares = 630 × 225 mm.
    # Portrait: 4 × 6 squares/page → 4 cols × 1 row = 4; landscape: 6 × 4 → 3 cols × 2 rows = 6.
    # A3 landscape (396 × 273 usable): 8 × 6 squares/page → 2 × 1 = 2 pages; portrait 6 × 8 → 3.
    assert layout_pages(630, 225, paper="A4", square_mm=45).page_count == 4
    a3 = layout_pages(630, 225, paper="A3", square_mm=45)
    assert (a3.orientation, a3.cols, a3.rows) == (Orientation.LANDSCAPE, 2, 1)
    forced = layout_pages(630, 225, paper="A3", square_mm=45, orientation="portrait")
    assert (forced.orientation, forced.cols, forced.rows) == (Orientation.PORTRAIT, 3, 1)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize(
    ("w", "h", "sq"), [(5, 5, 45.0), (13, 17, 45.0), (40, 31, 30.0), (3, 2, 250.0)]
)
def test_tiles_partition_the_board_and_fit_the_page(paper: str, w: int, h: int, sq: float) -> None:
    lay = layout_pages(w * sq, h * sq, paper=paper, square_mm=sq)
    assert len(lay.tiles) == lay.rows * lay.cols
    area = sum(t.map_rect.w * t.map_rect.h for t in lay.tiles)
    assert math.isclose(area, w * sq * h * sq)
    for t in lay.tiles:
        # Tile rects abut their neighbours exactly (a partition with no gaps or overlaps).
        for side, n in lay.neighbours(t).items():
            if side == "E":
                assert math.isclose(n.map_rect.x, t.map_rect.right)
            if side == "S":
                assert math.isclose(n.map_rect.y, t.map_rect.bottom)
        # On the paper the tile plus its bleed stays inside the margins' outer part.
        pr = t.page_rect
        first = lay.tiles[0].page_rect
        assert (pr.x, pr.y) == (first.x, first.y)  # every page is cut at the same place
        assert pr.x >= lay.margin_mm - 1e-9 and pr.y >= lay.margin_mm - 1e-9
        assert pr.right <= lay.page_w_mm - lay.margin_mm + 1e-9
        assert pr.bottom <= lay.page_h_mm - lay.margin_mm + 1e-9
        # Whole squares per page when a square fits (not for the 250 mm squares on A4).
        if sq <= min(lay.page_w_mm, lay.page_h_mm) - 2 * lay.margin_mm:
            assert math.isclose(t.map_rect.x / sq, round(t.map_rect.x / sq))
            assert math.isclose(t.map_rect.y / sq, round(t.map_rect.y / sq))


def test_bleed_reaches_only_towards_neighbouring_pages() -> None:
    lay = layout_pages(13 * 45, 17 * 45, paper="A4", square_mm=45, bleed_mm=3)
    first, inner = lay.tile(0, 0), lay.tile(1, 1)
    assert first.bleed_rect == RectMM(0, 0, 183, 273)
    assert inner.bleed_rect == RectMM(177, 267, 186, 276)
    last = lay.tile(2, 3)
    assert last.bleed_rect == RectMM(537, 537, 48, 228)


def test_crop_marks_continue_the_cut_lines_beyond_each_corner() -> None:
    rect = RectMM(15, 13.5, 180, 270)
    marks = crop_marks(rect, gap_mm=4, length_mm=6)
    assert len(marks) == 8
    corners = {(15, 13.5), (195, 13.5), (15, 283.5), (195, 283.5)}
    for x1, y1, x2, y2 in marks:
        assert x1 == x2 or y1 == y2  # horizontal or vertical
        # Each mark lies on a cut line through a corner, 4..10 mm away from it.
        near = min(corners, key=lambda c: math.dist(c, (x1, y1)))
        assert x1 == x2 == near[0] or y1 == y2 == near[1]
        assert math.isclose(math.dist(near, (x1, y1)), 4)
        assert math.isclose(math.dist(near, (x2, y2)), 10)
    # All marks sit in the margin, outside the tile.
    for x1, y1, x2, y2 in marks:
        for x, y in ((x1, y1), (x2, y2)):
            assert not (15 < x < 195 and 13.5 < y < 283.5)
            assert 0 <= x <= 210 and 0 <= y <= 297


def test_labels_name_row_column_and_grid() -> None:
    lay = layout_pages(13 * 45, 17 * 45, paper="A4", square_mm=45)
    assert lay.label(lay.tile(1, 2), "Deutschland") == (
        "Deutschland — page B3 (row B, column 3) of 4×3"
    )
    assert [t.name for t in lay.tiles[:5]] == ["A1", "A2", "A3", "A4", "B1"]
    assert {s: t.name for s, t in lay.neighbours(lay.tile(1, 0)).items()} == {
        "N": "A1",
        "E": "B2",
        "S": "C1",
    }


def test_bad_layout_options_are_refused() -> None:
    with pytest.raises(ExportError, match="unknown paper 'A5'"):
        layout_pages(100, 100, paper="A5")
    with pytest.raises(ExportError, match="leave no room"):
        layout_pages(100, 100, margin_mm=110, bleed_mm=1)
    with pytest.raises(ExportError, match="empty board"):
        layout_pages(0, 100)


# -- files -------------------------------------------------------------------------------------

LAND = QColor("#d8e6b0")
SEA = QColor("#a9cde0")


def _board(square_mm: float = 45.0) -> MapDef:
    """A 6 × 4 board: column 0 is sea, everything else land."""
    m = MapDef("t", "Testland", 6, 4, square_size_mm=square_mm)
    m.land = {(x, y) for x in range(1, 6) for y in range(4)}
    return m


def _near(image: QImage, x: float, y: float, colour: QColor, tol: int = 6) -> bool:
    c = image.pixelColor(round(x), round(y))
    return all(abs(a - b) <= tol for a, b in zip(c.getRgb()[:3], colour.getRgb()[:3], strict=True))


def _ink_near(image: QImage, x: float, y: float) -> bool:
    """A dark pixel within one pixel of ``(x, y)`` (thin antialiased lines fall between pixels)."""
    return any(
        image.pixelColor(round(x) + dx, round(y) + dy).lightness() < 160
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    )


def test_png_has_land_and_sea_where_the_squares_are(qapp, tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    size = export_png(_board(), out, px_per_square=20)
    assert (size.width(), size.height()) == (120, 80)
    image = QImage(str(out))
    assert (image.width(), image.height()) == (120, 80)
    assert _near(image, 3.5 * 20, 2.5 * 20, LAND)  # square (3, 2)
    assert _near(image, 0.5 * 20, 1.5 * 20, SEA)  # square (0, 1)


def test_png_at_a_dpi_is_true_scale_and_records_it(qapp, tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    size = export_png(_board(square_mm=25.4), out, dpi=100)  # one inch squares
    assert (size.width(), size.height()) == (600, 400)
    assert QImage(str(out)).dotsPerMeterX() == round(100 / 25.4 * 1000)


def test_png_too_large_is_refused_before_allocating(qapp, tmp_path: Path) -> None:
    big = MapDef("b", "Big", 200, 200)
    with pytest.raises(ExportError, match="too large"):
        export_png(big, tmp_path / "big.png", dpi=300)
    assert not (tmp_path / "big.png").exists()


def test_svg_is_xml_with_the_true_size_in_mm(qapp, tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    assert export_svg(_board(square_mm=30), out) == (180, 120)
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (root.get("width"), root.get("height")) == ("180mm", "120mm")
    assert root.get("viewBox") == "0 0 1800 1200"


def test_pdf_has_the_overview_plus_one_page_per_tile(qapp, tmp_path: Path) -> None:
    m = _board()
    m.width, m.height = 13, 17  # 585 × 765 mm: 4 × 3 A4 portrait pages
    m.land = {(x, y) for x in range(13) for y in range(17)}  # land on every page
    out = tmp_path / "b.pdf"
    lay = export_pdf(m, out, paper="A4")
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert (lay.cols, lay.rows) == (4, 3)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", data)) == 13
    # Every page is A4 portrait: 595 × 842 points.
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", data)
    assert boxes and all(round(float(w)) == 595 and round(float(h)) == 842 for w, h in boxes)
    out3 = tmp_path / "b3.pdf"
    lay3 = export_pdf(m, out3, paper="A3", overview=False)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", out3.read_bytes())) == lay3.page_count < 12


def test_pdf_pages_are_true_scale(qapp) -> None:
    # 6 × 4 squares of 45 mm = 270 × 180 mm: one A4 landscape page, the tile centred on it.
    m = _board()
    lay = layout_for(m, paper="A4")
    assert (lay.orientation, lay.page_count) == (Orientation.LANDSCAPE, 1)
    pr = lay.tiles[0].page_rect
    assert (pr.x, pr.y) == (13.5, 15.0)
    dpi = 100.0
    image = render_page(m, lay, 1, dpi=dpi)
    px = dpi / 25.4
    assert (image.width(), image.height()) == (round(297 * px), round(210 * px))

    def at(x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm * px, y_mm * px)

    # Square (x, y) is 45 mm wide, starting at the tile's corner on the paper.
    assert _near(image, *at(pr.x + 3.5 * 45, pr.y + 2.5 * 45), LAND)
    assert _near(image, *at(pr.x + 0.5 * 45, pr.y + 1.5 * 45), SEA)
    # Outside the tile (a 1-tile layout has no bleed) the paper stays white ...
    assert _near(image, *at(pr.x - 2, pr.y + 50), QColor("white"))
    # ... except for the crop marks continuing the cut lines: 4..10 mm from each corner.
    assert _ink_near(image, *at(pr.x, pr.y - 7))
    assert _ink_near(image, *at(pr.right + 7, pr.bottom))
    assert not _ink_near(image, *at(pr.x - 2, pr.y - 7))
    with pytest.raises(ExportError, match="page 3 does not exist"):
        render_page(m, lay, 2)


def test_printing_uses_the_same_pages(qapp, tmp_path: Path) -> None:
    m = _board()
    lay = layout_for(m, paper="A3")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "p.pdf"))
    printer.setPageLayout(page_layout_of(lay))
    printer.setFullPage(True)
    assert paint_pages(printer, m, lay) == lay.page_count + 1 == 2
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")


def test_unwritable_destination_is_a_clear_error(qapp, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        export_pdf(_board(), tmp_path / "no" / "such" / "b.pdf")


def test_pages_of_only_sea_are_left_out_of_the_pdf(qapp, tmp_path: Path) -> None:
    m = _board()
    m.width, m.height = 13, 17  # 4 × 3 A4 portrait pages, land only in the top-left corner
    lay = layout_for(m, paper="A4")
    assert (lay.cols, lay.rows) == (4, 3)
    assert lay.page_count == 2 and len(lay.skipped) == 10
    a1, a2 = lay.printed_tiles
    assert (a1.name, a2.name) == ("A1", "A2")
    assert lay.neighbours(a1) == {"E": a2}  # no arrow to B1: it is not printed
    out = tmp_path / "sparse.pdf"
    export_pdf(m, out, paper="A4")
    assert len(re.findall(rb"/Type\s*/Page(?!s)", out.read_bytes())) == 3  # overview, A1, A2


def test_shipped_maps_print_no_page_without_a_map_square(qapp) -> None:
    from engine.mapio import load_map
    from engine.resources import shipped_maps
    from mapeditor.export import tile_squares

    for path in shipped_maps():
        m = load_map(path)
        lay = layout_for(m, paper="A4")
        for tile in lay.printed_tiles:
            assert tile_squares(tile, m.square_size_mm) & m.land, (path.name, tile.name)
        covered = set().union(*(tile_squares(t, m.square_size_mm) for t in lay.printed_tiles))
        assert m.land <= covered, path.name  # and every map square is still printed
