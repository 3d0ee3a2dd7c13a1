"""Game flow: setup, legal-move views, checked play, push/pop/copy, options, map rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from _game_helpers import make_map, scripted

from engine.bots.greedy_bot import GreedyBot
from engine.errors import EngineError, IllegalMoveError
from engine.game import Game, GameOptions, Phase
from engine.geometry import Edge, Side
from engine.mapdef import (
    EdgeKind,
    Ferry,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    NamedRuleSet,
    Town,
)
from engine.mapio import load_map
from engine.moves import Move, Placement
from engine.resources import bundled_map
from engine.scoring import majority


def test_classic_game_starts_with_d_at_origin_and_71_tiles_to_draw() -> None:
    g = Game(None, players=3, seed=4)
    assert g.board.tiles[(0, 0)].tile_id == "D" and g.board.tiles[(0, 0)].rotation == 0
    assert g.current_tile is not None and len(g.pile) + 1 == 71
    assert g.supply == [7, 7, 7] and g.players == ("Red", "Blue", "Green")
    assert g.phase is Phase.PLACE and g.to_move == 0


def test_map_game_uses_nine_meeples_and_the_maps_start_squares() -> None:
    m = make_map(["#####"] * 3, start=[(0, 0), (4, 2), (2, 1)])
    m.setup.start_squares_used = 2
    m.setup.tile_pool_max = 30
    g = Game(m, seed=1, options=GameOptions(rule_set="none"))
    assert g.supply == [9, 9]
    starts = [sq for sq, _t, _r in g.start_tiles]
    assert len(starts) == 2 and set(starts) <= set(m.start_squares)
    assert g.start_tiles[0][1] == "D"
    assert len(g.pile) + 1 + len(g.set_aside) == 30 - 2


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(EngineError, match="2 to 6 players"):
        Game(None, players=players)


def test_same_seed_same_game_different_seed_different_game() -> None:
    def run(seed: int) -> dict:
        g = Game(None, seed=seed)
        rng = random.Random(0)
        while not g.is_over():
            g.play(rng.choice(g.legal_moves().list()))
        return g.state_summary()

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_legal_moves_view_is_lazy_and_chess_like() -> None:
    g = Game(None, seed=2, options=GameOptions(draw_order=("E",)))
    moves = g.legal_moves()
    assert bool(moves)
    assert moves.count() == len(moves.list()) == len(list(moves))
    assert Move((0, -1), 180) in moves and Move((0, -1), 180, "S") in moves
    assert Move((0, -1), 0) not in moves  # city N against D's city? no: field against city
    assert Placement((0, -1), 180) in g.legal_placements()
    assert g.meeple_locations(Placement((0, -1), 180)) == ["S", "NL"]
    assert g.meeple_locations(Placement((5, 5), 0)) == []


def test_illegal_moves_raise_precise_errors_and_leave_the_state_unchanged() -> None:
    g = Game(None, seed=2, options=GameOptions(draw_order=("E", "E", "U")))
    g.play(Move((0, -1), 180, "S"))  # Red closes D's city with a cap: scored at once
    before = g.state_summary()
    cases = {
        Move((0, 0), 0): "square (0, 0) already holds tile D",
        Move((7, 7), 0): "square (7, 7) is not next to a placed tile",
        Move((1, 0), 0): (
            "tile E at rotation 0 shows field on its W edge but square (1, 0) needs road there "
            "(tile D on (0, 0))"
        ),
        Move((1, 0), 45): "rotation 45 is not one of 0, 90, 180, 270",
        Move((0, 1), 180, "X"): "on (0, 1) has no feature at 'X' (its locations: S, NL)",
    }
    for move, message in cases.items():
        with pytest.raises(IllegalMoveError, match=message.replace("(", r"\(").replace(")", r"\)")):
            g.play(move)
        assert g.state_summary() == before
    with pytest.raises(IllegalMoveError, match="turn 2 \\(Blue\\)"):
        g.play(Move((7, 7), 0))


def test_meeple_on_an_occupied_feature_is_illegal() -> None:
    g = Game(None, options=GameOptions(draw_order=("U", "U")))
    g.play(Move((1, 0), 0, "E"))  # Red on the road through D
    with pytest.raises(IllegalMoveError, match="joins a road that already has a meeple"):
        g.play(Move((2, 0), 0, "W"))
    assert Move((2, 0), 0, "NL") in g.legal_moves()  # the field is free


def test_no_meeple_without_supply() -> None:
    g = Game(None, options=GameOptions(meeples=0, draw_order=("U",)))
    assert all(m.meeple is None for m in g.legal_moves())
    with pytest.raises(IllegalMoveError, match="no meeple left"):
        g.play(Move((1, 0), 0, "E"))


def test_meeple_locations_are_in_board_orientation() -> None:
    g = Game(None, options=GameOptions(draw_order=("E", "E")))
    # E has its city cap on N at rotation 0; turned 90 degrees the city is on the east
    g.play(Move((0, 1), 90, "E"))
    assert g.meeples[0][2] == "E"
    # any half-edge of a field names it; the record keeps the canonical (first) one
    field_halves = [m.meeple for m in g.legal_moves() if m.square == (1, 1) and m.meeple]
    assert field_halves and all(
        loc in ("W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "N", "E", "S")
        for loc in field_halves
    )


def test_push_pop_and_copy_are_independent() -> None:
    g = Game(None, seed=9)
    before = g.state_summary()
    rng = random.Random(1)
    for _ in range(5):
        g.push(rng.choice(g.legal_moves().list()))
    mid = g.state_summary()
    c = g.copy()
    for _ in range(5):
        g.pop()
    assert g.state_summary() == before
    assert c.state_summary() == mid
    c.play(c.legal_moves().list()[0])
    assert g.state_summary() == before


def test_a_tile_that_fits_nowhere_is_set_aside() -> None:
    m = make_map(["##"], start=[(0, 0)])
    g = Game(m, options=GameOptions(start_squares=((0, 0),), start_tile="B", draw_order=("C", "B")))
    assert g.set_aside == ["C"] and g.current_tile == "B"


def test_forced_end_after_n_turns() -> None:
    g = Game(None, seed=1, options=GameOptions(end_after_turns=3))
    rng = random.Random(0)
    while not g.is_over():
        g.play(rng.choice(g.legal_moves().list()))
    assert g.turn == 3 and g.outcome() is not None


def test_game_ends_when_the_pile_is_empty_with_winners() -> None:
    g = scripted(None, None, [("E", (0, -1), 180, "S")], start_tile="D")
    out = g.outcome()
    assert g.is_over() and out is not None and out.winners == (0,) and out.scores == (4, 0)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.play(Move((1, 0), 0))


# -- map rules ----------------------------------------------------------------------------


def test_large_city_is_dormant_until_a_tile_connects_it() -> None:
    city = LargeCity(
        "c",
        "Metz",
        squares={(2, 0)},
        edges={Edge(2, 0, Side.W): EdgeKind.CITY, Edge(2, 0, Side.E): EdgeKind.ROAD},
    )
    m = make_map(["####", "####"], start=[(0, 0)], large_cities={"c": city})
    opts = GameOptions(start_squares=((0, 0),), start_tile="B", draw_order=("B", "E", "B"))
    g = Game(m, options=opts)
    g.play(Move((0, 1), 0))  # not next to the city
    assert not g.board.active_cities
    assert (3, 0) not in g.board.frontier and (2, 1) not in g.board.frontier
    assert "part of the large city Metz" in (g.board.why_illegal((2, 0), "E", 0) or "")
    assert Move((1, 0), 0) not in g.legal_moves()  # a field against the printed city edge
    with pytest.raises(IllegalMoveError, match="needs city there \\(large city Metz\\)"):
        g.play(Move((1, 0), 0))
    g.play(Move((1, 0), 90))  # city east, into Metz's open side: connects it
    assert g.board.active_cities == {"c"}
    assert {(3, 0), (2, 1)} <= g.board.frontier
    assert g.board.why_illegal((3, 0), "B", 0) is not None  # must show a road to Metz's road


@pytest.mark.parametrize(("connect", "active"), [("any_edge", True), ("city_edge", False)])
def test_large_city_connect_option(connect: str, active: bool) -> None:
    city = LargeCity("c", "Metz", squares={(2, 0)}, edges={Edge(2, 0, Side.E): EdgeKind.CITY})
    m = make_map(["####", "####"], start=[(0, 0)], large_cities={"c": city})
    g = Game(
        m,
        options=GameOptions(
            start_squares=((0, 0),),
            start_tile="B",
            draw_order=("B", "B"),
            large_city_connect=connect,
        ),
    )
    g.play(Move((1, 0), 0))  # field against the city's field side
    assert ("c" in g.board.active_cities) is active
    assert ((2, 1) in g.board.frontier) is active


@pytest.mark.parametrize(("counts", "tiles"), [(True, 3), (False, 2)])
def test_road_into_a_large_city_road_edge_ends_there(counts: bool, tiles: int) -> None:
    """RULES.md: a road ending at a large city's printed road ends there; by default the city
    square counts as one road tile (option ``large_city_road_tile``)."""
    city = LargeCity("c", "Metz", squares={(2, 0)}, edges={Edge(2, 0, Side.W): EdgeKind.ROAD})
    m = make_map(["###", "#.."], start=[(0, 1)], large_cities={"c": city})
    moves = [("A", (0, 0), 270, "E"), ("U", (1, 0), 0, None)]
    g = scripted(m, (0, 1), moves, large_city_road_tile=counts)
    [event] = [e for e in g.events if e.kind == "road" and not e.final]
    assert event.tiles == tiles and event.points == tiles


def test_gated_island_square_only_by_ferry() -> None:
    island = Island("i", "Mallorca", squares={(3, 0): IslandSquare(IslandRole.GATED, 2)})
    ferry = Ferry("f", Edge(1, 0, Side.E), Edge(3, 0, Side.W))
    m = make_map(["##.#"], start=[(0, 0)], islands={"i": island}, ferries={"f": ferry})
    g = Game(m, options=GameOptions(start_squares=((0, 0),), start_tile="B", draw_order=("A", "A")))
    assert "ferry-gated" in (g.board.why_illegal((3, 0), "A", 90) or "")
    g.play(Move((1, 0), 270))
    assert (3, 0) in g.board.frontier
    assert g.board.why_illegal((3, 0), "A", 0) is not None  # must show a road on the ferry edge
    g.play(Move((3, 0), 90))


def test_wave_squares_take_no_tile_and_close_features() -> None:
    m = make_map(["###"], start=[(0, 0)], waves={(2, 0)})
    g = scripted(m, (0, 0), [("E", (1, 0), 90, "E")], map_chips_prints="keep")
    assert "wave" in (g.board.why_illegal((2, 0), "B", 0) or "")
    assert [e.points for e in g.events if e.kind == "city" and not e.final] == [2]


def _printed_map() -> object:
    from engine.mapdef import Colour

    stack = Island("i", "Texel", Colour.PURPLE, {(3, 0): IslandSquare(IslandRole.STACK)})
    m = make_map(["####"], start=[(0, 0)], waves={(2, 0)}, islands={"i": stack})
    m.rule_set = NamedRuleSet("benelux")
    return m


@pytest.mark.parametrize(
    ("options", "blocked"),
    [
        ({"rule_set": "none"}, False),  # "you simply ignore the additional prints on the maps"
        ({"rule_set": "none", "map_chips_prints": "keep"}, True),  # the other reading
        ({"rule_set": "benelux", "rule_options": {"chips": []}}, True),  # Benelux uses them
    ],
)
def test_waves_and_stacks_without_map_chips(options: dict, blocked: bool) -> None:
    """Correction 2 (RULES.md): without the Map-Chips rule set that uses them, wave and
    island stack squares are ordinary squares; the game's map (its record) keeps them."""
    m = _printed_map()
    g = Game(m, options=GameOptions(start_squares=((0, 0),), **options))
    placeable = g.board.layout.placeable
    assert ((2, 0) in placeable, (3, 0) in placeable) == (not blocked, not blocked)
    assert g.map is m and m.waves == {(2, 0)} and m.stack_squares() == {(3, 0)}


