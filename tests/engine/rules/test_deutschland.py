"""Map-Chips Deutschland: upgraded meeples (engine/rules/deutschland.py)."""

from __future__ import annotations

import pytest
from _chips_helpers import check_invariants, finish, make_map, new_game, offered, place, random_game

from engine.errors import IllegalMoveError, RecordError
from engine.game import Game, Phase
from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.moves import Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.chips_common import ChipState
from engine.rules.deutschland import UpgradeMeeple

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

RED, BLUE = 0, 1


def state(g: Game) -> ChipState:
    return g.rule_state["deutschland"]


def road_game(chips: list[list[object]] | None = None) -> Game:
    """Row 0 will hold a road (1,0)-(4,0); Red collects chips on row 1; start B at (0,1)."""
    m = make_map(["######", "######"], start=((0, 1),))
    if chips is None:
        chips = [[1, 1, "orange", 2], [3, 1, "purple", 2]]
    tiles = ["B", "B", "B", "B", "A", "A", "U", "U", "B", "B", "B", "B"]
    g = new_game(m, tiles, "deutschland", chips=chips, start=((0, 1),))
    place(g, (1, 1))  # Red: orange 2
    finish(g)
    place(g, (2, 1))  # Blue
    finish(g)
    place(g, (3, 1))  # Red: purple 2, worth 4 now, but no meeple on the board yet
    assert g.phase is Phase.PLACE and g.to_move == BLUE
    place(g, (4, 1))  # Blue
    finish(g)
    return g


def test_upgrade_gives_the_majority_on_a_completed_road() -> None:
    """Upgrading a Meeple: "You take one of your Chips (the value doesn't matter) and you place it
    under one of your Meeples." "This can be a Meeple which has been placed in another round or
    the one you've just placed (the other Chips you used to pay for the upgrade are taken out of
    the game)." "With these Chips you can upgrade a Meeple" "One Chip is placed under your
    Meeple." "The other Chips are taken out of the game" Scoring: "During a scoring an upgraded
    Meeple counts as 2 Meeples in the respective area (like the big Meeple of the 1st
    expansion)." "After scoring the Meeple returns to your stash as usual and the Chip is taken
    out of the game." Example: "The road is completed." "Because of your upgraded Meeple you have
    the majority and you get 4 points." "Blue doesn't get any points." "The upgrade-Chip is taken
    out of the game." """
    g = road_game()
    place(g, (1, 0), 270, "E")  # Red: road end, meeple just placed
    up = UpgradeMeeple((1, 0), "E", (2, 2))
    assert offered(g, UpgradeMeeple) == [up]
    g.play(up)
    st = state(g)
    mid = next(iter(st.under))
    assert st.held[RED] == [] and len(st.out) == 29 and g.meeples[mid][4] == 2
    assert g.projected_scores()[RED] >= 1
    check_invariants(g)
    finish(g)
    place(g, (4, 0), 90, "W")  # Blue: the other road end
    finish(g)
    place(g, (2, 0), 0)  # Red
    finish(g)
    place(g, (3, 0), 0)  # Blue completes the 4-tile road
    road = [e for e in g.events if e.kind == "road"]
    assert len(road) == 1 and road[0].points == 4 and road[0].players == (RED,)
    assert st is state(g) and st.under == {} and len(st.out) == 30
    assert g.supply == [9, 9]
    check_invariants(g)


def test_without_the_upgrade_the_road_is_a_tie() -> None:
    g = road_game()
    place(g, (1, 0), 270, "E")
    g.play(Pass())
    place(g, (4, 0), 90, "W")
    finish(g)
    place(g, (2, 0), 0)
    finish(g)
    place(g, (3, 0), 0)
    road = [e for e in g.events if e.kind == "road"]
    assert road[0].players == (RED, BLUE)


