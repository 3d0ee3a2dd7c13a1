# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

cimport cython

from engine.features cimport FeatureStore


cdef class BoardState:
    cdef public object map, tileset, compiled, layout
    cdef public dict tiles, nodes, req, _front, _groups, _fit_lists, monasteries, _mon_watch
    cdef public dict city_node, stub_node, ferry_node, _side_cache, _contact_src
    cdef public list order
    cdef public set _owned, active_cities, opened_ferries
    cdef public object _fit_src, _log, _preview_memo
    cdef public Py_ssize_t _fit_seen
    cdef public FeatureStore features

    @cython.locals(b=BoardState)
    cpdef copy(self)
    @cython.locals(f=FeatureStore, log=list)
    cpdef begin_trial(self)
    @cython.locals(f=FeatureStore, log=list, k=Py_ssize_t, entry=tuple, n=Py_ssize_t, order=list)
    cpdef end_trial(self, mark)
    @cython.locals(groups=dict)
    cpdef dict _group(self, p)
    cpdef _front_add(self, q)
    cpdef _front_remove(self, q)
    @cython.locals(x=Py_ssize_t, y=Py_ssize_t, n=Py_ssize_t, dx=Py_ssize_t, dy=Py_ssize_t)
    cpdef Py_ssize_t neighbour_count(self, square) except -1
    cpdef Py_ssize_t monk_neighbour_count(self, square) except -1
    @cython.locals(
        x=Py_ssize_t, y=Py_ssize_t, n=Py_ssize_t, dx=Py_ssize_t, dy=Py_ssize_t, placeable=frozenset,
        city_of=dict,
    )
    cpdef Py_ssize_t _around(self, square) except -1
    @cython.locals(
        x=Py_ssize_t, y=Py_ssize_t, n=Py_ssize_t, dx=Py_ssize_t, dy=Py_ssize_t, tiles=dict,
    )
    cpdef Py_ssize_t monastery_neighbours_left(self, square) except -1
