"""The map's rule set as the editor edits it: plain data, no Qt.

A map plays a Map-Chips module by name (``"france"``), nothing (``"none"``), or a data rule set
(:mod:`engine.rules.data`) embedded in the map or kept in its own ``*.ruleset.json`` file beside
it. That is one frozen value on a :class:`MapDef`, its :data:`~engine.mapdef.RuleSetRef`, so one
undo command restores it exactly. The editor edits a data rule set as its dict (the file's
content): a dict with mistakes is kept as it is (:class:`~engine.mapdef.UnreadableRuleSet`'s
``raw``) and reported field by field, so a half-made change is never refused nor lost.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from engine import boundedio
from engine.mapdef import (
    EmbeddedRuleSet,
    FileRuleSet,
    MapDef,
    RuleSetRef,
    UnreadableRuleSet,
)
from engine.rules.data import (
    MECHANIC_KINDS,
    RuleSetProblem,
    check_ruleset_dict,
    preset_dict,
)
from engine.rules.data.lang import CONDITIONS, COSTS, EFFECTS, QUANTITIES, TRIGGERS, Kind
from engine.rules.data.lang_check import NESTING
from engine.rules.data.ruleset import (
    FORMAT,
    MAX_FILE_BYTES,
    NAME_PATTERN,
    VERSION,
    spec_of_valid_dict,
)
from engine.validation import Issue, Severity, Where, validate_map

FILE_SUFFIX = ".ruleset.json"
MAX_SHOWN_PROBLEMS = 40
"""At most this many ``ruleset-invalid`` lines in the issues list (the rest are summed up)."""

Path_ = tuple[str | int, ...]
"""A field of a rule-set dict: ``("mechanics", 0, "pay", "value")``."""


def content_of(ref: RuleSetRef) -> dict[str, Any] | None:
    """The data rule set's dict (a fresh copy), ``None`` for a module or an unread file."""
    if ref.spec is not None:
        out: dict[str, Any] = ref.spec.to_dict()
        return out
    if isinstance(ref, UnreadableRuleSet) and isinstance(ref.raw, dict):
        return copy.deepcopy(ref.raw)
    return None


def data_state(content: Any, file: str | None = None) -> RuleSetRef:
    """A map whose data rule set is ``content`` (embedded, or kept in ``file``): checked, and
    kept as written when it has mistakes (the first one is its ``error``)."""
    problems = check_ruleset_dict(content)
    if problems:
        name = content.get("name") if isinstance(content, dict) else None
        shown = name if isinstance(name, str) and re.fullmatch(NAME_PATTERN, name) else ""
        error = problem_line(problems[0], file)
        return UnreadableRuleSet(error, shown or "invalid", file, copy.deepcopy(content))
    spec = spec_of_valid_dict(content, file or "rule_set")
    return EmbeddedRuleSet(spec) if file is None else FileRuleSet(file, spec)


def problem_line(p: RuleSetProblem, file: str | None) -> str:
    """One problem as a line naming where it is: ``rule_set.supply.values: …`` (embedded) or
    ``italia.ruleset.json: supply.values: …``."""
    if file is not None:
        return f"{file}: {p}"
    return f"rule_set.{p}" if p.path else f"rule_set: {p.message}"


def problems_of(ref: RuleSetRef) -> list[RuleSetProblem]:
    """Every problem of the data rule set, field by field (``[]``: fine or not a data one)."""
    if not isinstance(ref, UnreadableRuleSet):
        return []
    if ref.raw is not None:
        return check_ruleset_dict(ref.raw)
    return [RuleSetProblem("", ref.error)]


def preset_content(name: str) -> dict[str, Any]:
    """Preset ``name`` as a new map's rule set: a copy that says what it is based on."""
    d = preset_dict(name)
    out: dict[str, Any] = {}
    for key, value in d.items():
        out[key] = value
        if key == "description":
            out["based_on"] = name
    out.setdefault("based_on", name)
    return out


def read_raw(path: Path) -> Any:
    """The JSON of a rule-set file that failed to load (bounded), so its mistakes can be fixed
    in the editor; ``None`` when it is not readable JSON."""
    try:
        return boundedio.read_json(path, limit=MAX_FILE_BYTES, what="rule set")
    except (boundedio.InputFileError, OSError):
        return None


