"""The playtest speaks the designer's language: the score board's columns carry the rule set's
names (its wines' mechanic, its resources with their colours), and the log its rules' titles."""

from __future__ import annotations

from _playtest_helpers import small_setup

from engine.mapdef import EmbeddedRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data import RuleSetSpec, preset_dict
from mapeditor.playtest import PlaytestWindow


def _herring(**entries: object) -> RuleSetSpec:
    d = preset_dict("france")
    d.update(entries)
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
    m.rule_set = EmbeddedRuleSet(spec)
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


def test_the_log_says_what_a_rule_gave_in_the_designer_s_names(qtbot) -> None:
    from engine.game import GameOptions
    from engine.mapdef import MapDef, StartSquare
    from engine.moves import Move
    from mapeditor.playtest import PlaytestSetup, Seat
    from mapeditor.playtest.session import PlaytestSession

    spec = _herring(layout={"kind": "none"})  # no chips on a four-square map
    m = MapDef(id="strip", name="Strip", width=4, height=1, land={(x, 0) for x in range(4)})
    m.start_squares[(0, 0)] = StartSquare("Start")
    m.rule_set = EmbeddedRuleSet(spec)
    setup = PlaytestSetup(
        seats=[Seat("Anna", "#d7301f", "human"), Seat("Ben", "#2b6cc4", "human")],
        seed=1,
        options=GameOptions(start_tile="U", draw_order=("U", "U", "U")),
    )
    session = PlaytestSession(m, setup, pace_ms=0)
    session.begin()
    lines: list[tuple[str, int | None, tuple[str, str] | None]] = []
    session.logged.connect(lambda entry: lines.append((entry.text, entry.player, entry.icon)))
    session.play(Move((1, 0), 0, None))  # a road tile: the Salting rule gives Anna salt
    assert ("   Anna: +1 Salt (3)", 0, ("salt", "#d8d8d0")) in lines  # words and icon


def test_the_log_says_where_a_tile_went_by_place() -> None:
    from engine.game import Game
    from engine.moves import Move
    from mapeditor.playtest.describe import describe_move

    game = Game(load_map(bundled_map("example-small")), players=["Ann", "Bob"], seed=1)
    near = describe_move(game, 0, Move((4, 2), 90, None), "A")
    assert near == "Ann placed A at (4, 2) near Northtown, turned 90°"
    on_town = describe_move(game, 1, Move((5, 1), 0, None), "B")
    assert on_town == "Bob placed B at (5, 1) in Vineby, turned 0°"
    nameless = Game(None, players=["Ann", "Bob"], seed=1)
    assert describe_move(nameless, 0, Move((4, 2), 0, None), "A").startswith(
        "Ann placed A at (4, 2), turned"
    )
