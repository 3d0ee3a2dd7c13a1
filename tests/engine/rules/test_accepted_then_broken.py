"""What the checker accepts, the program runs (issues #29 "Accepted, then broken" and #26 "Also
fix"): each rule set here was accepted and then broke a game, a save or a record; now it is
refused with its reason, or it plays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _chips_helpers import finish, make_map, place

from engine.__main__ import main
from engine.bots import make_bot
from engine.errors import IllegalMoveError, MapFormatError, RecordError
from engine.game import Game, GameOptions, Phase
from engine.mapdef import EmbeddedRuleSet
from engine.mapio import loads_map
from engine.record import loads_record
from engine.resources import bundled_map
from engine.rules.chips_common import invariant_violations
from engine.rules.data import (
    MECHANIC_KINDS,
    RuleSetError,
    RuleSetSpec,
    check_ruleset_dict,
    load_ruleset,
    preset_dict,
)
from engine.rules.data.ruleset import RESERVED_NAMES


def _dict(mechanics: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "format": "carcassonne-maps-ruleset",
        "version": 1,
        "name": "probe",
        "supply": {
            "colours": ["orange", "purple"],
            "per_colour": 8,
            "values": {"1": 4, "2": 2, "3": 2},
        },
        "collect": {"kind": "keep", "points_factor": 0},
        "mechanics": mechanics,
        **extra,
    }


def _game(spec: RuleSetSpec, chips: list[list[Any]], **opts: Any) -> Game:
    """Two rows of six squares, start (0, 0), tile B drawn every turn, exactly ``chips``."""
    m = make_map(["######", "######"])
    m.rule_set = EmbeddedRuleSet(spec)
    options = GameOptions(
        start_squares=((0, 0),),
        start_tile="B",
        draw_order=("B",) * 10,
        rule_options={"chips": chips},
        **opts,
    )
    return Game(m, players=2, seed=0, options=options)


def _offered(g: Game, type_name: str) -> list[Any]:
    return [a for a in g.legal_moves() if a.type == type_name]


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# -- nesting and text -----------------------------------------------------------------------------


def test_deep_nesting_is_one_precise_error_for_maps_records_and_rule_sets(tmp_path: Path) -> None:
    data = json.loads(bundled_map("example-small").read_text(encoding="utf-8"))
    data["editor"] = {"notes": _deep(600)}  # 4 kB: it loaded, then could not be saved
    with pytest.raises(MapFormatError, match=r"\$\.editor\.notes\[0\].*nested more than 64"):
        loads_map(json.dumps(data))
    record = {"format": "carcassonne-game-record", "junk": _deep(200)}
    with pytest.raises(RecordError, match="nested more than 64 levels deep"):
        loads_record(json.dumps(record))
    rule_set = _dict([], description=_deep(600))
    path = tmp_path / "deep.ruleset.json"
    path.write_text(json.dumps(rule_set), encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"deep\.ruleset\.json: .*nested more than 64"):
        load_ruleset(path)
    (problem,) = check_ruleset_dict(rule_set)  # a dict built in memory (the editor's dock)
    assert problem.path.startswith("description[0][0]") and "64 levels" in problem.message
    nested_map = json.loads(bundled_map("example-small").read_text(encoding="utf-8"))
    nested_map["rule_set"] = _dict([], unknown=_deep(100))
    with pytest.raises(MapFormatError, match="nested more than 64"):
        loads_map(json.dumps(nested_map))


def test_a_lone_surrogate_in_a_rule_set_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _dict([], title="Wines \ud800")
    (problem,) = check_ruleset_dict(data)
    assert problem.path == "title" and "lone surrogate" in problem.message
    path = tmp_path / "s.ruleset.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # ASCII escapes: "\ud800"
    assert main(["ruleset", "check", str(path)]) == 2
    assert "title: the text holds a character UTF-8 cannot store" in capsys.readouterr().out


# -- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RESERVED_NAMES))
def test_names_that_collide_are_reserved(name: str) -> None:
    (problem,) = check_ruleset_dict(_dict([], name=name))
    assert problem.path == "name" and problem.message.startswith(f"{name!r} is reserved")


def test_every_rule_module_beside_a_rule_set_has_its_name_reserved() -> None:
    # a module a game plays beside the rule set keeps its state under its own name
    spec = RuleSetSpec.from_dict(_dict([]))
    g = _game(spec, [], town_extra_tile=True, town_cost=True, town_road_bonus=True)
    beside = [r.name for r in g.rules if r.name != spec.name]
    assert beside and all(name in RESERVED_NAMES for name in beside), beside


# -- defaults --------------------------------------------------------------------------------------


def test_a_field_mechanic_kinds_defaults_may_be_left_out() -> None:
    # a form built on MECHANIC_KINDS leaves out what is at its default
    mechanics = [
        {
            "id": "a",
            "action": "a",
            "when": "after",
            "pay": {"kind": "exact_value_one_colour"},
            "reward": {"kind": "points"},
        },
        {
            "id": "b",
            "action": "b",
            "when": "action",
            "pay": {"kind": "exact_total_any"},
            "reward": {"kind": "upgrade_meeple"},
        },
        {
            "id": "c",
            "action": "c",
            "when": "after",
            "pay": {"kind": "set"},
            "reward": {"kind": "points"},
        },
    ]
    data = _dict(
        mechanics,
        supply={
            "colours": ["purple", "orange", "light_blue"],
            "per_colour": 10,
            "values": {"1": 5, "2": 5},
        },
    )
    assert check_ruleset_dict(data) == []
    spec = RuleSetSpec.from_dict(data)
    a, b, c = spec.mechanics
    pays = MECHANIC_KINDS["pay"]
    assert a.pay.value == pays["exact_value_one_colour"]["params"]["value"]["default"] == 2
    assert b.pay.value == pays["exact_total_any"]["params"]["value"]["default"] == 4
    assert (c.pay.size, c.pay.same) == (3, "either")
    assert a.reward.where == ("anywhere",) and a.reward.points == (("anywhere", 3),)
    assert (
        b.reward.strength
        == MECHANIC_KINDS["reward"]["upgrade_meeple"]["params"]["strength"]["default"]
    )
    assert RuleSetSpec.from_dict(spec.to_dict()) == spec


# -- combinations ----------------------------------------------------------------------------------


def _set_mechanic(reward: dict[str, Any], hand_in: str = "choice") -> dict[str, Any]:
    return {
        "id": "s",
        "action": "hand_in",
        "when": "after",
        "pay": {"kind": "set", "size": 2, "same": "number", "hand_in": hand_in},
        "reward": reward,
    }


@pytest.mark.parametrize(
    ("reward", "hand_in", "where", "why"),
    [
        ({"kind": "upgrade_meeple"}, "choice", "reward.kind", "without naming a meeple"),
        ({"kind": "upgrade_meeple"}, "on_complete", "reward.kind", "without naming a meeple"),
        ({"kind": "treat"}, "choice", "reward.kind", "a treat is the first chip paid"),
        ({"kind": "extra_turn", "park_meeple": False}, "on_complete", "pay.hand_in", "by choice"),
    ],
)
def test_a_set_cannot_buy_what_needs_chips_paid_or_a_choice(
    reward: dict[str, Any], hand_in: str, where: str, why: str
) -> None:
    problems = check_ruleset_dict(_dict([_set_mechanic(reward, hand_in)]))
    assert [p.path for p in problems] == [f"mechanics[0].{where}"]
    assert why in problems[0].message


def test_a_set_handed_in_by_choice_is_written_back_in_a_form_the_checker_accepts() -> None:
    data = _dict(
        [_set_mechanic({"kind": "points", "where": ["anywhere"], "points": {"anywhere": 4}})]
    )
    spec = RuleSetSpec.from_dict(data)
    written = spec.to_dict()
    assert check_ruleset_dict(written) == []
    assert "choose" not in written["mechanics"][0]["pay"]
    assert RuleSetSpec.from_dict(written) == spec


# -- games -----------------------------------------------------------------------------------------


def test_a_free_upgrade_puts_no_chip_under_the_meeple() -> None:
    spec = RuleSetSpec.from_dict(
        _dict(
            [
                {
                    "id": "up",
                    "action": "lift",
                    "when": "action",
                    "pay": {"kind": "none"},
                    "reward": {"kind": "upgrade_meeple", "strength": 2},
                }
            ]
        )
    )
    g = _game(spec, [[3, 1, "orange", 1]])
    place(g, (1, 0), meeple="C")
    (lift,) = _offered(g, "lift")
    g.play(lift)
    state = g.rule_state["probe"]
    (mid,) = g.meeples
    assert state.under == {} and state.strength == {mid: 2}
    assert g.meeples[mid].strength == 2
    assert sum(state.counts()) == 16 and invariant_violations(g) == []
    finish(g)
    place(g, (0, 1))
    finish(g)
    place(g, (2, 0), meeple="C")
    assert _offered(g, "lift") != []  # the new monk; the upgraded one is not offered again
    assert all(a.square != (1, 0) for a in _offered(g, "lift"))


def _free_extra_turn(when: str, **extra: Any) -> RuleSetSpec:
    """A rule set whose one mechanic is a free extra turn without a limit, in extra turns too."""
    more = {
        "id": "more",
        "action": "more",
        "when": when,
        "pay": {"kind": "none"},
        "reward": {"kind": "extra_turn", "park_meeple": False, "in_extra_turns": True},
        "limit": "none",
    }
    return RuleSetSpec.from_dict(_dict([more], **extra))


def test_a_free_extra_turn_without_a_limit_is_taken_once_a_turn() -> None:
    spec = _free_extra_turn("action")
    g = _game(spec, [])
    place(g, (1, 0))
    (more,) = _offered(g, "more")
    g.play(more)
    assert _offered(g, "more") == []  # it was offered again and again in the same phase
    finish(g)
    assert g.to_move == 0  # the extra turn
    place(g, (2, 0))
    assert _offered(g, "more") != []  # in_extra_turns: once in this turn too


def test_greedy_bots_finish_a_game_with_a_free_unlimited_extra_turn() -> None:
    spec = _free_extra_turn("after", supply=preset_dict("france")["supply"])
    m = loads_map(bundled_map("france").read_text(encoding="utf-8"))
    m.rule_set = EmbeddedRuleSet(spec)
    g = Game(m, players=2, seed=3, options=GameOptions(tile_count=30))
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    for _ in range(2000):
        if g.is_over():
            break
        g.play(bots[g.to_move].choose(g))
    assert g.is_over()


def test_a_set_paid_extra_turn_that_parks_a_meeple_needs_one_in_the_supply() -> None:
    spec = RuleSetSpec.from_dict(
        _dict([_set_mechanic({"kind": "extra_turn", "park_meeple": True})])
    )
    chips = [[1, 0, "orange", 2], [2, 0, "purple", 2]]
    hand_in = None
    for meeples, offered in ((3, True), (0, False)):
        g = _game(spec, chips, meeples=meeples)
        place(g, (1, 0))
        finish(g)
        place(g, (0, 1))
        finish(g)
        place(g, (2, 0))  # Red holds a pair of twos
        assert (g.phase is Phase.AFTER) is offered
        sets = _offered(g, "hand_in")
        assert bool(sets) is offered
        if offered:
            hand_in = sets[0]
            g.play(hand_in)
            assert g.rule_state["probe"].isle[0] == 1 and g.supply[0] == meeples - 1
            finish(g)
            assert g.to_move == 0
        else:  # the same set handed in without a meeple to park: refused, nothing changed
            before = g.state_summary()
            with pytest.raises(IllegalMoveError):
                g.play(hand_in)
            assert g.state_summary() == before


def test_a_limit_on_sets_handed_in_on_completion_is_kept() -> None:
    mech = _set_mechanic(
        {"kind": "points", "where": ["anywhere"], "points": {"anywhere": 5}}, "on_complete"
    )
    mech["limit"] = "round"
    rest = {
        "id": "rest",
        "action": "rest",
        "when": "after",
        "pay": {"kind": "none"},
        "reward": {"kind": "extra_turn", "park_meeple": False},
        "limit": "round",
    }
    spec = RuleSetSpec.from_dict(_dict([mech, rest]))
    chips = [[1, 0, "orange", 1], [1, 1, "orange", 2], [2, 0, "purple", 1], [3, 0, "purple", 2]]
    g = _game(spec, chips)
    state = g.rule_state["probe"]
    for sq in ((1, 0), (0, 1), (1, 1), (2, 1)):
        place(g, sq)
        finish(g)
    place(g, (2, 0))  # Red: purple 1 completes a pair of ones, handed in at once
    assert state.taken["s"] == (1, 0) and g.scores[0] == 5
    (extra,) = _offered(g, "rest")
    g.play(extra)
    finish(g)
    assert g.to_move == 0
    place(g, (3, 0))  # Red, same round: purple 2 completes a pair of twos, kept (limit)
    finish(g)
    assert state.taken["s"] == (1, 0) and g.scores[0] == 5
    assert sorted(state.chips[c].value for c in state.held[0]) == [2, 2]


def test_presets_still_pass_the_checker() -> None:
    for name in ("france", "benelux", "great_britain", "iberica", "deutschland"):
        assert check_ruleset_dict(preset_dict(name)) == []
