"""Country names in a map's own language: *Sverige* with *Norge* and *Finland* beyond its
borders, as its cities are *Göteborg* and *Malmö*.

A map made from a country speaks that country's official language (CLDR, through ``babel``,
part of the ``geo`` extra) when it has one and its city names are written in Latin letters.
Otherwise it keeps English, as its cities keep GeoNames' names (:mod:`engine.geo.citynames`):
Japan (romanised names), Switzerland and Belgium (several official languages: *Geneva*, not
Genf, Genève or Ginevra). Without ``babel`` every name stays English (Natural Earth's).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.geo.citynames import script_of

__all__ = ["LANGUAGE_KEY", "country_name_in", "map_language"]

LANGUAGE_KEY = "language"
"""``MapDef.editor`` key: the language (CLDR code, e.g. ``"sv"``) of an import's names."""


@cache
def _babel_available() -> bool:
    try:
        import babel  # noqa: F401  # deferred: the optional geo extra
    except ImportError:
        return False
    return True


def map_language(countries: Sequence[str]) -> str | None:
    """The language of a map of ``countries`` (ISO alpha-2 codes, the first decides): its
    official language, or ``None`` (English) when it has several, when its city names are in
    another script, or when ``babel`` is missing.

    >>> [map_language([c]) for c in ("SE", "CZ", "NO", "JP", "CH")]
    ['sv', 'cs', 'nb', None, None]
    """
    if not countries or not _babel_available() or script_of(countries[0]):
        return None
    from babel.languages import get_official_languages  # deferred: the optional geo extra

    langs = [str(lang) for lang in get_official_languages(countries[0].upper())]
    if langs[:1] == ["no"]:
        langs = ["nb"]  # Norwegian, written as Bokmål (CLDR adds Nynorsk)
    return langs[0] if len(langs) == 1 else None


@cache
def country_name_in(iso2: str, language: str | None) -> str | None:
    """A country's name in ``language`` (CLDR), ``None`` when unknown or no language is given.

    >>> country_name_in("DE", "cs"), country_name_in("SE", "sv"), country_name_in("SE", None)
    ('Německo', 'Sverige', None)
    """
    if not language or not iso2 or not _babel_available():
        return None
    from babel import Locale, UnknownLocaleError  # deferred: the optional geo extra

    try:
        name = Locale.parse(language).territories.get(iso2.upper())
    except (UnknownLocaleError, ValueError):
        return None
    return str(name) if name else None
