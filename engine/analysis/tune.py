"""The tuner: search a map's numbers for values that meet balance targets.

``simulate MAP --tune PARAM=LOW..HIGH ... --target FIGURE=VALUE±TOL ...`` searches the rule
set's numeric options (``rule.NAME``), numbers inside a rule-set file or an embedded rule set
(``ruleset/PATH``), the start squares used (``start_squares``), where a start square lies
(``start.NAME=x,y|x,y|...``, a choice) and the tiles played (``tile_count``) for values whose
figures lie within their targets. Parameters that change the map (:mod:`.candidate`) travel in
``SimConfig.map_edits``; :func:`engine.analysis.candidate.write_answer` writes the answer as new
files.

* **Search**: Optuna's TPE sampler (a Bayesian search), seeded from the run seed, proposes
  values; each candidate plays its games in rungs (``min_games``, then three times as many, ...,
  up to ``max_games``), and Optuna's successive-halving pruner stops the candidates that do
  worse than their peers at a rung, so games are spent where they decide.
* **Paired candidates**: rung ``k`` of every candidate plays the same deals (seed derived from
  the run seed and ``k``), so candidates differ by their values, not by their luck.
* **Stopping**: a candidate whose 95 % interval of every target figure lies inside its
  ``VALUE ± TOL`` meets the targets, and the search stops; a candidate with an interval wholly
  outside its band cannot meet it and is dropped at once. After ``trials`` candidates the best
  is reported with what its intervals say: which targets it cannot meet, which more games
  could still settle.
* **Reproducible**: the same seed, values and settings give the same search and answer, with
  any number of workers or a Dask cluster (games run through ``run(config)``).
* **Checked first**: :func:`check_space` refuses, before any game, a parameter naming nothing
  on the map and every value the map, the rule-set checker or a game set-up refuses; values
  refused only together make a *refused* candidate (no games, never the answer).

Optuna is the ``tune`` extra: ``pip install 'carcassonne-maps-studio[tune]'``.

>>> from engine.analysis.tune import parse_target, parse_tune
>>> parse_tune(["rule.ones_per_colour=0..10", "tile_count=80..120"])[0]
TuneParam(name='rule.ones_per_colour', low=0, high=10, choices=())
>>> parse_tune(["ruleset/mechanics/vino/pay/value=1..3", "start.Bari=21,17|19,15"])[1]
TuneParam(name='start.Bari', low=0, high=1, choices=('21,17', '19,15'))
>>> parse_target(["share.chip=0.15±0.02"])
[Target(figure='share.chip', value=0.15, tol=0.02)]
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.analysis.candidate import (
    MAX_CHOICES,
    RULESET,
    START,
    CandidateRefused,
    candidate_map,
    parse_square,
    split_param,
)
from engine.analysis.paired import mean_ci
from engine.analysis.report import bots_text, write_pages
from engine.analysis.simulate import new_game, rule_set_for
from engine.analysis.sweep import config_at
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.analysis.simulate import SimConfig, SimResult
    from engine.mapdef import MapDef

Run = Callable[["SimConfig"], "SimResult"]
FORMAT = "carcassonne-balance-tuning"
MAX_PARAMS = 6
MAX_TRIALS = 500
MAX_GAMES = 100_000
FIGURES = {
    "seat1": "share of games the first seat wins",
    "turns": "turns per game",
    "winning_score": "winning score",
    "margin": "winning margin",
    "lead_changes": "lead changes per game",
    "drama": "points the winner was behind",
    "decisive_share": "share of the game before it was decided",
    "final_flip": "share of games whose leader the final scoring changed",
}
"""Target figures by name (plus ``share.KIND``: KIND's share of the points, e.g.
``share.field``, ``share.chip``)."""
PARAMS = ("tile_count", "start_squares")
"""Tunable settings beside the rule set's options (``rule.NAME``), numbers inside a data rule
set (``ruleset/PATH``) and start squares' places (``start.NAME``)."""
PREFIXES = ("rule.", RULESET, START)
MAX_PROBED = 200
"""A whole-number range of a rule-set number up to this many values is checked value by value
before any game (a longer one at its ends)."""
EXTRA = "pip install 'carcassonne-maps-studio[tune]'"