def file_text(content: dict[str, Any]) -> str:
    """What a rule-set file holds (as :func:`engine.rules.data.save_ruleset` writes it)."""
    return json.dumps(content, indent=2, ensure_ascii=False) + "\n"


def storable(content: Any) -> dict[str, Any]:
    """``content`` with the marks a map file needs to embed it (``format``, ``version``)."""
    out = dict(content) if isinstance(content, dict) else {}
    if "format" not in out:
        out = {"format": FORMAT, "version": VERSION, **out}
    return out


# -- fields ------------------------------------------------------------------------------------


def path_text(path: Path_) -> str:
    """``("mechanics", 0, "pay")`` -> ``"mechanics[0].pay"`` (the problems' spelling)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def get(content: Any, path: Path_, default: Any = None) -> Any:
    """The value at ``path``, or ``default`` when it is missing or the dict is malformed."""
    obj = content
    for part in path:
        if isinstance(part, int):
            if not isinstance(obj, list) or not 0 <= part < len(obj):
                return default
        elif not isinstance(obj, dict) or part not in obj:
            return default
        obj = obj[part]
    return obj


def with_value(content: Any, path: Path_, value: Any) -> dict[str, Any]:
    """A copy of ``content`` with ``value`` at ``path`` (missing dicts made on the way)."""
    out = storable(copy.deepcopy(content))
    obj: Any = out
    for part, nxt in zip(path[:-1], path[1:], strict=True):
        if isinstance(part, int):
            obj = obj[part]
            continue
        if not isinstance(obj.get(part), dict | list):
            obj[part] = [] if isinstance(nxt, int) else {}
        obj = obj[part]
    obj[path[-1]] = copy.deepcopy(value)
    return out


def kind_params(group: str, kind: str) -> dict[str, dict[str, Any]]:
    """The parameters of a kind (:data:`MECHANIC_KINDS`), ``{}`` for an unknown one."""
    params: dict[str, dict[str, Any]] = (
        MECHANIC_KINDS.get(group, {}).get(kind, {}).get("params", {})
    )
    return params


def kind_dict(group: str, kind: str) -> dict[str, Any]:
    """A ``pay`` / ``reward`` dict of ``kind`` with every parameter at its default."""
    out: dict[str, Any] = {"kind": kind}
    for name, info in kind_params(group, kind).items():
        out[name] = copy.deepcopy(info["default"])
    if kind == "points" and group == "reward":
        out["points"] = {w: out["points"].get(w, 3) for w in out["where"]}
    return out


MECHANIC_TEMPLATES: dict[str, dict[str, Any]] = {
    "points": {"when": "after", "pay": ("exact_value_one_colour", {"value": 2}), "limit": "round"},
    "extra_turn": {"when": "after", "pay": ("none", {}), "limit": "round"},
    "upgrade_meeple": {"when": "action", "pay": ("exact_total_any", {"value": 4}), "limit": "none"},
    "island_tile": {"when": "draw", "pay": ("one_chip_of_colour", {}), "limit": "none"},
    "treat": {"when": "after", "pay": ("exact_total_any", {"value": 2}), "limit": "round"},
    "free_parked_meeples": {
        "when": "action",
        "pay": ("set", {"size": 3}),
        "limit": "none",
    },
}
"""How a new mechanic with each reward starts (a combination the sheets use)."""


def new_mechanic(content: Any, reward: str) -> dict[str, Any]:
    """A new mechanic with ``reward``, its id and action unique in ``content``."""
    mechanics = get(content, ("mechanics",), [])
    taken = {m.get("id") for m in mechanics if isinstance(m, dict)}
    taken |= {m.get("action") for m in mechanics if isinstance(m, dict)}
    base = reward if reward != "points" else "sell"
    mid, n = base, 2
    while mid in taken:
        mid, n = f"{base}_{n}", n + 1
    template = MECHANIC_TEMPLATES[reward]
    pay_kind, pay_values = template["pay"]
    label = str(MECHANIC_KINDS["reward"][reward]["label"])
    return {
        "id": mid,
        "title": label.split(",")[0][:80],
        "action": mid,
        "when": template["when"],
        "pay": {**kind_dict("pay", pay_kind), **pay_values},
        "reward": kind_dict("reward", reward),
        "limit": template["limit"],
    }


def mechanic_summary(m: Any) -> str:
    """One line for a list of mechanics: ``Sell wine: exact value of one colour -> points``."""
    if not isinstance(m, dict):
        return "(not a mechanic)"
    title = m.get("title") or m.get("id") or "?"
    pay = get(m, ("pay", "kind"), "?")
    reward = get(m, ("reward", "kind"), "?")
    return f"{title}  ({str(pay).replace('_', ' ')} → {str(reward).replace('_', ' ')})"


# -- the schema's bounds -----------------------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    from engine.resources import schema_path

    data: dict[str, Any] = json.loads(schema_path("ruleset").read_text(encoding="utf-8"))
    return data


def _node(path: Path_) -> dict[str, Any]:
    schema = _schema()
    node: dict[str, Any] = schema
    for part in path:
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            props = node.get("properties", {})
            if part in props:
                node = props[part]
            else:
                node = next(iter(node.get("patternProperties", {}).values()), {})
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def bounds(path: Path_) -> tuple[int, int]:
    """The schema's ``minimum`` and ``maximum`` of an integer field (``0, 99`` if it has none)."""
    node = _node(path)
    return int(node.get("minimum", 0)), int(node.get("maximum", 99))


