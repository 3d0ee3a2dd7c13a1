# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython


cdef class FeatureStore:
    cdef public list parent, kind, open, tiles, coa
    cdef public dict meeples, cities, label
    cdef public set done
    cdef public object log

    @cython.locals(parent=list)
    cpdef Py_ssize_t find(self, Py_ssize_t i) except -1
    cpdef save(self, Py_ssize_t root)
    @cython.locals(other=FeatureStore)
    cpdef FeatureStore copy(self)
