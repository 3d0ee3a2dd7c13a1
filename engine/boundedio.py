"""Bounded reading of every input file: maps, game records, tile sets, GeoJSON outlines, images.

Every file the program reads on a user's behalf goes through :func:`read_bytes` (or
:func:`read_json`), which

* refuses a path with a NUL byte or longer than :data:`MAX_PATH_CHARS` before touching the disk;
* opens without blocking (a FIFO never hangs) and refuses anything that is not a regular file
  (``/dev/zero``, a FIFO, a socket, a directory);
* reads at most ``limit`` bytes: the reported size is checked first, and the read itself stops one
  byte past the limit, so a file that lies about its size or grows meanwhile is refused too.

:func:`inside_folder` is the rule for a path written in a data file (a record's map, an underlay
image): it is resolved relative to the folder of the file that names it and refused if it leads
outside that folder (also through a symbolic link).

Every failure is a :class:`InputFileError` (an :class:`~engine.errors.EngineError`) with one line
naming the file; callers re-raise it as their own error type.

>>> read_bytes("/dev/zero", limit=10)
Traceback (most recent call last):
...
engine.boundedio.InputFileError: /dev/zero: not a regular file (a character device)
"""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import math
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.errors import EngineError

MAX_PATH_CHARS = 4096
"""Longest path accepted (Linux's PATH_MAX); longer ones are refused before any system call."""

MB = 1024 * 1024
LIMITS: dict[str, int] = {
    "map": 20 * MB,
    "record": 20 * MB,
    "tile set": 5 * MB,
    "GeoJSON outline": 50 * MB,
    "image": 100 * MB,
    "rule set": 1 * MB,
}
"""Size limit per kind of input, in bytes (a real map is a few kB, a record a few hundred)."""

_CHUNK = 1 << 20


