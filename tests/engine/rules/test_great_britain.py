"""Map-Chips Great Britain: chip squares, double turns, the Isle of Man (engine/rules/great_britain.py)."""

from __future__ import annotations

import pytest
from _chips_helpers import check_invariants, finish, make_map, new_game, offered, place, random_game

from engine.errors import IllegalMoveError, RecordError
from engine.game import Game, Phase
from engine.mapdef import Colour, MapDef
from engine.mapio import load_map
from engine.moves import Move, Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.chips_common import make_chips
from engine.rules.great_britain import BuyExtraTurn, GreatBritainState, is_set

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

RED, BLUE = 0, 1


def gb_game(chips: list[list[object]], tiles: int = 12, **kw: object) -> Game:
    """Two rows x 0..6 (Red builds on row 0, Blue on row 1), start (0,0), all tiles B."""
    m = make_map(["#######", "#######"], isle_of_man=(6, 1))
    return new_game(m, ["B"] * tiles, "great_britain", chips=chips, **kw)


def state(g: Game) -> GreatBritainState:
    return g.rule_state["great_britain"]


def test_double_turn_once_per_round() -> None:
    """Getting a Double turn: "After having finished your „normal“ turn you have the possibility
    to „buy“ one additional turn." "You place one Meeple from your stash on the Isle of Man and
    you immediately carry out your second turn." "You take another Land tile, place it, etc." "You
    may only do one additional turn per round." Example: "You place one of your Meeples on the
    Isle of Man and you immediately carry out another turn." """
    g = gb_game([])
    place(g, (1, 0))
    assert g.phase is Phase.AFTER and offered(g, BuyExtraTurn) == [BuyExtraTurn()]
    g.play(BuyExtraTurn())
    assert g.to_move == RED and g.phase is Phase.PLACE and g.current_tile == "B"
    assert state(g).isle == [1, 0] and g.supply == [8, 9]
    check_invariants(g)
    place(g, (2, 0))  # the extra turn: no second purchase in this round
    assert g.phase is Phase.PLACE and g.to_move == BLUE
    place(g, (0, 1))
    g.play(Pass())  # Blue does not buy
    assert g.to_move == RED
    place(g, (3, 0))
    assert offered(g, BuyExtraTurn) == [BuyExtraTurn()]  # a new round
    check_invariants(g)


def test_isle_of_man_meeples_cannot_be_used() -> None:
    """ "The Meeples placed on the Isle of Man can't be used until they are taken back." """
    g = gb_game([], game_options={"meeples": 1})
    place(g, (1, 0))
    g.play(BuyExtraTurn())
    assert g.supply[RED] == 0
    assert all(m.meeple is None for m in g.legal_moves() if isinstance(m, Move))
    with pytest.raises(IllegalMoveError, match="no meeple left"):
        g.play(Move((2, 0), 0, "C"))
    place(g, (2, 0))
    assert g.to_move == BLUE
    place(g, (0, 1))
    finish(g)
    place(g, (3, 0))
    assert offered(g, BuyExtraTurn) == []  # nothing in the supply to pay with


def _buy_twice_then_collect(chips: list[list[object]]) -> Game:
    """Red buys an extra turn in rounds 1 and 2 (2 meeples on the Isle), collecting on row 0."""
    g = gb_game(chips, tiles=14)
    place(g, (1, 0))
    g.play(BuyExtraTurn())
    place(g, (2, 0))
    place(g, (0, 1))
    g.play(Pass())
    place(g, (3, 0))
    g.play(BuyExtraTurn())
    place(g, (4, 0))
    return g


