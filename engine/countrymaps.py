"""The five shipped country maps, produced reproducibly from real geography.

Commands::

    python -m engine.countrymaps build [--out DIR] [--only ID ...] [--refresh]
    python -m engine.countrymaps check [--out DIR] [--only ID ...] [--refresh]
    python -m engine.countrymaps table      # the README's "Shipped maps" table

The printed Hans im Glück maps are not available, so ``maps/deutschland.json``, ``france.json``,
``benelux.json``, ``great-britain.json`` and ``iberica.json`` are our own renditions. Each is made
in two stages:

1. **Import** (the editor's "New map from country"): :mod:`engine.country` rasterises the Natural
   Earth outline of the country (or countries) into map squares at a given square size in km and a
   minimum land share, and names the neighbour beyond every border edge. The result (grid, land
   rows, projection, neighbour names) is committed as ``engine/data/country_rasters.json``, so stage
   2 runs without the optional ``geo`` extra (``--refresh`` re-imports it; that needs the extra).
2. **Design** (pure, deterministic): every printed element is given here by its real **longitude and
   latitude** and converted to a square through the import's projection: start squares, large
   cities (footprint, per-side city/road/field, coats of arms), towns (France: grape colours),
   border roads and cities into named neighbours, ferries, islands, waves, chip squares, tracks and
   the Isle of Man. Land the players could never reach (small islands without a ferry) is dropped
   and the grid is cropped to the map with one square of outside all round.

The element lists carry every name and fact the rule sheets and ``maps-rules-notes.md`` give; the
rest (footprints, coats of arms, which towns, where the border features are) is our design, chosen
to be faithful to the real map of Europe and playable with the country's Map-Chips rules.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.geometry import Edge, Side, Square, orthogonal_neighbours
from engine.gridshape import reshape
from engine.mapdef import (
    BorderFeature,
    Colour,
    EdgeKind,
    Ferry,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    RuleSet,
    Setup,
    StartSquare,
    Town,
    Track,
)
from engine.resources import data_dir

C, R, F = EdgeKind.CITY, EdgeKind.ROAD, EdgeKind.FIELD
N, E, S, W = Side.N, Side.E, Side.S, Side.W
PURPLE, BLUE, ORANGE = Colour.PURPLE, Colour.LIGHT_BLUE, Colour.ORANGE
STACK, GATED = IslandRole.STACK, IslandRole.GATED

AUTHOR = "Carcassonne Maps Studio"
SEA = ""
"""Neighbour name of an outside square that is sea (or no country)."""

# -- the design vocabulary -----------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A named real place. ``nudge`` moves it by whole squares when two places share a square."""

    name: str
    lon: float
    lat: float
    nudge: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class TownSpec(Place):
    """A town (or start square) at a real place; ``grape`` is its France wine colour."""

    grape: Colour | None = None


@dataclass(frozen=True)
class CitySpec(Place):
    """A large city: ``shape`` are square offsets from the square at (lon, lat).

    ``sides`` says what is printed on every outer edge on that side of the footprint (unlisted:
    field); ``edges`` overrides single outer edges as ``(dx, dy, side, kind)``. Edges that face the
    outside of the map are always fields.
    """

    id: str = ""
    shape: tuple[tuple[int, int], ...] = ((0, 0),)
    coats_of_arms: int = 1
    sides: tuple[tuple[Side, EdgeKind], ...] = ()
    edges: tuple[tuple[int, int, Side, EdgeKind], ...] = ()


@dataclass(frozen=True)
class BorderSpec(Place):
    """A printed road or city running abroad at a real border crossing (lon, lat).

    ``name`` is where it leads (a place abroad), ``neighbour`` the country as Natural Earth names it.
    """

    neighbour: str = ""
    kind: EdgeKind = EdgeKind.ROAD
    coats_of_arms: int = 1
    side: Side | None = None
    """Only an edge on this side of its square (where the nearest one would look wrong)."""


@dataclass(frozen=True)
class FerrySpec:
    """A ferry route between two real ports (each end on a coastal edge facing the sea)."""

    id: str
    a: Place
    b: Place
    coats_of_arms: int = 1


@dataclass(frozen=True)
class IslandSquareSpec:
    """One square of an island, as an offset from the island's anchor square."""

    dx: int
    dy: int
    role: IslandRole = IslandRole.LAND
    coats_of_arms: int = 0


@dataclass(frozen=True)
class IslandSpec:
    """A named island: its anchor square is at (lon, lat) of ``anchor``."""

    id: str
    name: str
    colour: Colour | None
    anchor: Place
    squares: tuple[IslandSquareSpec, ...]


@dataclass(frozen=True)
class ChipSquareSpec(Place):
    """A Great Britain chip square at a real place, marked in ``colour``."""

    colour: Colour = Colour.PURPLE


@dataclass(frozen=True)
class ImportSettings:
    """How the outline is rasterised (stage 1)."""

    countries: tuple[str, ...]
    km: float
    min_land_share: float
    bbox: tuple[float, float, float, float] | None = None
    """(west, south, east, north) in degrees: keeps the mainland, drops far-away territories."""


@dataclass(frozen=True)
class CountrySpec:
    """Everything about one country map: import settings and every designed element.

    ``description`` holds the hand-written notes appended to the generated description.
    """

    id: str
    name: str
    rule_set: RuleSet
    setup: Setup
    settings: ImportSettings
    description: str
    starts: tuple[TownSpec, ...]
    """Start squares; one with a grape colour is also a town (France: Nancy, orange)."""
    cities: tuple[CitySpec, ...]
    towns: tuple[TownSpec, ...]
    borders: tuple[BorderSpec, ...] = ()
    ferries: tuple[FerrySpec, ...] = ()
    islands: tuple[IslandSpec, ...] = ()
    waves: tuple[Place, ...] = ()
    chip_squares: tuple[ChipSquareSpec, ...] = ()
    isle_of_man: Place | None = None
    tracks: bool = False
    extra_land: tuple[Place, ...] = field(default=())
    """Squares printed although less land than the share (e.g. a port on a thin peninsula)."""
    drop_land: tuple[Place, ...] = field(default=())
    """Squares not printed although land (e.g. lake squares)."""


def _sides(**kinds: EdgeKind) -> tuple[tuple[Side, EdgeKind], ...]:
    return tuple((Side(k), v) for k, v in kinds.items())


# -- Deutschland ---------------------------------------------------------------------------------

