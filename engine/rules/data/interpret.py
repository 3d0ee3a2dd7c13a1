"""The rule language played: triggers fill a context, conditions read it, effects act on it.

:class:`Interpreter` is called by :class:`~engine.rules.data.rules.DataRules` from its hooks
(only when the spec has rules, marks or a supply beside the map). A trigger makes one
:class:`Ev` per player it concerns (the player to move, every player, or each player scoring a
feature) with the facts it knows; a rule whose conditions hold and whose limits allow it then
either runs at once (``compulsory``: its first way to pay and target, if any) or becomes an
:class:`Offer` in the phase that follows (``optional``), taken with a :class:`RuleAction`
(``{"type": "rule", "rule": id, "offer": k, "option": j}``: the k-th offer, its j-th way) or
declined by passing. Ways are enumerated in a fixed order from the state, so records replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engine.errors import EngineError, RecordError
from engine.features import KIND_NAMES
from engine.geometry import Edge, Side
from engine.moves import Action
from engine.rules.data.lang import MAX_OPTIONS, TRIGGERS, Rule, Term, thaw
from engine.rules.data.prints import export_sides

if TYPE_CHECKING:
    import random

    from engine.geometry import Square
    from engine.rules.context import RuleContext
    from engine.rules.data.rules import DataState
    from engine.rules.data.ruleset import RuleSetSpec
    from engine.scoring import ScoreEvent

_DELTAS = ((0, -1), (1, 0), (0, 1), (-1, 0))
_SIDE_KIND = {"C": "city", "R": "road", "F": "field"}


class Feat(NamedTuple):
    """A scored feature as rules see it."""

    kind: str
    tiles: int
    coats: int
    points: int
    final: bool


class Ev(NamedTuple):
    """What a trigger knows: the player it concerns and the facts it fills."""

    player: int
    square: Square | None = None
    tile: tuple[str, int] | None = None
    meeple: int | None = None
    feature: Feat | None = None
    mark: str | None = None


class Offer(NamedTuple):
    """A rule offered in ``phase`` to ``ev.player``: the player to move (an optional rule), or
    another player deciding inside the turn (a rule whose chooser is not ``current``)."""

    rule: int
    phase: str
    ev: Ev


@dataclass(frozen=True, slots=True)
class RuleAction(Action):
    """Take offer ``offer`` of rule ``rule`` (``-1``: a phase rule) in its ``option``-th way."""

    type: ClassVar[str] = "rule"
    rule: str
    offer: int
    option: int = 0
    label: str = field(default="", compare=False)
    """What players read (the rule's title and the way), set on the actions offered; not
    recorded."""

    def __str__(self) -> str:
        if self.label:
            return self.label
        way = f" (way {self.option + 1})" if self.option else ""
        return f"rule {self.rule}{way}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "rule": self.rule, "offer": self.offer, "option": self.option}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        try:
            rule, offer, option = data["rule"], data["offer"], data.get("option", 0)
        except (KeyError, TypeError) as exc:
            raise RecordError(f"bad rule action {dict(data)!r}: {exc}") from None
        if not isinstance(rule, str) or not all(
            isinstance(v, int) and not isinstance(v, bool) and -1 <= v <= 999
            for v in (offer, option)
        ):
            raise RecordError(f"bad rule action {dict(data)!r}")
        return cls(rule, offer, option)


class LangState:
    """The rule language's part of a game's rule state (copied with the game)."""

    __slots__ = (
        "res",
        "res_supply",
        "uses",
        "offers",
        "supply",
        "on_marks",
        "face_down",
        "reached",
        "last_round",
        "marks",
        "fired",
        "turns",
        "skips_owed",
    )

    def __init__(self, players: int) -> None:
        self.res: dict[str, tuple[int, ...]] = {}
        """Resource id -> what each player holds."""
        self.res_supply: dict[str, int | None] = {}
        """Resource id -> tokens left beside the map (``None``: unbounded)."""
        self.uses: dict[tuple[str, str], tuple[int, ...]] = {}
        """(rule id, limit per) -> per player ``(period, count)`` flattened: uses counted."""
        self.offers: tuple[Offer, ...] = ()
        self.supply: list[int] = []
        """Chip ids face down in the supply beside the map, the next taken last."""
        self.on_marks: dict[Square, tuple[int, ...]] = {}
        """Chips lying on marked squares."""
        self.face_down: frozenset[int] = frozenset()
        """Held chips their holder keeps face down."""
        self.reached: frozenset[Square] = frozenset()
        """Marks that opened when reached."""
        self.last_round = 0
        self.marks: Mapping[Square, str] = {}
        """Marked squares -> mark id (static)."""
        self.fired: dict[str, tuple[int, ...]] = {}
        """Rule id -> how often it ran for each player."""
        self.turns: dict[str, tuple[int, int, int]] = {}
        """Rule id -> the turns it moved: extra turns granted, extra turns played, turns
        missed (only rules that moved some). Whose extra turn is played is the game's to know
        (``RuleContext.extra_turn_by``): a 2019 mechanic may grant one in the same turn."""
        self.skips_owed: tuple[tuple[int, str], ...] = ()
        """(player, rule id) of the turns still to be missed, in order."""
        _ = players

    def copy(self) -> LangState:
        new = object.__new__(LangState)
        new.res = self.res.copy()
        new.res_supply = self.res_supply.copy()
        new.uses = self.uses.copy()
        new.offers = self.offers
        new.supply = self.supply[:]
        new.on_marks = self.on_marks.copy()
        new.face_down = self.face_down
        new.reached = self.reached
        new.last_round = self.last_round
        new.marks = self.marks
        new.fired = self.fired.copy()
        new.turns = self.turns.copy()
        new.skips_owed = self.skips_owed
        return new

    def chips(self) -> list[int]:
        """Chips in the supply beside the map or on marks."""
        return [*self.supply, *(c for cs in self.on_marks.values() for c in cs)]

    def summary(self) -> dict[str, Any]:
        out = self._summary()
        if self.turns or self.skips_owed:
            # only then: the summaries of games with no such rule stay as they were
            out["turns"] = {k: list(v) for k, v in sorted(self.turns.items())}
            out["skips_owed"] = [list(x) for x in self.skips_owed]
        return out

    def moved(self, rule: str, what: int) -> None:
        """Count a turn ``rule`` moved (0: extra turn granted, 1: played, 2: missed)."""
        got = list(self.turns.get(rule, (0, 0, 0)))
        got[what] += 1
        self.turns[rule] = (got[0], got[1], got[2])

    def _summary(self) -> dict[str, Any]:
        return {
            "resources": {k: list(v) for k, v in sorted(self.res.items())},
            "resource_supply": dict(sorted(self.res_supply.items())),
            "uses": sorted([k[0], k[1], list(v)] for k, v in self.uses.items()),
            "offers": [[o.rule, o.phase, o.ev.player] for o in self.offers],
            "supply": list(self.supply),
            "on_marks": [[sq[0], sq[1], list(cs)] for sq, cs in sorted(self.on_marks.items())],
            "face_down": sorted(self.face_down),
            "reached": sorted([sq[0], sq[1]] for sq in self.reached),
        }


def _set(counters: dict[Any, tuple[int, ...]], key: Any, i: int, value: int) -> None:
    old = counters[key]
    counters[key] = (*old[:i], value, *old[i + 1 :])


def mark_chip_counts(
    spec: RuleSetSpec, marks: Mapping[Square, str], chips: int
) -> dict[Square, int]:
    """The chips each marked square gets at set-up, out of ``chips``: square by square in
    order, each its mark's count while that many are left (the rest lie beside the map).

    >>> from engine.rules.data import RuleSetSpec, preset_dict
    >>> nordics = RuleSetSpec.from_dict(preset_dict("nordics"))
    >>> mark_chip_counts(nordics, {(4, 1): "chip_city", (2, 3): "highlight", (0, 5): "chip_city"}, 3)
    {(0, 5): 2}
    """
    per_mark = {m.id: m.chips for m in spec.marks}
    out: dict[Square, int] = {}
    for sq in sorted(marks):
        n = per_mark.get(marks[sq], 0)
        if n and chips >= n:
            out[sq] = n
            chips -= n
    return out


Way = tuple[tuple[int, ...], int | str | None]
"""A way to take a rule: the chip ids paid, and its target: the meeple to upgrade, the location
to place a meeple on, or ``None``."""


class Interpreter:
    """Plays the rules, resources and marks of one spec (one per rules object)."""

    def __init__(self, spec: RuleSetSpec, name: str) -> None:
        self.spec = spec
        self.name = name
        self.rules = spec.rules
        self.index = {r.id: i for i, r in enumerate(self.rules)}
        self.by_trigger: dict[str, tuple[int, ...]] = {
            t: tuple(i for i, r in enumerate(self.rules) if r.when == t) for t in TRIGGERS
        }
        self.opening = frozenset(m.id for m in spec.marks if m.opens == "when_reached")
        self.mark_face = {m.id: m.chips_face for m in spec.marks}
        self.granted = f"{name}.rules."
        """How this spec's rules sign the extra turns they grant (then the rule id)."""
        self.others = any(r.chooser != "current" for r in self.rules)
        """Some rule is taken by players other than the one its trigger concerns."""

    def phases(self) -> frozenset[str]:
        """The phases in which this spec may offer something."""
        out = set()
        for r in self.rules:
            if r.choice == "optional" or r.chooser != "current":
                phase = TRIGGERS[r.when].phase
                if phase is not None:
                    out.add(phase)
        return frozenset(out)

    # -- setup -----------------------------------------------------------------------------------

    def new_state(self, ctx: RuleContext, players: int) -> LangState:
        st = LangState(players)
        for res in self.spec.resources:
            st.res[res.id] = (res.start,) * players
            st.res_supply[res.id] = res.supply
        for r in self.rules:
            st.fired[r.id] = (0,) * players
            for per, _n in r.limits:
                st.uses[(r.id, per)] = (-1, 0) * players
        m = ctx.map
        st.marks = {sq: mk.mark for sq, mk in m.marks.items()} if m is not None else {}
        return st

    def lay_out(self, ctx: RuleContext, st: LangState, ids: list[int]) -> None:
        """Chips (shuffled) on the marks that carry some, the rest in the supply beside the map."""
        for sq, n in mark_chip_counts(self.spec, st.marks, len(ids)).items():
            st.on_marks[sq] = tuple(ids[-n:])
            del ids[-n:]
        st.supply = ids

    def redeal(self, ctx: RuleContext, state: DataState, rng: random.Random) -> None:
        """A bot's copy: the chips it cannot see (the supply, face-down chips on marks and in
        other players' hands) re-dealt among their places."""
        st: LangState = state.lang  # type: ignore[assignment]
        me = ctx.decider  # the player whose bot copies the game
        down = st.face_down
        slots: list[tuple[Any, ...]] = [("supply", i) for i in range(len(st.supply))]
        for sq, cs in sorted(st.on_marks.items()):
            if self.mark_face.get(st.marks.get(sq, ""), "down") == "down":
                slots.extend(("mark", sq, j) for j in range(len(cs)))
        for p, hand in enumerate(state.held):
            if p != me:
                slots.extend(("held", p, j) for j, c in enumerate(hand) if c in down)
        if len(slots) < 2:
            return
        ids = [self._slot(st, state, s) for s in slots]
        rng.shuffle(ids)
        marks = {sq: list(cs) for sq, cs in st.on_marks.items()}
        for s, cid in zip(slots, ids, strict=True):
            if s[0] == "supply":
                st.supply[s[1]] = cid
            elif s[0] == "mark":
                marks[s[1]][s[2]] = cid
            else:
                state.held[s[1]][s[2]] = cid
        st.on_marks = {sq: tuple(cs) for sq, cs in marks.items()}
        mine = frozenset(c for c in state.held[me] if c in down)
        st.face_down = mine | {state.held[s[1]][s[2]] for s in slots if s[0] == "held"}

    @staticmethod
    def _slot(st: LangState, state: DataState, s: tuple[Any, ...]) -> int:
        if s[0] == "supply":
            return st.supply[int(s[1])]
        if s[0] == "mark":
            return st.on_marks[s[1]][int(s[2])]
        return state.held[int(s[1])][int(s[2])]

    # -- triggers --------------------------------------------------------------------------------

    def fire(self, ctx: RuleContext, state: DataState, trigger: str, evs: list[Ev]) -> None:
        rules = self.by_trigger[trigger]
        if not rules:
            return
        st: LangState = state.lang  # type: ignore[assignment]
        phase = TRIGGERS[trigger].phase
        for i in rules:
            rule = self.rules[i]
            for ev in evs:
                if rule.chooser != "current":
                    self._others_choose(ctx, state, i, ev, phase)
                    continue
                if not self.allowed(ctx, state, rule, ev):
                    continue
                if rule.choice == "optional":
                    if phase is not None and ev.player == ctx.to_move and not ev_final(ev):
                        st.offers = (*st.offers, Offer(i, phase, ev))
                    continue
                ways = self.ways(ctx, state, rule, ev)
                if ways:
                    self.run(ctx, state, rule, ev, ways[0])

    def _others_choose(
        self, ctx: RuleContext, state: DataState, i: int, ev: Ev, phase: str | None
    ) -> None:
        """Rule ``i`` for each of its choosers other than ``ev.player``: an offer they decide in
        ``phase``, or, compulsory with one way to take it (or at the final scoring), run."""
        st: LangState = state.lang  # type: ignore[assignment]
        rule = self.rules[i]
        for q in self.choosers(ctx, rule, ev):
            theirs = ev._replace(player=q)
            if not self.allowed(ctx, state, rule, theirs):
                continue
            if rule.choice == "optional":
                if phase is not None and not ev_final(ev):
                    st.offers = (*st.offers, Offer(i, phase, theirs))
                continue
            ways = self.ways(ctx, state, rule, theirs)
            if len(ways) == 1 or (ways and (phase is None or ev_final(ev))):
                self.run(ctx, state, rule, theirs, ways[0])
            elif ways:
                st.offers = (*st.offers, Offer(i, phase, theirs))  # type: ignore[arg-type]

    def choosers(self, ctx: RuleContext, rule: Rule, ev: Ev) -> list[int]:
        """The players other than ``ev.player`` who take ``rule`` (its ``chooser``), in turn
        order from ``ev.player``'s left."""
        n = len(ctx.players)
        p = ev.player
        chooser = rule.chooser
        if n < 2:
            return []
        if chooser == "left":
            return [(p + 1) % n]
        if chooser == "right":
            return [(p - 1) % n]
        order = [(p + k) % n for k in range(1, n)]
        if chooser == "each_other":
            return order
        owners = self._owners(ctx, ev)
        return [q for q in order if q in owners]

    @staticmethod
    def _owners(ctx: RuleContext, ev: Ev) -> set[int]:
        """The players with a meeple on a feature of the tile on ``ev.square``."""
        board = ctx.board
        sq = ev.square
        o = board.tiles.get(sq) if sq is not None else None
        if sq is None or o is None:
            return set()
        meeples = ctx.meeples
        out = {m[0] for m in meeples.values() if m[1] == sq}
        f = board.features
        nodes = board.nodes[sq]
        for _loc, seg in o.locations:
            node = nodes[seg]
            if node >= 0:
                out.update(meeples[mid][0] for mid in f.meeples.get(f.find(node), ()))
        return out

    def start_of_turn(self, ctx: RuleContext, state: DataState) -> None:
        st: LangState = state.lang  # type: ignore[assignment]
        by = ctx.extra_turn_by
        if by is not None and by.startswith(self.granted):
            st.moved(by[len(self.granted) :], 1)
        if st.skips_owed:
            self._count_skipped(ctx, st)
        if ctx.round != st.last_round:
            st.last_round = ctx.round
            self.fire(ctx, state, "end_of_round", [Ev(p) for p in range(len(ctx.players))])

    @staticmethod
    def _count_skipped(ctx: RuleContext, st: LangState) -> None:
        """The turns missed since the last turn began, each counted for the rule owed it."""
        left: list[tuple[int, str]] = []
        for p in range(len(ctx.players)):
            owed = [x for x in st.skips_owed if x[0] == p]
            missed = len(owed) - ctx.turns_to_skip(p)
            for _p, rule in owed[:missed]:
                st.moved(rule, 2)
            left.extend(owed[missed:])
        st.skips_owed = tuple(left)

    def tile_placed(
        self, ctx: RuleContext, state: DataState, square: Square, tile: str, rot: int
    ) -> None:
        st: LangState = state.lang  # type: ignore[assignment]
        p = ctx.to_move
        if self.opening:
            for dx, dy in _DELTAS:
                q = (square[0] + dx, square[1] + dy)
                mk = st.marks.get(q)
                if mk in self.opening and q not in st.reached:
                    st.reached = st.reached | {q}
                    self.fire(ctx, state, "mark_reached", [Ev(p, q, mark=mk)])
        self.fire(ctx, state, "tile_placed", [Ev(p, square, (tile, rot))])

    def meeple_placed(self, ctx: RuleContext, state: DataState, mid: int) -> None:
        meeple = ctx.meeples[mid]
        sq, loc = meeple[1], meeple[2]
        o = ctx.board.tiles[sq]
        kind = KIND_NAMES[o.kinds[o.aliases[loc]]]
        feat = Feat(kind, 0, 0, 0, False)
        self.fire(
            ctx, state, "meeple_placed", [Ev(meeple[0], sq, (o.tile_id, o.rotation), mid, feat)]
        )

    def feature_scored(self, ctx: RuleContext, state: DataState, event: ScoreEvent) -> None:
        if event.kind not in KIND_NAMES:
            return  # a rule's own event
        for mid in event.meeples:
            state.strength.pop(mid, None)
        feat = Feat(event.kind, event.tiles, event.coats_of_arms, event.points, event.final)
        self.fire(ctx, state, "feature_scored", [Ev(p, feature=feat) for p in event.players])

    def end_of_turn(self, ctx: RuleContext, state: DataState) -> None:
        self.fire(ctx, state, "end_of_turn", [Ev(ctx.to_move)])
        state.lang.offers = ()  # type: ignore[union-attr]

    def end_of_game(self, ctx: RuleContext, state: DataState) -> None:
        state.lang.offers = ()  # type: ignore[union-attr]
        self.fire(ctx, state, "end_of_game", [Ev(p) for p in range(len(ctx.players))])

    # -- offers ----------------------------------------------------------------------------------

    def decider(self, ctx: RuleContext, state: DataState, phase: str) -> int | None:
        """The player other than the player to move whose choice is pending in ``phase`` (the
        first offer made to another player that can still be taken), ``None``: none is."""
        if not self.others:
            return None
        st: LangState = state.lang  # type: ignore[assignment]
        me = ctx.to_move
        for o in st.offers:
            q = o.ev.player
            if o.phase == phase and q != me:
                rule = self.rules[o.rule]
                if self.limits_allow(ctx, st, rule, q) and self.ways(ctx, state, rule, o.ev):
                    return q
        return None

    def decline(self, ctx: RuleContext, state: DataState, phase: str) -> bool:
        """The deciding player other than the player to move passes: their offers of ``phase``
        are declined. ``False``: no such player decides now."""
        who = self.decider(ctx, state, phase)
        if who is None:
            return False
        st: LangState = state.lang  # type: ignore[assignment]
        st.offers = tuple(o for o in st.offers if o.phase != phase or o.ev.player != who)
        return True

    def must_choose(self, ctx: RuleContext, state: DataState, phase: str) -> bool:
        """Whether the deciding player may not pass: a compulsory rule waits for their choice
        of a way."""
        return self.others and any(
            rule.choice == "compulsory" and self.ways(ctx, state, rule, ev)
            for _k, rule, ev in self._open(ctx, state, phase)
        )

    def _open(self, ctx: RuleContext, state: DataState, phase: str) -> list[tuple[int, Rule, Ev]]:
        """(offer index, rule, context) of what may be offered now (before ways): the offers of
        the deciding player (:meth:`decider`, else the player to move)."""
        st: LangState = state.lang  # type: ignore[assignment]
        out = []
        other = self.decider(ctx, state, phase)
        who = ctx.to_move if other is None else other
        for k, o in enumerate(st.offers):
            if o.phase == phase and o.ev.player == who:
                rule = self.rules[o.rule]
                if self.limits_allow(ctx, st, rule, who):
                    out.append((k, rule, o.ev))
        if other is not None:
            return out  # the player to move's phase rules wait for the other players
        trig = "action_phase" if phase == "action" else "after_phase"
        for i in self.by_trigger[trig]:
            rule = self.rules[i]
            ev = Ev(ctx.to_move)
            if self.allowed(ctx, state, rule, ev):
                out.append((-1, rule, ev))
        return out

    def offers(self, ctx: RuleContext, state: DataState, phase: str) -> list[Action]:
        out: list[Action] = []
        for k, rule, ev in self._open(ctx, state, phase):
            title = rule.title or rule.id.replace("_", " ")
            for j, way in enumerate(self.ways(ctx, state, rule, ev)):
                out.append(RuleAction(rule.id, k, j, self._label(ctx, state, title, way)))
        return out

    @staticmethod
    def _label(ctx: RuleContext, state: DataState, title: str, way: Way) -> str:
        paid, target = way
        parts = [title]
        if paid:
            chips = " + ".join(str(state.chips[c]) for c in paid)
            parts.append(f"paying {chips}")
        if isinstance(target, str):
            parts.append(f"on {target}")
        elif isinstance(target, int):
            sq = ctx.meeples[target][1]
            parts.append(f"the meeple on ({sq[0]}, {sq[1]})")
        return ", ".join(parts)

    def has_offers(self, ctx: RuleContext, state: DataState, phase: str) -> bool:
        return any(
            self.ways(ctx, state, rule, ev) for _k, rule, ev in self._open(ctx, state, phase)
        )

    def apply(self, ctx: RuleContext, state: DataState, action: RuleAction) -> None:
        """Take an offered rule action (the game checked it is offered)."""
        st: LangState = state.lang  # type: ignore[assignment]
        i = self.index[action.rule]
        rule = self.rules[i]
        if action.offer >= 0:
            offer = st.offers[action.offer]
            ev = offer.ev
            st.offers = st.offers[: action.offer] + st.offers[action.offer + 1 :]
        else:
            ev = Ev(ctx.to_move)
        ways = self.ways(ctx, state, rule, ev)
        self.run(ctx, state, rule, ev, ways[action.option])

    # -- rules -----------------------------------------------------------------------------------

    def allowed(self, ctx: RuleContext, state: DataState, rule: Rule, ev: Ev) -> bool:
        st: LangState = state.lang  # type: ignore[assignment]
        return self.limits_allow(ctx, st, rule, ev.player) and all(
            self.holds(ctx, state, c, ev) for c in rule.conditions
        )

    @staticmethod
    def _period(ctx: RuleContext, per: str) -> int:
        return ctx.turn if per == "turn" else ctx.round if per == "round" else 0

    def limits_allow(self, ctx: RuleContext, st: LangState, rule: Rule, p: int) -> bool:
        for per, times in rule.limits:
            used = st.uses[(rule.id, per)]
            if per == "game":
                count = sum(used[1::2])
            else:
                period, count = used[2 * p], used[2 * p + 1]
                if period != self._period(ctx, per):
                    count = 0
            if count >= times:
                return False
        return True

    def _count_use(self, ctx: RuleContext, st: LangState, rule: Rule, p: int) -> None:
        for per, _times in rule.limits:
            key = (rule.id, per)
            used = st.uses[key]
            period = self._period(ctx, per)
            count = used[2 * p + 1] if used[2 * p] == period or per == "game" else 0
            st.uses[key] = (*used[: 2 * p], period, count + 1, *used[2 * p + 2 :])
        _set(st.fired, rule.id, p, st.fired[rule.id][p] + 1)

    def ways(self, ctx: RuleContext, state: DataState, rule: Rule, ev: Ev) -> list[Way]:
        """Every way to take ``rule`` now: chip payments x meeple targets (at most
        :data:`MAX_OPTIONS`, in a fixed order); ``[]``: it cannot be paid or has no target."""
        st: LangState = state.lang  # type: ignore[assignment]
        p = ev.player
        chip_costs = []
        for c in rule.costs:
            if c.kind == "resource":
                if st.res[c.get("resource")][p] < c.get("amount"):
                    return []
            elif c.kind == "chips":
                chip_costs.append(c)
        pays: list[tuple[int, ...]] = [()]
        if chip_costs:
            pays = self._chip_pays(state, p, chip_costs)
            if not pays:
                return []
        targets: list[int | str | None] = [None]
        for e in rule.effects:
            if e.kind == "upgrade_meeple":
                targets = list(self._targets(ctx, state, e, ev))
            elif e.kind == "place_meeple":
                targets = list(self._free(ctx, e, ev))
            else:
                continue
            if not targets:
                return []
            break
        out: list[Way] = []
        for way in product(pays, targets):
            out.append(way)
            if len(out) >= MAX_OPTIONS:
                break
        return out

    @staticmethod
    def _chip_pays(state: DataState, p: int, costs: list[Term]) -> list[tuple[int, ...]]:
        """Distinct payments (by colour and value) of every chip cost, from ``p``'s hand."""
        chips = state.chips
        hand = state.held[p]
        ways: dict[tuple[tuple[str, int], ...], tuple[int, ...]] = {}
        need = [(c.get("count"), c.get("colour", "any")) for c in costs]
        total = sum(n for n, _c in need)
        if total > len(hand):
            return []
        for group in combinations(hand, total):
            rest = list(group)
            ok = True
            for n, colour in need:
                pick = [c for c in rest if colour == "any" or chips[c].colour.value == colour][:n]
                if len(pick) < n:
                    ok = False
                    break
                for c in pick:
                    rest.remove(c)
            if ok:
                key = tuple(sorted((chips[c].colour.value, chips[c].value) for c in group))
                ways.setdefault(key, group)
            if len(ways) >= MAX_OPTIONS:
                break
        return [ways[k] for k in sorted(ways)]

    @staticmethod
    def _targets(ctx: RuleContext, state: DataState, effect: Term, ev: Ev) -> list[int]:
        kind = effect.get("feature")
        board = ctx.board
        out = []
        candidates = [ev.meeple] if ev.meeple is not None else sorted(ctx.meeples)
        for mid in candidates:
            m = ctx.meeples.get(mid)
            if m is None or m[0] != ev.player or mid in state.strength or m[4] != 1:
                continue
            o = board.tiles[m[1]]
            if kind == "any" or KIND_NAMES[o.kinds[o.aliases[m[2]]]] == kind:
                out.append(mid)
        return out

    @staticmethod
    def _free(ctx: RuleContext, effect: Term, ev: Ev) -> list[str]:
        """Free locations of a kind on the placed tile, while the player has a meeple."""
        sq = ev.square
        if sq is None or ctx.supply[ev.player] <= 0 or sq not in ctx.board.tiles:
            return []
        o = ctx.board.tiles[sq]
        kinds = {loc: KIND_NAMES[o.kinds[seg]] for loc, seg in o.locations}
        kind = effect.get("feature")
        return [loc for loc in ctx.free_locations(sq) if kinds[loc] == kind]

    # -- conditions ------------------------------------------------------------------------------

    def holds(self, ctx: RuleContext, state: DataState, c: Term, ev: Ev) -> bool:
        k = c.kind
        if k == "all":
            return all(self.holds(ctx, state, x, ev) for x in c.get("of"))
        if k == "any":
            return any(self.holds(ctx, state, x, ev) for x in c.get("of"))
        if k == "not":
            return not self.holds(ctx, state, c.get("of"), ev)
        if k in ("on", "next_to"):
            sq = ev.square
            assert sq is not None
            squares = [sq] if k == "on" else [(sq[0] + dx, sq[1] + dy) for dx, dy in _DELTAS]
            return any(self._is(ctx, state, q, c.get("print"), c.get("mark")) for q in squares)
        if k == "tile_shows":
            o = ctx.board.tiles.get(ev.square) if ev.square is not None else None
            return o is not None and any(KIND_NAMES[x] == c.get("feature") for x in o.kinds)
        if k == "feature_is":
            return ev.feature is not None and ev.feature.kind == c.get("feature")
        if k == "feature_size":
            return ev.feature is not None and ev.feature.tiles >= c.get("at_least")
        if k == "holds":
            return self._held(state, ev.player, c.get("resource")) >= int(c.get("at_least"))
        if k == "is_current":
            return ev.player == ctx.to_move
        if k == "round":
            return bool(ctx.round >= c.get("at_least"))
        if k == "rank":
            scores = ctx.scores
            want = max(scores) if c.get("is") == "first" else min(scores)
            return scores[ev.player] == want
        raise EngineError(f"unknown condition {k!r}")  # the checker lets none through

    def _is(
        self, ctx: RuleContext, state: DataState, q: Square, what: str, mark: str | None
    ) -> bool:
        m = ctx.map
        assert m is not None
        st: LangState = state.lang  # type: ignore[assignment]
        if what == "mark":
            got = st.marks.get(q)
            return got is not None and (mark is None or got == mark)
        if what == "tile":
            return q in ctx.board.tiles
        if what == "chip":
            return q in state.down or q in st.on_marks
        if what == "town":
            return q in m.towns
        if what == "start":
            return q in m.start_squares
        if what == "printed_city":
            return m.city_at(q) is not None
        if q not in m.land:
            return False
        edges = [Edge(q[0], q[1], s) for s in Side]
        if what == "sea":
            return any(m.faces_sea(e) for e in edges)
        if what == "land_border":
            return any(e in m.land_borders for e in edges)
        if what == "ferry":
            return any(e in (f.a, f.b) for f in m.ferries.values() for e in edges)
        if what == "border_coa":
            return bool(export_sides(ctx, q))
        raise EngineError(f"unknown print {what!r}")

    def _held(self, state: DataState, p: int, what: str) -> int:
        if what == "chips":
            return len(state.held[p])
        st: LangState = state.lang  # type: ignore[assignment]
        return st.res[what][p]

    # -- quantities and effects ------------------------------------------------------------------

    def amount(self, ctx: RuleContext, state: DataState, q: Any, ev: Ev, taken: int) -> int:
        if isinstance(q, int):
            return q
        d = thaw(q)
        what = d["count"]
        f = ev.feature
        if what == "feature_tiles":
            n = f.tiles if f else 0
        elif what == "feature_coats":
            n = f.coats if f else 0
        elif what == "feature_points":
            n = f.points if f else 0
        elif what == "held":
            n = self._held(state, ev.player, d["resource"])
        elif what == "sides_facing":
            n = self._sides_facing(ctx, state, ev, d["mark"], d["values"])
        else:
            n = taken
        n *= int(d.get("times", 1))
        return min(n, int(d["max"])) if "max" in d else n

    def _sides_facing(
        self, ctx: RuleContext, state: DataState, ev: Ev, mark: str, values: dict[str, int]
    ) -> int:
        st: LangState = state.lang  # type: ignore[assignment]
        sq = ev.square
        o = ctx.board.tiles.get(sq) if sq is not None else None
        if sq is None or o is None:
            return 0
        total = 0
        for s, (dx, dy) in enumerate(_DELTAS):
            if st.marks.get((sq[0] + dx, sq[1] + dy)) == mark:
                total += values.get(_SIDE_KIND[o.edges[s]], 0)
        return total

    def run(self, ctx: RuleContext, state: DataState, rule: Rule, ev: Ev, way: Way) -> None:
        """Pay ``rule``'s costs and carry out its effects for ``ev.player``."""
        st: LangState = state.lang  # type: ignore[assignment]
        p = ev.player
        what = rule.title or rule.id.replace("_", " ")
        self._count_use(ctx, st, rule, p)
        paid, target = way
        for c in rule.costs:
            if c.kind == "points":
                ctx.award(p, -c.get("amount"), rule.id, f"paid for {what}")
            elif c.kind == "resource":
                self._add(st, c.get("resource"), p, -c.get("amount"))
        for cid in paid:
            state.held[p].remove(cid)
            state.out.append(cid)
        st.face_down = st.face_down - set(paid)
        taken = 0
        for e in rule.effects:
            taken += self.effect(ctx, state, rule, e, ev, target, taken, what)

    def _add(self, st: LangState, rid: str, p: int, n: int) -> int:
        """Add ``n`` (may be negative) of resource ``rid`` to ``p``, within the supply and 0;
        returns what moved."""
        have = st.res[rid][p]
        left = st.res_supply[rid]
        if n > 0 and left is not None:
            n = min(n, left)
        n = max(n, -have)
        _set(st.res, rid, p, have + n)
        if left is not None:
            st.res_supply[rid] = left - n
        return n

    def effect(
        self,
        ctx: RuleContext,
        state: DataState,
        rule: Rule,
        e: Term,
        ev: Ev,
        target: int | str | None,
        taken: int,
        what: str,
    ) -> int:
        """Carry out one effect; returns the value of the chips it took."""
        st: LangState = state.lang  # type: ignore[assignment]
        p = ev.player
        k = e.kind
        if k == "points":
            n = self.amount(ctx, state, e.get("amount"), ev, taken)
            if n:
                ctx.award(p, n, rule.id, what)
        elif k in ("gain", "lose"):
            n = max(0, self.amount(ctx, state, e.get("amount"), ev, taken))
            self._add(st, e.get("resource"), p, n if k == "gain" else -n)
        elif k == "give":
            self._give(ctx, state, rule, e, ev, taken, what)
        elif k == "take_chips":
            return self._take_chips(ctx, state, rule, e, ev, taken, what)
        elif k == "reveal_chips":
            st.face_down = st.face_down - set(state.held[p])
        elif k == "place_meeple" and isinstance(target, str) and ev.square is not None:
            if ctx.supply[p] > 0 and target in ctx.free_locations(ev.square):
                ctx.place_meeple(p, ev.square, target)
        elif k == "upgrade_meeple" and isinstance(target, int):
            strength = e.get("strength", 2)
            state.strength[target] = strength
            ctx.set_meeple_strength(target, strength)
        elif k == "extra_turn":
            if p == ctx.to_move and ctx.pile:
                ctx.grant_extra_turn(self.granted + rule.id)
                st.moved(rule.id, 0)
        elif k == "skip_turn":
            if ctx.pile:
                ctx.skip_turn(p)  # counted when missed (start_of_turn)
                st.skips_owed = (*st.skips_owed, (p, rule.id))
        elif k == "table":
            self._table(ctx, state, rule, e, ev, what)
        return 0

    def _receivers(self, ctx: RuleContext, p: int, to: str) -> list[int]:
        n = len(ctx.players)
        if to == "left":
            return [(p + 1) % n] if n > 1 else []
        if to == "right":
            return [(p - 1) % n] if n > 1 else []
        if to == "current":
            return [ctx.to_move] if ctx.to_move != p else []
        others = [q for q in range(n) if q != p]
        if to == "leader":
            if not others:
                return []
            best = max(ctx.scores[q] for q in others)
            return [next(q for q in others if ctx.scores[q] == best)]
        return others

    def _give(
        self, ctx: RuleContext, state: DataState, rule: Rule, e: Term, ev: Ev, taken: int, what: str
    ) -> None:
        st: LangState = state.lang  # type: ignore[assignment]
        p = ev.player
        n = max(0, self.amount(ctx, state, e.get("amount"), ev, taken))
        res = e.get("what")
        for q in self._receivers(ctx, p, e.get("to")):
            if not n:
                return
            if res == "points":
                ctx.award(p, -n, rule.id, f"{what}: gave to {ctx.players[q]}")
                ctx.award(q, n, rule.id, f"{what}: from {ctx.players[p]}")
            elif res == "chips":
                for cid in state.held[p][:n]:
                    state.held[p].remove(cid)
                    state.held[q].append(cid)
            else:
                moved = -self._add(st, res, p, -n)
                _set(st.res, res, q, st.res[res][q] + moved)

    def _take_chips(
        self, ctx: RuleContext, state: DataState, rule: Rule, e: Term, ev: Ev, taken: int, what: str
    ) -> int:
        st: LangState = state.lang  # type: ignore[assignment]
        p = ev.player
        got: list[int] = []
        limit = e.get("count")
        n = None if limit is None else max(0, self.amount(ctx, state, limit, ev, taken))
        if e.get("from") == "supply":
            count = 1 if n is None else n
            while st.supply and len(got) < count:
                got.append(st.supply.pop())
        elif ev.square is not None:
            sq = ev.square
            near = [sq] + [(sq[0] + dx, sq[1] + dy) for dx, dy in _DELTAS]
            for q in near:
                cs = st.on_marks.get(q)
                if not cs:
                    continue
                room = len(cs) if n is None else n - len(got)
                got.extend(cs[:room])
                rest = cs[room:]
                if rest:
                    st.on_marks[q] = rest
                else:
                    del st.on_marks[q]
        if not got:
            return 0
        state.held[p].extend(got)
        if e.get("face", "up") == "down":
            st.face_down = st.face_down | set(got)
        value = sum(state.chips[c].value for c in got)
        if e.get("score", False) and value:
            ctx.award(p, value, rule.id, f"{what}: {len(got)} chip(s)")
        return value

    def _table(
        self, ctx: RuleContext, state: DataState, rule: Rule, e: Term, ev: Ev, what: str
    ) -> None:
        points = list(e.get("points"))
        of = e.get("of", "chips")
        p = ev.player
        by = e.get("by")
        if by == "count":
            n = self._held(state, p, of)
            got = points[min(n, len(points) - 1)]
        elif by == "sets":
            st: LangState = state.lang  # type: ignore[assignment]
            if of == "chips":
                colours = [c.colour for c in state.held_chips(p)]
                kinds = self.spec.supply.colours
                sets = min((sum(1 for c in colours if c.value == k) for k in kinds), default=0)
            else:
                sets = min((v[p] for v in st.res.values()), default=0)
            got = points[0] * sets
        else:
            held = [self._held(state, q, of) for q in range(len(ctx.players))]
            if not held[p]:
                return
            ranks = sorted(set(held), reverse=True)
            rank = ranks.index(held[p])
            got = points[rank] if rank < len(points) else 0
        if got:
            ctx.award(p, got, rule.id, what)


def ev_final(ev: Ev) -> bool:
    """Whether ``ev`` comes from the final scoring (nothing can be offered then)."""
    return ev.feature is not None and ev.feature.final