class InputFileError(EngineError):
    """An input file cannot be read within its bounds; the message names the file."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


def shown(path: object, limit: int = 120) -> str:
    """``path`` as text for a message, its middle cut out when long (the reason stays whole)."""
    text = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else str(path)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]}[...]{text[-half:]}"


def check_path(path: str | os.PathLike[str]) -> str:
    """The path as a string; :class:`InputFileError` for a NUL byte or an overlong path."""
    try:
        text = os.fspath(path)
    except TypeError:
        raise InputFileError(shown(path), "not a file path") from None
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\x00" in text:
        raise InputFileError(shown(text), "the path contains a NUL byte")
    if len(text) > MAX_PATH_CHARS:
        raise InputFileError(
            shown(text), f"the path is too long ({len(text)} characters, at most {MAX_PATH_CHARS})"
        )
    if not text:
        raise InputFileError("''", "empty file name")
    return text


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"


def _a(what: str) -> str:
    return ("an " if what[:1].lower() in "aeio" else "a ") + what


def _too_large(what: str, limit: int, size: int | None) -> str:
    got = f" ({size / MB:.1f} MB)" if size is not None else ""
    return f"file is too large{got}; {_a(what)} file may be at most {limit / MB:g} MB"


def read_bytes(path: str | os.PathLike[str], *, limit: int, what: str = "input") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (see the module doc)."""
    text = check_path(path)
    source = shown(text)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(text, flags)
    except FileNotFoundError:
        raise InputFileError(source, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(source, f"is a directory, not {_a(what)} file") from None
    except PermissionError:
        raise InputFileError(source, "permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise InputFileError(source, "a name in the path is too long") from None
        raise InputFileError(source, f"cannot open: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputFileError(source, f"is a directory, not {_a(what)} file")
        if not stat.S_ISREG(st.st_mode):
            raise InputFileError(source, f"not a regular file ({_kind(st.st_mode)})")
        if st.st_size > limit:
            raise InputFileError(source, _too_large(what, limit, st.st_size))
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew while reading, or the reported size was wrong
                raise InputFileError(source, _too_large(what, limit, None))
    except OSError as exc:
        raise InputFileError(source, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str], *, limit: int, what: str = "input") -> str:
    """:func:`read_bytes` decoded as UTF-8 (a BOM is dropped); binary data is refused."""
    raw = read_bytes(path, limit=limit, what=what)
    source = shown(os.fspath(path))
    if b"\x00" in raw:
        raise InputFileError(source, "not a text file (binary data)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            source, f"not a text file (invalid UTF-8 at byte {exc.start})"
        ) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def parse_json(text: str, source: str, **hooks: Any) -> Any:
    """``json.loads`` whose every failure (syntax, NaN, nesting depth, huge integers) is one
    :class:`InputFileError` line naming ``source``."""
    hooks.setdefault("parse_constant", _reject_constant)
    try:
        return json.loads(text, **hooks)
    except json.JSONDecodeError as exc:
        reason = f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise InputFileError(source, reason) from None
    except RecursionError:
        raise InputFileError(source, "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # NaN / Infinity, an integer with more than 4300 digits
        raise InputFileError(source, f"not valid JSON: {exc}") from None


def unstorable(data: Any) -> tuple[str, str] | None:
    """The first value JSON text in UTF-8 cannot hold, as ``(json path, reason)``: a number out
    of range (``1e999`` parses as infinity) or a lone surrogate (``"\\ud800"``) in a string or key.
    ``None`` if every value can be written back. Iterative: any depth."""
    try:  # in C, fast on large data; the walk below only runs to name the culprit
        json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
        return None
    except (ValueError, UnicodeEncodeError, RecursionError):
        pass
    stack: list[tuple[Any, str]] = [(data, "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for k, v in value.items():
                sub = f"{path}.{shown(k, 40)}"
                if isinstance(k, str) and not _encodable(k):
                    return sub, "the key holds a character UTF-8 cannot store (a lone surrogate)"
                stack.append((v, sub))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            return path, "the number is out of range"
        elif isinstance(value, str) and not _encodable(value):
            return path, "the text holds a character UTF-8 cannot store (a lone surrogate)"
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_json(
    path: str | os.PathLike[str], *, limit: int, what: str = "input", **hooks: Any
) -> Any:
    """The JSON value in the file ``path``, read within ``limit`` bytes."""
    text = read_text(path, limit=limit, what=what)
    if not text.strip():
        raise InputFileError(shown(os.fspath(path)), "the file is empty")
    return parse_json(text, shown(os.fspath(path)), **hooks)


def inside_folder(written: str, naming_file: str | os.PathLike[str], *, what: str = "file") -> Path:
    """Where the path ``written`` inside ``naming_file`` leads: relative to that file's folder,
    which it must not leave (``..``, an absolute path elsewhere, or a link pointing out).

    :raises InputFileError: naming the path and the folder, with what to do instead.
    """
    text = check_path(written)
    base = Path(check_path(naming_file)).resolve().parent
    try:
        target = (base / Path(text).expanduser()).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise InputFileError(shown(text), f"cannot resolve the {what} path: {exc}") from None
    if not target.is_relative_to(base):
        raise InputFileError(
            shown(text),
            f"the {what} path leads outside the folder of {shown(naming_file)}; paths in data "
            "files must stay in that folder (move the file there, or pick it in a dialog)",
        )
    return target


STALE_TMP_SECONDS = 60.0
"""A temporary file of an atomic save older than this was left by a killed save."""


def remove_stale_temporaries(target: str | os.PathLike[str]) -> int:
    """Delete ``.NAME.*.tmp`` files an interrupted atomic save of ``target`` left beside it.

    Only files of that exact pattern, regular, and older than :data:`STALE_TMP_SECONDS` (a save
    in progress elsewhere is younger) are removed. Returns how many; never raises.
    """
    target = Path(target)
    removed = 0
    now = time.time()
    with contextlib.suppress(OSError):
        for tmp in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                st = tmp.lstat()
                if stat.S_ISREG(st.st_mode) and now - st.st_mtime > STALE_TMP_SECONDS:
                    tmp.unlink()
                    removed += 1
    return removed


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, Unix line ends) to ``path`` through a temporary file in the same
    folder, flushed to disk, then renamed over it: either the whole new file is there
    afterwards or the old one is untouched. A file replaced keeps its permissions."""
    target = Path(path)
    remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


__all__ = [
    "STALE_TMP_SECONDS",
    "remove_stale_temporaries",
    "write_text_atomically",
    "LIMITS",
    "MAX_PATH_CHARS",
    "InputFileError",
    "check_path",
    "inside_folder",
    "parse_json",
    "read_bytes",
    "read_json",
    "read_text",
    "shown",
    "unstorable",
]
