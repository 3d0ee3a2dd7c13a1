"""The playtest speaks the designer's language: the score board's columns carry the rule set's
names (its wines' mechanic, its resources with their colours), and the log its rules' titles."""

from __future__ import annotations

from _playtest_helpers import small_setup

from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data import RuleSetSpec, preset_dict
from mapeditor.playtest import PlaytestWindow


def _herring() -> RuleSetSpec:
    d = preset_dict("france")
    d.update(name="herring", title="Herring")
    d["mechanics"][0]["title"] = "Sell herring"
    d["resources"] = [
        {"id": "salt", "name": "Salt", "colour": "#d8d8d0", "icon": "salt", "start": 2}
    ]
    d["rules"] = [
        {
            "id": "salting",
            "title": "Salting",
            "when": "tile_placed",
            "if": [{"kind": "tile_shows", "feature": "road"}],
            "then": [{"kind": "gain", "resource": "salt", "amount": 1}],
        }
    ]
    return RuleSetSpec.from_dict(d)


def test_the_score_board_names_the_designer_s_wines_and_resources(qtbot) -> None:
    m = load_map(bundled_map("example-small"))
    spec = _herring()
    m.rule_set_spec, m.rule_set = spec, spec.name
    w = PlaytestWindow(m, small_setup(rule_set=None), pace_ms=0)
    qtbot.addWidget(w, before_close_func=lambda w: setattr(w, "ask_to_keep_game", False))
    w.show()
    board = w.score_board
    assert board.headers() == ["Player", "Score", "Meeples", "Chips", "Sell herring", "Salt"]
    assert [board.cell_text(p, "Salt") for p in range(2)] == ["2", "2"]
    icon = board.horizontalHeaderItem(5).icon().pixmap(10, 10).toImage()
    assert icon.pixelColor(5, 5).name() == "#d8d8d0"
    state = w.game.rule_state["herring"].lang
    assert state is not None
    state.res["salt"] = (5, 2)  # as if Red had salted three roads
    w._refresh()
    assert board.cell_text(0, "Salt") == "5"
