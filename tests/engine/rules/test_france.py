"""Map-Chips France: producing and selling wine (engine/rules/france.py)."""

from __future__ import annotations

import pytest
from _chips_helpers import check_invariants, finish, make_map, new_game, offered, place, random_game

from engine.errors import EngineError, RecordError
from engine.game import Game, GameOptions, Phase
from engine.geometry import Edge, Side
from engine.mapdef import BorderFeature, Colour, EdgeKind, MapDef, Town
from engine.mapio import load_map
from engine.moves import Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.france import FranceState, SellWine

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

ORANGE, PURPLE, BLUE = Colour.ORANGE, Colour.PURPLE, Colour.LIGHT_BLUE


def wine_map(*, road_coa: int = 1, city_coa: int = 0, town_grape: Colour = ORANGE) -> MapDef:
    """x 0..5 on one row: start (0,0); town Nancy (2,0); border road N of (3,0); border city N of
    (4,0)."""
    return make_map(
        ["######"],
        towns={(2, 0): Town("Nancy", town_grape)},
        border_features={
            Edge(3, 0, Side.N): BorderFeature(EdgeKind.ROAD, road_coa, "Luxembourg"),
            Edge(4, 0, Side.N): BorderFeature(EdgeKind.CITY, city_coa, "Germany"),
        },
    )


def state(g: Game) -> FranceState:
    return g.rule_state["france"]


def test_export_sale_scores_5_and_the_chips_leave_the_game() -> None:
    """Selling wine: "1) You sell wine to another country (5 points)" "If you place a tile
    connecting to a road or a city with a coat of arms on the border of the map (you enable a
    connection to another country), you are allowed to sell wine." "You don't have to score
    points with this tile." "You get 5 points." Example: "You enable a connection to another
    country by placing the land tile and you sell the purple wine for 5 points." "Chips of sold
    wine are no longer in the game." "You have two possibilities of selling wine:" """
    g = new_game(wine_map(), ["B", "B", "U"], "france", chips=[[1, 0, "purple", 2]])
    place(g, (1, 0))  # Red takes the purple 2 (2 points)
    finish(g)
    place(g, (2, 0))  # Blue covers Nancy: holds nothing, no sale
    assert g.phase is not Phase.AFTER or not offered(g, SellWine)
    finish(g)
    place(g, (3, 0), 90)  # Red: road N-S joins the border road with a coat of arms
    sale = SellWine(PURPLE, "export", (2,))
    assert offered(g, SellWine) == [sale]
    g.play(sale)
    assert g.scores[0] == 2 + 5 and g.events[-1].kind == "wine"
    assert "abroad" in g.events[-1].text
    st = state(g)
    assert st.held[0] == [] and len(st.out) == 30 and st.chips[st.out[-1]].colour is PURPLE
    check_invariants(g)


def _holding(chips_held: list[tuple[str, int]], *, town: Colour = ORANGE, **opts: object) -> Game:
    """Red collects ``chips_held`` on row 1 while Blue fills row 2; then Red is to place the last
    tile of the draw order (``target``, default A) on row 0, whose squares are: Nancy (2,0), a
    border road with a coat of arms N of (3,0), one without N of (4,0), a border city without a
    coat of arms N of (5,0)."""
    target = opts.pop("target", "A")
    chips = [[x, 1, c, v] for x, (c, v) in enumerate(chips_held, start=1)]
    m = make_map(
        ["######", "######", "######"],
        start=((0, 1),),
        towns={(2, 0): Town("Nancy", town)},
        border_features={
            Edge(3, 0, Side.N): BorderFeature(EdgeKind.ROAD, 1, "Luxembourg"),
            Edge(4, 0, Side.N): BorderFeature(EdgeKind.ROAD, 0, "Luxembourg"),
            Edge(5, 0, Side.N): BorderFeature(EdgeKind.CITY, 0, "Germany"),
        },
    )
    g = new_game(m, ["B"] * 10 + [target], "france", start=((0, 1),), chips=chips, **opts)
    for x in range(1, 6):
        place(g, (x, 1))  # Red (collects the chips)
        finish(g)
        place(g, (x - 1, 2))  # Blue
        finish(g)
    assert g.to_move == 0 and g.current_tile == target
    return g


