"""The editor's rule-set file writer: a full disk or a folder that refuses the write is one line
naming the rule-set file (it said "Unknown error", or named the hidden temporary; issue #29)."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from engine.boundedio import OutputFileError
from mapeditor.ruleset_files import write_atomically


def test_a_full_disk_names_the_rule_set_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "mine.ruleset.json"
    target.write_text("old\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputFileError) as caught:
        write_atomically(target, "new\n")
    assert str(caught.value) == f"{target}: cannot write: the disk is full"
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["mine.ruleset.json"]


def test_a_refused_folder_names_the_rule_set_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_args: object, **kwargs: object) -> tuple[int, str]:
        tmp = os.path.join(str(kwargs["dir"]), ".mine.ruleset.json.x1y2.tmp")
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), tmp)

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    target = tmp_path / "mine.ruleset.json"
    with pytest.raises(OSError) as caught:
        write_atomically(target, "new\n")
    assert str(caught.value).startswith(f"{target}: cannot write: permission denied")
    assert ".tmp" not in str(caught.value)
