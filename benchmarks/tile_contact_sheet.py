"""Render every tile type at its four rotations into one PNG and report how fast tiles paint.

Usage: ``QT_QPA_PLATFORM=offscreen python benchmarks/tile_contact_sheet.py [OUT.png] [--size PX]``
(default ``tiles.png`` in the current folder, 96 px per tile). One row per tile type: the id, then
rotations 0, 90, 180 and 270; meeple anchors are marked with small dots on rotation 0.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter, QPen

from engine.tiles import ROTATIONS, default_tileset
from mapeditor.tile_painter import feature_anchor, meeple_path, paint_tile


def render_sheet(size: int = 96, columns: int = 3) -> QImage:
    """The contact sheet: ``columns`` blocks of (label + 4 rotations) per row."""
    tiles = list(default_tileset())
    gap = max(4, size // 12)
    label_w = size
    block_w = label_w + 4 * (size + gap) + 2 * gap
    rows = (len(tiles) + columns - 1) // columns
    image = QImage(columns * block_w, rows * (size + gap) + gap, QImage.Format.Format_RGB32)
    image.fill(QColor("#f7f5ef"))
    painter = QPainter(image)
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(9, size // 7))
    painter.setFont(font)
    for n, tile in enumerate(tiles):
        bx = (n // rows) * block_w + gap
        by = (n % rows) * (size + gap) + gap
        painter.setPen(QColor("#222222"))
        painter.drawText(
            QRectF(bx, by, label_w - gap, size),
            Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap,
            f"{tile.id} ×{tile.count}\n{tile.edges}",
        )
        for k, rotation in enumerate(ROTATIONS):
            rect = QRectF(bx + label_w + k * (size + gap), by, size, size)
            paint_tile(painter, tile, rotation, rect)
            if rotation == 0:
                for i in range(len(tile.segments)):
                    p = feature_anchor(tile, rotation, i, rect)
                    painter.setPen(QPen(QColor("black"), 1))
                    painter.setBrush(QColor("#ff2fb0"))
                    painter.drawEllipse(p, 2.5, 2.5)
    # Meeples in the first free slot, to see their silhouette.
    n = len(tiles)
    bx = (n // rows) * block_w + gap + label_w
    by = (n % rows) * (size + gap) + gap if n % rows or n // rows < columns else gap
    painter.setPen(QPen(QColor("#222222"), 1))
    for k, colour in enumerate(("#d23b3b", "#2f6fd0", "#e8c21c", "#2e9b4a")):
        painter.setBrush(QColor(colour))
        painter.drawPath(
            meeple_path(QRectF(bx + k * (size + gap), by + size * 0.15, size * 0.7, size * 0.7))
        )
    painter.end()
    return image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="tiles.png")
    parser.add_argument("--size", type=int, default=96)
    args = parser.parse_args(argv)
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    tiles = list(default_tileset())

    start = time.perf_counter()
    image = render_sheet(args.size)
    first = time.perf_counter() - start  # includes building and caching the geometry
    if not image.save(str(Path(args.out))):
        print(f"cannot write {args.out}", file=sys.stderr)
        return 1

    target = QImage(args.size, args.size, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(target)
    reps = 5
    start = time.perf_counter()
    for _ in range(reps):
        for tile in tiles:
            for rotation in ROTATIONS:
                paint_tile(painter, tile, rotation, QRectF(0, 0, args.size, args.size))
    painted = time.perf_counter() - start
    painter.end()
    count = reps * len(tiles) * 4
    print(f"wrote {args.out} ({image.width()}x{image.height()})")
    print(f"first sheet incl. geometry and anchors: {first * 1000:.0f} ms")
    print(f"paint_tile at {args.size}px (cached geometry): {painted / count * 1e6:.0f} µs per tile")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
