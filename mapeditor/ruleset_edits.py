"""Every edit of a map's rule set, as one undoable :class:`~mapeditor.commands.SetRuleSet`.

The Rule set dock and the properties dock call these; none touches a widget. A data rule set is
edited as its dict (see :mod:`mapeditor.ruleset_data`), so a value that makes it invalid is kept
and reported rather than refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.mapdef import NamedRuleSet
from engine.rules.data import RuleSetError, load_ruleset
from engine.rules.data.lang import LIMIT_PER
from mapeditor.commands import set_rule_set
from mapeditor.document import MapDocument
from mapeditor.ruleset_data import (
    FILE_SUFFIX,
    Path_,
    content_of,
    data_state,
    get,
    kind_dict,
    new_entry,
    new_mechanic,
    path_text,
    preset_content,
    storable,
    term_dict,
    with_value,
    without,
)


def content(document: MapDocument) -> dict[str, Any] | None:
    """The map's data rule set as a dict (a copy), ``None`` without one."""
    return content_of(document.map.rule_set)


def _edit(document: MapDocument, new: dict[str, Any], text: str, merge_key: object = None) -> bool:
    file = document.map.rule_set.file
    return set_rule_set(document, data_state(new, file), text, merge_key=merge_key)


def use_module(document: MapDocument, name: str) -> bool:
    """Play the Map-Chips module ``name`` (``"none"``: none): a data rule set is dropped (undo
    brings it back)."""
    return set_rule_set(document, NamedRuleSet(name), f"Use rule set {name}")


def use_preset(document: MapDocument, name: str) -> bool:
    """Copy preset ``name`` into the map as its own (embedded) data rule set."""
    return set_rule_set(document, data_state(preset_content(name)), f"Use preset {name}")


def set_field(document: MapDocument, path: Path_, value: Any) -> bool:
    """Set one field of the data rule set; edits of the same field in a row are one undo step."""
    current = content(document)
    if current is None or get(current, path, object()) == value:
        return False
    field = path_text(path)
    return _edit(
        document, with_value(current, path, value), f"Change {field}", ("rule-set field", field)
    )


def supply_total(content: Any) -> int | None:
    """How many chips a rule-set dict's supply holds (colours × per colour), ``None`` when the
    supply is not readable yet."""
    colours = get(content, ("supply", "colours"), None)
    per_colour = get(content, ("supply", "per_colour"), None)
    if not isinstance(colours, list) or not isinstance(per_colour, int):
        return None
    return len(colours) * per_colour


def set_supply(document: MapDocument, path: Path_, value: Any) -> bool:
    """Change a field of the chip supply; the sheet set-up's chip count follows when it was the
    whole supply (30 of 30 becomes 12 of 12), so a smaller supply stays valid in one step."""
    current = content(document)
    if current is None or get(current, path, object()) == value:
        return False
    new = with_value(current, path, value)
    before, after = supply_total(current), supply_total(new)
    if get(current, ("sheet_setup", "chips"), None) == before and after is not None:
        new = with_value(new, ("sheet_setup", "chips"), after)
    field = path_text(path)
    return _edit(document, new, f"Change {field}", ("rule-set field", field))


SHEET_SETUP_DEFAULTS = {"start_squares": 3, "start_squares_used": 2}
"""A new sheet set-up's start squares (every official sheet's); its chips: the whole supply."""


def set_sheet_setup(document: MapDocument, field: str, value: int) -> bool:
    """Set one number of the set-up the rule set is designed for (``start_squares``,
    ``start_squares_used``, ``chips``), making the set-up when the rule set has none."""
    current = content(document)
    if current is None:
        return False
    setup = get(current, ("sheet_setup",), None)
    if not isinstance(setup, dict):
        setup = {**SHEET_SETUP_DEFAULTS, "chips": supply_total(current) or 30}
    if setup.get(field) == value:
        return False
    setup = {**setup, field: value}
    return _edit(
        document,
        with_value(current, ("sheet_setup",), setup),
        f"Change sheet_setup.{field}",
        ("rule-set field", f"sheet_setup.{field}"),
    )


def set_kind(document: MapDocument, index: int, group: str, kind: str) -> bool:
    """Change mechanic ``index``'s ``pay`` or ``reward`` kind; its parameters start at their
    defaults."""
    current = content(document)
    if current is None or get(current, ("mechanics", index, group, "kind")) == kind:
        return False
    new = with_value(current, ("mechanics", index, group), kind_dict(group, kind))
    return _edit(document, new, f"Change mechanics[{index}].{group} to {kind}")


def add_mechanic(document: MapDocument, reward: str) -> int | None:
    """Append a mechanic with ``reward`` (its other parts as a sheet has them); its index."""
    current = content(document)
    if current is None:
        return None
    mechanics = list(get(current, ("mechanics",), []))
    mechanics.append(new_mechanic(current, reward))
    _edit(document, with_value(current, ("mechanics",), mechanics), f"Add a {reward} mechanic")
    return len(mechanics) - 1


def remove_mechanic(document: MapDocument, index: int) -> bool:
    """Remove mechanic ``index``."""
    current = content(document)
    mechanics = list(get(current, ("mechanics",), []))
    if current is None or not 0 <= index < len(mechanics):
        return False
    gone = mechanics.pop(index)
    name = gone.get("id", index) if isinstance(gone, dict) else index
    return _edit(
        document, with_value(current, ("mechanics",), mechanics), f"Remove mechanic {name}"
    )


