"""Generate ``engine/data/tiles.json`` from the tile tables of the shared reference ``tiles.md``.

Run from a checkout: ``python -m engine.data.build_tiles [TILES_MD] [OUT_JSON]``. The default input
is ``../shared/reference/tiles.md`` next to the repository, the default output the bundled
``tiles.json``. The script is a maintenance tool, kept in the package so the data can always be
regenerated; importing it has no side effect.

The reference lists every tile type as one Markdown table row (sections 3, 4 and 5). Each row gives
the edges N,E,S,W in JCZ orientation, the city segments (``N+W [1 coat of arms]; S``), the road
segments (``E–W``, ``S (ends at city) [INN]``) and the field segments by half-edges with the cities
each touches (``{EL SR} → city N+W``). Those become the ``segments`` list of a tile: cities first,
then roads, then the monastery, then fields; a field's ``cities`` are indices into that list.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = _REPO.parent / "shared" / "reference" / "tiles.md"
DEFAULT_OUTPUT = Path(__file__).resolve().parent / "tiles.json"

_SECTIONS = {"## 3.": ("base", ""), "## 4.": ("ic", "IC-"), "## 5.": ("tb", "TB-")}
_ENDINGS = (
    ("monastery", "monastery"),
    ("farmhouse", "house"),
    ("at city", "city"),
    ("junction", "junction"),
    ("village", "junction"),
)


class ReferenceError(ValueError):
    """The reference text does not have the expected shape."""


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _city_label(edges: list[str]) -> str:
    return "+".join(edges)


def _parse_cities(cell: str, where: str) -> list[dict[str, Any]]:
    if cell == "—":
        return []
    cities = []
    for part in cell.split(";"):
        m = re.fullmatch(r"([NESW](?:\+[NESW])*)((?:\s*\[[^\]]*\])*)", part.strip())
        if not m:
            raise ReferenceError(f"{where}: cannot read city segment {part!r}")
        city: dict[str, Any] = {"kind": "city", "edges": m.group(1).split("+")}
        for tag in re.findall(r"\[([^\]]*)\]", m.group(2)):
            if (coat := re.fullmatch(r"(\d+) coats? of arms", tag)) is not None:
                city["coats_of_arms"] = int(coat.group(1))
            elif tag == "CATHEDRAL":
                city["cathedral"] = True
            elif (goods := re.fullmatch(r"goods: (\w+)", tag)) is not None:
                city["goods"] = goods.group(1)
            elif tag == "castle-base=false":
                pass  # only matters for Bridges, Castles & Bazaars; noted in the description
            else:
                raise ReferenceError(f"{where}: unknown city marker [{tag}]")
        cities.append(city)
    return cities


def _parse_roads(cell: str, where: str) -> list[dict[str, Any]]:
    if cell == "—":
        return []
    roads = []
    # Split on ";" outside parentheses: "W (passes under …: dead end); S (ends at city)".
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(cell):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ";" and depth == 0:
            parts.append(cell[start:i])
            start = i + 1
    parts.append(cell[start:])
    for part in parts:
        m = re.fullmatch(r"([NESW])(?:–([NESW]))?\s*(\([^)]*\))?\s*(\[INN\])?", part.strip())
        if not m:
            raise ReferenceError(f"{where}: cannot read road segment {part!r}")
        road: dict[str, Any] = {"kind": "road", "edges": [e for e in m.group(1, 2) if e]}
        if m.group(2) is None:
            note = m.group(3) or ""
            ends = [kind for key, kind in _ENDINGS if key in note]
            if not ends:
                raise ReferenceError(f"{where}: road {part!r} ends inside the tile, but where?")
            road["ends"] = ends[0]
        if m.group(4):
            road["inn"] = True
        roads.append(road)
    return roads


def _parse_fields(cell: str, cities: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    if cell == "—":
        return []
    labels = {_city_label(c["edges"]): i for i, c in enumerate(cities)}
    fields = []
    for part in cell.split("<br>"):
        m = re.fullmatch(r"\{([^}]*)\}\s*→\s*(no city|city (.*))", part.strip())
        if not m:
            raise ReferenceError(f"{where}: cannot read field segment {part!r}")
        halves = m.group(1).split()
        if halves and halves[0] == "I":
            halves = []  # inner field: "{I (inner, no edge)}"
        refs = []
        if m.group(3):
            for label in m.group(3).split(","):
                if label.strip() not in labels:
                    raise ReferenceError(f"{where}: field refers to unknown city {label!r}")
                refs.append(labels[label.strip()])
        fields.append({"kind": "field", "edges": halves, "cities": refs})
    return fields


def _name(cities: list[dict[str, Any]], roads: list[dict[str, Any]], monastery: bool) -> str:
    parts = []
    if monastery:
        parts.append("Monastery")
    for city in cities:
        text = "City " + _city_label(city["edges"])
        extras = []
        if city.get("coats_of_arms"):
            extras.append("coat of arms")
        if city.get("cathedral"):
            extras.append("cathedral")
        if city.get("goods"):
            extras.append(city["goods"])
        parts.append(text + (f" ({', '.join(extras)})" if extras else ""))
    for road in roads:
        text = "road " + "–".join(road["edges"])
        if "ends" in road:
            text += f" to {road['ends']}"
        if road.get("inn"):
            text += " (inn)"
        parts.append(text)
    if not parts:
        return "Fields"
    name = ", ".join(parts)
    return name[0].upper() + name[1:]


def _clean(text: str) -> str:
    return re.sub(r"\*\*|`", "", text).replace("<br>", " ").strip()


def parse_reference(text: str) -> list[dict[str, Any]]:
    """Every tile type of the reference's sections 3–5, as tile-set JSON objects."""
    tiles: list[dict[str, Any]] = []
    section: tuple[str, str] | None = None
    header: list[str] | None = None
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            section = next((v for k, v in _SECTIONS.items() if line.startswith(k)), None)
            header = None
            continue
        if section is None or not line.startswith("|"):
            continue
        cells = _cells(line)
        if header is None:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue  # the |---|---| separator row
        expansion, prefix = section
        col = dict(zip(header, cells, strict=True))
        where = f"tiles.md line {lineno}"
        letter = cells[0].split(",")[0].strip().rstrip("ab") or cells[0]
        edges = col["Edges N,E,S,W (JCZ orientation)"].strip("`")
        city_key = next(k for k in header if k.startswith("City segments"))
        field_key = next(k for k in header if k.startswith("Field segments"))
        cities = _parse_cities(col[city_key], where)
        roads = _parse_roads(col["Road segments"], where)
        fields = _parse_fields(col[field_key], cities, where)
        monastery = col["Monastery"] == "yes"
        segments = cities + roads + ([{"kind": "monastery"}] if monastery else [])
        segments += fields
        count = re.match(r"\d+", col["Count"])
        coats = sum(c.get("coats_of_arms", 0) for c in cities)
        if count is None or coats != int(col["Coats of arms"]):
            raise ReferenceError(f"{where}: count or coats of arms unreadable")
        tile: dict[str, Any] = {
            "id": prefix + letter,
            "name": _name(cities, roads, monastery),
            "description": _clean(col["Notes"]),
            "jcz": re.findall(r"`([^`]+)`", col["JCZ id(s)"]),
            "expansion": expansion,
            "count": int(count.group()),
            "edges": edges,
            "segments": segments,
        }
        picture = col.get("Wikicarpedia C3 picture, if different", "—")
        if picture != "—":
            tile["description"] += f" Wikicarpedia C3 picture: {_clean(picture)}."
        tiles.append(tile)
    return tiles


