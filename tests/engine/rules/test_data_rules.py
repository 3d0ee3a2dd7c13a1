"""Data rule sets beyond the presets: mechanics composed from other parts, maps that embed or
name a rule set, the validator's print checks and the command line (engine/rules/data/)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from _chips_helpers import finish, make_map, place
from _hint_checks import hint_violations, traced_games

from engine.cli import main
from engine.errors import EngineError
from engine.game import Game, GameOptions, Phase
from engine.mapdef import Colour, EmbeddedRuleSet, MapDef, Town
from engine.mapio import load_map, read_map, save_map
from engine.moves import Pass
from engine.resources import bundled_map
from engine.rules.chips_common import invariant_violations
from engine.rules.data import DataRules, RuleSetSpec, load_ruleset, preset_dict
from engine.rules.registry import map_rules
from engine.validation import Severity, validate_map

HERE = Path(__file__).parent
MIXED = HERE / "data" / "mixed.ruleset.json"


def _with(m: MapDef, spec: RuleSetSpec) -> MapDef:
    m.rule_set = EmbeddedRuleSet(spec)
    return m


def _mixed_game(chips: list[list[Any]], tiles: list[str], **opts: Any) -> Game:
    """Row 0: start (0,0), a purple town at (3,0); the mixed rule set with ``chips``."""
    m = _with(
        make_map(["######", "######"], towns={(3, 0): Town("Roma", Colour.PURPLE)}),
        load_ruleset(MIXED),
    )
    options = GameOptions(
        start_squares=((0, 0),),
        start_tile="B",
        draw_order=tuple(tiles),
        rule_options={"chips": chips},
        **opts,
    )
    return Game(m, players=2, seed=0, options=options)


def check_invariants_any(g: Game) -> None:
    """Chips and meeples conserved, whatever the supply's size."""
    assert invariant_violations(g) == []


def _offered(g: Game, type_name: str) -> list[Any]:
    return [a for a in g.legal_moves() if a.type == type_name]


def test_a_set_of_two_same_numbers_is_handed_in_for_points_once_per_round() -> None:
    g = _mixed_game([[1, 0, "orange", 3], [2, 0, "purple", 3], [1, 1, "orange", 1]], ["B"] * 8)
    place(g, (1, 0))  # Red: orange 3, scored x2 on pickup
    assert g.scores[0] == 6 and _offered(g, "trade_pair") == []
    finish(g)
    place(g, (0, 1))  # Blue
    finish(g)
    place(g, (2, 0))  # Red: purple 3 completes a pair of threes
    assert g.phase is Phase.AFTER
    (trade,) = _offered(g, "trade_pair")
    assert trade.to_dict() == {"type": "trade_pair", "chips": [["orange", 3], ["purple", 3]]}
    before = g.scores[0]
    g.play(trade)
    assert g.scores[0] == before + 4 and g.events[-1].kind == "trade"
    assert g.rule_state["mixed"].held[0] == [] and _offered(g, "trade_pair") == []
    check_invariants_any(g)


def test_a_payment_of_any_colours_sells_at_a_town_of_any_colour_and_held_chips_score_at_the_end() -> (
    None
):
    chips = [[1, 0, "orange", 1], [2, 0, "purple", 2], [1, 1, "orange", 3]]
    g = _mixed_game(chips, ["B"] * 6)
    place(g, (1, 0))  # Red: orange 1
    finish(g)
    place(g, (0, 1))
    finish(g)
    place(g, (2, 0))  # Red: purple 2 -> 1 + 2 = 3, any colours
    markets = {a.market for a in _offered(g, "sell_oil")}
    assert markets == {"anywhere"}
    finish(g)
    place(g, (1, 1))  # Blue takes the orange 3
    finish(g)
    place(g, (3, 0))  # Red covers Roma: a town, whatever the colour paid
    assert {a.market for a in _offered(g, "sell_oil")} == {"anywhere", "town"}
    sale = next(a for a in _offered(g, "sell_oil") if a.market == "town")
    assert sale.to_dict() == {"type": "sell_oil", "market": "town", "pay": [1, 2]}
    before = g.scores[0]
    g.play(sale)
    assert g.scores[0] == before + 6 and "Roma" in g.events[-1].text
    while not g.is_over():
        g.play(Pass() if g.phase in (Phase.ACTION, Phase.AFTER) else g.legal_moves().list()[0])
    held = [e for e in g.events if e.kind == "held"]
    assert [(e.players, e.points) for e in held] == [((1,), 3)]  # Blue's orange 3, x1


