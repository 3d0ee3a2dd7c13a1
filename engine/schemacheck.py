"""Checking JSON data against the bundled schemas: a validator whose "integer" is a JSON integer
only, and short messages that name the JSON path and keep the reason. Used by every reader of a
data file (maps, rule sets, game records)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.resources import schema_path


def strict_validator_class(cls: Any) -> Any:
    """``cls`` whose "integer" is a JSON integer only: 3.0 and -0.0 are not integers here (JSON
    Schema allows them; the engine would then refuse the first move or the setup)."""
    # deferred: jsonschema costs ~0.1 s to import; a valid file never needs it (fastjsonschema)
    import jsonschema

    checker = cls.TYPE_CHECKER.redefine(
        "integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool)
    )
    # types-jsonschema leaves extend() unannotated
    return jsonschema.validators.extend(cls, type_checker=checker)  # type: ignore[no-untyped-call]


@cache
def bundled_validator(name: str) -> Any:
    """A strict validator (:func:`strict_validator_class`) of the bundled schema ``name``
    (``"map"``, ``"ruleset"``, ``"game-record"``), made once."""
    # deferred: as in strict_validator_class
    import jsonschema

    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    return strict_validator_class(jsonschema.validators.validator_for(schema))(schema)


def json_path(parts: Any) -> str:
    """A JSON path as the messages write it: ``rule_set.mechanics[0].pay``."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` with its middle cut out when long, so a message keeps its reason."""
    text = repr(value)
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]}[...]{text[-half:]}"


def schema_message(error: Any) -> str:
    """jsonschema's message with the quoted value shortened (never the reason)."""
    message: str = error.message
    full = repr(error.instance)
    if len(full) > 60 and full in message:
        message = message.replace(full, short_repr(error.instance))
    if len(message) > 300:
        message = message[:150] + "[...]" + message[-145:]
    return message


__all__ = [
    "bundled_validator",
    "json_path",
    "schema_message",
    "short_repr",
    "strict_validator_class",
]
