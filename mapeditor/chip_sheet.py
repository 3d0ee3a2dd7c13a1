"""A print-and-play chip sheet: every chip of the map's rule set, fronts and backs, duplex aligned.

The chips are those a game of the map deals (``make_chips`` of the map's rule set: colours and
values, a mini-expansion's own supply too). Fronts carry the colour, the value and the town
colour's grapes; backs are one neutral design with the rule set's name, so chips can be drawn
face down. Pages come in pairs (fronts, then their backs): printed double-sided, flipped on the
long edge, each back lands behind its front, because the backs are laid out mirrored left to
right (:func:`chip_sheet_layout`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPdfWriter, QPen

from engine.errors import EngineError
from engine.mapdef import MapDef
from engine.rules.chips_common import Chip
from engine.rules.registry import rules_for
from mapeditor.export import page_layout_of_paper
from mapeditor.painting import COLOURS
from mapeditor.print_size import PAPERS

CHIP_MM = 25.0
"""Chip diameter."""
GAP_MM = 4.0
MARGIN_MM = 12.0
MM_PER_INCH = 25.4


class ChipSheetError(ValueError):
    """A chip sheet that cannot be made (no chips in the rule set, bad size, unwritable file)."""


@dataclass(frozen=True)
class ChipSpot:
    """Where one chip prints: its front on a fronts page, its back on the following page."""

    chip: Chip
    page: int
    """The fronts page (0-based pair index: the PDF's pages ``2 * page`` and ``2 * page + 1``)."""
    front: tuple[float, float]
    """Top-left corner of the front, page mm."""
    back: tuple[float, float]
    """Top-left corner of the back, page mm (mirrored left to right for a long-edge flip)."""


def chips_of(m: MapDef) -> tuple[Chip, ...]:
    """The chips a game of ``m`` deals; ChipSheetError when its rule set has none."""
    try:
        cls = rules_for(None, m)
    except EngineError as exc:
        raise ChipSheetError(f"{m.id}: {exc}") from None
    make = getattr(cls, "make_chips", None) if cls is not None else None
    if cls is None or make is None:
        raise ChipSheetError(f"{m.id}: the map plays no Map-Chips rule set, so it has no chips")
    chips: tuple[Chip, ...] = make(cls())
    if not chips:
        raise ChipSheetError(f"{m.id}: its rule set has no chips")
    return chips


def chip_sheet_layout(
    chips: tuple[Chip, ...],
    *,
    paper: str = "A4",
    diameter_mm: float = CHIP_MM,
    gap_mm: float = GAP_MM,
    margin_mm: float = MARGIN_MM,
) -> list[ChipSpot]:
    """Rows of chips on portrait ``paper`` within the margins, fronts and mirrored backs.

    >>> from engine.rules.chips_common import make_chips
    >>> spots = chip_sheet_layout(make_chips())
    >>> len(spots), spots[0].front, spots[0].back
    (30, (12.0, 12.0), (173.0, 12.0))
    """
    if paper not in PAPERS:
        raise ChipSheetError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)}")
    if diameter_mm <= 0 or gap_mm < 0:
        raise ChipSheetError(f"chip size {diameter_mm:g} mm and gap {gap_mm:g} mm: not printable")
    w, h = PAPERS[paper]
    pitch = diameter_mm + gap_mm
    cols = math.floor((w - 2 * margin_mm + gap_mm) / pitch)
    rows = math.floor((h - 2 * margin_mm + gap_mm) / pitch)
    if cols < 1 or rows < 1:
        raise ChipSheetError(f"a {diameter_mm:g} mm chip does not fit on {paper}")
    per_page = cols * rows
    out = []
    for i, chip in enumerate(chips):
        page, k = divmod(i, per_page)
        r, c = divmod(k, cols)
        x, y = margin_mm + c * pitch, margin_mm + r * pitch
        out.append(ChipSpot(chip, page, (x, y), (w - x - diameter_mm, y)))
    return out