def _dump(data: dict[str, Any]) -> str:
    """JSON with one tile key per line and one segment per line: readable and diff-friendly."""
    out = ["{"]
    for key, value in data.items():
        if key != "tiles":
            out.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    out.append('  "tiles": [')
    for t, tile in enumerate(data["tiles"]):
        out.append("    {")
        items = list(tile.items())
        for k, (key, value) in enumerate(items):
            comma = "," if k < len(items) - 1 else ""
            if key == "segments":
                out.append('      "segments": [')
                for s, seg in enumerate(value):
                    seg_comma = "," if s < len(value) - 1 else ""
                    out.append(f"        {json.dumps(seg, ensure_ascii=False)}{seg_comma}")
                out.append(f"      ]{comma}")
            else:
                out.append(
                    f"      {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}"
                )
        out.append("    }" + ("," if t < len(data["tiles"]) - 1 else ""))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def build(source: Path = DEFAULT_SOURCE, output: Path = DEFAULT_OUTPUT) -> int:
    """Write the tile set file; return the number of tile types."""
    tiles = parse_reference(source.read_text(encoding="utf-8"))
    data = {
        "format": "carcassonne-tileset",
        "format_version": 1,
        "name": "Carcassonne base game + Inns & Cathedrals + Traders & Builders",
        "description": (
            "The 114 land tiles (72 base, 18 I&C, 24 T&B) in JCloisterZone orientation, generated "
            "by engine/data/build_tiles.py from the team reference tiles.md. Inns, cathedrals and "
            "goods are recorded as data only: the Maps rules play expansion tiles as plain tiles."
        ),
        "start_tile": "D",
        "tiles": tiles,
    }
    output.write_text(_dump(data), encoding="utf-8")
    return len(tiles)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    source = Path(args[0]) if args else DEFAULT_SOURCE
    output = Path(args[1]) if len(args) > 1 else DEFAULT_OUTPUT
    try:
        n = build(source, output)
    except (OSError, ReferenceError) as exc:
        print(f"build_tiles: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {n} tile types to {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
