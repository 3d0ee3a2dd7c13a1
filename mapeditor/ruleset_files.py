"""A map's own rule-set file (``{"file": "x.ruleset.json"}``): written beside the map when the
map is saved, atomically (the engine's one writer: a temporary file, then a rename), and only when
its content changed; read back as plain JSON when it has mistakes, so they can be fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import boundedio
from engine.errors import EngineError
from engine.mapdef import MapDef
from engine.mapio import write_text_atomically
from engine.rules.data import RuleSetSpec, check_ruleset_dict
from mapeditor.ruleset_data import RuleSetState, file_text, read_raw


def target_of(m: MapDef, map_path: Path) -> Path | None:
    """Where ``m``'s rule-set file is for a map saved at ``map_path`` (``None``: embedded).

    :raises EngineError: a file name that leads outside the map's folder.
    """
    if m.rule_set_file is None:
        return None
    try:
        return boundedio.inside_folder(m.rule_set_file, map_path, what="rule set")
    except boundedio.InputFileError as exc:
        raise EngineError(f"rule_set.file: {exc}") from None


def _same_on_disk(target: Path, content: dict[str, Any], spec: RuleSetSpec | None) -> bool:
    if not target.is_file():
        return False
    data = read_raw(target)
    if data == content:
        return True
    if spec is None or check_ruleset_dict(data):
        return False
    return RuleSetSpec.from_dict(data) == spec  # the same rule set, written another way


def write_beside(m: MapDef, map_path: Path, *, replace_other: bool = True) -> Path | None:
    """Write ``m``'s rule-set file for a map saved at ``map_path`` unless it already holds this
    rule set. Returns the file written (``None``: nothing to write). ``replace_other=False``
    (the map is saved into another folder): a file of that name holding another rule set there
    is not replaced.

    :raises EngineError: a name leading outside the folder, or another rule set in the way;
        ``OSError``: the write failed (the old file is then untouched).
    """
    target = target_of(m, map_path)
    state = RuleSetState.of(m)
    content = state.content()
    if target is None or content is None or _same_on_disk(target, content, state.spec):
        return None
    if not replace_other and target.exists():
        raise EngineError(
            f"{boundedio.shown(str(target))}: another rule set has this name in that folder; "
            "save the map elsewhere, or embed its rule set (Rule set dock) first"
        )
    write_atomically(target, file_text(content))
    return target


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target``: the whole new file, or the old one untouched. A failure is
    one :class:`~engine.mapio.OutputFileError` line naming ``target`` (a full disk, a folder
    not writable), never the temporary file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(target, text)


def recover_raw(m: MapDef, map_path: Path) -> None:
    """A rule-set file that failed to load but holds a JSON object: keep that object as the
    map's rule set with mistakes (``rule_set_raw``), so the editor shows what to fix."""
    if m.rule_set_file is None or m.rule_set_spec is not None or m.rule_set_raw is not None:
        return
    try:
        target = target_of(m, map_path)
    except EngineError:
        return
    data = read_raw(target) if target is not None else None
    if isinstance(data, dict):
        m.rule_set_raw = data
