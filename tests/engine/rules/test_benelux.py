"""Map-Chips Benelux: waves, 20 chips, island stacks and island tiles (engine/rules/benelux.py)."""

from __future__ import annotations

import pytest
from _chips_helpers import check_invariants, finish, make_map, new_game, offered, place, random_game

from engine.errors import IllegalMoveError, RecordError
from engine.game import Game, Phase
from engine.mapdef import Colour, Island, IslandRole, IslandSquare, MapDef
from engine.mapio import load_map
from engine.moves import Draw, Move
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.benelux import BeneluxState, TakeIslandTile

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

TEXEL_A, TEXEL_B, AMELAND = (3, 0), (4, 0), (5, 1)


def island_map() -> MapDef:
    """Two rows x 0..5; start (0,0); wave (5,0); purple Texel: stacks (3,0) and (4,0); orange
    Ameland: stack (5,1)."""
    stack = IslandSquare(IslandRole.STACK)
    return make_map(
        ["######", "######"],
        waves={(5, 0)},
        islands={
            "texel": Island("texel", "Texel", Colour.PURPLE, {TEXEL_A: stack, TEXEL_B: stack}),
            "ameland": Island("ameland", "Ameland", Colour.ORANGE, {AMELAND: stack}),
        },
    )


def game(stacks: list[str], pile: list[str], chips: list[list[object]], **kw: object) -> Game:
    """Stacks of 2 dealt in sorted square order from ``stacks`` (first = top), then ``pile``."""
    return new_game(island_map(), stacks + pile, "benelux", chips=chips, stack_size=2, **kw)


def state(g: Game) -> BeneluxState:
    return g.rule_state["benelux"]


def test_island_tile_instead_of_drawing() -> None:
    """Taking a face up Island Land-tile: "If it's your turn and you have at least one Chip in
    front of you, it is up to you to decide ..." "a) ... if you want to take a face up Island Land
    tile from an island of the respective color instead of one from the usual stack." "If there
    are still both stacks on the island, you can choose which one you want to take." "Then you get
    rid of your Chip (it's no longer in the game anymore) and you place your Land tile." "At the
    end of your turn you reveal the top tile of the used Island stack." Example: "You pay a purple
    Chip and you take one of the face up tiles from the purple island." "Then you place your Land
    tile." "At the end of your turn you reveal the next tile." "OR" "b) ... if you take a face
    down Land tile as usual." """
    g = game(["U", "E", "B", "B", "B", "B"], ["B", "B", "B", "B"], [[1, 0, "purple", 1]])
    st = state(g)
    assert st.face_up(TEXEL_A) == "U" and st.face_up(TEXEL_B) == "B"
    assert g.phase is Phase.PLACE  # no chip yet: no choice, drawn at once
    place(g, (1, 0))
    finish(g)
    place(g, (0, 1))  # Blue holds no chip
    finish(g)
    assert g.phase is Phase.DRAW and g.current_tile is None
    choices = set(g.legal_moves())
    assert choices == {Draw(), TakeIslandTile(TEXEL_A), TakeIslandTile(TEXEL_B)}  # not Ameland
    g.play(TakeIslandTile(TEXEL_A))
    assert g.current_tile == "U" and g.phase is Phase.PLACE
    assert st is state(g) and st.held[0] == [] and len(st.out) == 30
    assert st.face_up(TEXEL_A) is None  # the next tile is revealed only at the end of the turn
    place(g, (2, 0), 90)  # road N-S
    finish(g)
    assert st.face_up(TEXEL_A) == "E"
    check_invariants(g)


def test_one_stack_left_gives_its_top_tile() -> None:
    """ "If there is only one stack left, you pick the first tile of the remaining stack." -- and
    "You may collect Chips and use them later in the game." (two chips, used on two turns)."""
    chips = [[1, 0, "purple", 1], [1, 1, "purple", 2]]
    g = game(["B", "B", "B", "B", "B", "B"], ["B"] * 8, chips)
    place(g, (1, 0))
    finish(g)
    place(g, (0, 1))
    finish(g)
    g.play(TakeIslandTile(TEXEL_A))  # Red pays one purple chip
    place(g, (1, 1))  # and collects another
    finish(g)
    place(g, (2, 1))
    finish(g)
    g.play(TakeIslandTile(TEXEL_A))  # the second tile of that stack: the stack is now empty
    place(g, (2, 0))
    finish(g)
    st = state(g)
    assert st.stacks[TEXEL_A] == [] and st.held[0] == []
    place(g, (3, 1))
    finish(g)
    assert g.phase is Phase.PLACE  # Red has no chip left: drawn face down at once
    assert (3, 0) not in g.board.frontier  # an empty stack square still takes no tile


def test_drawing_face_down_commits() -> None:
    """ "Note!" "Having taken a face down tile you cannot choose again but you have to use the one
    you've just picked." """
    g = game(["B"] * 6, ["B"] * 4, [[1, 0, "purple", 1]])
    place(g, (1, 0))
    finish(g)
    place(g, (0, 1))
    finish(g)
    g.play(Draw())
    assert g.phase is Phase.PLACE and g.current_tile == "B"
    with pytest.raises(IllegalMoveError):
        g.play(TakeIslandTile(TEXEL_A))
    assert all(isinstance(a, Move) for a in g.legal_moves())


