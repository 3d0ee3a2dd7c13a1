"""The registry of rule sets: every rule set by its name, whether a module of this package or a
data rule set (a preset or a map's own file), one class per name.

The rule modules register themselves (:func:`engine.rules.base.register`) when imported; the
registry imports every module of this package on first use and keeps the error of any module
that fails to import, so an unknown name says why (:func:`import_errors`).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import traceback
from functools import lru_cache
from typing import Any

import engine.rules as rules_package
from engine.chips import RULE_CODES
from engine.errors import EngineError
from engine.mapdef import MapDef, UnreadableRuleSet
from engine.resources import schema_path
from engine.rules.base import Rules, registered
from engine.rules.chips_common import ChipRules
from engine.rules.data.rules import (
    GATED_EXCLUSION,
    DataRules,
    data_rules_class,
    mechanic_figures,
)
from engine.rules.data.ruleset import RuleSetSpec, preset_names, preset_spec
from engine.rules.spec import ChipLayout

DATA_PREFIX = "data:"
"""``"data:<preset>"`` names a preset played as data (``"data:france"``; docs/rule-sets.md).
It is the same class as the preset's name alone: one rule set, one identity."""

_NOT_RULE_SETS = frozenset(("base", "registry"))
"""Modules of the package that are not rule sets and need no import to find them."""

_import_errors: dict[str, str] = {}
_loaded = False


def _load_modules() -> None:
    """Import every module of ``engine.rules`` once (each registers its rule set), keeping the
    error of any that fails: a broken module must not hide the others, nor its reason."""
    global _loaded
    if _loaded:
        return
    for info in pkgutil.iter_modules(rules_package.__path__):
        if info.name in _NOT_RULE_SETS or info.name.startswith("_"):
            continue
        name = f"engine.rules.{info.name}"
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - kept and shown (import_errors, get_rules)
            last = traceback.extract_tb(exc.__traceback__)[-1]
            _import_errors[info.name] = (
                f"{type(exc).__name__}: {exc} ({last.filename}, line {last.lineno})"
            )
    _loaded = True


def import_errors() -> dict[str, str]:
    """Rule modules of this package that failed to import: module name -> the error, where."""
    _load_modules()
    return dict(_import_errors)


def available_rules() -> list[str]:
    """Names of every registered rule set (the package's modules are imported first)."""
    _load_modules()
    return sorted(registered())


def map_rule_set_names() -> list[str]:
    """The names a map file's ``rule_set`` may give (besides a data rule set): ``"none"`` and
    every registered Map-Chips rule set (:class:`~engine.rules.chips_common.ChipRules`),
    presets first in the order of the sheets, then any other by name. What the editor offers."""
    chips = {c.name for c in rule_set_classes() if issubclass(c, ChipRules)}
    presets = [p for p in preset_names() if p in chips]
    return ["none", *presets, *sorted(chips - set(presets))]


def map_schema() -> dict[str, Any]:
    """The map file schema (``schemas/map.schema.json``) with the registry's names filled in:
    a ``rule_set`` given as a name is one of :func:`map_rule_set_names`. The bundled file gives
    only the names' pattern, because the map reader sits below the rule sets; this is the schema
    to hand to other tools (``python -m engine info --map-schema``).

    >>> names = map_schema()["properties"]["rule_set"]["anyOf"][0]["enum"]
    >>> names[:3], "towns" in names
    (['none', 'france', 'benelux'], False)
    """
    schema: dict[str, Any] = json.loads(schema_path("map").read_text(encoding="utf-8"))
    schema["properties"]["rule_set"]["anyOf"][0]["enum"] = map_rule_set_names()
    return schema


def rule_set_classes() -> list[type[Rules]]:
    """Every registered rule set class, by name."""
    classes = registered()
    return [classes[name] for name in available_rules()]


def _unknown(name: str, known: list[str]) -> EngineError:
    broken = import_errors()
    why = "".join(
        f"; rule module engine.rules.{module} failed to import: {error}"
        for module, error in sorted(broken.items())
    )
    return EngineError(f"unknown rule set {name[:60]!r}; known: {', '.join(known) or 'none'}{why}")


