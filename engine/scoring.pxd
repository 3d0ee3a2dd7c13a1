# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_pxd_declarations.py checks these match it.
# The engine's compiled modules cimport these (game.pxd, greedy_bot.pxd, evaluation.pxd): a
# feature's points are C calls there, not Python calls between two extension modules.

cimport cython

from engine.features cimport FeatureStore


cpdef Py_ssize_t feature_points(
    Py_ssize_t kind, Py_ssize_t tiles, Py_ssize_t coa, bint final
) except -1
cpdef tuple majority(strengths)
@cython.locals(parent=list, done=set, kind=list, complete=set)
cpdef Py_ssize_t completed_cities(FeatureStore features, field_root) except -1
@cython.locals(kind=Py_ssize_t)
cpdef Py_ssize_t final_points(FeatureStore features, root, bint farmers) except -1