def test_a_map_made_for_no_rule_set_keeps_its_prints() -> None:
    m = _printed_map()
    m.rule_set = NamedRuleSet(
        "none"
    )  # the author drew waves and stacks as squares that take no tile
    g = Game(m, options=GameOptions(start_squares=((0, 0),)))
    assert not {(2, 0), (3, 0)} & g.board.layout.placeable


# -- town variants ----------------------------------------------------------------------------


def _town_map() -> object:
    return make_map(
        ["####", "####"], start=[(0, 0)], towns={(1, 0): Town("Metz"), (2, 1): Town("Toul")}
    )


def test_town_variant_b_costs_two_points() -> None:
    g = scripted(_town_map(), (0, 0), [("B", (1, 0), 0, None)], town_cost=True)
    assert g.scores[0] == -2
    assert [e.kind for e in g.events] == ["town"]
    assert "covered the town Metz" in g.events[0].text


def test_town_variant_a_gives_one_extra_tile_that_does_not_chain() -> None:
    g = Game(
        _town_map(),
        options=GameOptions(
            start_squares=((0, 0),),
            start_tile="B",
            draw_order=("B", "B", "B", "B"),
            town_extra_tile=True,
        ),
    )
    g.play(Move((1, 0), 0))  # Red covers Metz: Red again
    assert g.to_move == 0
    g.play(Move((2, 0), 0))
    assert g.to_move == 1
    g.play(Move((2, 1), 0))  # Blue covers Toul: Blue again
    assert g.to_move == 1


