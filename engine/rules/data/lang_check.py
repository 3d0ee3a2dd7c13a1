"""The rule language's JSON Schema fragment and the checks the schema cannot make.

:func:`schema_defs` builds the ``$defs`` of ``resources``, ``marks`` and ``rules`` from the
vocabulary tables of :mod:`engine.rules.data.lang` (``tests/engine/rules/test_rule_language.py``
keeps ``schemas/ruleset.schema.json`` equal to it); nesting of ``all`` / ``any`` / ``not`` is
bounded by the schema (three levels). :func:`lang_problems` lists what the schema lets through:
unknown ids, a condition or effect needing a fact its trigger does not fill, an offer with no
phase to be offered in, chips taken from a supply the layout does not make...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.rules.data.lang import (
    CHOOSERS,
    CONDITIONS,
    COSTS,
    EFFECTS,
    ICONS,
    ID,
    LIMIT_PER,
    MAX_ITEMS,
    MAX_MARKS,
    MAX_RESOURCES,
    MAX_RULES,
    OFFER_ONLY,
    QUANTITIES,
    TRIGGERS,
    Kind,
    enum_schema,
    int_schema,
)

NESTING = 3
"""Levels of conditions (``all`` of ``any`` of a plain condition)."""

_COLOUR = {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$", "description": "#rrggbb"}


def _id(doc: str) -> dict[str, Any]:
    return {"type": "string", "pattern": ID, "description": doc}


def _name(doc: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": 40, "description": doc}


def _bool(doc: str) -> dict[str, Any]:
    return {"type": "boolean", "description": doc}


def _named(description: str, properties: dict[str, Any]) -> dict[str, Any]:
    """An object with an ``id`` and a ``name`` (a resource, a mark)."""
    return {
        "type": "object",
        "required": ["id", "name"],
        "additionalProperties": False,
        "description": description,
        "properties": properties,
    }


def _icon() -> dict[str, Any]:
    return enum_schema(ICONS, "the icon drawn for it")


def _kinds(
    table: dict[str, Kind], what: str, ref: Callable[[str], Any] | None = None
) -> dict[str, Any]:
    branches = []
    for name, k in table.items():
        params = dict(k.params)
        if ref is not None and "of" in params:
            params["of"] = ref(name)
        then: dict[str, Any] = {"propertyNames": {"enum": ["kind", *params]}}
        if params:
            then["properties"] = params
        if k.required:
            then["required"] = list(k.required)
        branches.append({"if": {"properties": {"kind": {"const": name}}}, "then": then})
    return {
        "type": "object",
        "required": ["kind"],
        "description": what,
        "properties": {"kind": {"enum": list(table), "description": "the kind"}},
        "allOf": branches,
    }


def schema_defs() -> dict[str, Any]:
    """The ``$defs`` the rule language adds to the rule-set schema."""
    out: dict[str, Any] = {}
    for level in range(1, NESTING + 1):
        table = dict(CONDITIONS)
        if level == NESTING:
            for name in ("all", "any", "not"):
                del table[name]
        inner = f"#/$defs/condition{level + 1}"

        def ref(name: str, inner: str = inner) -> dict[str, Any]:
            if name == "not":
                return {"$ref": inner}
            return {"type": "array", "minItems": 1, "maxItems": MAX_ITEMS, "items": {"$ref": inner}}

        out[f"condition{level}"] = _kinds(table, f"a condition (nesting level {level})", ref)
    out["quantity"] = {
        "type": ["integer", "object"],
        "minimum": -50,
        "maximum": 50,
        "required": ["count"],
        "additionalProperties": False,
        "description": "a number, or what to count times a factor, at most max",
        "properties": {
            "count": {"enum": list(QUANTITIES), "description": "what is counted"},
            "times": {"type": "integer", "minimum": -10, "maximum": 10, "description": "factor"},
            "max": {"type": "integer", "minimum": 0, "maximum": 200, "description": "at most"},
            **{p: s for k in QUANTITIES.values() for p, s in k.params.items()},
        },
    }
    out["effect"] = _kinds(EFFECTS, "what the rule does")
    out["cost"] = _kinds(COSTS, "what the rule costs")
    out["resource"] = _named(
        "a named token players hold",
        {
            "id": _id("the resource's id in rules"),
            "name": _name("the name players see (score board, log, report)"),
            "colour": _COLOUR,
            "icon": _icon(),
            "start": int_schema(0, 99, "what each player holds at the start"),
            "supply": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 999,
                "description": "tokens beside the map; null: as many as needed",
            },
        },
    )
    out["mark"] = _named(
        "a square mark the designer prints on maps",
        {
            "id": _id("the mark's id in rules and on maps"),
            "name": _name("the name the editor's tool and the legend show"),
            "colour": _COLOUR,
            "icon": _icon(),
            "takes_tile": _bool("a tile may be placed on the square (default true)"),
            "closes": _bool("a square taking no tile closes the features facing it (default true)"),
            "opens": enum_schema(
                ("when_reached", "never"),
                "when_reached: the first tile next to it opens it (trigger mark_reached); never",
            ),
            "chips": {
                "type": "object",
                "additionalProperties": False,
                "description": "chips laid on each marked square at setup (layout 'marks')",
                "properties": {
                    "count": int_schema(0, 4, "chips per square"),
                    "face": enum_schema(("up", "down"), "face up or face down"),
                },
            },
        },
    )
    out["rule"] = {
        "type": "object",
        "required": ["id", "when", "then"],
        "additionalProperties": False,
        "description": "when (trigger) / if (conditions) / cost / then (effects)",
        "properties": {
            "id": _id("the rule's id (records, log and report)"),
            "title": {"type": "string", "maxLength": 80, "description": "what players read"},
            "when": enum_schema(tuple(TRIGGERS), "the trigger"),
            "if": {
                "type": "array",
                "maxItems": MAX_ITEMS,
                "items": {"$ref": "#/$defs/condition1"},
                "description": "conditions, all must hold",
            },
            "cost": {
                "type": "array",
                "maxItems": 4,
                "items": {"$ref": "#/$defs/cost"},
                "description": "what must be paid (the rule fires only when it can be)",
            },
            "then": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_ITEMS,
                "items": {"$ref": "#/$defs/effect"},
                "description": "the effects, in order",
            },
            "choice": enum_schema(
                ("compulsory", "optional"), "compulsory: it happens; optional: an offer"
            ),
            "chooser": enum_schema(
                tuple(CHOOSERS),
                "who takes the rule: current (the player it concerns) or other players, who "
                "decide inside the turn",
            ),
            "limits": {
                "type": "array",
                "maxItems": 4,
                "description": "at most so many times per game, player, turn or round",
                "items": {
                    "type": "object",
                    "required": ["per"],
                    "additionalProperties": False,
                    "properties": {
                        "per": enum_schema(LIMIT_PER, "game (all players), player, turn or round"),
                        "times": int_schema(1, 20, "how many times (default 1)"),
                    },
                },
            },
        },
    }
    return out


def schema_properties() -> dict[str, Any]:
    """The top-level entries the rule language adds."""
    return {
        "resources": {
            "type": "array",
            "maxItems": MAX_RESOURCES,
            "items": {"$ref": "#/$defs/resource"},
            "description": "Named tokens players hold (docs/rule-language.md).",
        },
        "marks": {
            "type": "array",
            "maxItems": MAX_MARKS,
            "items": {"$ref": "#/$defs/mark"},
            "description": "Square marks a map prints for this rule set (docs/rule-language.md).",
        },
        "rules": {
            "type": "array",
            "maxItems": MAX_RULES,
            "items": {"$ref": "#/$defs/rule"},
            "description": "when/if/then rules (docs/rule-language.md).",
        },
    }


# -- the checks the schema cannot make -----------------------------------------------------------


def lang_problems(d: dict[str, Any]) -> list[tuple[str, str]]:
    """Every problem of the language parts of a schema-valid rule-set dict: (path, reason)."""
    out: list[tuple[str, str]] = []
    resources = [r["id"] for r in d.get("resources", ())]
    marks = {m["id"]: m for m in d.get("marks", ())}
    layout = d.get("layout", {}).get("kind", "random")
    for group, ids in (("resources", resources), ("marks", list(marks))):
        seen: dict[str, int] = {}
        for i, x in enumerate(ids):
            if x in seen:
                out.append((f"{group}[{i}].id", f"{x!r} is the id of {group}[{seen[x]}] too"))
            seen.setdefault(x, i)
    for i, x in enumerate(resources):
        if x in ("chips", "points"):
            out.append((f"resources[{i}].id", f"{x!r} is reserved (chips and points are built in)"))
    for i, m in enumerate(d.get("marks", ())):
        if not m.get("takes_tile", True) and not m.get("closes", True):
            out.append(
                (
                    f"marks[{i}].closes",
                    "a square that takes no tile must close the features facing it (they could "
                    "never be completed); a printed city that opens is a large city",
                )
            )
        if m.get("takes_tile", True) and m.get("opens", "never") == "when_reached":
            out.append((f"marks[{i}].opens", "only a mark that takes no tile is reached"))
    chips_on_marks = any(m.get("chips", {}).get("count", 0) for m in marks.values())
    if layout == "marks" and not chips_on_marks:
        out.append(("layout.kind", "'marks': no mark carries chips (marks[].chips.count)"))
    if chips_on_marks and layout != "marks":
        out.append(
            ("layout.kind", f"a mark carries chips: the layout must be 'marks', not {layout!r}")
        )
    seen_rules: dict[str, int] = {}
    down = False
    for i, r in enumerate(d.get("rules", ())):
        at = f"rules[{i}]"
        if r["id"] in seen_rules:
            out.append((f"{at}.id", f"{r['id']!r} is the id of rules[{seen_rules[r['id']]}] too"))
        seen_rules.setdefault(r["id"], i)
        when = r["when"]
        trig = TRIGGERS[when]
        optional = r.get("choice", "compulsory") == "optional"
        if optional and trig.phase is None:
            out.append(
                (
                    f"{at}.choice",
                    f"no phase follows {when!r} to offer the rule in: make it compulsory",
                )
            )
        if when in OFFER_ONLY and not optional:
            out.append(
                (
                    f"{at}.choice",
                    f"{when!r} is a phase, not an event: its rules are optional offers",
                )
            )
        if when in OFFER_ONLY and not r.get("limits"):
            out.append(
                (
                    f"{at}.limits",
                    f"a rule offered in every {when.replace('_', ' ')} needs a limit (per turn, "
                    "round, player or game): without one it could be taken again and again",
                )
            )
        if when == "mark_reached" and not any(
            m.get("opens", "never") == "when_reached" for m in marks.values()
        ):
            out.append((f"{at}.when", "no mark opens when reached"))
        if trig.players == "each" and any(e["kind"] == "extra_turn" for e in r["then"]):
            out.append((f"{at}.then", f"an extra turn at {when!r} has no turn to follow"))
        if when == "end_of_game" and any(e["kind"] == "skip_turn" for e in r["then"]):
            out.append((f"{at}.then", "no turn follows 'end_of_game' to be missed"))
        kinds = [e["kind"] for e in r["then"]]
        if kinds.count("place_meeple") + kinds.count("upgrade_meeple") > 1:
            out.append((f"{at}.then", "one rule places or upgrades one meeple, not more"))
        if "place_meeple" in kinds and when == "tile_placed" and not optional:
            out.append(
                (
                    f"{at}.then",
                    "the tile's own meeple is placed after 'tile_placed' rules: make the rule "
                    "optional (offered after the meeple) or use 'meeple_placed'",
                )
            )
        chooser = r.get("chooser", "current")
        if chooser != "current":
            out.extend(_other_chooser(r, at, chooser, trig))
        pers = [lim["per"] for lim in r.get("limits", ())]
        for j, per in enumerate(pers):
            if per in pers[:j]:
                out.append((f"{at}.limits[{j}].per", f"a second limit per {per}"))
        ctx = Check(out, trig.fills, when, resources, marks, layout)
        ctx.colours = tuple(d["supply"]["colours"])
        for j, c in enumerate(r.get("if", ())):
            ctx.condition(c, f"{at}.if[{j}]")
        for j, c in enumerate(r.get("cost", ())):
            ctx.term(COSTS, c, f"{at}.cost[{j}]")
        for j, e in enumerate(r["then"]):
            ctx.term(EFFECTS, e, f"{at}.then[{j}]")
            if e["kind"] == "take_chips" and e.get("face", "up") == "down":
                down = True
    for i, r in enumerate(d.get("rules", ())):
        for j, e in enumerate(r["then"]):
            if e["kind"] == "reveal_chips" and not down:
                out.append(
                    (
                        f"rules[{i}].then[{j}]",
                        "no chip is ever held face down (take_chips face 'down')",
                    )
                )
    return out


def _other_chooser(r: dict[str, Any], at: str, chooser: str, trig: Any) -> list[tuple[str, str]]:
    """What a rule taken by players other than the one the trigger concerns cannot do."""
    out = []
    when = r["when"]
    if when in OFFER_ONLY:
        out.append(
            (f"{at}.chooser", f"{when!r} is the player to move's phase: its chooser is 'current'")
        )
    elif trig.phase is None:
        out.append(
            (
                f"{at}.chooser",
                f"{chooser!r} decides in the phase after the trigger: no phase follows {when!r}",
            )
        )
    for fact in sorted(CHOOSERS[chooser].needs - trig.fills):
        out.append((f"{at}.chooser", f"{chooser!r} needs a {fact}; trigger {when!r} gives none"))
    kinds = [e["kind"] for e in r["then"]]
    if "extra_turn" in kinds:
        out.append(
            (f"{at}.then", f"an extra turn goes to the player to move, and {chooser!r} is another")
        )
    if "upgrade_meeple" in kinds and when == "meeple_placed":
        out.append(
            (
                f"{at}.then",
                f"'meeple_placed' upgrades the meeple just placed, the player to move's, and "
                f"{chooser!r} is another player",
            )
        )
    return out


class Check:
    """The checks of one rule's terms against its trigger's facts and the declared ids."""

    def __init__(
        self,
        out: list[tuple[str, str]],
        fills: frozenset[str],
        when: str,
        resources: list[str],
        marks: dict[str, Any],
        layout: str,
    ) -> None:
        self.out, self.fills, self.when = out, fills, when
        self.resources, self.marks, self.layout = resources, marks, layout
        self.colours: tuple[str, ...] = ()

    def needs(self, kind: Kind, name: str, path: str) -> None:
        for fact in sorted(kind.needs - self.fills):
            self.out.append((path, f"{name!r} needs a {fact}; trigger {self.when!r} gives none"))

    def ids(self, d: dict[str, Any], path: str) -> None:
        res = d.get("resource", d.get("what", d.get("of")))
        key = "resource" if "resource" in d else "what" if "what" in d else "of"
        if isinstance(res, str):
            allowed = {"chips", *self.resources} | ({"points"} if key == "what" else set())
            if res not in allowed:
                self.out.append((f"{path}.{key}", f"no resource has the id {res!r}"))
        mark = d.get("mark")
        if mark is not None and mark not in self.marks:
            self.out.append((f"{path}.mark", f"no mark has the id {mark!r}"))
        if d.get("print") == "mark" and not self.marks:
            self.out.append((f"{path}.print", "the rule set declares no mark"))

    def condition(self, c: dict[str, Any], path: str) -> None:
        kind = c["kind"]
        if kind in ("all", "any"):
            for j, sub in enumerate(c["of"]):
                self.condition(sub, f"{path}.of[{j}]")
            return
        if kind == "not":
            self.condition(c["of"], f"{path}.of")
            return
        self.needs(CONDITIONS[kind], kind, path)
        self.ids(c, path)
        if kind == "on" and c["print"] == "tile":
            self.out.append((f"{path}.print", "a square holds the placed tile: use next_to"))

    def quantity(self, q: Any, path: str) -> None:
        if isinstance(q, dict):
            self.needs(QUANTITIES[q["count"]], q["count"], path)
            self.ids(q, path)

    def term(self, table: dict[str, Kind], t: dict[str, Any], path: str) -> None:
        kind = t["kind"]
        self.needs(table[kind], kind, path)
        self.ids(t, path)
        for name in ("amount", "count"):
            if name in t:
                self.quantity(t[name], f"{path}.{name}")
        if kind in ("gain", "lose", "resource") and t.get("resource") == "chips":
            self.out.append(
                (f"{path}.resource", "chips are taken with take_chips and paid with a chips cost")
            )
        if table is EFFECTS and kind == "take_chips":
            src = t["from"]
            if src == "supply" and self.layout not in ("supply", "marks"):
                self.out.append(
                    (
                        f"{path}.from",
                        f"layout {self.layout!r} makes no supply beside the map (chips not laid "
                        "out leave the game): use layout 'supply' or 'marks'",
                    )
                )
            if src == "marks_next_to":
                if "square" not in self.fills:
                    self.out.append(
                        (f"{path}.from", f"needs a square; trigger {self.when!r} gives none")
                    )
                if self.layout != "marks":
                    self.out.append((f"{path}.from", "no chips lie on marks (layout 'marks')"))
        colour = t.get("colour", "any")
        if table is COSTS and kind == "chips" and colour != "any" and colour not in self.colours:
            self.out.append((f"{path}.colour", f"the supply has no {colour} chips"))