def test_town_sale_scores_9_only_for_the_towns_grape() -> None:
    """ "2) You sell the appropriate wine to a town (9 points)" "If you cover a town with a land
    tile you are allowed to sell the wine of the type of grape shown on the town square." "You
    get 9 points." Example: "You place a land tile on the square of Nancy (orange wine) and you
    sell your orange wine for 9 points." """
    g = _holding([("orange", 1), ("light_blue", 2)], target="B")
    place(g, (2, 0))  # half an orange wine; the light blue wine is not Nancy's grape
    assert offered(g, SellWine) == []
    g = _holding([("orange", 1), ("orange", 1), ("light_blue", 2)], target="B")
    place(g, (2, 0))
    assert offered(g, SellWine) == [SellWine(ORANGE, "town", (1, 1))]
    before = g.scores[0]
    g.play(SellWine(ORANGE, "town", (1, 1)))
    assert g.scores[0] == before + 9 and "Nancy" in g.events[-1].text
    assert [str(c) for c in state(g).held_chips(0)] == ["light_blue 2"]
    check_invariants(g)


def test_wine_is_two_points_of_one_grape() -> None:
    """Producing wine: "There are 3 types of grapes: purple, light blue and orange." "If there are
    2 points of one type of grape in front of you, you have produced wine." Example: "With these
    chips you have produced an orange wine (1+1=2) and a blue wine (2)." Selling: "You have to pay
    with Chips (exactly 2 points) from one type of grape (same color)." """
    g = _holding([("orange", 1), ("orange", 1), ("light_blue", 2), ("purple", 1)])
    assert g.to_move == 0 and g.board.tiles.get((3, 0)) is None
    place(g, (3, 0), 180)  # the border road with a coat of arms
    sales = offered(g, SellWine)
    assert set(sales) == {SellWine(ORANGE, "export", (1, 1)), SellWine(BLUE, "export", (2,))}
    # purple 1 alone is no wine; mixed colours never pay
    assert all(s.colour is not PURPLE for s in sales)


def test_both_payments_offered_when_a_colour_has_1_1_and_2() -> None:
    g = _holding([("orange", 1), ("orange", 1), ("orange", 2)])
    place(g, (3, 0), 180)
    assert set(offered(g, SellWine)) == {
        SellWine(ORANGE, "export", (1, 1)),
        SellWine(ORANGE, "export", (2,)),
    }
    g.play(SellWine(ORANGE, "export", (1, 1)))
    assert [str(c) for c in state(g).held_chips(0)] == ["orange 2"]


def test_road_without_coat_of_arms_needs_the_option_city_never() -> None:
    """Ambiguity "a road or a city with a coat of arms": by default both need a coat of arms;
    ``export_road_needs_coa=False`` lets any printed border road sell (engine/RULES.md)."""
    g = _holding([("orange", 2)])
    place(g, (4, 0), 180)  # border road without a coat of arms
    assert offered(g, SellWine) == []
    g = _holding([("orange", 2)], export_road_needs_coa=False)
    place(g, (4, 0), 180)
    assert offered(g, SellWine) == [SellWine(ORANGE, "export", (2,))]
    g = _holding([("orange", 2)], export_road_needs_coa=False, target="E")
    place(g, (5, 0), 0)  # E: city N joins the border city without a coat of arms
    assert offered(g, SellWine) == []


def test_extending_a_road_already_joined_to_the_border_is_no_export() -> None:
    """Decision: "If you place a tile connecting to a road or a city with a coat of arms on the
    border of the map" -- only the tile that lies against the printed border feature exports."""
    m = make_map(
        ["######", "######"],
        border_features={Edge(3, 0, Side.N): BorderFeature(EdgeKind.ROAD, 1, "Luxembourg")},
    )
    g = new_game(m, ["B", "B", "B", "V", "U", "B"], "france", chips=[[1, 0, "purple", 2]])
    for sq in [(1, 0), (2, 0), (0, 1)]:
        place(g, sq)
        finish(g)
    place(g, (3, 0), 180)  # Blue: V with roads N (the border road) and E
    finish(g)
    place(g, (4, 0), 0)  # Red: U joins that road, one tile away from the border
    assert offered(g, SellWine) == []


