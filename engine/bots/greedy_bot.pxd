# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython


cdef class _Projection:
    cdef public Py_ssize_t n_meeples, n_done
    cdef public list roots, monks, total
    cdef public dict adds_of, fields_of
    cdef public set near_monks
    cdef public list best_others

    @cython.locals(adds_of=dict, fields_of=dict, side=tuple)
    cpdef bint quiet(self, square, sides) except -1
