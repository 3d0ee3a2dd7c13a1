"""Map-Chips Península Ibérica: island coats of arms, treats (engine/rules/iberica.py)."""

from __future__ import annotations

import pytest
from _chips_helpers import check_invariants, finish, make_map, new_game, offered, place, random_game

from engine.chips import ChipReading, check_layout
from engine.errors import EngineError, IllegalMoveError, RecordError
from engine.game import Game, Phase
from engine.geometry import Edge, Side
from engine.mapdef import Ferry, Island, IslandRole, IslandSquare, LargeCity, MapDef, Town, Track
from engine.mapio import load_map
from engine.moves import Move, Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.iberica import IbericaState, PlaceTreat
from engine.rules.registry import map_chip_layout

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

RED, BLUE = 0, 1


def iberia_map() -> MapDef:
    """Rows 0 (orange track 1), 1 (light blue track 5), 2 (purple track 9), x 0..4; start (2,1);
    a printed large city on (4,0); a town on (0,0); a gated Balearic square (4,2) with 2 coats of
    arms reached by a ferry from the S edge of (2,2)."""
    return make_map(
        ["#####", "#####", "#####"],
        start=((2, 1),),
        towns={(0, 0): Town("Salamanca")},
        large_cities={"bcn": LargeCity("bcn", "Barcelona", {(4, 0)})},
        ferries={"f": Ferry("f", Edge(2, 2, Side.S), Edge(4, 2, Side.S), 0)},
        islands={
            "mallorca": Island(
                "mallorca", "Mallorca", None, {(4, 2): IslandSquare(IslandRole.GATED, 2)}
            )
        },
        tracks={1: Track(1, (0,)), 5: Track(5, (1,)), 9: Track(9, (2,))},
    )


def ib_game(tiles: list[str], chips: list[list[object]], **kw: object) -> Game:
    return new_game(iberia_map(), tiles, "iberica", chips=chips, start=((2, 1),), **kw)


def state(g: Game) -> IbericaState:
    return g.rule_state["iberica"]


def test_gated_island_square_needs_the_ferry_and_scores_its_coats_of_arms() -> None:
    """Island-squares with coats of arms: "You can only place tiles on Island-squares if they have
    been connected with a ferry route from the mainland (see general rules)." "If you place a tile
    on a square with a coat of arms, you'll get two points per coat of arms immediately." Example:
    "The island has been connected to the mainland." "You place a tile on the island and you get 4
    points immediately (for the two coats of arms)." """
    g = ib_game(["B", "B", "B", "A", "B", "A"], [])
    place(g, (3, 1))
    place(g, (3, 2))  # next to the island square, but by land
    assert (4, 2) not in g.board.frontier
    why = g.why_illegal(Move((4, 2), 0, None))
    place(g, (1, 1))
    assert why is not None and "ferry" in why
    place(g, (2, 2), 0)  # A: road S into the ferry
    assert (4, 2) in g.board.frontier
    place(g, (1, 2))
    place(g, (4, 2), 0)  # A: road S from the ferry
    island = [e for e in g.events if e.kind == "island"]
    assert len(island) == 1 and island[0].points == 4 and island[0].players == (BLUE,)
    assert "Mallorca" in island[0].text


def test_collected_chip_scores_and_must_be_placed_as_a_treat_on_its_tracks() -> None:
    """Collecting Chips: "If you place a tile on a square with a chip you take the chip, you turn
    it face down and get 1 or 2 points immediately." "Then you place the chip again face up on the
    map respecting the following rules "to place a treat":" Example: "You place a tile on a square
    with a Chip and you take it." "You get two points." Placing a treat: "The color of a Chip
    determines the area, i.e. the tracks in which you have to place your treat face up:" "orange
    Chip = top tracks (1 to 4)" "You can find the respective tracks looking at the colored bars."
    "On one of the possible tracks you look for a free square without a tile (preprinted or
    placed) and place the Chip face up on it." """
    g = ib_game(["B", "B", "B", "B"], [[1, 1, "orange", 2], [3, 0, "purple", 1]])
    place(g, (2, 0))
    finish(g)
    place(g, (1, 1))  # Blue takes the orange 2
    assert g.scores == [0, 2] and g.phase is Phase.ACTION
    # row 0 (orange track): not (2,0) (a tile), (3,0) (a chip), (4,0) (Barcelona, preprinted)
    assert set(g.legal_moves()) == {PlaceTreat((0, 0)), PlaceTreat((1, 0))}
    with pytest.raises(IllegalMoveError, match="must be taken"):
        g.play(Pass())
    g.play(PlaceTreat((1, 0)))
    st = state(g)
    assert st.up == {(1, 0): st.up[(1, 0)]} and st.chips[st.up[(1, 0)]].value == 2
    assert st.held == [[], []]
    check_invariants(g)


@pytest.mark.parametrize(("colour", "row"), [("orange", 0), ("light_blue", 1), ("purple", 2)])
def test_each_colour_has_its_tracks(colour: str, row: int) -> None:
    """ "orange Chip = top tracks (1 to 4)" "blue Chip = centre tracks (5 to 8)" "purple Chip =
    bottom tracks (9 to 12)" """
    g = ib_game(["B", "B"], [[1, 1, colour, 1]])
    place(g, (1, 1))
    squares = {a.square for a in offered(g, PlaceTreat)}
    assert squares and {sq[1] for sq in squares} == {row}


