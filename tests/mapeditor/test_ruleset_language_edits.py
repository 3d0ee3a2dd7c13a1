"""The Rule set dock's data keeps the rule language's entries through its edits."""

from __future__ import annotations

from mapeditor.ruleset_data import content_of, data_state, preset_content, with_value


def test_an_edit_of_a_2019_field_keeps_rules_resources_and_marks() -> None:
    state = data_state(preset_content("nordics"))
    assert state.spec is not None
    content = content_of(state)
    assert content is not None
    edited = data_state(with_value(content, ("supply", "values"), {"1": 4, "2": 6}))
    assert edited.spec is not None and edited.spec.supply.values == ((1, 4), (2, 6))
    assert edited.spec.rules == state.spec.rules
    assert edited.spec.marks == state.spec.marks


def test_a_mistake_in_a_rule_is_kept_and_named() -> None:
    content = preset_content("ukraine")
    content["rules"][0]["when"] = "end_of_turn"  # the Chumak condition needs a square
    state = data_state(content)
    assert state.spec is None and state.raw == content
    assert state.error == (
        "rule_set.rules[0].if[0]: 'next_to' needs a square; trigger 'end_of_turn' gives none"
    )
