# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython

from engine.board.counting cimport MoveCounting
from engine.board.tiletables cimport OrientedTile
from engine.features cimport FeatureStore


cdef class Board(MoveCounting):
    @cython.locals(o=OrientedTile, sides=dict, x=Py_ssize_t, y=Py_ssize_t)
    cpdef tuple place(self, square, tile_id, rotation)
    @cython.locals(o=OrientedTile, f=FeatureStore, parent=list, nid=Py_ssize_t, k=Py_ssize_t)
    cpdef list _add_nodes(self, square, o)
    @cython.locals(
        tiles=dict, all_nodes=dict, src=dict, f=FeatureStore, parent=list, side_seg=tuple,
        half_seg=tuple, edges=str, x=Py_ssize_t, y=Py_ssize_t, s=Py_ssize_t, dx=Py_ssize_t,
        dy=Py_ssize_t, other=OrientedTile, k=Py_ssize_t, a=Py_ssize_t, b=Py_ssize_t,
        hh=Py_ssize_t, partner=Py_ssize_t,
    )
    cpdef _connect_sides(self, square, o, nodes)
    @cython.locals(
        s=Py_ssize_t, o=OrientedTile, nodes=list, t=Py_ssize_t, k=Py_ssize_t, half_seg=tuple,
        cn=list, req=dict, front=dict, groups=dict, owned=set, group=dict, grp=dict,
    )
    cpdef _meet_empty(self, square, s, o, nodes, q)