def test_exact_value_4_payments() -> None:
    """ "If you have collected Chips with an exact value of 4 (4x 1-value | 2x2-value | 2x 1-value +
    1x2-value), you can use them in this or in another round to upgrade one of your Meeples:" """
    chips = [[1, 1, "orange", 1], [3, 1, "purple", 2]]
    g = road_game(chips)  # 1 + 2 = 3: no upgrade
    place(g, (1, 0), 270, "E")
    assert offered(g, UpgradeMeeple) == [] and g.phase is not Phase.ACTION
    m = make_map(["######"] * 3, start=((0, 1),))
    chips = [[x, 1, "orange", 1] for x in (1, 2, 3, 4)] + [[5, 1, "purple", 2]]
    g = new_game(m, ["B"] * 12, "deutschland", chips=chips, start=((0, 1),))
    for x in range(1, 6):
        place(g, (x, 1), 0, "C" if x == 1 else None)
        finish(g)
        place(g, (x - 1, 0))
        finish(g)
    place(g, (5, 0))
    pays = {a.pay for a in offered(g, UpgradeMeeple)}
    assert pays == {(1, 1, 1, 1), (1, 1, 2)}  # placed in another round: the monk on (1,1)
    g.play(UpgradeMeeple((1, 1), "C", (1, 1, 2)))
    assert [str(c) for c in state(g).held_chips(RED)] == ["orange 1", "orange 1"]


def test_a_meeple_is_upgraded_only_once() -> None:
    """ "You may upgrade a Meeple only once" """
    m = make_map(["######"] * 3, start=((0, 1),))
    chips = [[x, 1, "purple", 2] for x in (1, 2, 3, 4)]
    g = new_game(m, ["B"] * 8, "deutschland", chips=chips, start=((0, 1),))
    place(g, (1, 1), 0, "C")  # Red: purple 2 + a monk
    finish(g)
    place(g, (0, 0))
    finish(g)
    place(g, (2, 1))  # Red: 4 in hand
    g.play(UpgradeMeeple((1, 1), "C", (2, 2)))
    finish(g)
    place(g, (1, 0))
    finish(g)
    place(g, (3, 1))  # Red: purple 2
    finish(g)
    place(g, (2, 0))
    finish(g)
    place(g, (4, 1))  # Red: 4 in hand again, but the monk is already upgraded
    assert len(state(g).held[RED]) == 2 and len(state(g).under) == 1
    assert offered(g, UpgradeMeeple) == [] and g.phase is not Phase.ACTION


def test_several_upgrades_in_one_turn_when_paid_for() -> None:
    """Decision (engine/RULES.md): each upgrade is paid with its own chips worth 4; a player
    holding 8 may upgrade two meeples in the same turn."""
    m = make_map(["######"] * 3, start=((0, 1),))
    chips = [[x, 1, "purple", 2] for x in (1, 2, 3, 4)]
    g = new_game(m, ["B"] * 8, "deutschland", chips=chips, start=((0, 1),))
    for x, loc in ((1, "C"), (2, "C"), (3, None), (4, None)):
        place(g, (x, 1), 0, loc)
        if x == 4:
            break
        finish(g)
        place(g, (x - 1, 0))
        finish(g)
    g.play(UpgradeMeeple((1, 1), "C", (2, 2)))
    assert offered(g, UpgradeMeeple) == [UpgradeMeeple((2, 1), "C", (2, 2))]
    g.play(UpgradeMeeple((2, 1), "C", (2, 2)))
    st = state(g)
    assert len(st.under) == 2 and st.held[RED] == [] and g.phase is not Phase.ACTION
    check_invariants(g)


def test_re_placed_meeple_is_normal_and_can_be_upgraded_again() -> None:
    """ "This Meeple isn't upgraded anymore and counts again as a normal one (you may upgrade it
    the same way you did before)." """
    chips = [[1, 1, "orange", 2], [3, 1, "purple", 2], [0, 0, "purple", 2], [5, 1, "orange", 2]]
    g = road_game(chips)
    place(g, (1, 0), 270, "E")
    g.play(UpgradeMeeple((1, 0), "E", (2, 2)))
    for sq, rot, loc in [((4, 0), 90, "W"), ((2, 0), 0, None), ((3, 0), 0, None)]:
        finish(g)
        place(g, sq, rot, loc)
    finish(g)
    assert g.supply == [9, 9] and state(g).under == {}  # the road scored, meeples back
    place(g, (0, 0), 0, "NL")  # Red: the same meeple again, as a farmer (+ purple 2)
    mid = max(g.meeples)
    assert g.meeples[mid][0] == RED and g.meeples[mid][4] == 1
    assert g.meeple_strength(mid) == 1
    finish(g)
    place(g, (5, 0))
    finish(g)
    place(g, (5, 1))  # Red: orange 2, worth 4 again
    assert offered(g, UpgradeMeeple) == [UpgradeMeeple((0, 0), "NL", (2, 2))]
    g.play(UpgradeMeeple((0, 0), "NL", (2, 2)))
    assert g.meeple_strength(mid) == 2
    check_invariants(g)


