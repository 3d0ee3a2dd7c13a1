"""Bounded fuzzing of generated rule sets (CI): what the checker accepts, the program runs.

Rule sets made from ``MECHANIC_KINDS`` (valid and hostile, see ``rulegen``) must each be refused
with one line per problem, or be accepted and then round-trip and play bot games through
``play()`` (every offered action accepted, a refused action changing nothing). Maps and records
embedding them must end in a clean verdict as ``fuzzlib``'s mutants do. The long run is
``benchmarks/fuzz_long.py`` (10^4 cases a kind).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from fuzzlib import check_map, check_record, mutant
from rulegen import check_ruleset, embedding_map, embedding_record_corpus, ruleset

LIMIT = 60.0
"""A case's time limit: generous, so a busy CI machine never fails a case merely slow there."""


def _defects(kind: str, seed: int, count: int) -> tuple[Counter[str], list[str]]:
    rng = random.Random(f"{kind}-{seed}")
    verdicts: Counter[str] = Counter()
    defects: list[str] = []
    for i in range(count):
        if kind == "ruleset":
            case: Any = ruleset(rng)
            verdict = check_ruleset(case, seed=i, limit=LIMIT)
        elif kind == "map":
            case = embedding_map(rng)
            verdict = check_map(case, limit=LIMIT, seed=i)
        else:
            case = mutant(embedding_record_corpus(), rng)
            verdict = check_record(case, limit=LIMIT)
        verdicts[verdict.kind] += 1
        if verdict.kind == "defect":
            defects.append(f"{verdict.detail}\n  case: {str(case)[:300]!r}")
    return verdicts, defects


@pytest.mark.parametrize("seed", range(3))
def test_generated_rule_sets_are_refused_or_play(seed: int) -> None:
    verdicts, defects = _defects("ruleset", seed, 50)
    assert not defects, "\n".join(defects[:5])
    # a meaningful generator: some refused, some played
    assert verdicts["refused"] > 0 and verdicts["valid"] > 0, verdicts


def test_maps_embedding_generated_rule_sets_end_cleanly() -> None:
    verdicts, defects = _defects("map", 0, 150)
    assert not defects, "\n".join(defects[:5])
    assert verdicts["refused"] > 0 and verdicts["valid"] > 0, verdicts


def test_records_of_games_under_generated_rule_sets_end_cleanly() -> None:
    verdicts, defects = _defects("record", 0, 100)
    assert not defects, "\n".join(defects[:5])
    assert verdicts["refused"] > 0 and verdicts["valid"] > 0, verdicts


def test_the_rule_set_verdict_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind of defect is reported as one: an offered action play() refuses, a refused
    action that changes the state, a checker that fails, a spec written back differently."""
    import rulegen

    from engine.rules.data import preset_dict
    from engine.rules.data.actions import SellWine, action_class
    from engine.rules.data.rules import DataRules

    data = preset_dict("france")
    data["name"] = "wine"
    assert check_ruleset(data).kind == "valid"

    real = DataRules.actions
    junk = action_class(SellWine, "sell_nothing")(None, "anywhere", ())  # no mechanic's type

    def offers_junk(self: DataRules, ctx: Any, phase: str) -> list[Any]:
        return [*real(self, ctx, phase), junk]

    monkeypatch.setattr(DataRules, "actions", offers_junk)
    monkeypatch.setattr(DataRules, "has_actions", lambda self, ctx, phase: True)
    verdict = check_ruleset(data, seed=1)  # random bots: the junk is taken soon
    assert verdict.kind == "defect" and "cannot apply" in verdict.detail
    monkeypatch.undo()

    def refused_but_changed(g: Any, offered: list[Any]) -> str | None:
        return "a refused pass changed the state"

    monkeypatch.setattr(rulegen, "_refused_changes_nothing", refused_but_changed)
    assert check_ruleset(data).detail == "accepted, then broken: a refused pass changed the state"
    monkeypatch.undo()

    monkeypatch.setattr(rulegen, "check_ruleset_dict", lambda d: [_Problem()])
    assert check_ruleset(data).detail.startswith("the checker failed")


class _Problem:
    path = ""
    message = "cannot check the rule set: boom"

    def __str__(self) -> str:
        return self.message