DEUTSCHLAND = CountrySpec(
    id="deutschland",
    name="Deutschland",
    rule_set=RuleSet.DEUTSCHLAND,
    setup=Setup(start_squares_used=2, chip_count=30, tile_pool_min=110, tile_pool_max=120),
    settings=ImportSettings(countries=("Germany",), km=42.0, min_land_share=0.5),
    description=(
        "Berlin is open to the west (a city side), as in the sheet's example; the Ruhrgebiet is "
        "two squares from Duisburg to Dortmund; the road into Denmark at Flensburg carries 2 "
        "coats of arms, as in the sheet's scoring example. The validator reports no errors and no "
        "warnings."
    ),
    starts=(
        TownSpec("Rostock", 12.10, 54.09),
        TownSpec("Erfurt", 11.03, 50.98),
        TownSpec("Stuttgart", 9.18, 48.78),
    ),
    cities=(
        CitySpec(
            "Hamburg", 10.00, 53.55, id="hamburg", coats_of_arms=2, sides=_sides(N=C, E=R, S=C)
        ),
        # The sheet's example connects Berlin from the west: a city side there.
        CitySpec("Berlin", 13.40, 52.52, id="berlin", coats_of_arms=2, sides=_sides(W=C, E=R, S=R)),
        CitySpec(
            "Hannover", 9.73, 52.37, id="hannover", coats_of_arms=1, sides=_sides(N=R, E=C, S=C)
        ),
        # The Ruhr conurbation runs ~70 km from Duisburg to Dortmund: two squares west–east.
        CitySpec(
            "Ruhrgebiet",
            7.01,
            51.46,
            id="ruhrgebiet",
            coats_of_arms=2,
            shape=((0, 0), (1, 0)),
            sides=_sides(N=C, E=C, W=R),
            edges=((0, 0, S, C), (1, 0, S, R)),
        ),
        CitySpec(
            "Frankfurt", 8.68, 50.11, id="frankfurt", coats_of_arms=1, sides=_sides(N=C, E=R, W=C)
        ),
        CitySpec(
            "München", 11.58, 48.14, id="muenchen", coats_of_arms=2, sides=_sides(N=C, E=R, W=R)
        ),
    ),
    towns=(
        TownSpec("Bremen", 8.80, 53.08),
        TownSpec("Saarbrücken", 6.99, 49.24),
        TownSpec("Nürnberg", 11.08, 49.45),
        TownSpec("Kiel", 10.13, 54.32),
        TownSpec("Lübeck", 10.69, 53.87),
        TownSpec("Schwerin", 11.42, 53.63),
        TownSpec("Greifswald", 13.38, 54.10),
        TownSpec("Oldenburg", 8.21, 53.14),
        TownSpec("Osnabrück", 8.05, 52.28),
        TownSpec("Münster", 7.63, 51.96),
        TownSpec("Magdeburg", 11.63, 52.13),
        TownSpec("Cottbus", 14.33, 51.76),
        TownSpec("Leipzig", 12.37, 51.34),
        TownSpec("Dresden", 13.74, 51.05),
        TownSpec("Kassel", 9.48, 51.31),
        TownSpec("Köln", 6.96, 50.94),
        TownSpec("Koblenz", 7.59, 50.36),
        TownSpec("Trier", 6.64, 49.75),
        TownSpec("Würzburg", 9.95, 49.79),
        TownSpec("Mannheim", 8.47, 49.49),
        TownSpec("Regensburg", 12.10, 49.01),
        TownSpec("Passau", 13.46, 48.57),
        TownSpec("Augsburg", 10.90, 48.37),
        TownSpec("Freiburg", 7.85, 47.99),
        TownSpec("Konstanz", 9.17, 47.66),
    ),
    borders=(
        # The sheet's example: a road ending in Denmark (4 road + 2 coats of arms = 8 points),
        # here at the Flensburg crossing.
        BorderSpec("Kolding", 9.43, 54.80, neighbour="Denmark", kind=R, coats_of_arms=2),
        BorderSpec("Stettin", 14.40, 53.40, neighbour="Poland", kind=C, coats_of_arms=1, side=E),
        BorderSpec("Posen", 14.55, 52.35, neighbour="Poland", kind=R, coats_of_arms=1),
        BorderSpec("Breslau", 14.99, 51.15, neighbour="Poland", kind=R, coats_of_arms=1),
        BorderSpec("Prag", 14.20, 50.85, neighbour="Czechia", kind=C, coats_of_arms=2),
        BorderSpec("Pilsen", 12.37, 50.08, neighbour="Czechia", kind=R, coats_of_arms=1),
        BorderSpec("Linz", 13.45, 48.57, neighbour="Austria", kind=R, coats_of_arms=1),
        BorderSpec("Salzburg", 12.98, 47.80, neighbour="Austria", kind=C, coats_of_arms=2),
        BorderSpec("Innsbruck", 11.20, 47.45, neighbour="Austria", kind=R, coats_of_arms=1),
        BorderSpec("Zürich", 8.60, 47.65, neighbour="Switzerland", kind=R, coats_of_arms=1),
        BorderSpec("Basel", 7.59, 47.59, neighbour="Switzerland", kind=C, coats_of_arms=2),
        BorderSpec("Strasbourg", 7.80, 48.57, neighbour="France", kind=C, coats_of_arms=2),
        BorderSpec("Metz", 6.80, 49.17, neighbour="France", kind=R, coats_of_arms=1),
        BorderSpec("Luxembourg", 6.45, 49.75, neighbour="Luxembourg", kind=R, coats_of_arms=1),
        BorderSpec("Lüttich", 6.15, 50.50, neighbour="Belgium", kind=R, coats_of_arms=1),
        BorderSpec("Maastricht", 6.02, 50.80, neighbour="Netherlands", kind=C, coats_of_arms=1),
        BorderSpec("Arnhem", 6.10, 51.85, neighbour="Netherlands", kind=R, coats_of_arms=1),
        BorderSpec("Groningen", 7.20, 53.20, neighbour="Netherlands", kind=R, coats_of_arms=1),
    ),
)


# -- France --------------------------------------------------------------------------------------

