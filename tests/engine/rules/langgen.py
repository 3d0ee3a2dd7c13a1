"""A seeded generator of random rule sets in the rule language, and the bot games that play
them (tests/engine/rules/test_rule_language_random.py runs a bounded number in CI).

Every kind comes from the vocabulary tables of :mod:`engine.rules.data.lang`, with parameters
drawn from their schema, so a new kind is generated without changing this file. A long run:
``python tests/engine/rules/langgen.py 300 [FIRST_SEED]`` (prints the figures every 25 seeds and
at the end: accepted, refused, games, actions checked, defects).
"""

from __future__ import annotations

import random
import sys
from typing import Any

from engine.bots import make_bot
from engine.errors import EngineError, IllegalMoveError
from engine.game import Game, GameOptions
from engine.mapdef import EmbeddedRuleSet, MapDef, MarkSquare
from engine.mapio import load_map
from engine.moves import Draw, Move, Pass
from engine.resources import bundled_map
from engine.rules.chips_common import invariant_violations
from engine.rules.data import RuleSetSpec, check_ruleset_dict, preset_dict, preset_names
from engine.rules.data.interpret import RuleAction
from engine.rules.data.lang import (
    CONDITIONS,
    COSTS,
    EFFECTS,
    ICONS,
    QUANTITIES,
    TRIGGERS,
    Kind,
)
from engine.rules.data.ruleset import PRESET_MAPS


def _value(
    rng: random.Random,
    name: str,
    schema: dict[str, Any],
    ids: dict[str, list[str]],
    fills: frozenset[str],
) -> Any:
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("type") == "integer":
        lo, hi = schema["minimum"], schema["maximum"]
        return rng.randint(lo, min(hi, lo + 6))
    if schema.get("type") == "boolean":
        return rng.random() < 0.5
    if schema.get("$ref") == "#/$defs/quantity":
        return _quantity(rng, ids, fills)
    if name in ("resource", "what", "of"):
        pool = ids["resources"] + ["chips"] + (["points"] if name == "what" else [])
        return rng.choice(pool)
    if name == "mark":
        return rng.choice(ids["marks"] or ["nomark"])
    if name == "values":
        return {k: rng.randint(0, 3) for k in ("city", "road", "field")}
    if name == "points":
        return [rng.randint(-3, 8) for _ in range(rng.randint(1, 4))]
    return rng.choice(ids["resources"] or ["none"])


def _fits(kind: Kind, fills: frozenset[str]) -> bool:
    return kind.needs <= fills


def _quantity(rng: random.Random, ids: dict[str, list[str]], fills: frozenset[str]) -> Any:
    if rng.random() < 0.5:
        return rng.randint(-3, 5)
    name = rng.choice([k for k, v in QUANTITIES.items() if _fits(v, fills)])
    out: dict[str, Any] = {"count": name, "times": rng.randint(-2, 3)}
    if rng.random() < 0.3:
        out["max"] = rng.randint(0, 10)
    for p, s in QUANTITIES[name].params.items():
        out[p] = _value(rng, p, s, ids, fills)
    return out


def _term(
    rng: random.Random,
    table: dict[str, Kind],
    ids: dict[str, list[str]],
    fills: frozenset[str],
    depth: int = 1,
) -> dict[str, Any]:
    names = [k for k, v in table.items() if _fits(v, fills)]
    if depth >= 3:
        names = [n for n in names if n not in ("all", "any", "not")]
    kind = rng.choice(names)
    out: dict[str, Any] = {"kind": kind}
    if kind in ("all", "any"):
        out["of"] = [_term(rng, table, ids, fills, depth + 1) for _ in range(rng.randint(1, 2))]
        return out
    if kind == "not":
        out["of"] = _term(rng, table, ids, fills, depth + 1)
        return out
    for p, s in table[kind].params.items():
        if p in table[kind].required or rng.random() < 0.5:
            out[p] = _value(rng, p, s, ids, fills)
    return out


def random_ruleset(rng: random.Random) -> dict[str, Any]:
    """A random rule-set dict: a preset's 2019 parts plus random resources, marks and rules
    (valid or not: the checker decides)."""
    base = rng.choice(preset_names())
    d = preset_dict(base)
    d["name"], d["based_on"] = "gen", base
    ids: dict[str, list[str]] = {"resources": [], "marks": []}
    d["resources"] = []
    for i in range(rng.randint(0, 3)):
        rid = f"res{i}"
        ids["resources"].append(rid)
        d["resources"].append(
            {
                "id": rid,
                "name": f"Token {i}",
                "icon": rng.choice(ICONS),
                "start": rng.randint(0, 2),
                "supply": rng.choice([None, 5, 20]),
            }
        )
    d["marks"] = []
    for i in range(rng.randint(0, 2)):
        mid = f"mark{i}"
        ids["marks"].append(mid)
        takes = rng.random() < 0.5
        d["marks"].append(
            {
                "id": mid,
                "name": f"Mark {i}",
                "takes_tile": takes,
                "closes": True,
                "opens": "never" if takes else rng.choice(["never", "when_reached"]),
                "chips": {"count": rng.choice([0, 0, 1, 2]), "face": rng.choice(["up", "down"])},
            }
        )
    if any(m["chips"]["count"] for m in d["marks"]):
        d["layout"] = {"kind": "marks", "count": None, "exclude": []}
    elif rng.random() < 0.3:
        d["layout"] = {"kind": "supply", "count": None, "exclude": []}
    d["rules"] = []
    for i in range(rng.randint(1, 5)):
        when = rng.choice(list(TRIGGERS))
        trig = TRIGGERS[when]
        fills = trig.fills
        optional = trig.phase is not None and (
            when in ("action_phase", "after_phase") or rng.random() < 0.5
        )
        rule: dict[str, Any] = {
            "id": f"r{i}",
            "when": when,
            "if": [_term(rng, CONDITIONS, ids, fills) for _ in range(rng.randint(0, 2))],
            "cost": [_term(rng, COSTS, ids, fills) for _ in range(rng.randint(0, 2))],
            "then": [_term(rng, EFFECTS, ids, fills) for _ in range(rng.randint(1, 3))],
            "choice": "optional" if optional else "compulsory",
        }
        if rng.random() < 0.5:
            rule["limits"] = [
                {"per": rng.choice(["game", "player", "turn", "round"]), "times": rng.randint(1, 3)}
            ]
        d["rules"].append(rule)
    return d


