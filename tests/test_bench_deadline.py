"""benchmarks/deadline.py: ``--until HH:MM`` means the next such UTC time, past midnight too."""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.deadline import deadline  # noqa: E402

EVENING = dt.datetime(2026, 11, 27, 22, 17, 30, tzinfo=dt.UTC)


def test_a_time_later_today_is_today() -> None:
    end = deadline("23:05", EVENING)
    assert end == dt.datetime(2026, 11, 27, 23, 5, tzinfo=dt.UTC).timestamp()


def test_a_time_already_past_is_tomorrow() -> None:
    # a run started at 22:17 with --until 00:20 stopped at once before: 00:20 had passed today
    end = deadline("00:20", EVENING)
    assert end == dt.datetime(2026, 11, 28, 0, 20, tzinfo=dt.UTC).timestamp()
    assert (
        deadline("22:17", EVENING) == dt.datetime(2026, 11, 28, 22, 17, tzinfo=dt.UTC).timestamp()
    )


def test_no_time_never_stops() -> None:
    assert math.isinf(deadline(None)) and math.isinf(deadline(""))


def test_a_malformed_time_is_named() -> None:
    with pytest.raises(ValueError, match="--until '25:99'"):
        deadline("25:99", EVENING)