def test_tile_on_a_treat_scores_twice_its_value_and_the_chip_leaves() -> None:
    """Collecting treats: "If you place a tile on a square with a treat (face up Chip), you take
    the Chip and you get twice the number of points shown on the Chip (2 or 4 points)." "Then you
    take the Chip out of the game." Example: "You place a tile on a square with a treat, take the
    tile out of the game and get 4 points." (the chip leaves the game, not the tile)"""
    g = ib_game(["B", "B", "B", "B"], [[1, 1, "orange", 2]])
    place(g, (1, 1))
    g.play(PlaceTreat((1, 0)))
    place(g, (1, 0))  # Blue finds Red's treat
    assert g.scores == [2, 4] and g.events[-1].kind == "treat"
    st = state(g)
    assert st.up == {} and len(st.out) == 30 and (1, 0) in g.board.tiles
    check_invariants(g)


def test_no_free_square_the_chip_leaves_the_game() -> None:
    """Decision (engine/RULES.md): with no free square in its tracks the collected chip scores
    and leaves the game at once."""
    m = make_map(
        ["###", "###", "#.."],
        start=((0, 2),),
        tracks={1: Track(1, (0,)), 5: Track(5, (1,)), 9: Track(9, (2,))},
    )
    g = new_game(m, ["B", "B"], "iberica", chips=[[0, 1, "purple", 1]], start=((0, 2),))
    place(g, (0, 1))
    assert g.scores == [1, 0] and g.phase is not Phase.ACTION
    st = state(g)
    assert st.down == {} and st.up == {} and st.held == [[], []] and len(st.out) == 30


def test_setup_option_keeps_treats_off_towns_and_away_from_chips() -> None:
    """Option ``treat_squares="setup"``: treats also follow the setup rules (no town, no Balearic
    square, not next to another chip); default ``"free"`` only needs a free square."""
    chips = [[1, 1, "orange", 2], [2, 0, "purple", 1]]
    g = ib_game(["B", "B"], chips, treat_squares="setup")
    place(g, (1, 1))
    # (0,0) town, (1,0) and (3,0) next to the chip on (2,0), (2,0) holds it, (4,0) Barcelona
    assert offered(g, PlaceTreat) == []
    assert g.phase is not Phase.ACTION and len(state(g).out) == 29  # the purple chip is down
    g = ib_game(["B", "B"], chips)
    place(g, (1, 1))
    assert {a.square for a in offered(g, PlaceTreat)} == {(0, 0), (1, 0), (3, 0)}
    with pytest.raises(EngineError, match="treat_squares"):
        ib_game(["B"], [], treat_squares="any")


def test_remaining_chips_score_nothing() -> None:
    """End of game: "Remaining face up or face down Chips don't give you any points." """
    g = ib_game(["B", "B"], [[1, 1, "orange", 2], [3, 2, "purple", 1]])
    place(g, (1, 1))
    g.play(PlaceTreat((0, 0)))
    place(g, (2, 0))
    assert g.is_over() and g.scores == [2, 0]
    assert [e.kind for e in g.events] == ["chip"]


def test_shipped_map_setup() -> None:
    """Setup: "Use 3 of the 4 available starting-squares (León, Pamplona, Évora and Murcia)."
    "no chips on the island squares of the Balearic Islands." "We recommend to play with 110-120
    tiles (e.g. base game + 1st+2nd expansion)." """
    m = load_map(bundled_map("iberica"))
    names = sorted(s.name for s in m.start_squares.values())
    assert names == sorted(["León", "Pamplona", "Évora", "Murcia"])
    for seed in (1, 2, 3):
        g = Game(m, seed=seed)
        st = state(g)
        used = [sq for sq, _t, _r in g.start_tiles]
        assert len(used) == 3 and len(st.down) == 30
        assert not set(st.down) & m.gated_squares()
        layout = map_chip_layout(m)
        assert (
            check_layout(m, sorted(st.down), used, ChipReading.OPEN_SIDES, chip_layout=layout) == []
        )
    assert (m.setup.tile_pool_min, m.setup.tile_pool_max) == (110, 120)


def test_place_treat_is_recorded_and_replayed() -> None:
    g = ib_game(["B", "B", "B", "B"], [[1, 1, "orange", 2]])
    place(g, (1, 1))
    g.play(PlaceTreat((0, 0)))
    place(g, (2, 0))
    rec = loads_record(dumps_record(record_of(g)))
    assert {"type": "place_treat", "x": 0, "y": 0} in rec.actions
    assert replay(rec).state_summary() == g.state_summary()
    with pytest.raises(RecordError, match="place_treat"):
        g.rules[0].action_from_dict({"type": "place_treat", "x": 0})


@pytest.mark.parametrize("seed", range(30))
def test_random_full_games_conserve_chips_and_meeples(seed: int) -> None:
    """ "With this mini-expansion you can collect Chips and place them as treats." "If you find a
    treat, you'll get points." -- random games on the shipped map; invariants after every
    action."""
    g = random_game(_ib(), seed, check_every=1 if seed < 5 else 7)
    assert g.is_over()


_MAP: MapDef | None = None


def _ib() -> MapDef:
    global _MAP
    if _MAP is None:
        _MAP = load_map(bundled_map("iberica"))
    return _MAP
