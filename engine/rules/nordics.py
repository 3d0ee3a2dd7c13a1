"""The Nordics preset (issue 26): the sheet written in the rule language, played by
:class:`engine.rules.data.DataRules`. What it adds, and the readings where the sheet is unknown:
docs/rule-language.md ("Presets from the later sheets") and engine/RULES.md ("Later sheets")."""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.data.rules import DataRules
from engine.rules.data.ruleset import preset_spec


@register
class NordicsRules(DataRules):
    spec = preset_spec("nordics")
    issue_codes = {}  # the data rule sets' ruleset-* codes (validation.CODES), as Deutschland


__all__ = ["NordicsRules"]
