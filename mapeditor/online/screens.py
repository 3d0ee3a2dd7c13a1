"""Driving the online page headlessly: a host process, Chromium pages and their controls.

``python -m mapeditor.online.screens OUTDIR`` takes the screenshots of docs/online-play.md: a
host of Deutschland on a free port of 127.0.0.1, two players' pages (a laptop and a tablet
viewport) playing a few turns through the page's own controls, then pictures of a turn and of a
meeple step. The browser tests (tests/mapeditor/online/test_browser.py) use the same helpers.
Needs Playwright (the test extra) and Debian's ``chromium``; Playwright never downloads a
browser here.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mapeditor.screen_args import out_dir

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


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
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        lines: list[str] = []
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


class NoBrowser(RuntimeError):
    """Debian's chromium is not installed."""


def launch(playwright: Any) -> Any:
    """Headless Chromium (the distribution's, never a download of Playwright's own)."""
    if not Path(CHROMIUM).exists():
        raise NoBrowser(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


_PAGE_ERRORS: dict[int, list[str]] = {}


def page_errors(page: Any) -> list[str]:
    """The script errors the page has raised (uncaught exceptions) since it was opened."""
    return _PAGE_ERRORS.get(id(page), [])


def actions_count(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-actions") or -1)


def wait_moved(page: Any, before: int, timeout: float = 20.0) -> None:
    """Wait until the page shows more than ``before`` actions (polled from Python: the page's
    Content-Security-Policy forbids the string evaluation of ``wait_for_function``)."""
    deadline = time.monotonic() + timeout
    while actions_count(page) <= before:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page stayed at {actions_count(page)} actions")
        page.wait_for_timeout(50)


def wait_mine(page: Any, timeout: float = 60.0) -> None:
    """Wait until it is the page's player's turn."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-mine", "1", timeout=timeout * 1000)


def play_turn_via_page(page: Any, *, meeple: bool = True) -> None:
    """One action of the player whose page this is, with the page's own controls: click a
    highlighted square (then the first meeple spot's button or "No meeple"), or the first
    action button."""
    before = actions_count(page)
    squares = page.locator("[data-sq]")
    if squares.count():
        squares.first.click()
        spots = page.locator("[data-spot-button]")
        if page.locator("#no-meeple").count():
            if meeple and spots.count():
                spots.first.click()
            else:
                page.locator("#no-meeple").click()
    else:
        page.locator("#actions button").first.click()
    wait_moved(page, before)
    if page_errors(page):
        raise RuntimeError(f"the page raised: {page_errors(page)}")


def is_mine(page: Any) -> bool:
    return bool(page.locator("body").get_attribute("data-mine") == "1")


def open_page(
    browser: Any,
    link: str,
    viewport: tuple[int, int] = (1280, 800),
    states: Callable[[dict[str, Any]], None] | None = None,
) -> Any:
    """A page of ``link`` in a new context of ``browser`` (its own session, as another
    browser's), once it has the game's state. ``states`` changes every state message in place
    before the page gets it (a host of another version)."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    if states is not None:
        context.route_web_socket(re.compile(".*"), lambda ws: _rewrite_states(ws, states))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _PAGE_ERRORS[id(page)] = errors
    page.goto(link)
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute(
        "data-actions", re.compile(r"^\d+$"), timeout=30_000
    )
    return page


def _rewrite_states(ws: Any, change: Callable[[dict[str, Any]], None]) -> None:
    """Pass a page's socket through, changing the state messages from the host."""
    server = ws.connect_to_server()

    def down(message: str | bytes) -> None:
        msg = json.loads(message)
        if msg.get("type") == "state":
            change(msg)
        ws.send(json.dumps(msg))

    server.on_message(down)
    ws.on_message(server.send)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    out = out_dir(argv, "mapeditor.online.screens")
    if out is None:
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        players = "Ann=human,Bob=human,greedy"
        host = HostProcess(Path(tmp), ["deutschland", "--players", players, "--seed", "5"])
        host.start()
        try:
            with sync_playwright() as pw:
                _shoot(launch(pw), host, out)
        finally:
            host.stop()
    return 0


def _shoot(browser: Any, host: HostProcess, out: Path) -> None:
    ann = open_page(browser, host.links["Ann"], (1366, 800))
    bob = open_page(browser, host.links["Bob"], (820, 1180))
    ann.locator("#chat-text").fill("Good luck, Bob!")
    ann.locator("#chat-form button").click()
    turns = 0
    while turns < 14:
        for page in (ann, bob):
            if is_mine(page):
                play_turn_via_page(page, meeple=turns % 2 == 0)
                turns += 1
        time.sleep(0.05)
    wait_mine(ann)
    ann.wait_for_timeout(500)  # the map and tile images
    ann.screenshot(path=str(out / "laptop-place.png"))
    play_turn_via_page(ann, meeple=False)
    wait_mine(bob)
    bob.locator("#zoom-in").click()
    bob.locator("#zoom-in").click()
    squares = bob.locator("[data-sq]")
    for i in range(squares.count()):
        squares.nth(i).click()
        if bob.locator("[data-spot]").count() >= 2:
            break
        if bob.locator("#pick-up").count():
            bob.locator("#pick-up").click()
        else:
            wait_mine(bob)
            squares = bob.locator("[data-sq]")
    spot = bob.locator("[data-spot]").first
    spot.scroll_into_view_if_needed()
    bob.wait_for_timeout(300)
    bob.screenshot(path=str(out / "tablet-meeple.png"))
    print(f"{out / 'laptop-place.png'}, {out / 'tablet-meeple.png'}")


if __name__ == "__main__":
    raise SystemExit(main())