FRANCE = CountrySpec(
    id="france",
    name="France",
    rule_set=RuleSet.FRANCE,
    setup=Setup(start_squares_used=2, chip_count=30, tile_pool_min=110, tile_pool_max=120),
    settings=ImportSettings(
        countries=("France",), km=52.0, min_land_share=0.5, bbox=(-5.5, 41.0, 10.0, 51.5)
    ),
    description=(
        "Nancy is orange, as in the sheet's example; the other towns' grapes follow their wine "
        "regions (Bordeaux purple, Strasbourg light blue, Reims/Champagne orange, Dijon/Burgundy "
        "purple, Tours/Loire light blue, ...), spread over the three colours. Corsica is reached "
        "by the ferries from Nice and Toulon. The validator reports no errors and no warnings."
    ),
    starts=(
        # The sheet's example sells orange wine on Nancy.
        TownSpec("Nancy", 6.18, 48.69, grape=ORANGE),
        TownSpec("Le Mans", 0.20, 48.00, grape=BLUE),
        TownSpec("Limoges", 1.26, 45.83, grape=PURPLE),
    ),
    cities=(
        CitySpec(
            "Paris",
            2.35,
            48.86,
            id="paris",
            coats_of_arms=3,
            shape=((0, 0), (1, 0)),
            sides=_sides(N=C, S=C, W=R),
            edges=((1, 0, E, R),),
        ),
        CitySpec("Lille", 3.06, 50.63, id="lille", coats_of_arms=1, sides=_sides(S=C, W=R)),
        CitySpec("Lyon", 4.84, 45.76, id="lyon", coats_of_arms=2, sides=_sides(N=C, E=R, S=C, W=R)),
        CitySpec(
            # The coast road runs on to Toulon, where the ferry to Corsica leaves.
            "Marseille",
            5.37,
            43.30,
            id="marseille",
            coats_of_arms=2,
            sides=_sides(N=C, W=R, E=R),
        ),
        CitySpec(
            "Toulouse", 1.44, 43.60, id="toulouse", coats_of_arms=1, sides=_sides(N=C, E=R, W=C)
        ),
        CitySpec("Nantes", -1.55, 47.22, id="nantes", coats_of_arms=1, sides=_sides(N=R, E=C)),
    ),
    towns=(
        # Wine regions spread over the three grape colours.
        TownSpec("Bordeaux", -0.58, 44.84, grape=PURPLE),
        TownSpec("Strasbourg", 7.75, 48.58, grape=BLUE),
        TownSpec("Reims", 4.03, 49.26, grape=ORANGE),
        TownSpec("Dijon", 5.04, 47.32, grape=PURPLE),
        TownSpec("Tours", 0.69, 47.39, grape=BLUE),
        TownSpec("Montpellier", 3.88, 43.61, grape=ORANGE),
        TownSpec("Avignon", 4.81, 43.95, grape=PURPLE),
        TownSpec("Cognac", -0.33, 45.69, grape=ORANGE),
        TownSpec("Colmar", 7.36, 48.08, grape=ORANGE, nudge=(0, 1)),
        TownSpec("Mâcon", 4.83, 46.31, grape=BLUE),
        TownSpec("Perpignan", 2.90, 42.70, grape=BLUE),
        TownSpec("Cahors", 1.44, 44.45, grape=PURPLE),
        TownSpec("Rouen", 1.10, 49.44, grape=BLUE),
        TownSpec("Caen", -0.37, 49.18, grape=ORANGE),
        TownSpec("Rennes", -1.68, 48.11, grape=PURPLE),
        TownSpec("Brest", -4.49, 48.39, grape=BLUE),
        TownSpec("Orléans", 1.91, 47.90, grape=ORANGE),
        TownSpec("Clermont-Ferrand", 3.09, 45.78, grape=BLUE),
        TownSpec("Grenoble", 5.72, 45.19, grape=ORANGE),
        TownSpec("Besançon", 6.02, 47.24, grape=BLUE),
        TownSpec("Nice", 7.26, 43.70, grape=PURPLE),
        TownSpec("Pau", -0.37, 43.30, grape=ORANGE),
        TownSpec("Amiens", 2.30, 49.89, grape=PURPLE),
        TownSpec("Troyes", 4.08, 48.30, grape=PURPLE),
        TownSpec("Ajaccio", 8.74, 41.93, grape=BLUE),
    ),
    borders=(
        # Wine export (5 points) needs border roads/cities with coats of arms: all have some.
        BorderSpec("Mons", 3.80, 50.38, neighbour="Belgium", kind=R, coats_of_arms=1),
        BorderSpec("Namur", 4.80, 50.10, neighbour="Belgium", kind=C, coats_of_arms=2),
        BorderSpec("Luxembourg", 6.10, 49.47, neighbour="Luxembourg", kind=R, coats_of_arms=1),
        BorderSpec("Saarbrücken", 6.95, 49.18, neighbour="Germany", kind=R, coats_of_arms=1),
        BorderSpec("Kehl", 7.80, 48.57, neighbour="Germany", kind=C, coats_of_arms=2),
        BorderSpec("Basel", 7.55, 47.58, neighbour="Switzerland", kind=R, coats_of_arms=1),
        BorderSpec("Genève", 6.10, 46.20, neighbour="Switzerland", kind=C, coats_of_arms=2),
        BorderSpec("Torino", 6.90, 45.10, neighbour="Italy", kind=R, coats_of_arms=1),
        BorderSpec("Ventimiglia", 7.52, 43.79, neighbour="Italy", kind=R, coats_of_arms=2),
        BorderSpec("La Jonquera", 2.87, 42.43, neighbour="Spain", kind=R, coats_of_arms=1),
        BorderSpec("Girona", 1.95, 42.45, neighbour="Spain", kind=C, coats_of_arms=1),
        BorderSpec("Irún", -1.78, 43.35, neighbour="Spain", kind=R, coats_of_arms=2),
    ),
    ferries=(
        FerrySpec("nice-calvi", Place("Nice", 7.30, 43.69), Place("Calvi", 8.75, 42.57)),
        # Lands on Corsica's west coast (Ajaccio's gulf is one square south at this scale).
        FerrySpec(
            "toulon-ajaccio",
            Place("Toulon", 5.93, 43.10),
            Place("Ajaccio", 8.74, 41.93, nudge=(0, -1)),
        ),
    ),
)


# -- Benelux -------------------------------------------------------------------------------------

BENELUX = CountrySpec(
    id="benelux",
    name="Benelux",
    rule_set=RuleSet.BENELUX,
    setup=Setup(start_squares_used=2, chip_count=20, tile_pool_min=110, tile_pool_max=120),
    settings=ImportSettings(
        countries=("Belgium", "Netherlands", "Luxembourg"),
        km=19.7,
        min_land_share=0.5,
        bbox=(2.4, 49.3, 7.3, 53.7),
    ),
    description=(
        "The three wave squares lie on the IJsselmeer; the stack squares are the Frisian islands "
        "Texel (purple), Terschelling (light blue) and Ameland (orange), two squares each; stack "
        "and wave squares take no tile. The validator reports no errors and no warnings."
    ),
    starts=(
        TownSpec("Meppel", 6.19, 52.70),
        TownSpec("Eindhoven", 5.47, 51.44),
        TownSpec("Charleroi", 4.44, 50.41),
    ),
    cities=(
        CitySpec(
            "Amsterdam", 4.90, 52.37, id="amsterdam", coats_of_arms=2, sides=_sides(E=C, S=R, W=C)
        ),
        CitySpec(
            "Rotterdam", 4.48, 51.92, id="rotterdam", coats_of_arms=1, sides=_sides(N=C, E=R, S=C)
        ),
        CitySpec(
            "Antwerpen", 4.40, 51.22, id="antwerpen", coats_of_arms=1, sides=_sides(N=R, E=C, W=C)
        ),
        CitySpec(
            "Brussel/Bruxelles",
            4.35,
            50.85,
            id="bruxelles",
            coats_of_arms=2,
            sides=_sides(N=C, E=C, S=R, W=R),
        ),
        CitySpec(
            "Luxembourg", 6.13, 49.61, id="luxembourg", coats_of_arms=1, sides=_sides(N=C, W=R)
        ),
    ),
    towns=(
        TownSpec("Utrecht", 5.12, 52.09),
        TownSpec("Den Haag", 4.30, 52.08),
        TownSpec("Haarlem", 4.64, 52.38),
        TownSpec("Den Helder", 4.76, 52.93),
        TownSpec("Leeuwarden", 5.80, 53.20),
        TownSpec("Groningen", 6.57, 53.22),
        TownSpec("Zwolle", 6.09, 52.52),
        TownSpec("Enschede", 6.89, 52.22),
        TownSpec("Arnhem", 5.90, 51.98),
        TownSpec("Nijmegen", 5.86, 51.84, nudge=(0, 1)),  # Arnhem holds its square
        TownSpec("Breda", 4.78, 51.59),
        TownSpec("Middelburg", 3.61, 51.50),
        TownSpec("Venlo", 6.17, 51.37),
        TownSpec("Maastricht", 5.69, 50.85),
        TownSpec("Brugge", 3.22, 51.21),
        TownSpec("Gent", 3.72, 51.05),
        TownSpec("Leuven", 4.70, 50.88),
        TownSpec("Hasselt", 5.34, 50.93),
        TownSpec("Liège", 5.57, 50.63),
        TownSpec("Mons", 3.95, 50.45),
        TownSpec("Namur", 4.87, 50.47),
        TownSpec("Bastogne", 5.72, 50.00),
        TownSpec("Arlon", 5.82, 49.68),
    ),
    borders=(
        BorderSpec("Emden", 7.20, 53.20, neighbour="Germany", kind=R, coats_of_arms=1),
        BorderSpec("Osnabrück", 7.05, 52.25, neighbour="Germany", kind=R, coats_of_arms=1),
        BorderSpec("Duisburg", 6.10, 51.85, neighbour="Germany", kind=C, coats_of_arms=2),
        BorderSpec("Mönchengladbach", 6.20, 51.30, neighbour="Germany", kind=R, coats_of_arms=1),
        BorderSpec("Aachen", 6.05, 50.75, neighbour="Germany", kind=C, coats_of_arms=1),
        BorderSpec("Trier", 6.50, 49.75, neighbour="Germany", kind=R, coats_of_arms=1),
        BorderSpec("Metz", 6.15, 49.46, neighbour="France", kind=R, coats_of_arms=1),
        BorderSpec("Sedan", 4.90, 49.80, neighbour="France", kind=R, coats_of_arms=1),
        BorderSpec("Maubeuge", 4.00, 50.30, neighbour="France", kind=C, coats_of_arms=1),
        BorderSpec("Lille", 3.10, 50.75, neighbour="France", kind=C, coats_of_arms=2),
        BorderSpec("Dunkerque", 2.60, 51.05, neighbour="France", kind=R, coats_of_arms=1),
    ),
    islands=(
        # Three Frisian islands, two stack squares each, one per chip colour.
        IslandSpec(
            "texel",
            "Texel",
            PURPLE,
            Place("Texel", 4.80, 53.06),
            (
                IslandSquareSpec(0, 0, STACK),
                IslandSquareSpec(0, -1, STACK),
            ),
        ),
        IslandSpec(
            "terschelling",
            "Terschelling",
            BLUE,
            Place("Terschelling", 5.45, 53.42),
            (
                IslandSquareSpec(-1, 0, STACK),
                IslandSquareSpec(0, 0, STACK),
            ),
        ),
        IslandSpec(
            "ameland",
            "Ameland",
            ORANGE,
            Place("Ameland", 5.75, 53.48),
            (
                IslandSquareSpec(0, 0, STACK),
                IslandSquareSpec(1, 0, STACK),
            ),
        ),
    ),
    # Three wave squares on the IJsselmeer.
    waves=(
        Place("IJsselmeer west", 5.22, 52.80),
        Place("IJsselmeer north", 5.35, 52.95),
        Place("IJsselmeer east", 5.50, 52.75),
    ),
)