def test_an_upgrade_of_strength_3_and_an_extra_turn_without_parking() -> None:
    g = _mixed_game([[1, 0, "orange", 2], [2, 0, "purple", 1]], ["B"] * 8)
    place(g, (1, 0), meeple="C")  # Red: the orange 2, a monk on the monastery
    assert g.phase is Phase.ACTION
    (boost,) = _offered(g, "boost_meeple")
    assert boost.to_dict() == {
        "type": "boost_meeple",
        "x": 1,
        "y": 0,
        "location": "C",
        "colour": "orange",
        "pay": [2],
    }
    g.play(boost)
    (meeple,) = g.meeples.values()
    assert (
        meeple.strength == 3 and g.rules[0].meeple_strength(g._rule_ctx, next(iter(g.meeples))) == 3
    )
    finish(g)
    place(g, (0, 1))  # Blue
    finish(g)
    supply = list(g.supply)
    place(g, (2, 0))  # Red: the purple 1
    assert g.phase is Phase.AFTER
    (rest,) = _offered(g, "take_a_rest")
    assert rest.to_dict() == {"type": "take_a_rest", "colour": "purple"}
    g.play(rest)
    finish(g)
    assert g.to_move == 0 and g.supply == supply  # one more turn, no meeple parked
    assert g.rule_state["mixed"].held[0] == []
    place(g, (3, 0))
    assert _offered(g, "take_a_rest") == []  # nothing left to pay, and once per round


def test_random_games_keep_the_chips_and_the_bot_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    m = _with(load_map(bundled_map("france")), load_ruleset(MIXED))
    cls = map_rules(m)
    assert cls is not None and issubclass(cls, DataRules)
    assert cls.bot_hints.meeple_blind and not cls.bot_hints.plain_scoring  # held chips score
    seen: set[str] = set()
    for seed in range(4):
        g = Game(m, players=3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            action = rng.choice(g.legal_moves().list())
            seen.add(action.type)
            g.apply(action)
            check_invariants_any(g)
    assert {"take_a_rest", "boost_meeple", "sell_oil"} <= seen
    trace = traced_games(monkeypatch, lambda s: Game(m, players=2, seed=s), range(2))
    assert hint_violations(cls, trace) == []


# -- maps --------------------------------------------------------------------------------------


def _map_file(tmp_path: Path, rule_set: Any, name: str = "italia.json") -> Path:
    d = json.loads(bundled_map("deutschland").read_text(encoding="utf-8"))
    d["rule_set"] = rule_set
    path = tmp_path / name
    path.write_text(json.dumps(d), encoding="utf-8")
    return path


def _italia() -> dict[str, Any]:
    d = preset_dict("deutschland")
    d["name"] = "italia"
    d["mechanics"][0]["pay"]["value"] = 3
    return d


def test_a_map_embeds_its_rule_set_plays_it_and_saves_it_back(tmp_path: Path) -> None:
    path = _map_file(tmp_path, _italia())
    m = load_map(path)
    assert m.rule_set.name == "italia" and m.rule_set.spec is not None and m.rule_set.file is None
    assert m.rule_set.spec.mechanics[0].pay.value == 3
    g = Game(m, players=2, seed=1)
    assert g.rules[0].name == "italia" and isinstance(g.rules[0], DataRules)
    assert not [i for i in validate_map(m) if i.severity is Severity.ERROR]
    save_map(m, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))["rule_set"]
    assert RuleSetSpec.from_dict(again) == m.rule_set.spec