def test_a_same_number_set_frees_all_isle_meeples() -> None:
    """Getting back from the Isle of Man: "To get your Meeples back from the Isle of Man to your
    stash you need money a boat and good weather." "That means that you always need a set of
    exactly three Chips which you can use." "These Chips either have to have" "1) the same number
    (it doesn't matter which color they have in this case)" "If you get a Chip and this Chip
    completes a set you have to use it immediately and take the Chips out of the game." "You take
    all your Meeples back from the Isle of Man at the same time." """
    chips = [[1, 0, "purple", 2], [2, 0, "purple", 2], [5, 0, "orange", 2]]
    g = _buy_twice_then_collect(chips)
    st = state(g)
    assert st.isle == [2, 0] and len(st.held[RED]) == 2
    assert g.phase is Phase.PLACE and g.to_move == BLUE
    place(g, (1, 1))
    g.play(Pass())
    place(g, (5, 0))  # the third 2: a set
    assert st.held[RED] == [] and st.isle == [0, 0] and g.supply[RED] == 9
    assert len(st.out) == 30
    check_invariants(g)


def test_a_three_colour_set_frees_the_meeples() -> None:
    """ "2) all the three colors (in this case the numbers aren't important)." """
    chips = [[1, 0, "purple", 1], [2, 0, "orange", 2], [5, 0, "light_blue", 2]]
    g = _buy_twice_then_collect(chips)
    place(g, (1, 1))
    g.play(Pass())
    place(g, (5, 0))
    assert state(g).held[RED] == [] and state(g).isle == [0, 0] and g.supply[RED] == 9


def test_two_chips_or_a_non_set_free_nothing() -> None:
    """ "That means that you always need a set of exactly three Chips which you can use." """
    mk = make_chips()
    p1, p2 = (next(c for c in mk if c.colour is Colour.PURPLE and c.value == v) for v in (1, 2))
    o1 = next(c for c in mk if c.colour is Colour.ORANGE and c.value == 1)
    b2 = next(c for c in mk if c.colour is Colour.LIGHT_BLUE and c.value == 2)
    assert is_set([p1, o1, b2]) and is_set([p2, b2, p2])
    assert not is_set([p1, p2, o1]) and not is_set([p1, o1]) and not is_set([p1, o1, b2, p2])
    chips = [[1, 0, "purple", 1], [2, 0, "purple", 2], [5, 0, "orange", 1]]
    g = _buy_twice_then_collect(chips)
    place(g, (1, 1))
    g.play(Pass())
    place(g, (5, 0))
    assert len(state(g).held[RED]) == 3 and state(g).isle == [2, 0]


def test_set_is_handed_in_even_without_isle_meeples_option_keeps_it() -> None:
    """ "It is not allowed to keep a set for later on." -- literal reading (default): the set is
    handed in even when no meeple is on the Isle of Man; ``hand_in_without_meeples=False`` keeps
    the chips (engine/RULES.md)."""
    chips = [[1, 0, "purple", 1], [2, 0, "orange", 1], [3, 0, "light_blue", 1]]
    for keep in (False, True):
        opts = {"hand_in_without_meeples": False} if keep else {}
        g = gb_game(chips, **opts)
        for sq in [(1, 0), (0, 1), (2, 0), (1, 1), (3, 0)]:
            place(g, sq)
            finish(g)
        assert len(state(g).held[RED]) == (3 if keep else 0)
        assert state(g).isle == [0, 0]


def test_the_chips_held_longest_form_the_set_with_option_oldest() -> None:
    """Option ``set_choice="oldest"`` (the old reading): when several sets contain the new chip,
    the one with the chips held longest is handed in."""
    chips = [
        [1, 0, "purple", 1],
        [2, 0, "purple", 2],
        [3, 0, "orange", 2],
        [4, 0, "orange", 1],
        [5, 0, "light_blue", 1],
    ]
    g = gb_game(chips, tiles=14, set_choice="oldest")
    for sq in [(1, 0), (0, 1), (2, 0), (1, 1), (3, 0), (2, 1), (4, 0), (3, 1), (5, 0)]:
        place(g, sq)
        finish(g)
    st = state(g)
    # P1 P2 O2 O1 held (no set); LB1 completes {P1, O2, LB1} (P1 and P2 first, then O2)
    assert sorted(str(st.chips[c]) for c in st.held[RED]) == ["orange 1", "purple 2"]