# -- Great Britain -------------------------------------------------------------------------------

GREAT_BRITAIN = CountrySpec(
    id="great-britain",
    name="Great Britain",
    rule_set=RuleSet.GREAT_BRITAIN,
    # The chips lie on the 30 fixed coloured squares: none are laid out at random.
    setup=Setup(start_squares_used=3, chip_count=0, tile_pool_min=90, tile_pool_max=100),
    settings=ImportSettings(
        countries=("United Kingdom", "Ireland"),
        km=44.5,
        min_land_share=0.5,
        bbox=(-10.8, 49.8, 2.0, 59.0),
    ),
    description=(
        "Ireland (with Northern Ireland) is reached from Britain by ferry only. The chip squares are marked at real places (e.g. "
        "Wick, Oban, Perth in Scotland; Sligo, Athlone, Killarney in Ireland; Penzance, "
        "Aberystwyth, Lincoln in England and Wales); setup.chip_count is 0 because no chips are "
        "laid out at random. The Isle of Man holding area is the sea square at the real island in "
        "the Irish Sea. Shetland, Orkney, the Hebrides and other isles without a ferry are left "
        "off. The validator reports no errors and no warnings."
    ),
    starts=(
        TownSpec("Kilkenny", -7.25, 52.65),
        TownSpec("Carlisle", -2.93, 54.89),
        TownSpec("Bristol", -2.59, 51.45),
    ),
    cities=(
        CitySpec(
            "London",
            -0.13,
            51.51,
            id="london",
            coats_of_arms=3,
            shape=((0, 0), (1, 0)),
            sides=_sides(N=C, S=R, W=C),
            edges=((1, 0, E, R),),
        ),
        CitySpec(
            "Birmingham",
            -1.90,
            52.48,
            id="birmingham",
            coats_of_arms=1,
            sides=_sides(N=C, S=C, W=R),
        ),
        CitySpec(
            "Manchester",
            -2.24,
            53.48,
            id="manchester",
            coats_of_arms=1,
            sides=_sides(E=C, S=R, W=C),
        ),
        CitySpec("Glasgow", -4.25, 55.86, id="glasgow", coats_of_arms=1, sides=_sides(S=C, W=R)),
        CitySpec(
            "Edinburgh", -3.19, 55.95, id="edinburgh", coats_of_arms=2, sides=_sides(E=C, S=R)
        ),
        CitySpec("Dublin", -6.26, 53.35, id="dublin", coats_of_arms=2, sides=_sides(N=R, S=C, W=C)),
    ),
    towns=(
        TownSpec("Oxford", -1.26, 51.75),
        TownSpec("Cambridge", 0.12, 52.21),
        TownSpec("York", -1.08, 53.96),
        TownSpec("Newcastle", -1.61, 54.97),
        TownSpec("Norwich", 1.30, 52.63),
        TownSpec("Plymouth", -4.14, 50.38),
        TownSpec("Southampton", -1.40, 50.90),
        TownSpec("Dover", 1.31, 51.13),
        TownSpec("Cardiff", -3.18, 51.48),
        TownSpec("Holyhead", -4.63, 53.31),
        TownSpec("Liverpool", -2.98, 53.41),
        TownSpec("Sheffield", -1.47, 53.38),
        TownSpec("Stranraer", -5.03, 54.90),
        TownSpec("Inverness", -4.22, 57.48),
        TownSpec("Aberdeen", -2.09, 57.15),
        TownSpec("Dundee", -2.97, 56.46),
        TownSpec("Belfast", -5.93, 54.60),
        TownSpec("Derry", -7.31, 55.00),
        TownSpec("Galway", -9.05, 53.27),
        TownSpec("Limerick", -8.63, 52.66),
        TownSpec("Cork", -8.47, 51.90),
        TownSpec("Rosslare", -6.34, 52.25),
    ),
    ferries=(
        FerrySpec(
            "holyhead-dublin",
            Place("Holyhead", -4.63, 53.31),
            Place("Dublin", -6.20, 53.35),
            coats_of_arms=2,
        ),
        FerrySpec(
            "stranraer-belfast",
            Place("Stranraer", -5.03, 54.90),
            Place("Belfast", -5.85, 54.65),
            coats_of_arms=1,
        ),
        FerrySpec(
            "fishguard-rosslare",
            Place("Fishguard", -4.98, 52.00),
            Place("Rosslare", -6.34, 52.25),
            coats_of_arms=1,
        ),
    ),
    chip_squares=(
        # 10 blue in Scotland.
        ChipSquareSpec("Durness", -4.75, 58.57, colour=BLUE),
        ChipSquareSpec("Wick", -3.09, 58.44, colour=BLUE),
        ChipSquareSpec("Ullapool", -5.16, 57.90, colour=BLUE),
        ChipSquareSpec("Aviemore", -3.83, 57.19, colour=BLUE),
        ChipSquareSpec("Fort William", -5.11, 56.82, colour=BLUE),
        ChipSquareSpec("Oban", -5.47, 56.41, colour=BLUE),
        ChipSquareSpec("Perth", -3.44, 56.40, colour=BLUE),
        ChipSquareSpec("Montrose", -2.47, 56.71, colour=BLUE),
        ChipSquareSpec("Ayr", -4.63, 55.46, colour=BLUE),
        ChipSquareSpec("Galashiels", -2.81, 55.62, colour=BLUE),
        # 10 orange in Ireland.
        ChipSquareSpec("Donegal", -8.11, 54.65, colour=ORANGE),
        ChipSquareSpec("Sligo", -8.47, 54.27, colour=ORANGE),
        ChipSquareSpec("Westport", -9.52, 53.80, colour=ORANGE),
        ChipSquareSpec("Athlone", -7.94, 53.42, colour=ORANGE),
        ChipSquareSpec("Ennis", -8.98, 52.84, colour=ORANGE),
        ChipSquareSpec("Killarney", -9.51, 52.06, colour=ORANGE),
        ChipSquareSpec("Clonmel", -7.70, 52.36, colour=ORANGE),
        ChipSquareSpec("Wicklow", -6.30, 52.98, colour=ORANGE),
        ChipSquareSpec("Armagh", -6.65, 54.35, colour=ORANGE),
        ChipSquareSpec("Enniskillen", -7.64, 54.34, colour=ORANGE),
        # 10 purple in England and Wales.
        ChipSquareSpec("Penzance", -5.54, 50.12, colour=PURPLE),
        ChipSquareSpec("Exeter", -3.53, 50.72, colour=PURPLE),
        ChipSquareSpec("Salisbury", -1.79, 51.07, colour=PURPLE),
        ChipSquareSpec("Canterbury", 1.08, 51.28, colour=PURPLE),
        ChipSquareSpec("Aberystwyth", -4.08, 52.42, colour=PURPLE),
        ChipSquareSpec("Shrewsbury", -2.75, 52.71, colour=PURPLE),
        ChipSquareSpec("Peterborough", -0.24, 52.57, colour=PURPLE),
        ChipSquareSpec("Lincoln", -0.54, 53.23, colour=PURPLE),
        ChipSquareSpec("Kendal", -2.75, 54.33, colour=PURPLE),
        ChipSquareSpec("Whitby", -0.61, 54.49, colour=PURPLE),
    ),
    isle_of_man=Place("Isle of Man", -4.53, 54.23),
)


