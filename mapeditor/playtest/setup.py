"""Who plays and with which options: :class:`PlaytestSetup`, plain data with no widgets.

The CLI, the playtest session and the tests build a game from it without a form;
:class:`~mapeditor.playtest.setup_dialog.SetupDialog` only edits one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.game import PLAYER_NAMES, Game, GameOptions
from engine.mapdef import MapDef
from engine.rules.registry import rules_for

BOT_KINDS: dict[str, str] = {
    "human": "Human",
    "random": "Random bot",
    "greedy": "Greedy bot",
    "mcts": "Monte-Carlo bot",
}
"""Seat kinds and their labels."""


DEFAULT_COLOURS = ("#d7301f", "#2b6cc4", "#2e9b43", "#f2c618", "#262626", "#9a9a9a")
"""Meeple colours of the default player names (Red, Blue, Green, Yellow, Black, Grey)."""

POOLS = ("base", "base+ic", "base+ic+tb")


@dataclass
class Seat:
    """One player: a name, a meeple colour and who plays (a human or a bot)."""

    name: str
    colour: str
    kind: str = "human"
    """``human``, ``random``, ``greedy`` or ``mcts``."""
    strength: int = 3
    """Monte-Carlo strength level 1..10 (:data:`engine.bots.mcts_bot.LEVELS`)."""

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"

    def label(self) -> str:
        kind = BOT_KINDS.get(self.kind, self.kind)
        if self.kind == "mcts":
            kind += f" (strength {self.strength})"
        return kind


def default_seats(count: int = 2) -> list[Seat]:
    """A human first, then greedy bots, in the default names and colours."""
    return [
        Seat(PLAYER_NAMES[i], DEFAULT_COLOURS[i], "human" if i == 0 else "greedy")
        for i in range(count)
    ]


@dataclass
class PlaytestSetup:
    """Everything needed to start a playtest game (the game options are the engine's)."""

    seats: list[Seat] = field(default_factory=default_seats)
    seed: int = 0
    options: GameOptions = field(default_factory=GameOptions)

    def check(self) -> list[str]:
        """Problems with this setup, as sentences (empty when it can start)."""
        problems = []
        if not 2 <= len(self.seats) <= 6:
            problems.append(f"players: {len(self.seats)} seats; a game has 2 to 6 players")
        names = [s.name.strip() for s in self.seats]
        if any(not n for n in names):
            problems.append("players: every player needs a name")
        dup = sorted({n for n in names if names.count(n) > 1 and n})
        if dup:
            problems.append(f"players: the name {dup[0]!r} is used twice")
        for s in self.seats:
            if s.kind not in BOT_KINDS:
                problems.append(f"players: {s.name}: unknown kind {s.kind!r}")
        return problems

    def make_game(self, m: MapDef | None) -> Game:
        """A new engine game for this setup on ``m``.

        :raises EngineError: when the setup does not fit the map (named by the engine).
        """
        problems = self.check()
        if problems:
            raise EngineError("; ".join(problems))
        return Game(m, players=[s.name for s in self.seats], seed=self.seed, options=self.options)


def rule_set_available(name: str, m: MapDef | None = None) -> bool:
    """Whether the engine can play the rule set ``name``: a module, or the data rule set of
    ``m`` that answers to that name (a data rule set with mistakes cannot be played)."""
    if name == "none":
        return True
    try:
        rules_for(name, m)
    except EngineError:
        return False
    return True


def rule_set_title(m: MapDef) -> str:
    """The map's rule set as a player knows it: ``France``, ``Italia (data)``."""
    spec = m.rule_set.spec
    return f"{spec.display_title} (data)" if spec is not None else m.rule_set.name


def default_setup(m: MapDef | None, *, seed: int | None = None, players: int = 2) -> PlaytestSetup:
    """The setup a new playtest of ``m`` starts from: the map's own rules when the engine has
    them (plain Maps rules otherwise), a fresh seed."""
    rule_set = "none"
    if m is not None and m.rule_set.name != "none" and rule_set_available(m.rule_set.name, m):
        rule_set = m.rule_set.name
    return PlaytestSetup(
        seats=default_seats(players),
        seed=random.randrange(1_000_000) if seed is None else seed,
        options=GameOptions(rule_set=rule_set),
    )
