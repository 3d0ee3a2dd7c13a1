"""Every worked example of the Maps rule sheets, on small maps built in code, plus base scoring."""

from __future__ import annotations

from _game_helpers import make_map, scripted

from engine.geometry import Edge, Side
from engine.mapdef import BorderFeature, EdgeKind, Ferry, LargeCity
from engine.scoring import ScoreEvent


def _mid_game(events: list[ScoreEvent]) -> list[ScoreEvent]:
    return [e for e in events if not e.final]


def test_berlin_completed_scores_20() -> None:
    """General rules 3.1: "Berlin is completed. As the owner, you get 20 points (6 tiles + 4 coats
    of arms [2 points per coat of arms])"."""
    berlin = LargeCity(
        "berlin",
        "Berlin",
        squares={(2, 1), (3, 1)},
        coats_of_arms=4,
        edges={Edge(2, 1, Side.W): EdgeKind.CITY, Edge(3, 1, Side.E): EdgeKind.CITY},
    )
    m = make_map(["#######"] * 3, start=[(0, 0)], large_cities={"berlin": berlin})
    g = scripted(
        m,
        (0, 0),
        [
            ("E", (0, 1), 90, "E"),  # Red: city cap facing east, meeple on it
            ("G", (1, 1), 0, None),  # Blue: city band joins Berlin's west side
            ("G", (4, 1), 0, None),  # Red: next to the connected Berlin
            ("E", (5, 1), 270, None),  # Blue: cap facing west closes the city
        ],
    )
    [event] = _mid_game(g.events)
    assert (event.kind, event.tiles, event.coats_of_arms, event.points) == ("city", 6, 4, 20)
    assert event.players == (0,)
    assert event.text == "Berlin completed: 6 tiles + 4 coats of arms = 20 for Red"
    assert g.scores == [20, 0]
    assert g.supply[0] == g.meeples_per_player  # the meeple came back


def test_denmark_road_scores_8() -> None:
    """General rules 2a: "Your road is completed (it ends in Denmark). You get 8 points (4 for the
    road and 4 for the coats of arms)" - the printed border road counts as one tile."""
    m = make_map(
        ["###", "###"],
        start=[(0, 1)],
        border_features={Edge(2, 0, Side.E): BorderFeature(EdgeKind.ROAD, 2, "Denmark")},
    )
    g = scripted(
        m,
        (0, 1),
        [
            ("A", (0, 0), 270, "E"),  # road east out of a monastery, meeple on the road
            ("U", (1, 0), 0, None),
            ("U", (2, 0), 0, None),  # meets the printed road into Denmark
        ],
    )
    [event] = _mid_game(g.events)
    assert (event.kind, event.tiles, event.coats_of_arms, event.points) == ("road", 4, 2, 8)
    assert g.scores[0] == 8


def test_border_city_scores_10() -> None:
    """General rules 2a: "Your city is completed. You get 10 points (3 tiles + 2 coat of arms)"."""
    m = make_map(
        ["###", "###"],
        start=[(1, 1)],
        border_features={Edge(2, 0, Side.E): BorderFeature(EdgeKind.CITY, 1, "Belgium")},
    )
    g = scripted(
        m,
        (1, 1),
        [
            ("E", (1, 0), 90, "E"),
            ("F", (2, 0), 0, None),  # city band with a coat of arms into the printed city
        ],
    )
    [event] = _mid_game(g.events)
    assert (event.tiles, event.coats_of_arms, event.points) == (3, 2, 10)


def test_half_city_on_the_border_scores_2() -> None:
    """General rules 2b: "Your (half) city is completed because of the border. You get 2 points"."""
    m = make_map(["##"], start=[(0, 0)])
    g = scripted(m, (0, 0), [("E", (1, 0), 90, "E")])  # city edge faces the sea
    [event] = _mid_game(g.events)
    assert (event.kind, event.tiles, event.points) == ("city", 1, 2)