# -- Península Ibérica ---------------------------------------------------------------------------

IBERICA = CountrySpec(
    id="iberica",
    name="Península Ibérica",
    rule_set=RuleSet.IBERICA,
    setup=Setup(start_squares_used=3, chip_count=30, tile_pool_min=110, tile_pool_max=120),
    settings=ImportSettings(
        countries=("Spain", "Portugal"),
        km=56.0,
        min_land_share=0.5,
        # Mainland and the Balearics; the Canaries, Azores, Madeira, Ceuta and Melilla are not
        # on the board.
        bbox=(-9.6, 35.95, 4.4, 43.85),
    ),
    description=(
        "Every row of the grid belongs to one track (some tracks are two rows wide): orange in the "
        "north, light blue in the centre, purple in the south. The Balearic squares (Mallorca 2, "
        "Palma with 2 coats of arms; Menorca; Eivissa) are ferry-gated: a tile goes there only "
        "once a ferry from the mainland is connected. The validator reports no errors and no warnings."
    ),
    starts=(
        TownSpec("León", -5.57, 42.60),
        TownSpec("Pamplona", -1.64, 42.81),
        TownSpec("Évora", -7.91, 38.57),
        TownSpec("Murcia", -1.13, 37.99),
    ),
    cities=(
        CitySpec(
            "Barcelona", 2.17, 41.39, id="barcelona", coats_of_arms=2, sides=_sides(N=C, W=C, S=R)
        ),
        CitySpec(
            "Madrid", -3.70, 40.42, id="madrid", coats_of_arms=3, sides=_sides(N=C, E=R, S=C, W=R)
        ),
        CitySpec("Lisboa", -9.14, 38.72, id="lisboa", coats_of_arms=2, sides=_sides(N=C, E=C, S=R)),
        CitySpec("Porto", -8.61, 41.15, id="porto", coats_of_arms=1, sides=_sides(N=R, E=C, S=C)),
        CitySpec(
            "Sevilla", -5.98, 37.39, id="sevilla", coats_of_arms=2, sides=_sides(N=C, E=R, W=C)
        ),
    ),
    towns=(
        TownSpec("Salamanca", -5.66, 40.97),
        TownSpec("Valencia", -0.38, 39.47),
        TownSpec("Zaragoza", -0.89, 41.65),
        TownSpec("Bilbao", -2.93, 43.26),
        TownSpec("Santiago de Compostela", -8.54, 42.88),
        TownSpec("Oviedo", -5.85, 43.36),
        TownSpec("Burgos", -3.70, 42.34),
        TownSpec("Valladolid", -4.72, 41.65),
        TownSpec("Toledo", -4.02, 39.86),
        TownSpec("Cáceres", -6.37, 39.47),
        TownSpec("Coimbra", -8.43, 40.21),
        TownSpec("Córdoba", -4.78, 37.89),
        TownSpec("Granada", -3.60, 37.18),
        TownSpec("Málaga", -4.42, 36.72),
        TownSpec("Cádiz", -6.29, 36.53),
        TownSpec("Faro", -7.93, 37.02),
        TownSpec("Alicante", -0.48, 38.35),
        TownSpec("Albacete", -1.86, 38.99),
        TownSpec("Tarragona", 1.25, 41.12),
        TownSpec("Girona", 2.82, 41.98),
        TownSpec("Cuenca", -2.13, 40.07),
        TownSpec("Almería", -2.46, 36.84),
    ),
    borders=(
        BorderSpec("Hendaye", -1.78, 43.35, neighbour="France", kind=R, coats_of_arms=1),
        BorderSpec("Pau", -0.55, 42.80, neighbour="France", kind=C, coats_of_arms=1),
        BorderSpec("Toulouse", 1.50, 42.60, neighbour="France", kind=C, coats_of_arms=2),
        BorderSpec("Perpignan", 2.87, 42.43, neighbour="France", kind=R, coats_of_arms=2),
    ),
    islands=(
        IslandSpec(
            "mallorca",
            "Mallorca",
            None,
            Place("Palma", 2.65, 39.57),
            (
                IslandSquareSpec(0, 0, GATED, 2),
                IslandSquareSpec(1, 0, GATED, 1),
            ),
        ),
        IslandSpec(
            "menorca",
            "Menorca",
            None,
            Place("Maó", 4.10, 39.95),
            (IslandSquareSpec(0, 0, GATED, 1),),
        ),
        IslandSpec(
            "eivissa",
            "Eivissa",
            None,
            Place("Eivissa", 1.43, 38.98),
            (IslandSquareSpec(0, 0, GATED, 1),),
        ),
    ),
    ferries=(
        # From the coast square next to Barcelona (the city square itself takes no tile).
        FerrySpec(
            "barcelona-palma",
            Place("Barcelona", 2.17, 41.39, nudge=(-1, 0)),
            Place("Palma", 2.65, 39.57),
            coats_of_arms=1,
        ),
        FerrySpec(
            "valencia-eivissa",
            Place("Valencia", -0.30, 39.45),
            Place("Eivissa", 1.43, 38.98),
            coats_of_arms=1,
        ),
        FerrySpec(
            "alcudia-ciutadella",
            Place("Alcúdia", 3.12, 39.85),
            Place("Ciutadella", 3.84, 40.00),
            coats_of_arms=1,
        ),
    ),
    tracks=True,
)

COUNTRIES: dict[str, CountrySpec] = {
    spec.id: spec for spec in (DEUTSCHLAND, FRANCE, BENELUX, GREAT_BRITAIN, IBERICA)
}
"""The five shipped country maps by id (= file stem in ``maps/``)."""


# -- stage 1: the imported outline ---------------------------------------------------------------


