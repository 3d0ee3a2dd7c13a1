"""Human playtests beside bot figures: ``python -m engine simulate MAP --humans DIR``.

Bots are not people ("AI play is not currently predictive of human play"), so a designer wants
the figures of the games people played next to the bots'. A game record says who sat where in
its informative ``result.seats`` (``"human"`` or a bot kind; the online host writes it). Every
finished record of the map in DIR with a human seat is replayed by the engine (so a record is
checked, never trusted) and measured with the balance report's own figures; :func:`compare`
puts the two side by side and says where they differ.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.analysis.balance import balance_report, two_proportion_p_value
from engine.analysis.simulate import SimResult, game_facts
from engine.errors import EngineError
from engine.mapdef import MapDef
from engine.record import load_record
from engine.replaying import replay

MAX_RECORDS = 5000
"""Most record files read from a folder."""
ALPHA = 0.05
"""A difference is reported when its test's p-value is below this."""


def human_games(m: MapDef, folder: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The facts of every finished game of ``m`` with a human seat in ``folder`` (searched
    recursively), and a note for each record file left out and why."""
    root = Path(folder)
    if not root.is_dir():
        raise EngineError(f"--humans: {root} is not a folder")
    games: list[dict[str, Any]] = []
    notes: list[str] = []
    paths = sorted(p for p in root.rglob("*.json") if p.is_file())
    for path in paths[:MAX_RECORDS]:
        try:
            record = load_record(path)
        except EngineError:
            continue  # not a game record (a map, a table file...)
        seats = (record.result or {}).get("seats")
        if not isinstance(seats, list) or "human" not in seats:
            continue
        try:
            game = replay(record)
        except EngineError as exc:
            notes.append(f"{path}: left out: {exc}")
            continue
        if game.map is None or game.map.id != m.id:
            continue
        if not game.is_over():
            notes.append(f"{path}: left out: not finished (turn {game.turn})")
            continue
        facts = game_facts(game, index=len(games), seed=record.seed)
        facts["bots"] = [str(s) for s in seats]
        games.append(facts)
    if len(paths) > MAX_RECORDS:
        notes.append(f"{root}: only the first {MAX_RECORDS} of {len(paths)} files were read")
    return games, notes


def _mean(d: Any) -> float | None:
    return round(float(d["mean"]), 2) if d.get("n") else None


def compare(m: MapDef, bots: SimResult, humans: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures of the human games beside the bot games', per player count, and sentences on
    where they differ (seat win rates by a two-proportion test, scores and lengths by Welch's
    t-test)."""
    # deferred: scipy costs ~0.3 s to import and only this comparison needs it
    from scipy import stats

    bot_report = balance_report(m, bots)
    human_report = balance_report(m, replace(bots, games=humans))
    rows: list[dict[str, Any]] = []
    differences: list[str] = []
    for players in sorted(set(bot_report["scores"]) | set(human_report["scores"]), key=int):
        row: dict[str, Any] = {"players": int(players)}
        for who, report in (("bots", bot_report), ("humans", human_report)):
            scores = report["scores"].get(players)
            wins = report["wins"].get(players)
            row[who] = {
                "games": scores["games"] if scores else 0,
                "mean_score": _mean(scores["all"]) if scores else None,
                "winning_score": _mean(scores["winning"]) if scores else None,
                "margin": _mean(scores["margin"]) if scores else None,
                "first_seat_wins": wins["seats"][0]["rate"] if wins else None,
            }
        rows.append(row)
        b_scores, h_scores = bot_report["scores"].get(players), human_report["scores"].get(players)
        b_wins, h_wins = bot_report["wins"].get(players), human_report["wins"].get(players)
        if not (b_scores and h_scores and b_wins and h_wins):
            continue
        if h_scores["games"] >= 2 and b_scores["games"] >= 2:
            flat = [[v for seat in s["values"] for v in seat] for s in (b_scores, h_scores)]
            p = float(stats.ttest_ind(flat[0], flat[1], equal_var=False).pvalue)
            if p < ALPHA:
                differences.append(
                    f"{players} players: people score {row['humans']['mean_score']} on average, "
                    f"bots {row['bots']['mean_score']} (Welch's t-test p = {p:.3g})"
                )
        k1, n1 = b_wins["seats"][0]["count"], b_wins["games"]
        k2, n2 = h_wins["seats"][0]["count"], h_wins["games"]
        p = two_proportion_p_value(k1, n1, k2, n2)
        if p < ALPHA:
            differences.append(
                f"{players} players: the first seat wins {k2}/{n2} games of people and {k1}/{n1} "
                f"of bots (p = {p:.3g})"
            )
    return {
        "format": "carcassonne-humans-beside-bots",
        "map": m.id,
        "human_games": len(humans),
        "bot_games": len(bots.games),
        "rows": rows,
        "differences": differences,
        "human_report": human_report,
    }


def write(comparison: dict[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """``humans.json`` (everything) and ``humans.md`` (the table and the differences)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    js = out / "humans.json"
    js.write_text(json.dumps(comparison, indent=1) + "\n", encoding="utf-8")
    lines = [
        f"# People beside bots: {comparison['map']}",
        "",
        f"{comparison['human_games']} human games, {comparison['bot_games']} bot games.",
        "",
        "| Players | Who | Games | Mean score | Winning score | Margin | First seat wins |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in comparison["rows"]:
        for who in ("humans", "bots"):
            f = row[who]
            first = "" if f["first_seat_wins"] is None else f"{f['first_seat_wins']:.0%}"
            lines.append(
                f"| {row['players']} | {who} | {f['games']} | {f['mean_score'] or ''} | "
                f"{f['winning_score'] or ''} | {f['margin'] or ''} | {first} |"
            )
    lines += ["", "## Where they differ", ""]
    lines += [f"- {d}" for d in comparison["differences"]] or [
        f"- No difference passes the tests (p < {ALPHA}) with these games."
    ]
    md = out / "humans.md"
    md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return md, js
