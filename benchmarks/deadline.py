"""The long benchmarks' ``--until HH:MM``: start no new game after that UTC time.

A run started in the evening with ``--until 00:20`` means the coming night, not the midnight
already gone: the deadline is the next time the clock reads ``HH:MM`` UTC.
"""

from __future__ import annotations

import datetime as dt


def deadline(until: str | None, now: dt.datetime | None = None) -> float:
    """The POSIX time of the next ``until`` (``"HH:MM"``, UTC) after ``now``; infinity for
    ``None``. A malformed time raises ``ValueError`` naming it."""
    if not until:
        return float("inf")
    try:
        at = dt.time.fromisoformat(until)
    except ValueError:
        raise ValueError(f"--until {until!r}: expected HH:MM (UTC)") from None
    now = now or dt.datetime.now(dt.UTC)
    end = now.replace(hour=at.hour, minute=at.minute, second=0, microsecond=0)
    if end <= now:
        end += dt.timedelta(days=1)
    return end.timestamp()
