"""Screenshots of the editor for the docs: ``python -m mapeditor.editor_screens OUTDIR [MAP...]``.

Run under a display (``xvfb-run -a``). Writes ``OUTDIR/<map>.png`` for each shipped map (or the
ones named) and ``OUTDIR/start-page.png``; with ``--rule-set`` instead of map names, the Rule set
dock's pictures (``ruleset-dock.png``, ``ruleset-issues.png``, ``ruleset-missing-print.png``);
with ``--rule-language``, a designer's own rule set (``docs/rule-language/herring.ruleset.json``)
in the dock (``ruleset-dock-rules.png``, ``ruleset-dock-form.png``,
``ruleset-dock-resources.png``), its balance report (``report-herring.png``) and a playtest
(``playtest-herring.png``); with ``--resize``, the Resize dialog on Italia (``resize.png``);
with ``--heat-map``, the balance dialog's Heat map tab on Deutschland (``balance-heatmap.png``);
with ``--balance-studies``, its play styles on Deutschland and the Tune page on Italia, run as
a user runs them (``balance-styles.png``, ``balance-styles-chart.png``, ``balance-tune.png``);
with ``--tune``, the Tune page
alone, ``--styles`` the play styles alone; with ``--levels``, a strength level per seat and a skill trace on Deutschland
(``balance-levels.png``); with ``--chips-on-marks``, the Chips dock on Nordics showing the chips
on its marks (``chips-on-marks.png``).
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths, Qt
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea

from engine.resources import bundled_map, shipped_maps


def _settle(app: QCoreApplication, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def _until(app: QCoreApplication, done: Callable[[], bool], seconds: float = 20.0) -> None:
    """Let events run until ``done()`` (the validation helper's answer on a loaded machine)."""
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        _settle(app, 0.1)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m mapeditor.editor_screens OUTDIR [MAP...]", file=sys.stderr)
        return 2
    out = Path(args.pop(0))
    out.mkdir(parents=True, exist_ok=True)
    names = args or [p.stem for p in shipped_maps()]
    app = QApplication.instance() or QApplication([])
    # The user's own settings (recent files) stay out of the pictures, and so do an earlier
    # run's: dialogs remember their fields (a balance dialog its bots, levels and studies), so
    # each run starts from empty settings of its own.
    QStandardPaths.setTestModeEnabled(True)
    settings = tempfile.TemporaryDirectory(prefix="editor-screens-settings-")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, settings.name)
    try:
        return _screens(app, out, names)
    finally:
        settings.cleanup()


def _screens(app: QCoreApplication, out: Path, names: list[str]) -> int:
    from mapeditor.widgets.main_window import open_editor

    special = {
        "--rule-set": rule_set_screens,
        "--rule-language": rule_language_screens,
        "--resize": resize_screen,
        "--heat-map": heat_map_screen,
        "--balance-studies": balance_studies_screens,
        "--tune": tune_screen,
        "--styles": styles_screens,
        "--levels": levels_screen,
        "--chips-on-marks": chips_on_marks_screen,
    }
    if len(names) == 1 and names[0] in special:
        special[names[0]](app, out)
        return 0
    start = open_editor()
    start.settings.setValue("recent", [str(Path.home() / "maps" / "my-island.json")])
    start._refresh_recent()
    start.resize(1500, 950)
    start.show()
    _settle(app, 0.5)
    start.grab().save(str(out / "start-page.png"))
    start.close()
    for name in names:
        window = open_editor(bundled_map(name))
        window.resize(1500, 950)
        window.show()
        _settle(app, 2.0)  # validation and the chips feasibility answer arrive
        window.statusBar().clearMessage()
        window.view.fit()
        _settle(app, 0.3)
        path = out / f"{name}.png"
        window.grab().save(str(path))
        print(path)
        window.document.undo_stack.setClean()
        window.close()
    return 0


def resize_screen(app: QCoreApplication, out: Path) -> None:
    """Italia six columns narrower and four rows taller, its south-east corner kept."""
    from mapeditor.widgets.grid_dialog import GridDialog
    from mapeditor.widgets.main_window import open_editor

    window = open_editor(bundled_map("italia"))
    dialog = GridDialog(window, shift=False)
    dialog.a.setValue(dialog.a.value() - 6)
    dialog.b.setValue(dialog.b.value() + 4)
    dialog.anchors.buttons["se"].click()
    dialog.resize(700, 420)
    dialog.show()
    _settle(app, 0.3)
    dialog.grab().save(str(out / "resize.png"))
    dialog.close()
    window.document.undo_stack.setClean()
    window.close()