def test_the_player_chooses_which_set_to_hand_in() -> None:
    """Correction 4 (RULES.md): "If you get a Chip and this Chip completes a set you have to
    use it immediately" -- when it completes several sets, the player chooses which chips to
    hand in; the meeples on the Isle of Man come back at once."""
    from engine.rules.great_britain import HandInSet

    chips = [
        [1, 0, "purple", 1],
        [2, 0, "purple", 2],
        [3, 0, "orange", 2],
        [4, 0, "orange", 1],
        [5, 0, "light_blue", 1],
    ]
    g = gb_game(chips, tiles=14)
    for sq in [(1, 0), (0, 1), (2, 0), (1, 1), (3, 0), (2, 1)]:
        place(g, sq)
        finish(g)
    place(g, (4, 0))
    g.play(BuyExtraTurn())  # a meeple on the Isle of Man
    assert state(g).isle[RED] == 1
    place(g, (5, 0))  # LB1 completes four different sets
    assert g.phase is Phase.ACTION
    choices = g.legal_moves().list()
    assert Pass() not in choices  # compulsory
    assert choices == [
        HandInSet((("orange", 1), ("purple", 1))),
        HandInSet((("orange", 1), ("purple", 2))),
        HandInSet((("orange", 2), ("purple", 1))),
        HandInSet((("orange", 2), ("purple", 2))),
    ]
    assert state(g).isle[RED] == 0 and g.supply[RED] == 9  # freed already
    g.play(HandInSet((("orange", 1), ("purple", 1))))  # the same number: keeps P2 and O2
    st = state(g)
    assert sorted(str(st.chips[c]) for c in st.held[RED]) == ["orange 2", "purple 2"]
    assert st.counts() == (0, 2, 28)
    check_invariants(g)
    again = replay(loads_record(dumps_record(record_of(g))))
    assert again.state_summary() == g.state_summary()


def test_no_extra_turn_after_the_last_tile() -> None:
    """Decision: no extra turn is offered when the draw pile is empty (or the forced end is
    reached): there is no tile left to take."""
    g = gb_game([], tiles=2)
    place(g, (1, 0))
    assert offered(g, BuyExtraTurn) == [BuyExtraTurn()]
    g.play(Pass())
    place(g, (0, 1))  # the last tile
    assert g.is_over()
    g = gb_game([], tiles=6, game_options={"end_after_turns": 1})
    place(g, (1, 0))
    assert g.is_over()


def test_remaining_chips_score_nothing() -> None:
    """End of game: "Remaining Chips don't give you any points." """
    g = gb_game([[1, 0, "orange", 2]], tiles=1)
    place(g, (1, 0))
    assert g.is_over() and g.scores == [2, 0] and [e.kind for e in g.events] == ["chip"]


def test_shipped_map_chip_squares() -> None:
    """Setup: "Use all 3 available starting-squares (Kilkenny, Carlisle and Bristol)." "On the map
    there are 3x10 squares marked with a colored Chip-symbol." "Sort all 30 Chips according to
    their colors." "Then shuffle the groups of 10 face down." "Then you place them face down on
    the respective square on the map." "The 10 blue ones are in the North (Scotland) the 10
    orange ones in the West (Ireland) and the 10 purple ones in the South (England and Wales)."
    "Place the Chips on the squares and make sure that you can see the colored marks on the
    squares so that you always know which color the Chips have." "You place the Chips so that
    you can still know their color but you can't see the number." "We recommend to play with 90
    – 100 tiles." """
    m = load_map(bundled_map("great-britain"))
    assert sorted(s.name for s in m.start_squares.values()) == ["Bristol", "Carlisle", "Kilkenny"]
    values = set()
    for seed in (1, 2):
        g = Game(m, seed=seed)
        st = state(g)
        assert len(g.start_tiles) == 3 and len(st.down) == 30 and st.out == []
        for sq, cid in st.down.items():
            assert st.chips[cid].colour is m.chip_squares[sq]  # colour known from the square
        values.add(tuple(st.chips[st.down[sq]].value for sq in sorted(st.down)))
        total = len(g.pile) + (g.current_tile is not None) + len(g.set_aside) + 3
        assert total == 100
    assert len(values) == 2  # values shuffled within each colour

    def centre(colour: Colour) -> tuple[float, float]:
        sqs = [sq for sq, c in m.chip_squares.items() if c is colour]
        return sum(x for x, _ in sqs) / 10, sum(y for _, y in sqs) / 10

    blue, orange, purple = (centre(c) for c in (Colour.LIGHT_BLUE, Colour.ORANGE, Colour.PURPLE))
    assert blue[1] < purple[1] and orange[0] < purple[0] and orange[0] < blue[0]


