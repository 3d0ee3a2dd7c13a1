"""Files that are not ours: every writer replaces only a regular file (or writes through a link
the user named), report files never follow a link planted in their folder, and a failed write
names the file asked for, never the hidden temporary (issue #29)."""

from __future__ import annotations

import errno
import json
import os
import tempfile
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.boundedio import OutputFileError, write_bytes_atomically, write_text_atomically
from engine.mapdef import FileRuleSet
from engine.mapio import load_map, save_map
from engine.resources import bundled_map
from engine.rules.data import preset_spec, save_ruleset


def test_a_named_pipe_is_refused_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(OutputFileError, match=r"pipe\.json: is a named pipe, not a regular file"):
        write_text_atomically(fifo, "{}\n")
    assert fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.json"]


def test_a_device_or_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="/dev/null: is a character device"):
        write_text_atomically("/dev/null", "x")
    assert Path("/dev/null").is_char_device()
    (tmp_path / "d.json").mkdir()
    with pytest.raises(OutputFileError, match=r"d\.json: is a directory"):
        write_text_atomically(tmp_path / "d.json", "x")


def test_crop_to_dev_null_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # as root this replaced the machine's /dev/null with a map, and exited 0
    assert main(["crop", str(bundled_map("example-small")), "-o", "/dev/null"]) == 2
    assert "/dev/null: is a character device, not a regular file" in capsys.readouterr().err
    assert Path("/dev/null").is_char_device()


def test_a_link_the_user_names_is_written_through(tmp_path: Path) -> None:
    # the link stays and the file it points to is updated: an edited map does not fork
    real = tmp_path / "store" / "france.json"
    real.parent.mkdir()
    m = load_map(bundled_map("example-small"))
    save_map(m, real)
    link = tmp_path / "france.json"
    link.symlink_to(real)
    m.name = "Changed behind a link"
    save_map(m, link)
    assert link.is_symlink()
    assert load_map(real).name == "Changed behind a link"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["france.json", "store"]


def test_a_dangling_or_looping_link_is_not_written_through(tmp_path: Path) -> None:
    link = tmp_path / "x.json"
    link.symlink_to(tmp_path / "elsewhere" / "x.json")
    with pytest.raises(OutputFileError, match="a symbolic link to a missing file"):
        write_text_atomically(link, "{}")
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(OutputFileError, match="cannot follow the symbolic link"):
        write_text_atomically(loop, "{}")


def test_a_link_not_followed_is_replaced_and_its_target_untouched(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    link = tmp_path / "out" / "report.json"
    link.parent.mkdir()
    link.symlink_to(victim)
    write_bytes_atomically(link, b"{}", follow_links=False)
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert not link.is_symlink() and link.read_bytes() == b"{}"


def test_report_writers_never_follow_a_planted_link(tmp_path: Path) -> None:
    from engine.analysis.report import write_pages

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    out = tmp_path / "report"
    out.mkdir()
    for name in ("report.json", "report.md", "report.html", "chart.png"):
        (out / name).symlink_to(victim)

    def draw(folder: Path) -> dict[str, Path]:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from engine.analysis.report import save_chart

        fig = plt.figure(figsize=(1, 1))
        return {"chart": save_chart(plt, fig, folder / "chart.png", 20)}

    files = write_pages(out, "report", {"a": 1}, title="t", draw=draw, blocks=lambda _i: [])
    assert victim.read_text(encoding="utf-8") == "keep me"
    for path in files.values():
        assert path.is_file() and not path.is_symlink()
    assert json.loads((out / "report.json").read_text(encoding="utf-8")) == {"a": 1}
    assert (out / "chart.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in out.iterdir()) == [
        "chart.png",
        "report.html",
        "report.json",
        "report.md",
    ]


def test_a_full_disk_names_the_file_not_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "mine.ruleset.json"
    save_ruleset(preset_spec("france"), path)
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputFileError) as caught:
        save_ruleset(preset_spec("benelux"), path)
    assert str(caught.value) == f"{path}: cannot write: the disk is full"
    assert caught.value.errno == errno.ENOSPC
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["mine.ruleset.json"]


def test_a_folder_not_writable_names_the_file_not_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # mkstemp's own error names the hidden temporary (.mine.ruleset.json.abc123.tmp); the tests
    # run as root, where a read-only folder is writable, so the refusal is made here
    def refused(*_args: object, **kwargs: object) -> tuple[int, str]:
        tmp = os.path.join(str(kwargs["dir"]), ".mine.ruleset.json.abc123.tmp")
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), tmp)

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    path = tmp_path / "mine.ruleset.json"
    with pytest.raises(OutputFileError) as caught:
        save_ruleset(preset_spec("france"), path)
    message = str(caught.value)
    assert message.startswith(f"{path}: cannot write: permission denied")
    assert ".tmp" not in message
    assert isinstance(caught.value, OSError)  # callers that catch OSError still do


def test_text_utf8_cannot_store_is_refused_before_writing(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    with pytest.raises(OutputFileError, match="UTF-8 cannot store"):
        write_text_atomically(path, '{"title": "\ud800"}')
    assert not path.exists()


def test_preset_output_never_follows_a_dangling_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside" / "planted.json"
    outside.parent.mkdir()
    link = tmp_path / "work" / "mine.ruleset.json"
    link.parent.mkdir()
    link.symlink_to(outside)
    assert main(["ruleset", "preset", "france", "-o", str(link)]) == 2
    assert "exists already; not overwritten" in capsys.readouterr().err
    assert not outside.exists()


def test_preset_output_in_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nowhere" / "mine.ruleset.json"
    assert main(["ruleset", "preset", "france", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"{target}: no folder {tmp_path / 'nowhere'}"
    assert "Traceback" not in err


def _map_with_rule_set_file(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    save_ruleset(preset_spec("france"), folder / "x.ruleset.json")
    data = json.loads(bundled_map("example-small").read_text(encoding="utf-8"))
    data["rule_set"] = {"file": "x.ruleset.json"}
    path = folder / "map.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_grid_verb_writing_to_another_folder_copies_the_rule_set_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _map_with_rule_set_file(tmp_path / "a")
    out = tmp_path / "b" / "cropped.json"
    out.parent.mkdir()
    assert main(["crop", str(source), "-o", str(out)]) == 0
    assert "rule-set file copied" in capsys.readouterr().out
    written = load_map(out)
    assert written.rule_set == FileRuleSet("x.ruleset.json", preset_spec("france"))


def test_a_grid_verb_refuses_to_drop_the_rule_set_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _map_with_rule_set_file(tmp_path / "a")
    other = tmp_path / "b"
    other.mkdir()
    save_ruleset(preset_spec("benelux"), other / "x.ruleset.json")  # another rule set, same name
    out = other / "cropped.json"
    assert main(["crop", str(source), "-o", str(out)]) == 2
    assert "holds another rule set" in capsys.readouterr().err
    assert not out.exists()
    (source.parent / "x.ruleset.json").unlink()  # a rule-set file that cannot be read
    out = tmp_path / "c" / "cropped.json"
    out.parent.mkdir()
    assert main(["crop", str(source), "-o", str(out)]) == 2
    assert "rule-set file cannot be copied" in capsys.readouterr().err
    assert not out.exists()
