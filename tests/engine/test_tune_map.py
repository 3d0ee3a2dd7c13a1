"""The tuner's map parameters (engine.analysis.candidate): numbers inside a rule-set file or an
embedded rule set (``ruleset/PATH``) and where start squares lie (``start.NAME``)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.analysis.candidate import (
    CandidateRefused,
    candidate_map,
    tuned_name,
    tuned_path,
    write_answer,
)
from engine.analysis.cluster import cluster_for_run
from engine.analysis.simulate import SimConfig, SimResult, new_game, simulate
from engine.analysis.sweep import config_at
from engine.analysis.tune import TuneParam, check_space, parse_target, parse_tune, tune
from engine.cli import main
from engine.errors import EngineError
from engine.mapdef import EmbeddedRuleSet, FileRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map

VINO = "ruleset/mechanics/vino/reward/points/town_colour"


@pytest.fixture
def italia(tmp_path: Path) -> Path:
    """A copy of the shipped Italia map and its rule-set file, in a folder of its own."""
    for name in ("italia.json", "italia.ruleset.json"):
        shutil.copy(bundled_map("italia").with_name(name), tmp_path / name)
    return tmp_path / "italia.json"


def test_the_new_parameter_forms_are_read_or_refused() -> None:
    assert parse_tune([f"{VINO}=6..12", "start.Bari=21,17| 19 ,15|20,16"]) == [
        TuneParam(VINO, 6, 12),
        TuneParam("start.Bari", 0, 2, ("21,17", "19,15", "20,16")),
    ]
    for bad, why in (
        (["start.Bari=21,17"], "give 2 to 64 squares"),
        (["start.Bari=21,17|21,17"], "a square is given twice"),
        (["start.Bari=21,17|north"], "'north' is not a square x,y"),
        (["ruleset/mechanics//pay/value=1..3"], "separated by /"),
        (["ruleset/mechanics/vino/pay/value=3"], "write NAME=LOW..HIGH"),
        (
            ["rules/x=1..2"],
            r"known: tile_count, start_squares, rule.NAME, ruleset/PATH, start.NAME",
        ),
    ):
        with pytest.raises(EngineError, match=why):
            parse_tune(bad)


def test_a_number_is_found_by_id_or_index_and_the_original_is_left_alone(italia: Path) -> None:
    m = load_map(italia)
    by_id = candidate_map(m, [(VINO, 11)])
    by_index = candidate_map(m, [("ruleset/mechanics/0/reward/points/town_colour", 11)])
    assert by_id.rule_set == by_index.rule_set != m.rule_set
    assert isinstance(by_id.rule_set, FileRuleSet) and by_id.rule_set.file == "italia.ruleset.json"
    assert by_id.rule_set.spec.to_dict()["mechanics"][0]["reward"]["points"]["town_colour"] == 11
    assert m.rule_set.spec.to_dict()["mechanics"][0]["reward"]["points"]["town_colour"] == 9
    assert candidate_map(m, []) is m
    # the checker refuses a value: the error names the parameter and the field
    with pytest.raises(CandidateRefused, match=r"value=99: the rule-set checker refuses it: "):
        candidate_map(m, [("ruleset/mechanics/espresso/pay/value", 99)])


def test_a_bad_path_or_value_is_refused_before_any_game(italia: Path) -> None:
    m = load_map(italia)
    base = SimConfig()
    for item, why in (
        (
            "ruleset/mechanics/wine/pay/value=1..3",
            r"no item 'wine' \(items by index 0..2, or by id: vino, olio, espresso\)",
        ),
        (
            "ruleset/mechanics/vino/pay/valeu=1..3",
            r"ruleset/mechanics/vino/pay has no field 'valeu'; its fields: kind, value",
        ),
        (
            "ruleset/mechanics/vino/pay/kind=1..3",
            r"ruleset/mechanics/vino/pay/kind is 'exact_value_one_colour', not a number",
        ),
        ("ruleset/mechanics/vino/pay/value/x=1..3", r"is 2, not a list or an object"),
        (
            "ruleset/mechanics/espresso/pay/value=40..50",
            r"espresso/pay/value=46: the rule-set checker refuses it: mechanics\[2\]\.pay\.value: 46 is more than the largest chip total 45",
        ),
        (
            "start.Roma=1,1|2,2",
            r"no start square 'Roma'; its own: Genova \(5,7\), Trieste \(13,4\), Bari \(21,17\)",
        ),
        (
            "start.Bari=21,17|0,0",
            r"start.Bari=0,0: the map would have an error: start square 'Bari' at \(0, 0\) is not on a map square",
        ),
        ("start.Bari=21,17|13,4", r"start.Bari=13,4: another start square is there"),
        ("start.Bari=21,17|18,16", r"start.Bari=18,16: the town 'Foggia' is there"),
    ):
        with pytest.raises(EngineError, match=why):
            check_space(m, base, parse_tune([item]))
    with pytest.raises(EngineError, match="start.Bari names the same start square"):
        check_space(m, base, parse_tune(["start.Bari=21,17|19,15", "start.21,17=21,17|19,17"]))
    # by its square too, and a range the checker accepts whole passes
    check_space(m, base, parse_tune(["start.21,17=21,17|19,15", f"{VINO}=6..12"]))
    france = load_map(bundled_map("france"))
    with pytest.raises(EngineError, match="registered rule set 'france'.*rule.NAME"):
        check_space(france, base, parse_tune(["ruleset/mechanics/0/pay/value=1..3"]))


def test_games_play_the_candidates_map(italia: Path) -> None:
    m = load_map(italia)
    config = config_at(
        SimConfig(games=2, players=(3,), seed=5), {"start.Bari": "19,15", "start_squares": 3}
    )
    assert config.map_edits == (("start.Bari", "19,15"),)
    assert config.to_dict()["map_edits"] == {"start.Bari": "19,15"}
    assert "map_edits" not in SimConfig().to_dict()  # reports of unchanged maps stay as they were
    result = simulate(m, config, workers=1)
    for g in result.games:
        assert [19, 15] in g["start"] and [21, 17] not in g["start"]
    assert (21, 17) in m.start_squares  # the caller's map is unchanged
    assert result.config == config  # the run says what was asked
    # a game made for the config alone plays the candidate's map, and refuses a bad one
    game = new_game(m, 3, 1, "italia", config)
    assert sorted(sq for sq, _t, _r in game.start_tiles) == [(5, 7), (13, 4), (19, 15)]
    with pytest.raises(EngineError, match="start.Bari: '1' is not a square x,y"):
        new_game(m, 2, 1, "italia", config_at(config, {"start.Bari": 1}))  # a choice's index
    with pytest.raises(CandidateRefused, match="the town 'Foggia' is there"):
        new_game(m, 2, 1, "italia", config_at(config, {"start.Bari": "18,16"}))


def test_the_answer_is_written_as_new_files_beside_the_original(
    italia: Path, tmp_path: Path
) -> None:
    m = load_map(italia)
    values = {VINO: 12, "start.Bari": "19,15", "tile_count": 90}
    first = write_answer(m, values, italia, tmp_path / "unused")
    assert first == {
        "ruleset": tmp_path / "italia.tuned.ruleset.json",
        "map": tmp_path / "italia.tuned.json",
    }
    again = write_answer(m, values, italia, tmp_path / "unused")
    assert again["map"].name == "italia.tuned-2.json"  # never replaces a file
    assert again["ruleset"].name == "italia.tuned-2.ruleset.json"
    assert json.loads(italia.read_text())["rule_set"] == {"file": "italia.ruleset.json"}
    tuned = load_map(again["map"])
    assert json.loads(again["map"].read_text())["rule_set"] == {
        "file": "italia.tuned-2.ruleset.json"
    }
    assert tuned.rule_set.spec == candidate_map(m, [(VINO, 12)]).rule_set.spec
    assert (19, 15) in tuned.start_squares and (21, 17) not in tuned.start_squares
    assert write_answer(m, {"tile_count": 90}, italia, tmp_path) == {}  # no map values, no file
    used = write_answer(m, {"start_squares": 3, "tile_count": 90}, italia, tmp_path)
    assert load_map(used["map"]).setup.start_squares_used == 3 and "ruleset" not in used
    assert json.loads(used["map"].read_text())["rule_set"] == {"file": "italia.ruleset.json"}
    # an embedded rule set: one map; a shipped map named by name: written in the out folder
    ukraine = load_map(bundled_map("ukraine"))
    road = "ruleset/rules/chumak/then/0/count/values/road"
    out = write_answer(ukraine, {road: 3}, None, tmp_path / "out")
    assert out == {"map": tmp_path / "out" / "ukraine.tuned.json"}
    spec = load_map(out["map"]).rule_set
    assert isinstance(spec, EmbeddedRuleSet)
    assert spec.spec.to_dict()["rules"][0]["then"][0]["count"]["values"]["road"] == 3
    shipped = write_answer(load_map(bundled_map("italia")), {VINO: 7}, None, tmp_path / "out")
    assert (
        load_map(shipped["map"]).rule_set.spec.to_dict()["mechanics"][0]["reward"]["points"][
            "town_colour"
        ]
        == 7
    )
    assert shipped["ruleset"] == tmp_path / "out" / "italia.tuned.ruleset.json"
    moved = write_answer(
        load_map(bundled_map("italia")), {"start.Bari": "19,15"}, None, tmp_path / "out"
    )
    assert moved["ruleset"] == tmp_path / "out" / "italia.ruleset.json"  # untuned: its own name
    assert load_map(moved["map"]).rule_set.spec == load_map(bundled_map("italia")).rule_set.spec


def test_tuned_names_count_up_past_the_files_there(tmp_path: Path) -> None:
    assert tuned_name("italia.json") == "italia.tuned.json"
    assert tuned_name("italia.ruleset.json", 3) == "italia.tuned-3.ruleset.json"
    (tmp_path / "a.tuned.json").write_text("{}")
    (tmp_path / "a.tuned-2.json").write_text("{}")
    assert tuned_path(tmp_path, "a.json") == tmp_path / "a.tuned-3.json"


def test_a_combination_the_checker_refuses_is_dropped_not_fatal() -> None:
    """Two values each fine alone may be refused together: that candidate is marked refused,
    never the answer, and the search goes on."""

    def run(config: SimConfig) -> SimResult:
        values = dict(config.map_edits)
        if values["ruleset/a"] + values["ruleset/b"] > 6:
            raise CandidateRefused("--tune ruleset/a, ruleset/b: the checker refuses it")
        rng = random.Random(config.seed)
        games = [
            {
                "players": 2,
                "winners": [0],
                "scores": [1, 0],
                "turns": 10 * values["ruleset/a"] + rng.randint(0, 1),
                "points": {},
            }
            for _ in range(config.games)
        ]
        return SimResult(config, "fake", "none", games=games)

    seen: list[dict[str, Any]] = []
    got = tune(
        run,
        SimConfig(seed=3),
        parse_tune(["ruleset/a=0..6", "ruleset/b=0..6"]),
        parse_target(["turns=30±2"]),
        trials=25,
        min_games=4,
        max_games=12,
        on_trial=seen.append,
    )
    refused = [e for e in got["tried"] if e["status"] == "refused"]
    assert refused and all(not e["rungs"] for e in refused)
    assert got["met"] and got["best"]["values"]["ruleset/a"] == 3
    assert [e["trial"] for e in seen] == [e["trial"] for e in got["tried"]]


def test_the_command_line_tunes_a_rule_set_file_and_a_start_square(italia: Path, capsys) -> None:
    out = italia.parent / "tuning"
    args = ["simulate", str(italia), "--tune", f"{VINO}=6..12", "--tune", "start.Bari=21,17|19,15"]
    more = [
        "--target",
        "turns=30±60",
        "--tune-games",
        "4..4",
        "--tune-trials",
        "2",
        "--workers",
        "1",
    ]
    check = ["--tune-check", "2"]
    assert main([*args, *more, *check, "--quiet", "--seed", "2", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert (
        f"tuning: the answer's rule set: {italia.parent / 'italia.tuned.ruleset.json'} (new)"
        in said
    )
    assert f"tuning: the answer's map: {italia.parent / 'italia.tuned.json'} (new)" in said
    result = json.loads((out / "tuning.json").read_text())
    best = result["best"]["values"]
    assert result["check"]["games"] == 2
    tuned = load_map(italia.parent / "italia.tuned.json")
    assert (
        tuned.rule_set.spec.to_dict()["mechanics"][0]["reward"]["points"]["town_colour"]
        == best[VINO]
    )
    assert tuple(map(int, best["start.Bari"].split(","))) in tuned.start_squares
    # the page's long path headers may wrap at their slashes, so the figures stay in view
    html = (out / "tuning.html").read_text()
    assert "<th>ruleset/<wbr>mechanics/<wbr>vino/<wbr>" in html
    # the statuses' legend is in italics, not asterisks
    assert "A candidate is <em>met</em> when" in html and "*met*" not in html
    page = (out / "tuning.md").read_text()
    assert (
        f"The answer is written as new files: `{italia.parent / 'italia.tuned.ruleset.json'}`"
        in page
    )
    # a bad path: exit 2 with one line, before any game
    assert (
        main(
            [
                "simulate",
                str(italia),
                "--tune",
                "ruleset/mechanics/9/pay/value=1..2",
                *more,
                "--quiet",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.strip() == (
        "error: --tune ruleset/mechanics/9/pay/value: ruleset/mechanics is a list of 3: no item '9' "
        "(items by index 0..2, or by id: vino, olio, espresso)"
    )


def _tune_italia(folder: Path, **where: Any) -> dict[str, Any]:
    """A tuning run that edits the map (a rule-set number, where Bari lies, the tiles played),
    its games played ``where`` (simulate's ``workers``, ``scheduler``)."""
    m = load_map(folder / "italia.json")
    params = parse_tune([f"{VINO}=6..12", "start.Bari=21,17|19,15", "tile_count=20..30"])
    targets = parse_target(["share.vino=0.07±0.03", "turns=26±3"])
    base = SimConfig(games=4, players=(2,), bot="greedy", seed=3)
    return tune(
        lambda c: simulate(m, c, **where),
        base,
        params,
        targets,
        trials=3,
        min_games=4,
        max_games=12,
        map_info={"id": m.id, "name": m.name},
    )


@pytest.fixture(scope="module")
def italia_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("italia")
    for name in ("italia.json", "italia.ruleset.json"):
        shutil.copy(bundled_map("italia").with_name(name), folder / name)
    return folder


@pytest.fixture(scope="module")
def one_worker(italia_copy: Path) -> dict[str, Any]:
    return _tune_italia(italia_copy, workers=1)


def test_a_tuning_run_that_edits_the_map_plays_its_candidates_maps(
    italia_copy: Path, one_worker: dict[str, Any]
) -> None:
    tried = one_worker["tried"]
    assert [e["trial"] for e in tried] == [0, 1, 2]
    assert any(len(e["rungs"]) == 2 for e in tried)  # a second rung was played too
    # the rule-set number changes the games (so a worker that played the file's would differ)
    m = load_map(italia_copy / "italia.json")
    base = SimConfig(games=2, players=(2,), seed=3)
    vino = [
        [
            g["points"].get("vino", 0)
            for g in simulate(m, config_at(base, {VINO: v, "tile_count": 25})).games
        ]
        for v in (6, 12)
    ]
    assert vino[0] != vino[1]


@pytest.fixture
def dask_local() -> Iterator[Any]:
    """One local Dask cluster of two worker processes kept for a whole tuning run, as
    ``--scheduler local`` keeps it (:func:`engine.analysis.cluster.cluster_for_run`)."""
    pytest.importorskip("distributed", reason="Dask needs the cluster extra")
    with cluster_for_run("local", 2) as cluster:
        yield cluster


@pytest.mark.parametrize("where", ["local processes", "dask"])
def test_a_tuning_run_that_edits_the_map_gives_the_same_answer_on_workers(
    request: pytest.FixtureRequest, italia_copy: Path, one_worker: dict[str, Any], where: str
) -> None:
    # on Dask the candidates' maps go to the workers pickled, as to a real cluster's
    scheduler = request.getfixturevalue("dask_local") if where == "dask" else None
    got = _tune_italia(italia_copy, workers=2, scheduler=scheduler)
    assert got["best"] == one_worker["best"] and got["tried"] == one_worker["tried"]
    assert json.dumps(got, sort_keys=True) == json.dumps(one_worker, sort_keys=True)