def clear_field(document: MapDocument, path: Path_) -> bool:
    """Remove an optional field of the data rule set (its default applies again)."""
    current = content(document)
    if current is None or get(current, path, None) is None:
        return False
    return _edit(document, without(current, path), f"Clear {path_text(path)}")


def add_entry(document: MapDocument, key: str) -> int | None:
    """Append a new resource, mark or rule (``key``: ``resources``, ``marks``, ``rules``);
    its index."""
    current = content(document)
    if current is None:
        return None
    entries = get(current, (key,), [])
    entries = list(entries) if isinstance(entries, list) else []
    entries.append(new_entry(current, key))
    what = key[:-1]
    _edit(document, with_value(current, (key,), entries), f"Add a {what}")
    return len(entries) - 1


def remove_item(document: MapDocument, path: Path_) -> bool:
    """Remove the list item at ``path`` (a resource, a mark, a rule, or a rule's condition,
    cost, effect or limit)."""
    current = content(document)
    if current is None or get(current, path, None) is None:
        return False
    return _edit(document, without(current, path), f"Remove {path_text(path)}")


def add_term(document: MapDocument, at: Path_, group: str, kind: str) -> bool:
    """Append a condition, cost or effect (``group``: ``if``, ``cost``, ``then``) of ``kind``
    to the list at ``at`` (a rule's ``if`` / ``cost`` / ``then``, or an ``all`` / ``any``
    condition's ``of``), its required parameters at a starting value."""
    current = content(document)
    if current is None or not isinstance(get(current, at[:-1]), dict):
        return False
    terms = get(current, at, [])
    terms = [*terms, term_dict(current, group, kind)] if isinstance(terms, list) else []
    return _edit(document, with_value(current, at, terms), f"Add {kind} to {path_text(at)}")


def move_item(document: MapDocument, path: Path_, step: int) -> bool:
    """Move the list item at ``path`` ``step`` places (-1: up, 1: down), within its list."""
    current = content(document)
    items = get(current, path[:-1], None)
    index = path[-1]
    if not isinstance(items, list) or not isinstance(index, int):
        return False
    to = index + step
    if not (0 <= index < len(items) and 0 <= to < len(items)):
        return False
    items = list(items)
    items[index], items[to] = items[to], items[index]
    where = "up" if step < 0 else "down"
    return _edit(document, with_value(current, path[:-1], items), f"Move {path_text(path)} {where}")


def set_term_kind(document: MapDocument, path: Path_, group: str, kind: str) -> bool:
    """Change the kind of the term at ``path``; its parameters start again."""
    current = content(document)
    if current is None or get(current, (*path, "kind")) == kind:
        return False
    new = with_value(current, path, term_dict(current, group, kind))
    return _edit(document, new, f"Change {path_text(path)} to {kind}")


def add_limit(document: MapDocument, rule: int) -> bool:
    """Add a limit to rule ``rule``: once per game, or per the first period it has none for."""
    current = content(document)
    at: Path_ = ("rules", rule, "limits")
    if current is None or not isinstance(get(current, ("rules", rule)), dict):
        return False
    limits = get(current, at, [])
    limits = list(limits) if isinstance(limits, list) else []
    used = {x.get("per") for x in limits if isinstance(x, dict)}
    per = next((p for p in LIMIT_PER if p not in used), LIMIT_PER[0])
    limits.append({"per": per, "times": 1})
    return _edit(document, with_value(current, at, limits), f"Add a limit to {path_text(at)}")


def keep_in_file(document: MapDocument, file_name: str) -> bool:
    """Keep the data rule set in its own file ``file_name`` (beside the map; written when the
    map is saved) instead of embedding it."""
    current = content(document)
    if current is None:
        return False
    return set_rule_set(
        document, data_state(current, file_name), f"Keep the rule set in {file_name}"
    )


def embed(document: MapDocument) -> bool:
    """Embed the data rule set in the map again (its file is left as it is)."""
    current = content(document)
    if current is None:
        return False
    return set_rule_set(document, data_state(storable(current)), "Embed the rule set in the map")


def load_file(document: MapDocument, path: Path) -> str:
    """Use the rule-set file ``path``: named by the map when it lies in the map's folder,
    otherwise copied in (embedded). Returns what was done, in words.

    :raises RuleSetError: the file cannot be used (one line naming the file and the field).
    """
    spec = load_ruleset(path)
    folder = document.path.parent.resolve() if document.path is not None else None
    if folder is not None and path.resolve().parent == folder:
        set_rule_set(document, data_state(spec.to_dict(), path.name), f"Use {path.name}")
        return f"The map now names {path.name}"
    set_rule_set(document, data_state(spec.to_dict()), f"Copy in {path.name}")
    if folder is None:
        return f"The map has no folder yet: the rule set of {path.name} was copied into it"
    return f"{path.name} is not in the map's folder: its rule set was copied into the map"


def default_file_name(document: MapDocument) -> str:
    """A file name for the rule set: ``<name>.ruleset.json``."""
    current = content(document) or {}
    name = current.get("name") if isinstance(current.get("name"), str) else None
    return f"{name or document.map.id or 'rules'}{FILE_SUFFIX}"


__all__ = [
    "RuleSetError",
    "add_entry",
    "add_limit",
    "add_mechanic",
    "add_term",
    "clear_field",
    "content",
    "default_file_name",
    "embed",
    "keep_in_file",
    "load_file",
    "move_item",
    "remove_item",
    "remove_mechanic",
    "set_field",
    "set_kind",
    "set_term_kind",
    "use_module",
    "use_preset",
]
