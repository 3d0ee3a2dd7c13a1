# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.

from engine.features cimport FeatureStore


cdef class BoardState:
    cdef public object map, tileset, compiled, layout
    cdef public dict tiles, nodes, req, _front, _groups, _fit_lists, monasteries, _mon_watch
    cdef public dict city_node, stub_node, ferry_node, _side_cache, _contact_src
    cdef public list order
    cdef public set _owned, active_cities, opened_ferries
    cdef public object _fit_src, _log
    cdef public Py_ssize_t _fit_seen
    cdef public FeatureStore features