def test_road_against_neutral_border_is_closed_there() -> None:
    """General rules 2b: "A city, road or field placed on the border ... is seen as completed"."""
    m = make_map(["##", "##"], start=[(0, 1)])
    # a straight road from the west border to the east border
    g = scripted(m, (0, 1), [("U", (0, 0), 0, "E"), ("U", (1, 0), 0, None)])
    [event] = _mid_game(g.events)
    assert (event.kind, event.tiles, event.points) == ("road", 2, 2)


def test_ferry_road_scores_7_and_opens_the_far_end() -> None:
    """General rules 3: "The road with the ferry route is completed. You get 7 points (3 points for
    the road and 4 points for 2 coats of arms)"; the far end is buildable once connected."""
    ferry = Ferry("f1", Edge(1, 0, Side.E), Edge(3, 0, Side.W), coats_of_arms=2)
    m = make_map(["##.##"], start=[(0, 0)], ferries={"f1": ferry})
    g = scripted(m, (0, 0), [("A", (1, 0), 270, "E"), ("A", (3, 0), 90, None)])
    [event] = _mid_game(g.events)
    assert (event.kind, event.tiles, event.coats_of_arms, event.points) == ("road", 3, 2, 7)


def test_ferry_far_end_is_not_buildable_before_the_road_reaches_the_ferry() -> None:
    ferry = Ferry("f1", Edge(1, 0, Side.E), Edge(3, 0, Side.W), coats_of_arms=2)
    m = make_map(["##.##"], start=[(0, 0)], ferries={"f1": ferry})
    from engine.game import Game, GameOptions

    g = Game(
        m,
        seed=0,
        options=GameOptions(start_squares=((0, 0),), start_tile="B", draw_order=("A", "A")),
    )
    assert g.board.frontier == {(1, 0)}
    assert "no ferry" not in (g.board.why_illegal((3, 0), "A", 90) or "")
    assert g.board.why_illegal((3, 0), "A", 90) is not None


def test_border_monastery_scores_6() -> None:
    """General rules 4: a monastery on the border scores once its existing neighbours are filled:
    "You get 6 points (1 point for the monastery and 1 point each for the adjacent tiles)"."""
    m = make_map(["###", "###"], start=[(0, 0)])
    moves = [("B", (1, 0), 0, "C")]
    moves += [("B", sq, 0, None) for sq in [(2, 0), (0, 1), (1, 1)]]
    g = scripted(m, (0, 0), [*moves, ("B", (2, 1), 0, None)])
    mids = [e for e in _mid_game(g.events) if e.kind == "monastery"]
    assert [(e.tiles, e.points, e.players) for e in mids] == [(5, 6, (0,))]
    assert mids[0].turn == 4  # not before the last neighbour was filled


def test_border_monastery_germany_page_scores_5_with_a_large_city_square() -> None:
    """Germany page: 5 points; "only real tiles as well as preprinted large cities are scored"."""
    city = LargeCity("c", "Hannover", squares={(2, 0)}, edges={})
    m = make_map(["###", "##."], start=[(0, 0)], large_cities={"c": city})
    g = scripted(m, (0, 0), [("B", (1, 0), 0, None), ("B", (0, 1), 0, None), ("B", (1, 1), 0, "C")])
    [event] = [e for e in _mid_game(g.events) if e.kind == "monastery"]
    assert (event.tiles, event.points) == (4, 5)


def test_unfinished_road_into_a_neighbour_country_scores_4_at_the_end() -> None:
    """Final scoring: "You get 4 points for the uncompleted road (3 for the tiles and 1 for the
    coat of arms)" - coats of arms of unfinished roads ending abroad score 1 each."""
    m = make_map(
        ["###", ".#."],
        start=[(1, 1)],
        border_features={Edge(2, 0, Side.E): BorderFeature(EdgeKind.ROAD, 1, "Austria")},
    )
    g = scripted(m, (1, 1), [("U", (1, 0), 0, "E"), ("U", (2, 0), 0, None)])
    assert g.is_over()
    [event] = [e for e in g.events if e.kind == "road"]
    assert event.final
    assert (event.tiles, event.coats_of_arms, event.points) == (3, 1, 4)