def description(path: Path_) -> str:
    """The schema's description of a field (``""`` if it has none)."""
    return str(_node(path).get("description", ""))


def choices(path: Path_) -> list[Any]:
    """The values the schema allows at ``path`` (its ``enum``; ``[]`` when it has none), so a
    value the language adds (a new chooser) is offered without editor code."""
    return list(_node(path).get("enum", []))


def max_items(path: Path_, default: int) -> int:
    """The schema's ``maxItems`` of the list at ``path`` (``default`` where it says none, as
    inside a condition, whose branches the path does not follow)."""
    return int(_node(path).get("maxItems", default))


def quantity_schema() -> dict[str, Any]:
    """The schema of a quantity (a number, or what to count times a factor, at most max)."""
    node: dict[str, Any] = _schema()["$defs"]["quantity"]
    return node


# -- validation --------------------------------------------------------------------------------


def validate(m: MapDef) -> list[Issue]:
    """:func:`engine.validation.validate_map`, with every mistake of a data rule set being edited
    listed (``ruleset-invalid``, one per field) rather than the first only. Runs in the
    validation helper process."""
    issues = validate_map(m)
    ref = m.rule_set
    if not isinstance(ref, UnreadableRuleSet) or ref.raw is None:
        return issues
    problems = check_ruleset_dict(ref.raw)
    if len(problems) < 2:
        return issues
    lines = [problem_line(p, ref.file) for p in problems[:MAX_SHOWN_PROBLEMS]]
    if len(problems) > MAX_SHOWN_PROBLEMS:
        lines.append(f"… and {len(problems) - MAX_SHOWN_PROBLEMS} more mistakes in the rule set")
    out = [i for i in issues if i.code != "ruleset-invalid"]
    return out + [Issue(Severity.ERROR, "ruleset-invalid", line, Where()) for line in lines]


# -- the rule language: resources, marks, rules -----------------------------------------------

LANG_LISTS = ("resources", "marks", "rules")
"""The rule language's lists, each edited as a list with one entry's form."""
TERM_TABLES: dict[str, dict[str, Kind]] = {"if": CONDITIONS, "cost": COSTS, "then": EFFECTS}
"""A rule's lists of terms (conditions, costs, effects) and the table of their kinds."""
SHEET_SETUP = {"start_squares": 3, "start_squares_used": 2, "chips": 30}
"""The setup a rule set says it is designed for, when the designer first gives one."""


def _unique_id(content: Any, key: str, base: str) -> str:
    entries = get(content, (key,), [])
    taken = (
        {e.get("id") for e in entries if isinstance(e, dict)}
        if isinstance(entries, list)
        else set()
    )
    out, n = base, 2
    while out in taken:
        out, n = f"{base}_{n}", n + 1
    return out


