# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_pxd_declarations.py checks these match it.
# _Node is an extension type there: the search reads and adds to its statistics as C fields.


cdef class _Node:
    cdef public Py_ssize_t player, visits, avail
    cdef public double total, prior
    cdef public dict children, orders
    cdef public list sums
