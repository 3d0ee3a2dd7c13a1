"""City names in the local language (Roma, München): the shipped table, the import's notes and
the generator of the table."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from engine.data import build_city_names as builder
from engine.geo.citynames import local_name, names_notes, regional_names
from engine.geo.country import import_country

ROME, MUNICH, COPENHAGEN, WARSAW = 3169070, 2867714, 2618425, 756135
ZURICH, GENEVA, TOKYO, VILA_REAL = 2657896, 2660646, 1850147, 2509509


def test_shipped_table_gives_local_names() -> None:
    assert local_name(ROME, "Rome") == "Roma"
    assert local_name(str(MUNICH), "Munich") == "München"
    assert local_name(COPENHAGEN, "Copenhagen") == "København"
    assert local_name(WARSAW, "Warsaw") == "Warszawa"
    # already local, regional, or in another script: GeoNames' name stays
    assert local_name(ZURICH, "Zürich") == "Zürich"
    assert local_name(GENEVA, "Geneva") == "Geneva"
    assert regional_names(GENEVA) == ["Genf", "Genève", "Ginevra"]
    assert local_name(TOKYO, "Tokyo") == "Tokyo"
    assert local_name(VILA_REAL, "Vila-real") == "Vila-real"  # Valencia speaks Catalan
    assert regional_names(ROME) == []


def test_notes_say_what_was_renamed_and_what_was_not() -> None:
    notes = names_notes(
        [
            ("Rome", "Roma", "IT", ROME),
            ("Geneva", "Geneva", "CH", GENEVA),
            ("Tokyo", "Tokyo", "JP", TOKYO),
            ("Nowhere", "Nowhere", "ZZ", 0),
        ]
    )
    assert notes[0].startswith("city names in the local language (Italian")
    assert "Rome → Roma" in notes[0]
    assert "Geneva: named by region (Genf, Genève, Ginevra); kept GeoNames' name" in notes
    assert any("of JP are in Japanese script" in n for n in notes)
    assert "no local city names of ZZ in the data; kept GeoNames' names" in notes
    many = names_notes([(f"C{i}", f"L{i}", "IT", 0) for i in range(10)], limit=3)
    assert many[0].endswith("C2 → L2 and 7 more")


def test_import_uses_local_names_unless_asked_not_to() -> None:
    local = import_country("Italy", km=60.0, crop=1, cities=8, neighbours=False)
    names = [c.name for c in local.cities]
    assert names[:3] == ["Roma", "Milano", "Napoli"]
    assert local.cities[0].main_name == "Rome" and local.cities[0].geonameid == ROME
    assert any(n.startswith("city names in the local language (Italian)") for n in local.notes)
    main = import_country("Italy", km=60.0, crop=1, cities=8, neighbours=False, local_names=False)
    assert [c.name for c in main.cities][:3] == ["Rome", "Milan", "Naples"]
    assert main.cities[0].main_name == ""
    assert [c.square for c in main.cities] == [c.square for c in local.cities]


# -- the generator ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("main", "official", "regional", "expected"),
    [
        ("Rome", {"it": "Roma"}, {}, "Roma"),  # an English main name
        ("Zürich", {"de": "Zürich", "fr": "Zurich"}, {}, "Zürich"),  # local already
        ("Vila-real", {"es": "Villarreal"}, {"ca": "Vila-real"}, "Vila-real"),  # regional
        ("Freiburg", {"de": "Freiburg im Breisgau"}, {}, "Freiburg"),  # a qualifier only
        ("Antwerp", {"nl": "Antwerpen"}, {}, "Antwerpen"),  # longer, but another word
        ("Gasteiz / Vitoria", {"es": "Vitoria"}, {}, "Gasteiz / Vitoria"),  # bilingual
        ("Geneva", {"de": "Genf", "fr": "Genève"}, {}, ["Genf", "Genève"]),
        ("Tokyo", {"ja": "東京都"}, {}, "Tokyo"),  # not in Latin letters
    ],
)
def test_local_name_rules(
    main: str, official: dict[str, str], regional: dict[str, str], expected: str | list[str]
) -> None:
    assert builder.local_name(main, official, regional) == expected


def _write_mo(path: Path, entries: dict[str, str]) -> None:
    """A gettext catalogue (the .mo format: header, two offset tables, the strings)."""
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", **entries}
    keys = sorted(entries)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(entries[k].encode() + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n
    table_ids, table_strs, off = [], [], 0
    for k in keys:
        table_ids.append((len(k.encode()), start + off))
        off += len(k.encode()) + 1
    off = 0
    for k in keys:
        table_strs.append((len(entries[k].encode()), start + len(ids) + off))
        off += len(entries[k].encode()) + 1
    head = struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    body = b"".join(struct.pack("<2I", *t) for t in table_ids + table_strs)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(head + body + ids + strs)


def test_generator_builds_the_table_from_geonames_catalogues(tmp_path: Path) -> None:
    catalogues = {
        "it": {str(ROME): "Roma", str(GENEVA): "Ginevra"},
        "de": {str(MUNICH): "München", str(GENEVA): "Genf", str(ZURICH): "Zürich"},
        "fr": {str(GENEVA): "Genève", str(ZURICH): "Zurich", str(ROME): "Rome"},
        "ja": {str(TOKYO): "東京都"},
        "en": {str(ROME): "Rome"},
    }
    for lang, entries in catalogues.items():
        _write_mo(tmp_path / lang / "LC_MESSAGES" / "geonames.mo", entries)
    data = builder.build(tmp_path)
    assert data["names"] == {str(ROME): "Roma", str(MUNICH): "München"}
    assert data["regional"] == {str(GENEVA): ["Genf", "Genève", "Ginevra"]}
    assert data["languages"]["IT"] == ["Italian"]
    assert data["languages"]["CH"] == ["German", "French", "Italian"]
    assert data["other_script"] == {"JP": "Japanese"}
    out = tmp_path / "out.json"
    assert builder.main([str(tmp_path), str(out)]) == 0 and out.is_file()
    assert builder.main([str(tmp_path / "none"), str(out)]) == 2