def new_entry(content: Any, key: str) -> dict[str, Any]:
    """A new resource, mark or rule (``key``), its id unique in ``content``; a new rule gives
    a point when a tile is placed, so it is valid as it starts."""
    if key in ("resources", "marks"):
        base, icon = ("resource", "coin") if key == "resources" else ("mark", "star")
        eid = _unique_id(content, key, base)
        named = {"id": eid, "name": eid.replace("_", " ").capitalize(), "colour": "#808080"}
        if key == "resources":
            return {**named, "icon": icon, "start": 0, "supply": None}
        chips = {"count": 0, "face": "down"}
        return {
            **named,
            "icon": icon,
            "takes_tile": True,
            "closes": False,
            "opens": "never",
            "chips": chips,
        }
    rid = _unique_id(content, key, "rule")
    return {
        "id": rid,
        "title": rid.replace("_", " ").capitalize(),
        "when": "tile_placed",
        "if": [],
        "cost": [],
        "then": [{"kind": "points", "amount": 1}],
        "choice": "compulsory",
        "chooser": "current",
        "limits": [],
    }


def entry_summary(key: str, entry: Any) -> str:
    """One line for a list of resources, marks or rules, in the designer's words."""
    if not isinstance(entry, dict):
        return "(not an object)"
    name = entry.get("name") or entry.get("title") or entry.get("id") or "?"
    if key == "rules":
        trigger = TRIGGERS.get(str(entry.get("when")))
        return f"{name}  (when: {trigger.label.lower() if trigger else entry.get('when')})"
    return str(name)


def id_choices(content: Any, key: str) -> list[str]:
    """The ids of the rule set's resources or marks, to choose from."""
    entries = get(content, (key,), [])
    ids = [e.get("id") for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    return [i for i in ids if isinstance(i, str)]


def param_default(info: dict[str, Any], content: Any, name: str) -> Any:
    """A starting value for a term's parameter (its schema fragment ``info``)."""
    if "enum" in info:
        return info["enum"][0]
    if info.get("type") == "integer":
        return max(int(info.get("minimum", 0)), 1)
    if info.get("type") == "boolean":
        return False
    if info.get("type") == "array":
        return [1] if name == "points" else [{"kind": "is_current"}]  # ``of``: one condition
    if info.get("type") == "object":
        return {"kind": "is_current"}
    if info.get("type") == "string":
        ids = id_choices(content, "marks" if name == "mark" else "resources")
        return ids[0] if ids else ("chips" if name != "mark" else "")
    if name == "values":
        return {"road": 1}
    return 1  # a quantity: a number


def term_dict(content: Any, group: str, kind: str) -> dict[str, Any]:
    """A condition, cost or effect (``group``: ``if``, ``cost``, ``then``) of ``kind``, its
    required parameters at a starting value."""
    info = TERM_TABLES[group][kind]
    out: dict[str, Any] = {"kind": kind}
    for name in info.required:
        out[name] = param_default(info.params[name], content, name)
    return out


def quantity_value(content: Any, count: str | None) -> Any:
    """A quantity starting as ``count`` (``None``: the number 1), its required parameters at a
    starting value."""
    if count is None:
        return 1
    info = QUANTITIES[count]
    out: dict[str, Any] = {"count": count}
    for name in info.required:
        out[name] = param_default(info.params[name], content, name)
    return out


def condition_table(level: int) -> dict[str, Kind]:
    """The conditions allowed at nesting ``level`` (1: a rule's own): the deepest level has no
    ``all`` / ``any`` / ``not`` (the schema bounds nesting)."""
    if level < NESTING:
        return CONDITIONS
    return {k: v for k, v in CONDITIONS.items() if k not in NESTED}


NESTED = ("all", "any", "not")
"""The conditions made of conditions."""


def skeleton(value: Any) -> Any:
    """What a form for ``value`` is made of: its kinds, what its quantities count, its lists'
    lengths and which parameters are objects or lists, not the numbers and names (a form is
    rebuilt when this changes; typing a number does not rebuild it)."""
    if isinstance(value, dict):
        return tuple(
            (k, v if k in ("kind", "count") else skeleton(v))
            for k, v in sorted(value.items())
            if k in ("kind", "count") or isinstance(v, dict | list)
        )
    if isinstance(value, list):
        return ("list", tuple(skeleton(v) for v in value))
    return "."


def without(content: Any, path: Path_) -> dict[str, Any]:
    """A copy of ``content`` without the (optional) field at ``path``."""
    out = storable(copy.deepcopy(content))
    holder = get(out, path[:-1])
    if isinstance(holder, dict):
        holder.pop(path[-1], None)
    elif isinstance(holder, list) and isinstance(path[-1], int) and path[-1] < len(holder):
        holder.pop(path[-1])
    return out
