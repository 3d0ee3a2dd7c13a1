"""Print outputs: papers, the board's size and page count, "fit N × M cm", the print-shop sheet
and the chip sheet."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPageSize, QPainter
from PySide6.QtWidgets import QLabel, QPushButton

from engine.mapdef import Colour, MapDef
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.chips_common import make_chips
from mapeditor.chip_sheet import ChipSheetError, chip_sheet_layout, chips_of, export_chip_sheet
from mapeditor.document import MapDocument
from mapeditor.export import (
    MM_PER_INCH,
    export_print_shop_pdf,
    layout_for,
    page_layout_of,
    paint_print_shop_sheet,
    size_summary,
)
from mapeditor.export_cli import main as export_main
from mapeditor.print_painting import inside_safe_zone, print_look
from mapeditor.print_size import PAPERS, SAFE_ZONE_MM, board_size_mm, square_mm_to_fit
from mapeditor.ruleset_data import data_state, preset_content, with_value
from mapeditor.widgets.properties_dock import FitBoardDialog, PropertiesDock


def _france() -> MapDef:
    return load_map(bundled_map("france"))


# -- papers and sizes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("paper", "qt_id"),
    [
        ("Letter", QPageSize.PageSizeId.Letter),
        ("Legal", QPageSize.PageSizeId.Legal),
        ("Tabloid", QPageSize.PageSizeId.Tabloid),
        ("A2", QPageSize.PageSizeId.A2),
        ("A1", QPageSize.PageSizeId.A1),
        ("A0", QPageSize.PageSizeId.A0),
    ],
)
def test_every_paper_tiles_the_board_and_names_its_qt_size(paper: str, qt_id) -> None:
    lay = layout_for(_france(), paper=paper)
    assert lay.page_count >= 1
    assert page_layout_of(lay).pageSize().id() == qt_id


def test_bigger_paper_needs_fewer_pages() -> None:
    m = _france()
    counts = [layout_for(m, paper=p).page_count for p in ("A4", "A3", "A2", "A1", "A0")]
    assert counts == sorted(counts, reverse=True)
    assert counts[0] > counts[-1] == 2  # 103.5 × 99 cm: two A0 sheets
    assert layout_for(m, paper="Letter").page_count >= layout_for(m, paper="Tabloid").page_count


def test_size_summary_says_size_and_pages() -> None:
    m = MapDef("d", "D", 16, 21)
    m.land = {(x, y) for x in range(16) for y in range(21)}
    a4 = layout_for(m, paper="A4").page_count
    a3 = layout_for(m, paper="A3").page_count
    assert size_summary(m) == (
        f"72 × 94.5 cm (16 × 21 squares of 45 mm) · {a4} pages of A4, {a3} of A3"
    )


def test_fit_picks_the_largest_square_that_fits() -> None:
    m = MapDef("d", "D", 16, 21)
    assert square_mm_to_fit(m, 60, 80) == 37.5  # the width decides: 600 / 16; 800 / 21 = 38.1
    sq = square_mm_to_fit(m, 70, 70)
    assert 16 * sq <= 700 and 21 * sq <= 700 and 21 * (sq + 0.1) > 700
    with pytest.raises(ValueError, match="positive"):
        square_mm_to_fit(m, 0, 10)


# -- the fit dialog and the live size in Properties (real key and mouse events) -----------------


def test_properties_show_the_printed_size_live_and_fit_a_board(qtbot, monkeypatch) -> None:
    m = MapDef("d", "D", 16, 21)
    m.land = {(x, y) for x in range(16) for y in range(21)}
    doc = MapDocument(m)
    dock = PropertiesDock(doc)
    qtbot.addWidget(dock)
    dock.show()
    label = dock.findChild(QLabel, "printed_size")
    pages = layout_for(m, paper="A4").page_count
    assert label.text() == f"72 × 94.5 cm (16 × 21 squares of 45 mm) · {pages} pages of A4"

    def fit_dialog_exec(dialog: FitBoardDialog) -> int:
        for spin, text in ((dialog.width_cm, "60"), (dialog.height_cm, "84")):
            spin.selectAll()
            qtbot.keyClicks(spin.lineEdit(), text)
            qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Tab)
        assert "37.5 mm" in dialog.outcome.text()  # 60 cm / 16; 84 cm / 21 = 40 mm
        return 1

    monkeypatch.setattr(FitBoardDialog, "exec", fit_dialog_exec)
    button = dock.findChild(QPushButton, "fit_board")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert doc.map.square_size_mm == 37.5
    qtbot.waitUntil(lambda: dock.findChild(QLabel, "printed_size").text().startswith("60 × 78.75"))
    doc.undo_stack.undo()
    assert doc.map.square_size_mm == 45.0


# -- print shop ------------------------------------------------------------------------------------


def _shop_image(m: MapDef, dpi: float = 40.0, guides: bool = False) -> QImage:
    w, h = board_size_mm(m)
    k = dpi / MM_PER_INCH
    image = QImage(round((w + 6) * k), round((h + 6) * k), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.scale(k, k)
    paint_print_shop_sheet(painter, m, guides=guides)
    painter.end()
    return image


def test_print_shop_sheet_is_the_board_plus_bleed(qapp, tmp_path: Path) -> None:
    m = _france()
    out = tmp_path / "shop.pdf"
    assert export_print_shop_pdf(m, out) == (1035 + 6, 990 + 6)
    data = out.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert box is not None
    w_pt, h_pt = float(box.group(1)), float(box.group(2))
    assert w_pt == pytest.approx(1041 / 25.4 * 72, abs=1)
    assert h_pt == pytest.approx(996 / 25.4 * 72, abs=1)


def test_print_shop_bleed_mirrors_the_edge(qapp) -> None:
    m = _france()
    dpi = 40.0
    k = dpi / MM_PER_INCH
    image = _shop_image(m, dpi)
    w, h = board_size_mm(m)
    white = 0
    for y_mm in range(20, round(h), 37):
        y = round((3 + y_mm) * k)
        outside = image.pixelColor(round(1.5 * k), y)  # 1.5 mm beyond the left trim
        inside = image.pixelColor(round(4.5 * k), y)  # 1.5 mm inside it
        white += outside == QColor("white")
        assert abs(outside.red() - inside.red()) < 40 and abs(outside.blue() - inside.blue()) < 40
    assert white == 0


def test_print_shop_furniture_stays_in_the_safe_zone() -> None:
    m = _france()
    look = print_look(m)
    assert look.furniture
    scale = m.square_size_mm / 64.0
    w, h = board_size_mm(m)
    for piece in look.furniture:
        r = inside_safe_zone(m, piece)
        assert r.left() * scale >= SAFE_ZONE_MM - 1e-6
        assert r.top() * scale >= SAFE_ZONE_MM - 1e-6
        assert w - r.right() * scale >= SAFE_ZONE_MM - 1e-6
        assert h - r.bottom() * scale >= SAFE_ZONE_MM - 1e-6


# -- chip sheet ------------------------------------------------------------------------------------


def test_chip_backs_sit_behind_their_fronts_on_a_long_edge_flip() -> None:
    spots = chip_sheet_layout(make_chips(), paper="A4", diameter_mm=25)
    w, h = PAPERS["A4"]
    assert len(spots) == 30
    for s in spots:
        fx, fy = s.front
        bx, by = s.back
        assert by == fy and bx + 25 == pytest.approx(w - fx)  # mirrored left to right
        assert fx >= 12 and fx + 25 <= w - 12 and fy >= 12 and fy + 25 <= h - 12
    fronts = [s.front for s in spots]
    assert len(set(fronts)) == len(fronts)


def test_chips_follow_the_maps_rule_set() -> None:
    m = _france()
    content = with_value(preset_content("france"), ("supply", "per_colour"), 4)
    content = with_value(content, ("supply", "values"), {"1": 2, "3": 2})
    content = with_value(content, ("supply", "colours"), ["purple", "orange"])
    content = with_value(content, ("sheet_setup", "chips"), 8)
    m.rule_set = data_state(content)
    chips = chips_of(m)
    assert Counter((c.colour, c.value) for c in chips) == {
        (colour, value): 2 for colour in (Colour.PURPLE, Colour.ORANGE) for value in (1, 3)
    }
    blank = MapDef("b", "B", 3, 3)
    with pytest.raises(ChipSheetError, match="no Map-Chips rule set"):
        chips_of(blank)


def test_chip_sheet_pdf_has_fronts_and_backs(qapp, tmp_path: Path) -> None:
    out = tmp_path / "chips.pdf"
    assert export_chip_sheet(_france(), out, diameter_mm=40) == 4  # 20 a page: two pairs
    assert len(re.findall(rb"/Type\s*/Page\b", out.read_bytes())) == 4


def test_cli_prints_a_print_shop_sheet_and_chips(qapp, tmp_path: Path, capsys) -> None:
    assert export_main(["france", str(tmp_path / "s.pdf"), "--print-shop"]) == 0
    assert "3 mm bleed" in capsys.readouterr().out
    assert export_main(["france", str(tmp_path / "c.pdf"), "--chips", "--paper", "Letter"]) == 0
    assert "Letter" in capsys.readouterr().out
    assert export_main(["example-small", str(tmp_path / "x.pdf"), "--chips"]) == 2
    assert "no Map-Chips rule set" in capsys.readouterr().err
    assert export_main(["france", str(tmp_path / "x.png"), "--chips"]) == 2
    assert not (tmp_path / "x.png").exists()


def test_pages_left_out_match_the_squares_each_page_covers() -> None:
    """The fast page count (each square names its pages) equals the plain one (each page looks
    at its squares), also for squares larger than a page."""
    import random

    from mapeditor.export import _tiles_with_land, layout_pages, tile_squares

    rng = random.Random(3)
    for _ in range(150):
        w, h = rng.randint(1, 30), rng.randint(1, 30)
        sq = rng.choice([10.0, 45.0, 250.0, 700.0])
        m = MapDef("t", "T", w, h, square_size_mm=sq)
        m.land = {(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randint(0, 20))}
        for paper in ("A4", "A0", "Letter"):
            lay = layout_pages(w * sq, h * sq, paper=paper, square_mm=sq)
            plain = {t.name for t in lay.tiles if tile_squares(t, sq) & m.land}
            assert _tiles_with_land(lay, m) == plain