def test_a_map_names_a_rule_set_file_in_its_folder(tmp_path: Path) -> None:
    (tmp_path / "italia.ruleset.json").write_text(json.dumps(_italia()), encoding="utf-8")
    path = _map_file(tmp_path, {"file": "italia.ruleset.json"})
    m, issues = read_map(path)
    assert issues == [] and m.rule_set.name == "italia" and m.rule_set.file == "italia.ruleset.json"
    save_map(m, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert again["rule_set"] == {"file": "italia.ruleset.json"}
    assert Game(m, players=2, seed=2).rules[0].name == "italia"


def test_a_rule_set_file_outside_the_maps_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "italia.ruleset.json").write_text(json.dumps(_italia()), encoding="utf-8")
    (tmp_path / "maps").mkdir()
    path = _map_file(tmp_path / "maps", {"file": "../italia.ruleset.json"})
    m = load_map(path)
    (issue,) = [i for i in validate_map(m) if i.code == "ruleset-invalid"]
    assert "leads outside the folder" in issue.message and "\n" not in issue.message
    with pytest.raises(EngineError, match="the map's rule set cannot be read"):
        Game(m, players=2)


def test_a_bad_embedded_rule_set_is_one_issue_and_saved_as_written(tmp_path: Path) -> None:
    bad = _italia()
    bad["mechanics"][0]["pay"]["value"] = 61
    path = _map_file(tmp_path, bad)
    m = load_map(path)
    (issue,) = [i for i in validate_map(m) if i.code == "ruleset-invalid"]
    assert issue.message.endswith(
        "rule_set.mechanics[0].pay.value: 61 is greater than the maximum of 60"
    )
    save_map(m, tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))["rule_set"] == bad


def test_missing_prints_are_located_issues() -> None:
    d = preset_dict("france")
    d["name"] = "vino"
    d["mechanics"][0]["reward"]["kind"] = "points"
    d["island_coat_points"] = 1
    m = _with(
        make_map(
            ["#####"], towns={(2, 0): Town("Nowhere", None), (3, 0): Town("Asti", Colour.ORANGE)}
        ),
        RuleSetSpec.from_dict(d),
    )
    issues = {i.code: i for i in validate_map(m)}
    assert issues["ruleset-missing-town-colours"].where.squares == ((2, 0),)
    assert "'Nowhere'" in issues["ruleset-missing-town-colours"].message
    assert "ruleset-missing-border-coa" in issues
    assert "ruleset-missing-gated-coa-islands" in issues


# -- command line ------------------------------------------------------------------------------


def test_ruleset_check_and_preset_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine.ruleset.json"
    assert main(["ruleset", "preset", "iberica", "-o", str(out)]) == 0
    assert main(["ruleset", "check", str(out)]) == 0
    assert "ok (iberica, 0 mechanic(s))" in capsys.readouterr().out
    d = json.loads(out.read_text(encoding="utf-8"))
    d["collect"]["treat_factor"] = 11
    d["island_coat_points"] = -1
    out.write_text(json.dumps(d), encoding="utf-8")
    assert main(["ruleset", "check", str(out)]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{out}: collect.treat_factor: 11 is greater than the maximum of 10",
        f"{out}: island_coat_points: -1 is less than the minimum of 0",
    ]
    assert main(["ruleset", "preset", "iberica", "-o", str(out)]) == 2  # never overwrites


def test_validate_simulate_and_replay_a_map_with_a_rule_set_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "italia.ruleset.json").write_text(json.dumps(_italia()), encoding="utf-8")
    path = _map_file(tmp_path, {"file": "italia.ruleset.json"})
    assert main(["validate", str(path)]) == 0
    report = tmp_path / "report"
    assert (
        main(["simulate", str(path), "--games", "4", "--workers", "1", "--out", str(report)]) == 0
    )
    text = capsys.readouterr().out + capsys.readouterr().err
    assert "no 'italia' rule module" not in text
    figures = json.loads((report / "report.json").read_text(encoding="utf-8"))
    assert "upgrade_taken" in json.dumps(figures)
    from engine.bots import make_bot, play_game
    from engine.record import dumps_record, record_of

    g = Game(load_map(path), players=2, seed=5, map_path=str(path))
    play_game(g, [make_bot("random", seed=1), make_bot("random", seed=2)])
    rec = tmp_path / "game.record.json"
    rec.write_text(dumps_record(record_of(g)), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(rec)]) == 0
    assert f"Red: {g.scores[0]}" in capsys.readouterr().out
    assert g.rules[0].name == "italia"