def marked_map(spec: RuleSetSpec, base: str, rng: random.Random) -> MapDef:
    """The preset's shipped map with the spec's marks printed on a few free squares."""
    m = load_map(bundled_map(base))
    m.rule_set = EmbeddedRuleSet(spec)
    if spec.marks:
        free = sorted(m.placeable_squares() - set(m.start_squares) - set(m.towns))
        for sq in rng.sample(free, min(12, len(free))):
            m.marks[sq] = MarkSquare(rng.choice(spec.marks).id)
    return m


class Figures:
    def __init__(self) -> None:
        self.accepted = self.refused = self.games = self.moves = self.checked = 0
        self.defects: list[str] = []

    def __str__(self) -> str:
        return (
            f"rule sets accepted {self.accepted}, rules or sets refused {self.refused}; games {self.games}, "
            f"moves {self.moves}, offered actions checked {self.checked}; defects "
            f"{len(self.defects)}"
        )


def play_checked(m: MapDef, seed: int, bot: str, figures: Figures, turns: int = 40) -> None:
    """One bot game: every offered rule-set action plays on a copy, an action not offered is
    refused with the state unchanged, the chip and meeple invariants hold."""
    g = Game(m, players=2, seed=seed, options=GameOptions(end_after_turns=turns))
    player = make_bot(bot, seed=seed)
    figures.games += 1
    played = 0
    while not g.is_over():
        played += 1
        if played > 30 * turns:  # a turn is a few moves: a game that does not end is a defect
            figures.defects.append(f"seed {seed}: {played} moves and the game goes on")
            return
        moves = g.legal_moves()
        if not moves:
            figures.defects.append(f"seed {seed}: no legal move in phase {g.phase}")
            return
        for mv in moves:
            if not isinstance(mv, (Move, Draw, Pass)):
                figures.checked += 1
                copy = g.copy()
                try:
                    copy.play(mv)
                except EngineError as exc:
                    figures.defects.append(f"seed {seed}: offered {mv} refused: {exc}")
        before = g.state_summary()
        bad = RuleAction("r0", 99, 0)
        try:
            g.play(bad)
            figures.defects.append(f"seed {seed}: {bad} accepted")
        except IllegalMoveError:
            if g.state_summary() != before:
                figures.defects.append(f"seed {seed}: a refused move changed the state")
        g.play(player.choose(g))
        figures.moves += 1
        problems = invariant_violations(g)
        if problems:
            figures.defects.append(f"seed {seed}: {problems[0]}")
            return


def prune(d: dict[str, Any], figures: Figures) -> bool:
    """Drop the rules the checker refuses (each refusal counted); whether the rest is valid."""
    import re

    for _ in range(4):
        problems = check_ruleset_dict(d)
        if any("\n" in str(p) or len(str(p)) > 400 for p in problems):
            figures.defects.append(f"{d['name']}: a problem of several lines")
        if not problems:
            return bool(d["rules"])
        bad = {int(x) for p in problems for x in re.findall(r"^rules\[(\d+)\]", p.path)}
        figures.refused += len(bad) or 1
        if not bad:
            return False
        d["rules"] = [r for i, r in enumerate(d["rules"]) if i not in bad]
    return False


def run(n: int, start: int = 0, turns: int = 40, progress: bool = False) -> Figures:
    figures = Figures()
    for seed in range(start, start + n):
        if progress and seed > start and (seed - start) % 25 == 0:
            print(f"after {seed - start} seeds: {figures}", flush=True)
        rng = random.Random(seed)
        d = random_ruleset(rng)
        if not prune(d, figures):
            continue
        figures.accepted += 1
        spec = RuleSetSpec.from_dict(d)
        base = PRESET_MAPS.get(spec.based_on or "", "deutschland")
        m = marked_map(spec, base, rng)
        try:
            play_checked(m, seed, rng.choice(["random", "greedy"]), figures, turns)
        except Exception as exc:  # noqa: BLE001 - a crash is a defect to report, with its seed
            figures.defects.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    return figures


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    result = run(count, first, progress=True)
    print(result)
    for line in result.defects[:20]:
        print(line)
