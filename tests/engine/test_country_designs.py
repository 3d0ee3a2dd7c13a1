"""The country designs are data files read by the build tool (``engine.geo.mapbuild``, outside the runtime
packages); Ibérica's Menorca opens from the mainland and its twelve tracks share the squares
fairly; the build reports large-city sides it cannot print."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.geo.mapbuild.countrymaps import (
    COUNTRIES,
    DesignError,
    _fair_partition,
    design_notes,
    load_design,
    load_rasters,
    sources_dir,
)
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.validation import reachable_squares


def test_engine_does_not_ship_or_import_the_builder() -> None:
    root = Path(__file__).resolve().parents[2]
    assert not (root / "engine" / "countrymaps.py").exists()
    code = "import engine, engine.cli, engine.geo.country, engine.geo.draft, sys; print('engine.geo.mapbuild' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert out.stdout.strip() == "False", out.stderr
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert '"engine.geo.mapbuild"' not in pyproject.split("packages = [")[1].split("]")[0]


def test_designs_are_data_files_for_all_five_countries() -> None:
    folder = sources_dir() / "countries"
    assert sorted(p.stem for p in folder.glob("*.json") if p.stem != "order") == sorted(COUNTRIES)
    for cid, spec in COUNTRIES.items():
        assert load_design(folder / f"{cid}.json") == spec


def test_a_bad_design_file_names_the_field(tmp_path: Path) -> None:
    data = json.loads((sources_dir() / "countries" / "iberica.json").read_text(encoding="utf-8"))
    data["cities"][0]["sides"][0][1] = "castle"
    bad = tmp_path / "iberica.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DesignError, match=r"cities\[0\]\.sides\[0\]\[1\]: unknown value 'castle'"):
        load_design(bad)
    data["cities"][0]["sides"][0][1] = "city"
    data["cities"][0]["colour"] = "red"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DesignError, match=r"cities\[0\]: unknown field\(s\) colour"):
        load_design(bad)


def test_menorca_opens_from_the_mainland() -> None:
    m = load_map(bundled_map("iberica"))
    menorca = set(m.islands["menorca"].squares)
    balearics = m.gated_squares()
    mainland = m.placeable_squares() - balearics
    ferry = next(f for f in m.ferries.values() if {f.a.square, f.b.square} & menorca)
    assert {ferry.a.square, ferry.b.square} - menorca <= mainland  # not from Mallorca
    assert ferry.id == "barcelona-mao"
    assert menorca <= reachable_squares(m)


def test_iberica_tracks_share_the_squares_fairly() -> None:
    m = load_map(bundled_map("iberica"))
    placeable = m.placeable_squares()
    counts = [sum(1 for _, y in placeable if y in m.tracks[k].rows) for k in range(1, 13)]
    assert sum(counts) == len(placeable)
    share = len(placeable) / 12
    assert min(counts) >= 0.6 * share and max(counts) <= 1.6 * share, counts
    assert sorted(r for t in m.tracks.values() for r in t.rows) == list(range(m.height))


def test_fair_partition() -> None:
    assert _fair_partition([1, 1, 1, 1], 2) == [0, 2, 4]
    assert _fair_partition([10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2) == [0, 1, 11]
    bounds = _fair_partition([3] * 12, 12)
    assert bounds == list(range(13))


def test_the_build_reports_large_city_sides_it_cannot_print() -> None:
    rasters = load_rasters()
    notes = design_notes(COUNTRIES["iberica"], rasters["iberica"])
    assert any("Barcelona" in n and "road side" in n for n in notes)
    assert any("Lisboa" in n for n in notes)
    assert any("Marseille" in n for n in design_notes(COUNTRIES["france"], rasters["france"]))
