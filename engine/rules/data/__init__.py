"""Rule sets as data: a Map-Chips mini-expansion composed in a JSON file, no code.

The public API (docs/rule-sets.md, "Rule sets as data"):

* :class:`RuleSetSpec` (``from_dict`` / ``to_dict``), :func:`load_ruleset`, :func:`save_ruleset`,
  :func:`check_ruleset_dict` (every problem, one line each), :class:`RuleSetError`,
  :class:`RuleSetProblem`;
* the five official mini-expansions as presets: :func:`preset_names`, :func:`preset_dict`,
  :func:`preset_spec`;
* :data:`MECHANIC_KINDS`: every kind and parameter, for user interfaces;
* :func:`data_rules_class`: the :class:`~engine.rules.base.Rules` class that plays a spec;
* the rule language (docs/rule-language.md): its vocabulary in :mod:`.lang`, its schema fragment
  and checks in :mod:`.lang_check`, its play in :mod:`.interpret`.
"""

from engine.rules.data.rules import DataRules, DataState, data_rules_class
from engine.rules.data.ruleset import (
    MECHANIC_KINDS,
    PRINT_NAMES,
    RuleSetError,
    RuleSetProblem,
    RuleSetSpec,
    check_ruleset_dict,
    load_ruleset,
    preset_dict,
    preset_names,
    preset_spec,
    save_ruleset,
)

__all__ = [
    "DataRules",
    "DataState",
    "data_rules_class",
    "MECHANIC_KINDS",
    "PRINT_NAMES",
    "RuleSetError",
    "RuleSetProblem",
    "RuleSetSpec",
    "check_ruleset_dict",
    "load_ruleset",
    "preset_dict",
    "preset_names",
    "preset_spec",
    "save_ruleset",
]
