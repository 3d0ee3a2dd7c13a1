"""What the five Map-Chips sheets share: the 30 chips, their setup, collecting them, rule selection."""

from __future__ import annotations

import pytest
from _chips_helpers import check_invariants, finish, make_map, new_game, place

from engine.chips import ChipReading, check_layout
from engine.errors import EngineError
from engine.game import Game, GameOptions
from engine.mapdef import Colour, MapDef
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.chips_common import ChipState, make_chips, payments
from engine.rules.registry import available_rules, get_rules

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

CHIP_SETS = ("france", "benelux", "great_britain", "iberica", "deutschland")
LAYOUT_SETS = {"france": 30, "benelux": 20, "iberica": 30, "deutschland": 30}
MAP_FILE = {
    "france": "france",
    "benelux": "benelux",
    "great_britain": "great-britain",
    "iberica": "iberica",
    "deutschland": "deutschland",
}


def shipped(rule_set: str) -> MapDef:
    return load_map(bundled_map(MAP_FILE[rule_set]))


def test_thirty_chips_ten_per_colour_default_split() -> None:
    """Components of every sheet: "30 Map-Chips (10 each in purple, light blue and orange)."
    Values are 1 or 2 ("you take the chip and get 1 or 2 points immediately"); the split is not
    printed: the default is 5 ones and 5 twos per colour (engine/RULES.md)."""
    chips = make_chips()
    assert len(chips) == 30 and [c.id for c in chips] == list(range(30))
    for colour in (Colour.PURPLE, Colour.LIGHT_BLUE, Colour.ORANGE):
        mine = [c for c in chips if c.colour is colour]
        assert len(mine) == 10
        assert sorted(c.value for c in mine) == [1] * 5 + [2] * 5


@pytest.mark.parametrize("ones", [0, 3, 10])
def test_value_split_is_an_option(ones: int) -> None:
    chips = make_chips(ones)
    assert sum(1 for c in chips if c.value == 1) == 3 * ones
    m = shipped("deutschland")
    g = Game(m, seed=3, options=GameOptions(rule_options={"ones_per_colour": ones}))
    st: ChipState = g.rule_state["deutschland"]
    assert sum(1 for c in st.chips if c.value == 1) == 3 * ones


@pytest.mark.parametrize("bad", [-1, 11, "five", 2.5])
def test_bad_value_split_is_a_precise_error(bad: object) -> None:
    with pytest.raises(EngineError, match="ones_per_colour"):
        Game(shipped("france"), seed=1, options=GameOptions(rule_options={"ones_per_colour": bad}))


