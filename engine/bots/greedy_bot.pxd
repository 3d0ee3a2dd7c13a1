# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython

from engine.scoring cimport completed_cities, feature_points

from engine.board.placing cimport Board
from engine.board.preview cimport PreviewFeature
from engine.board.tiletables cimport OrientedTile
from engine.features cimport FeatureStore
from engine.game cimport Game


cdef class _Projection:
    cdef public Py_ssize_t n_meeples, n_done
    cdef public list roots, monks, total
    cdef public dict adds_of, fields_of
    cdef public set near_monks
    cdef public list best_others

    @cython.locals(adds_of=dict, fields_of=dict, side=tuple)
    cpdef bint quiet(self, square, sides) except -1
    @cython.locals(me=Py_ssize_t)
    cpdef quiet_base(self, Game game, square, sides, points, meeple_value)
    @cython.locals(
        board=Board, f=FeatureStore, parent=list, fkind=list, fmeeples=dict, done=set,
        cities_of=dict, meeples=dict, total=list, adds_of=dict, fields_of=dict, near=set,
        found=set, p=Py_ssize_t, mx=Py_ssize_t, my=Py_ssize_t, dx=Py_ssize_t, dy=Py_ssize_t,
        root=Py_ssize_t, node=Py_ssize_t, c=Py_ssize_t, kind=Py_ssize_t, player=Py_ssize_t,
        pts=Py_ssize_t,
    )
    cpdef _project(self, Game game)
    @cython.locals(
        board=Board, f=FeatureStore, merged=dict, values=list, g=Py_ssize_t, o=OrientedTile,
        pv=PreviewFeature,
    )
    cpdef list preview_values(
        self, Game game, square, rotation, sides, points, locations, meeple_value, quiet_base
    )
    @cython.locals(
        parent=list, done=set, fkind=list, complete=set, k=Py_ssize_t, pv=PreviewFeature,
    )
    cpdef _field_points(self, FeatureStore f, dict merged, list groups, city_nodes, own)
    @cython.locals(
        board=Board, f=FeatureStore, meeples=dict, out=list, adds_of=dict, fields_of=dict,
        recount=dict, me=Py_ssize_t, p=Py_ssize_t, x=Py_ssize_t, y=Py_ssize_t, mx=Py_ssize_t,
        my=Py_ssize_t, pv=PreviewFeature,
    )
    cpdef _joined_value(self, Game game, square, points, meeple_value, merged, groups)


cdef class _Judge:
    cdef public Game game
    cdef public object meeple_value, rules, push
    cdef public list points
    cdef public Py_ssize_t me
    cdef public bint blind, plain
    cdef public _Projection projection
    cdef public dict previews

    @cython.locals(
        seen=dict, orders=dict, values=list, k=Py_ssize_t, twins=bint, first=Py_ssize_t, game=Game,
        first_values=list,
    )
    cpdef list entry_values(self, list entries)
    @cython.locals(previews=dict, projection=_Projection)
    cpdef list values(self, sq, rot, locs)
    @cython.locals(projection=_Projection, game=Game, board=Board)
    cpdef _inputs(self, sq)
    @cython.locals(projection=_Projection, values=list, later=list, game=Game)
    cpdef list _played(self, sq, rot, locs)


@cython.locals(
    top=double, value=double, k=Py_ssize_t, j=Py_ssize_t, start=Py_ssize_t, start_j=Py_ssize_t,
    count=Py_ssize_t, values=list, high=double,
)
cpdef tuple _tie_count(list got)
@cython.locals(k=Py_ssize_t, j=Py_ssize_t, values=list)
cpdef tuple _tie_at(list got, double top, Py_ssize_t start, Py_ssize_t start_j, Py_ssize_t left)
@cython.locals(entries=list, by_rotation=list, i=Py_ssize_t)
cpdef list _placement_entries(game)
@cython.locals(
    entries=list, values=list, highs=list, best=list, k=Py_ssize_t, j=Py_ssize_t, got=list,
    names=list, top=double, high=double, v=double,
)
cpdef list best_placements(game, me, meeple_value)
@cython.locals(found=bint, i=Py_ssize_t)
cpdef _best_other(list scores, Py_ssize_t player)
@cython.locals(proj=list)
cpdef evaluate(Game game, Py_ssize_t player, meeple_value=*)
@cython.locals(i=Py_ssize_t, best=list)
cpdef list _ties(list moves, list values)
cpdef bint _plain_scoring(rules) except -1
cpdef bint _same_locations(list a, list b) except -1
