"""The balance dialog's play styles ("which plan wins", a bot and style per seat) and its Tune
page: rows checked as they are typed, a run with progress and cancel, "Apply to map" as one
undo step that undo takes back exactly. Clicks and keys are real (pytest-qt)."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QLineEdit, QMessageBox, QPushButton

from engine.analysis.plans import skill_games, style_games
from engine.bots.spec import DEFAULT_LEVEL, BotSpec
from engine.errors import EngineError
from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.document import MapDocument
from mapeditor.tuning_edits import tuning_changes
from mapeditor.widgets.balance_dialog import BalanceDialog
from tests.mapeditor._processes import other_children


@pytest.fixture
def small():
    return load_map(bundled_map("example-small"))


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_bot_and_a_style_per_seat_make_the_run_s_bot_specs(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.players.setValue(3)
    dialog.play_style.setCurrentText("farmer")
    assert dialog.config().bot == "greedy:farmer" and dialog.config().seats == ()
    dialog.bot.setCurrentText("random")  # the random bot has no style
    assert not dialog.play_style.isEnabled() and dialog.config().bot == "random"
    dialog.seats.mixed.setChecked(True)
    assert not dialog.bot_choice.isEnabled()  # every seat is chosen on its own now
    first, second, third = dialog.seats.choices[:3]
    first.bot.setCurrentText("mcts")
    first.play_style.setCurrentText("cities")
    third.play_style.setCurrentText("thrifty")
    assert dialog.config().seats == ("mcts:cities", "greedy", "greedy:thrifty")
    assert not dialog.seats.choices[3].isVisibleTo(dialog)  # three players, three rows
    with pytest.raises(EngineError, match="'clever' is not one of"):
        dialog.seats.set_specs(["greedy", "clever"])
    with pytest.raises(EngineError, match="a level is mcts@1 to mcts@10"):
        dialog.seats.set_specs(["mcts@4", "greedy@4"])
    assert dialog.config().seats == ("mcts:cities", "greedy", "greedy:thrifty")  # unchanged


def test_a_strength_level_is_chosen_for_the_mcts_bot_as_the_command_line_writes_it(
    qtbot, small
) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    assert dialog.level.value() == DEFAULT_LEVEL == 8  # the default bot's level, preselected
    assert not dialog.level.isEnabled()  # greedy: no level
    dialog.bot.setCurrentText("mcts")
    assert dialog.level.isEnabled() and dialog.config().bot == "mcts"  # the default bot
    dialog.level.setValue(4)
    assert dialog.config().bot == "mcts@4"
    dialog.play_style.setCurrentText("farmer")
    assert dialog.config().bot == "mcts:farmer@4"
    assert BotSpec.parse(dialog.config().bot) == BotSpec("mcts", "farmer", 4)  # the CLI's reading
    dialog.bot.setCurrentText("greedy")  # a level is the MCTS bot's only
    assert not dialog.level.isEnabled() and dialog.config().bot == "greedy:farmer"
    # one level per seat at a mixed table
    dialog.players.setValue(3)
    dialog.seats.mixed.setChecked(True)
    first, second, third = dialog.seats.choices[:3]
    for choice, bot, level in ((first, "mcts", 2), (second, "mcts", 10), (third, "greedy", 3)):
        choice.bot.setCurrentText(bot)
        choice.level.setValue(level)
    second.play_style.setCurrentText("cities")
    assert not third.level.isEnabled()
    assert dialog.config().seats == ("mcts@2", "mcts:cities@10", "greedy")
    # set_specs shows what the command line writes, and writes it back the same
    dialog.seats.set_specs(["mcts:roads@6", "mcts", "random"])
    assert (first.level.value(), second.level.value()) == (6, DEFAULT_LEVEL)
    assert dialog.config().seats == ("mcts:roads@6", "mcts", "random")
    dialog.seats.set_specs(["mcts@8", "greedy", "greedy"])  # the default level: the default bot
    assert dialog.config().seats == ("mcts", "greedy", "greedy")


def test_a_report_from_the_dialog_plays_the_levels_chosen_and_remembers_them(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.games.setValue(2)
    dialog.workers.setValue(1)
    dialog.bot.setCurrentText("mcts")
    dialog.level.setValue(2)
    dialog.seats.mixed.setChecked(True)
    first, second = dialog.seats.choices[:2]
    first.bot.setCurrentText("mcts")
    first.level.setValue(1)
    second.bot.setCurrentText("mcts")
    second.play_style.setCurrentText("thrifty")
    second.level.setValue(3)
    with qtbot.waitSignal(dialog.run_ended, timeout=180_000) as blocker:
        _click(qtbot, dialog.run_button)
    assert blocker.args == ["done"]
    run = dialog.report["run"]
    assert run["seats"] == ["mcts@1", "mcts:thrifty@3"] and run["bot"] == "mcts@2"
    assert {b["bot"] for b in dialog.report["bots"]} == {"mcts@1", "mcts:thrifty@3"}
    page = dialog.summary.toPlainText()
    assert "with 2 players, bot mcts@1/mcts:thrifty@3," in page  # the header names each seat's
    assert "--seats mcts@1,mcts:thrifty@3" in page and "--mcts-iterations" not in page
    again = BalanceDialog(small)  # the levels are remembered with the other settings
    qtbot.addWidget(again)
    assert again.level.value() == 2 and again.bot.currentText() == "mcts"
    assert again.config().seats == ("mcts@1", "mcts:thrifty@3")


def test_a_skill_trace_is_asked_for_beside_which_plan_wins(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    assert dialog.skill_levels.text() == "" and dialog.skill_deals.value() == 20  # off
    dialog.games.setValue(2)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    dialog.skill_levels.setText("1-2")
    shown: list[str] = []
    monkey = pytest.MonkeyPatch()
    monkey.setattr(QMessageBox, "warning", lambda _p, _t, text: shown.append(text))
    try:
        dialog.start()
    finally:
        monkey.undo()
    assert shown == ["--skill-trace: '1-2': levels are 2..10 (each plays the one below)"]
    assert not dialog.is_running() and dialog.report is None
    dialog.skill_levels.setText("2,3")
    dialog.skill_deals.setValue(1)
    with qtbot.waitSignal(dialog.run_ended, timeout=180_000) as blocker:
        _click(qtbot, dialog.run_button)
        assert dialog.progress is not None
        assert dialog.progress.maximum() == 2 + skill_games([2, 3], 1) == 6
    assert blocker.args == ["done"]
    trace = dialog.report["skill_trace"]
    assert trace["deals"] == 1 and [r["level"] for r in trace["levels"]] == [2, 3]
    assert all(r["games"] == 2 for r in trace["levels"])
    page = dialog.summary.toPlainText()
    assert "Skill trace" in page and "--skill-trace 2,3 --skill-deals 1" in page
    assert dialog.status.text().endswith(
        f"Skill trace (levels 2,3; 1 deals each): the stronger level won "
        f"{trace['mean_rate']:.0%} on average.".replace("%", " %")
    )
    # a report only: off for comparisons and sweeps
    dialog.kind.setCurrentIndex(dialog.kind.findData("sweep"))
    assert not dialog.skill_levels.isEnabled() and not dialog.skill_deals.isEnabled()


def test_which_plan_wins_adds_the_styles_and_the_bot_s_seat_effect(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.games.setValue(2)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    dialog.styles_deals.setValue(1)
    with qtbot.waitSignal(dialog.run_ended, timeout=180_000) as blocker:
        _click(qtbot, dialog.run_button)
        assert dialog.progress is not None
        assert dialog.progress.maximum() == 2 + style_games(1)
    assert blocker.args == ["done"]
    styles = dialog.report["styles"]
    assert styles["deals"] == 1
    assert {f["bot"] for f in styles["styles"]} == {
        "greedy:chips",
        "greedy:cities",
        "greedy:farmer",
        "greedy:roads",
        "greedy:thrifty",
    }
    page = dialog.summary.toPlainText()
    assert "Which plan wins on this map" in page and "Seat effect of the bot" in page
    # the styles chart is on the Charts page and in the Figures page's section
    chart = dialog.findChild(QLabel, "chart-styles")
    assert chart is not None and not chart.pixmap().isNull()
    assert "styles.png" in dialog.summary.toHtml()
    greedy = next(f for f in styles["seat_effect"] if f["bot"] == "greedy")
    assert f"Seat 1 wins {greedy['rate']:.0%}".replace("%", " %") in dialog.status.text()
    # the re-run command of a saved report asks for the same study
    dialog.styles_deals.setValue(0)
    assert dialog.styles_deals.text() == "off"


def test_tune_rows_are_checked_by_the_tuner_s_parser_as_they_are_typed(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.show()
    page = dialog.tune_page
    dialog.tabs.setCurrentWidget(page)
    params = page.params
    assert params.errors == [""]  # the first row: the tiles a game plays now, and below
    add = page.findChild(QPushButton, "tune-params-add")
    _click(qtbot, add)
    editor = page.params_view.findChild(QLineEdit)  # the new row's name, open for typing
    assert editor is not None
    qtbot.keyClicks(editor, "colour")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: params.rows[1][0] == "colour", timeout=5_000)  # committed
    assert params.errors[1].startswith("--tune 'colour=..': unknown parameter 'colour'")
    problem = page.findChild(type(page.applied), "tune-params-problem")
    assert problem.text().startswith("Row 2: --tune 'colour=..': unknown parameter")
    # the same name twice: the parser's own words, on the second row
    for col, text in enumerate(["tile_count", "10", "20"]):
        params.setData(params.index(1, col), text)
    assert params.errors[1] == "--tune: 'tile_count' given twice"
    # a bound the map cannot play is refused on its row, with the engine's reason
    params.setData(params.index(1, 0), "start_squares")
    params.setData(params.index(1, 1), "2")
    params.setData(params.index(1, 2), "9")
    assert "start_squares_used: 9 is not in 1..6" in params.errors[1]
    params.setData(params.index(1, 1), "2")
    params.setData(params.index(1, 2), "3")
    assert params.errors == ["", ""] and problem.text() == ""
    assert params.items()[1] == "start_squares=2..3"
    # targets: FIGURE=VALUE±TOL
    targets = page.targets
    targets.setData(targets.index(0, 2), "0")
    assert targets.errors == ["--target 'seat1=0.5±0': the tolerance must be positive"]
    targets.setData(targets.index(0, 2), "0.1")
    # Remove takes the selected row
    page.params_view.selectRow(1)
    _click(qtbot, page.findChild(QPushButton, "tune-params-remove"))
    assert params.items() == [params.item(0)] and params.rowCount() == 1


def test_tune_runs_applies_to_the_map_and_undo_restores_it(qtbot, make_editor, small) -> None:
    window = make_editor(small.copy())
    doc = window.document
    before = copy.deepcopy(doc.map.setup)
    balance = next(a for a in window.findChildren(QAction) if a.text() == "&Balance report…")
    balance.trigger()  # Map ▸ Balance report…: the dialog on a copy, applying to the document
    dialog = window._balance_dialog
    qtbot.waitExposed(dialog)
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    page = dialog.tune_page
    dialog.tabs.setCurrentWidget(page)
    p, t = page.params, page.targets
    for col, text in enumerate(["tile_count", "20", "40"]):
        p.setData(p.index(0, col), text)
    p.add_row("start_squares", "2", "3")
    for col, text in enumerate(["turns", "30", "1000"]):  # a band every game meets
        t.setData(t.index(0, col), text)
    page.min_games.setValue(2)
    page.max_games.setValue(2)
    page.trials.setValue(3)
    with qtbot.waitSignal(dialog.run_ended, timeout=180_000) as blocker:
        _click(qtbot, page.tune_button)
        assert dialog.progress is not None and dialog.progress.maximum() == 3
    assert blocker.args == ["done"]
    result = page.result
    assert result is not None and result["met"] and result["trials"] == 1
    values = result["best"]["values"]
    assert 20 <= values["tile_count"] <= 40 and values["start_squares"] in (2, 3)
    answer = page.answer.toPlainText()
    assert "Met" in answer and "turns" in answer and "met)" in answer
    assert dialog.status.text().startswith("Tuning met: 1 candidates")
    assert doc.map.setup == before  # nothing changes before Apply
    _click(qtbot, page.apply_button)
    setup = doc.map.setup
    assert setup.tile_pool_max == values["tile_count"]
    assert setup.start_squares_used == values["start_squares"]
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Apply tuning"
    assert page.applied.text().startswith("Applied to the map (one undo step): tile_count=")
    assert not page.apply_button.isEnabled()  # applied once
    window.undo_action.trigger()  # Edit ▸ Undo
    assert doc.map.setup == before and doc.undo_stack.isClean()
    window.redo_action.trigger()
    assert doc.map.setup.tile_pool_max == values["tile_count"]
    saved = dialog.save_to(dialog._charts_dir.name + "/tuning")
    assert saved["json"].name == "tuning.json"
    dialog.close()
    # the rows of the last run come back in the next dialog
    again = BalanceDialog(small)
    qtbot.addWidget(again)
    assert again.tune_page.params.rows == [["tile_count", "20", "40"], ["start_squares", "2", "3"]]
    assert again.tune_page.targets.rows == [["turns", "30", "1000"]]
    assert again.tune_page.params.errors == ["", ""]
    for junk in ("{not json", '{"params": [["tile_count", 1]]}', '["x"]'):
        again.tune_page.restore_rows(junk)  # a settings file edited by hand: skipped
    assert again.tune_page.params.rows[0] == ["tile_count", "20", "40"]


def test_cancelling_a_tuning_stops_its_workers(qtbot, small) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.bot.setCurrentText("greedy")
    dialog.workers.setValue(1)
    page = dialog.tune_page
    page.min_games.setValue(200)
    page.max_games.setValue(600)
    with qtbot.waitSignal(dialog.run_ended, timeout=120_000) as blocker:
        _click(qtbot, page.tune_button)
        assert not page.tune_button.isEnabled()
        qtbot.waitUntil(lambda: other_children() != [], timeout=60_000)
        # the first candidate's games are told while it plays
        qtbot.waitUntil(lambda: "games of its rung" in dialog.progress.labelText(), timeout=60_000)
        assert dialog.progress.labelText().startswith("Tried 0 of 30 candidates; the next has")
        _click(qtbot, dialog.progress.findChild(QPushButton))  # the user's Cancel
    assert blocker.args == ["cancelled"]
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=20_000)
    assert other_children() == []
    assert page.result is None and not page.apply_button.isEnabled()
    assert page.tune_button.isEnabled()


def test_what_the_map_cannot_hold_is_named_not_dropped(small) -> None:
    plan = tuning_changes(small, {"rule.chip_count": 12, "rule.ones_per_colour": 3})
    assert plan.fields == {"setup.chip_count": 12} and plan.rule_set is None
    assert plan.left == {
        "rule.ones_per_colour": "a play option of the rule set: the map file has no field for it"
    }


def test_the_applied_map_plays_as_the_tuned_settings_did(qapp) -> None:
    """Apply means the same game: the map with the answer's fields deals the tiles and lays
    out the chips that the tuner's settings did."""
    from engine.analysis.simulate import SimConfig, new_game, rule_set_for
    from engine.analysis.tune import config_for
    from mapeditor.tuning_edits import apply_tuning

    m = load_map(bundled_map("deutschland"))
    values = {"tile_count": 93, "rule.chip_count": 23, "start_squares": 3}
    base = SimConfig(rules=True)
    rule_set, _missing = rule_set_for(m, True)
    tuned = new_game(m, 2, 5, rule_set, config_for(base, values))
    doc = MapDocument(m.copy())
    assert apply_tuning(doc, values) == ({}, None)
    applied = new_game(doc.map, 2, 5, rule_set, base)
    assert applied.pile == tuned.pile and len(applied.pile) != len(
        new_game(m, 2, 5, rule_set, base).pile
    )
    down = [len(g.rule_state["deutschland"].down) for g in (tuned, applied)]
    assert down == [23, 23]
    assert doc.map.setup.start_squares_used == 3


