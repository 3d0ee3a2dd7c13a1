"""The browser tests' helpers (mapeditor.online.screens), failing the test when chromium is
missing: CI installs it (.ci/run), so a missing browser is a broken set-up, not a skip."""

from __future__ import annotations

from typing import Any

import pytest

from mapeditor.online import screens
from mapeditor.online.screens import (  # noqa: F401 - re-exported for the tests
    HostProcess,
    actions_count,
    is_mine,
    open_page,
    page_errors,
    play_turn_via_page,
    wait_mine,
    wait_moved,
)


def launch(playwright: Any) -> Any:
    try:
        return screens.launch(playwright)
    except screens.NoBrowser as exc:
        pytest.fail(str(exc))
