"""The messages browsers send a host: size-bounded, parsed, then checked against
``schemas/online-message.schema.json`` with jsonschema before anything looks at them.

:func:`parse` turns one websocket text frame into a checked message or raises
:class:`ProtocolError` with one sentence (the JSON path and jsonschema's reason), which the
server sends back as the one error reply; nothing else happens for that message.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.schemacheck import schema_message, strict_validator_class

MAX_MESSAGE_BYTES = 4096
"""Largest message a client may send (an action is under 200 bytes, a chat line 300 chars)."""


class ProtocolError(Exception):
    """A message refused before it reached the game; the text says why."""


@cache
def _schema() -> dict[str, Any]:
    from engine.resources import schema_path

    schema: dict[str, Any] = json.loads(schema_path("online-message").read_text(encoding="utf-8"))
    return schema


@cache
def _validator() -> Any:
    import jsonschema

    return strict_validator_class(jsonschema.Draft202012Validator)(_schema())


@cache
def _fast() -> Any:
    """The schema compiled by fastjsonschema: a yes or no, about 20 times faster than
    jsonschema (which explains every no). Its "integer" accepts 3.0, so a message with any
    number that is not a whole one is always judged by jsonschema."""
    import fastjsonschema

    return fastjsonschema.compile(_schema())


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(text: str | bytes) -> dict[str, Any]:
    """The checked message in ``text``.

    :raises ProtocolError: too large, not JSON, or not a message the schema allows.
    """
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large ({len(text)} bytes; at most {MAX_MESSAGE_BYTES})")
    floats: list[str] = []

    def parse_float(text: str) -> float:
        floats.append(text)
        return float(text)

    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_float=parse_float)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"not JSON: {str(exc)[:100]}") from None
    if not floats:
        import fastjsonschema

        try:
            _fast()(data)
        except fastjsonschema.JsonSchemaException:
            pass  # explained below
        else:
            assert isinstance(data, dict)
            return data
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(message)"
        raise ProtocolError(f"{where}: {schema_message(error)}")
    assert isinstance(data, dict)
    return data