@dataclass(frozen=True)
class TuneParam:
    """A number to search between ``low`` and ``high`` (whole numbers when both are), or, with
    ``choices``, one of them (``low`` and ``high`` are then 0 and the last index)."""

    name: str
    low: int | float
    high: int | float
    choices: tuple[str, ...] = ()

    @property
    def integer(self) -> bool:
        return isinstance(self.low, int) and isinstance(self.high, int)


@dataclass(frozen=True)
class Target:
    """``figure`` within ``value ± tol``."""

    figure: str
    value: float
    tol: float

    def status(self, ci: Sequence[float]) -> str:
        """``met`` (the interval inside the band), ``cannot`` (wholly outside) or ``open``."""
        lo, hi = ci
        if math.isnan(lo):
            return "open"
        if self.value - self.tol <= lo and hi <= self.value + self.tol:
            return "met"
        if hi < self.value - self.tol or lo > self.value + self.tol:
            return "cannot"
        return "open"


def _number(text: str, what: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise EngineError(f"{what}: {text!r} is not a number") from None


def _named(
    item: str, option: str, what: str, known: Sequence[str], prefixes: Sequence[str], form: str
) -> tuple[str, str]:
    """``NAME=REST`` of one ``--tune`` or ``--target`` item: its name (one of ``known``, or
    one of ``prefixes`` and a name) and the rest, or an error naming the item."""
    name, sep, rest = item.partition("=")
    name = name.strip()
    if not sep:
        raise EngineError(f"{option} {item!r}: write {form}")
    if name not in known and not any(
        name.startswith(prefix) and len(name) > len(prefix) for prefix in prefixes
    ):
        forms = ", ".join(
            f"{prefix}{'PATH' if prefix == RULESET else 'NAME'}" for prefix in prefixes
        )
        raise EngineError(
            f"{option} {item!r}: unknown {what} {name!r}; known: {', '.join(known)}, {forms}"
        )
    return name, rest


def _once(option: str, names: Sequence[str]) -> None:
    for name in names:
        if names.count(name) > 1:
            raise EngineError(f"{option}: {name!r} given twice")


def _choices(item: str, name: str, text: str) -> TuneParam:
    """``start.NAME=x,y|x,y|...``: where the start square may lie."""
    squares = [parse_square(name, part) for part in text.split("|")]
    if not 2 <= len(squares) <= MAX_CHOICES:
        raise EngineError(
            f"--tune {item!r}: give 2 to {MAX_CHOICES} squares x,y separated by | "
            "(e.g. start.Bari=21,17|19,15)"
        )
    if len(set(squares)) < len(squares):
        raise EngineError(f"--tune {item!r}: a square is given twice")
    return TuneParam(name, 0, len(squares) - 1, tuple(squares))


def parse_tune(items: Sequence[str]) -> list[TuneParam]:
    """``["rule.ones_per_colour=0..10", "tile_count=80..120"]`` -> the search space."""
    form = "NAME=LOW..HIGH (e.g. tile_count=60..90)"
    out: list[TuneParam] = []
    for item in items:
        name, span = _named(item, "--tune", "parameter", PARAMS, PREFIXES, form)
        kind, path = split_param(name)
        if kind == "start":
            out.append(_choices(item, name, span))
            continue
        if kind == "ruleset" and not all(path):
            raise EngineError(
                f"--tune {item!r}: write the number's path in the rule set as keys and list "
                "items (an index or an id) separated by / (e.g. ruleset/rules/sell/then/0/amount)"
            )
        low_text, dots, high_text = span.partition("..")
        if not dots:
            raise EngineError(f"--tune {item!r}: write {form}")
        low = _number(low_text.strip(), f"--tune {item!r}")
        high = _number(high_text.strip(), f"--tune {item!r}")
        if not low < high:
            raise EngineError(f"--tune {item!r}: LOW must be below HIGH")
        if name in PARAMS and not (isinstance(low, int) and isinstance(high, int)):
            raise EngineError(f"--tune {item!r}: {name} takes whole numbers")
        out.append(TuneParam(name, low, high))
    _once("--tune", [p.name for p in out])
    if not out or len(out) > MAX_PARAMS:
        raise EngineError(f"--tune: give 1 to {MAX_PARAMS} parameters")
    return out


def parse_target(items: Sequence[str]) -> list[Target]:
    """``["seat1=0.5±0.03", "turns=90+-5"]`` -> the targets (``±``, ``+-`` or ``+/-``)."""
    form = "FIGURE=VALUE±TOL (e.g. seat1=0.5±0.03)"
    out: list[Target] = []
    for item in items:
        figure, rest = _named(item, "--target", "figure", list(FIGURES), ("share.",), form)
        value_text, pm, tol_text = rest.replace("+/-", "±").replace("+-", "±").partition("±")
        if not pm:
            raise EngineError(f"--target {item!r}: write {form}")
        value = float(_number(value_text.strip(), f"--target {item!r}"))
        tol = float(_number(tol_text.strip(), f"--target {item!r}"))
        if not tol > 0:
            raise EngineError(f"--target {item!r}: the tolerance must be positive")
        out.append(Target(figure, value, tol))
    _once("--target", [t.figure for t in out])
    if not out:
        raise EngineError("--tune needs at least one --target FIGURE=VALUE±TOL")
    return out


def figure_values(figure: str, games: Sequence[dict[str, Any]]) -> list[float]:
    """The per-game values of a target figure."""
    if figure.startswith("share."):
        kind = figure[6:]
        out = []
        for g in games:
            total = sum(g["points"].values())
            out.append(g["points"].get(kind, 0) / total if total else 0.0)
        return out
    if figure == "seat1":
        return [float(0 in g["winners"]) for g in games]
    if figure == "turns":
        return [float(g["turns"]) for g in games]
    if figure == "winning_score":
        return [float(max(g["scores"])) for g in games]
    if figure == "margin":
        return [float(_margin(g["scores"])) for g in games]
    return [float(g["quality"][figure]) for g in games]


def _margin(scores: Sequence[int]) -> int:
    top = sorted(scores, reverse=True)
    return top[0] - top[1] if len(top) > 1 else top[0]


def rung_seed(seed: int, rung: int) -> int:
    """The seed of rung ``rung``'s games, the same for every candidate."""
    digest = hashlib.blake2b(f"tune:{seed}:{rung}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def config_for(base: SimConfig, values: dict[str, Any]) -> SimConfig:
    """``base`` with a candidate's values (map values in ``map_edits``)."""
    return config_at(base, values)


def _probed(p: TuneParam) -> list[Any]:
    if p.choices:
        return list(p.choices)
    if p.name.startswith(RULESET) and p.integer and p.high - p.low < MAX_PROBED:
        return list(range(int(p.low), int(p.high) + 1))
    return [p.low, p.high]


def check_space(m: MapDef, base: SimConfig, params: Sequence[TuneParam]) -> None:
    """Refuse, before any game, a parameter naming nothing on ``m`` or a value that ``m``, its
    rule set (schema and checker) or a game set-up refuses: every alternative of a start square
    (which must add no validator error), every whole number of a rule-set number's range (its
    ends when it is longer than :data:`MAX_PROBED`), the ends of the other ranges.

    :raises EngineError: one line, ``--tune PARAM=VALUE: why``.
    """
    # two parameters naming one start square; first choices that clash are a combination,
    # refused in the search if proposed
    with contextlib.suppress(CandidateRefused):
        candidate_map(m, [(p.name, p.choices[0]) for p in params if p.choices])
    for p in params:
        for value in _probed(p):
            config = config_for(base, {p.name: value})
            try:
                played = candidate_map(m, config.map_edits, validate=True)
                rule_set, _missing = rule_set_for(played, base.rules)
                new_game(m, base.players[0], 0, rule_set, config)  # on the candidate's map
            except EngineError as exc:
                said = str(exc)
                raise EngineError(
                    said if said.startswith("--tune") else f"--tune {p.name}={value}: {said}"
                ) from None


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def shown_values(values: dict[str, Any]) -> str:
    """A candidate's values as ``NAME=VALUE, ...``."""
    return ", ".join(f"{k}={_shown(v)}" for k, v in values.items())


def judge(targets: Sequence[Target], games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each target's mean, interval and status over ``games``; the candidate's status (``met``
    when every target is, ``cannot`` when one is) and its loss (the squared distances of the
    means from the targets, in tolerances)."""
    figs = []
    loss = 0.0
    for t in targets:
        mean, lo, hi = mean_ci(figure_values(t.figure, games))
        figs.append(
            {
                "figure": t.figure,
                "target": t.value,
                "tol": t.tol,
                "mean": mean,
                "ci": [lo, hi],
                "status": t.status((lo, hi)),
            }
        )
        loss += ((mean - t.value) / t.tol) ** 2
    states = {f["status"] for f in figs}
    status = "cannot" if "cannot" in states else "met" if states == {"met"} else "open"
    return {"games": len(games), "figures": figs, "status": status, "loss": round(loss, 6)}


def rungs(min_games: int, max_games: int, factor: int = 3) -> list[int]:
    """Cumulative games per rung: ``min_games``, times ``factor`` each rung, to ``max_games``."""
    if not 2 <= min_games <= max_games <= MAX_GAMES:
        raise EngineError(
            f"tuning games: {min_games}..{max_games} must rise from 2 to at most {MAX_GAMES}"
        )
    out = [min_games]
    while out[-1] < max_games:
        out.append(min(max_games, out[-1] * factor))
    return out


def tune(
    run: Run,
    base: SimConfig,
    params: Sequence[TuneParam],
    targets: Sequence[Target],
    *,
    trials: int = 30,
    min_games: int = 40,
    max_games: int = 360,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
    map_info: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Search ``params`` for values meeting ``targets`` (see the module docstring); returns
    every candidate tried (its values, games and judgement per rung played), the answer
    (``best``, ``met``) and ``map_info`` (the map's ``id`` and ``name``) as ``map``."""
    try:
        # the tune extra: absent, the rest of the engine still works
        import optuna
    except ImportError:
        raise EngineError(f"the tuner needs Optuna: {EXTRA}") from None
    if not 1 <= trials <= MAX_TRIALS:
        raise EngineError(f"--tune-trials: {trials} is not in 1..{MAX_TRIALS}")
    sizes = rungs(min_games, max_games)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction="minimize",
        sampler=optuna.samplers.TPESampler(seed=base.seed),
        pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3),
    )
    tried: list[dict[str, Any]] = []
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}

    def objective(trial: Any) -> float:
        values: dict[str, Any] = {}
        for p in params:
            if p.choices:
                values[p.name] = trial.suggest_categorical(p.name, list(p.choices))
            elif p.integer:
                values[p.name] = trial.suggest_int(p.name, int(p.low), int(p.high))
            else:
                values[p.name] = trial.suggest_float(p.name, float(p.low), float(p.high))
        key = tuple(values.values())
        if key in seen:  # the sampler may propose whole numbers again: no games replayed
            if seen[key].get("pruned") or seen[key]["status"] == "refused":
                raise optuna.TrialPruned()
            return float(seen[key]["rungs"][-1]["loss"])
        config = config_for(base, values)
        games: list[dict[str, Any]] = []
        entry: dict[str, Any] = {"trial": trial.number, "values": values, "rungs": []}
        tried.append(entry)
        seen[key] = entry
        done = 0
        verdict: dict[str, Any] = {}
        for k, size in enumerate(sizes):
            rung = dataclasses.replace(config, games=size - done, seed=rung_seed(base.seed, k))
            try:
                games += run(rung).games
            except CandidateRefused as exc:  # a combination the checker or the map refuses
                entry.update(status="refused", refused=str(exc))
                if on_trial is not None:
                    on_trial(entry)
                raise optuna.TrialPruned() from None
            done = size
            verdict = judge(targets, games)
            entry["rungs"].append(verdict)
            trial.report(verdict["loss"], k + 1)
            if verdict["status"] != "open":
                break
            if trial.should_prune():
                entry["pruned"] = True
                break
        entry["status"] = verdict["status"]
        if on_trial is not None:
            on_trial(entry)
        if verdict["status"] == "met":
            study.stop()
        if entry.get("pruned"):
            raise optuna.TrialPruned()
        return float(verdict["loss"])

    study.optimize(objective, n_trials=trials)
    out = _answer(base, params, targets, tried, sizes, trials)
    out["map"] = map_info or {"id": "", "name": ""}
    return out


