"""A tuning candidate's map: numbers inside its data rule set and where its start squares lie.

Two kinds of tuning parameter change the map itself rather than the game options
(:attr:`engine.analysis.simulate.SimConfig.map_edits` carries them as ``(PARAM, value)`` pairs):

* ``ruleset/PATH``: a number inside the map's data rule set (a rule-set file the map names, or
  one embedded in the map), at ``PATH`` in its JSON (``RuleSetSpec.to_dict()``, every field
  written): keys and list indices separated by ``/``, where an item of a list whose items
  carry an ``id`` (rules, mechanics, resources, marks) may be named by that id instead of its
  index: ``ruleset/mechanics/vino/reward/points/town_colour``, ``ruleset/rules/sell/then/0/amount``.
  Every candidate is checked by the rule-set schema and checker.
* ``start.NAME``: the start square called ``NAME`` (or the one at ``x,y``) moved to another
  square, one of a list of alternatives (``"x,y"`` strings).

:func:`candidate_map` makes the candidate's map (a copy); :func:`write_answer` writes it as new
files that never replace one: a map (``MAP.tuned.json``) and, for a rule-set file, the tuned
rule-set file beside the original (``NAME.tuned.ruleset.json``); ``.tuned-2``, ``.tuned-3``...
when the name is taken.

>>> split_param("ruleset/mechanics/vino/pay/value")
('ruleset', ('mechanics', 'vino', 'pay', 'value'))
>>> split_param("start.Bari"), split_param("rule.ones_per_colour")
(('start', ('Bari',)), ('', ()))
>>> parse_square("start.Bari", " 21, 17 ")
'21,17'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.mapdef import EmbeddedRuleSet, FileRuleSet, MapDef, NamedRuleSet, StartSquare
from engine.mapio import save_map
from engine.rules.data import RuleSetSpec, check_ruleset_dict, save_ruleset
from engine.rules.data.ruleset import spec_of_valid_dict
from engine.validation import Severity, validate_map

RULESET = "ruleset/"
"""The prefix of a number inside the map's data rule set."""
START = "start."
"""The prefix of a start square's alternatives."""
MAX_CHOICES = 64
"""Alternatives of one start square at most."""
_SQUARE = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")


class CandidateRefused(EngineError):
    """A candidate's values make a rule set the checker refuses, or a map with a new error."""


def is_map_param(name: str) -> bool:
    """Whether tuning parameter ``name`` changes the map itself."""
    return split_param(name)[0] != ""


def split_param(name: str) -> tuple[str, tuple[str, ...]]:
    """``("ruleset", path segments)``, ``("start", (NAME,))`` or ``("", ())`` for another
    parameter."""
    if name.startswith(RULESET):
        return "ruleset", tuple(name[len(RULESET) :].split("/"))
    if name.startswith(START) and len(name) > len(START):
        return "start", (name[len(START) :],)
    return "", ()


def parse_square(param: str, text: str) -> str:
    """A square written ``x,y``, normalised; an error naming ``param`` otherwise."""
    match = _SQUARE.fullmatch(text)
    if match is None:
        raise EngineError(f"--tune {param}: {text.strip()!r} is not a square x,y (e.g. 21,17)")
    return f"{int(match[1])},{int(match[2])}"


