"""A real host process and real Chromium pages for the browser tests.

The host is ``python -m mapeditor host`` on a free port of 127.0.0.1, stopped (and its bot
worker with it) when the test ends. The browser is Debian's chromium driven by Playwright (never
``playwright install``: .ci/run installs the distribution's package).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HostProcess:
    """``python -m mapeditor host ARGS`` in a child process; its join links by seat name."""

    def __init__(self, state: Path, args: list[str], port: int | None = None) -> None:
        self.state = state
        self.args = args
        self.port = port or free_port()
        self.links: dict[str, str] = {}
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> HostProcess:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONUNBUFFERED="1")
        cmd = [sys.executable, "-m", "mapeditor", "host", *self.args]
        cmd += ["--state", str(self.state), "--port", str(self.port), "--pace", "0"]
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("the host stopped:\n" + "".join(lines))
            lines.append(line)
            m = re.match(r"\s+(\S+): (http://\S+)", line)
            if m:
                self.links[m.group(1)] = m.group(2)
            if line.startswith("Listening on"):
                break
        self._wait_listening()
        return self

    def _wait_listening(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise AssertionError("the host does not listen")

    def kill(self) -> None:
        """Kill the host and its bot worker at once (as a crash or a power cut would)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def launch(playwright: Any) -> Any:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


def actions_count(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-actions") or -1)


def wait_moved(page: Any, before: int, timeout: float = 20.0) -> None:
    page.wait_for_function(
        "n => Number(document.body.dataset.actions) > n", arg=before, timeout=timeout * 1000
    )


def play_turn_via_page(page: Any, *, meeple: bool = True) -> None:
    """One action of the player whose page this is, with the page's own controls: click a
    highlighted square (then a meeple spot or "No meeple"), or the first action button."""
    before = actions_count(page)
    squares = page.locator("[data-sq]")
    if squares.count():
        squares.first.click()
        spots = page.locator("[data-spot]")
        if page.locator("#no-meeple").count():
            if meeple and spots.count():
                spots.first.click(force=True)  # spots may overlap: whichever is on top
            else:
                page.locator("#no-meeple").click()
    else:
        page.locator("#actions button").first.click()
    wait_moved(page, before)


def is_mine(page: Any) -> bool:
    return page.locator("body").get_attribute("data-mine") == "1"


def open_page(browser: Any, link: str, viewport: tuple[int, int] = (1280, 800)) -> Any:
    """A page of ``link`` in a new context of ``browser`` (its own session, as another
    browser's), once it has the game's state."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.goto(link)
    page.wait_for_function("document.body.dataset.actions !== undefined", timeout=30_000)
    return page