def test_town_variant_c_adds_two_per_visible_town_next_to_a_scored_road() -> None:
    m = make_map(["###", "###"], start=[(0, 1)], towns={(1, 1): Town("Toul")})
    moves = [("A", (0, 0), 270, "E"), ("U", (1, 0), 0, None), ("A", (2, 0), 90, None)]
    g = scripted(m, (0, 1), moves, town_road_bonus=True)
    [event] = [e for e in g.events if e.kind == "road" and not e.final]
    assert (event.tiles, event.bonus, event.points) == (3, 2, 5)
    assert event.text == "Road completed: 3 tiles + 2 town bonus = 5 for Red"
    g = scripted(m, (0, 1), moves, town_road_bonus=False)
    assert [e.points for e in g.events if e.kind == "road"] == [3]


def test_town_variant_c_ignores_covered_towns() -> None:
    m = make_map(["###", "###"], start=[(0, 1)], towns={(0, 1): Town("Toul")})
    moves = [("A", (0, 0), 270, "E"), ("U", (1, 0), 0, None), ("A", (2, 0), 90, None)]
    g = scripted(m, (0, 1), moves, town_road_bonus=True)
    assert [e.points for e in g.events if e.kind == "road"] == [3]  # the start tile covers it


@pytest.mark.parametrize(("touch", "cities"), [(False, 0), (True, 1)])
def test_fields_touch_large_city_option(touch: bool, cities: int) -> None:
    """RULES.md: a field meeting only a printed field edge of a large city does not border it,
    unless ``fields_touch_large_city``."""
    city = LargeCity("c", "Metz", squares={(2, 0)}, edges={Edge(2, 0, Side.E): EdgeKind.CITY})
    m = make_map(["####", "####"], start=[(0, 0)], large_cities={"c": city})
    moves = [("B", (1, 0), 0, "NL"), ("E", (3, 0), 270, None)]
    g = scripted(m, (0, 0), moves, fields_touch_large_city=touch)
    assert [e.points for e in g.events if e.kind == "city" and not e.final] == []  # nobody on it
    assert "c" in g.board.active_cities
    [field] = [e for e in g.events if e.kind == "field"]
    assert (field.cities, field.points) == (cities, 3 * cities)