def _square(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


# -- numbers inside the rule set ---------------------------------------------------------------


def _spec(m: MapDef, param: str) -> RuleSetSpec:
    ref = m.rule_set
    if isinstance(ref, EmbeddedRuleSet | FileRuleSet):
        return ref.spec
    if isinstance(ref, NamedRuleSet):
        raise EngineError(
            f"--tune {param}: the map names the registered rule set {ref.name!r}, which has no "
            "rule-set file: tune its options with rule.NAME, or write it out "
            f"(python -m engine ruleset preset {ref.name} -o FILE) and name the file in the map"
        )
    raise EngineError(f"--tune {param}: the map's rule set cannot be read: {ref.error}")


def resolve(data: Any, param: str) -> list[str | int]:
    """The keys leading to the number ``ruleset/...`` names in rule-set dict ``data`` (list
    items by index or by id); an error naming the parameter and what is there otherwise."""
    node = data
    keys: list[str | int] = []
    at = "the rule set"
    segments = split_param(param)[1]
    for seg in segments:
        key: str | int
        if isinstance(node, list):
            ids = [item.get("id") for item in node if isinstance(item, dict)]
            if seg.isdigit() and int(seg) < len(node):
                key = int(seg)
            elif seg in ids:
                key = ids.index(seg)
            else:
                named = f", or by id: {', '.join(map(str, ids))}" if any(ids) else ""
                raise EngineError(
                    f"--tune {param}: {at} is a list of {len(node)}: no item {seg!r} "
                    f"(items by index 0..{len(node) - 1}{named})"
                )
        elif isinstance(node, dict):
            if seg not in node:
                raise EngineError(
                    f"--tune {param}: {at} has no field {seg!r}; its fields: {', '.join(node)}"
                )
            key = seg
        else:
            raise EngineError(f"--tune {param}: {at} is {node!r}, not a list or an object")
        keys.append(key)
        node = node[key]
        at = f"{RULESET}{'/'.join(segments[: len(keys)])}"
    if isinstance(node, bool) or not isinstance(node, int | float):
        raise EngineError(f"--tune {param}: {at} is {node!r}, not a number")
    return keys


def number_paths(m: MapDef) -> list[str]:
    """Every ``ruleset/PATH`` naming a number of ``m``'s data rule set (none for a registered
    or unreadable one), a list's items by id where they have one: the tuner's choices.

    >>> from engine.mapio import load_map
    >>> from engine.resources import bundled_map
    >>> paths = number_paths(load_map(bundled_map("italia")))
    >>> "ruleset/mechanics/vino/reward/points/town_colour" in paths
    True
    """
    ref = m.rule_set
    if not isinstance(ref, EmbeddedRuleSet | FileRuleSet):
        return []
    out: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for k, item in enumerate(node):
                named = isinstance(item, dict) and isinstance(item.get("id"), str)
                walk(item, f"{path}/{item['id'] if named else k}")
        elif isinstance(node, int | float) and not isinstance(node, bool):
            out.append(RULESET + path.lstrip("/"))

    data = ref.spec.to_dict()
    data.pop("version", None)  # the format's, not a number of the rules
    walk(data, "")
    return out


def tuned_spec(spec: RuleSetSpec, edits: Iterable[tuple[str, Any]]) -> RuleSetSpec:
    """``spec`` with each ``(ruleset/PATH, number)`` of ``edits`` set, checked by the rule-set
    schema and checker.

    :raises CandidateRefused: naming the values and the checker's first problem.
    """
    data = spec.to_dict()
    edits = list(edits)
    for param, value in edits:
        *outer, last = resolve(data, param)
        node: Any = data
        for key in outer:
            node = node[key]
        node[last] = value
    problems = check_ruleset_dict(data)
    if problems:
        values = ", ".join(f"{p}={v}" for p, v in edits)
        raise CandidateRefused(f"--tune {values}: the rule-set checker refuses it: {problems[0]}")
    return spec_of_valid_dict(data, spec.source)


# -- start squares -----------------------------------------------------------------------------


def start_square(m: MapDef, param: str) -> tuple[int, int]:
    """The start square ``start.NAME`` names (by its name, or as ``x,y``)."""
    name = split_param(param)[1][0]
    for sq, start in m.start_squares.items():
        if start.name == name:
            return sq
    if _SQUARE.fullmatch(name):
        sq = _square(parse_square(param, name))
        if sq in m.start_squares:
            return sq
    known = ", ".join(f"{s.name} ({x},{y})" for (x, y), s in sorted(m.start_squares.items()))
    raise EngineError(f"--tune {param}: the map has no start square {name!r}; its own: {known}")


def _errors(m: MapDef) -> set[str]:
    return {i.message for i in validate_map(m) if i.severity is Severity.ERROR}


# -- the candidate's map -----------------------------------------------------------------------


def candidate_map(m: MapDef, edits: Sequence[tuple[str, Any]], *, validate: bool = False) -> MapDef:
    """``m`` (a copy) with a candidate's map values: rule-set numbers and start squares moved
    (``m`` itself when ``edits`` is empty). ``validate``: a moved start square must add no
    validator error to the map's own.

    :raises CandidateRefused: the checker refuses the rule set, two start squares meet, or (with
        ``validate``) the map gains an error; :class:`EngineError` for a parameter naming
        nothing on this map.
    """
    if not edits:
        return m
    out = m.copy()
    numbers = [(p, v) for p, v in edits if split_param(p)[0] == "ruleset"]
    if numbers:
        spec = tuned_spec(_spec(m, numbers[0][0]), numbers)
        ref = out.rule_set
        out.rule_set = (
            FileRuleSet(ref.file, spec) if isinstance(ref, FileRuleSet) else EmbeddedRuleSet(spec)
        )
    moves: dict[tuple[int, int], tuple[str, tuple[int, int]]] = {}
    for param, value in edits:
        if split_param(param)[0] == "start":
            sq = start_square(m, param)
            if sq in moves:
                raise EngineError(f"--tune {param}: {moves[sq][0]} names the same start square")
            moves[sq] = (param, _square(parse_square(param, str(value))))
    if moves:
        kept = {sq: s for sq, s in m.start_squares.items() if sq not in moves}
        starts: dict[tuple[int, int], StartSquare] = {}
        for old, (param, new) in moves.items():
            if new in kept or new in starts or new in m.towns:
                there = (
                    f"the town {m.towns[new].name!r}" if new in m.towns else "another start square"
                )
                raise CandidateRefused(f"--tune {param}={new[0]},{new[1]}: {there} is there")
            starts[new] = m.start_squares[old]
        out.start_squares = {**kept, **starts}
        if validate:
            new_errors = sorted(_errors(out) - _errors(m))
            if new_errors:
                values = ", ".join(f"{p}={v}" for p, v in edits if split_param(p)[0] == "start")
                raise CandidateRefused(
                    f"--tune {values}: the map would have an error: {new_errors[0]}"
                )
    out.touch()
    return out


# -- the answer as new files -------------------------------------------------------------------


def tuned_name(name: str, k: int = 1) -> str:
    """``italia.json`` -> ``italia.tuned.json`` (``k`` 2: ``italia.tuned-2.json``);
    ``italia.ruleset.json`` -> ``italia.tuned.ruleset.json``."""
    mark = ".tuned" if k == 1 else f".tuned-{k}"
    for ext in (".ruleset.json", ".json"):
        if name.endswith(ext):
            return name[: -len(ext)] + mark + ext
    return name + mark + ".json"


def tuned_path(folder: Path, name: str) -> Path:
    """The first of ``tuned_name(name)``, ``tuned_name(name, 2)``... not in ``folder`` yet."""
    for k in range(1, 10_000):
        path = folder / tuned_name(name, k)
        if not path.exists():
            return path
    raise EngineError(f"{folder / tuned_name(name)}: no free name beside it")


def write_answer(
    m: MapDef, values: dict[str, Any], map_file: Path | None, out_dir: Path
) -> dict[str, Path]:
    """Write the map values of ``values`` (the tuner's answer) as new files, never replacing
    one: the map as ``NAME.tuned.json`` beside ``map_file`` (in ``out_dir`` for a shipped map,
    ``map_file`` ``None``) and, when the map names a rule-set file, that file tuned as
    ``NAME.tuned.ruleset.json`` beside the original (the new map names it; a shipped map's
    untuned rule set is copied beside its map under its own name). ``start_squares``
    is written as the map's ``setup.start_squares_used``. A name taken already gets
    ``.tuned-2``, ``.tuned-3``... Returns the paths written, ``"map"`` and ``"ruleset"``;
    nothing when ``values`` holds no map values.
    """
    edits = answer_edits(values)
    used = values.get("start_squares")
    if not edits and used is None:
        return {}
    out = candidate_map(m, edits)
    if used is not None:  # how many start squares a game uses: the map's setup says it
        out = out.copy() if out is m else out
        out.setup.start_squares_used = used
    folder = map_file.parent if map_file is not None else out_dir
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    ref = out.rule_set
    tuned_rules = any(split_param(p)[0] == "ruleset" for p, _v in edits)
    if isinstance(ref, FileRuleSet) and (tuned_rules or map_file is None):
        home = folder / Path(ref.file).parent if map_file is not None else folder
        name = Path(ref.file).name
        # a shipped map's rule set goes with its copy, under its own name when nothing changed
        untouched = home / name
        target = untouched if not (tuned_rules or untouched.exists()) else tuned_path(home, name)
        save_ruleset(ref.spec, target)
        written["ruleset"] = target
        out.rule_set = FileRuleSet(target.relative_to(folder).as_posix(), ref.spec)
    name = map_file.name if map_file is not None else f"{m.id}.json"
    written["map"] = tuned_path(folder, name)
    save_map(out, written["map"])
    return written


def answer_edits(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The map values among a candidate's values, sorted (``SimConfig.map_edits``)."""
    return tuple(sorted((p, v) for p, v in values.items() if is_map_param(p)))


__all__ = [
    "CandidateRefused",
    "MAX_CHOICES",
    "RULESET",
    "START",
    "answer_edits",
    "candidate_map",
    "is_map_param",
    "number_paths",
    "parse_square",
    "resolve",
    "split_param",
    "start_square",
    "tuned_name",
    "tuned_path",
    "tuned_spec",
    "write_answer",
]