def chips_on_marks_screen(app: QCoreApplication, out: Path) -> None:
    """Nordics with the Chips dock in front: where its chips go (two face down on each Chip
    space) and the chips on the marks drawn on the map."""
    from mapeditor.widgets.main_window import open_editor

    window = open_editor(bundled_map("nordics"))
    window.resize(1500, 950)
    window.show()
    _settle(app, 2.0)  # validation answers
    dock = window.docks["Chips"]
    window.resizeDocks([dock], [480], Qt.Orientation.Vertical)  # the whole sentence in view
    window.chips.show_button.click()
    window.statusBar().clearMessage()
    window.view.fit()
    _settle(app, 0.5)
    window.grab().save(str(out / "chips-on-marks.png"))
    print(out / "chips-on-marks.png")
    window.document.undo_stack.setClean()
    window.close()


def heat_map_screen(app: QCoreApplication, out: Path) -> None:
    """The balance dialog on Deutschland after a short greedy run, at its Heat map tab: how
    often each square is built, painted over the print look (neighbours, names, start squares)."""
    from engine.mapio import load_map

    path = bundled_map("deutschland")
    dialog = _shown_report(app, load_map(path), seed=1, size=(1000, 980), map_path=path)
    dialog.tabs.setCurrentIndex(0)
    _settle(app, 0.5)
    dialog.grab().save(str(out / "balance-heatmap.png"))
    print(out / "balance-heatmap.png")
    dialog.close()


def _run(app: QCoreApplication, dialog: Any, kind: str | None = None) -> None:
    """Run the balance dialog's ``kind`` as its button does, and wait for the end."""
    ended: list[str] = []
    dialog.run_ended.connect(ended.append)
    dialog.start(kind)
    _until(app, lambda: bool(ended), seconds=1800.0)
    dialog.run_ended.disconnect(ended.append)
    if ended != ["done"]:
        raise SystemExit(f"the balance run ended {ended or 'never'}: {dialog.status.text()}")


def balance_studies_screens(app: QCoreApplication, out: Path) -> None:
    """The play styles (:func:`styles_screens`) and the Tune page (:func:`tune_screen`)."""
    styles_screens(app, out)
    tune_screen(app, out)


def styles_screens(app: QCoreApplication, out: Path) -> None:
    """Deutschland's balance dialog: a bot and style per seat, then "which plan wins" (4 deals)
    shown on the Figures page, and its chart on the Charts page."""
    from engine.mapio import load_map
    from mapeditor.widgets.balance_dialog import BalanceDialog

    path = bundled_map("deutschland")
    dialog = BalanceDialog(load_map(path), map_path=path)
    dialog.resize(1000, 980)
    dialog.show()
    dialog.games.setValue(REPORT_GAMES)
    dialog.workers.setValue(1)
    dialog.seed.setValue(1)
    dialog.styles_deals.setValue(4)
    _run(app, dialog)
    dialog.seats.set_specs(["greedy:farmer", "mcts:cities"])  # what the form offers, too
    dialog.tabs.setCurrentWidget(dialog.summary)
    _scroll_to(app, dialog.summary, "Which plan wins on this map")
    dialog.grab().save(str(out / "balance-styles.png"))
    print(out / "balance-styles.png")
    (charts,) = [a for a in dialog.findChildren(QScrollArea) if a.widget() is dialog.charts]
    dialog.tabs.setCurrentWidget(charts)
    _settle(app, 0.3)
    chart = dialog.findChild(QLabel, "chart-styles")
    if chart is None:
        raise SystemExit("the run drew no styles chart (is matplotlib installed?)")
    charts.ensureWidgetVisible(chart)
    _settle(app, 0.5)
    dialog.grab().save(str(out / "balance-styles-chart.png"))
    print(out / "balance-styles-chart.png")
    dialog.close()


def _scroll_to(app: QCoreApplication, browser: Any, heading: str) -> None:
    """Scroll ``browser`` so that ``heading`` is at the top of the page, unselected."""
    browser.find(heading)
    _settle(app, 0.3)
    bar = browser.verticalScrollBar()
    bar.setValue(bar.value() + browser.cursorRect().top() - 8)
    cursor = browser.textCursor()
    cursor.clearSelection()
    browser.setTextCursor(cursor)
    _settle(app, 0.5)