def test_fields_touch_a_large_city_by_default() -> None:
    """Correction 3 (RULES.md): "Preprinted large city tiles are scored in the same way as a
    normal city tile" -- a field meeting a large city's printed field edge borders it."""
    assert GameOptions().fields_touch_large_city is True
    city = LargeCity("c", "Metz", squares={(2, 0)}, edges={Edge(2, 0, Side.E): EdgeKind.CITY})
    m = make_map(["####", "####"], start=[(0, 0)], large_cities={"c": city})
    g = scripted(m, (0, 0), [("B", (1, 0), 0, "NL"), ("E", (3, 0), 270, None)])
    [field] = [e for e in g.events if e.kind == "field"]
    assert (field.cities, field.points) == (1, 3)


def test_gated_islands_option_off_makes_gated_squares_ordinary() -> None:
    island = Island("i", "Mallorca", squares={(1, 0): IslandSquare(IslandRole.GATED)})
    m = make_map(["##"], start=[(0, 0)], islands={"i": island})
    for gated, reachable in ((True, False), (False, True)):
        opts = GameOptions(
            start_squares=((0, 0),), start_tile="B", draw_order=("B",), gated_islands=gated
        )
        g = Game(m, options=opts)
        assert ((1, 0) in g.board.frontier) is reachable