def test_apply_names_what_the_map_cannot_hold(qtbot, small) -> None:
    doc = MapDocument(small.copy())
    dialog = BalanceDialog(doc.snapshot(), document=doc)
    qtbot.addWidget(dialog)
    figure = {"figure": "turns", "target": 40, "tol": 5, "mean": 41.0, "ci": [39.0, 43.0]}
    judged = {"games": 10, "figures": [{**figure, "status": "met"}], "status": "met", "loss": 0}
    best = {"trial": 0, "values": {"tile_count": 50, "rule.ones_per_colour": 3}, "rungs": [judged]}
    result = {
        "run": {"bot": "greedy", "players": [2], "seed": 1},
        "params": [
            {"name": "tile_count", "low": 40, "high": 60},
            {"name": "rule.ones_per_colour", "low": 0, "high": 10},
        ],
        "targets": [{"figure": "turns", "value": 40, "tol": 5}],
        "rungs": [10],
        "trials": 1,
        "max_trials": 5,
        "games_played": 10,
        "met": True,
        "best": {**best, "status": "met"},
        "tried": [{**best, "status": "met"}],
        "map": {"id": small.id, "name": small.name},
    }
    dialog.show_tuning(result)
    assert dialog.tabs.currentWidget() is dialog.tune_page
    _click(qtbot, dialog.tune_page.apply_button)
    assert doc.map.setup.tile_pool_max == 50
    assert dialog.tune_page.applied.text() == (
        "Applied to the map (one undo step): tile_count=50. Not applied: "
        "rule.ones_per_colour=3, a play option of the rule set: the map file has no field for it."
    )
    # a dialog opened without a document only reports
    alone = BalanceDialog(small)
    qtbot.addWidget(alone)
    alone.show_tuning(result)
    assert not alone.tune_page.apply_button.isEnabled()
