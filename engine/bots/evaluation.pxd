# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_pxd_declarations.py checks these match it.

cimport cython

from engine.scoring cimport final_points

from engine.board.placing cimport Board
from engine.features cimport FeatureStore


@cython.locals(
    n=Py_ssize_t, parts=list, board=Board, f=FeatureStore, kinds=list, on_feature=dict,
    seen=set, root=Py_ssize_t, slot=Py_ssize_t, left_n=Py_ssize_t, left=double, out=list,
    p=Py_ssize_t, c=double, r=double, m=double, fl=double, s=double,
)
cpdef list seat_features(game)