def test_buy_extra_turn_is_recorded_and_replayed() -> None:
    g = _buy_twice_then_collect([[1, 0, "purple", 2]])
    rec = loads_record(dumps_record(record_of(g)))
    assert rec.actions.count({"type": "buy_extra_turn"}) == 2
    assert replay(rec).state_summary() == g.state_summary()
    with pytest.raises(RecordError, match="no fields"):
        g.rules[0].action_from_dict({"type": "buy_extra_turn", "meeple": 1})


@pytest.mark.parametrize("seed", range(30))
def test_random_full_games_conserve_chips_and_meeples(seed: int) -> None:
    """ "With this mini-expansion you can place a Meeple on the Isle of Man and you get another
    turn." "You have to find a suitable ship, need enough resources and the weather is also
    important for getting your Meeples back." -- random games on the shipped map; meeples on the
    Isle of Man are conserved (supply + board + Isle = 9) after every action."""
    g = random_game(_gb(), seed, players=2 + seed % 3, check_every=1 if seed < 5 else 7)
    assert g.is_over()


_MAP: MapDef | None = None


def _gb() -> MapDef:
    global _MAP
    if _MAP is None:
        _MAP = load_map(bundled_map("great-britain"))
    return _MAP


def test_a_double_turn_and_a_town_extra_tile_in_one_turn_give_two_more_turns() -> None:
    """Town variant (a) ("Placing a tile on top of a town grants you one instant extra tile")
    and a bought double turn in the same turn both count: Red takes two more turns."""
    from engine.mapdef import Town

    m = make_map(["#######", "#######"], isle_of_man=(6, 1), towns={(1, 0): Town("Town")})
    g = new_game(m, ["B"] * 12, "great_britain", chips=[], game_options={"town_extra_tile": True})
    place(g, (1, 0))  # covers the town
    g.play(BuyExtraTurn())
    assert g.to_move == RED
    place(g, (2, 0))  # the first extra turn
    finish(g)
    assert g.to_move == RED
    place(g, (3, 0))  # the second
    finish(g)
    assert g.to_move == BLUE
    check_invariants(g)


@pytest.mark.parametrize("allowed", [False, True])
def test_no_double_turn_is_bought_in_a_town_extra_tile(allowed: bool) -> None:
    """Correction 5 (RULES.md): "After having finished your 'normal' turn you have the
    possibility to 'buy' one additional turn" -- the instant extra tile of town variant (a) is
    not a normal turn, so no double turn is offered in it (option
    ``double_turn_after_extra_turn=True``: it is)."""
    from engine.mapdef import Town

    m = make_map(["#######", "#######"], isle_of_man=(6, 1), towns={(1, 0): Town("Town")})
    g = new_game(
        m,
        ["B"] * 12,
        "great_britain",
        chips=[],
        game_options={"town_extra_tile": True},
        double_turn_after_extra_turn=allowed,
    )
    place(g, (1, 0))  # covers the town; Red passes the offer in the normal turn
    assert BuyExtraTurn() in g.legal_moves()
    g.play(Pass())
    assert g.to_move == RED  # the instant extra tile
    place(g, (2, 0))
    can_buy = g.phase is Phase.AFTER and BuyExtraTurn() in g.legal_moves()
    assert can_buy is allowed
    finish(g)
    assert g.to_move == BLUE
