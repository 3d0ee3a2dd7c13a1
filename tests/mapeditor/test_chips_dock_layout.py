"""The chips dock asks the rule set how its chips are laid out (no hand copy of the list)."""

from __future__ import annotations

import pytest

from mapeditor.widgets.chips_dock import _layout_note


@pytest.mark.parametrize("name", ["france", "benelux", "iberica", "deutschland"])
def test_random_layouts_have_a_layout_to_show(name: str) -> None:
    assert _layout_note(name) is None


def test_fixed_and_no_layout_say_why() -> None:
    assert _layout_note("great_britain") == "Great Britain places chips on its marked squares."
    assert _layout_note("none") == (
        "Choose a Map-Chips rule set that lays out chips (map properties)."
    )
