"""The Tune page with every kind of tuner parameter: numbers inside a rule-set file
(``ruleset/PATH``) and where a start square lies (``start.NAME``, a choice), checked on their
rows by the tuner's own :func:`~engine.analysis.tune.check_space`, and applied to the open map
as one undo step that undo takes back exactly. Clicks are real (pytest-qt)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QPushButton

from engine.mapio import load_map, map_to_dict
from engine.resources import bundled_map
from mapeditor.document import MapDocument
from mapeditor.widgets.balance_dialog import BalanceDialog

VINO = "ruleset/mechanics/vino/reward/points/town_colour"


@pytest.fixture
def italia_copy(tmp_path: Path) -> Path:
    """Italia and its rule-set file, copied into a folder of their own."""
    for name in ("italia.json", "italia.ruleset.json"):
        shutil.copy(bundled_map("italia").parent / name, tmp_path / name)
    return tmp_path / "italia.json"


def _answer(values: dict[str, Any]) -> dict[str, Any]:
    """A tuner's result whose answer is ``values`` (met on 10 games)."""
    figure = {"figure": "seat1", "target": 0.5, "tol": 0.1, "mean": 0.5, "ci": [0.45, 0.55]}
    judged = {"games": 10, "figures": [{**figure, "status": "met"}], "status": "met", "loss": 0}
    best = {"trial": 0, "values": values, "rungs": [judged], "status": "met"}
    refused = {"trial": 1, "values": values, "rungs": [], "status": "refused"}
    refused["refused"] = "--tune start.Bari=18,16: the town 'Foggia' is there"
    return {
        "run": {"bot": "greedy", "players": [2], "seed": 1},
        "params": [{"name": k, "low": 0, "high": 1} for k in values],
        "targets": [{"figure": "seat1", "value": 0.5, "tol": 0.1}],
        "rungs": [10],
        "trials": 2,
        "max_trials": 5,
        "games_played": 10,
        "met": True,
        "best": best,
        "tried": [best, refused],
        "map": {"id": "italia", "name": "Italia"},
    }


def _open(qtbot, make_editor, path: Path) -> Any:
    """The editor on ``path`` and its balance dialog (Map ▸ Balance report…)."""
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    action = next(a for a in window.findChildren(QAction) if a.text() == "&Balance report…")
    action.trigger()
    dialog = window._balance_dialog
    qtbot.waitExposed(dialog)
    return window, dialog


def test_rows_take_rule_set_paths_and_start_square_choices(qtbot, italia_copy) -> None:
    dialog = BalanceDialog(load_map(italia_copy))
    qtbot.addWidget(dialog)
    params = dialog.tune_page.params
    params.set_rows(
        [
            [VINO, "6", "16"],
            ["start.Bari", "21,17 | 19,15", ""],
            ["ruleset/mechanics/espresso/pay/value", "40", "50"],
            ["start.13,4", "13,4|18,16", ""],
            ["ruleset/mechanics/wine/pay/value", "1", "3"],
        ]
    )
    assert params.errors[:2] == ["", ""]
    assert params.items()[1] == "start.Bari=21,17 | 19,15"
    # check_space's own words, on the row: every number of the range, every square
    assert params.errors[2] == (
        "--tune ruleset/mechanics/espresso/pay/value=46: the rule-set checker refuses it: "
        "mechanics[2].pay.value: 46 is more than the largest chip total 45"
    )
    assert params.errors[3].endswith("the town 'Foggia' is there")
    assert (
        "no item 'wine'" in params.errors[4] and "by id: vino, olio, espresso" in params.errors[4]
    )
    problem = dialog.tune_page.findChild(type(dialog.tune_page.applied), "tune-params-problem")
    assert problem.text().startswith("Row 3: --tune ruleset/mechanics/espresso/pay/value=46")
    params.remove_row(4)
    params.remove_row(3)
    params.remove_row(2)
    assert params.errors == ["", ""] and problem.text() == ""
    assert [p.name for p in dialog.tune_page.settings()["params"]] == [VINO, "start.Bari"]


def test_the_name_cell_offers_the_map_s_parameters(qtbot, italia_copy) -> None:
    dialog = BalanceDialog(load_map(italia_copy))
    qtbot.addWidget(dialog)
    dialog.show()
    page = dialog.tune_page
    dialog.tabs.setCurrentWidget(page)
    qtbot.mouseClick(page.findChild(QPushButton, "tune-params-add"), Qt.MouseButton.LeftButton)
    editor = page.params_view.findChild(QLineEdit)  # the new row's name, open for typing
    dialog.activateWindow()  # as a window the user works in (offscreen gives no focus)
    qtbot.waitActive(dialog)
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus, timeout=5_000)
    qtbot.keyClicks(editor, "vino/reward")  # any part of the name
    completer = editor.completer()
    offered = [
        completer.completionModel().index(r, 0).data() for r in range(completer.completionCount())
    ]
    assert offered == [VINO]
    qtbot.keyClick(completer.popup(), Qt.Key.Key_Down)  # the keys go to the open list
    qtbot.keyClick(completer.popup(), Qt.Key.Key_Return)
    assert editor.text() == VINO and not completer.popup().isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the cell committed
    qtbot.waitUntil(lambda: page.params.rows[1][0] == VINO, timeout=5_000)
    assert page.params.errors[1].startswith(f"--tune '{VINO}=..': ")  # a range still to write
    for col, text in ((1, "6"), (2, "16")):
        page.params.setData(page.params.index(1, col), text)
    assert page.params.errors == ["", ""]