def _answer(
    base: SimConfig,
    params: Sequence[TuneParam],
    targets: Sequence[Target],
    tried: list[dict[str, Any]],
    sizes: list[int],
    trials: int,
) -> dict[str, Any]:
    met = [e for e in tried if e["status"] == "met"]
    played = [e for e in tried if e["rungs"]]

    def rank(e: dict[str, Any]) -> tuple[int, float]:
        last = e["rungs"][-1]
        return (-last["games"], last["loss"])

    best = met[0] if met else min(played, key=rank) if played else None
    games = sum(r["games"] for e in tried for r in e["rungs"][-1:])
    return {
        "format": FORMAT,
        "run": base.to_dict(),
        "params": [dataclasses.asdict(p) for p in params],
        "targets": [dataclasses.asdict(t) for t in targets],
        "rungs": sizes,
        "trials": len(tried),
        "max_trials": trials,
        "games_played": games,
        "met": bool(met),
        "best": best,
        "tried": tried,
    }


def check(
    run: Run, base: SimConfig, values: dict[str, Any], targets: Sequence[Target], games: int
) -> dict[str, Any]:
    """The answer checked on ``games`` fresh games (deals no rung played): whether it holds."""
    fresh = rung_seed(base.seed, -1)
    config = dataclasses.replace(config_for(base, values), games=games, seed=fresh)
    return {"seed": fresh, **judge(targets, run(config).games)}


