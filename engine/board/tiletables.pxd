# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_build.py checks these match it.


cdef class OrientedTile:
    cdef public object tile_id, rotation
    cdef public str edges
    cdef public tuple kinds, sides, halves, coa, cities, side_seg, half_seg, pos_seg
    cdef public tuple locations, names, shape, open_edges, heads, dense, dense_cities
    cdef public tuple node_kinds, node_open, node_coa, city_links, with_edge
    cdef public dict aliases
