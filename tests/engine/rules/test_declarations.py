"""Every rule set declares what the validator, chip layout, bot, report and playtest need, and
its bot hints agree with what its hooks do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _hint_checks import hint_violations, traced_games

import engine.rules.base as rules_base
from engine.game import Game, GameOptions
from engine.mapdef import Colour
from engine.mapio import load_map
from engine.moves import Action
from engine.resources import bundled_map
from engine.rules.base import Rules
from engine.rules.context import RuleContext
from engine.rules.france import FranceRules
from engine.rules.registry import rule_set_classes
from engine.rules.spec import ActionCount, ActionTally, BotHints, LayoutKind
from engine.rules.view import RuleView
from engine.scoring import ScoreEvent

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = {
    "france": "france",
    "benelux": "benelux",
    "great_britain": "great-britain",
    "iberica": "iberica",
    "deutschland": "deutschland",
}


def _map_chips_game(name: str, seed: int, rule_set: str | None = None) -> Game:
    opts = GameOptions(end_after_turns=60, rule_set=rule_set)
    return Game(load_map(bundled_map(SHIPPED[name])), seed=seed, options=opts)


def _towns_game(seed: int) -> Game:
    opts = GameOptions(
        rule_set="none",
        town_extra_tile=True,
        town_cost=True,
        town_road_bonus=True,
        end_after_turns=80,
    )
    return Game(load_map(bundled_map("france")), seed=seed, options=opts)


@pytest.mark.parametrize("data", [False, True], ids=["module", "preset"])
@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_map_chips_hints_hold_in_real_games(monkeypatch, name: str, data: bool) -> None:
    rule_set = f"data:{name}" if data else None
    trace = traced_games(monkeypatch, lambda s: _map_chips_game(name, s, rule_set), range(3))
    assert trace.hooks_seen >= {"tile_placed", "apply"} or name == "deutschland"
    assert hint_violations(type(_map_chips_game(name, 0, rule_set).rules[0]), trace) == []


def test_town_variant_hints_hold_in_real_games(monkeypatch) -> None:
    from engine.rules.towns import TownRules

    trace = traced_games(monkeypatch, _towns_game, range(3))
    assert {"tile_placed", "end_of_turn", "on_score"} <= trace.hooks_seen
    assert trace.on_score_changed > 0  # the road bonus: so towns cannot declare plain_scoring
    assert hint_violations(TownRules, trace) == []
    assert hint_violations(replace_hints(TownRules, plain=True), trace) != []


def replace_hints(cls: type[Rules], *, plain: bool) -> type[Rules]:
    return type(f"Claims{cls.__name__}", (cls,), {"bot_hints": BotHints(True, plain)})


def test_a_hook_that_breaks_a_declared_hint_is_caught(monkeypatch) -> None:
    class _Liar(FranceRules):
        """Declares France's hints but pays a point for every feature scored."""

        name = "france_liar_for_tests"

        def feature_scored(self, ctx: RuleContext, event: ScoreEvent) -> None:
            if event.kind != "bonus":
                ctx.award(ctx.to_move, 1, "bonus")

    monkeypatch.setitem(rules_base._REGISTERED, _Liar.name, _Liar)  # unregistered afterwards
    m = load_map(bundled_map("france"))
    make = lambda s: Game(  # noqa: E731
        m, seed=s, options=GameOptions(rule_set=_Liar.name, end_after_turns=40)
    )
    found = hint_violations(_Liar, traced_games(monkeypatch, make, range(2)))
    assert "france_liar_for_tests: meeple_blind, but feature_scored called award" in found
    assert "france_liar_for_tests: plain_scoring, but feature_scored called award" in found


@pytest.mark.parametrize("cls", rule_set_classes(), ids=lambda c: c.name)
def test_every_rule_set_declares_itself(cls: type[Rules]) -> None:
    assert cls.title
    assert isinstance(cls.bot_hints, BotHints)
    layout = cls.chip_layout
    if layout.kind is LayoutKind.RANDOM:
        assert cls.sheet_setup is not None and cls.sheet_setup.chips > 0
    if layout.excluded:
        assert layout.excluded_code and layout.excluded_label and layout.excluded_meaning
    # report figures name actions the rule set really offers (their record types)
    types = {
        v.type
        for v in vars(__import__(cls.__module__, fromlist=["_"])).values()
        if isinstance(v, type) and issubclass(v, Action) and v is not Action and "type" in vars(v)
    }
    for spec in cls.report_figures.values():
        if isinstance(spec, ActionCount):
            assert set(spec.types) <= types, (cls.name, spec)
        if isinstance(spec, ActionTally):
            assert spec.type in types and spec.label in ("field", "joined", "square", "island")
    for code, info in cls.issue_codes.items():
        assert info.severity in ("error", "warning") and code.split("-")[0] in cls.name + "gb"


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_views_are_plain_data(name: str) -> None:
    g = _map_chips_game(name, 1)
    view = g.rules[0].view(RuleContext.of(g))
    assert isinstance(view, RuleView)
    assert len(view.held) == len(g.players)
    assert view.chips and all(c.value is None for c in view.chips)  # all face down at setup
    if name == "benelux":
        assert len(view.stacks) == 6
    if name == "great_britain":
        assert all(c.colour is not None for c in view.chips)


COUNTRY = re.compile(r"france|benelux|great.?britain|iberica|ib[eé]rica|deutschland|balear", re.I)
SIX_PLACES = {
    "engine/validation.py": ("_check_iberica_tracks", "RANDOM_CHIP", "_SHEET_SETUP"),
    "engine/analysis/balance.py": ("RULE_FIGURES", "def _france", "def _deutschland"),
    "engine/bots/greedy_bot.py": ("_MEEPLE_BLIND_RULES", "_PLAIN_SCORING_RULES"),
    "mapeditor/widgets/chips_dock.py": ("RANDOM_CHIP_RULES", "RuleSet."),
    "mapeditor/playtest/rule_view.py": ('"stacks"', '"isle"', "getattr("),
    "engine/chips.py": ("RuleSet.IBERICA", "_balearic"),
}


@pytest.mark.parametrize("path", sorted(SIX_PLACES))
def test_the_six_places_hold_no_country_specific_code(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    code = "\n".join(
        line for line in text.splitlines() if not line.lstrip().startswith(("#", '"', "*", "`"))
    )
    for gone in SIX_PLACES[path]:
        assert gone not in code, f"{path}: {gone}"
    # string literals naming a country in code (docstring prose aside)
    literals = re.findall(r"\"[a-z_]+\"", code)
    assert [lit for lit in literals if COUNTRY.search(lit)] == []


def test_map_issues_are_located_issues() -> None:
    from engine.mapdef import MapDef, Town
    from engine.validation import Issue, Severity

    m = MapDef(id="t", name="T", width=2, height=1, land={(0, 0), (1, 0)})
    m.towns[(1, 0)] = Town("Dijon")
    [issue] = FranceRules.map_issues(m)
    assert isinstance(issue, Issue) and issue.severity is Severity.ERROR
    assert (issue.code, issue.where.squares) == ("france-town-without-grape", ((1, 0),))
    m.towns[(1, 0)] = Town("Dijon", grape=Colour.PURPLE)
    assert FranceRules.map_issues(m) == []
