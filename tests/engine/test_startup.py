"""What start-up no longer re-checks on every run is checked here, once per test run.

``engine.tiles.default_tileset`` skips the JSON-schema check of the bundled ``tiles.json`` and
``engine.mapio`` does not check the bundled map schema against its metaschema (each cost 0.1-0.4
s per process); the CLI imports only the command it runs, and numpy only where it is used.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from engine.resources import data_dir, schema_path
from engine.tiles import _schema_error, default_tileset, tileset_from_dict

REPO = Path(__file__).resolve().parents[2]


def test_bundled_tiles_json_passes_its_schema() -> None:
    data = json.loads((data_dir() / "tiles.json").read_text(encoding="utf-8"))
    assert _schema_error(data, "tiles.json") is None
    checked = tileset_from_dict(data, source="tiles.json")
    assert checked.types == default_tileset().types
    assert checked.start_tile == default_tileset().start_tile


def test_a_tile_set_that_breaks_the_schema_is_still_refused() -> None:
    data = json.loads((data_dir() / "tiles.json").read_text(encoding="utf-8"))
    data["tiles"][0]["edges"] = "XXXX"
    with pytest.raises(Exception, match=r"\$\.tiles\[0\]\.edges"):
        tileset_from_dict(data, source="bad.json")


@pytest.mark.parametrize("name", ["map", "tileset", "game-record"])
def test_bundled_schemas_are_valid_schemas(name: str) -> None:
    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema).check_schema(schema)


def test_validate_command_imports_neither_numpy_nor_other_commands() -> None:
    code = (
        "import sys\n"
        "from engine.cli import main\n"
        "code = main(['validate', 'maps/deutschland.json'])\n"
        "print(code, 'numpy' in sys.modules, 'engine.cli.simulate' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "0 False False"


def test_help_still_lists_every_command() -> None:
    from engine.cli import COMMANDS, build_parser

    text = build_parser().format_help()
    assert all(c.replace("_", "-") in text or c in text for c in COMMANDS)
