"""Hypothesis: arbitrary JSON values spliced into the presets at any path. The checker never
raises and says one line per problem; a rule set it accepts plays (any refusal is a clean
:class:`~engine.errors.EngineError`)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_hypothesis import JSON

from engine.errors import EngineError
from engine.game import Game
from engine.mapdef import EmbeddedRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data import RuleSetSpec, check_ruleset_dict, preset_dict, preset_names
from engine.rules.data.ruleset import PRESET_MAPS

SETTINGS = settings(
    max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
NUMBERS = st.integers(-3, 70) | st.sampled_from([True, 2.0, None, "2", [], {}])


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _splice(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target: Any = data
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value


@SETTINGS
@given(
    which=st.sampled_from(preset_names()),
    where=st.integers(0, 10_000),
    value=NUMBERS | JSON,
    plays=st.booleans(),
)
def test_any_value_at_any_path_of_a_preset(which: str, where: int, value: Any, plays: bool) -> None:
    data = preset_dict(which)
    paths = _paths(data)
    _splice(data, paths[where % len(paths)], value)
    problems = check_ruleset_dict(data)
    assert all("\n" not in str(p) and len(str(p)) < 500 for p in problems)
    if problems or not plays:
        return
    spec = RuleSetSpec.from_dict(data)
    m = load_map(bundled_map(PRESET_MAPS[which]))
    m.rule_set = EmbeddedRuleSet(spec)
    try:
        g = Game(m, players=2, seed=where)
    except EngineError:
        return
    rng = random.Random(where)
    for _ in range(40):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_moves().list()))
