"""The examples in docs/rule-sets.md run."""

from __future__ import annotations

import doctest
from pathlib import Path

import engine.rules.base as rules_base
import engine.rules.registry as rules_registry

DOC = Path(__file__).resolve().parent.parent / "docs" / "rule-sets.md"


def test_rule_sets_doc_examples_run(monkeypatch) -> None:
    # the doc registers an example rule set: keep the registry as it was afterwards (with every
    # module registered first: one imported only into the copy would be lost with it)
    rules_registry.available_rules()
    monkeypatch.setattr(rules_base, "_REGISTERED", dict(rules_base._REGISTERED))
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20
    assert result.failed == 0
