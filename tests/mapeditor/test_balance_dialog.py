"""Map > Balance report…: a run in worker processes fills the heat map and the charts; cancelling
stops the run and its workers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QPushButton

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.widgets.balance_dialog import BalanceDialog, render_heat
from tests.mapeditor._processes import other_children


@pytest.fixture
def small():
    return load_map(bundled_map("example-small"))


def test_run_shows_heat_map_charts_and_figures(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.games.setValue(4)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    dialog.seed.setValue(3)
    assert not dialog.rules.isEnabled()  # the example map has no Map-Chips rule set
    with qtbot.waitSignal(dialog.run_ended, timeout=60_000) as blocker:
        dialog.start()
        assert dialog.progress is not None and dialog.progress.maximum() == 4
    assert blocker.args == ["done"]
    report = dialog.report
    assert report is not None
    assert report["run"]["games_played"] == 4 and report["run"]["seed"] == 3
    assert dialog.heat.report is report
    assert dialog.save_button.isEnabled()
    assert "Balance report" in dialog.summary.toPlainText()
    assert "4 games" in dialog.status.text()
    assert dialog.progress is None and dialog.run_button.isEnabled()
    # the heat map is drawn over the map: a square built in every game (a start square is not
    # always used, but some square is built in all 4) differs from one never built
    img = render_heat(small, report, "often", scale=0.25)
    assert not img.isNull() and img.width() > 0
    # the heat map view tells each square's figures under the mouse
    dialog.heat.resize(600, 450)
    scale, dx, dy = dialog.heat._transform()
    centre = QPointF(dx + 4.5 * 64 * scale, dy + 2.5 * 64 * scale)
    assert dialog.heat.square_at(centre) == (4, 2)
    rate = report["fill"]["built_rate"][2][4]
    assert dialog.heat.describe_square((4, 2)).startswith(
        f"near Northtown (4, 2): built in {rate:.0%} of games"
    )
    assert "no tile" in dialog.heat.describe_square((0, 0))  # outside the map
    assert dialog.heat.square_at(QPointF(-5, -5)) is None
    dialog.heat_mode.setCurrentIndex(1)
    assert dialog.heat.mode == "early"
    dialog.heat.grab()  # paints without error in both modes


def test_cancel_stops_the_workers(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.games.setValue(60)
    dialog.bot.setCurrentText("greedy")
    dialog.workers.setValue(2)
    with qtbot.waitSignal(dialog.run_ended, timeout=60_000) as blocker:
        dialog.start()
        qtbot.waitUntil(
            lambda: dialog.progress is not None and dialog.progress.value() > 0, timeout=60_000
        )
        dialog.progress.findChild(QPushButton).click()  # the user's Cancel button
    assert blocker.args == ["cancelled"]
    assert dialog.report is None
    assert dialog.status.text() == "Cancelled."
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=10_000)
    assert other_children() == []


def test_map_menu_action_opens_the_dialog_on_a_copy(qtbot, small) -> None:
    from PySide6.QtWidgets import QMainWindow

    from mapeditor.widgets.balance_dialog import add_balance_report_action

    class Document:
        path = Path("maps/example-small.json")

        def snapshot(self):
            return small.copy()

    window = QMainWindow()
    qtbot.addWidget(window)
    window.document = Document()
    menu = window.menuBar().addMenu("&Map")
    action = add_balance_report_action(window, menu)
    assert action.text() == "&Balance report…"
    action.trigger()
    dialog = window._balance_dialog
    assert isinstance(dialog, BalanceDialog) and dialog.isVisible()
    assert dialog.map is not small and dialog.map.id == small.id
    assert dialog.map_path == Path("maps/example-small.json")  # named by its re-run command
    dialog.close()


def test_closing_the_dialog_stops_a_run(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.games.setValue(60)
    dialog.workers.setValue(2)
    dialog.start()
    qtbot.waitUntil(
        lambda: dialog.progress is not None and dialog.progress.value() > 0, timeout=60_000
    )
    dialog.close()
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=20_000)
    assert other_children() == []
    assert dialog.report is None


def test_compare_with_another_map_shows_a_verdict_and_saves(
    qtbot, small, tmp_path, monkeypatch
) -> None:
    import json

    from PySide6.QtWidgets import QMessageBox

    from mapeditor.widgets.balance_dialog import RUN_KINDS

    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: told.append(text))

    data = json.loads(bundled_map("example-small").read_text())
    data["start_squares"] = data["start_squares"][:2]
    b_path = tmp_path / "two-starts.json"
    b_path.write_text(json.dumps(data))
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(list(RUN_KINDS).index("compare"))
    assert dialog.map_b_button.isEnabled() and not dialog.sweep_text.isEnabled()
    assert not dialog.set_map_b(tmp_path / "missing.json")  # told, not taken
    assert dialog.map_b is None and told and "missing.json" in told[0]
    assert dialog.set_map_b(b_path)
    dialog.games.setValue(4)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    with qtbot.waitSignal(dialog.run_ended, timeout=120_000) as blocker:
        dialog.start()
        assert dialog.progress is not None and dialog.progress.maximum() == 8
    assert blocker.args == ["done"]
    cmp = dialog.comparison
    assert cmp is not None and cmp["a"]["games"] == cmp["b"]["games"] == 4
    assert dialog.status.text() == f"Verdict: {cmp['headline']}"
    assert "Balance comparison" in dialog.summary.toPlainText()
    assert dialog.heat.report is dialog.report  # this map's heat map
    files = dialog.save_to(tmp_path / "saved")
    assert files["json"].name == "comparison.json" and files["html"].exists()
    # the page names B's file as chosen, this map as unsaved, and what differs between them
    md = files["markdown"].read_text()
    assert md.startswith(f"# Balance comparison: this map (unsaved) (A) and {b_path} (B)")
    assert "- start square Southtown removed" in md
    assert "chart:difference" in files  # the difference map, drawn on map B


def test_sweep_and_mixed_table(qtbot, small, tmp_path) -> None:
    from mapeditor.widgets.balance_dialog import RUN_KINDS

    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(list(RUN_KINDS).index("sweep"))
    dialog.games.setValue(2)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    dialog.seats.set_specs(["greedy", "random"])
    dialog.sweep_text.setText("players=2,3; tile_count=30")
    with qtbot.waitSignal(dialog.run_ended, timeout=120_000) as blocker:
        dialog.start()
        assert dialog.progress is not None and dialog.progress.maximum() == 4
    assert blocker.args == ["done"]
    rep = dialog.sweep_report
    assert rep is not None and [r["point"] for r in rep["rows"]] == [
        {"players": 2, "tile_count": 30},
        {"players": 3, "tile_count": 30},
    ]
    assert rep["run"]["seats"] == ["greedy", "random"]
    assert "Balance sweep" in dialog.summary.toPlainText()
    assert dialog.save_to(tmp_path / "sw")["json"].name == "sweep.json"


def test_bad_settings_are_told_before_anything_runs(qtbot, small, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from mapeditor.widgets.balance_dialog import RUN_KINDS

    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: told.append(text))
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(list(RUN_KINDS).index("compare"))
    dialog.start()
    dialog.kind.setCurrentIndex(list(RUN_KINDS).index("sweep"))
    dialog.sweep_text.setText("colour=red")
    dialog.start()
    dialog.kind.setCurrentIndex(list(RUN_KINDS).index("report"))
    dialog.tune_page.targets.remove_row(0)  # a tuning with no target
    dialog.start("tune")
    assert [t.split(":")[0].split(" (")[0] for t in told] == [
        "choose map B",
        "--sweep 'colour=red'",
        "--tune needs at least one --target FIGURE=VALUE±TOL",
    ]
    assert not dialog.is_running() and dialog.progress is None


def test_the_heat_map_s_colours_are_the_ones_its_legend_names(qapp, small) -> None:
    """Over the print's pale green land the squares keep their hue: few games read purple,
    half teal, every game yellow, as the caption says (a translucent blue once read green)."""
    from mapeditor.painting import SQUARE, map_rect
    from mapeditor.widgets.heat_map import HEAT_LEGENDS

    squares = sorted(small.placeable_squares())
    low, mid, high = squares[0], squares[len(squares) // 2], squares[-1]
    rate = {low: 0.0, mid: 0.5, high: 1.0}
    grid = [
        [rate.get((x, y), 0.3) if (x, y) in set(squares) else None for x in range(small.width)]
        for y in range(small.height)
    ]
    report = {"fill": {"built_rate": grid, "mean_placement": grid, "never_reached": []}}
    img = render_heat(small, report, "often", scale=1.0)
    origin = map_rect(small).topLeft()

    def hue(square) -> int:
        x, y = square  # a corner of the square, clear of the town and its name
        at = (int(x * SQUARE + 6 - origin.x()), int(y * SQUARE + 6 - origin.y()))
        return img.pixelColor(*at).hslHue()

    assert 260 <= hue(low) <= 320  # purple
    assert 165 <= hue(mid) <= 200  # teal
    assert 45 <= hue(high) <= 65  # yellow
    words = HEAT_LEGENDS["often"]
    assert "Purple: built in few games" in words and "teal: in half" in words
    assert "yellow: in every game" in words
