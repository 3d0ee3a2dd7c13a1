"""``python -m mapeditor.print_screens OUT_DIR``: the print's pictures in docs/export.

For a landlocked country (a Czechia draft, made like ``python -m engine new-from-country Czechia
--draft``; needs the geo extra) and a coastal one (the shipped France): the assembly overview
and the first board page of the A4 PDF (the same painting as the PDF), and the whole board as a
PNG. Runs headless.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.mapdef import MapDef
from mapeditor.export_cli import ensure_headless_platform


def _czechia() -> MapDef:
    from engine.geo.country import import_country
    from engine.geo.draft import make_draft
    from engine.gridshape import target_squares

    imp = import_country(
        "Czechia", squares=target_squares(), cities=40, crop=1, keep_small_parts=True
    )
    return make_draft(imp).map


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/export")
    out.mkdir(parents=True, exist_ok=True)
    ensure_headless_platform()
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from engine.mapio import load_map
    from engine.resources import bundled_map
    from mapeditor.export import export_png, layout_for, render_page

    maps = {"czechia": _czechia(), "france": load_map(bundled_map("france"))}
    for name, m in maps.items():
        lay = layout_for(m, paper="A4")
        render_page(m, lay, 0, dpi=90).save(str(out / f"print-{name}-overview.png"))
        render_page(m, lay, 1, dpi=90).save(str(out / f"print-{name}-page.png"))
        export_png(m, out / f"print-{name}-board.png", px_per_square=40)
        print(f"{name}: {out}/print-{name}-{{overview,page,board}}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