# -- base scoring on the classic board --------------------------------------------------------


def test_classic_monastery_needs_all_eight_neighbours() -> None:
    ring = [(-1, 0), (1, 0), (-1, 1), (1, 1), (-1, 2), (0, 2), (1, 2)]
    moves = [("B", (0, 1), 0, "C")] + [("B", sq, 0, None) for sq in ring]
    g = scripted(None, None, moves)
    [event] = [e for e in g.events if e.kind == "monastery" and not e.final]
    assert (event.tiles, event.points, event.turn) == (8, 9, 7)
    assert event.text == "Monastery completed: 1 + 8 neighbours = 9 for Red"


def test_tied_players_both_score_in_full() -> None:
    g = scripted(
        None,
        None,
        [
            ("U", (-1, 0), 0, None),
            ("U", (1, 0), 0, None),
            ("E", (-1, 1), 90, "E"),  # Red's cap
            ("E", (1, 1), 270, "W"),  # Blue's cap, a separate city for now
            ("G", (0, 1), 0, None),  # the band joins both: one city, one meeple each
        ],
        start_tile="D",
    )
    [event] = [e for e in g.events if e.kind == "city" and not e.final]
    assert (event.tiles, event.points, event.players) == (3, 6, (0, 1))
    assert event.text == "City completed: 3 tiles = 6 for Red and Blue"
    assert g.scores == [6, 6]


def test_tile_counted_once_when_a_city_passes_it_twice() -> None:
    """tiles.md 7.2: a tile that a feature passes twice counts once (distinct squares)."""
    g = scripted(
        None,
        None,
        [
            ("N", (0, -1), 180, "S"),  # corner S+E above H's north cap
            ("N", (1, -1), 270, None),
            ("G", (1, 0), 90, None),
            ("N", (1, 1), 0, None),
            ("N", (0, 1), 90, None),  # closes the ring into H's south cap
        ],
        start_tile="H",
    )
    [event] = [e for e in g.events if e.kind == "city" and not e.final]
    assert (event.tiles, event.points) == (6, 12)


def test_end_scores_incomplete_city_one_per_tile_and_coat_of_arms() -> None:
    g = scripted(None, None, [("F", (0, -1), 90, None)], start_tile="D")
    del g  # F rotated 90 is a N-S band: joins D's city, open north; nobody on it
    g = scripted(None, None, [("F", (0, -1), 90, "N")], start_tile="D")
    [event] = [e for e in g.events if e.kind == "city"]
    assert event.final and (event.tiles, event.coats_of_arms, event.points) == (2, 1, 3)
    assert event.text == "City at game end: 2 tiles + 1 coat of arms = 3 for Red"


def test_farmer_scores_3_per_completed_city_each_field_independently() -> None:
    # D's city N is closed by a cap; D's field north of the road touches it.
    g = scripted(
        None,
        None,
        [("E", (0, -1), 180, None), ("U", (1, 0), 0, "NL")],
        start_tile="D",
    )
    [field] = [e for e in g.events if e.kind == "field"]
    assert (field.cities, field.points, field.players) == (1, 3, (1,))
    assert field.text == "Field: 1 completed cities x 3 = 3 for Blue"


def test_farmers_off_scores_no_fields_and_forbids_farmers() -> None:
    from engine.errors import IllegalMoveError
    from engine.moves import Move

    g = scripted(None, None, [("E", (0, -1), 180, None)], start_tile="D", farmers=False)
    assert [e for e in g.events if e.kind == "field"] == []
    from engine.game import Game, GameOptions

    g = Game(None, options=GameOptions(farmers=False, draw_order=("U",)))
    assert all(m.meeple not in ("NL", "NR", "SL", "SR") for m in g.legal_moves())
    try:
        g.play(Move((1, 0), 0, "NL"))
    except IllegalMoveError as exc:
        assert "farmers are off" in str(exc)
    else:
        raise AssertionError("a farmer was allowed with farmers off")
