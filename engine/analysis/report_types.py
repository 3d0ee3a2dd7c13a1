"""The balance report's shape, as TypedDicts (the report stays a plain JSON-able dict).

:func:`engine.analysis.balance.balance_report` returns a :class:`BalanceReport`; :mod:`engine.analysis.report`
renders one. The same shape is published as JSON Schema in ``schemas/report.schema.json``
(tests check that real reports validate against it). Keys holding a player count (``"2"``,
``"3"``...) are strings, as in the JSON file.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Describe(TypedDict, total=False):
    """Count, mean, standard deviation, min, quartiles and max (only ``n`` when empty)."""

    n: int
    mean: float
    sd: float
    min: float
    q1: float
    median: float
    q3: float
    max: float


class SeatDescribe(Describe, total=False):
    seat: int


class Rate(TypedDict):
    """``count`` of ``games``, the ``rate`` and its 95 % Wilson interval ``ci``."""

    count: int
    games: int
    rate: float
    ci: list[float]


class SeatRate(Rate):
    """A seat's wins, with the exact binomial test against the fair share (``p_value``)."""

    p_value: float
    seat: int


class ChoiceSeatRate(Rate):
    """A seat's wins with one start-square choice against the other choices."""

    players: int
    seat: int
    others_rate: float | None
    p_value: float


class RuleLeader(Rate):
    """How often the player who scored most from the rule set's own points won."""

    fair: float
    p_value: float


class MapInfo(TypedDict):
    id: str
    name: str
    rule_set: str
    width: int
    height: int
    placeable_squares: int


class RunInfo(TypedDict):
    """The run's settings (:class:`engine.analysis.simulate.SimConfig`) and what was played."""

    games: int
    players: list[int]
    bot: str
    rules: bool
    seed: int
    mcts_iterations: int
    seats: NotRequired[list[str]]
    tile_pool: NotRequired[str | None]
    tile_count: NotRequired[int | None]
    start_squares_used: NotRequired[int | None]
    rule_options: NotRequired[dict[str, Any]]
    map_edits: NotRequired[dict[str, Any]]
    paired: NotRequired[bool]
    rule_set_played: str
    rules_missing: str | None
    games_played: int


class PlayerScores(TypedDict):
    """Scores of the games with one player count."""

    games: int
    seats: list[SeatDescribe]
    all: Describe
    winning: Describe
    margin: Describe
    values: list[list[int]]
    """Per seat, the score of each game."""


class PlayerWins(TypedDict):
    games: int
    ties: int
    fair: float
    seats: list[SeatRate]


class StartChoice(TypedDict):
    squares: list[list[int]]
    names: list[str]
    games: int
    mean_score: float
    mean_winning_score: float
    mean_fill: float
    seats: list[ChoiceSeatRate]


class Region(TypedDict):
    size: int
    squares: list[list[int]]
    place: NotRequired[str]
    """Where the squares lie, in words ("near Kassel"; :mod:`engine.geo.naming`)."""


class SetAside(TypedDict):
    per_game: Describe
    games_with_any: int
    by_tile: dict[str, int]


class FillFigures(TypedDict):
    placeable_squares: int
    share: Describe
    tiles_placed: Describe
    built_rate: list[list[float | None]]
    """``[y][x]``: share of games that built the square (``None`` off the placeable squares)."""
    mean_placement: list[list[float | None]]
    """``[y][x]``: mean placement number of the square over the games that built it."""
    never_reached: list[list[int]]
    rarely_reached: list[list[int]]
    never_filled_regions: list[Region]
    rarely_filled_regions: list[Region]
    set_aside: SetAside


class LargeCityFigure(TypedDict):
    id: str
    name: str
    squares: int
    completed: Rate
    connected: Rate


class BorderFigure(TypedDict):
    x: int
    y: int
    side: str
    kind: str
    neighbour: str | None
    place: NotRequired[str]
    """The feature named by place ("the road from Kassel into the Netherlands")."""
    coats_of_arms: int
    connected: Rate


