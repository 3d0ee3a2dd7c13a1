"""Command lines accept a map file or a shipped map's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.resources import bundled_map, find_map


def test_shipped_names_and_aliases() -> None:
    assert find_map("deutschland") == bundled_map("deutschland")
    assert find_map("Germany") == bundled_map("deutschland")
    assert find_map("great_britain") == bundled_map("great-britain")


def test_paths_are_returned_as_given(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert find_map(str(missing)) == missing  # loading reports the missing file itself
    assert find_map("nope.json") == Path("nope.json")


def test_an_unknown_name_lists_the_shipped_maps() -> None:
    with pytest.raises(
        EngineError, match=r"atlantis: no such map file, nor a shipped map \(.*deutschland"
    ):
        find_map("atlantis")
