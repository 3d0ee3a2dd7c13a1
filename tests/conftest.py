"""Shared test setup. Qt must run headless: without a platform plugin it aborts the whole run."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_configure(config: object) -> None:
    """``CMS_EXPECT_BUILD=compiled`` (CI's run on the compiled build): refuse to test another
    build, so a path mix-up cannot pass the pure modules off as the compiled ones."""
    expected = os.environ.get("CMS_EXPECT_BUILD")
    if expected:
        from engine.build import build_name

        if build_name() != expected:
            raise RuntimeError(f"CMS_EXPECT_BUILD={expected}, but this is the {build_name()} build")
