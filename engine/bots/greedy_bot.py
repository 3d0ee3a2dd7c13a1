"""A bot that takes the action with the best immediate evaluation.

Evaluation after the action (and any forced passes): my projected score (current score plus
what the final scoring would give now for open features, see ``Game.projected_scores``) minus
the best opponent's, plus a small bonus per meeple kept in supply, so it does not spend meeples
for nothing. Rule-set choices outside placing (draw or take an island tile, buy an extra turn,
sell wine, upgrade, place a treat) look one placement ahead (see ``GreedyBot._lookahead``).

Speed (the same decisions as pushing every move, evaluating and popping; tests compare them
on every decision of whole games): the ~60 placing moves of a turn are only ~27 distinct tile
placements (the rest add a meeple), and rotations of a symmetric tile that look the same are
judged once. Under plain rules (no rule set, or only rule sets whose ``bot_hints`` declare
``plain_scoring``, see :class:`engine.rules.spec.BotHints`), where
nothing at the end of a turn or of the game moves the evaluation, a placement is judged from
``Board.preview`` without placing the tile: the features it would join, what completing them
would score and return, and what the rule sets award for the square (``Rules.placement_points``);
a square a preview cannot tell is played out with ``Game.push_placement`` (the board records
its changes instead of being copied, and the turn stops before it ends). Other rule sets play
each placement out with ``push``, and value a meeple variant from there when they can
(:func:`_meeple_delta`). Projections are incremental from the decision's starting position
(:class:`_Projection`). A rule-set choice that does not lead to the same player placing is
judged once on the game itself: hidden information cannot change its value.

Under plain rules the bot judges on the game itself what it would otherwise judge on copies
(the very same games; ``tests/engine/test_greedy_in_place.py``): a placing decision on the game
re-dealt in place (``Game.push_redeal``), a rule-set choice on a held turn, the board compacted
after it as the full push's copy was (``Board.compact``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from engine.board import SIDE_JOIN as _SIDE_JOIN
from engine.board import SIDE_TILE as _SIDE_TILE
from engine.bots.base import register_bot
from engine.bots.styles import style_named
from engine.features import CITY, FIELD, MONASTERY
from engine.game import Phase
from engine.moves import Move, Pass
from engine.rules.context import RuleContext
from engine.scoring import completed_cities, feature_points

if TYPE_CHECKING:
    from engine.board.preview import PreviewFeature
    from engine.features import FeatureStore
    from engine.game import Game
    from engine.moves import Action


def _best_other(scores: list[int], player: int) -> int:
    """The best score of the other players (0 when there are none)."""
    # max() of the others without slicing them out: the first of equal bests, as max() keeps
    best = 0
    found = False
    for i in range(len(scores)):
        if i != player:
            score = scores[i]
            if not found or score > best:
                best = score
                found = True
    return best


def evaluate(game: Game, player: int, meeple_value: float = 0.5) -> float:
    proj = game.projected_scores()
    return proj[player] - _best_other(proj, player) + meeple_value * game.supply[player]


def _judge_pushed(
    game: Game, move: Action, me: int, meeple_value: float, push: Callable[[Action], None]
) -> float:
    """Evaluation after pushing ``move`` with ``push`` (``game.push``, or under plain rules
    ``game.push_placement``) and, in phase ACTION, a pass that lets this turn's scoring happen;
    undone before returning."""
    push(move)
    if game.phase is Phase.ACTION and Pass() in game.legal_moves():
        game.apply(Pass())  # undone by the pop below with the move (no snapshot needed)
    value = evaluate(game, me, meeple_value)
    game.pop()
    return value


def _meeple_delta(
    game: Game, square: tuple[int, int], location: str, meeple_value: float, plain_scoring: bool
) -> float | None:
    """How much a lone meeple at ``location`` of the tile just placed on ``square`` would add to
    the evaluation: the final-scoring points of its open feature, one meeple fewer in supply; or,
    with ``plain_scoring`` (no rule hook adjusts a scoring), the points of the feature it
    completes now, the meeple coming back. ``None``: the caller plays that variant out."""
    board = game.board
    o = board.tiles[square]
    seg = o.aliases[location]
    node = board.nodes[square][seg]
    if node < 0:  # a monastery
        if o.kinds[seg] != MONASTERY:
            return None
        if board.monasteries.get(square, 1) == 0:
            return 1 + board.monk_neighbour_count(square) if plain_scoring else None
        return 1 + board.monk_neighbour_count(square) - meeple_value
    f = board.features
    parent = f.parent
    root = node
    while parent[root] != root:
        root = parent[root]
    kind = f.kind[root]
    if kind == FIELD:
        find = f.find
        done = f.done
        fkind = f.kind
        roots = {find(c) for c in f.cities_of(root)}
        return 3 * sum(1 for r in roots if r in done and fkind[r] == CITY) - meeple_value
    if root in f.done:  # completed by this tile (a closed feature never grows)
        if not plain_scoring:
            return None
        return feature_points(kind, len(f.tiles[root]), f.coa[root], False)
    return len(f.tiles[root]) + f.coa[root] - meeple_value


class _Projection:
    """``Game.projected_scores`` of positions one tile placement (without a meeple) away from
    a base position, recomputing only what a placement can change: the features it joined,
    fields when it completed a city, monasteries around it (a feature it completed was scored
    and its meeples left: it is among those it joined). The game over, or a meeple more, falls
    back to the full ``projected_scores``."""

    def __init__(self, game: Game) -> None:
        self._project(game)

    def _project(self, game: Game) -> None:
        """Set the tables of the base position ``game`` (a method of its own so that the
        compiled build can type its locals: ``greedy_bot.pxd``)."""
        board = game.board
        f = board.features
        parent = f.parent
        fkind = f.kind
        fmeeples = f.meeples
        done = f.done
        cities_of = f.cities
        farmers = game.options.farmers
        meeples = game.meeples
        self.n_meeples = len(meeples)
        self.n_done = len(done)
        self.roots: list[tuple[int, tuple[int, ...], list[tuple[int, int]]]] = []
        """Each occupied feature root: for a field, the roots of the cities it touches (only a
        placement that joins one of them can complete it), and what it adds to whom."""
        self.monks: list[tuple[int, tuple[int, int], int, int]] = []
        """Each monk: its meeple id, square, player and what it adds."""
        total = self.total = game.scores[:]
        """The projected scores of the base position."""
        adds_of: dict[int, list[tuple[int, int]]] = {}
        self.adds_of = adds_of
        fields_of: dict[int, list[tuple[int, tuple[int, ...], list[tuple[int, int]]]]] = {}
        self.fields_of = fields_of
        """City root -> the occupied fields touching it."""
        # what _feature_adds and Game.projected_scores give, with a field's city roots found
        # once for both its points and its entry
        near: set[tuple[int, int]] = set()
        self.near_monks = near
        """The squares next to a monk (diagonals too): a tile there changes its points."""
        for mid, (player, sq, _loc, node, _s) in meeples.items():
            if node < 0:
                pts = 1 + board.monk_neighbour_count(sq)
                self.monks.append((mid, sq, player, pts))
                total[player] += pts
                mx, my = sq
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        near.add((mx + dx, my + dy))
                continue
            root = node
            while parent[root] != root:
                root = parent[root]
            if root in adds_of:
                continue
            kind = fkind[root]
            cities: tuple[int, ...] = ()
            if kind == FIELD:
                found = set()
                for c in cities_of.get(root, ()):
                    while parent[c] != c:
                        c = parent[c]
                    found.add(c)
                cities = tuple(found)
                if not farmers:
                    adds: list[tuple[int, int]] = []
                    pts = -1
                else:
                    pts = 0
                    for c in cities:
                        if c in done and fkind[c] == CITY:
                            pts += 3
            else:
                pts = feature_points(kind, len(f.tiles[root]), f.coa[root], True)
            if pts >= 0:
                mids = fmeeples.get(root, ())
                if len(mids) == 1:  # no majority to work out
                    adds = [(meeples[mids[0]].player, pts)]
                else:
                    adds = [(p, pts) for p in game.majority_of(mids)]
            entry = (root, cities, adds)
            self.roots.append(entry)
            adds_of[root] = adds
            for p, pts in adds:
                total[p] += pts
            for c in cities:
                touching = fields_of.get(c)
                if touching is None:
                    fields_of[c] = [entry]
                else:
                    touching.append(entry)
        self.best_others = [_best_other(total, p) for p in range(len(total))]
        """Per player, the best projected score of the others in the base position."""

    def scores(self, game: Game, square: tuple[int, int]) -> list[int]:
        """The projected scores of ``game`` after the base position plus a tile on ``square``
        (and any passes)."""
        meeples = game.meeples
        if game.phase is Phase.OVER or len(meeples) > self.n_meeples:
            return game.projected_scores()
        out = game.scores[:]
        board = game.board
        f = board.features
        parent = f.parent
        touched: set[int] = set()
        for node in board.nodes[square]:
            if node >= 0:
                while parent[node] != node:
                    node = parent[node]
                touched.add(node)
        new_done = len(f.done) != self.n_done
        dirty: list[int] = []
        for root, cities, adds in self.roots:
            if (
                parent[root] != root
                or root in touched
                or (new_done and any(parent[c] != c or c in touched for c in cities))
            ):
                dirty.append(root)
            else:
                for p, pts in adds:
                    out[p] += pts
        x, y = square
        for mid, (mx, my), p, pts in self.monks:
            if -1 <= mx - x <= 1 and -1 <= my - y <= 1:
                if mid not in meeples:  # completed and scored
                    continue
                pts = 1 + board.monk_neighbour_count((mx, my))
            out[p] += pts
        seen: set[int] = set()
        for root in dirty:
            while parent[root] != root:
                root = parent[root]
            if root not in seen:
                seen.add(root)
                for p, pts in _feature_adds(game, root):
                    out[p] += pts
        return out

    def quiet(self, square: tuple[int, int], sides: tuple[tuple[Any, ...], ...]) -> bool:
        """Whether a tile on ``square`` (whatever its rotation) joins no occupied feature and
        no city an occupied field touches, and no monk is next to it."""
        if square in self.near_monks:
            return False
        adds_of = self.adds_of
        fields_of = self.fields_of
        for side in sides:
            tag = side[0]
            if tag == _SIDE_TILE:
                r = side[1]
                if r in adds_of or r in fields_of:
                    return False
                for r in side[2]:
                    if r in adds_of or r in fields_of:
                        return False
            elif tag == _SIDE_JOIN:
                r = side[1]
                if r in adds_of or r in fields_of:
                    return False
        return True

    def quiet_base(
        self,
        game: Game,
        square: tuple[int, int],
        sides: tuple[tuple[Any, ...], ...],
        points: int,
        meeple_value: float,
    ) -> float | None:
        """The evaluation after a bare placement on ``square`` (any rotation) when it is
        :meth:`quiet` there: only the rule sets' ``points`` change it. ``None`` when not."""
        if not self.quiet(square, sides):
            return None
        me = game.to_move
        # the others' scores stay: the best of them is the base position's
        return self.total[me] + points - self.best_others[me] + meeple_value * game.supply[me]

    def preview_values(
        self,
        game: Game,
        square: tuple[int, int],
        rotation: int,
        sides: tuple[tuple[Any, ...], ...],
        points: int,
        locations: list[str | None],
        meeple_value: float,
        quiet_base: float | None,
    ) -> list[float]:
        """The evaluation after placing the current tile on ``square`` at ``rotation`` with a
        meeple at each of ``locations`` (``None``: no meeple), without placing it: from
        ``Board.preview`` (``sides`` of ``square``), the rule sets awarding ``points`` at once
        and nothing else (plain scoring); ``quiet_base`` from :meth:`quiet_base`. Equal to
        playing it out to the end of the turn."""
        board = game.board
        if quiet_base is not None:
            # no feature it joins is occupied or touches an occupied field, no monk near:
            # only the rule sets' points change the evaluation of the bare placement
            base = quiet_base
            if len(locations) == 1 and locations[0] is None:
                return [base]
        f = board.features
        tile = game.current_tile
        assert tile is not None
        group_of, groups, merged = board.preview(square, tile, rotation, sides)
        if quiet_base is None:
            base = self._joined_value(game, square, points, meeple_value, merged, groups)
        values: list[float] = []
        o = board.compiled.oriented[tile][rotation // 90]
        for loc in locations:
            if loc is None:
                values.append(base)
                continue
            g = group_of[o.aliases[loc]]
            if g < 0:  # the tile's monastery
                n = board.neighbour_count(square)
                closed = board.monastery_neighbours_left(square) == 0
                values.append(base + 1 + n - (0 if closed else meeple_value))
                continue
            pv = groups[g]
            if pv.kind == FIELD:
                fp = self._field_points(f, merged, groups, pv.cities, pv.own_cities)
                delta = fp - meeple_value
            elif pv.open == 0:  # completed and scored at once, the meeple comes back
                delta = feature_points(pv.kind, pv.tiles, pv.coa, False)
            else:
                delta = pv.tiles + pv.coa - meeple_value
            values.append(base + delta)
        return values

    def _field_points(
        self,
        f: FeatureStore,
        merged: dict[int, int],
        groups: list[PreviewFeature],
        city_nodes: Iterable[int],
        own: Iterable[int],
    ) -> int:
        """What a field touching the board's ``city_nodes`` and the placed tile's cities
        ``own`` (groups of the preview) would score: 3 a city complete after the placement
        (``merged``: board root -> group of ``groups``)."""
        if not city_nodes and not own:  # a field touching no city (no set to make)
            return 0
        parent = f.parent
        done = f.done
        fkind = f.kind
        complete: set[int] = set()
        for c in city_nodes:
            while parent[c] != c:
                c = parent[c]
            g = merged.get(c)
            if g is None:
                if c in done and fkind[c] == CITY:
                    complete.add(c)
            else:
                pv = groups[g]
                if pv.open == 0 and pv.kind == CITY:
                    complete.add(-1 - g)
        for k in own:
            pv = groups[k]
            if pv.open == 0:
                complete.add(-1 - k)
        return 3 * len(complete)

    def _joined_value(
        self,
        game: Game,
        square: tuple[int, int],
        points: int,
        meeple_value: float,
        merged: dict[int, int],
        groups: list[PreviewFeature],
    ) -> float:
        """The evaluation after a bare placement that joins the features ``groups`` of its
        preview (``merged``: board root -> group)."""
        board = game.board
        f = board.features
        meeples = game.meeples
        me = game.to_move
        # from the base projection: take out the features it joins (counted anew below) and
        # recount the occupied fields whose cities it joins
        out = self.total[:]
        out[me] += points
        supply = game.supply[me]
        adds_of = self.adds_of
        fields_of = self.fields_of
        recount: dict[int, tuple[int, tuple[int, ...], list[tuple[int, int]]]] = {}
        for r in merged:
            adds = adds_of.get(r)
            if adds is not None:
                for p, pts in adds:
                    out[p] -= pts
            touching = fields_of.get(r)
            if touching is not None:
                for entry in touching:
                    if entry[0] not in merged:
                        recount[entry[0]] = entry
        for _root, cities, adds in recount.values():
            pts = self._field_points(f, merged, groups, cities, ())
            for p, old in adds:
                out[p] += pts - old
        farmers = game.options.farmers
        for pv in groups:
            mids = pv.meeples
            if not mids:
                continue
            if pv.kind == FIELD:
                if not farmers:
                    continue
                pts = self._field_points(f, merged, groups, pv.cities, pv.own_cities)
                scored_now = False
            else:
                scored_now = pv.open == 0
                pts = feature_points(pv.kind, pv.tiles, pv.coa, not scored_now)
            if len(mids) == 1:
                out[meeples[mids[0]].player] += pts
            else:
                for p in game.majority_of(mids):
                    out[p] += pts
            if scored_now:  # the meeples come back
                for m in mids:
                    if meeples[m].player == me:
                        supply += 1
        if square in self.near_monks:  # else no monk is next to it
            x, y = square
            for _mid, (mx, my), p, _pts in self.monks:
                if -1 <= mx - x <= 1 and -1 <= my - y <= 1:
                    out[p] += 1
                    if board.monasteries[(mx, my)] == 1 and p == me:
                        supply += 1  # completed: scored now, the monk comes back
        return out[me] - _best_other(out, me) + meeple_value * supply


def _feature_adds(game: Game, root: int) -> list[tuple[int, int]]:
    """What the final scoring would give for the occupied feature ``root``, as in
    ``Game.projected_scores``: ``(player, points)`` for each majority holder."""
    f = game.board.features
    kind = f.kind[root]
    if kind == FIELD:
        if not game.options.farmers:
            return []
        pts = 3 * completed_cities(f, root)
    else:
        pts = feature_points(kind, len(f.tiles[root]), f.coa[root], True)
    return [(p, pts) for p in game.majority_of(f.meeples.get(root, ()))]


_Preview = tuple[tuple[tuple[Any, ...], ...], int, float | None]
"""What :meth:`_Projection.preview_values` needs for a square: its sides, the points the rule
sets award for placing there, and :meth:`_Projection.quiet_base`."""

_UNSEEN: Any = object()
"""A square :meth:`_Judge.values` has not looked at yet (``None``: one it plays out)."""


_Placement = tuple[tuple[int, int], int]
"""A placement without its meeple: ``(square, rotation)``."""


_SAME_SHAPE: dict[tuple[Any, ...], tuple[int, ...]] = {}
"""A tile's oriented forms (``CompiledTiles.oriented[tile]``) -> for each rotation, the first
rotation with the same shape (its own index when none before it has it)."""


def _same_shape(oriented: tuple[Any, ...]) -> tuple[int, ...]:
    got = _SAME_SHAPE.get(oriented)
    if got is None:
        if len(_SAME_SHAPE) >= 4096:  # tile sets of edited rule sets come and go
            _SAME_SHAPE.clear()
        shapes = [o.shape for o in oriented]
        got = _SAME_SHAPE[oriented] = tuple(shapes.index(sh) for sh in shapes)
    return got


def _same_locations(a: list[str | None], b: list[str | None]) -> bool:
    """Whether two placements offer the same meeple locations (in any order). A placement's
    locations are distinct (``None`` once, then each location once), so sets compare them:
    no ``str`` of each and no sort."""
    return a == b or (len(a) == len(b) and set(a) == set(b))


def _placement_groups(
    game: Game, moves: list[Move]
) -> tuple[dict[_Placement, list[int]], list[tuple[list[int], _Placement]]]:
    """The indices of ``moves`` by ``(square, rotation)`` (a placement and its meeple variants;
    the bare placement is always offered), and the *twins*: a symmetric tile's rotations that
    look the same (same shape, same meeple locations) play the same, so only the first is
    judged; each twin is ``(its indices, the (square, rotation) judged for it)``."""
    groups: dict[_Placement, list[int]] = {}
    last: list[int] = []
    last_sq: tuple[int, int] | None = None
    last_rot = -1
    for i, (sq, rot, _loc) in enumerate(moves):
        # a placement's moves come together (one square object per block): no key to make
        if rot == last_rot and sq == last_sq:
            last.append(i)
        else:
            key = (sq, rot)
            got = groups.get(key)
            if got is None:
                groups[key] = got = [i]
            else:
                got.append(i)
            last, last_sq, last_rot = got, sq, rot
    twins: list[tuple[list[int], _Placement]] = []
    same = _same_shape(game.board.compiled.oriented[game.current_tile])  # type: ignore[index]
    if same == (0, 1, 2, 3)[: len(same)]:
        return groups, twins  # no two rotations look the same
    # the first placement seen on a square with a rotation's shape stands for the others
    seen: dict[tuple[tuple[int, int], int], _Placement] = {}
    for key in list(groups):
        sq, rot = key
        first = seen.setdefault((sq, same[rot // 90]), key)
        if first != key and sorted(str(moves[i][2]) for i in groups[first]) == sorted(
            str(moves[i][2]) for i in groups[key]
        ):
            twins.append((groups.pop(key), first))
    return groups, twins


def _placing(moves: list[Action]) -> list[Move]:
    """``moves``, all placing moves, typed as such (same order, so indices carry over)."""
    placing = [mv for mv in moves if isinstance(mv, Move)]
    if len(placing) != len(moves):
        raise TypeError("placement_values judges placing moves only")
    return placing


def reference_values(game: Game, moves: list[Action], me: int, meeple_value: float) -> list[float]:
    """What :func:`placement_values` must equal, the slow way: push each move (and the pass
    that settles an action phase), :func:`evaluate`, pop. The contract its fast paths are
    tested against."""
    out = []
    for move in moves:
        game.push(move)
        pushed = 1
        if game.phase is Phase.ACTION and Pass() in game.legal_moves():
            game.push(Pass())
            pushed += 1
        out.append(evaluate(game, me, meeple_value))
        for _ in range(pushed):
            game.pop()
    return out


def judged_placements(
    game: Game, me: int, meeple_value: float
) -> tuple[list[tuple[tuple[int, int], int, list[str | None]]], list[list[float]]]:
    """The placing moves of ``game`` (phase PLACE) without building them, as ``(square,
    rotation, meeple locations)`` entries (``None``, no meeple, first) in the order of
    ``game.legal_moves().list()``, and for each entry the :func:`placement_values` of its
    moves (the same numbers). A lone move is not judged: its values are ``[]``."""
    entries = _placement_entries(game)
    if len(entries) == 1 and len(entries[0][2]) == 1:
        return entries, []
    return entries, _entry_values(game, entries, me, meeple_value)


class _Judge:
    """What judging the placements of one decision shares: the rule sets' hints, the base
    projection and each square's preview inputs."""

    def __init__(self, game: Game, me: int, meeple_value: float) -> None:
        self.game = game
        self.me = me
        self.meeple_value = meeple_value
        rules = self.rules = game.rules
        # what the rule sets declare about their hooks (BotHints; checked against their
        # behaviour)
        blind = plain = True
        for r in rules:  # one loop, not two all() generators: a judge per decision
            hints = r.bot_hints
            blind = blind and hints.meeple_blind
            plain = plain and hints.plain_scoring
        self.blind = blind
        self.plain = plain = blind and plain
        # plain rules: nothing at the end of a turn or the game moves the evaluation, so a
        # placement is judged where its turn would end (Game.push_placement), no copy needed
        self.push: Callable[[Action], None] = game.push_placement if plain else game.push
        self.projection = _Projection(game) if blind else None
        # plain rules: most placements are judged from a preview, without placing the tile
        self.previews: dict[tuple[int, int], _Preview | None] = {}
        # what each rule set awards for a square of this position (only previews ask it), its
        # lookups made once per decision (Rules.placement_points_for)
        self.points: list[Callable[[tuple[int, int]], int | None]] = []
        if plain:
            ctx = RuleContext.of(game)
            self.points = [r.placement_points_for(ctx) for r in rules]

    def entry_values(self, entries: list[_Entry]) -> list[list[float]]:
        """:func:`_entry_values` of ``entries`` (placements of the game's current tile, in the
        order of :func:`_placement_entries`)."""
        game = self.game
        same = _same_shape(game.board.compiled.oriented[game.current_tile])  # type: ignore[index]
        twins = same != (0, 1, 2, 3)[: len(same)]
        seen: dict[tuple[tuple[int, int], int], int] = {}
        orders: dict[tuple[int, int], list[int] | None] = {}
        values: list[list[float]] = []
        for k in range(len(entries)):
            sq, rot, names = entries[k]
            if twins:
                # as _placement_groups: the first placement on a square with a rotation's
                # shape and the same meeple locations stands for the others
                first = seen.setdefault((sq, same[rot // 90]), k)
                if first != k:
                    first_names = entries[first][2]
                    if first_names == names:  # the same locations in the same order
                        values.append(values[first][:])
                        continue
                    # where each of these locations is among the first's, or None when they
                    # are not the same locations: the squares of a block share their
                    # rotations' location lists (_placement_entries), so one answer serves
                    # the block. Keyed by the lists' ids: ``entries`` holds every list
                    key = (id(first_names), id(names))
                    order = orders.get(key, _UNSEEN)
                    if order is _UNSEEN:
                        order = orders[key] = (
                            [first_names.index(loc) for loc in names]
                            if _same_locations(first_names, names)
                            else None
                        )
                    if order is not None:
                        first_values = values[first]
                        values.append([first_values[i] for i in order])
                        continue
            values.append(self.values(sq, rot, names))
        return values

    def values(self, sq: tuple[int, int], rot: int, locs: list[str | None]) -> list[float]:
        """The evaluation after placing the current tile on ``sq`` at ``rot`` with a meeple at
        each of ``locs`` (``None``: none)."""
        if self.plain:
            previews = self.previews
            known = previews.get(sq, _UNSEEN)
            if known is _UNSEEN:
                known = previews[sq] = self._inputs(sq)
            if known is not None:
                sides, points, quiet = known
                if quiet is not None and len(locs) == 1 and locs[0] is None:
                    return [quiet]
                projection = self.projection
                assert projection is not None
                return projection.preview_values(
                    self.game, sq, rot, sides, points, locs, self.meeple_value, quiet
                )
        return self._played(sq, rot, locs)

    def _inputs(self, sq: tuple[int, int]) -> _Preview | None:
        """The :data:`_Preview` of ``sq``, or ``None`` if it must be played out."""
        points = 0
        for placement_points in self.points:
            p = placement_points(sq)
            if p is None:
                return None
            points += p
        game = self.game
        board = game.board  # typed on the compiled build: a C call below, not a method lookup
        sides = board.preview_sides(sq)
        if sides is None:
            return None
        projection = self.projection
        assert projection is not None
        return sides, points, projection.quiet_base(game, sq, sides, points, self.meeple_value)

    def _played(self, sq: tuple[int, int], rot: int, locs: list[str | None]) -> list[float]:
        """:meth:`values` played out: the bare placement pushed, its meeple variants valued
        from there when :func:`_meeple_delta` can, else pushed too."""
        game = self.game
        meeple_value = self.meeple_value
        projection = self.projection
        me = self.me
        blind = self.blind
        self.push(Move(sq, rot, None))
        if game.phase is Phase.ACTION and Pass() in game.legal_moves():
            game.apply(Pass())
        if projection is None:
            base = evaluate(game, me, meeple_value)
        else:
            proj = projection.scores(game, sq)
            base = proj[me] - _best_other(proj, me) + meeple_value * game.supply[me]
        shortcut = blind and game.phase is not Phase.OVER and game.phase is not Phase.ACTION
        values = [base] * len(locs)
        later: list[int] = []
        for j, loc in enumerate(locs):
            if loc is None:
                continue
            delta = _meeple_delta(game, sq, loc, meeple_value, self.plain) if shortcut else None
            if delta is None:
                later.append(j)
            else:
                values[j] = base + delta
        game.pop()
        for j in later:
            values[j] = _judge_pushed(game, Move(sq, rot, locs[j]), me, meeple_value, self.push)
        return values


def placement_values(game: Game, moves: list[Action], me: int, meeple_value: float) -> list[float]:
    """The evaluation after each of ``moves`` (placing moves of ``game``, phase PLACE), in
    order; equal to :func:`reference_values`, faster."""
    judge = _Judge(game, me, meeple_value)
    placing = _placing(moves)
    values: list[float] = [0.0] * len(moves)
    groups, twins = _placement_groups(game, placing)
    for (sq, rot), idxs in groups.items():
        if len(idxs) == 1:
            values[idxs[0]] = judge.values(sq, rot, [placing[idxs[0]][2]])[0]
            continue
        got = judge.values(sq, rot, [placing[i][2] for i in idxs])
        for i, value in zip(idxs, got, strict=False):  # one length; strict is slow on 3.11
            values[i] = value
    for idxs, first in twins:
        by_location = {placing[i][2]: values[i] for i in groups[first]}
        for i in idxs:
            values[i] = by_location[placing[i][2]]
    return values


_Entry = tuple[tuple[int, int], int, list[str | None]]
"""A placement and its meeple variants: ``(square, rotation, [None, location, ...])``."""


def _placement_entries(game: Game) -> list[_Entry]:
    """The placing moves of ``game`` (phase PLACE) as :data:`_Entry` items, in the order of
    ``game.legal_moves().list()``, from ``Game.placement_blocks()`` (no move built)."""
    entries: list[_Entry] = []
    for squares, rots, locs, _n in game.placement_blocks():
        # indices, not zip(): zip's keyword (ruff's B905) costs more than the loop (3.11)
        by_rotation = [(rots[i], [None, *locs[i]]) for i in range(len(rots))]
        for sq in squares:
            for rot, names in by_rotation:
                entries.append((sq, rot, names))
    return entries


def _entry_values(
    game: Game, entries: list[_Entry], me: int, meeple_value: float
) -> list[list[float]]:
    """:func:`placement_values` of each entry's moves (placements of ``game``'s current tile,
    in the order of :func:`_placement_entries`), without building them."""
    return _Judge(game, me, meeple_value).entry_values(entries)


def best_placements(game: Game, me: int, meeple_value: float) -> list[Move]:
    """The placing moves of ``game`` (phase PLACE) whose :func:`placement_values` are within
    1e-9 of the best, in the order of ``game.legal_moves().list()``: the same, without building
    every move (the playouts' greedy step). A lone move is returned unjudged."""
    entries = _placement_entries(game)
    if len(entries) == 1 and len(entries[0][2]) == 1:
        sq, rot, names = entries[0]
        return [Move(sq, rot, names[0])]
    values = _entry_values(game, entries, me, meeple_value)
    # each entry's best by a loop, as max() finds it: max() parses its arguments the slow way
    # on 3.11 (a third more instructions for the few values of an entry, pure or compiled)
    highs: list[float] = []
    for got in values:
        high = got[0]
        for v in got:
            if v > high:
                high = v
        highs.append(high)
    top = max(highs) - 1e-9
    best: list[Move] = []
    new = tuple.__new__  # as Game._list_moves: cheaper than a call through Move's __new__
    # indices, not zip(..., strict=True) (slow on 3.11), and only the entries that reach the top
    for k in range(len(entries)):
        if highs[k] >= top:
            sq, rot, names = entries[k]
            got = values[k]
            for j in range(len(names)):
                if got[j] >= top:
                    best.append(new(Move, (sq, rot, names[j])))
    return best


def _ties(moves: list[Action], values: list[float]) -> list[Action]:
    """The moves a greedy bot draws from: the best value, ties within 1e-9 of the best so far
    in move order."""
    best: list[Action] = []
    best_value = float("-inf")
    if len(moves) != len(values):
        raise ValueError("one value per move")
    # indices, not zip(..., strict=True): its keyword is slow on 3.11 (a rule-set choice of
    # every playout turn comes here)
    for i in range(len(moves)):
        value = values[i]
        if value > best_value + 1e-9:
            best_value, best = value, [moves[i]]
        elif abs(value - best_value) <= 1e-9:
            best.append(moves[i])
    return best


def _plain_scoring(rules: list[Any]) -> bool:
    """Whether every rule set's ``bot_hints.plain_scoring`` holds."""
    for r in rules:  # noqa: SIM110 - all() over a generator is slower (asked every decision)
        if not r.bot_hints.plain_scoring:
            return False
    return True


def _tie_count(got: list[list[float]]) -> tuple[float, int, int, int]:
    """The ties :func:`_ties` finds among the values ``got`` (per entry, flattened in order):
    ``(best, entry, index, count)``: the value that last beat the best so far by more than
    1e-9 and where it is, then how many from it on are within 1e-9 of it (itself too)."""
    top = float("-inf")
    start = start_j = count = 0
    for k in range(len(got)):
        values = got[k]
        if values:
            # the entry's best by a loop, as max() finds it (max() parses its arguments the
            # slow way on 3.11, see best_placements)
            high = values[0]
            for value in values:
                if value > high:
                    high = value
            if high - top < -1e-9:
                # below the best by more than 1e-9 (rounding keeps the order): neither a tie
                # nor a new best
                continue
        for j in range(len(values)):
            value = values[j]
            if value > top + 1e-9:
                top = value
                start = k
                start_j = j
                count = 1
            elif abs(value - top) <= 1e-9:
                count += 1
    return top, start, start_j, count


def _tie_at(
    got: list[list[float]], top: float, start: int, start_j: int, left: int
) -> tuple[int, int]:
    """Where the tie numbered ``left`` (from 0) of :func:`_tie_count` is: ``(entry, index)``."""
    for k in range(start, len(got)):
        values = got[k]
        for j in range(start_j if k == start else 0, len(values)):
            if (k == start and j == start_j) or abs(values[j] - top) <= 1e-9:
                if left == 0:
                    return k, j
                left -= 1
    raise AssertionError("fewer ties than counted")


class GreedyBot:
    """Best immediate score change with a simple evaluation of open features (seeded ties)."""

    name = "greedy"

    def __init__(
        self,
        seed: int | None = 0,
        meeple_value: float = 0.5,
        samples: int = 2,
        style: str | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.style = style_named(style) if style is not None else None
        """A play style (:mod:`engine.bots.styles`): its bonuses are added to every evaluation
        and its meeple value replaces ``meeple_value``."""
        if self.style is not None:
            self.name = f"greedy:{self.style.name}"
            meeple_value = self.style.meeple_value
        self.meeple_value = meeple_value
        self.samples = samples
        """Reshuffles of the hidden pile when a rule action leads to placing a tile."""

    def _lookahead(self, game: Game, move: Action, me: int, plain: bool) -> float:
        """Value of a rule-set choice (draw or take a tile, buy an extra turn, sell, upgrade...):
        the evaluation after it, or, when it leads to the same player placing a tile, the best
        evaluation of that placement (judged as the bot judges its own placements, after the
        turn's scoring: :func:`placement_values`), averaged over reshuffles of the hidden pile.
        ``plain``: every rule set's ``bot_hints.plain_scoring``."""
        # unless the same player places a tile next, hidden information (the order of the
        # pile, face-down values) cannot change the evaluation: judge it once, in place
        if plain:
            # plain rules: nothing at the end of a turn moves the evaluation, so, as for a
            # placement, the choice is judged where its turn would end, without a board copy
            game.push_placement(move, offered=True)  # one of this position's legal moves
            phase = game.phase
            if phase is Phase.TURN_END:
                nxt = game.next_to_move()
                settled = nxt is not None and nxt != me
            else:  # the turn goes on: the very position a full push reaches
                settled = not (phase is Phase.PLACE and game.to_move == me)
            value = evaluate(game, me, self.meeple_value) if settled else 0.0
            game.pop()
            # the full push this stands for left a copy of the board in the game
            game.board.compact()
            if settled:
                return value
        game.push(move)
        if not (game.phase is Phase.PLACE and game.to_move == me):
            value = evaluate(game, me, self.meeple_value)
            game.pop()
            return value
        game.pop()
        return self._sampled(game, move, me)

    def _sampled(self, game: Game, move: Action, me: int) -> float:
        """The value of a rule-set choice after which the same player places a tile: the best
        evaluation of that placement, averaged over copies with the hidden pile re-dealt."""
        total = 0.0
        for _ in range(self.samples):
            sim = game.copy(shuffle=self.rng)
            sim.apply(move)
            if sim.phase is Phase.PLACE and sim.to_move == me:
                follows = sim.legal_moves().list()
                value = max(placement_values(sim, follows, me, self.meeple_value))
            else:
                value = evaluate(sim, me, self.meeple_value)
            total += value
        return total / self.samples

    def _judged(self, game: Game, judge: Callable[[Game], list[Any]]) -> list[Any]:
        """``judge(position)`` on ``game`` with its hidden information (face-down chip values,
        the pile) re-dealt with the bot's generator, so the bot does not peek at what a covered
        chip is worth."""
        if _plain_scoring(game.rules):
            # plain rules judge on trials only (Game.push_placement), which leave the game as
            # it was: re-deal in place instead of copying the board
            game.push_redeal(self.rng)
            try:
                return judge(game)
            finally:
                game.pop()
        # a full push leaves a copy of the board in the game (its frontier patterns compacted,
        # which orders later moves): keep those on a copy
        return judge(game.copy(shuffle=self.rng))

    def _drawn(self, entries: list[_Entry], got: list[list[float]]) -> Move:
        """The move :func:`_ties` and the bot's generator would draw from the moves of
        ``entries`` valued ``got``, only that move built."""
        top, start, start_j, count = _tie_count(got)
        # the same draw as choice() over the ties' list
        k, j = _tie_at(got, top, start, start_j, self.rng.choice(range(count)))
        sq, rot, names = entries[k]
        return Move(sq, rot, names[j])

    def choose(self, game: Game) -> Action:
        if game.phase is Phase.PLACE and self.style is None:
            # the moves' values from the placement blocks, the moves built only for the ties
            entries = _placement_entries(game)
            if len(entries) == 1 and len(entries[0][2]) == 1:
                sq, rot, names = entries[0]
                return Move(sq, rot, names[0])
            me = game.decider
            mv = self.meeple_value
            got = self._judged(game, lambda view: _entry_values(view, entries, me, mv))
            return self._drawn(entries, got)
        moves = game.legal_moves().list()
        if len(moves) == 1:
            return moves[0]
        me = game.decider  # a rule may ask another player to choose inside the turn
        if game.phase is Phase.PLACE:
            values = self._judged(
                game, lambda view: placement_values(view, moves, me, self.meeple_value)
            )
        else:
            plain = _plain_scoring(game.rules)
            values = [self._lookahead(game, move, me, plain) for move in moves]
        if self.style is not None:
            bonuses = self.style.bonuses(game, moves)
            values = [v + b for v, b in zip(values, bonuses, strict=True)]
        return self.rng.choice(_ties(moves, values))


register_bot("greedy")(GreedyBot)
