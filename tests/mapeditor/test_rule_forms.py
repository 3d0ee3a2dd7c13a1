"""The Rule set dock's structured widgets: a rule with nested conditions and a quantity built
with the mouse and keys, undone and redone step by step; a colour and an icon picked; the saved
map holds what was built."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
)

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.document import MapDocument
from tests.mapeditor._dock_input import click, content, find, menu_pick, pick_named, type_into

BUILT_RULE = {
    "id": "rule",
    "title": "Rule",
    "when": "tile_placed",
    "if": [
        {
            "kind": "any",
            "of": [
                {"kind": "not", "of": {"kind": "round", "at_least": 3}},
                {"kind": "on", "print": "sea"},
            ],
        }
    ],
    "then": [
        {
            "kind": "gain",
            "resource": "salt",
            "amount": {"count": "held", "resource": "chips", "times": 2, "max": 5},
        }
    ],
    "choice": "compulsory",
    "chooser": "current",
}
"""What the dock builds (a valid rule set is written without its empty lists)."""


def test_a_rule_with_nested_conditions_and_a_quantity_from_scratch(
    make_editor, qtbot, monkeypatch, tmp_path: Path
) -> None:
    window = make_editor(load_map(bundled_map("example-small")))
    dock, stack = window.ruleset, window.document.undo_stack
    dock.use_preset("deutschland")
    start = stack.count()

    # a resource: its id, a colour from the colour dialog, an icon by name
    click(dock, find(dock, QPushButton, "ruleset_add_resources"))
    type_into(dock, find(dock, QLineEdit, "rs:resources[0].id"), "salt")
    asked: list[str] = []

    def get_color(initial: QColor, _parent: Any, title: str) -> QColor:
        asked.append(f"{initial.name()} {title}")
        return QColor("#d8d8d0")

    monkeypatch.setattr("mapeditor.widgets.rule_forms.QColorDialog.getColor", get_color)
    click(dock, find(dock, QPushButton, "rs:resources[0].colour"))
    assert asked == ["#808080 Colour of resources[0].colour"]
    pick_named(dock, "rs:resources[0].icon", "salt")
    resource = content(window)["resources"][0]
    assert (resource["colour"], resource["icon"]) == ("#d8d8d0", "salt")
    assert find(dock, QPushButton, "rs:resources[0].colour").text() == "#d8d8d0"

    # a rule: if any of (on the sea, not (round at least 3)), gain salt: twice the chips held
    click(dock, find(dock, QPushButton, "ruleset_add_rules"))
    menu_pick(dock, "ruleset_add_if", "any")
    assert content(window)["rules"][0]["if"] == [{"kind": "any", "of": [{"kind": "is_current"}]}]
    pick_named(dock, "rs:rules[0].if[0].of[0].kind", "on")
    pick_named(dock, "rs:rules[0].if[0].of[0].print", "sea")
    menu_pick(dock, "ruleset_add_rules[0].if[0].of", "not")
    deepest = find(dock, QComboBox, "rs:rules[0].if[0].of[1].of.kind")
    kinds = {deepest.itemData(i) for i in range(deepest.count())}
    assert "round" in kinds and not kinds & {"all", "any", "not"}  # the schema's depth
    pick_named(dock, "rs:rules[0].if[0].of[1].of.kind", "round")
    type_into(dock, find(dock, QSpinBox, "rs:rules[0].if[0].of[1].of.at_least"), "3")
    click(dock, find(dock, QPushButton, "rs-up:rules[0].if[0].of[1]"))
    assert not find(dock, QPushButton, "rs-up:rules[0].if[0].of[0]").isEnabled()

    pick_named(dock, "rs:rules[0].then[0].kind", "gain")
    pick_named(dock, "rs:rules[0].then[0].amount.count", "held")
    pick_named(dock, "rs:rules[0].then[0].amount.resource", "chips")
    type_into(dock, find(dock, QSpinBox, "rs:rules[0].then[0].amount.times"), "2")
    type_into(dock, find(dock, QSpinBox, "rs:rules[0].then[0].amount.max"), "5")

    built = content(window)
    assert built["rules"][0] == BUILT_RULE
    assert window.document.map.rule_set.spec is not None  # the checker accepts it
    assert find(dock, QLabel, "rs-problems:rules[0]").text() == ""

    texts = [stack.text(i) for i in range(start, stack.count())]
    assert "Move rules[0].if[0].of[1] up" in texts
    assert texts[-1] == "Change rules[0].then[0].amount.max"
    while stack.index() > start:
        stack.undo()
    assert "resources" not in content(window) or content(window)["resources"] == []
    while stack.canRedo():
        stack.redo()
    assert content(window) == built
    assert find(dock, QSpinBox, "rs:rules[0].then[0].amount.times").value() == 2

    target = tmp_path / "salt.json"
    window.document.save(target)
    saved = json.loads(target.read_text(encoding="utf-8"))["rule_set"]
    assert saved["rules"][0]["if"] == BUILT_RULE["if"]
    assert saved["rules"][0]["then"] == BUILT_RULE["then"]
    assert saved["resources"][0]["icon"] == "salt"
    again = MapDocument.open(target)
    spec = again.map.rule_set.spec
    assert spec is not None and spec.resources[0].colour == "#d8d8d0"


def test_a_quantity_switches_between_a_number_and_a_count(make_editor, qtbot) -> None:
    window = make_editor(load_map(bundled_map("example-small")))
    dock, stack = window.ruleset, window.document.undo_stack
    dock.use_preset("deutschland")
    click(dock, find(dock, QPushButton, "ruleset_add_rules"))
    amount = ("rules", 0, "then", 0, "amount")
    number = find(dock, QSpinBox, "rs:rules[0].then[0].amount")
    assert (number.minimum(), number.maximum(), number.value()) == (-50, 50, 1)
    type_into(dock, number, "-4")
    assert content(window)["rules"][0]["then"][0]["amount"] == -4

    pick_named(dock, "rs:rules[0].then[0].amount.count", "feature_tiles")
    assert content(window)["rules"][0]["then"][0]["amount"] == {"count": "feature_tiles"}
    # a tile placed fills no feature: the checker's line names the quantity's field
    problems = find(dock, QLabel, "rs-problems:rules[0]").text()
    assert "rules[0].then[0].amount" in problems
    what = dock.field_widget((*amount, "count"))
    assert what is not None and what.property("invalid")

    pick_named(dock, "rs:rules[0].then[0].kind", "table")
    assert content(window)["rules"][0]["then"][0] == {
        "kind": "table",
        "by": "count",
        "points": [1],
    }
    click(dock, find(dock, QPushButton, "rs-more:rules[0].then[0].points"))
    type_into(dock, find(dock, QSpinBox, "rs:rules[0].then[0].points[1]"), "7")
    assert content(window)["rules"][0]["then"][0]["points"] == [1, 7]
    click(dock, find(dock, QPushButton, "rs-fewer:rules[0].then[0].points"))
    assert content(window)["rules"][0]["then"][0]["points"] == [1]
    stack.undo()
    assert content(window)["rules"][0]["then"][0]["points"] == [1, 7]