def _cell(f: dict[str, Any]) -> str:
    lo, hi = f["ci"]
    mark = {"met": "met", "cannot": "cannot", "open": "open"}[f["status"]]
    if math.isnan(lo):
        return f"{f['mean']:.3g} ({mark})"
    return f"{f['mean']:.3g} ({lo:.3g} to {hi:.3g}, {mark})"


def tuning_blocks(result: dict[str, Any], folder: Path | None = None) -> list[tuple[Any, ...]]:
    """The tuning page as report blocks (:mod:`engine.analysis.report`); the answer's files
    are named from ``folder`` (the page's) when they lie in it."""
    run = result["run"]
    targets = ", ".join(f"{t['figure']} = {t['value']:g} ± {t['tol']:g}" for t in result["targets"])
    space = ", ".join(
        f"{p['name']} {' | '.join(p['choices'])}"
        if p.get("choices")
        else f"{p['name']} {p['low']}..{p['high']}"
        for p in result["params"]
    )
    best = result["best"]
    out: list[tuple[Any, ...]] = [
        ("h1", f"Tuning: {result['map']['name']}"),
        (
            "p",
            f"Map `{result['map']['id']}`, bot {bots_text(run)}, players "
            f"{','.join(map(str, run['players']))}, seed {run['seed']}. Targets: {targets}. "
            f"Searched: {space}; {result['trials']} candidates (at most {result['max_trials']}), "
            f"games per candidate in rungs of {', '.join(map(str, result['rungs']))}, "
            f"{result['games_played']} games in all.",
        ),
        ("h2", "Answer"),
    ]
    if best is None:
        out.append(("p", "No candidate was tried."))
        return out
    values = ", ".join(f"{k} = {_shown(v)}" for k, v in best["values"].items())
    last = best["rungs"][-1]
    if result["met"]:
        out.append(("p", f"**Met**: {values} meets every target over {last['games']} games."))
    else:
        cannot = [f["figure"] for f in last["figures"] if f["status"] == "cannot"]
        why = (
            f"its interval of {', '.join(cannot)} lies outside the target: those values "
            "cannot meet it"
            if cannot
            else "its intervals still straddle the targets: more games could settle them"
        )
        out.append(("p", f"**Not met.** The closest candidate, {values}: {why}."))
    out.append(
        (
            "table",
            ["figure", "target", f"mean over {last['games']} games (95% interval)"],
            [[f["figure"], f"{f['target']:g} ± {f['tol']:g}", _cell(f)] for f in last["figures"]],
        )
    )
    verify = result.get("check")
    if verify:
        held = "holds" if verify["status"] == "met" else "does not hold"
        out.append(
            (
                "p",
                f"Checked on {verify['games']} fresh games (seed {verify['seed']}): the answer "
                f"{held}. "
                + "; ".join(f"{f['figure']} {_cell(f)}" for f in verify["figures"])
                + ".",
            )
        )
    written = result.get("written")
    if written:
        files = " and ".join(f"`{_from(Path(path), folder)}`" for path in written.values())
        out.append(("p", f"The answer is written as new files: {files}."))
    out.append(("h2", "Every candidate"))
    names = [p["name"] for p in result["params"]]
    rows = []
    for e in result["tried"]:
        shown = [_shown(e["values"][n]) for n in names]
        if not e["rungs"]:
            figures = ["-"] * len(result["targets"])
            rows.append([str(e["trial"]), *shown, "0", f"refused: {e['refused']}", *figures])
            continue
        last = e["rungs"][-1]
        state = "pruned" if e.get("pruned") else e["status"]
        rows.append(
            [
                str(e["trial"]),
                *shown,
                str(last["games"]),
                state,
                *(_cell(f) for f in last["figures"]),
            ]
        )
    heads = [f["figure"] for f in result["targets"]]
    out.append(("table", ["#", *names, "games", "status", *heads], rows))
    out.append(
        (
            "p",
            "A candidate is *met* when the 95% interval of every figure lies inside its target, "
            "*cannot* when one lies wholly outside (dropped at once), *pruned* when the "
            "successive-halving pruner stopped it for doing worse than its peers at a rung, "
            "*refused* when the rule-set checker or the map refused its values together.",
        )
    )
    return out


def _from(path: Path, folder: Path | None) -> str:
    if folder is not None and path.resolve().is_relative_to(folder.resolve()):
        return path.resolve().relative_to(folder.resolve()).as_posix()
    return str(path)


def write_tuning(result: dict[str, Any], out_dir: Any) -> dict[str, Any]:
    """Write ``tuning.json``, ``tuning.md`` and ``tuning.html``."""
    return write_pages(
        out_dir,
        "tuning",
        result,
        title=f"Tuning: {result['map']['name']}",
        draw=lambda out: {},
        blocks=lambda images: tuning_blocks(result, Path(out_dir)),
        charts=False,
    )


__all__ = [
    "check",
    "check_space",
    "shown_values",
    "FIGURES",
    "Target",
    "TuneParam",
    "figure_values",
    "judge",
    "parse_target",
    "parse_tune",
    "rungs",
    "tune",
    "tuning_blocks",
    "write_tuning",
]