def test_island_tile_that_fits_nowhere_is_not_offered() -> None:
    """Decision (engine/RULES.md): a face-up island tile with no legal placement is not offered."""
    g = game(["C", "B", "B", "B", "B", "B"], ["B"] * 4, [[1, 0, "purple", 1]])
    place(g, (1, 0))
    finish(g)
    place(g, (0, 1))
    finish(g)
    assert set(offered(g, TakeIslandTile)) == {TakeIslandTile(TEXEL_B)}


def test_waves_take_no_tile() -> None:
    """Waves: "On the map there are three squares marked with waves." "You cannot place a Land
    tile on these squares." """
    m = load_map(bundled_map("benelux"))
    assert len(m.waves) == 3
    g = game(["B"] * 6, ["B"] * 7, [])
    for sq in [(1, 0), (2, 0), (1, 1), (2, 1), (3, 1), (4, 1)]:
        place(g, sq)
        finish(g)
    assert (5, 0) not in g.board.frontier
    why = g.why_illegal(Move((5, 0), 0, None))
    assert why is not None and "wave" in why


def test_game_ends_after_the_last_face_down_tile() -> None:
    """End of the game: "The game ends as usual after the last face down Land tile has been
    placed." "Remaining Chips or Island tiles don't matter." """
    g = game(["B"] * 6, ["B", "B"], [[1, 0, "purple", 2], [2, 1, "orange", 1]])
    place(g, (1, 0))
    finish(g)
    place(g, (1, 1))
    finish(g)
    assert g.is_over()
    st = state(g)
    assert sum(len(s) for s in st.stacks.values()) == 6 and st.held[0]
    assert g.scores == [2, 0] and [e.kind for e in g.events] == ["chip"]


def test_shipped_map_setup() -> None:
    """Setup: "Use 2 of the 3 available starting-squares (Meppel, Eindhoven and Charleroi)."
    "Place 20 of them evenly distributed on the squares of the map and stick to the following
    rules:" "The remaining 10 Chips are taken out of the game without looking at them." "Now you
    shuffle all Land tiles and make 6 stacks with 5 tiles each." "Place all of them on the 6
    Island squares (2 stacks per island) on the map." "Place the first tiles of the stacks face
    up." "With the remaining Land tiles you make the usual stacks." "We recommend to play with
    110-120 tiles (e.g. base game + 1st + 2nd expansion)" """
    m = load_map(bundled_map("benelux"))
    assert sorted(s.name for s in m.start_squares.values()) == ["Charleroi", "Eindhoven", "Meppel"]
    g = Game(m, seed=4)
    st = state(g)
    assert len(g.start_tiles) == 2 and len(st.down) == 20 and len(st.out) == 10
    assert len(st.stacks) == 6 and all(len(s) == 5 for s in st.stacks.values())
    per_island = {i.id: [sq for sq in i.squares if sq in st.stacks] for i in m.islands.values()}
    assert sorted(len(v) for v in per_island.values()) == [2, 2, 2]
    assert all(st.face_up(sq) is not None for sq in st.stacks)
    drawn = len(g.pile) + (g.current_tile is not None) + len(g.set_aside)
    assert drawn + 30 + len(g.start_tiles) == 114
    assert (m.setup.tile_pool_min, m.setup.tile_pool_max) == (110, 120)


def test_take_island_tile_is_recorded_and_replayed() -> None:
    g = game(["U", "E", "B", "B", "B", "B"], ["B", "B", "B", "B"], [[1, 0, "purple", 1]])
    place(g, (1, 0))
    finish(g)
    place(g, (0, 1))
    finish(g)
    g.play(TakeIslandTile(TEXEL_B))
    place(g, (2, 0))
    finish(g)
    rec = loads_record(dumps_record(record_of(g)))
    assert {"type": "take_island_tile", "x": 4, "y": 0} in rec.actions
    assert replay(rec).state_summary() == g.state_summary()
    with pytest.raises(RecordError, match="take_island_tile"):
        g.rules[0].action_from_dict({"type": "take_island_tile", "x": "a"})


@pytest.mark.parametrize("seed", range(30))
def test_random_full_games_conserve_chips_and_meeples(seed: int) -> None:
    """ "With this mini-expansion you can sail to different islands in the North Sea to pick up
    face up land tiles which you can place instead of the tiles drawn from the stack." -- random
    games on the shipped map take island tiles; invariants hold after every action."""
    g = random_game(_benelux(), seed, check_every=1 if seed < 5 else 7)
    assert g.is_over() and not g.pile


_MAP: MapDef | None = None


def _benelux() -> MapDef:
    global _MAP
    if _MAP is None:
        _MAP = load_map(bundled_map("benelux"))
    return _MAP
