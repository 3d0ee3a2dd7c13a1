"""The screenshot scripts' one OUTDIR argument (mapeditor.screen_args), through their mains."""

from __future__ import annotations

from pathlib import Path

import pytest

from mapeditor.online import join_screens, screens
from mapeditor.playtest import aid_screens
from mapeditor.screen_args import out_dir


@pytest.mark.parametrize(
    ("main", "command"),
    [
        (screens.main, "mapeditor.online.screens"),
        (join_screens.main, "mapeditor.online.join_screens"),
        (aid_screens.main, "mapeditor.playtest.aid_screens"),
    ],
)
@pytest.mark.parametrize("argv", [[], ["a", "b"]])
def test_a_script_without_exactly_one_outdir_prints_its_usage(
    main, command: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == f"usage: python -m {command} OUTDIR\n"


def test_the_outdir_is_made_with_its_parents(tmp_path: Path) -> None:
    out = out_dir([str(tmp_path / "a" / "b")], "x")
    assert out == tmp_path / "a" / "b" and out.is_dir()
    assert out_dir([str(out)], "x") == out  # an existing folder is fine
