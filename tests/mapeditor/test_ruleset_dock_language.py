"""The Rule set dock composes the rule language: resources, marks and when/if/then rules,
the sheet's setup; every change one undo step, the checker's lines beside the fields."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
)

from engine.mapio import load_map
from engine.resources import bundled_map
from tests.mapeditor._dock_input import click, content, find, menu_pick, pick, type_into


def _window(make_editor: Any) -> Any:
    window = make_editor(load_map(bundled_map("example-small")))
    window.ruleset.use_preset("deutschland")
    return window


def test_a_rule_is_built_from_the_dock_with_mouse_and_keys(make_editor, qtbot) -> None:
    window = _window(make_editor)
    dock, stack = window.ruleset, window.document.undo_stack
    start = stack.count()

    click(dock, find(dock, QPushButton, "ruleset_add_resources"))
    type_into(dock, find(dock, QLineEdit, "rs:resources[0].id"), "herring")
    type_into(dock, find(dock, QLineEdit, "rs:resources[0].name"), "Herring")
    assert content(window)["resources"][0]["id"] == "herring"
    assert stack.count() == start + 3

    click(dock, find(dock, QPushButton, "ruleset_add_rules"))
    type_into(dock, find(dock, QLineEdit, "rs:rules[0].title"), "Fishing")
    pick(dock, find(dock, QComboBox, "rs:rules[0].when"), "tile_placed")
    menu_pick(dock, "ruleset_add_if", "on")
    pick(dock, find(dock, QComboBox, "rs:rules[0].if[0].print"), "sea")
    pick(dock, find(dock, QComboBox, "rs:rules[0].then[0].kind"), "gain")
    rule = content(window)["rules"][0]
    assert rule["title"] == "Fishing"
    assert rule["if"] == [{"kind": "on", "print": "sea"}]
    assert rule["then"] == [{"kind": "gain", "resource": "herring", "amount": 1}]
    type_into(dock, find(dock, QSpinBox, "rs:rules[0].then[0].amount"), "2")
    assert content(window)["rules"][0]["then"][0]["amount"] == 2
    click(dock, find(dock, QPushButton, "ruleset_add_limit"))
    assert content(window)["rules"][0]["limits"] == [{"per": "game", "times": 1}]
    spec = window.document.map.rule_set.spec
    assert spec is not None and spec.rules[0].title == "Fishing"
    assert spec.resources[0].name == "Herring"

    texts = [stack.text(i) for i in range(start, stack.count())]
    assert texts[-1] == "Add a limit to rules[0].limits"
    while stack.index() > start + 3:  # undo back to the resource, the rule gone
        stack.undo()
    assert "rules" not in content(window) or content(window)["rules"] == []
    stack.redo()
    assert content(window)["rules"][0]["id"] == "rule"


def test_a_supply_smaller_than_30_is_set_in_the_sheet_setup(make_editor, qtbot) -> None:
    window = _window(make_editor)
    dock = window.ruleset
    assert "sheet_setup" in content(window)  # the preset has the sheet's 30
    given = find(dock, QCheckBox, "rs:sheet_setup")
    click(dock, given)  # off: no setup
    assert "sheet_setup" not in content(window)
    click(dock, find(dock, QCheckBox, "rs:sheet_setup"))
    chips = find(dock, QSpinBox, "rs:sheet_setup.chips")
    assert (chips.minimum(), chips.maximum(), chips.value()) == (0, 60, 30)
    type_into(dock, chips, "20")
    assert content(window)["sheet_setup"]["chips"] == 20
    assert window.document.map.rule_set.spec.sheet_setup.chips == 20
    window.document.undo_stack.undo()
    assert content(window)["sheet_setup"]["chips"] == 30


def test_a_mistake_is_shown_beside_its_form_and_nothing_moves(make_editor, qtbot) -> None:
    window = _window(make_editor)
    dock = window.ruleset
    click(dock, find(dock, QPushButton, "ruleset_add_rules"))
    pick(dock, find(dock, QComboBox, "rs:rules[0].then[0].kind"), "extra_turn")

    def below() -> Any:  # the form's last button: where it is shows whether the form moved
        button = find(dock, QPushButton, "ruleset_add_limit")
        return button.mapTo(dock.widget(), button.rect().topLeft())

    def line() -> str:
        return str(find(dock, QLabel, "rs-problems:rules[0]").text())

    where = below()
    assert line() == "" and window.document.map.rule_set.spec is not None
    pick(dock, find(dock, QComboBox, "rs:rules[0].when"), "end_of_round")
    expected = "rules[0].then: an extra turn at 'end_of_round' has no turn to follow"
    assert line() == expected
    assert expected in dock.problem_label.text()
    assert window.document.map.rule_set.spec is None  # kept as written, not refused
    assert below() == where

    pick(dock, find(dock, QComboBox, "rs:rules[0].then[0].kind"), "points")
    assert line() == ""
    click(dock, find(dock, QCheckBox, "ruleset_advanced"))  # the rule as JSON text
    before = content(window)
    text = find(dock, QLineEdit, "rs:rules[0]")
    type_into(dock, text, '{"id": ')
    assert content(window) == before  # text that is not JSON changes nothing
    assert "rules[0]: not JSON" in line()
    assert text.palette().color(text.backgroundRole()).red() == 255
    rule = {"id": "pasted", "when": "tile_placed", "then": [{"kind": "points", "amount": 2}]}
    type_into(dock, find(dock, QLineEdit, "rs:rules[0]"), json.dumps(rule))
    assert content(window)["rules"][0] == {**rule, "choice": "compulsory", "chooser": "current"}
    assert line() == ""