def levels_screen(app: QCoreApplication, out: Path) -> None:
    """Deutschland's balance dialog after a short mixed table of MCTS levels (a level per seat)
    with a skill trace (levels 2-3, 2 deals), the Figures page at the skill trace."""
    from engine.mapio import load_map
    from mapeditor.widgets.balance_dialog import BalanceDialog

    path = bundled_map("deutschland")
    dialog = BalanceDialog(load_map(path), map_path=path)
    dialog.resize(1000, 980)
    dialog.show()
    dialog.games.setValue(3)
    dialog.players.setValue(3)
    dialog.workers.setValue(1)
    dialog.seed.setValue(1)
    dialog.seats.set_specs(["mcts@2", "mcts:cities@4", "greedy"])
    dialog.skill_levels.setText("2-3")
    dialog.skill_deals.setValue(2)
    _run(app, dialog)
    dialog.tabs.setCurrentWidget(dialog.summary)
    _scroll_to(app, dialog.summary, "Skill trace")
    dialog.grab().save(str(out / "balance-levels.png"))
    print(out / "balance-levels.png")
    dialog.close()


def tune_screen(app: QCoreApplication, out: Path) -> None:
    """The Tune page on a copy of Italia (the answer's rule-set file is written beside it):
    a number of its rule-set file and where Bari lies searched, the answer applied."""
    import shutil
    import tempfile

    from mapeditor.widgets.balance_dialog import BalanceDialog
    from mapeditor.widgets.main_window import open_editor

    folder = Path(tempfile.mkdtemp(prefix="tune-screen-"))
    for name in ("italia.json", "italia.ruleset.json"):
        shutil.copy(bundled_map("italia").parent / name, folder / name)
    window = open_editor(folder / "italia.json")
    dialog = BalanceDialog(window.document.snapshot(), window, document=window.document)
    dialog.resize(1000, 980)
    dialog.show()
    dialog.workers.setValue(1)
    dialog.seed.setValue(1)
    dialog.styles_deals.setValue(0)
    page = dialog.tune_page
    page.params.set_rows(
        [
            ["ruleset/mechanics/vino/reward/points/town_colour", "6", "16"],
            ["start.Bari", "21,17|19,15|19,17|20,18", ""],
        ]
    )
    page.targets.set_rows([["share.vino", "0.07", "0.02"], ["seat1", "0.5", "0.15"]])
    page.min_games.setValue(20)
    page.max_games.setValue(60)
    page.trials.setValue(8)
    _run(app, dialog, "tune")
    page.apply_button.click()
    _settle(app, 0.5)
    dialog.grab().save(str(out / "balance-tune.png"))
    print(out / "balance-tune.png")
    dialog.close()
    window.document.undo_stack.setClean()
    window.close()
    shutil.rmtree(folder)


def _shown_report(
    app: QCoreApplication, m: Any, *, seed: int, size: tuple[int, int], map_path: Path | None = None
) -> Any:
    """The balance dialog on ``m`` showing a report of ``REPORT_GAMES`` greedy games."""
    from engine.analysis.balance import balance_report
    from engine.analysis.simulate import simulate
    from mapeditor.widgets.balance_dialog import BalanceDialog

    dialog = BalanceDialog(m, map_path=map_path)
    dialog.styles_deals.setValue(0)  # the picture's report has no styles study
    dialog.games.setValue(REPORT_GAMES)
    dialog.seed.setValue(seed)
    result = simulate(m, dialog.config(), workers=1)  # what Run does, without its thread
    dialog.resize(*size)
    dialog.show()
    dialog.show_report(balance_report(m, result))
    return dialog


def rule_set_screens(app: QCoreApplication, out: Path) -> None:
    """The Rule set dock on France: the preset with a changed number, two mistakes listed and
    marked, and a missing print clicked in the issues list."""
    import dataclasses

    from mapeditor.commands import change_entries
    from mapeditor.widgets.main_window import open_editor

    window = open_editor(bundled_map("france"))
    window.resize(1500, 950)
    window.show()
    dock = window.ruleset
    dock.use_preset("france")
    dock.spin_box(("mechanics", 0, "reward", "points", "town_colour")).setValue(7)
    window.docks["Rule set"].raise_()
    _settle(app, 1.0)
    root = dock.widget()
    if root is not None:
        root.grab().save(str(out / "ruleset-dock.png"))
    dock.spin_box(("supply", "per_colour")).setValue(12)
    dock.spin_box(("mechanics", 0, "pay", "value")).setValue(40)
    window.validation.run_now()
    _until(app, lambda: bool(window.validation.model.issues))
    _settle(app, 0.5)
    dock.ensureWidgetVisible(dock.spin_box(("supply", "values", "1")))
    window.statusBar().clearMessage()
    window.grab().save(str(out / "ruleset-issues.png"))
    doc = window.document
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    town = min(doc.map.towns, key=lambda sq: (sq[0], sq[1]))
    cleared = dataclasses.replace(doc.map.towns[town], grape=None)
    change_entries(doc, "towns", {town: cleared}, "Clear grape")
    window.validation.run_now()
    model = window.validation.model

    def missing() -> list[int]:  # the town's missing colour (France's own check names it)
        return [
            i
            for i, x in enumerate(model.issues)
            if x.code.startswith("ruleset-missing") or x.code.endswith("town-without-grape")
        ]

    _until(app, lambda: bool(missing()))
    rows = missing()
    row = rows[0]
    window.validation._on_clicked(model.index(row))
    _settle(app, 0.5)
    window.grab().save(str(out / "ruleset-missing-print.png"))
    for name in ("ruleset-dock", "ruleset-issues", "ruleset-missing-print"):
        print(out / f"{name}.png")
    doc.undo_stack.setClean()
    window.close()


