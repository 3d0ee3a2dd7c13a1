"""benchmarks/bench_cross.py and its notation: this engine's moves in 33fred33/CarcassonneAI's
terms and back, and the turn-by-turn check of the two engines' states (no peer checkout needed).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_cross import differences, play  # noqa: E402
from benchmarks.bench_versus import OutOfStep  # noqa: E402
from benchmarks.cross_notation import Notation, NotationError, our_parts, peer_tiles  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.tiles import default_tileset  # noqa: E402

# The peer's tile table (its Carcassonne_Game/Tile_dict.py) as its worker sends it, in JSON form.
PEER_TABLE: dict[str, Any] = {
    "TILE_COUNT_DICT": {
        "0": 1, "1": 3, "2": 1, "3": 1, "4": 2, "5": 3, "6": 2, "7": 2, "8": 2, "9": 3, "10": 1,
        "11": 3, "12": 2, "13": 5, "14": 3, "15": 2, "16": 4, "17": 3, "18": 3, "19": 4, "20": 4,
        "21": 9, "22": 8, "23": 1,
    },
    "NO_ROTATIONS": [0, 20, 23],
    "ONE_ROTATION": [10, 11, 12, 22],
    "CITY_OPENINGS_DICT": {
        "0": [[0, 1, 2, 3]], "1": [[0, 1, 2]], "2": [[0, 1, 2]], "3": [[0, 1, 2]],
        "4": [[0, 1, 2]], "5": [[1, 2]], "6": [[1], [2]], "7": [[1, 2]], "8": [[1, 2]],
        "9": [[1, 2]], "10": [[0, 2]], "11": [[1], [3]], "12": [[0, 2]], "13": [[1]],
        "14": [[1]], "16": [[1]], "17": [[1]], "18": [[1]],
    },
    "ROAD_OPENINGS_DICT": {
        "3": [[3]], "4": [[3]], "8": [[0, 3]], "9": [[0, 3]], "14": [[0, 3]], "15": [[3]],
        "16": [[0, 2]], "17": [[2, 3]], "18": [[0], [2], [3]], "19": [[0], [2], [3]],
        "21": [[0, 3]], "22": [[0, 2]], "23": [[0], [1], [2], [3]],
    },
    "FARM_OPENINGS_DICT": {
        "1": [[[3, 1]]], "2": [[[3, 1]]], "3": [[[3, 0]], [[3, 2]]], "4": [[[3, 0]], [[3, 2]]],
        "5": [[[0, 1], [3, 1]]], "6": [[[0, 1], [3, 1]]], "7": [[[0, 1], [3, 1]]],
        "8": [[[0, 0], [3, 2]], [[0, 2], [3, 0]]], "9": [[[0, 0], [3, 2]], [[0, 2], [3, 0]]],
        "10": [[[1, 1]], [[3, 1]]], "11": [[[0, 1], [2, 1]]], "12": [[[1, 1]], [[3, 1]]],
        "13": [[[0, 1], [2, 1], [3, 1]]], "14": [[[0, 0], [3, 2]], [[0, 2], [2, 1], [3, 0]]],
        "15": [[[0, 1], [1, 1], [2, 1], [3, 0], [3, 2]]],
        "16": [[[0, 0], [2, 2], [3, 1]], [[0, 2], [2, 0]]],
        "17": [[[0, 1], [2, 0], [3, 2]], [[2, 2], [3, 0]]],
        "18": [[[0, 0], [3, 2]], [[0, 2], [2, 0]], [[2, 2], [3, 0]]],
        "19": [[[0, 0], [3, 2]], [[0, 2], [1, 1], [2, 0]], [[2, 2], [3, 0]]],
        "20": [[[0, 1], [1, 1], [2, 1], [3, 1]]],
        "21": [[[0, 0], [3, 2]], [[0, 2], [1, 1], [2, 1], [3, 0]]],
        "22": [[[0, 0], [2, 2], [3, 1]], [[0, 2], [1, 1], [2, 0]]],
        "23": [[[0, 0], [3, 2]], [[0, 2], [1, 0]], [[1, 2], [2, 0]], [[2, 2], [3, 0]]],
    },
    "IS_DOUBLE": [0, 2, 4, 7, 9, 12],
    "HAS_MONASTERY": [15, 20],
}  # fmt: skip

BASE = [t for t in default_tileset() if t.expansion == "base"]


@pytest.fixture(scope="module")
def notation() -> Notation:
    return Notation(default_tileset(), PEER_TABLE)


def test_each_peer_tile_is_one_base_tile_and_the_boxes_differ_in_o_and_p(
    notation: Notation,
) -> None:
    assert sorted(notation.type_of.values()) == sorted(t.id for t in BASE)  # one to one
    assert notation.to_peer("D", 0) == (16, 0)  # both start with city N, road W-E
    assert notation.type_of[0] == "C" and notation.type_of[20] == "B"
    assert notation.box_differences() == [
        "O (peer tile 9): 2 here, 3 there",
        "P (peer tile 8): 3 here, 2 there",
    ]


def test_our_moves_round_trip_over_all_tiles_rotations_and_meeple_places(
    notation: Notation,
) -> None:
    oriented = Game(None).board.compiled.oriented
    count = 0
    for tile in BASE:
        for rot in (0, 90, 180, 270):
            places = oriented[tile.id][rot // 90].names
            # the notation's canonical names are the engine's own
            assert sorted(name for name, _part in our_parts(tile, rot)) == sorted(places)
            parts = dict(our_parts(tile, rot))
            for place in (None, *places):
                action = {"type": "place", "x": 3, "y": -2, "rotation": rot, "meeple": place}
                index, x, y, peer_rot, key = notation.move_to_peer(tile.id, action)
                assert (x, y) == (3, 2)  # the peer's y grows upwards
                assert peer_rot in notation.peer[index].rotations
                tile_id, back = notation.move_to_ours((index, x, y, peer_rot, key))
                assert tile_id == tile.id
                # a symmetric tile comes back at the smallest rotation that looks the same
                assert back["rotation"] == notation.canonical(tile.id, rot)[1] <= rot
                assert dict(our_parts(tile, back["rotation"])) == parts
                assert back == {**action, "rotation": back["rotation"]}
                count += 1
    assert count == 4 * (24 + 83)  # 4 rotations x (no meeple, or one on each of 83 segments)


def test_peer_moves_round_trip_over_its_rotations_and_meeple_keys(notation: Notation) -> None:
    for index, tile in notation.peer.items():
        for rot in tile.rotations:
            for key in (None, *tile.parts(rot)):
                move = (index, -1, 4, rot, key)
                tile_id, action = notation.move_to_ours(move)
                assert (action["x"], action["y"]) == (-1, -4)
                assert notation.move_to_peer(tile_id, action) == move


def test_a_field_key_names_the_half_sides_it_covers(notation: Notation) -> None:
    # peer tile 21 (our V, road W-S): field 0 is the corner between the road's ends
    tile_id, action = notation.move_to_ours((21, 0, 0, 0, ("G", 0)))
    assert (tile_id, action["rotation"], action["meeple"]) == ("V", 0, "SR")
    assert dict(our_parts(default_tileset()["V"], 0))["SR"] == ("field", {"SR", "WL"})
    # turned a quarter clockwise, the same corner is W-N
    assert notation.move_to_ours((21, 0, 0, 90, ("G", 0)))[1]["meeple"] in {"WR", "NL"}


def test_unknown_moves_and_tables_are_refused_by_name(notation: Notation) -> None:
    with pytest.raises(
        NotationError, match=r"peer tile 22 at rotation 0: no meeple key \('C', 0\)"
    ):
        notation.move_to_ours((22, 0, 0, 0, ("C", 0)))
    with pytest.raises(NotationError, match="peer tile 22 at rotation 180: not in its table"):
        notation.move_to_ours((22, 0, 0, 180, None))
    with pytest.raises(NotationError, match="the peer plays only placements"):
        notation.move_to_peer("U", {"type": "pass"})
    with pytest.raises(NotationError, match="the peer's tile table: no 'IS_DOUBLE'"):
        peer_tiles({k: v for k, v in PEER_TABLE.items() if k != "IS_DOUBLE"})
    bent = {
        **PEER_TABLE,
        "ROAD_OPENINGS_DICT": {**PEER_TABLE["ROAD_OPENINGS_DICT"], "22": [[0, 1]]},
    }
    with pytest.raises(NotationError, match="peer tile 22 at rotation 0: no base tile"):
        Notation(default_tileset(), bent)


def _ours(tiles: list[list[Any]], supply: list[int], meeples: list[list[Any]]) -> dict[str, Any]:
    state = [1, "PLACE", 1, "U", [0, 0], supply, 1, False]
    return {"state": state, "look": {"tiles": tiles, "meeples": meeples, "order": []}}


def _peer(tiles: list[list[Any]], supply: list[int], meeples: list[list[Any]]) -> dict[str, Any]:
    return {"tiles": tiles, "meeples": meeples, "supply": supply, "to_move": 1, "tile": 22,
            "over": False, "scores": [0, 0]}  # fmt: skip


def test_the_states_are_compared_square_by_square_and_meeple_by_meeple(
    notation: Notation,
) -> None:
    # our V at (1, 1) rotation 180 with a meeple on its road, the peer's 21 at (1, -1)
    ours = _ours([[0, 0, "D", 0], [1, 1, "V", 180]], [6, 7], [[1, 1, "N", 0]])
    road = notation.key_of("V", 180, "N")
    peer = _peer([[0, 0, 16, 0], [1, -1, 21, 180]], [6, 7], [[1, -1, *road, 0]])
    placed = {(1, 1): ["N", 0]}
    assert differences(notation, ours, peer, placed) == []
    turned = _peer([[0, 0, 16, 0], [1, -1, 21, 90]], [6, 7], [[1, -1, *road, 0]])
    assert (
        "square (1, 1): this engine ('V', 180), the peer ('V', 90)"
        in differences(notation, ours, turned, placed)[0]
    )
    assert differences(notation, ours, _peer(peer["tiles"], [7, 7], peer["meeples"]), placed) == [
        "meeples in supply: this engine [6, 7], the peer [7, 7]"
    ]
    assert (
        "meeples placed" in differences(notation, ours, _peer(peer["tiles"], [6, 7], []), placed)[0]
    )
    wrong_hand = {**peer, "tile": 21}
    assert differences(notation, ours, wrong_hand, placed) == [
        "tile in hand: this engine U, the peer 21"
    ]


class _Scripted:
    """A side that answers each kind of request with a fixed reply."""

    def __init__(self, name: str, replies: dict[str, dict[str, Any]]) -> None:
        self.name = name
        self.replies = replies
        self.asked: list[dict[str, Any]] = []

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(request)
        kind = next(k for k in ("new", "choose", "apply", "look") if k in request)
        return self.replies[kind]


def _one_move_game(peer_supply: list[int]) -> tuple[_Scripted, _Scripted]:
    start = _ours([[0, 0, "D", 0]], [7, 7], [])
    start["state"] = [0, "PLACE", 0, "U", [0, 0], [7, 7], 0, False]
    start["look"]["order"] = ["U"]
    end = _ours([[0, 0, "D", 0], [1, 0, "U", 0]], [7, 7], [])
    end["state"] = [1, "OVER", 1, None, [3, 1], [7, 7], 1, True]
    action = {"type": "place", "x": 1, "y": 0, "rotation": 0, "meeple": None}
    ours = _Scripted(
        "ours",
        {"new": {}, "look": start, "choose": {**end, "action": action, "cpu": 0.2, "searched": 1}},
    )
    peer_start = {**_peer([[0, 0, 16, 0]], [7, 7], []), "to_move": 0, "tile": 22}
    peer_end = {**_peer([[0, 0, 16, 0], [1, 0, 22, 0]], peer_supply, []), "over": True}
    peer = _Scripted("peer", {"new": {"state": peer_start}, "apply": {"state": peer_end}})
    return ours, peer


def test_a_game_is_dealt_alike_played_across_and_refereed_here(notation: Notation) -> None:
    ours, peer = _one_move_game([7, 7])
    cfg = {"opts": {}, "peer": {"bot": "star25", "depth": 1, "iterations": 500}}
    g = play((ours, peer), notation, 4, 0, cfg)  # type: ignore[arg-type]
    assert peer.asked[0]["new"]["deck"] == [22]  # our deal, in the peer's numbers
    assert peer.asked[1] == {"apply": [22, 1, 0, 0, None]}
    assert (g["result"], g["margin"], g["scores"]) == (1.0, 2, [3, 1])
    assert g["cpu"] == [0.2, 0.0] and g["searched"] == [1, 0]


def test_engines_out_of_step_stop_the_game_naming_deal_turn_and_difference(
    notation: Notation,
) -> None:
    ours, peer = _one_move_game([6, 7])
    cfg = {"opts": {}, "peer": {"bot": "star25", "depth": 1, "iterations": 500}}
    with pytest.raises(
        OutOfStep,
        match=r"deal 4, turn 1: meeples in supply: this engine \[7, 7\], the peer \[6, 7\]",
    ):
        play((ours, peer), notation, 4, 0, cfg)  # type: ignore[arg-type]