def test_one_wine_per_round_even_on_an_extra_turn_option_per_turn() -> None:
    """ "You can sell 1 Wine per round." -- with town variant a (an extra tile for covering a town)
    Red sells in Nancy and may not sell again in the extra turn of the same round; with
    ``wine_limit="turn"`` (Wikicarpedia's "per turn") the extra turn may sell again."""
    for limit, second in (("round", False), ("turn", True)):
        chips = [[1, 1, "orange", 2], [2, 1, "purple", 2]]
        m = make_map(
            ["#####", "#####"],
            start=((0, 1),),
            towns={(2, 0): Town("Nancy", ORANGE)},
            border_features={Edge(3, 0, Side.N): BorderFeature(EdgeKind.ROAD, 1, "Luxembourg")},
        )
        opts = GameOptions(
            start_squares=((0, 1),),
            start_tile="B",
            draw_order=("B", "B", "B", "B", "B", "U", "B"),
            rule_set="france",
            rule_options={"chips": chips, "wine_limit": limit},
            town_extra_tile=True,
        )
        g = Game(m, seed=0, options=opts)
        for sq in [(1, 1), (0, 0), (2, 1), (1, 0)]:
            place(g, sq)
            finish(g)
        place(g, (2, 0))  # Red covers Nancy
        g.play(SellWine(ORANGE, "town", (2,)))
        finish(g)
        assert g.to_move == 0  # the extra tile
        place(g, (3, 0), 90)
        assert bool(offered(g, SellWine)) is second, limit


def test_no_second_sale_in_the_same_turn() -> None:
    g = _holding([("orange", 2), ("purple", 2)], town=ORANGE)
    place(g, (3, 0), 180)
    g.play(SellWine(ORANGE, "export", (2,)))
    assert g.phase is not Phase.AFTER or offered(g, SellWine) == []


def test_unsold_wine_scores_nothing_at_the_end() -> None:
    """End of game: "At the end of the game you don't get any points for unsold wine / chips." """
    g = new_game(make_map(["###"]), ["B"], "france", chips=[[1, 0, "orange", 2]])
    place(g, (1, 0))
    finish(g)
    assert g.is_over() and g.scores == [2, 0]
    assert [e.kind for e in g.events] == ["chip"]


def test_wine_limit_option_is_checked() -> None:
    with pytest.raises(EngineError, match="wine_limit"):
        new_game(make_map(["###"]), ["B"], "france", wine_limit="day")


def test_shipped_map_setup_and_tiles() -> None:
    """ "Use 2 of the 3 available starting-squares (Nancy, Le Mans and Limoges)." "We recommend to
    play with 110–120 tiles (e.g. base game + 1st + 2nd expansion)" """
    m = load_map(bundled_map("france"))
    assert sorted(s.name for s in m.start_squares.values()) == ["Le Mans", "Limoges", "Nancy"]
    assert m.towns[next(s for s, v in m.start_squares.items() if v.name == "Nancy")].grape is ORANGE
    g = Game(m, seed=2)
    assert len(g.start_tiles) == 2
    assert (m.setup.tile_pool_min, m.setup.tile_pool_max) == (110, 120)
    total = len(g.pile) + len(g.start_tiles) + len(g.set_aside) + (g.current_tile is not None)
    assert total == 114  # base + I&C + T&B, all of them (fewer than 120 exist)


def test_sell_wine_is_recorded_and_replayed() -> None:
    g = _holding([("orange", 1), ("orange", 1)])
    place(g, (3, 0), 180)
    g.play(SellWine(ORANGE, "export", (1, 1)))
    finish(g)
    rec = loads_record(dumps_record(record_of(g)))
    assert {
        "type": "sell_wine",
        "colour": "orange",
        "market": "export",
        "pay": [1, 1],
    } in rec.actions
    again = replay(rec)
    assert again.state_summary() == g.state_summary()
    rule = g.rules[0]
    with pytest.raises(RecordError, match="market"):
        rule.action_from_dict({"type": "sell_wine", "colour": "orange", "market": "x", "pay": [2]})
    with pytest.raises(RecordError, match="sell_wine"):
        rule.action_from_dict(
            {"type": "sell_wine", "colour": "green", "market": "town", "pay": [2]}
        )
    assert rule.action_from_dict({"type": "place"}) is None


def test_illegal_sale_is_refused_with_state_unchanged() -> None:
    g = _holding([("orange", 2)])
    place(g, (3, 0), 180)
    before = g.state_summary()
    from engine.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError, match="not allowed"):
        g.play(SellWine(PURPLE, "export", (2,)))
    assert g.state_summary() == before
    g.play(Pass())


@pytest.mark.parametrize("seed", range(30))
def test_random_full_games_conserve_chips_and_meeples(seed: int) -> None:
    """ "With this mini-expansion you will produce and sell wine to score points." -- full random
    games on the shipped map; chips and meeples conserved after every action."""
    m = _france()
    g = random_game(m, seed, check_every=1 if seed < 5 else 7)
    assert g.is_over()


_MAP: MapDef | None = None


def _france() -> MapDef:
    global _MAP
    if _MAP is None:
        _MAP = load_map(bundled_map("france"))
    return _MAP
