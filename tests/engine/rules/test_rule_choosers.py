"""Rules taken by a player other than the one to move, and the turns a rule moves.

A rule's ``chooser`` (``left``, ``right``, ``each_other``, ``owners``) gives other players a
decision inside the turn: ``Game.decider`` names who acts, only their offers are legal, their pass
declines only their own offers, and records replay it. ``extra_turn`` and ``skip_turn`` move
turns; the balance report counts them per rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.analysis.rule_usage import RuleWatch
from engine.bots import make_bot
from engine.errors import IllegalMoveError
from engine.game import Game, GameOptions, Phase
from engine.mapdef import EmbeddedRuleSet, MapDef, StartSquare
from engine.mapio import load_map
from engine.moves import Move, Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.context import RuleContext
from engine.rules.data import RuleSetSpec, check_ruleset_dict, preset_dict
from engine.rules.data.actions import BuyExtraTurn
from engine.rules.data.interpret import RuleAction

SALT = {"id": "salt", "name": "Salt", "icon": "salt", "supply": 20}
TOLL = {
    "id": "toll",
    "title": "Road toll",
    "when": "tile_placed",
    "if": [{"kind": "tile_shows", "feature": "road"}],
    "then": [
        {"kind": "gain", "resource": "salt", "amount": 1},
        {"kind": "give", "what": "points", "amount": 2, "to": "current"},
    ],
    "choice": "optional",
    "chooser": "each_other",
}
STRETCH = {
    "id": "stretch",
    "when": "action_phase",
    "then": [{"kind": "points", "amount": 1}],
    "choice": "optional",
    "limits": [{"per": "turn"}],
}


def _spec(*rules: dict[str, Any]) -> RuleSetSpec:
    d = preset_dict("deutschland")
    d.update(name="lang", mechanics=[], resources=[SALT], rules=list(rules))
    d["layout"] = {"kind": "none", "count": None, "exclude": []}
    assert check_ruleset_dict(d) == []
    return RuleSetSpec.from_dict(d)


def _strip_game(spec: RuleSetSpec, players: int = 3, tiles: str = "UUUUU") -> Game:
    width = len(tiles) + 1
    m = MapDef(id="strip", name="Strip", width=width, height=1, land={(x, 0) for x in range(width)})
    m.start_squares[(0, 0)] = StartSquare("Start")
    m.rule_set = EmbeddedRuleSet(spec)
    opts = GameOptions(start_tile="U", draw_order=tuple(tiles))
    return Game(m, players=players, seed=3, options=opts)


def _base(**rule: Any) -> dict[str, Any]:
    d = preset_dict("deutschland")
    r = {"id": "r", "when": "tile_placed", "then": [{"kind": "points", "amount": 1}], **rule}
    d.update(name="lang", mechanics=[], rules=[r])
    d["layout"] = {"kind": "none", "count": None, "exclude": []}
    return d


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (
            {"when": "end_of_turn", "chooser": "left"},
            "rules[0].chooser: 'left' decides in the phase after the trigger: no phase follows "
            "'end_of_turn'",
        ),
        (
            {
                "when": "action_phase",
                "choice": "optional",
                "chooser": "right",
                "limits": [{"per": "turn"}],
            },
            "rules[0].chooser: 'action_phase' is the player to move's phase: its chooser is "
            "'current'",
        ),
        (
            {"when": "feature_scored", "chooser": "owners"},
            "rules[0].chooser: 'owners' needs a square; trigger 'feature_scored' gives none",
        ),
        (
            {"chooser": "left", "then": [{"kind": "extra_turn"}]},
            "rules[0].then: an extra turn goes to the player to move, and 'left' is another",
        ),
        (
            {"when": "end_of_game", "then": [{"kind": "skip_turn"}]},
            "rules[0].then: no turn follows 'end_of_game' to be missed",
        ),
        (
            {"chooser": "nobody"},
            "rules[0].chooser: 'nobody' is not one of ['current', 'left', 'right', "
            "'each_other', 'owners']",
        ),
    ],
)
def test_the_checker_refuses_what_another_chooser_cannot_do(
    rule: dict[str, Any], expected: str
) -> None:
    assert [str(p) for p in check_ruleset_dict(_base(**rule))] == [expected]


def test_each_other_player_decides_in_turn_order_and_a_refused_move_changes_nothing() -> None:
    g = _strip_game(_spec(TOLL, STRETCH))
    g.play(Move((1, 0), 0, None))  # Red places a road: Blue, then Green, may pay the toll
    assert (g.to_move, g.decider) == (0, 1)
    assert g.legal_moves().list() == [Pass(), RuleAction("toll", 0, 0)]
    before = g.state_summary()
    for wrong in (RuleAction("stretch", -1, 0), RuleAction("toll", 1, 0)):
        with pytest.raises(IllegalMoveError):
            g.play(wrong)  # Red's own offer waits; Green's offer is not Blue's to take
        assert g.state_summary() == before
    g.play(RuleAction("toll", 0, 0))  # Blue takes it: Blue's salt, Blue's points to Red
    lang = g.rule_state["lang"].lang
    assert lang.res["salt"] == (0, 1, 0) and g.scores == [2, -2, 0]
    assert g.decider == 2 and g.legal_moves().list() == [Pass(), RuleAction("toll", 0, 0)]
    g.play(Pass())  # Green declines: back to Red, whose phase rule is offered now
    assert g.decider == 0 and lang.res["salt"] == (0, 1, 0)
    assert g.legal_moves().list() == [Pass(), RuleAction("stretch", -1, 0)]
    g.play(Pass())
    assert (g.to_move, g.decider, g.turn) == (1, 1, 1)
    again = replay(loads_record(dumps_record(record_of(g))))
    assert again.state_summary() == g.state_summary()


def test_a_compulsory_choice_by_another_player_cannot_be_passed() -> None:
    toll = {
        **TOLL,
        "when": "meeple_placed",
        "choice": "compulsory",
        "chooser": "left",
        "then": [{"kind": "place_meeple", "feature": "field"}],
    }
    g = _strip_game(_spec(toll), players=2)
    g.play(Move((1, 0), 0, "E"))  # Red's thief on the road: a field on each side is free
    assert (g.to_move, g.decider) == (0, 1)
    moves = g.legal_moves().list()
    assert Pass() not in moves and len(moves) == 2  # which field: Blue must choose
    with pytest.raises(IllegalMoveError, match="a rule action must be taken first"):
        g.play(Pass())
    g.play(moves[1])
    assert [m.player for m in g.meeples.values()] == [0, 1]
    assert g.to_move == 1  # nothing else pending: Red's turn ended


def test_a_compulsory_choice_with_one_way_is_made_at_once() -> None:
    toll = {**TOLL, "choice": "compulsory", "chooser": "right"}
    g = _strip_game(_spec(toll))
    g.play(Move((1, 0), 0, None))  # Green (on Red's right) pays at once: nothing to choose
    assert g.scores == [2, 0, -2] and g.to_move == 1


def test_the_owners_of_the_features_a_tile_joins_decide() -> None:
    owners = {**TOLL, "chooser": "owners", "choice": "optional"}
    g = _strip_game(_spec(owners))
    g.play(Move((1, 0), 0, "NL"))  # Red's farmer: Red is the player to move, no owner decides
    assert g.to_move == 1
    g.play(Move((2, 0), 0, None))  # Blue extends Red's field: Red decides, Green does not
    assert (g.to_move, g.decider) == (1, 0)
    g.play(RuleAction("toll", 0, 0))
    assert g.scores == [-2, 2, 0] and g.to_move == 2


def test_skip_and_extra_turns_move_the_turn_order_and_are_counted_per_rule() -> None:
    nap = {
        "id": "nap",
        "title": "Siesta",
        "when": "tile_placed",
        "then": [{"kind": "points", "amount": 3}, {"kind": "skip_turn"}],
        "chooser": "left",
        "choice": "optional",
        "limits": [{"per": "game"}],
    }
    rush = {
        "id": "rush",
        "title": "Rush",
        "when": "tile_placed",
        "if": [{"kind": "round", "at_least": 1}],
        "then": [{"kind": "extra_turn"}],
        "limits": [{"per": "game"}],
    }
    g = _strip_game(_spec(nap, rush), tiles="UUUUUUUU")
    watch = RuleWatch(g)
    movers = [g.to_move]
    while not g.is_over():
        action = RuleAction("nap", 0, 0) if g.decider != g.to_move else g.legal_moves()[0]
        watch.before(g, action)
        g.play(action)
        watch.after(g)
        if g.decider == g.to_move and g.phase.value == "place":
            movers.append(g.to_move)
    # Red places, Blue takes the siesta and misses turn 2; round 1: Red's rush, twice Red
    assert movers[:6] == [0, 2, 0, 0, 1, 2]
    facts = watch.facts()
    assert (facts["nap"]["turns_skipped"], facts["nap"]["fired"]) == (1, 1)
    assert (facts["rush"]["extra_turns"], facts["rush"]["extra_turns_played"]) == (1, 1)
    assert facts["rush"]["turns_skipped"] == 0 and facts["nap"]["extra_turns"] == 0


def test_bots_decide_for_the_deciding_player_in_whole_games() -> None:
    # a gift to the chooser costs the player to move the lead: a bot judging for the player to
    # move would decline it, a bot judging for the deciding player takes it
    gift = {**TOLL, "id": "gift", "then": [{"kind": "points", "amount": 2}]}
    scored = {
        "id": "bonus",
        "when": "feature_scored",
        "if": [{"kind": "feature_is", "feature": "city"}],
        "cost": [{"kind": "points", "amount": 1}],
        "then": [{"kind": "gain", "resource": "salt", "amount": 2}],
        "choice": "optional",
        "chooser": "left",
    }
    m = load_map(bundled_map("example-small"))
    spec = _spec(gift, scored, STRETCH)
    m.rule_set = EmbeddedRuleSet(spec)
    for kind, opts in (("greedy", {}), ("mcts", {"iterations": 6}), ("random", {})):
        g = Game(m, players=3, seed=5, options=GameOptions(tile_count=24))  # whole games
        bots = [make_bot(kind, seed=i, **opts) for i in range(3)]
        offered = taken = 0
        while not g.is_over():
            action = bots[g.decider].choose(g)
            if g.decider != g.to_move and RuleAction("gift", 0, 0) in g.legal_moves():
                offered += 1
                taken += action == RuleAction("gift", 0, 0)
            g.play(action)  # play() refuses anything not offered to the deciding player
        assert offered > 0, kind
        if kind == "greedy":
            assert taken == offered
        elif kind == "mcts":
            assert taken > offered // 2


def test_an_extra_turn_played_is_counted_for_the_rule_that_granted_it() -> None:
    # Red buys a 2019 double turn after scoring, then the rule grants one at the end of the
    # same turn: the double turn is played first, and the last tile runs out before the
    # rule's own turn comes
    double = {
        "id": "double_turn",
        "title": "Double turn",
        "action": "buy_extra_turn",
        "when": "after",
        "pay": {"kind": "none"},
        "reward": {"kind": "extra_turn", "park_meeple": False, "in_extra_turns": False},
        "limit": "round",
    }
    rush = {
        "id": "rush",
        "when": "end_of_turn",
        "then": [{"kind": "extra_turn"}],
        "limits": [{"per": "game"}],
    }
    spec = _spec(rush)
    d = spec.to_dict()
    d["mechanics"] = [double]
    assert check_ruleset_dict(d) == []
    g = _strip_game(RuleSetSpec.from_dict(d), tiles="UU")
    watch = RuleWatch(g)
    buy = BuyExtraTurn()
    for action in (Move((1, 0), 0, None), buy, Move((2, 0), 0, None)):
        if action == buy:
            assert g.phase is Phase.AFTER and buy in g.legal_moves()
        watch.before(g, action)
        g.play(action)
        watch.after(g)
        if action == buy:  # the double turn is played first, the rule's waits behind it
            assert (g.to_move, g.turn) == (0, 1)
            assert RuleContext.of(g).extra_turn_by == "lang.mechanics.double_turn"
    assert g.is_over()
    facts = watch.facts()["rush"]
    assert (facts["extra_turns"], facts["extra_turns_played"]) == (1, 0)