HERRING = Path(__file__).resolve().parent.parent / "docs" / "rule-language" / "herring.ruleset.json"
"""The designer's rule set the rule-language pictures show."""


def rule_language_screens(app: QCoreApplication, out: Path) -> None:
    """A designer's rule set on the France map: fish markets painted with the marks bar, the
    Rules form of its offer in the dock, then bots playing it in the playtest."""
    import json

    from engine.mapdef import Colour, MarkSquare
    from mapeditor.commands import change_entries, set_rule_set
    from mapeditor.playtest.setup import Seat, default_setup
    from mapeditor.playtest.window import PlaytestWindow
    from mapeditor.ruleset_data import data_state
    from mapeditor.widgets.main_window import open_editor

    window = open_editor(bundled_map("france"))
    window.resize(1500, 1000)
    window.show()
    doc = window.document
    set_rule_set(doc, data_state(json.loads(HERRING.read_text(encoding="utf-8"))), "Herring")
    coast = sorted(sq for sq in doc.map.land if sq not in doc.map.towns)[::23][:6]
    markets = {sq: MarkSquare("fish_market", Colour.ORANGE, i + 1) for i, sq in enumerate(coast)}
    change_entries(doc, "marks", markets, "Fish markets")
    window.marks_bar.choose("fish_market")
    dock = window.ruleset
    window.docks["Rule set"].raise_()
    dock.select_entry("rules", 1)  # nested conditions and a quantity
    _settle(app, 1.5)
    window.statusBar().clearMessage()
    window.grab().save(str(out / "ruleset-dock-rules.png"))
    from PySide6.QtWidgets import QGroupBox

    def box(title: str) -> QGroupBox:
        return next(b for b in dock.findChildren(QGroupBox) if b.title() == title and b.isVisible())

    rules = box("Rules")
    dock.ensureWidgetVisible(rules)
    _settle(app, 0.3)
    rules.grab().save(str(out / "ruleset-dock-form.png"))
    resources = box("Resources")
    dock.ensureWidgetVisible(resources)
    _settle(app, 0.3)
    resources.grab().save(str(out / "ruleset-dock-resources.png"))
    m = doc.map
    report_screen(app, m, out)
    setup = default_setup(m, seed=7, players=2)
    setup.seats = [Seat("Anna", "#d7301f", "greedy"), Seat("Ben", "#2b6cc4", "greedy")]
    play = PlaytestWindow(m, setup, pace_ms=0)
    play.ask_to_keep_game = False
    play.resize(1500, 1000)
    play.show()
    while play.game.turn < 30 and not play.game.is_over():
        app.processEvents()
    play._cancel_bot()
    _settle(app, 0.5)
    play._refresh()
    _settle(app, 0.3)
    play.grab().save(str(out / "playtest-herring.png"))
    for name in (
        "ruleset-dock-rules",
        "ruleset-dock-form",
        "ruleset-dock-resources",
        "report-herring",
        "playtest-herring",
    ):
        print(out / f"{name}.png")
    play.close()
    doc.undo_stack.setClean()
    window.close()


def report_screen(app: QCoreApplication, m: Any, out: Path) -> None:
    """The balance report of ``m``'s rule set (greedy bots) in the editor's balance dialog, at
    its rule section: the rules by their titles, the resources by their names and icons."""
    dialog = _shown_report(app, m, seed=11, size=(900, 860))
    dialog.tabs.setCurrentIndex(2)
    _settle(app, 0.5)
    summary = dialog.summary
    summary.find("held at the end")  # the resources' table, under the rules' table
    cursor = summary.textCursor()
    cursor.clearSelection()
    summary.setTextCursor(cursor)
    bar = summary.verticalScrollBar()  # that table low in the view: the rules' one above it
    bar.setValue(bar.value() + summary.cursorRect().top() - summary.viewport().height() * 2 // 3)
    _settle(app, 0.3)
    dialog.grab().save(str(out / "report-herring.png"))
    dialog.close()


REPORT_GAMES = 20
"""Games of the report picture (greedy bots: a minute or two)."""


if __name__ == "__main__":
    raise SystemExit(main())