def _font(size_mm: float, bold: bool = True) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(size_mm * 10)))  # painted at 10 units per mm
    font.setBold(bold)
    return font


def _front(painter: QPainter, chip: Chip, rect: QRectF) -> None:
    colour = COLOURS[chip.colour]
    painter.setPen(QPen(colour.darker(170), 6))
    painter.setBrush(colour)
    painter.drawEllipse(rect)
    painter.setPen(QColor("white"))
    painter.setFont(_font(rect.height() / 10 * 0.5))
    painter.drawText(
        rect.adjusted(0, -rect.height() * 0.12, 0, 0), Qt.AlignmentFlag.AlignCenter, str(chip.value)
    )
    # The town colour's grapes: the icon of the colour on the map.
    painter.setPen(QPen(QColor(255, 255, 255, 220), 3))
    painter.setBrush(colour.darker(130))
    c = rect.center() + QPointF(0, rect.height() * 0.28)
    r = rect.height() * 0.055
    for dx, dy in ((-1.0, 0.0), (1.0, 0.0), (0.0, 1.6)):
        painter.drawEllipse(c + QPointF(dx * r * 1.05, dy * r), r, r)


def _back(painter: QPainter, title: str, rect: QRectF) -> None:
    painter.setPen(QPen(QColor("#6b3f1f"), 6))
    painter.setBrush(QColor("#f7f0dc"))
    painter.drawEllipse(rect)
    painter.setPen(QPen(QColor("#6b3f1f"), 3))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(
        rect.adjusted(
            rect.width() * 0.1, rect.width() * 0.1, -rect.width() * 0.1, -rect.width() * 0.1
        )
    )
    painter.setPen(QColor("#3a2a10"))
    painter.setFont(_font(rect.height() / 10 * 0.11))
    painter.drawText(
        rect.adjusted(rect.width() * 0.15, 0, -rect.width() * 0.15, 0),
        int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
        title,
    )


def paint_chip_page(
    painter: QPainter, spots: list[ChipSpot], page: int, backs: bool, title: str, diameter_mm: float
) -> None:
    """Fronts (or backs) of one page's chips, painter in page mm."""
    painter.save()
    painter.scale(0.1, 0.1)  # fonts get whole pixel sizes: paint at 10 units per mm
    d = diameter_mm * 10
    for spot in spots:
        if spot.page != page:
            continue
        x, y = spot.back if backs else spot.front
        rect = QRectF(x * 10, y * 10, d, d)
        if backs:
            _back(painter, title, rect)
        else:
            _front(painter, spot.chip, rect)
    painter.restore()


def export_chip_sheet(
    m: MapDef, path: str | os.PathLike[str], *, paper: str = "A4", diameter_mm: float = CHIP_MM
) -> int:
    """Write the chip sheet PDF; :returns: the number of pages (fronts and backs)."""
    path = Path(path)
    if not path.resolve().parent.is_dir():
        raise ChipSheetError(f"{path}: folder {path.resolve().parent} does not exist")
    chips = chips_of(m)
    spots = chip_sheet_layout(chips, paper=paper, diameter_mm=diameter_mm)
    cls = rules_for(None, m)
    title = f"{m.name or m.id} · {getattr(cls, 'title', '') or m.rule_set.name}"
    writer = QPdfWriter(str(path))
    writer.setTitle(f"{m.name or m.id} — chips")
    writer.setCreator("Carcassonne Maps Studio")
    writer.setResolution(600)
    writer.setPageLayout(page_layout_of_paper(paper))
    painter = QPainter()
    if not painter.begin(writer):
        raise ChipSheetError(f"{path}: could not write the PDF")
    pages = spots[-1].page + 1
    k = writer.logicalDpiX() / MM_PER_INCH
    for page in range(pages):
        for backs in (False, True):
            if page or backs:
                writer.newPage()
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.scale(k, k)
            paint_chip_page(painter, spots, page, backs, title, diameter_mm)
            painter.restore()
    painter.end()
    del writer
    return 2 * pages
