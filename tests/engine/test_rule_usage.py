"""The balance report's per-rule section: offered, taken, declined, ran, points and chips per
game in the designer's words, and the warnings about a rule that never runs."""

from __future__ import annotations

from engine.analysis.balance import balance_report
from engine.analysis.simulate import SimConfig, simulate
from engine.mapdef import EmbeddedRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data import RuleSetSpec, preset_dict

SALT = {"id": "salt", "name": "Salt", "colour": "#d8d8d0", "icon": "salt", "supply": None}
RULES = [
    {
        "id": "pan",
        "title": "Salt pan",
        "when": "tile_placed",
        "if": [{"kind": "tile_shows", "feature": "road"}],
        "then": [{"kind": "gain", "resource": "salt", "amount": 1}],
    },
    {
        "id": "sell",
        "title": "Sell salt",
        "when": "action_phase",
        "choice": "optional",
        "cost": [{"kind": "resource", "resource": "salt", "amount": 2}],
        "then": [{"kind": "points", "amount": 3}],
        "limits": [{"per": "turn"}],
    },
    {
        "id": "hoard",
        "title": "Salt hoard",
        "when": "end_of_game",
        "if": [{"kind": "holds", "resource": "salt", "at_least": 99}],
        "then": [{"kind": "points", "amount": 10}],
    },
]


def test_the_report_counts_each_rule_by_its_title_and_warns_about_one_that_never_runs() -> None:
    d = preset_dict("deutschland")
    d.update(name="salt", mechanics=[], layout={"kind": "none"}, resources=[SALT], rules=RULES)
    spec = RuleSetSpec.from_dict(d)
    m = load_map(bundled_map("example-small"))
    m.rule_set = EmbeddedRuleSet(spec)
    result = simulate(m, SimConfig(games=4, bot="random", seed=3), workers=1)
    report = balance_report(m, result)
    rows = {r["id"]: r for r in report["rules"]["by_rule"]}
    assert [r["title"] for r in rows.values()] == ["Salt pan", "Sell salt", "Salt hoard"]
    pan, sell, hoard = rows["pan"], rows["sell"], rows["hoard"]
    assert pan["fired"] > 0 and pan["offered"] == 0 and pan["points"] == 0
    assert sell["offered"] > 0
    assert sell["taken"] + sell["declined"] == sell["offered"]  # every offer answered
    assert sell["fired"] == sell["taken"]
    assert sell["points"] == 3 * sell["taken"]  # 3 points each time it is taken
    assert hoard["games_fired"] == 0 and hoard["fired"] == 0
    codes = [(w["code"], w["message"]) for w in report["warnings"]]
    assert ("rule-never-fires", "rule Salt hoard never ran in 4 games") in codes
    assert not any(c == "rule-never-fires" and "Salt pan" in msg for c, msg in codes)
    from engine.analysis.report import report_blocks, to_markdown

    page = to_markdown(report_blocks(report, {}, charts_wanted=False))
    head = "| rule (per game) | offered | taken | declined | ran | points | chips |"
    assert head + " extra turns (played) | turns missed |" in page
    assert "| Sell salt |" in page and "| Salt hoard | 0 | 0 | 0 | 0 | 0 | 0 | 0 (0) | 0 |" in page
    assert "rule Salt hoard never ran in 4 games" in page


def test_the_report_gives_the_turns_each_rule_moved() -> None:
    rules = [
        {
            "id": "rush",
            "title": "Pilgrims' rush",
            "when": "tile_placed",
            "if": [{"kind": "tile_shows", "feature": "monastery"}],
            "then": [{"kind": "extra_turn"}],
            "limits": [{"per": "turn"}],
        },
        {
            "id": "nap",
            "title": "Siesta",
            "when": "tile_placed",
            "if": [{"kind": "round", "at_least": 1}, {"kind": "tile_shows", "feature": "city"}],
            "then": [{"kind": "points", "amount": 2}, {"kind": "skip_turn"}],
            "chooser": "left",
            "choice": "optional",
            "limits": [{"per": "player"}],
        },
    ]
    d = preset_dict("deutschland")
    d.update(name="turns", mechanics=[], layout={"kind": "none"}, rules=rules)
    spec = RuleSetSpec.from_dict(d)
    m = load_map(bundled_map("example-small"))
    m.rule_set = EmbeddedRuleSet(spec)
    result = simulate(m, SimConfig(games=4, bot="random", seed=3), workers=1)
    games = result.games
    report = balance_report(m, result)
    rows = {r["id"]: r for r in report["rules"]["by_rule"]}
    rush, nap = rows["rush"], rows["nap"]
    # every run of the rush grants one extra turn; all but one at the very end are played
    assert rush["extra_turns"] == rush["fired"] > 0
    assert rush["extra_turns"] - 1 <= rush["extra_turns_played"] <= rush["extra_turns"]
    assert rush["turns_skipped"] == 0 and nap["extra_turns"] == 0
    # a siesta taken is a turn missed, unless the game ended first
    assert 0 < nap["turns_skipped"] <= nap["taken"] == nap["fired"]
    per_game = [g["rule_usage"]["nap"]["turns_skipped"] for g in games]
    assert nap["turns_skipped"] == sum(per_game) / len(games)
    from engine.analysis.report import report_blocks, to_html, to_markdown

    blocks = report_blocks(report, {}, charts_wanted=False)
    page, html = to_markdown(blocks), to_html(blocks, title="turns")
    row = next(line for line in page.splitlines() if line.startswith("| Siesta |"))
    assert row.endswith(f"| 0 (0) | {nap['turns_skipped']:g} |")
    assert "Pilgrims&#x27; rush" in html and "turns missed" in html


