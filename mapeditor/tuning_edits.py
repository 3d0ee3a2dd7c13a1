"""A tuner's answer applied to the open map as one undo step.

The tuner (:mod:`engine.analysis.tune`) searches settings that a game takes from the map file
(the tiles played, the start squares used, the chips laid out), numbers inside the map's data
rule set (``ruleset/PATH``), where its start squares lie (``start.NAME``) and options that a
game is given when it is played (the rest of ``rule.NAME``). All but the last have a place in
the map; the others are named back to the designer, never dropped silently.

A rule set kept in its own file is never tuned in place: the tuned rule set goes to a new file
beside it (``NAME.tuned.ruleset.json``, :func:`engine.analysis.candidate.tuned_path`), written
before the undo step, and the map names that file. Undo names the original again; the new file
stays on disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.analysis.candidate import answer_edits, candidate_map, tuned_name, tuned_path
from engine.geometry import Square
from engine.mapdef import FileRuleSet, MapDef, RuleSetRef, StartSquare
from engine.rules.data import save_ruleset
from mapeditor.commands import change_attributes, change_entries, set_rule_set
from mapeditor.document import ABSENT, MapDocument

__all__ = ["TuningPlan", "apply_tuning", "tuning_changes"]

PLAY_OPTION = "a play option of the rule set: the map file has no field for it"
CHIP_COUNT = "ruleset/layout/count"
"""Where a data rule set that fixes its chips laid out keeps the number (``rule.chip_count``
overrides it in a game)."""


@dataclass
class TuningPlan:
    """What a tuner's answer changes in a map: setup ``fields``, ``starts`` (start-square
    entries; :data:`~mapeditor.document.ABSENT` removes one), the new ``rule_set`` (``None``:
    unchanged), the new rule-set file to write first (``ruleset_file``, ``None``: none) and the
    values the map cannot hold, by name, each with why (``left``)."""

    fields: dict[str, Any] = field(default_factory=dict)
    starts: dict[Square, StartSquare | object] = field(default_factory=dict)
    rule_set: RuleSetRef | None = None
    ruleset_file: Path | None = None
    left: dict[str, str] = field(default_factory=dict)


def _chip_count_param(m: MapDef) -> str | None:
    """``ruleset/layout/count`` when the map's data rule set fixes the chips laid out."""
    spec = m.rule_set.spec
    return CHIP_COUNT if spec is not None and spec.layout.count is not None else None


def tuning_changes(
    m: MapDef, values: Mapping[str, Any], map_path: Path | None = None
) -> TuningPlan:
    """What the tuner's ``values`` change in ``m`` (saved at ``map_path``, ``None`` when
    unsaved): a rule-set file's tuned rule set is named ``NAME.tuned.ruleset.json`` beside it.

    >>> from engine.mapdef import MapDef
    >>> m = MapDef(id="m", name="M", width=2, height=2)
    >>> plan = tuning_changes(
    ...     m, {"tile_count": 92, "start_squares": 3, "rule.ones_per_colour": 2}
    ... )
    >>> plan.fields
    {'setup.tile_pool_max': 92, 'setup.tile_pool_min': 92, 'setup.start_squares_used': 3}
    >>> plan.left
    {'rule.ones_per_colour': 'a play option of the rule set: the map file has no field for it'}

    :raises EngineError: a value naming nothing on this map; ``CandidateRefused``: values the
        rule-set checker or the map refuses.
    """
    plan = TuningPlan()
    edits = dict(answer_edits(dict(values)))
    for name, value in values.items():
        if name == "tile_count":
            # a game plays the map's tile_pool_max tiles (engine.game: the recommendation's top)
            plan.fields["setup.tile_pool_max"] = value
            if m.setup.tile_pool_min > value:
                plan.fields["setup.tile_pool_min"] = value
        elif name == "start_squares":
            plan.fields["setup.start_squares_used"] = value
        elif name == "rule.chip_count":
            # the option's default is the rule set's own count, else the map's setup
            plan.fields.update({} if _chip_count_param(m) else {"setup.chip_count": value})
            edits.update({CHIP_COUNT: value} if _chip_count_param(m) else {})
        elif name.startswith("rule."):
            plan.left[name] = PLAY_OPTION
    tuned = candidate_map(m, sorted(edits.items()), validate=True)
    if tuned.rule_set != m.rule_set:
        plan.rule_set = tuned.rule_set
        ref = tuned.rule_set
        if isinstance(ref, FileRuleSet):  # never over the original: a new name beside it
            file = Path(ref.file)
            if map_path is None:  # written beside the map when it is first saved
                new_name = tuned_name(file.name)
            else:
                plan.ruleset_file = tuned_path(map_path.parent / file.parent, file.name)
                new_name = plan.ruleset_file.name
            plan.rule_set = FileRuleSet((file.parent / new_name).as_posix(), ref.spec)
    for sq in m.start_squares.keys() | tuned.start_squares.keys():
        new = tuned.start_squares.get(sq, ABSENT)
        if m.start_squares.get(sq, ABSENT) != new:
            plan.starts[sq] = new
    return plan


def apply_tuning(
    document: MapDocument, values: Mapping[str, Any]
) -> tuple[dict[str, str], Path | None]:
    """Put ``values`` in the map as one undo step ("Apply tuning"), writing a tuned rule-set
    file first when the map names one; returns the values not applied (by name, each with why)
    and the rule-set file written (``None``: none).

    :raises EngineError: as :func:`tuning_changes` (nothing changed); ``OSError``: the rule-set
        file could not be written (nothing changed).
    """
    plan = tuning_changes(document.map, values, document.path)
    if plan.rule_set is None and not plan.starts and not plan.fields:
        return plan.left, None
    if plan.ruleset_file is not None and plan.rule_set is not None:
        spec = plan.rule_set.spec
        assert spec is not None
        save_ruleset(spec, plan.ruleset_file)
    stack = document.undo_stack
    stack.beginMacro("Apply tuning")
    try:
        if plan.rule_set is not None:
            set_rule_set(document, plan.rule_set, "Apply tuning")
        if plan.starts:
            change_entries(document, "start_squares", plan.starts, "Apply tuning")
        if plan.fields:
            change_attributes(document, plan.fields, "Apply tuning")
    finally:
        stack.endMacro()
    return plan.left, plan.ruleset_file
