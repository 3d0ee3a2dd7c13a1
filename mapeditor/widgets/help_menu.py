"""The Help menu: keyboard shortcuts, a short guide to the tools, the rules summary and About."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from importlib.metadata import PackageNotFoundError, version

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMenu, QTextBrowser, QVBoxLayout, QWidget

from engine.resources import maps_dir
from mapeditor.tools import ALL_TOOLS

RULES_SUMMARY = """
<h2>Carcassonne Maps in short</h2>
<ul>
<li>Tiles go only on preprinted map squares, next to a tile already placed, matching it.</li>
<li><b>Start squares</b> (a small town with a red edging): the game starts from two or three of
them.</li>
<li><b>Large cities</b> are printed city squares that take no tile; a tile placed next to one
connects it. A completed large city scores like a city; its coats of arms give 2 points each.</li>
<li><b>Towns</b> are ordinary squares (some country rules treat them specially).</li>
<li>A <b>border</b> with a printed road or city needs a matching tile, and completes the road or
city there. A border without a print is neutral: anything may face it, and a city, road or field
against it counts as completed.</li>
<li><b>Ferries</b> join two road ends across water: a road reaching one end continues at the
other.</li>
<li>Country rule sets add Maps-Chips, islands, waves and tracks; the validation panel names any
square that breaks a rule of the chosen set.</li>
<li>How the engine reads the unclear sentences is written down in <code>engine/RULES.md</code>.</li>
</ul>
"""


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """``(what, keys)`` for every action with a shortcut, in menu order, without duplicates."""
    rows: list[tuple[str, str]] = []
    seen: set[str] = set()
    for action in actions:
        keys = ", ".join(k.toString() for k in action.shortcuts() if not k.isEmpty())
        text = action.text().replace("&", "").rstrip("…").strip()
        if keys and text and text not in seen:
            seen.add(text)
            rows.append((text, keys))
    return rows


def shortcuts_html(actions: Iterable[QAction]) -> str:
    rows = shortcut_rows(actions)
    rows += [
        ("Zoom around the cursor", "Mouse wheel"),
        ("Pan", "Middle button drag, or Space + drag"),
        ("Cancel a drag", "Esc"),
        ("Erase or remove (most tools)", "Right button"),
        ("Large city: cycle an outer edge field → city → road", "Ctrl+click"),
        ("Island: cycle a square land → ferry-gated → stack", "Ctrl+click"),
        ("Add to the selection (Select tool)", "Shift+click or Shift+drag"),
        ("Back to the canvas from a dock field", "Esc"),
    ]
    body = "".join(
        f"<tr><td>{html.escape(what)}</td><td><b>{html.escape(keys)}</b></td></tr>"
        for what, keys in rows
    )
    return f"<h2>Keyboard and mouse</h2><table cellpadding='3'>{body}</table>"


def tools_html() -> str:
    items = "".join(
        f"<li><b>{html.escape(t.name)}</b> ({html.escape(t.shortcut)}): {html.escape(t.hint)}</li>"
        for t in ALL_TOOLS
    )
    return (
        "<h2>The tools</h2><p>Pick a tool from the tool bar or by its key, then draw on the map. "
        "Every change is one undo step (Ctrl+Z). The validation panel lists what is wrong; click "
        "an entry to go to it.</p>"
        f"<ul>{items}</ul>"
    )


def notice_html(text: str) -> str:
    """The NOTICE file as HTML: its underlined titles as headings, its paragraphs as text."""
    lines = text.splitlines()
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{html.escape(' '.join(para))}</p>")
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i].strip()
        under = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line and under and set(under) <= {"=", "-"} and len(under) >= 3:
            flush()
            tag = "h3" if under[0] == "=" else "h4"
            out.append(f"<{tag}>{html.escape(line)}</{tag}>")
            i += 2
            continue
        if line:
            para.append(line)
        else:
            flush()
        i += 1
    flush()
    return "".join(out)


def app_version() -> str:
    """The installed package's version (``"unknown"`` when run from a bare checkout)."""
    try:
        return version("carcassonne-maps-studio")
    except PackageNotFoundError:
        return "unknown"


def about_html() -> str:
    notice = maps_dir() / "NOTICE"
    credits = notice.read_text(encoding="utf-8") if notice.is_file() else ""
    return (
        f"<h2>Carcassonne Maps Studio {html.escape(app_version())}</h2><p>A map editor and "
        "playtest for Carcassonne Maps boards. Unofficial; not endorsed by Hans im Glück.</p>"
        "<h2>Data credits</h2>" + (notice_html(credits) if credits else "<p>(NOTICE not found)</p>")
    )


def show_text(parent: QWidget, title: str, text: str) -> QDialog:
    """A non-modal window showing ``text`` (HTML)."""
    dialog = QDialog(parent)
    dialog.setObjectName(f"help-{title.lower().replace(' ', '-')}")
    dialog.setWindowTitle(title)
    browser = QTextBrowser()
    browser.setOpenExternalLinks(True)
    browser.setHtml(text)
    QVBoxLayout(dialog).addWidget(browser)
    dialog.resize(640, 560)
    dialog.show()
    return dialog


def add_help_menu(
    window: QWidget, menu: QMenu, actions: Callable[[], Iterable[QAction]]
) -> dict[str, QAction]:
    """Fill ``menu``; ``actions()`` gives the window's actions listed in the shortcut sheet (asked
    when the sheet is shown, so actions added after the menus, like Print, are listed too)."""
    entries = {
        "shortcuts": ("&Keyboard shortcuts", "F1", lambda: shortcuts_html(actions())),
        "tools": ("&Tools guide", None, tools_html),
        "rules": ("&Rules summary", None, lambda: RULES_SUMMARY),
        "about": ("&About Carcassonne Maps Studio", None, about_html),
    }
    out: dict[str, QAction] = {}
    for key, (text, shortcut, make) in entries.items():
        action = menu.addAction(text)
        if shortcut:
            action.setShortcut(shortcut)
        title = text.replace("&", "")
        action.triggered.connect(lambda _c=False, t=title, m=make: show_text(window, t, m()))
        out[key] = action
    return out
