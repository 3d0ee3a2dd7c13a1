# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_pxd_declarations.py checks these match it.
# _Node is an extension type there: the search reads and adds to its statistics as C fields.

cimport cython


cdef class _Node:
    cdef public Py_ssize_t player, visits, avail
    cdef public double total, prior
    cdef public dict children, orders
    cdef public list sums


@cython.locals(
    rank=Py_ssize_t, child=_Node, n=double, q=double, score=double, best_score=double,
)
cpdef tuple _ucb_pick(
    list ordered, dict children, Py_ssize_t allowed, Py_ssize_t expanded, double c, double n0,
    double base,
)
@cython.locals(n=_Node, sums=list, p=Py_ssize_t)
cpdef _backup(list path, list rewards)
@cython.locals(n=Py_ssize_t)
cpdef Py_ssize_t _expanded(list ordered, dict children) except -1
