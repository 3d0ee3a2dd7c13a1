# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython

from engine.board.state cimport BoardState
from engine.board.tiletables cimport OrientedTile
from engine.features cimport FeatureStore


cdef class PreviewFeature:
    cdef public Py_ssize_t kind, open, tiles, coa
    cdef public tuple roots, meeples, own_cities
    cdef public object cities

    cpdef tuple fields(self)


cdef class Previews(BoardState):
    @cython.locals(sides=tuple, side=tuple)
    cpdef preview_sides(self, square)
    @cython.locals(
        memo=dict, f=FeatureStore, key=tuple, got=tuple, fopen=list, fcoa=list, fmeeples=dict,
        ftiles=list, cities_of=dict, check=list, pv=PreviewFeature, field=bint, made=tuple,
    )
    cpdef tuple preview(self, square, tile_id, rotation, sides)
    @cython.locals(
        parent=list, side=tuple, tiles=dict, all_nodes=dict, x=Py_ssize_t, y=Py_ssize_t,
        s=Py_ssize_t, dx=Py_ssize_t, dy=Py_ssize_t, other=OrientedTile, k=Py_ssize_t,
        halves=list, j=Py_ssize_t, hh=Py_ssize_t, out=list,
    )
    cpdef tuple _sides(self, square)
    @cython.locals(
        o=OrientedTile, f=FeatureStore, kinds=tuple, opens=list, joins=list, borders=list,
        edges=str, side_seg=tuple, half_seg=tuple, s=Py_ssize_t, side=tuple, a=Py_ssize_t,
        owner=dict, seg=Py_ssize_t, count=Py_ssize_t, joined=dict,
        g_roots=list, fopen=list, ftiles=list, fcoa=list, fmeeples=dict, cities_of=dict,
        ocoa=tuple, ocities=tuple, out=list, g=Py_ssize_t, rs=tuple, head=Py_ssize_t,
        kind=Py_ssize_t, coa=Py_ssize_t, open_edges=Py_ssize_t, i=Py_ssize_t, tiles=Py_ssize_t,
        fresh=tuple, o_open=tuple,
    )
    cpdef tuple _preview(self, square, tile_id, rotation, sides)
