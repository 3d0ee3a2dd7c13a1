"""The rule language: its schema, the checker's refusals, and what each kind does in play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rulegen import run

from engine.errors import IllegalMoveError
from engine.game import Game, GameOptions
from engine.mapdef import EmbeddedRuleSet, MapDef, MarkSquare, StartSquare
from engine.moves import Move, Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import schema_path
from engine.rules.chips_common import invariant_violations
from engine.rules.data import RuleSetSpec, check_ruleset_dict, preset_dict
from engine.rules.data.interpret import RuleAction
from engine.rules.data.lang_check import schema_defs, schema_properties
from engine.rules.data.ruleset import PRESET_MAPS


def test_the_schema_file_holds_the_vocabulary_tables() -> None:
    schema = json.loads(schema_path("ruleset").read_text(encoding="utf-8"))
    for name, fragment in schema_defs().items():
        assert schema["$defs"][name] == fragment, name
    for name, fragment in schema_properties().items():
        assert schema["properties"][name] == fragment, name


def _base(**extra: Any) -> dict[str, Any]:
    d = preset_dict("deutschland")
    d.update(name="lang", mechanics=[], **extra)
    d["layout"] = {"kind": "none", "count": None, "exclude": []}
    return d


def _rule(**fields: Any) -> dict[str, Any]:
    return {"id": "r", "when": "tile_placed", "then": [{"kind": "points", "amount": 1}], **fields}


def test_the_language_reference_names_every_kind_of_the_vocabulary() -> None:
    """docs/rule-language.md documents each trigger, condition, quantity, effect, cost, chooser
    and limit: a kind added to the tables without a word in the reference fails here."""
    from pathlib import Path

    from engine.rules.data import lang

    doc = (Path(__file__).resolve().parents[3] / "docs" / "rule-language.md").read_text(
        encoding="utf-8"
    )
    tables = {
        "TRIGGERS": lang.TRIGGERS,
        "CONDITIONS": lang.CONDITIONS,
        "QUANTITIES": lang.QUANTITIES,
        "EFFECTS": lang.EFFECTS,
        "COSTS": lang.COSTS,
        "CHOOSERS": lang.CHOOSERS,
        "LIMIT_PER": lang.LIMIT_PER,
    }
    missing = [
        f"{name}: {kind}"
        for name, table in tables.items()
        for kind in table
        if f"`{kind}`" not in doc and f'"{kind}"' not in doc
    ]
    assert missing == []


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (
            _rule(when="end_of_turn", if_=[{"kind": "feature_is", "feature": "road"}]),
            "rules[0].if[0]: 'feature_is' needs a feature; trigger 'end_of_turn' gives none",
        ),
        (
            _rule(when="end_of_game", choice="optional"),
            "rules[0].choice: no phase follows 'end_of_game' to offer the rule in: make it "
            "compulsory",
        ),
        (
            _rule(when="action_phase", limits=[{"per": "turn"}]),
            "rules[0].choice: 'action_phase' is a phase, not an event: its rules are optional "
            "offers",
        ),
        (
            _rule(when="after_phase", choice="optional"),
            "rules[0].limits: a rule offered in every after phase needs a limit (per turn, round, "
            "player or game): without one it could be taken again and again",
        ),
        (
            _rule(then=[{"kind": "gain", "resource": "salz", "amount": 1}]),
            "rules[0].then[0].resource: no resource has the id 'salz'",
        ),
        (
            _rule(then=[{"kind": "take_chips", "from": "supply"}]),
            "rules[0].then[0].from: layout 'none' makes no supply beside the map (chips not "
            "laid out leave the game): use layout 'supply' or 'marks'",
        ),
        (
            _rule(when="end_of_round", then=[{"kind": "extra_turn"}]),
            "rules[0].then: an extra turn at 'end_of_round' has no turn to follow",
        ),
        (
            _rule(if_=[{"kind": "on", "print": "tile"}]),
            "rules[0].if[0].print: a square holds the placed tile: use next_to",
        ),
        (
            _rule(if_=[{"kind": "feature_is", "feature": "road", "mark": "x"}]),
            "rules[0].if[0].mark: not a field of kind 'feature_is'",
        ),
        (
            _rule(then=[{"kind": "points", "amount": 51}]),
            "rules[0].then[0].amount: 51 is greater than the maximum of 50",
        ),
    ],
)
def test_the_checker_refuses_with_one_line_naming_the_path(
    rule: dict[str, Any], expected: str
) -> None:
    if "if_" in rule:
        rule["if"] = rule.pop("if_")
    d = _base(resources=[{"id": "salt", "name": "Salt"}], rules=[rule])
    assert [str(p) for p in check_ruleset_dict(d)] == [expected]


def test_nesting_is_bounded_by_the_schema() -> None:
    deep = {
        "kind": "not",
        "of": {"kind": "not", "of": {"kind": "not", "of": {"kind": "is_current"}}},
    }
    d = _base(rules=[_rule(**{"if": [deep]})])
    (problem,) = check_ruleset_dict(d)
    assert problem.path == "rules[0].if[0].of.of.kind"


def test_a_mark_without_a_tile_must_close() -> None:
    d = _base(marks=[{"id": "hole", "name": "Hole", "takes_tile": False, "closes": False}])
    (problem,) = check_ruleset_dict(d)
    assert problem.path == "marks[0].closes"


# -- play on a strip of four squares --------------------------------------------------------------


def _strip(spec: RuleSetSpec, marks: dict[tuple[int, int], str] | None = None) -> MapDef:
    m = MapDef(id="strip", name="Strip", width=4, height=1, land={(x, 0) for x in range(4)})
    m.start_squares[(0, 0)] = StartSquare("Start")
    for sq, mark in (marks or {}).items():
        m.marks[sq] = MarkSquare(mark)
    m.rule_set = EmbeddedRuleSet(spec)
    return m


def _game(
    spec: RuleSetSpec, marks: dict[tuple[int, int], str] | None = None, tiles: str = "UUU"
) -> Game:
    opts = GameOptions(start_tile="U", draw_order=tuple(tiles))
    return Game(_strip(spec, marks), players=2, seed=3, options=opts)


def test_ukraine_a_road_facing_a_chumak_square_takes_two_face_down_chips() -> None:
    spec = RuleSetSpec.from_dict(preset_dict("ukraine"))
    g = _game(spec, {(2, 0): "chumak"})
    assert "(2, 0) is a wave square" in (g.why_illegal(Move((2, 0), 0, None)) or "")
    g.play(Move((1, 0), 0, None))  # U: road east, facing the Chumak square
    state = g.rule_state["ukraine"]
    assert len(state.held[0]) == 2
    assert state.lang.face_down == frozenset(state.held[0])
    assert len(state.lang.supply) == 28
    assert invariant_violations(g) == []


def test_an_optional_phase_rule_is_offered_when_it_can_be_paid() -> None:
    d = _base(
        resources=[{"id": "salt", "name": "Salt", "icon": "salt", "start": 1, "supply": 3}],
        rules=[
            {
                "id": "pan",
                "when": "tile_placed",
                "if": [{"kind": "on", "print": "sea"}],
                "then": [{"kind": "gain", "resource": "salt", "amount": 1}],
            },
            {
                "id": "sell",
                "when": "action_phase",
                "cost": [{"kind": "resource", "resource": "salt", "amount": 2}],
                "then": [{"kind": "points", "amount": 3}],
                "choice": "optional",
                "limits": [{"per": "game", "times": 1}],
            },
        ],
    )
    g = _game(RuleSetSpec.from_dict(d))
    g.play(Move((1, 0), 0, None))  # every strip square faces the sea: salt 1 -> 2
    lang = g.rule_state["lang"].lang
    assert lang.res["salt"] == (2, 1)
    assert lang.res_supply["salt"] == 2
    assert RuleAction("sell", -1, 0) in g.legal_moves()
    before = g.state_summary()
    with pytest.raises(IllegalMoveError):
        g.play(RuleAction("sell", -1, 1))  # no second way
    assert g.state_summary() == before
    g.play(RuleAction("sell", -1, 0))
    assert g.scores[0] == 3 and lang.res["salt"] == (0, 1)
    assert g.to_move == 1  # nothing more to offer: the turn went on
    again = replay(loads_record(dumps_record(record_of(g))))  # through the record's JSON
    assert again.state_summary() == g.state_summary()


def test_end_of_game_tables_by_majority() -> None:
    d = _base(
        resources=[{"id": "salt", "name": "Salt", "start": 0}],
        rules=[
            {
                "id": "pan",
                "when": "tile_placed",
                "if": [{"kind": "is_current"}, {"kind": "round", "at_least": 1}],
                "then": [{"kind": "gain", "resource": "salt", "amount": 1}],
            },
            {
                "id": "most",
                "when": "end_of_game",
                "then": [{"kind": "table", "by": "majority", "of": "salt", "points": [5, 2]}],
            },
        ],
    )
    g = _game(RuleSetSpec.from_dict(d))
    for x in (1, 2, 3):
        while not isinstance(g.legal_moves()[0], Move):
            g.play(Pass())
        g.play(Move((x, 0), 0, None))
    assert g.is_over()
    # player 1 (second) placed at (2, 0) in round 0: nothing; player 0 placed (3, 0) in round 1
    assert g.rule_state["lang"].lang.res["salt"] == (1, 0)
    assert g.breakdown[0].get("most", 0) == 5 and g.breakdown[1].get("most", 0) == 0


def test_random_rule_sets_play_in_bot_games_without_defects() -> None:
    # bounded here; a long run: python tests/fuzz/rulegen.py 300 (docs/rule-language.md)
    figures = run(6, turns=16)
    assert figures.accepted >= 3
    assert figures.defects == []


def test_marks_round_trip_through_the_map_file(tmp_path: Any) -> None:
    from engine.mapdef import Colour
    from engine.mapio import load_map, map_to_dict, save_map

    spec = RuleSetSpec.from_dict(preset_dict("nordics"))
    m = _strip(spec, {(2, 0): "highlight"})
    m.marks[(3, 0)] = MarkSquare("chip_city", Colour.ORANGE, 2)
    save_map(m, tmp_path / "strip.json")
    again = load_map(tmp_path / "strip.json")
    assert again.marks == m.marks
    assert again.rule_set.spec == spec
    m.marks.clear()
    assert "marks" not in map_to_dict(m)  # maps without marks are written as before


def test_the_validator_checks_the_marks() -> None:
    from engine.validation import validate_map

    spec = RuleSetSpec.from_dict(preset_dict("ukraine"))
    m = _strip(spec, {(0, 0): "chumak", (2, 0): "salt_lake"})
    found = {(i.code, str(i)) for i in validate_map(m) if "mark" in i.code}
    assert {code for code, _text in found} == {"ruleset-unknown-mark", "ruleset-mark-on-start"}
    m = _strip(spec)
    codes = [i.code for i in validate_map(m) if "mark" in i.code]
    assert codes == ["ruleset-missing-mark"]  # the Chumak rule reads a mark no square carries


@pytest.mark.parametrize("name", ["taiwan", "ukraine", "nordics"])
def test_the_later_presets_ship_a_valid_map_that_embeds_them(name: str) -> None:
    from engine.mapio import load_map
    from engine.resources import bundled_map
    from engine.validation import validate_map

    m = load_map(bundled_map(PRESET_MAPS[name]))
    assert m.rule_set.spec is not None
    assert m.rule_set.spec.to_dict() == RuleSetSpec.from_dict(preset_dict(name)).to_dict()
    assert [i for i in validate_map(m) if i.severity == "error"] == []


def test_a_bots_copy_does_not_know_the_hidden_chips() -> None:
    # Ukraine: in a bot's copy the supply's order and the face-down chips of the players not to
    # move are re-dealt among their places; every chip stays somewhere
    spec = RuleSetSpec.from_dict(preset_dict("ukraine"))
    g = _game(spec, {(2, 0): "chumak"})
    g.play(Move((1, 0), 0, None))  # player 0 takes two chips face down; player 1 is to move
    held = list(g.rule_state["ukraine"].held[0])
    supplies, hands = set(), set()
    for seed in range(8):
        copy = g.copy(shuffle=random.Random(seed))
        st = copy.rule_state["ukraine"]
        assert invariant_violations(copy) == []
        assert len(st.held[0]) == 2 and st.lang.face_down == frozenset(st.held[0])
        supplies.add(tuple(st.lang.supply))
        hands.add(tuple(st.held[0]))
    assert len(supplies) > 1 and len(hands) > 1
    assert g.rule_state["ukraine"].held[0] == held  # the game itself is untouched


def test_place_meeple_puts_one_from_the_supply_on_a_free_feature_of_the_tile() -> None:
    offer = {
        "id": "settle",
        "when": "tile_placed",
        "if": [{"kind": "tile_shows", "feature": "road"}],
        "then": [{"kind": "place_meeple", "feature": "road"}],
        "choice": "optional",
        "limits": [{"per": "player", "times": 1}],
    }
    bad = {**offer, "choice": "compulsory"}
    (problem,) = check_ruleset_dict(_base(rules=[bad]))
    assert problem.path == "rules[0].then" and "'meeple_placed'" in problem.message
    g = _game(RuleSetSpec.from_dict(_base(rules=[offer])))
    supply = g.supply[0]
    g.play(Move((1, 0), 0, None))  # U: a road west-east joining the start tile's road
    assert RuleAction("settle", 0, 0) in g.legal_moves()
    g.play(RuleAction("settle", 0, 0))
    assert g.supply[0] == supply - 1
    (meeple,) = g.meeples.values()
    assert (meeple[0], meeple[1]) == (0, (1, 0))
    assert invariant_violations(g) == []
    # the road is taken now: the second player's offer is not made on it
    g.play(Move((2, 0), 0, None))
    assert not any(isinstance(a, RuleAction) for a in g.legal_moves())


def test_the_playtest_view_hides_the_values_of_others_face_down_chips() -> None:
    from engine.rules.context import RuleContext

    spec = RuleSetSpec.from_dict(preset_dict("ukraine"))
    g = _game(spec, {(2, 0): "chumak"})
    g.play(Move((1, 0), 0, None))  # player 0 holds two chips face down; player 1 to move
    view = g.rules[0].view(RuleContext.of(g))
    assert [v for _c, v in view.held[0]] == [0, 0]
