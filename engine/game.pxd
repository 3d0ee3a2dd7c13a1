# Cython declarations for the compiled build (docs/performance.md, "The compiled build"): the
# pure module stays the reference; tests/engine/test_pxd_declarations.py checks these match it.
# Game is an extension type there: its fields are C slots (no __dict__; the undo saves them
# with Game._fields), and the turn's steps are C calls between its methods.

cimport cython

from engine.scoring cimport completed_cities, feature_points, final_points, majority


cdef class Game:
    cdef public object map, map_path, options, seed, tileset, players, rng, board
    cdef public object meeples_per_player, _next_meeple, turn, to_move, round
    cdef public object current_tile, phase, last_placement, _extra_turns, _extra_turn_by
    cdef public object _skips, _pending, _hold_turn_end, _rng_saved, _rule_ctx, _hooks
    cdef public list scores, breakdown, supply, events, history, set_aside, start_tiles
    cdef public list pile, rules, _stack
    cdef public dict meeples, monks, rule_state
    cdef object __weakref__

    cpdef _begin_turn(self)
    cpdef _draw(self)
    cpdef _apply_move(self, move)
    cpdef _put_meeple(self, player, sq, loc)
    cpdef _score_and_continue(self)
    cpdef _end_turn(self)
    cpdef meeple_strength(self, meeple_id)
    @cython.locals(meeples=dict, n=Py_ssize_t, i=Py_ssize_t)
    cpdef majority_of(self, meeple_ids)
    cpdef _add_event(self, event)
    cpdef _apply(self, action, offered=*)
    cpdef tuple _fields(self)
    cpdef _set_fields(self, fields)
    cpdef _snapshot(self)
    @cython.locals(
        out=list, meeples=dict, parent=list, fmeeples=dict, fkind=list, seen=set,
        player=Py_ssize_t, node=Py_ssize_t, root=Py_ssize_t,
    )
    cpdef list projected_scores(self)