@pytest.mark.parametrize("rule_set", sorted(LAYOUT_SETS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_lays_out_chips_by_the_placement_rules(rule_set: str, seed: int) -> None:
    """Setup (France, Benelux, Ibérica, Deutschland): "Shuffle all 30 Chips face down." "Place
    them evenly distributed on the squares of the map and stick to the following rules:" "place
    them face down" "only 1 chip per square" "no chips on the large city squares or town
    squares" "no chips may be placed next to each other vertically or horizontally (only
    diagonally)" "no chips next to each other vertically or horizontally (only diagonally)" "no
    chips vertically or horizontally adjacent to a used starting square or an open side of a
    large city" -- checked with engine.chips.check_layout for the start squares actually used."""
    m = shipped(rule_set)
    g = Game(m, seed=seed)
    st: ChipState = g.rule_state[rule_set]
    used = [sq for sq, _t, _r in g.start_tiles]
    layout = sorted(st.down)
    assert len(layout) == LAYOUT_SETS[rule_set]
    assert check_layout(m, layout, used, ChipReading.OPEN_SIDES) == []
    for sq in layout:
        assert sq not in m.towns and m.city_at(sq) is None
        x, y = sq
        assert not any(q in st.down for q in ((x + 1, y), (x, y + 1)))
    # face down: on the board, in nobody's hand, values not part of any score yet
    assert all(h == [] for h in st.held) and st.up == {} and g.scores == [0, 0]
    check_invariants(g)


def test_any_city_square_reading_is_an_option() -> None:
    m = shipped("deutschland")
    g = Game(m, seed=5, options=GameOptions(rule_options={"chip_reading": "any_city_square"}))
    used = [sq for sq, _t, _r in g.start_tiles]
    st: ChipState = g.rule_state["deutschland"]
    assert check_layout(m, sorted(st.down), used, ChipReading.ANY_CITY_SQUARE) == []
    with pytest.raises(EngineError, match="chip_reading"):
        Game(m, seed=5, options=GameOptions(rule_options={"chip_reading": "nearby"}))


def test_same_seed_same_layout_and_values() -> None:
    m = shipped("france")
    a = Game(m, seed=11).state_summary()["rules"]
    b = Game(m, seed=11).state_summary()["rules"]
    c = Game(m, seed=12).state_summary()["rules"]
    assert a == b and a != c


@pytest.mark.parametrize("rule_set", ["france", "benelux", "great_britain", "deutschland"])
def test_collecting_a_chip_scores_it_and_keeps_it_face_up(rule_set: str) -> None:
    """Collecting Chips: "If you place a tile on a square with a chip you take the chip and get 1
    or 2 points immediately." "Then you place the chip face up in front of you." Example: "You
    place a tile on a square with a chip and you take it." "Now you get 2 points." (Great
    Britain: "You place a tile on a square with a Chip and you take it." "You get two points.")"""
    m = make_map(["####"])
    g = new_game(m, ["B", "B", "B"], rule_set, chips=[[1, 0, "orange", 2], [3, 0, "purple", 1]])
    st: ChipState = g.rule_state[rule_set]
    place(g, (1, 0))
    assert g.scores == [2, 0] and g.breakdown[0]["chip"] == 2
    assert g.events[-1].kind == "chip" and "orange 2" in g.events[-1].text
    assert (1, 0) not in st.down and [st.chips[c].colour for c in st.held[0]] == [Colour.ORANGE]
    check_invariants(g)


def test_explicit_chips_option_and_its_errors() -> None:
    m = make_map(["####"])
    g = new_game(m, ["B"], "france", chips=[[2, 0, "light_blue", 1]])
    st: ChipState = g.rule_state["france"]
    assert st.chips[st.down[(2, 0)]].colour is Colour.LIGHT_BLUE and len(st.out) == 29
    with pytest.raises(EngineError, match=r"rule_options.chips\[0\].*colour"):
        new_game(m, ["B"], "france", chips=[[2, 0, "green", 1]])
    with pytest.raises(EngineError, match=r"chips\[1\]: two chips on \(2, 0\)"):
        new_game(m, ["B"], "france", chips=[[2, 0, "orange", 1], [2, 0, "orange", 2]])
    with pytest.raises(EngineError, match=r"chips\[0\]: \(9, 0\) is not a square"):
        new_game(m, ["B"], "france", chips=[[9, 0, "orange", 1]])
    with pytest.raises(EngineError, match=r"chips\[1\]: no orange chip worth 1 left"):
        new_game(
            m, ["B"], "france", chips=[[1, 0, "orange", 1], [2, 0, "orange", 1]], ones_per_colour=1
        )


def test_explicit_chips_on_a_start_tile_or_not_integers_are_errors() -> None:
    m = make_map(["####"])
    with pytest.raises(EngineError, match=r"chips\[0\]: \(0, 0\) holds a start tile"):
        new_game(m, ["B"], "france", chips=[[0, 0, "orange", 1]])
    with pytest.raises(EngineError, match=r"chips\[0\]: x, y and value must be integers"):
        new_game(m, ["B"], "france", chips=[["1", 0, "orange", 1]])
    with pytest.raises(EngineError, match=r"expected \[x, y, colour, value\]"):
        new_game(m, ["B"], "france", chips=[[1, 0, "orange"]])


def test_map_chips_need_a_map() -> None:
    with pytest.raises(EngineError, match="needs a map"):
        Game(None, options=GameOptions(rule_set="france"))


@pytest.mark.parametrize("rule_set", CHIP_SETS)
def test_rule_set_comes_from_the_map_or_the_options_and_none_switches_it_off(
    rule_set: str,
) -> None:
    """General rules: "If you play after the base game rules and without the Maps-Chips expansion
    rules, you simply ignore the additional prints on the maps" -- ``rule_set="none"`` plays a
    plain Maps game on the same map; by default the map's ``rule_set`` picks the module."""
    m = shipped(rule_set)
    assert m.rule_set.name == rule_set
    g = Game(m, seed=1)
    assert [r.name for r in g.rules] == [rule_set] and rule_set in g.rule_state
    plain = Game(m, seed=1, options=GameOptions(rule_set="none"))
    assert plain.rules == [] and plain.rule_state == {}
    other = make_map(["###"], rule_set="none")
    chosen = Game(other, seed=1, options=GameOptions(rule_set=rule_set, rule_options={"chips": []}))
    assert [r.name for r in chosen.rules] == [rule_set]
    assert rule_set in available_rules() and get_rules(rule_set).name == rule_set


@pytest.mark.parametrize("rule_set", CHIP_SETS)
def test_placing_a_meeple_follows_the_general_rules(rule_set: str) -> None:
    """Every sheet, "2. Placing a Meeple": "After having placed a tile you are allowed to place a
    meeple according to the general rules." (Benelux, Deutschland: "After having placed a tile
    you are allowed to place a Meeple according to the general rules."; Ibérica: "After having
    placed a tile you are allowed to place a meeples according to the general rules.") Benelux,
    Great Britain, Ibérica "3. Scoring a feature": "The scoring is done as usual." -- a road
    closed at both ends scores 1 per tile for its meeple."""
    m = make_map(["###"])
    g = new_game(m, ["U", "B"], rule_set, chips=None if rule_set == "great_britain" else [])
    # road N-S on (1, 0): both ends on the neutral border, completed at once with its meeple
    place(g, (1, 0), 90, "N")
    finish(g)
    road = [e for e in g.events if e.kind == "road"]
    assert len(road) == 1 and road[0].points == 1 and road[0].players == (0,)
    assert g.supply[0] == g.meeples_per_player and g.scores[0] == 1


def test_payments_lists_exact_multisets() -> None:
    assert payments([1, 1, 1, 1, 2], 4) == [(1, 1, 1, 1), (1, 1, 2)]
    assert payments([2, 2, 1], 2) == [(2,)]
    assert payments([2, 1, 1], 2) == [(1, 1), (2,)]
    assert payments([1, 2], 4) == []


def test_invariant_checker_reports_each_kind_of_violation() -> None:
    from engine.rules.chips_common import invariant_violations

    m = make_map(["####"])
    g = new_game(m, ["B", "B"], "great_britain", chips=[[2, 0, "orange", 2]])
    assert invariant_violations(g) == []
    st = g.rule_state["great_britain"]
    st.out.pop()
    assert any("chips not conserved" in v for v in invariant_violations(g))
    g = new_game(m, ["B", "B"], "great_britain", chips=[[1, 0, "orange", 2]])
    st = g.rule_state["great_britain"]
    g.board.place((1, 0), "B", 0)  # a tile over the chip without collecting it
    assert any("holds a tile" in v for v in invariant_violations(g))
    g = new_game(m, ["B", "B"], "great_britain", chips=[])
    g.rule_state["great_britain"].isle[1] = 1
    assert any("Blue's meeples not conserved" in v for v in invariant_violations(g))
    g = new_game(m, ["B", "B"], "deutschland", chips=[])
    st = g.rule_state["deutschland"]
    st.under[7] = st.out.pop()
    assert any("meeple 7" in v for v in invariant_violations(g))


@pytest.mark.parametrize("rule_set", CHIP_SETS)
def test_unknown_or_badly_typed_rule_options_are_precise_errors(rule_set: str) -> None:
    with pytest.raises(EngineError, match=rf"unknown option\(s\) colour for rule set '{rule_set}'"):
        new_game(make_map(["###"]), ["B"], rule_set, colour="red")
    with pytest.raises(EngineError, match="chip_count"):
        new_game(make_map(["###"]), ["B"], rule_set, chips=None, chip_count=31)


@pytest.mark.parametrize(
    ("rule_set", "name"),
    [("france", "export_road_needs_coa"), ("great_britain", "hand_in_without_meeples")],
)
def test_boolean_options_must_be_booleans(rule_set: str, name: str) -> None:
    with pytest.raises(EngineError, match=rf"rule_options.{name}: 'yes' is not true or false"):
        new_game(make_map(["###"]), ["B"], rule_set, **{name: "yes"})
