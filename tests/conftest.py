"""Shared test setup. Qt must run headless: without a platform plugin it aborts the whole run."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
