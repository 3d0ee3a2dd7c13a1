# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython

from engine.board.preview cimport Previews
from engine.features cimport FeatureStore


cdef class MoveCounting(Previews):
    @cython.locals(groups=dict, lists=dict)
    cpdef list _fitting(self, tile_id)
    @cython.locals(
        f=FeatureStore, meeples=dict, parent=list, r=Py_ssize_t, now=list,
        roots=list, distinct=set, out=list, labels=dict,
    )
    cpdef contact_pattern(self, square)
    @cython.locals(
        tables=dict, meeples=dict, parent=list, src=dict, groups=dict, total=Py_ssize_t,
        run=list, r=Py_ssize_t,
    )
    cpdef Py_ssize_t move_blocks(self, tile_id, farmers, starts, blocks) except -1
