"""``python -m mapeditor export MAP OUT.{png,svg,pdf}``: export a map without a display.

``--format tts`` and ``--format assets`` write a folder OUT for virtual tabletops instead
(:mod:`mapeditor.tabletop`): a Tabletop Simulator save with its images, or the image pack and
manifest that Screentop and Tabletopia take.

MAP is a map file or the name of a shipped map (``deutschland``, ``france``, ...). The format
follows OUT's suffix:

* ``.png`` — the whole board; ``--dpi N`` makes it true scale at N dots per inch (the file records
  the DPI), otherwise ``--px-per-square`` (default 64);
* ``.svg`` — the whole board, its width and height the true size in millimetres;
* ``.pdf`` — true scale (the map's square size, 45 mm by default) tiled over ``--paper`` A4 or A3
  pages with crop marks and page labels, after an assembly overview page.

Runs headless: without ``DISPLAY``/``WAYLAND_DISPLAY`` it uses Qt's offscreen platform and only a
``QGuiApplication``. Bad input prints one line naming the problem and exits with status 2; never a
traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

USAGE_EXIT = 2
FORMATS = (".png", ".svg", ".pdf")


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and status 2 (its default status too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(USAGE_EXIT)


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(
        prog="python -m mapeditor export",
        description="Export a map as PNG, SVG, or a true-scale PDF tiled over A4/A3 pages.",
    )
    ap.add_argument("map", help="a map file, or the name of a shipped map")
    ap.add_argument("out", help="output file: .png, .svg or .pdf (a folder for tts and assets)")
    ap.add_argument(
        "--format",
        choices=("tts", "assets"),
        default=None,
        help="a virtual-tabletop export into the folder OUT (default: the file's suffix)",
    )
    ap.add_argument("--seed", type=int, default=0, help="tts/assets: the chip layout's seed")
    ap.add_argument(
        "--url-base",
        default=None,
        help="tts: where the images will be reachable (default: file:// URLs of OUT)",
    )
    ap.add_argument("--paper", choices=("A4", "A3"), default="A4", help="PDF paper (default A4)")
    ap.add_argument(
        "--orientation",
        choices=("portrait", "landscape"),
        default=None,
        help="PDF page orientation (default: whichever needs fewer pages)",
    )
    ap.add_argument("--no-overview", action="store_true", help="PDF without the overview page")
    ap.add_argument("--dpi", type=float, default=None, help="PNG at true scale and this DPI")
    ap.add_argument(
        "--px-per-square", type=float, default=None, help="PNG pixels per square (default 64)"
    )
    return ap


def ensure_headless_platform() -> None:
    """Use the offscreen platform when there is no display (and nobody chose a platform)."""
    if (
        not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and not os.environ.get("QT_QPA_PLATFORM")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


class _Usage(Exception):
    pass


def run(args: argparse.Namespace) -> str:
    """Do the export; :returns: a one-line summary. Raises on bad input (see :func:`main`)."""
    out = Path(args.out)
    suffix = out.suffix.lower()
    if args.format is not None:
        return _tabletop(args, out)
    if suffix not in FORMATS:
        raise _Usage(f"{out}: unknown output format {suffix or '(none)'!r}: use .png, .svg or .pdf")
    if args.dpi is not None and args.px_per_square is not None:
        raise _Usage("give --dpi or --px-per-square, not both")
    if suffix != ".png" and (args.dpi is not None or args.px_per_square is not None):
        raise _Usage("--dpi and --px-per-square apply to .png output only")

    from engine.mapio import load_map
    from engine.resources import find_map

    m = load_map(find_map(args.map))

    ensure_headless_platform()
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # fonts need an app

    from mapeditor import export

    if suffix == ".png":
        size = export.export_png(m, out, px_per_square=args.px_per_square, dpi=args.dpi)
        return f"wrote {out}: {size.width()}×{size.height()} px"
    if suffix == ".svg":
        w_mm, h_mm = export.export_svg(m, out)
        return f"wrote {out}: {w_mm:g} × {h_mm:g} mm"
    lay = export.export_pdf(
        m, out, paper=args.paper, orientation=args.orientation, overview=not args.no_overview
    )
    extra = 0 if args.no_overview else 1
    return (
        f"wrote {out}: {lay.page_count + extra} pages of {lay.paper} {lay.orientation.value}"
        f" ({lay.cols}×{lay.rows} board pages, {m.square_size_mm:g} mm squares)"
    )


def _tabletop(args: argparse.Namespace, out: Path) -> str:
    if args.dpi is not None or args.px_per_square is not None:
        raise _Usage("--dpi and --px-per-square apply to .png output only")
    if out.exists() and not out.is_dir():
        raise _Usage(f"{out}: not a folder (--format {args.format} writes a folder)")
    from engine.mapio import load_map
    from engine.resources import find_map

    m = load_map(find_map(args.map))
    ensure_headless_platform()
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from mapeditor import tabletop

    if args.format == "assets":
        manifest = tabletop.export_assets(m, out, seed=args.seed)
        count = sum(t["count"] for t in manifest["tiles"])
        return f"wrote {out}: board, {len(manifest['tiles'])} tile images ({count} tiles), manifest.json"
    save = tabletop.export_tts(m, out, seed=args.seed, url_base=args.url_base)
    return f"wrote {save} and its images (copy it into Tabletop Simulator's Saves folder)"


def main(argv: list[str] | None = None) -> int:
    """Run ``export`` with ``argv`` (the arguments after ``export``); returns the exit status."""
    from engine.errors import EngineError
    from mapeditor.export import ExportError

    try:
        args = build_parser().parse_args(argv)
        print(run(args))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (already printed)
        return int(exc.code or 0)
    except (_Usage, EngineError, ExportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_EXIT
    except OSError as exc:
        print(f"error: {exc.filename or ''}: {exc.strerror or exc}".strip(), file=sys.stderr)
        return USAGE_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main())
