"""The pictures of the rule language's icons (:data:`engine.rules.data.lang.ICONS`), as SVG.

A resource or a mark names its icon (``"fish"``); the file never holds a picture or a path. Each
icon is a few SVG shapes on a 24 × 24 view box, filled with the entry's colour and outlined in
ink, so the editor (Qt's SVG renderer), the balance report's HTML and the online client draw the
same picture from one definition. Pure data: nothing here is read from outside.

>>> svg = icon_svg("fish", "#3070b0")
>>> svg.startswith("<svg") and 'fill="#3070b0"' in svg
True
>>> icon_svg("unknown", "#000000") == icon_svg("chip", "#000000")
True
"""

from __future__ import annotations

import re

INK = "#262626"
_FILL = "{fill}"

ICON_SHAPES: dict[str, str] = {
    "chip": (
        '<circle cx="12" cy="12" r="9.5" fill="{fill}"/>'
        '<circle cx="12" cy="12" r="6" fill="none" stroke-dasharray="2 2"/>'
    ),
    "coin": (
        '<ellipse cx="12" cy="14" rx="9" ry="6" fill="{fill}"/>'
        '<ellipse cx="12" cy="10" rx="9" ry="6" fill="{fill}"/>'
        '<ellipse cx="12" cy="10" rx="5" ry="3" fill="none"/>'
    ),
    "fish": (
        '<path d="M3 12 C7 5 15 5 19 12 C15 19 7 19 3 12 Z" fill="{fill}"/>'
        '<path d="M18 12 L23 7 L23 17 Z" fill="{fill}"/>'
        '<circle cx="8" cy="11" r="1.2" fill="#262626"/>'
    ),
    "grape": (
        '<path d="M12 5 C13 3 15 2 18 2" fill="none"/>'
        '<circle cx="8" cy="8" r="3" fill="{fill}"/><circle cx="14" cy="8" r="3" fill="{fill}"/>'
        '<circle cx="11" cy="12.5" r="3" fill="{fill}"/>'
        '<circle cx="17" cy="12" r="3" fill="{fill}"/>'
        '<circle cx="14" cy="17" r="3" fill="{fill}"/>'
        '<circle cx="10" cy="20" r="2.5" fill="{fill}"/>'
    ),
    "olive": (
        '<path d="M2 20 C8 14 14 10 22 4" fill="none"/>'
        '<path d="M13 10 C15 5 19 4 21 5 C19 8 16 10 13 10 Z" fill="#6b8e23"/>'
        '<ellipse cx="8" cy="12" rx="3" ry="4.5" fill="{fill}" transform="rotate(-30 8 12)"/>'
        '<ellipse cx="15" cy="16" rx="3" ry="4.5" fill="{fill}" transform="rotate(-30 15 16)"/>'
    ),
    "grain": (
        '<path d="M12 23 L12 4" fill="none"/>'
        '<ellipse cx="9" cy="8" rx="2" ry="3.5" fill="{fill}" transform="rotate(-30 9 8)"/>'
        '<ellipse cx="15" cy="8" rx="2" ry="3.5" fill="{fill}" transform="rotate(30 15 8)"/>'
        '<ellipse cx="9" cy="13" rx="2" ry="3.5" fill="{fill}" transform="rotate(-30 9 13)"/>'
        '<ellipse cx="15" cy="13" rx="2" ry="3.5" fill="{fill}" transform="rotate(30 15 13)"/>'
        '<ellipse cx="12" cy="3.5" rx="1.8" ry="3" fill="{fill}"/>'
    ),
    "salt": (
        '<path d="M8 7 L6 4 L18 4 L16 7 C21 10 21 21 12 21 C3 21 3 10 8 7 Z" fill="{fill}"/>'
        '<path d="M8 7 L16 7" fill="none"/>'
    ),
    "wagon": (
        '<path d="M2 7 L22 7 L20 16 L4 16 Z" fill="{fill}"/>'
        '<circle cx="7" cy="18" r="3" fill="#f2e6c8"/><circle cx="17" cy="18" r="3" fill="#f2e6c8"/>'
    ),
    "ship": (
        '<path d="M2 15 L22 15 L18 21 L6 21 Z" fill="{fill}"/>'
        '<path d="M12 15 L12 2" fill="none"/>'
        '<path d="M12 3 L20 13 L12 13 Z" fill="#f4efe2"/>'
        '<path d="M11 5 L5 13 L11 13 Z" fill="#f4efe2"/>'
    ),
    "star": (
        '<path d="M12 2 L14.9 8.6 L22 9.3 L16.6 14 L18.2 21 L12 17.3 L5.8 21 L7.4 14 L2 9.3 '
        'L9.1 8.6 Z" fill="{fill}"/>'
    ),
    "crown": (
        '<path d="M3 18 L2 7 L8 12 L12 4 L16 12 L22 7 L21 18 Z" fill="{fill}"/>'
        '<path d="M3 21 L21 21" fill="none"/>'
    ),
    "tower": (
        '<path d="M6 22 L6 8 L4 8 L4 3 L7 3 L7 5 L10 5 L10 3 L14 3 L14 5 L17 5 L17 3 L20 3 '
        'L20 8 L18 8 L18 22 Z" fill="{fill}"/>'
        '<path d="M10 22 L10 17 C10 15 14 15 14 17 L14 22" fill="#262626"/>'
    ),
    "tree": (
        '<path d="M10.5 16 L10.5 22 L13.5 22 L13.5 16" fill="#8b5a2b"/>'
        '<path d="M12 2 L20 17 L4 17 Z" fill="{fill}"/>'
    ),
    "wave": (
        '<path d="M2 10 C5 6 8 6 11 10 C14 14 17 14 22 10 L22 20 L2 20 Z" fill="{fill}"/>'
        '<path d="M2 15 C5 12 8 12 11 15 C14 18 17 18 22 15" fill="none"/>'
    ),
    "mountain": (
        '<path d="M1 21 L9 6 L13 13 L16 9 L23 21 Z" fill="{fill}"/>'
        '<path d="M9 6 L11.5 10.5 L9.5 9.5 L7.5 11 Z" fill="#ffffff"/>'
    ),
    "flag": (
        '<path d="M5 22 L5 2" fill="none" stroke-width="2"/>'
        '<path d="M5 3 L20 3 L16 8 L20 13 L5 13 Z" fill="{fill}"/>'
    ),
}
"""Each icon's SVG shapes; ``{fill}`` is the entry's colour (every shape has the ink outline)."""

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def icon_svg(name: str, colour: str, size: int = 24) -> str:
    """The icon ``name`` as a whole SVG document of ``size`` pixels, filled with ``colour``
    (``#rrggbb``; another value draws grey). An unknown name draws the chip."""
    fill = colour if _COLOUR.match(colour) else "#808080"
    shapes = ICON_SHAPES.get(name, ICON_SHAPES["chip"]).replace(_FILL, fill)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 24 24"><g stroke="{INK}" stroke-width="1.2" stroke-linejoin="round" '
        f'stroke-linecap="round">{shapes}</g></svg>'
    )


def icon_sprite() -> str:
    """Every icon as a ``<symbol id="icon-NAME">`` of one SVG document, filled with
    ``currentColor`` (a page's ``<use href="…#icon-fish" color="#3070b0">`` sets the colour).

    >>> '<symbol id="icon-fish"' in icon_sprite()
    True
    """
    symbols = "".join(
        f'<symbol id="icon-{name}" viewBox="0 0 24 24"><g stroke="{INK}" stroke-width="1.2" '
        f'stroke-linejoin="round" stroke-linecap="round">{shapes.replace(_FILL, "currentColor")}'
        "</g></symbol>"
        for name, shapes in ICON_SHAPES.items()
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg">{symbols}</svg>'