def test_the_docs_herring_rule_set_is_valid() -> None:
    import json
    from pathlib import Path

    from engine.rules.data import check_ruleset_dict

    path = Path(__file__).resolve().parents[2] / "docs" / "rule-language" / "herring.ruleset.json"
    assert check_ruleset_dict(json.loads(path.read_text(encoding="utf-8"))) == []


def test_the_report_shows_each_resource_by_its_name_and_icon(tmp_path) -> None:
    from engine.analysis.report import write_report

    d = preset_dict("deutschland")
    d.update(name="salt", mechanics=[], layout={"kind": "none"}, resources=[SALT], rules=RULES)
    spec = RuleSetSpec.from_dict(d)
    m = load_map(bundled_map("example-small"))
    m.rule_set = EmbeddedRuleSet(spec)
    result = simulate(m, SimConfig(games=2, bot="random", seed=5), workers=1)
    ends = [n for g in result.games for n in g["resources_held"]["salt"]]
    report = balance_report(m, result)
    (row,) = report["rules"]["resources"]
    assert (row["name"], row["icon"], row["colour"]) == ("Salt", "salt", "#d8d8d0")
    assert row["held_at_end"] == round(sum(ends) / len(ends), 4) and row["most_held"] == max(ends)
    files = write_report(report, tmp_path, m, charts=False)
    svg = files["icon:icon-salt.svg"].read_text(encoding="utf-8")
    assert svg.startswith("<svg") and 'fill="#d8d8d0"' in svg
    assert "| ![salt](icon-salt.svg) Salt |" in files["markdown"].read_text(encoding="utf-8")
    page = files["html"].read_text(encoding="utf-8")
    assert '<td><img src="icon-salt.svg" alt="salt" width="16" height="16"> Salt</td>' in page


def test_every_icon_of_the_language_has_its_picture() -> None:
    from engine.rules.data.icons import ICON_SHAPES
    from engine.rules.data.lang import ICONS

    assert tuple(ICON_SHAPES) == ICONS


def _jackpot_report(games: int) -> dict:
    """``example-small`` with one rule: the first tile of a game gives its placer 50 points twice."""
    jackpot = {
        "id": "jackpot",
        "title": "Jackpot",
        "when": "tile_placed",
        "then": [{"kind": "points", "amount": 50}, {"kind": "points", "amount": 50}],
        "limits": [{"per": "game"}],
    }
    d = preset_dict("deutschland")
    d.update(name="jackpot", mechanics=[], layout={"kind": "none"}, rules=[jackpot])
    m = load_map(bundled_map("example-small"))
    m.rule_set = EmbeddedRuleSet(RuleSetSpec.from_dict(d))
    return balance_report(m, simulate(m, SimConfig(games=games, bot="random", seed=3), workers=1))


def test_the_report_warns_about_a_rule_whose_user_always_wins() -> None:
    report = _jackpot_report(10)
    (row,) = report["rules"]["by_rule"]
    assert row["games_fired"] == row["top_user_won"] == 10
    warned = [w["message"] for w in report["warnings"] if w["code"] == "rule-always-wins"]
    assert warned == ["rule Jackpot: the player who ran it most won all 10 games it ran in"]
    # nine games say too little (ALWAYS_WINS_GAMES)
    fewer = _jackpot_report(9)["warnings"]
    assert not any(w["code"] == "rule-always-wins" for w in fewer)
