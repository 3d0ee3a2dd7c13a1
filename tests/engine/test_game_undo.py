"""``Game``'s undo (``push``/``push_placement``/``push_redeal`` and ``pop``) keeps an explicit list
of the game's fields (``Game._fields``), not its ``__dict__`` (the compiled build's ``Game`` is an
extension type without one): the list names every field, and an undo puts every one back, along
whole games of several rule sets, on either build."""

from __future__ import annotations

import ast
import copy
import functools
import random
from pathlib import Path
from typing import Any

import pytest
from test_board_preview import board_state

from engine.analysis.simulate import new_game, rule_set_for
from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Move, Pass
from engine.resources import bundled_map

GAME_PY = Path(__file__).resolve().parents[2] / "engine" / "game.py"


def _game_class() -> ast.ClassDef:
    tree = ast.parse(GAME_PY.read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")


def _method(name: str) -> ast.FunctionDef:
    return next(n for n in _game_class().body if isinstance(n, ast.FunctionDef) and n.name == name)


def _self_names(node: ast.AST) -> list[str]:
    """The ``self.<name>`` of a tuple display, in order."""
    assert isinstance(node, ast.Tuple)
    out = []
    for elt in node.elts:
        assert isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name)
        assert elt.value.id == "self"
        out.append(elt.attr)
    return out


@functools.cache
def field_names() -> tuple[str, ...]:
    """The names of :meth:`Game._fields`, in its order."""
    ret = next(n for n in ast.walk(_method("_fields")) if isinstance(n, ast.Return))
    assert ret.value is not None
    return tuple(_self_names(ret.value))


def setup_names() -> list[str]:
    """The fields :meth:`Game._snapshot` copies besides :meth:`Game._fields` (set once)."""
    for node in ast.walk(_method("_snapshot")):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple):
            out = []
            for elt in node.targets[0].elts:
                assert isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name)
                assert elt.value.id == "g"
                out.append(elt.attr)
            assert _self_names(node.value) == out
            return out
    raise AssertionError("Game._snapshot copies no set-up fields")


def _self_stores(node: ast.AST) -> set[str]:
    return {
        n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
    }


def test_the_fields_name_every_field_but_the_undo_stack_in_one_order() -> None:
    names = field_names()
    assign = next(n for n in ast.walk(_method("_set_fields")) if isinstance(n, ast.Assign))
    assert tuple(_self_names(assign.targets[0])) == names
    assert names[-1] == "_rng_saved"  # Game.pop reads it last
    setup = setup_names()
    assert len({*names, *setup}) == len(names) + len(setup)
    assert _self_stores(_game_class()) - {"_stack"} == {*names, *setup}
    # the set-up fields, which no undo saves, are set by __init__ alone
    for fn in _game_class().body:
        if isinstance(fn, ast.FunctionDef) and fn.name not in ("__init__", "_set_fields"):
            assert not _self_stores(fn) & set(setup), fn.name
    game = Game(None, players=3, seed=2)
    assert len(game._fields()) == len(names)
    if hasattr(game, "__dict__"):  # the pure build: its instance dict is every field
        assert set(vars(game)) == {*names, *setup, "_stack"}
    other = game._snapshot()
    assert all(getattr(other, n) is getattr(game, n) for n in setup)
    other._set_fields(game._fields())
    assert all(a is b for a, b in zip(other._fields(), game._fields(), strict=True))


PLAIN = frozenset(
    (
        "scores",
        "breakdown",
        "supply",
        "meeples",
        "monks",
        "events",
        "history",
        "set_aside",
        "pile",
        "start_tiles",
        "_pending",
    )
)
"""Fields holding plain data that a move changes in place: compared by their values."""


def _snapshot(game: Game) -> tuple[Any, ...]:
    """What an undo must give back: the fields themselves, the plain data inside them, and
    the rest of the state by its summaries."""
    fields = game._fields()
    return (
        fields,
        [copy.deepcopy(v) for n, v in zip(field_names(), fields, strict=True) if n in PLAIN],
        game.state_summary(),
        board_state(game.board),
        game.rng.getstate(),
        len(game._stack),
    )


def _check_same(before: tuple[Any, ...], game: Game, *, identical: bool, where: str) -> None:
    """``identical``: every field is the same object as before (the undo of a trial or a
    re-deal puts the originals back); else (the undo of ``push`` puts back copies) the plain
    data are equal and the rest is the same object (the board and the rules' states are
    copies, compared by their summaries)."""
    fields, *values = before
    now, *now_values = _snapshot(game)
    assert now_values == values, where
    for name, a, b in zip(field_names(), fields, now, strict=True):
        if identical or (name not in PLAIN and name not in ("board", "rule_state")):
            assert a is b, f"{where}: field {name} is another object"


def _setups() -> dict[str, Any]:
    deutschland = load_map(bundled_map("deutschland"))
    rule_set, _ = rule_set_for(deutschland, True)
    towns = GameOptions(town_extra_tile=True, town_cost=True, town_road_bonus=True)
    return {
        "classic": lambda: Game(None, players=2, seed=4),
        "deutschland": lambda: new_game(deutschland, 4, 5, rule_set),
        "france-towns": lambda: Game(
            load_map(bundled_map("france")), players=3, seed=6, options=towns
        ),
        "benelux": lambda: Game(load_map(bundled_map("benelux")), players=3, seed=7),
    }


@pytest.mark.parametrize("setup", ["classic", "deutschland", "france-towns", "benelux"])
def test_every_undo_puts_every_field_back_along_a_whole_game(setup: str) -> None:
    game = _setups()[setup]()
    rng = random.Random(setup)
    undone = {"push": 0, "push_placement": 0, "push_redeal": 0}
    while not game.is_over():
        moves = game.legal_moves().list()
        where = f"{setup} turn {game.turn} {game.phase.value}"
        for move in rng.sample(moves, min(2, len(moves))):
            before = _snapshot(game)
            if game.phase is Phase.PLACE and isinstance(move, Move):
                game.push_placement(move)
                if game.phase is Phase.ACTION and Pass() in game.legal_moves():
                    game.apply(Pass())
                game.pop()
                _check_same(before, game, identical=True, where=f"{where} push_placement")
                undone["push_placement"] += 1
            game.push(move)
            if not game.is_over():
                game.push(rng.choice(game.legal_moves().list()))
                game.pop()
            game.pop()
            _check_same(before, game, identical=False, where=f"{where} push")
            undone["push"] += 1
        if game.phase is Phase.PLACE:
            before = _snapshot(game)
            game.push_redeal(random.Random(game.turn))
            game.pop()
            _check_same(before, game, identical=True, where=f"{where} push_redeal")
            undone["push_redeal"] += 1
        game.apply(rng.choice(moves))
    assert min(undone.values()) > 40, undone
