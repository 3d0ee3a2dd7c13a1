"""Every field of the rule-set format is editable in the Rule set dock (issue 26, "every field
of the format is editable there"): each value of a rule set has a widget bound to it or to the
value around it, and every property the schema names is edited somewhere."""

from __future__ import annotations

import json
import random
from typing import Any

from rulegen import lang_ruleset

from engine.mapio import load_map
from engine.resources import bundled_map, schema_path
from mapeditor import ruleset_edits as edits
from mapeditor.commands import SetRuleSet
from mapeditor.ruleset_data import data_state

NOT_EDITED = {
    "$schema": "a pointer to the schema, not a field",
    "format": "fixed: 'carcassonne-maps-ruleset'",
    "version": "fixed: 1",
    "leftover": "one choice only ('out_unseen')",
    "based_on": "where the rule set came from, shown in the dock's note",
}
SEEDS = (1, 3, 10, 37)
"""Generated rule sets (tests/fuzz/rulegen.py) that between them use every property."""


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of a rule set's values: scalars and lists of scalars; an empty list or object
    is left to its Add button."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [] if value in ([], {}) else [path]


def _schema_properties() -> set[str]:
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.update(node.get("properties", {}))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json.loads(schema_path("ruleset").read_text(encoding="utf-8")))
    return found


def _bound_paths(dock: Any, content: dict[str, Any]) -> set[tuple[Any, ...]]:
    """The paths of the dock's fields with each mechanic, resource, mark and rule selected."""
    paths = {tuple(f.path) for f in dock.fields}
    for i in range(len(content.get("mechanics", []))):
        dock.select_mechanic(i)
        paths |= {tuple(f.path) for f in dock.fields}
    for key in ("resources", "marks", "rules"):
        for i in range(len(content.get(key, []))):
            dock.select_entry(key, i)
            paths |= {tuple(f.path) for f in dock.fields}
    return paths


def test_every_value_and_every_schema_property_has_a_widget(make_editor) -> None:
    window = make_editor(load_map(bundled_map("example-small")))
    dock, doc = window.ruleset, window.document
    edited: set[str] = set()
    for seed in SEEDS:
        doc.undo_stack.push(SetRuleSet(doc, data_state(lang_ruleset(random.Random(seed))), "set"))
        dock.refresh()
        content = edits.content(doc)
        assert content is not None
        paths = _bound_paths(dock, content)
        # a widget on the value itself, on the value around it (a list of check boxes bound
        # as a whole), or on its members (one check box per colour of a list)
        unbound = [
            ".".join(map(str, leaf))
            for leaf in _leaves(content)
            if leaf[0] not in NOT_EDITED
            and not any(leaf[: len(p)] == p or p[: len(leaf)] == leaf for p in paths)
        ]
        assert unbound == [], seed
        edited |= {x for p in paths for x in p if isinstance(x, str)}
    assert sorted(_schema_properties() - edited - set(NOT_EDITED)) == []
