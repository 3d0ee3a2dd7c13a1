"""Every example in README.md and docs/ runs.

Python examples are fenced ``pycon`` (or ``python``) blocks written as ``>>>`` sessions: each block
runs as a doctest from the repository root, and the blocks of one page share their names, in order,
as a reader's session would. A ``python`` block without ``>>>`` fails: it could not be checked.

Shell examples (``bash`` blocks) are checked for what is cheap to check without running them: every
``python -m engine ...``, ``python -m mapeditor export|play|host ...`` command line parses with the
command's own argument parser (so subcommands and options exist), every ``python -m MODULE`` names
an importable module and every ``python benchmarks/X.py`` script exists.
"""

from __future__ import annotations

import argparse
import doctest
import importlib.util
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from mapeditor.game_args import UsageError

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def _page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def blocks(path: Path, languages: set[str]) -> list[tuple[int, str]]:
    """The fenced blocks of ``path`` in one of ``languages``: (line number, text)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        if match.group(1) in languages:
            found.append((text.count("\n", 0, match.start(2)) + 1, match.group(2)))
    return found


def test_the_pages_have_python_examples() -> None:
    with_examples = [p for p in PAGES if blocks(p, {"pycon", "python"})]
    assert ROOT / "README.md" in with_examples
    assert ROOT / "docs" / "engine-api.md" in with_examples


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_python_examples_run(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("DOCS_TMP", str(tmp_path))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict[str, object] = {"__name__": "__docs__"}
    name = _page_id(path)
    for line, text in blocks(path, {"pycon", "python"}):
        assert ">>> " in text, f"{name}:{line}: a python block that is not a >>> session"
        test = parser.get_doctest(text, globs, f"{name}:{line}", name, line)
        runner.run(test, clear_globs=False)
        globs = test.globs
    summary = runner.summarize(verbose=False)
    assert summary.failed == 0, f"{summary.failed} of {summary.attempted} examples failed in {name}"


# -- shell examples -------------------------------------------------------------------------------


def _engine_parser() -> argparse.ArgumentParser:
    from engine.cli import build_parser

    return build_parser()


def _export_parser() -> argparse.ArgumentParser:
    from mapeditor.export_cli import build_parser

    return build_parser()


def _play_parser() -> argparse.ArgumentParser:
    from mapeditor.play_cli import build_parser

    return build_parser()


def _host_parser() -> argparse.ArgumentParser:
    from mapeditor.host_cli import build_parser

    return build_parser()


PARSERS: dict[tuple[str, str | None], Callable[[], argparse.ArgumentParser]] = {
    ("engine", None): _engine_parser,
    ("mapeditor", "export"): _export_parser,
    ("mapeditor", "play"): _play_parser,
    ("mapeditor", "host"): _host_parser,
}


def commands(text: str) -> list[list[str]]:
    """The ``python ...`` command lines of a shell block, as argument lists."""
    text = text.replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        # split at &&, ||, ; and | outside quotes ("start.Bari=21,17|19,15" is one word)
        for part in re.split(r"(?:&&|\|\||;|\|)(?=(?:[^\"']*[\"'][^\"']*[\"'])*[^\"']*$)", line):
            words = shlex.split(part)
            while words and ("=" in words[0] or words[0] in {"xvfb-run", "-a", "nice", "-n"}):
                words = words[1:]
                if words and words[0].isdigit():  # nice -n 10
                    words = words[1:]
            if words and words[0] in {"python", "python3"}:
                found.append(words[1:])
    return found


SHELL_PAGES = [p for p in PAGES if blocks(p, {"bash", "sh", "shell", "console"})]


@pytest.mark.parametrize("path", SHELL_PAGES, ids=_page_id)
def test_shell_examples_name_real_commands(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problems = []
    for line, text in blocks(path, {"bash", "sh", "shell", "console"}):
        for args in commands(text):
            where = f"{_page_id(path)}:{line}: python {' '.join(args)}"
            if args[:1] == ["-m"] and len(args) > 1:
                module, rest = args[1], args[2:]
                if module == "pip" or module == "pytest":
                    continue
                if importlib.util.find_spec(module) is None:
                    problems.append(f"{where}: no module {module}")
                    continue
                sub = (
                    rest[0]
                    if module == "mapeditor" and rest[:1] in (["export"], ["play"], ["host"])
                    else None
                )
                make = PARSERS.get((module, sub))
                if make is None:
                    continue
                argv = rest[1:] if sub else rest
                try:
                    make().parse_args(argv)
                except SystemExit:
                    problems.append(f"{where}: {capsys.readouterr().err.strip()}")
                except UsageError as exc:  # play's and host's parsers raise it
                    problems.append(f"{where}: {exc}")
            elif args and args[0].endswith(".py") and not (ROOT / args[0]).is_file():
                problems.append(f"{where}: no script {args[0]}")
    assert problems == []


def test_the_shell_check_splits_pipelines_outside_quotes() -> None:
    assert commands('python -m a "x|y" | python -m b; python -m c && python -m d') == [
        ["-m", "a", "x|y"],
        ["-m", "b"],
        ["-m", "c"],
        ["-m", "d"],
    ]


def test_the_shell_check_sees_a_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    (args,) = commands("QT_QPA_PLATFORM=offscreen python -m engine validate --no-such-flag m.json")
    assert args == ["-m", "engine", "validate", "--no-such-flag", "m.json"]
    with pytest.raises(SystemExit):
        _engine_parser().parse_args(args[2:])
    assert "--no-such-flag" in capsys.readouterr().err


def test_docs_link_to_files_that_exist() -> None:
    missing = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = (path.parent / target.split("#", 1)[0]).resolve()
            if not file.exists():
                missing.append(f"{_page_id(path)}: {target}")
    assert missing == []