def test_upgraded_farmer_counts_two_at_the_end() -> None:
    """End of game: "Upgraded Meeples count as two even at the end of the game (also farmers)."
    -- Red's upgraded farmer beats Blue's farmer on the same field; without it they tie."""
    for upgrade in (True, False):
        m = make_map(["##", "##", "##"], start=((0, 1),))
        chips = [[0, 0, "orange", 2], [1, 1, "purple", 2]]
        g = new_game(
            m, ["B", "B", "A"], "deutschland", chips=chips, start=((0, 1),), start_tile="U"
        )
        place(g, (0, 0), 0, "NL")  # Red: farmer on the field N of the start road
        finish(g)
        place(g, (0, 2), 0, "NL")  # Blue: farmer on the field S of it
        finish(g)
        place(g, (1, 1), 90)  # Red: A ends the road; the two fields join around it
        if upgrade:
            g.play(UpgradeMeeple((0, 0), "NL", (2, 2)))
        finish(g)
        assert g.is_over()
        fields = [e for e in g.events if e.kind == "field"]
        assert len(fields) == 1
        assert fields[0].players == ((RED,) if upgrade else (RED, BLUE))


def test_shipped_map_setup() -> None:
    """Setup: "Use 2 of the 3 available starting-squares (Rostock, Erfurt and Stuttgart)." "We
    recommend to play with 110-120 tiles (e.g. base game + 1st + 2nd expansion)" """
    m = load_map(bundled_map("deutschland"))
    names = sorted(s.name for s in m.start_squares.values())
    assert names == ["Erfurt", "Rostock", "Stuttgart"]
    g = Game(m, seed=9)
    assert len(g.start_tiles) == 2 and len(state(g).down) == 30
    assert (m.setup.tile_pool_min, m.setup.tile_pool_max) == (110, 120)


def test_upgrade_is_recorded_and_replayed_and_checked() -> None:
    g = road_game()
    place(g, (1, 0), 270, "E")
    with pytest.raises(IllegalMoveError):
        g.play(UpgradeMeeple((1, 0), "E", (1, 1, 2)))
    g.play(UpgradeMeeple((1, 0), "E", (2, 2)))
    finish(g)
    rec = loads_record(dumps_record(record_of(g)))
    assert {"type": "upgrade_meeple", "x": 1, "y": 0, "location": "E", "pay": [2, 2]} in rec.actions
    assert replay(rec).state_summary() == g.state_summary()
    rule = g.rules[0]
    with pytest.raises(RecordError, match="location"):
        rule.action_from_dict(
            {"type": "upgrade_meeple", "x": 1, "y": 0, "location": "Q", "pay": [4]}
        )
    with pytest.raises(RecordError, match="upgrade_meeple"):
        rule.action_from_dict({"type": "upgrade_meeple", "x": 1})


@pytest.mark.parametrize("seed", range(30))
def test_random_full_games_conserve_chips_and_meeples(seed: int) -> None:
    """ "With this mini-expansion you can upgrade your Meeples to have a majority during
    scoring." -- random games on the shipped map; invariants after every action."""
    g = random_game(_de(), seed, check_every=1 if seed < 5 else 7)
    assert g.is_over()


_MAP: MapDef | None = None


def _de() -> MapDef:
    global _MAP
    if _MAP is None:
        _MAP = load_map(bundled_map("deutschland"))
    return _MAP