# -- the rule-module hook protocol ----------------------------------------------------------

from dataclasses import dataclass as _dataclass  # noqa: E402

from engine.moves import Action, Pass  # noqa: E402
from engine.record import dumps_record, loads_record  # noqa: E402
from engine.replaying import replay  # noqa: E402
from engine.rules.base import Rules, register  # noqa: E402
from engine.rules.context import RuleContext  # noqa: E402
from engine.rules.registry import available_rules, get_rules  # noqa: E402


@_dataclass(frozen=True)
class Bonus(Action):
    type = "bonus"  # type: ignore[assignment]
    points: int = 5

    def to_dict(self) -> dict:
        return {"type": "bonus", "points": self.points}


@_dataclass
class _ToyState:
    drawn: int = 0
    placed: int = 0
    bought_round: int = -1
    scored: int = 0
    ended: bool = False

    def copy(self) -> _ToyState:
        return _ToyState(self.drawn, self.placed, self.bought_round, self.scored, self.ended)

    def summary(self) -> list:
        return [self.drawn, self.placed, self.bought_round, self.scored, self.ended]


@register
class _ToyRules(Rules):
    """A sixth rule set as a plain module: one point per tile, a bonus action once per round
    that also buys an extra turn, a mandatory choice when a tile goes on (0, -1)."""

    name = "toy_rules_for_tests"
    title = "Toy rules (tests)"  # registered: it declares itself like every rule set

    def setup(self, ctx: RuleContext) -> None:
        ctx.rule_state[self.name] = _ToyState()

    def tile_drawn(self, ctx: RuleContext, tile_id: str) -> None:
        ctx.rule_state[self.name].drawn += 1

    def tile_placed(self, ctx: RuleContext, square, tile_id: str, rotation: int) -> None:
        ctx.rule_state[self.name].placed += 1
        ctx.award(ctx.to_move, 1, "toy", f"placed {tile_id}")

    def actions(self, ctx: RuleContext, phase: str) -> list[Action]:
        state = ctx.rule_state[self.name]
        if phase == "after" and state.bought_round != ctx.round:
            return [Bonus(5)]
        return []

    def apply(self, ctx: RuleContext, action: Action) -> None:
        state = ctx.rule_state[self.name]
        state.bought_round = ctx.round
        ctx.award(ctx.to_move, action.points, "toy", "bonus")  # type: ignore[attr-defined]
        ctx.grant_extra_turn("toy.bonus")

    def feature_scored(self, ctx: RuleContext, event) -> None:
        ctx.rule_state[self.name].scored += 1

    def end_of_game(self, ctx: RuleContext) -> None:
        ctx.rule_state[self.name].ended = True

    def action_from_dict(self, data) -> Action | None:
        return Bonus(int(data["points"])) if data.get("type") == "bonus" else None