@dataclass
class Raster:
    """The imported outline of one country map: its grid, land squares, neighbours, projection.

    ``neighbours`` names the country on every outside square next to the land (``""``: sea).
    ``projection`` holds the parameters of :mod:`engine.country`'s projection, so longitudes and
    latitudes convert to squares without the geo data.
    """

    width: int
    height: int
    land: set[Square]
    neighbours: dict[Square, str]
    projection: dict[str, Any]

    def grid_point(self, lon: float, lat: float) -> tuple[float, float]:
        """Fractional grid position ``(x, y)`` of a longitude/latitude (square (0,0) spans 0..1)."""
        return _grid_point(self.projection, lon, lat)

    def to_dict(self) -> dict[str, Any]:
        rows = [
            "".join("#" if (x, y) in self.land else "." for x in range(self.width))
            for y in range(self.height)
        ]
        names = sorted({n for n in self.neighbours.values() if n})
        # One row string per grid row plus a frame of one square all round (the import also
        # names squares just beyond the grid): '.' not named, '~' sea, 'a'.. index into names.
        outside = [
            "".join(
                _neighbour_char(self.neighbours.get((x, y)), names)
                for x in range(-1, self.width + 1)
            )
            for y in range(-1, self.height + 1)
        ]
        return {
            "width": self.width,
            "height": self.height,
            "projection": self.projection,
            "land": rows,
            "neighbour_names": names,
            "neighbours": outside,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Raster:
        land = {(x, y) for y, row in enumerate(d["land"]) for x, ch in enumerate(row) if ch == "#"}
        names: list[str] = d["neighbour_names"]
        neighbours: dict[Square, str] = {}
        for y, row in enumerate(d["neighbours"], start=-1):
            for x, ch in enumerate(row, start=-1):
                if ch == "~":
                    neighbours[(x, y)] = SEA
                elif ch != ".":
                    neighbours[(x, y)] = names[_CHARS.index(ch)]
        return cls(d["width"], d["height"], land, neighbours, dict(d["projection"]))


_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _neighbour_char(name: str | None, names: list[str]) -> str:
    if name is None:
        return "."
    if name == SEA:
        return "~"
    return _CHARS[names.index(name)]


def rasters_path() -> Path:
    """The committed stage-1 results: ``engine/data/country_rasters.json``."""
    return data_dir() / "country_rasters.json"


def load_rasters(path: Path | None = None) -> dict[str, Raster]:
    data = json.loads((path or rasters_path()).read_text(encoding="utf-8"))
    return {cid: Raster.from_dict(d) for cid, d in data["rasters"].items()}


def dumps_rasters(rasters: dict[str, Raster]) -> str:
    body = {
        "about": "Stage 1 of engine.countrymaps: Natural Earth outlines rasterised by "
        "engine.country (python -m engine.countrymaps build --refresh). Natural Earth data "
        "is public domain.",
        "rasters": {cid: rasters[cid].to_dict() for cid in sorted(rasters)},
    }
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"


# -- stage 2: the design -------------------------------------------------------------------------


class DesignError(ValueError):
    """A designed element cannot be put on the imported grid (names the element and why)."""


def _centre_distance(point: tuple[float, float], sq: Square) -> float:
    return math.hypot(point[0] - (sq[0] + 0.5), point[1] - (sq[1] + 0.5))


def _edge_midpoint(edge: Edge) -> tuple[float, float]:
    dx, dy = edge.side.delta
    return (edge.x + 0.5 + dx / 2, edge.y + 0.5 + dy / 2)


class _Designer:
    """Puts one :class:`CountrySpec` onto its :class:`Raster`, raising :class:`DesignError`."""

    def __init__(self, spec: CountrySpec, raster: Raster) -> None:
        self.spec = spec
        self.raster = raster
        self.m = MapDef(
            id=spec.id,
            name=spec.name,
            width=raster.width,
            height=raster.height,
            author=AUTHOR,
            rule_set=spec.rule_set,
            setup=Setup(**vars(spec.setup)),
            land=set(raster.land),
        )
        self.taken: dict[Square, str] = {}
        self.edges_taken: set[Edge] = set()
        self.constrained: set[Square] = set()

    # -- helpers --

    def point(self, p: Place) -> tuple[float, float]:
        x, y = self.raster.grid_point(p.lon, p.lat)
        return (x + p.nudge[0], y + p.nudge[1])

    def square(self, p: Place, what: str, *, on_land: bool = True, free: bool = True) -> Square:
        """The square of a place; on land (the nearest free land square if its own is sea)."""
        pt = self.point(p)
        sq = (math.floor(pt[0]), math.floor(pt[1]))
        if not self.m.in_grid(sq):
            raise DesignError(f"{self.spec.id}: {what} {p.name!r} at {sq} is outside the grid")
        if not on_land:
            return sq
        ok = self._usable(sq, free)
        if ok:
            return sq
        near = [
            (sq[0] + dx, sq[1] + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if self._usable((sq[0] + dx, sq[1] + dy), free)
        ]
        if not near:
            why = self.taken.get(sq, "sea or abroad")
            raise DesignError(f"{self.spec.id}: {what} {p.name!r} at {sq} lands on {why}")
        return min(near, key=lambda s: (_centre_distance(pt, s), s))

    def _usable(self, sq: Square, free: bool) -> bool:
        return sq in self.m.land and not (free and sq in self.taken)

    def take(self, sq: Square, what: str) -> None:
        if sq in self.taken:
            raise DesignError(f"{self.spec.id}: {what} at {sq} collides with {self.taken[sq]}")
        self.taken[sq] = what

    def blocked(self, sq: Square) -> bool:
        return sq in self.m.blocked_squares() or sq in self.m.gated_squares()

    def outside(self, sq: Square) -> bool:
        return sq not in self.m.land

    # -- elements --

    def apply_land_edits(self) -> None:
        for p in self.spec.extra_land:
            self.m.land.add(self.square(p, "extra land", on_land=False))
        for p in self.spec.drop_land:
            self.m.land.discard(self.square(p, "dropped land", on_land=False))

    def cities(self) -> None:
        for c in self.spec.cities:
            anchor = self.square(c, "large city")
            squares = {(anchor[0] + dx, anchor[1] + dy) for dx, dy in c.shape}
            for sq in sorted(squares):
                if sq not in self.m.land:
                    raise DesignError(f"{self.spec.id}: large city {c.name!r} square {sq} is sea")
                self.take(sq, f"large city {c.name!r}")
            city = LargeCity(id=c.id, name=c.name, squares=squares, coats_of_arms=c.coats_of_arms)
            sides = dict(c.sides)
            overrides = {Edge(anchor[0] + dx, anchor[1] + dy, s): k for dx, dy, s, k in c.edges}
            for e in city.outer_edges():
                kind = overrides.get(e, sides.get(e.side, F))
                if kind is not F and not self.outside(e.outer_square):
                    city.edges[e] = kind
            self.m.large_cities[c.id] = city

    def starts_and_towns(self) -> None:
        for t in self.spec.starts:
            sq = self.square(t, "start square")
            self.take(sq, f"start square {t.name!r}")
            self.m.start_squares[sq] = StartSquare(t.name)
            if t.grape is not None:
                self.m.towns[sq] = Town(t.name, t.grape)
        for t in self.spec.towns:
            sq = self.square(t, "town")
            self.take(sq, f"town {t.name!r}")
            self.m.towns[sq] = Town(t.name, t.grape)

    def waves_and_islands(self) -> None:
        for p in self.spec.waves:
            sq = self.square(p, "wave", on_land=False)
            self.take(sq, f"wave {p.name!r}")
            self.m.land.add(sq)
            self.m.waves.add(sq)
        for spec in self.spec.islands:
            island = Island(id=spec.id, name=spec.name, colour=spec.colour)
            anchor = self.square(spec.anchor, "island", on_land=False)
            for s in spec.squares:
                sq = (anchor[0] + s.dx, anchor[1] + s.dy)
                self.take(sq, f"island square of {spec.name}")
                self.m.land.add(sq)
                island.squares[sq] = IslandSquare(role=s.role, coats_of_arms=s.coats_of_arms)
            self.m.islands[spec.id] = island

    def _coast_edges(self, pt: tuple[float, float], radius: float, ok: Any) -> list[Edge]:
        x0, y0 = math.floor(pt[0]), math.floor(pt[1])
        r = math.ceil(radius) + 1
        found = []
        for y in range(y0 - r, y0 + r + 1):
            for x in range(x0 - r, x0 + r + 1):
                sq = (x, y)
                if sq not in self.m.land or sq in self.m.blocked_squares():
                    continue
                for side in Side:
                    e = Edge(x, y, side)
                    if (
                        self.outside(e.outer_square)
                        and e not in self.edges_taken
                        and ok(e)
                        and math.dist(_edge_midpoint(e), pt) <= radius
                    ):
                        found.append(e)
        return found

    def borders(self) -> None:
        for b in self.spec.borders:
            pt = self.point(b)

            def abroad(e: Edge, b: BorderSpec = b) -> bool:
                return self.raster.neighbours.get(e.outer_square) == b.neighbour and (
                    b.side is None or e.side is b.side
                )

            edges = self._coast_edges(pt, 2.5, abroad)
            if not edges:
                raise DesignError(
                    f"{self.spec.id}: no free border edge into {b.neighbour} near {b.name!r}"
                )
            # Prefer squares without another printed constraint, then the nearest edge.
            e = min(
                edges,
                key=lambda e: (
                    e.square in self.constrained or e.square in self.m.gated_squares(),
                    math.dist(_edge_midpoint(e), pt),
                    e,
                ),
            )
            self.edges_taken.add(e)
            self.constrained.add(e.square)
            self.m.border_features[e] = BorderFeature(b.kind, b.coats_of_arms, b.neighbour)

    def _ferry_end(self, f: FerrySpec, p: Place, other: tuple[float, float]) -> Edge:
        """The free sea edge nearest ``p``, preferring edges that face the far end."""
        pt = self.point(p)
        edges = self._coast_edges(
            pt, 2.0, lambda e: self.raster.neighbours.get(e.outer_square, SEA) == SEA
        )
        if not edges:
            raise DesignError(f"{self.spec.id}: ferry {f.id!r}: no free coast at {p.name!r}")
        hx, hy = other[0] - pt[0], other[1] - pt[1]
        norm = math.hypot(hx, hy) or 1.0

        def score(e: Edge) -> tuple[float, Edge]:
            facing = (e.side.delta[0] * hx + e.side.delta[1] * hy) / norm
            return (math.dist(_edge_midpoint(e), pt) - facing, e)

        e = min(edges, key=score)
        self.edges_taken.add(e)
        self.constrained.add(e.square)
        return e

    def ferries(self) -> None:
        for f in self.spec.ferries:
            a = self._ferry_end(f, f.a, self.point(f.b))
            b = self._ferry_end(f, f.b, self.point(f.a))
            self.m.ferries[f.id] = Ferry(f.id, a, b, f.coats_of_arms)

    def isle_of_man(self) -> None:
        p = self.spec.isle_of_man
        if p is None:
            return
        sq = self.square(p, "Isle of Man", on_land=False)
        if sq in self.m.land:
            raise DesignError(f"{self.spec.id}: the Isle of Man square {sq} is a map square")
        self.m.isle_of_man = sq

    def chip_squares(self) -> None:
        for c in self.spec.chip_squares:
            sq = self.square(c, f"{c.colour.value} chip square")
            if self.blocked(sq):
                raise DesignError(f"{self.spec.id}: chip square {c.name!r} at {sq} is blocked")
            self.take(sq, f"chip square {c.name!r}")
            self.m.chip_squares[sq] = c.colour

    def drop_unreachable(self) -> list[Square]:
        """Remove land no tile chain can reach (islands without a ferry); return it."""
        m = self.m
        keep_anyway = m.waves | m.stack_squares()
        links: dict[Square, set[Square]] = {}
        for f in m.ferries.values():
            links.setdefault(f.a.square, set()).add(f.b.square)
            links.setdefault(f.b.square, set()).add(f.a.square)
        seen = set(m.start_squares)
        todo = list(seen)
        while todo:
            sq = todo.pop()
            for n in [*orthogonal_neighbours(sq), *links.get(sq, ())]:
                if n in m.land and n not in seen and n not in keep_anyway:
                    seen.add(n)
                    todo.append(n)
        dropped = sorted(m.land - seen - keep_anyway)
        for sq in dropped:
            if sq in self.taken:
                raise DesignError(f"{self.spec.id}: {self.taken[sq]} at {sq} is unreachable")
            m.land.discard(sq)
        return dropped

    def neighbour_names(self) -> None:
        """Record the country beyond every border edge in the editor settings, as the editor's
        "New map from country" does (``editor["neighbours"]``: x, y, side, name; sorted)."""
        names = {
            Edge(x, y, side): name
            for x, y in self.m.land
            for side in Side
            if (name := self.raster.neighbours.get(Edge(x, y, side).outer_square, SEA))
            and Edge(x, y, side).outer_square not in self.m.land
        }
        self.m.editor["neighbours"] = [
            {"x": e.x, "y": e.y, "side": e.side.value, "name": names[e]} for e in sorted(names)
        ]
        self.m.land_borders = set(names)  # clouds there; every other outside edge is sea

    def reframe(self) -> None:
        """Crop the grid to the map (and the Isle of Man) with a margin of one square all round.

        The import centres the outline in whole squares, which leaves an uneven strip of sea;
        one square of outside everywhere leaves room for the neighbours' names and border art.
        """
        m = self.m
        extent = set(m.land) | ({m.isle_of_man} if m.isle_of_man else set())
        dx = 1 - min(x for x, _ in extent)
        dy = 1 - min(y for _, y in extent)

        width = max(x for x, _ in extent) + dx + 2
        height = max(y for _, y in extent) + dy + 2
        self.m = reshape(m, width, height, dx, dy)

    def tracks(self) -> None:
        if not self.spec.tracks:
            return
        rows = sorted({y for _, y in self.m.land})
        top, n = rows[0], rows[-1] - rows[0] + 1
        if n < 12:
            raise DesignError(f"{self.spec.id}: {n} rows cannot hold 12 tracks")
        # Track k covers an equal share of the map's rows, top to bottom (1-4 orange at the
        # top); tracks 1 and 12 also take the margin rows, so every row of the grid has a track.
        for k in range(1, 13):
            lo, hi = top + (k - 1) * n // 12, top + k * n // 12
            if k == 1:
                lo = 0
            if k == 12:
                hi = self.m.height
            self.m.tracks[k] = Track(k, tuple(range(lo, hi)))

    def build(self) -> tuple[MapDef, list[Square]]:
        self.apply_land_edits()
        self.cities()
        self.waves_and_islands()
        self.starts_and_towns()
        self.isle_of_man()
        self.borders()
        self.ferries()
        dropped = self.drop_unreachable()
        self.chip_squares()
        self.neighbour_names()
        self.reframe()
        self.tracks()
        self.m.description = describe(self.spec, self.m)
        return self.m, dropped


def design(spec: CountrySpec, raster: Raster) -> MapDef:
    """Stage 2: the finished map of ``spec`` on its imported ``raster`` (pure, deterministic)."""
    return _Designer(spec, raster).build()[0]


_RULES_TEXT = {
    RuleSet.DEUTSCHLAND: "Map-Chips Deutschland (upgrading meeples): 2 of the 3 start squares, "
    "30 chips laid out at random",
    RuleSet.FRANCE: "Map-Chips France (wine): 2 of the 3 start squares, 30 chips laid out at "
    "random; every town shows a grape colour and every border road or city carries coats of "
    "arms for the wine export",
    RuleSet.BENELUX: "Map-Chips Benelux (island tiles): 2 of the 3 start squares, 20 of the 30 "
    "chips laid out at random, 3 wave squares, 3 Frisian islands of 2 stack squares, one per "
    "chip colour",
    RuleSet.GREAT_BRITAIN: "Map-Chips Great Britain (Isle of Man): all 3 start squares, the 30 "
    "chips on the fixed coloured squares (10 blue in Scotland, 10 orange in Ireland, 10 purple "
    "in England and Wales), the Isle of Man holding area in the Irish Sea",
    RuleSet.IBERICA: "Map-Chips Península Ibérica (treats): 3 of the 4 start squares, 30 chips "
    "laid out at random (none on the Balearic squares), 12 tracks from top to bottom (1-4 "
    "orange, 5-8 light blue, 9-12 purple)",
}


def _names(items: Iterable[str]) -> str:
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def describe(spec: CountrySpec, m: MapDef) -> str:
    """The map's description: what it is, where it comes from, what it carries, how to play."""
    s = spec.settings
    parts = [
        f"Our own rendition of the Carcassonne Maps {spec.name} board (the printed map was not "
        f"available), faithful to the real geography: the outline of {_names(s.countries)} from "
        f"Natural Earth (public domain), {s.km:g} km per square, every element placed at its "
        "real longitude and latitude (one square aside where two would share a square).",
        f"Start squares {_names(t.name for t in spec.starts)}; large cities "
        f"{_names(c.name for c in spec.cities)}; {len(spec.towns)} towns such as "
        f"{_names(t.name for t in spec.towns[:3])}.",
    ]
    if spec.borders:
        by: dict[str, list[str]] = {}
        for b in spec.borders:
            by.setdefault(b.neighbour, []).append(f"{b.kind.value} to {b.name}")
        parts.append(
            "Border roads and cities with coats of arms into "
            + "; ".join(f"{n} ({', '.join(v)})" for n, v in by.items())
            + "."
        )
    if spec.ferries:
        parts.append(
            "Ferry routes: " + ", ".join(f"{f.a.name}-{f.b.name}" for f in spec.ferries) + "."
        )
    parts.append(f"Made for {_RULES_TEXT[spec.rule_set]}; also plays with the plain Maps rules.")
    if spec.description:
        parts.append(spec.description)
    return " ".join(parts)


def _grid_point(projection: dict[str, Any], lon: float, lat: float) -> tuple[float, float]:
    # engine.country's projection (pure numpy/shapely; needs no geo data).
    from engine.country import grid_point

    return grid_point(projection, lon, lat)


def import_raster(spec: CountrySpec) -> Raster:
    """Stage 1 for one country: the editor's "New map from country" import (needs the geo extra)."""
    from engine.country import import_country

    s = spec.settings
    imp = import_country(
        list(s.countries), km=s.km, min_land=s.min_land_share, bbox=s.bbox, cities=0
    )
    return Raster(
        width=imp.raster.width,
        height=imp.raster.height,
        land=set(imp.raster.land),
        neighbours=dict(imp.outside),
        projection=imp.projection.to_dict(),
    )


def import_all(only: Sequence[str] | None = None) -> dict[str, Raster]:
    """Stage 1 for every country map (or ``only`` these ids)."""
    return {cid: import_raster(COUNTRIES[cid]) for cid in (only or COUNTRIES)}


# -- the command ---------------------------------------------------------------------------------


def build_all(rasters: dict[str, Raster], only: Sequence[str] | None = None) -> dict[str, str]:
    """Stage 2 for every country (or ``only`` these ids): id → the map file's text."""
    from engine.mapio import dumps_map

    ids = list(only) if only else list(COUNTRIES)
    out = {}
    for cid in ids:
        if cid not in COUNTRIES:
            raise DesignError(f"unknown country map {cid!r} (known: {', '.join(COUNTRIES)})")
        if cid not in rasters:
            raise DesignError(f"{cid}: no imported outline; run with --refresh")
        out[cid] = dumps_map(design(COUNTRIES[cid], rasters[cid]))
    return out


def readme_table(maps: dict[str, MapDef]) -> str:
    """The README's "Shipped maps" table: squares, pool ratio and the exact chip maximum."""
    from engine.chips import ChipReading, feasibility

    lines = [
        "| Map | Grid | Map squares | Placeable | Large-city squares | Towns | Start squares "
        "| Tile pool | Placeable / pool | Chips (exact maximum over start choices) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for cid, m in maps.items():
        s = m.setup
        placeable = len(m.placeable_squares())
        if s.chip_count:
            best = feasibility(m, ChipReading.OPEN_SIDES).values()
            alt = feasibility(m, ChipReading.ANY_CITY_SQUARE).values()
            chips = (
                f"{s.chip_count} (max {min(best)}–{max(best)}; "
                f"{min(alt)}–{max(alt)} with the any-city-square reading)"
            )
        else:
            chips = f"{len(m.chip_squares)} on fixed chip squares"
        lines.append(
            f"| [{m.name}](maps/{cid}.json) | {m.width}×{m.height} | {len(m.land)} | {placeable} "
            f"| {len(m.city_squares())} | {len(m.towns)} "
            f"| {len(m.start_squares)} ({s.start_squares_used} used) "
            f"| {s.tile_pool_min}–{s.tile_pool_max} "
            f"| {placeable / s.tile_pool_max:.2f}–{placeable / s.tile_pool_min:.2f} | {chips} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.countrymaps build|check|table`` (see the module docstring)."""
    from engine.mapio import loads_map
    from engine.resources import maps_dir

    parser = argparse.ArgumentParser(
        prog="python -m engine.countrymaps",
        description="Build the shipped country maps from the committed country outlines.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the country maps")
    c = sub.add_parser("check", help="exit 1 unless a rebuild reproduces the map files")
    for p in (b, c):
        p.add_argument("--out", type=Path, default=None, help="folder (default: the shipped maps/)")
        p.add_argument("--only", nargs="*", default=None, metavar="ID", help="only these maps")
        p.add_argument(
            "--refresh",
            action="store_true",
            help="re-import the outlines from Natural Earth first (needs the 'geo' extra); "
            "build rewrites engine/data/country_rasters.json, check compares it",
        )
    sub.add_parser("table", help="print the README's table of the shipped country maps")
    args = parser.parse_args(argv)
    try:
        if args.command == "table":
            texts = build_all(load_rasters())
            print(readme_table({k: loads_map(v, source=k) for k, v in texts.items()}), end="")
            return 0
        if args.refresh:
            rasters = import_all(args.only)
            text = dumps_rasters({**load_rasters(), **rasters} if args.only else rasters)
            if args.command == "build":
                rasters_path().write_text(text, encoding="utf-8")
                print(f"wrote {rasters_path()}")
            elif text != rasters_path().read_text(encoding="utf-8"):
                print(f"differs: {rasters_path()}")
                return 1
        else:
            rasters = load_rasters()
        out_dir = args.out or maps_dir()
        differ = 0
        for cid, text in build_all(rasters, args.only).items():
            path = out_dir / f"{cid}.json"
            if args.command == "build":
                out_dir.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
            elif not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"differs: {path}")
                differ += 1
            else:
                print(f"reproduced: {path}")
    except (ValueError, OSError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