class FerryFigure(TypedDict):
    id: str
    place: NotRequired[str]
    """The ferry by its ends ("the ferry from Genova to Porto Torres")."""
    used: Rate


class FeatureFigures(TypedDict):
    large_cities: list[LargeCityFigure]
    borders: list[BorderFigure]
    borders_connected_per_game: Describe
    ferries: list[FerryFigure]
    points_per_game: dict[str, float]
    seat_points_per_game: dict[str, list[dict[str, float]]]


class ChipFigures(TypedDict):
    available: bool
    why: NotRequired[str]
    per_game: NotRequired[Describe]
    by_colour: NotRequired[dict[str, float]]
    by_seat: NotRequired[dict[str, list[float]]]


class EventFigure(TypedDict):
    count: float
    points: float


class RuleFigures(TypedDict):
    """The rule set's actions and events per game, and its own ``figures`` (each rule set's
    figure function, :data:`engine.analysis.balance.RULE_FIGURES`, decides their names)."""

    rule_set: str
    played: bool
    missing: str | None
    actions_per_game: NotRequired[dict[str, float]]
    events_per_game: NotRequired[dict[str, EventFigure]]
    figures: NotRequired[dict[str, Any]]
    by_rule: NotRequired[list[dict[str, Any]]]
    """Per rule of the rule language (:func:`engine.analysis.balance.rule_usage_figures`)."""
    resources: NotRequired[list[dict[str, Any]]]
    """Per resource of the rule language (:func:`engine.analysis.balance.resource_figures`)."""


LengthFigures = dict[str, Any]
"""``"all"`` and each player count (``"2"``...): :class:`Describe` of turns per game;
``"values"``: the turns of every game."""


class QualityFigures(TypedDict):
    """Game quality (:mod:`engine.analysis.quality`; definitions in docs/balance-reports.md)."""

    lead_changes: Describe
    drama: Describe
    decisive_share: Describe
    final_flip: Rate


class ReportWarning(TypedDict):
    code: str
    message: str
    players: NotRequired[int]
    seat: NotRequired[int]
    squares: NotRequired[list[list[int]] | list[int]]
    city: NotRequired[str]


class BotFigure(TypedDict):
    """Mixed tables: one bot's wins over the seats it played."""

    bot: str
    seats_played: int
    wins: int
    rate_per_seat: float
    games: int
    ci: NotRequired[list[float]]
    """95 % interval of ``rate_per_seat`` (over deals when the table was paired)."""
    deals: NotRequired[int]


class BalanceReport(TypedDict):
    format: str
    format_version: int
    map: MapInfo
    run: RunInfo
    scores: dict[str, PlayerScores]
    wins: dict[str, PlayerWins]
    start_choices: list[StartChoice]
    fill: FillFigures
    features: FeatureFigures
    chips: ChipFigures
    rules: RuleFigures
    length: LengthFigures
    quality: NotRequired[QualityFigures]
    """Absent from reports of facts gathered before the figures existed."""
    styles: NotRequired[dict[str, Any]]
    """``simulate --styles``: :func:`engine.analysis.plans.style_figures`."""
    skill_trace: NotRequired[dict[str, Any]]
    """``simulate --skill-trace``: :func:`engine.analysis.plans.skill_trace`."""
    rule_leader: NotRequired[RuleLeader]
    """Only when a rule set was played: :func:`engine.analysis.balance.rule_leader_figure`."""
    warnings: list[ReportWarning]
    bots: NotRequired[list[BotFigure]]
    """Only for mixed tables (``SimConfig.seats``)."""


__all__ = [
    "BalanceReport",
    "BotFigure",
    "ChipFigures",
    "Describe",
    "RuleLeader",
    "FeatureFigures",
    "FillFigures",
    "LengthFigures",
    "MapInfo",
    "PlayerScores",
    "PlayerWins",
    "QualityFigures",
    "Rate",
    "ReportWarning",
    "RuleFigures",
    "RunInfo",
    "SeatRate",
    "StartChoice",
]