def _spec(**changes: Any) -> RuleSetSpec:
    d = preset_dict("iberica")
    d["name"] = "variant"
    d.update(changes)
    return RuleSetSpec.from_dict(d)


def test_a_treat_bought_with_a_kept_chip_is_placed_and_found() -> None:
    gift = {
        "id": "gift",
        "action": "give_treat",
        "when": "after",
        "pay": {"kind": "one_chip_of_colour"},
        "reward": {"kind": "treat"},
        "limit": "turn",
    }
    spec = _spec(collect={"kind": "keep", "points_factor": 1}, mechanics=[gift])
    assert "tracks" in spec.prints and spec.collect.kind == "keep"
    m = _with(load_map(bundled_map("iberica")), spec)
    for seed in range(3):
        g = Game(m, players=2, seed=seed)
        rng = random.Random(seed)
        bought = placed = 0
        while not g.is_over():
            action = rng.choice(g.legal_moves().list())
            g.apply(action)
            if action.type == "give_treat":
                bought += 1
                # the first chip paid is the treat, to be placed at once (compulsory)
                assert _offered(g, "place_treat") and Pass() not in g.legal_moves()
            placed += action.type == "place_treat"
            check_invariants_any(g)
        found = [e for e in g.events if e.kind == "treat"]
        assert bought == placed > 0 and found
        assert all(e.points in (2, 4) for e in found)  # value x treat_factor 2


@pytest.mark.parametrize(("collect", "layout"), [("points", "random"), ("keep", "none")])
def test_chips_scored_away_or_no_chips_at_all(collect: str, layout: str) -> None:
    spec = _spec(collect={"kind": collect, "points_factor": 3}, layout={"kind": layout})
    m = _with(load_map(bundled_map("iberica")), spec)
    g = Game(m, players=2, seed=3)
    st = g.rule_state["variant"]
    assert len(st.down) == (0 if layout == "none" else m.setup.chip_count)
    rng = random.Random(3)
    while not g.is_over():
        g.apply(rng.choice(g.legal_moves().list()))
        check_invariants_any(g)
    chip_points = sum(e.points for e in g.events if e.kind == "chip")
    assert st.held == [[], []] and st.up == {}
    if layout == "none":
        assert chip_points == 0 and len(st.out) == 30
    else:
        taken = 30 - len(st.down) - len(st.unseen)
        assert taken > 0 and chip_points % 3 == 0 and chip_points >= 3 * taken


def test_a_designers_action_pickles_into_a_fresh_process() -> None:
    """A bot in another process sends its action back pickled; the class of a designer's action
    type is made where it is unpickled."""
    import pickle
    import subprocess
    import sys

    m = _with(load_map(bundled_map("france")), load_ruleset(MIXED))
    g = Game(m, players=2, seed=1)
    rng = random.Random(1)
    while not any(a.type == "take_a_rest" for a in g.legal_moves()):
        g.apply(rng.choice(g.legal_moves().list()))
    action = next(a for a in g.legal_moves() if a.type == "take_a_rest")
    assert pickle.loads(pickle.dumps(action)) == action
    code = "import pickle, sys; print(pickle.loads(sys.stdin.buffer.read()).to_dict())"
    out = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(action), capture_output=True, check=True
    )
    assert out.stdout.decode().strip() == repr(action.to_dict())


def test_rule_set_classes_made_from_specs_are_kept_for_a_bounded_number_of_specs() -> None:
    # an editing session makes a new spec at every edit: the classes made for them are reused
    # for an equal spec but not kept without end
    from engine.rules.data.rules import data_rules_class
    from engine.rules.data.ruleset import preset_spec

    spec = preset_spec("france")
    assert data_rules_class(spec) is data_rules_class(preset_spec("france"))
    assert data_rules_class.cache_info().maxsize == 256