def get_rules(name: str) -> type[Rules]:
    """The rule set class called ``name``; ``"data:<preset>"`` is the preset's own class.

    :raises EngineError: naming the unknown rule set, the known ones and every rule module that
        failed to import (with its error).
    """
    if not isinstance(name, str):
        raise EngineError(f"a rule set name must be a string, not {type(name).__name__}")
    if name.startswith(DATA_PREFIX):
        preset = name[len(DATA_PREFIX) :]
        if preset not in preset_names():
            raise EngineError(
                f"unknown preset {preset[:60]!r} in {name[:70]!r}; presets: "
                + ", ".join(preset_names())
            )
        return class_for_spec(preset_spec(preset))
    cls = registered().get(name)
    if cls is None:
        _load_modules()
        cls = registered().get(name)
    if cls is None:
        raise _unknown(name, available_rules())
    return cls


def class_for_spec(spec: RuleSetSpec) -> type[Rules]:
    """The class that plays data rule set ``spec``. A spec under a registered name is that
    rule set: its own class when the spec is the registered one's, else a class derived from
    it (its checks, codes and own report figures; the spec's mechanics and their figures). Any
    other spec gets a data rule set class of its own."""
    _load_modules()
    owner = registered().get(spec.name)
    if owner is None or not issubclass(owner, DataRules):
        return data_rules_class(spec)
    if owner.spec == spec:
        return owner
    return _derived(spec)


@lru_cache(maxsize=256)  # an editing session makes a spec per edit: bounded
def _derived(spec: RuleSetSpec) -> type[DataRules]:
    owner = registered()[spec.name]
    assert issubclass(owner, DataRules)
    # the owner's own figures, with those of its spec's mechanics replaced by this spec's
    old = mechanic_figures(owner.spec)
    figures = {k: v for k, v in owner.report_figures.items() if k not in old}
    attributes = {
        "__module__": owner.__module__,
        "spec": spec,
        "issue_codes": owner.issue_codes,
        "report_figures": {**figures, **mechanic_figures(spec)},
    }
    return type(owner.__name__, (owner,), attributes)


def map_rules(m: MapDef | str) -> type[Rules] | None:
    """The rule set class a map plays by default: its data rule set (embedded or in a file),
    or the rule set its ``rule_set`` names; ``None`` for ``"none"``. A name (``str``) is looked
    up as :func:`get_rules` does.

    :raises EngineError: an unknown name (naming the known ones), or a map whose rule set could
        not be read (:class:`~engine.mapdef.UnreadableRuleSet`).
    """
    if isinstance(m, str):
        return None if m == "none" else get_rules(m)
    return rules_for(None, m)


def chip_rule_codes() -> dict[str, str]:
    """Every chip-layout rule code with its meaning: :data:`engine.chips.RULE_CODES` and the
    exclusion codes of every rule set (``ChipLayout.excluded_code``)."""
    out = dict(RULE_CODES)
    for cls in rule_set_classes():
        if cls.chip_layout.excluded:
            out[cls.chip_layout.excluded_code] = cls.chip_layout.excluded_meaning
    out[GATED_EXCLUSION.excluded_code] = GATED_EXCLUSION.excluded_meaning
    return out


def map_chip_layout(m: MapDef) -> ChipLayout | None:
    """The chip layout of ``m``'s rule set (what :mod:`engine.chips` takes as ``chip_layout``);
    ``None`` without a rule set or when it cannot be read (the validator reports that)."""
    try:
        rules = map_rules(m)
    except EngineError:
        return None
    return rules.chip_layout if rules is not None else None


def rules_for(name: str | None, m: MapDef | None) -> type[Rules] | None:
    """The rule set class a game plays: ``name`` (``GameOptions.rule_set``; ``None``: the map's
    own), where the map's data rule set answers to its name; ``None`` for ``"none"``.

    :raises EngineError: as :func:`map_rules`.
    """
    if name is None:
        if m is None:
            return None
        name = m.rule_set.name
    if name == "none":
        return None
    if m is not None and name == m.rule_set.name:
        ref = m.rule_set
        if isinstance(ref, UnreadableRuleSet):
            raise EngineError(f"the map's rule set cannot be read: {ref.error}")
        if ref.spec is not None:
            return class_for_spec(ref.spec)
        known = map_rule_set_names()
        if name not in known:  # a map names a Map-Chips rule set, not any registered class
            raise _unknown(name, known)
    return get_rules(name)


__all__ = [
    "DATA_PREFIX",
    "available_rules",
    "chip_rule_codes",
    "class_for_spec",
    "get_rules",
    "import_errors",
    "map_chip_layout",
    "map_rule_set_names",
    "map_schema",
    "map_rules",
    "rule_set_classes",
    "rules_for",
]
