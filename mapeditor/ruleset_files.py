"""A map's own rule-set file (``{"file": "x.ruleset.json"}``): written beside the map when the
map is saved, atomically and only when its content changed; read back as plain JSON when it has
mistakes, so they can be fixed.

A map and its rule-set file are two files, so they cannot be replaced in one step. When both
change, :func:`save_with_rule_set` first writes the map *embedding* its rule set (and naming its
file in :data:`EMBEDDED_FILE_KEY`), then the rule-set file, then the map naming the file: a
crash at any moment leaves a map that plays the rule set it was saved with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import boundedio
from engine.errors import EngineError
from engine.mapdef import EmbeddedRuleSet, FileRuleSet, MapDef, UnreadableRuleSet
from engine.mapio import save_map, write_text_atomically
from engine.rules.data import RuleSetSpec, check_ruleset_dict
from mapeditor.ruleset_data import content_of, file_text, read_raw, storable

EMBEDDED_FILE_KEY = "autosave_rule_set_file"
"""Editor-settings key of a map that embeds the rule set of its rule-set file (a recovery file,
or a map whose paired save was interrupted): the file's name, restored on load by
:func:`unembed`. (The name is older than its second use.)"""


def target_of(m: MapDef, map_path: Path) -> Path | None:
    """Where ``m``'s rule-set file is for a map saved at ``map_path`` (``None``: embedded).

    :raises EngineError: a file name that leads outside the map's folder.
    """
    if m.rule_set.file is None:
        return None
    try:
        return boundedio.inside_folder(m.rule_set.file, map_path, what="rule set")
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


def pending_file(m: MapDef, map_path: Path, *, replace_other: bool = True) -> Path | None:
    """The rule-set file that saving ``m`` at ``map_path`` must write (``None``: embedded, or
    the file already holds this rule set). ``replace_other=False`` (the map is saved into
    another folder): a file of that name holding another rule set there is not replaced.

    :raises EngineError: a name leading outside the folder, or another rule set in the way.
    """
    pending = _pending(m, map_path, replace_other)
    return None if pending is None else pending[0]


def _pending(m: MapDef, map_path: Path, replace_other: bool) -> tuple[Path, dict[str, Any]] | None:
    target = target_of(m, map_path)
    content = content_of(m.rule_set)
    if target is None or content is None or _same_on_disk(target, content, m.rule_set.spec):
        return None
    if not replace_other and target.exists():
        raise EngineError(
            f"{boundedio.shown(str(target))}: another rule set has this name in that folder; "
            "save the map elsewhere, or embed its rule set (Rule set dock) first"
        )
    return target, content


def save_with_rule_set(m: MapDef, map_path: Path, *, replace_other: bool = True) -> None:
    """Save ``m`` at ``map_path`` and its rule-set file beside it, so that a crash at any moment
    leaves a map whose rule set is the one it was saved with (see the module's docstring).

    :raises EngineError: as :func:`pending_file`; ``OSError``: a write failed (what was not
        written yet is untouched).
    """
    pending = _pending(m, map_path, replace_other)
    if pending is not None:
        target, content = pending
        save_map(embedded_copy(m), map_path)
        write_text_atomically(target, file_text(content))
    save_map(m, map_path)


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target``: the whole new file, or the old one untouched. A failure is
    one :class:`~engine.mapio.OutputFileError` line naming ``target`` (a full disk, a folder
    not writable), never the temporary file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(target, text)


def embedded_copy(m: MapDef) -> MapDef:
    """A copy of ``m`` that embeds the rule set of its rule-set file (unsaved changes included)
    and names the file in :data:`EMBEDDED_FILE_KEY` (a plain copy when it names no file)."""
    snap = m.copy()
    ref = snap.rule_set
    if isinstance(ref, FileRuleSet):
        snap.rule_set = EmbeddedRuleSet(ref.spec)
    elif isinstance(ref, UnreadableRuleSet) and ref.file is not None and ref.raw is not None:
        snap.rule_set = UnreadableRuleSet(ref.error, ref.name, raw=storable(ref.raw))
    else:
        return snap
    snap.editor = {**snap.editor, EMBEDDED_FILE_KEY: ref.file}
    return snap


def unembed(m: MapDef) -> None:
    """Undo :func:`embedded_copy` on a map just read: it names its rule-set file again (and
    keeps the embedded rule set, which the next save writes to that file)."""
    file, ref = m.editor.get(EMBEDDED_FILE_KEY), m.rule_set
    if isinstance(file, str) and isinstance(ref, EmbeddedRuleSet):
        m.rule_set = FileRuleSet(file, ref.spec)
    elif isinstance(file, str) and isinstance(ref, UnreadableRuleSet) and ref.file is None:
        m.rule_set = UnreadableRuleSet(ref.error, ref.name, file, ref.raw)
    m.editor = {k: v for k, v in m.editor.items() if k != EMBEDDED_FILE_KEY}


def recover_raw(m: MapDef, map_path: Path) -> None:
    """A rule-set file that failed to load but holds a JSON object: keep that object as the
    map's rule set with mistakes (its ``raw``), so the editor shows what to fix."""
    ref = m.rule_set
    if not isinstance(ref, UnreadableRuleSet) or ref.file is None or ref.raw is not None:
        return
    try:
        target = target_of(m, map_path)
    except EngineError:
        return
    data = read_raw(target) if target is not None else None
    if isinstance(data, dict):
        m.rule_set = UnreadableRuleSet(ref.error, ref.name, ref.file, data)