def test_a_rule_module_plugs_into_every_hook_and_replays_from_its_record() -> None:
    assert get_rules("toy_rules_for_tests") is _ToyRules
    assert "towns" in available_rules()
    g = Game(None, seed=3, options=GameOptions(rule_set="toy_rules_for_tests"))
    rng = random.Random(3)
    bonuses = 0
    while not g.is_over():
        moves = g.legal_moves().list()
        if g.phase is Phase.AFTER:
            assert moves[0] == Pass() and Bonus(5) in moves
        move = rng.choice(moves)
        bonuses += isinstance(move, Bonus)
        g.play(move)
    state = g.rule_state["toy_rules_for_tests"]
    assert state.placed == g.turn and state.drawn == g.turn and state.ended
    assert bonuses > 0 and g.breakdown[0]["toy"] + g.breakdown[1]["toy"] == g.turn + 5 * bonuses
    again = replay(loads_record(dumps_record(g.record())))
    assert again.state_summary() == g.state_summary()


def test_unknown_rule_set_names_the_option_to_play_without() -> None:
    with pytest.raises(EngineError, match="unknown rule set 'atlantis'.*rule_set='none'"):
        Game(None, options=GameOptions(rule_set="atlantis"))


def test_a_large_city_with_every_city_side_on_the_border_is_complete_from_the_start() -> None:
    city = LargeCity("c", "Brest", squares={(1, 0)}, edges={Edge(1, 0, Side.N): EdgeKind.CITY})
    m = make_map(["###", "###"], start=[(0, 0)], large_cities={"c": city})
    g = scripted(m, (0, 0), [("B", (0, 1), 0, "NL")], fields_touch_large_city=True)
    [field] = [e for e in g.events if e.kind == "field"]
    assert field.cities == 1


def test_placed_tiles_and_meeples_are_readable() -> None:
    g = Game(None, options=GameOptions(draw_order=("U", "U")))
    g.play(Move((1, 0), 0, "E"))
    assert g.placed_tiles() == [((0, 0), "D", 0), ((1, 0), "U", 0)]
    [meeple] = g.meeples.values()
    assert (meeple.player, meeple.square, meeple.location, meeple.strength) == (0, (1, 0), "E", 1)
    RuleContext.of(g).set_meeple_strength(0, 2)
    assert g.meeple_strength(0) == 2


def test_the_game_offers_players_no_rule_mutators() -> None:
    # rule hooks act through RuleContext; the game's public surface is the player API
    mutators = {
        "award",
        "return_meeple",
        "grant_extra_turn",
        "set_meeple_strength",
        "take_meeple_from_supply",
        "give_meeple_to_supply",
        "set_current_tile",
    }
    assert not mutators & set(dir(Game))
    assert mutators <= set(dir(RuleContext))


@pytest.mark.parametrize(("road_tile", "points", "bonus"), [(True, 6, 2), (False, 3, 0)])
def test_town_variant_c_next_to_the_large_city_square_a_road_ends_in(
    road_tile: bool, points: int, bonus: int
) -> None:
    """Correction 6 (RULES.md): "you get 2 bonus points for each town which is still visible
    and touches your road" -- a town touching only the large-city square where the road ends
    touches the road, since that square counts as one of its tiles (``large_city_road_tile``)."""
    city = LargeCity("c", "Lyon", squares={(3, 0)}, edges={Edge(3, 0, Side.W): EdgeKind.ROAD})
    m = make_map(
        ["####", "####"],
        start=[(1, 0)],
        large_cities={"c": city},
        towns={(3, 1): Town("Vienne")},
    )
    moves = [("A", (0, 0), 270, None), ("U", (2, 0), 0, "W")]
    g = scripted(
        m, (1, 0), moves, start_tile="U", town_road_bonus=True, large_city_road_tile=road_tile
    )
    [road] = [e for e in g.events if e.kind == "road"]
    assert (road.points, road.bonus) == (points, bonus)
    assert ((3, 0) in road.squares) is road_tile


