"""The host draws its art with Qt: a QApplication must exist first (pytest-qt's, so that widget
tests in the same run get the application type they need)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _qt_app(qapp):  # noqa: ANN001, ANN202 - pytest-qt's fixture
    return qapp
