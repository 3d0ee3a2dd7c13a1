"""Where the bundled schemas, maps and data files are, whether installed or run from a checkout.

Code finds bundled files only through these helpers, never through the current directory.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.errors import EngineError

_REPO_ROOT = Path(__file__).resolve().parent.parent


@cache
def _package_dir(package: str, checkout_dir: str) -> Path:
    # In a checkout (or editable install) the folders sit at the repository top; in a wheel
    # they are installed as the data-only packages engine._schemas / engine._maps.
    local = _REPO_ROOT / checkout_dir
    if (_REPO_ROOT / "pyproject.toml").is_file() and local.is_dir():
        return local
    return Path(__file__).resolve().parent / package.rpartition(".")[2]


def schemas_dir() -> Path:
    """The folder holding ``*.schema.json``."""
    return _package_dir("engine._schemas", "schemas")


def maps_dir() -> Path:
    """The folder holding the shipped maps."""
    return _package_dir("engine._maps", "maps")


def data_dir() -> Path:
    """The engine's own data folder (tile sets)."""
    return Path(__file__).resolve().parent / "data"


def schema_path(name: str) -> Path:
    """Path of a bundled schema, e.g. ``schema_path("map")`` → ``.../map.schema.json``."""
    return schemas_dir() / f"{name}.schema.json"


def shipped_maps() -> list[Path]:
    """Every shipped map file, sorted by name (not the rule-set files a map names,
    ``*.ruleset.json``)."""
    return sorted(p for p in maps_dir().glob("*.json") if not p.name.endswith(".ruleset.json"))


DEFAULT_MAP_NAME = "example-small"


def bundled_map(name: str = DEFAULT_MAP_NAME) -> Path:
    """Path of a shipped map by its file stem, e.g. ``bundled_map("deutschland")``."""
    return maps_dir() / f"{name}.json"


MAP_ALIASES = {"germany": "deutschland", "gb": "great-britain", "spain": "iberica"}
"""Other names the command lines accept for shipped maps."""


def find_map(text: str) -> Path:
    """A map given on a command line: a file path, or a shipped map by name (``deutschland``,
    ``great-britain``, or an alias such as ``germany``).

    Anything that looks like a path (an existing file, a suffix, a folder) is returned as it is, so
    loading it reports a missing file precisely.

    :raises engine.errors.EngineError: naming the shipped maps, for an unknown bare name.
    """
    path = Path(text)
    if path.exists() or path.suffix or path.parent != Path("."):
        return path
    shipped = bundled_map(MAP_ALIASES.get(text.lower(), text.lower()).replace("_", "-"))
    if shipped.exists():
        return shipped
    names = ", ".join(p.stem for p in shipped_maps())
    raise EngineError(f"{text}: no such map file, nor a shipped map ({names})")
