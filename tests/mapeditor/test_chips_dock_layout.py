"""The chips dock asks the rule set how its chips are laid out (no hand copy of the list), and
says what is true for each kind: a random layout, printed chip squares, the designer's marks, a
supply beside the map, no chips."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from engine.game import Game
from engine.mapdef import EmbeddedRuleSet, MapDef
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data import RuleSetSpec, preset_dict
from mapeditor.widgets.chips_dock import _layout_note


@pytest.mark.parametrize("name", ["france", "benelux", "iberica", "deutschland"])
def test_random_layouts_have_a_layout_to_show(name: str) -> None:
    assert _layout_note(name) is None


def test_fixed_supply_and_no_layout_say_where_the_chips_go() -> None:
    assert _layout_note("great_britain") == (
        "Great Britain places its chips on the map's printed chip squares, by colour."
    )
    assert _layout_note("ukraine") == (
        "Ukraine keeps its chips face down in a supply beside the map: none lie on the map."
    )
    assert _layout_note("none") == (
        "Choose a Map-Chips rule set that lays out chips (map properties)."
    )
    d = preset_dict("france")
    d.update(name="bare", title="Bare", layout={"kind": "none", "count": None, "exclude": []})
    m = load_map(bundled_map("france"))
    m.rule_set = EmbeddedRuleSet(RuleSetSpec.from_dict(d))
    assert _layout_note(m) == "Bare puts no chips on the map."


def _nordics(chips_per_space: int = 2) -> MapDef:
    m = load_map(bundled_map("nordics"))
    d = preset_dict("nordics")
    d["marks"][0]["chips"]["count"] = chips_per_space
    m.rule_set = EmbeddedRuleSet(RuleSetSpec.from_dict(d))
    return m


def _laid_on_marks(m: MapDef) -> dict[tuple[int, int], int]:
    g = Game(m, players=2, seed=4)
    return {sq: len(cs) for sq, cs in g.rule_state["nordics"].lang.on_marks.items()}


def test_nordics_says_its_chips_lie_on_its_marks_as_a_game_lays_them() -> None:
    m = _nordics()
    spaces = sum(1 for mk in m.marks.values() if mk.mark == "chip_city")
    assert len(_laid_on_marks(m)) == spaces == 15
    assert _layout_note(m) == (
        "Nordics lays its chips on its marks, not in a layout: 2 face down on each Chip space. "
        "On this map 15 marked squares take 30 of the 30 chips; none is left over."
    )
    short = _nordics(3)  # 45 wanted, 30 in the supply: ten spaces get 3, five get none
    assert sorted(_laid_on_marks(short).values()) == [3] * 10
    assert _layout_note(short) == (
        "Nordics lays its chips on its marks, not in a layout: 3 face down on each Chip space. "
        "On this map 10 marked squares take 30 of the 30 chips; none is left over. "
        "5 marked squares get none: the chips run out."
    )
    m = replace(m, marks={})
    assert _layout_note(m) == (
        "Nordics lays its chips on its marks, not in a layout: 2 face down on each Chip space. "
        "The map has no Chip space yet (the Designer marks tool paints them)."
    )


def test_the_dock_shows_the_chips_on_the_marks_and_greys_the_layout_controls(
    make_editor, qtbot
) -> None:
    m = _nordics(3)
    window = make_editor(m)
    dock = window.chips
    dock.show()
    dock.refresh()
    assert "lays its chips on its marks" in dock.feasible.text()
    assert not dock.starts.isEnabled() and not dock.reroll.isEnabled()
    assert dock.show_button.isEnabled() and dock.show_button.text() == "Show chips on marks"
    with qtbot.waitSignal(dock.layoutChanged) as shown:
        qtbot.mouseClick(dock.show_button, Qt.MouseButton.LeftButton)
    assert shown.args[0] == sorted(_laid_on_marks(m)) == window.scene.chips
    assert dock.status.text() == "30 chips on 10 marked squares, as a game lays them"


def test_a_random_layout_keeps_its_controls(make_editor) -> None:
    window = make_editor(load_map(bundled_map("deutschland")))
    dock = window.chips
    dock.refresh()
    assert dock.starts.isEnabled() and dock.reroll.isEnabled()
    assert dock.show_button.text() == "Show layout"
