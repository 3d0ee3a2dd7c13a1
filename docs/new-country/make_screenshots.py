"""Make the screenshots of docs/new-country.md: Italia by hand in the editor, import to balance.

Run under a display (``xvfb-run -a python docs/new-country/make_screenshots.py``) from the
repository root; writes ``docs/new-country/*.png``. Needs the geo extra.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QWidget

HERE = Path(__file__).resolve().parent


def _wait(app: QApplication, ms: int = 300) -> None:
    loop_until = [False]
    QTimer.singleShot(ms, lambda: loop_until.__setitem__(0, True))
    while not loop_until[0]:
        app.processEvents()


def _shot(widget: QWidget, name: str) -> None:
    widget.grab().save(str(HERE / name))
    print(f"wrote {HERE / name}")


def _wait_validated(app: QApplication, window) -> None:  # type: ignore[no-untyped-def]
    done = [False]
    window.validation.validated.connect(lambda: done.__setitem__(0, True))
    window.validation.run_now()
    while not done[0]:
        app.processEvents()
    _wait(app, 200)


def _balance(app: QApplication, window, name: str) -> float:  # type: ignore[no-untyped-def]
    """Run 40 greedy games, show the balance dialog, save a screenshot; the mean share of games
    in which the squares off the mainland were built."""
    from engine.analysis.balance import balance_report
    from engine.analysis.simulate import SimConfig, simulate
    from engine.islands import land_parts
    from mapeditor.widgets.balance_dialog import BalanceDialog

    snapshot = window.document.snapshot()
    config = SimConfig(games=40, players=(2,), bot="greedy", seed=1)
    report = balance_report(snapshot, simulate(snapshot, config, workers=1))
    dialog = BalanceDialog(snapshot, window)
    dialog.games.setValue(40)
    dialog.seed.setValue(1)
    dialog.resize(1200, 800)
    dialog.show()
    dialog.show_report(report)
    _wait(app, 500)
    _shot(dialog, name)
    dialog.close()
    rates = report["fill"]["built_rate"]
    islands = set().union(*land_parts(snapshot)[1:]) & snapshot.placeable_squares()
    values = [rates[y][x] for x, y in islands if rates[y][x] is not None]
    return sum(values) / max(1, len(values))


def main() -> int:
    app = QApplication(sys.argv)
    from engine.gridshape import default_tile_pool
    from engine.mapdef import EdgeKind
    from mapeditor import country_actions as actions
    from mapeditor.commands import change_attribute
    from mapeditor.document import ABSENT
    from mapeditor.widgets.country_import import open_imported
    from mapeditor.widgets.country_menu import FerriesDialog
    from mapeditor.widgets.main_window import MainWindow
    from mapeditor.widgets.new_from_country import NewFromCountryDialog

    window = MainWindow()
    window.resize(1400, 900)
    window.show()

    # 1. File > New map from country: Italia, sized for the tile pool.
    dialog = NewFromCountryDialog(window)
    dialog.resize(1100, 640)
    dialog.show()
    done = [False]
    dialog._signals.done.connect(lambda *_: done.__setitem__(0, True))
    dialog.country.setEditText("Italia")
    dialog.run_preview()
    while not done[0]:
        app.processEvents()
    _wait(app)
    _shot(dialog, "01-new-from-country.png")
    m = dialog.build_map()
    dialog.close()

    # 2. The import in the editor: clouds on the Alps, sea elsewhere, errors listed.
    open_imported(window, m)
    window.view.fit()
    _wait_validated(app, window)
    _shot(window, "02-imported.png")

    # 3. Map > Country > Suggest ferries: Sicily, Sardinia and the rest.
    doc = window.document
    ferries = actions.suggested_ferries(doc)
    fd = FerriesDialog(ferries, window, doc.map)
    fd.resize(420, 260)
    fd.show()
    _wait(app)
    _shot(fd, "03-suggested-ferries.png")
    fd.done(QDialog.DialogCode.Accepted)
    actions.accept_ferries(doc, fd.chosen())

    # 4. Map > Country > Border road / city at place: the real crossings.
    for place, kind in (
        ("Innsbruck", EdgeKind.ROAD),  # Brenner
        ("Nice", EdgeKind.ROAD),  # Ventimiglia
        ("Lugano", EdgeKind.CITY),  # Chiasso
        ("Ljubljana", EdgeKind.ROAD),  # Gorizia
        ("Chamonix", EdgeKind.ROAD),  # Mont Blanc tunnel
    ):
        try:
            actions.place_border_feature(doc, place, kind)
        except Exception as exc:  # noqa: BLE001 - a screenshot script reports and goes on
            print(f"{place}: {exc}")
    # 5. The tile pool already follows the size; set it again in case the squares changed.
    lo, hi = default_tile_pool(len(doc.map.placeable_squares()))
    change_attribute(doc, "setup.tile_pool_min", lo, "Tile pool")
    change_attribute(doc, "setup.tile_pool_max", hi, "Tile pool")
    window.view.fit()
    _wait_validated(app, window)
    _shot(window, "04-ferries-and-borders.png")

    # 6. Map > Balance report: a short run of greedy bots, then act on what it shows.
    before = _balance(app, window, "05-balance.png")
    from engine.mapdef import StartSquare
    from mapeditor.commands import change_entries

    m = doc.map
    for name in ("Catania", "Cagliari"):
        square = next(sq for sq, t in m.towns.items() if t.name == name)
        change_entries(doc, "towns", {square: ABSENT}, "Town to start square")
        change_entries(doc, "start_squares", {square: StartSquare(name)}, "Start square")
    after = _balance(app, window, "06-balance-islands.png")
    print(f"island squares built: {before:.0%} of games before, {after:.0%} after")
    doc.save(HERE / "italia.json")
    print(f"wrote {HERE / 'italia.json'}")
    doc.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