def test_rule_hooks_left_as_defaults_are_not_called() -> None:
    # every turn asks each notification hook; a rule set that leaves one as Rules has it is
    # skipped there, one that defines it (on its class or on the instance) is called
    from engine.game import _Hooks
    from engine.rules.base import Rules

    calls: list[str] = []

    class Quiet(Rules):
        name = "quiet"

    class Busy(Rules):
        name = "busy"

        def start_of_turn(self, ctx: Any) -> None:
            calls.append("start")

        def end_of_turn(self, ctx: Any) -> None:
            calls.append("end")

    quiet, busy = Quiet(), Busy()
    hooks = _Hooks.of([quiet, busy])
    assert hooks.start_of_turn == (busy,) and hooks.end_of_turn == (busy,)
    assert hooks.tile_placed == () and hooks.on_score == ()
    quiet.tile_drawn = lambda ctx, tile_id: calls.append(tile_id)  # type: ignore[method-assign]
    assert _Hooks.of([quiet, busy]).tile_drawn == (quiet,)
    hooks_named = {h for h in _Hooks._fields if not h.startswith("offers_")}
    assert hooks_named <= {n for n in vars(Rules) if not n.startswith("_")}
    # no actions of its own: asked in no phase; Busy lists none either
    assert hooks.offers_action == hooks.offers_after == ()

    g = Game(load_map(bundled_map("deutschland")), players=2, seed=5)
    g.rules.append(busy)
    g._hooks = _Hooks.of(g.rules)
    rng = random.Random(5)
    for _ in range(6):
        g.apply(rng.choice(g.legal_moves()))
    assert calls.count("end") >= 1 and calls.count("start") == calls.count("end")


def test_games_made_without_options_share_read_only_defaults() -> None:
    a, b = Game(None, players=2, seed=1), Game(None, players=2, seed=2)
    assert a.options is b.options and a.options == GameOptions()
    with pytest.raises(TypeError):
        a.options.rule_options["ones_per_colour"] = 3  # type: ignore[index]
    assert a.options.to_dict() == GameOptions().to_dict()


def test_rule_sets_with_actions_are_asked_in_both_phases_unless_quiet() -> None:
    from engine.game import _Hooks
    from engine.rules.base import Rules

    class Offering(Rules):
        name = "offering"

        def actions(self, ctx: Any, phase: str) -> list[Any]:
            return []

    class NothingAfter(Offering):
        name = "nothing_after"

        def quiet_hooks(self) -> frozenset[str]:
            return frozenset({"offers_after"})

    a, b = Offering(), NothingAfter()
    hooks = _Hooks.of([a, b])
    assert hooks.offers_action == (a, b) and hooks.offers_after == (a,)


@pytest.mark.parametrize("name", ["deutschland", "example-small"])
def test_majorities_equal_the_strengths_counted_on_whole_games(name: str) -> None:
    """``Game.majority_of`` gives a feature held by one player to that player without asking
    the rule sets for strengths: every occupied feature of whole greedy games (they join their
    own features, random play seldom does) against the majority of the strengths counted one
    by one (Deutschland upgrades meeples to 2)."""
    m = load_map(bundled_map(name))
    one_player = mixed = strong = 0
    for seed in range(2):
        g = Game(m, players=4, seed=seed)
        bot = GreedyBot(seed=seed)
        while not g.is_over():
            for mids in list(g.board.features.meeples.values()):
                strengths: dict[int, int] = {}
                for mid in mids:
                    p = g.meeples[mid].player
                    strengths[p] = strengths.get(p, 0) + g.meeple_strength(mid)
                    strong += g.meeple_strength(mid) > 1
                assert g.majority_of(mids) == majority(strengths), (seed, g.turn, mids)
                if len(mids) > 1:
                    if len(strengths) == 1:
                        one_player += 1
                    else:
                        mixed += 1
            g.apply(bot.choose(g))
    assert one_player > 20 and mixed > 20, (one_player, mixed)
    if name == "deutschland":
        assert strong > 0