def test_a_rule_set_answer_goes_to_a_new_file_in_one_undo_step(
    qtbot, make_editor, italia_copy
) -> None:
    window, dialog = _open(qtbot, make_editor, italia_copy)
    doc = window.document
    original = (italia_copy.parent / "italia.ruleset.json").read_bytes()
    before = map_to_dict(doc.map, inline_rule_set=True)
    ref = doc.map.rule_set
    dialog.show_tuning(_answer({VINO: 12, "tile_count": 80}))
    assert "refused: --tune start.Bari=18,16: the town 'Foggia' is there" in (
        dialog.tune_page.answer.toPlainText()
    )
    qtbot.mouseClick(dialog.tune_page.apply_button, Qt.MouseButton.LeftButton)
    tuned = italia_copy.parent / "italia.tuned.ruleset.json"
    assert doc.map.rule_set.file == "italia.tuned.ruleset.json"
    assert json.loads(tuned.read_text())["mechanics"][0]["reward"]["points"]["town_colour"] == 12
    assert (italia_copy.parent / "italia.ruleset.json").read_bytes() == original
    assert doc.map.setup.tile_pool_max == 80
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Apply tuning"
    assert dialog.tune_page.applied.text() == (
        f"Applied to the map (one undo step): {VINO}=12, tile_count=80. The tuned rule set was "
        "written to a new file, italia.tuned.ruleset.json, which the map now names (undo names "
        "the original again; the new file stays)."
    )
    after = map_to_dict(doc.map, inline_rule_set=True)
    window.undo_action.trigger()  # Edit ▸ Undo
    assert map_to_dict(doc.map, inline_rule_set=True) == before and doc.undo_stack.isClean()
    assert doc.map.rule_set == ref  # the original file named again, with its rule set
    window.redo_action.trigger()
    assert map_to_dict(doc.map, inline_rule_set=True) == after
    doc.save()  # the map names the tuned file; the original is untouched
    assert load_map(italia_copy).rule_set == doc.map.rule_set
    assert json.loads(italia_copy.read_text())["rule_set"] == {"file": "italia.tuned.ruleset.json"}
    assert (italia_copy.parent / "italia.ruleset.json").read_bytes() == original


def test_a_start_square_answer_moves_it_in_one_undo_step(qtbot, make_editor, italia_copy) -> None:
    window, dialog = _open(qtbot, make_editor, italia_copy)
    doc = window.document
    before = map_to_dict(doc.map, inline_rule_set=True)
    bari = doc.map.start_squares[21, 17]
    dialog.show_tuning(_answer({"start.Bari": "19,15", "start_squares": 3}))
    qtbot.mouseClick(dialog.tune_page.apply_button, Qt.MouseButton.LeftButton)
    assert (21, 17) not in doc.map.start_squares and doc.map.start_squares[19, 15] == bari
    assert doc.map.setup.start_squares_used == 3
    assert doc.map.rule_set.file == "italia.ruleset.json"  # no rule-set number: same file
    assert not (italia_copy.parent / "italia.tuned.ruleset.json").exists()
    assert dialog.tune_page.applied.text() == (
        "Applied to the map (one undo step): start.Bari=19,15, start_squares=3."
    )
    assert doc.undo_stack.count() == 1
    after = map_to_dict(doc.map, inline_rule_set=True)
    window.undo_action.trigger()
    assert map_to_dict(doc.map, inline_rule_set=True) == before
    window.redo_action.trigger()
    assert map_to_dict(doc.map, inline_rule_set=True) == after


def test_an_answer_the_map_now_refuses_changes_nothing(qtbot, italia_copy) -> None:
    doc = MapDocument.open(italia_copy)
    dialog = BalanceDialog(doc.snapshot(), document=doc)
    qtbot.addWidget(dialog)
    dialog.show_tuning(_answer({"start.Bari": "18,16"}))  # a town there now
    qtbot.mouseClick(dialog.tune_page.apply_button, Qt.MouseButton.LeftButton)
    assert dialog.tune_page.applied.text() == (
        "Not applied: --tune start.Bari=18,16: the town 'Foggia' is there"
    )
    assert doc.undo_stack.count() == 0 and (21, 17) in doc.map.start_squares


def test_chips_laid_out_go_where_the_game_reads_them(italia_copy) -> None:
    """``rule.chip_count`` overrides the rule set's own count when it fixes one, else the map's
    setup: the applied map lays out as many chips as the tuned option did."""
    from engine.analysis.simulate import SimConfig, new_game, rule_set_for
    from engine.analysis.tune import config_for
    from engine.mapdef import EmbeddedRuleSet
    from engine.rules.data.ruleset import spec_of_valid_dict
    from mapeditor.tuning_edits import tuning_changes

    m = load_map(italia_copy)
    data = m.rule_set.spec.to_dict()
    data["layout"]["count"] = 20
    fixed = m.copy()
    fixed.rule_set = EmbeddedRuleSet(spec_of_valid_dict(data, None))
    for layout, where in ((m, "setup"), (fixed, "rule set")):
        plan = tuning_changes(layout, {"rule.chip_count": 12})
        assert (plan.fields == {}) == (where == "rule set")
        applied = layout.copy()
        applied.setup.chip_count = plan.fields.get("setup.chip_count", applied.setup.chip_count)
        applied.rule_set = plan.rule_set or applied.rule_set
        base = SimConfig(rules=True)
        rule_set, _missing = rule_set_for(layout, True)
        tuned = new_game(layout, 2, 5, rule_set, config_for(base, {"rule.chip_count": 12}))
        played = new_game(applied, 2, 5, rule_set, base)
        name = next(iter(played.rule_state))
        assert played.rule_state[name].down == tuned.rule_state[name].down
        assert len(played.rule_state[name].down) == 12
