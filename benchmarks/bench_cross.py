"""This engine's MCTS bot against 33fred33/CarcassonneAI's players, each on its own engine.

``python benchmarks/bench_cross.py PEER_CHECKOUT --opponent star25|mcts [--deals 100]
[--first 0] [--set NAME=VALUE ...] [--depth 1] [--peer-iterations 500] [--compiled DIR]
[--peer-python pypy3] [--jobs 2] [--until HH:MM]``

``PEER_CHECKOUT`` is a checkout of https://github.com/33fred33/CarcassonneAI; none of its code is
kept here. The classic game: 72 base tiles, 2 players, farmers. Our bot (``make_bot("mcts")``
with ``--set`` options, e.g. ``iterations=250``) decides in its own process on this engine
(``benchmarks/versus_worker.py``); the peer's Star2.5 expectimax (``--depth``, its
``MaxDepth``) or its MCTS (``--peer-iterations``, shipped 500) in another on the peer's
(``benchmarks/cross_peer_worker.py``). Each move goes to the other engine translated
(``benchmarks/cross_notation.py``: tile, rotation, square, meeple place), and after every move
the two engines' states are compared: the tiles on the board with their orientation, the
meeples placed, meeples in supply, the seat to move, the tile in hand (after tiles that fit
nowhere are set aside) and the end of the game. A difference ends that game as out of step: it
is named and not counted. Scores are not compared: this engine referees, since the peer
under-counts fields and counts a tile twice when a feature passes it twice; how often the
peer's own count names the same winner is printed.

``--peer-python`` runs the peer's worker under another interpreter: PyPy plays its MCTS (a
budget of iterations, so the same player) about twice as fast here (4-5 s of CPU a move at 500
iterations against about 8 s); where that interpreter has no NumPy, the worker gives the peer's
MCTS the four NumPy functions it calls (``sqrt``, ``log``, ``argmax``, ``argmin``) from the
standard library. The CPU per move printed is then PyPy's.

Both engines deal the same tiles: deal ``k`` is this engine's classic deal of seed ``k``,
handed to the peer as its deck. The peer's box has 3 O tiles and 2 P tiles (the base game has 2
and 3); the deal is from the base box. Deal ``k`` is played twice, our bot in seat 1 and then
in seat 2. Printed: our wins with the Wilson interval over games and the interval over deals,
the mean margin with its interval over deals, each side's CPU per move (``time.process_time``
in its own process, one core). ``--until HH:MM`` (UTC) starts no game after that time.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_versus import (  # noqa: E402
    OutOfStep,
    Side,
    Stopped,
    _options,
    _stop,
    deal_jobs,
    run_jobs,
    summary,
)
from benchmarks.cross_notation import Notation  # noqa: E402
from benchmarks.deadline import deadline  # noqa: E402
from engine.tiles import default_tileset  # noqa: E402


def differences(
    notation: Notation, ours: dict[str, Any], peer: dict[str, Any], placed: dict[Any, Any]
) -> list[str]:
    """What the two engines' states disagree about; ``placed`` is every meeple put on this
    engine's board so far, ``(x, y) -> [place, seat]``."""
    out = []
    st, look = ours["state"], ours["look"]
    mine = {(x, y): notation.canonical(t, r) for x, y, t, r in look["tiles"]}
    theirs = {(x, -y): notation.to_ours(t, r) for x, y, t, r in peer["tiles"]}
    if mine != theirs:
        sq = sorted(set(mine.items()) ^ set(theirs.items()))[0][0]
        out.append(f"square {sq}: this engine {mine.get(sq)}, the peer {theirs.get(sq)}")
    their_meeples = {}
    for x, y, feature, i, seat in peer["meeples"]:
        t, r = next((t, r) for xx, yy, t, r in peer["tiles"] if (xx, yy) == (x, y))
        their_meeples[x, -y] = [notation.place_of(t, r, (feature, i)), seat]
    if their_meeples != placed:
        out.append(f"meeples placed: this engine {placed}, the peer {their_meeples}")
    on_board = {(x, y): [loc, seat] for x, y, loc, seat in look["meeples"]}
    if any(placed.get(sq) != m for sq, m in on_board.items()):
        out.append(f"meeples on the board {on_board} were never placed so")
    if st[5] != peer["supply"]:
        out.append(f"meeples in supply: this engine {st[5]}, the peer {peer['supply']}")
    if st[7] != peer["over"]:
        out.append(f"game over: this engine {st[7]}, the peer {peer['over']}")
    elif not st[7]:
        if st[2] != peer["to_move"]:
            out.append(f"to move: this engine seat {st[2]}, the peer seat {peer['to_move']}")
        if st[3] != notation.type_of.get(peer["tile"]):
            out.append(f"tile in hand: this engine {st[3]}, the peer {peer['tile']}")
    return out


def play(
    sides: tuple[Side, Side], notation: Notation, deal: int, our_seat: int, cfg: dict[str, Any]
) -> dict[str, Any]:
    """One game, our bot in ``our_seat``; raises :class:`OutOfStep` on a difference."""
    ours, peer = sides
    seed = deal * 2 + 1
    got = ours.ask({"new": {"table": "classic", "deal": deal, "bot": cfg["opts"], "seed": seed}})
    got = ours.ask({"look": True})
    deck = [notation.index_of[t] for t in got["look"]["order"]]
    peer_spec = {"deck": deck, "seed": seed, **cfg["peer"]}
    peer_state = peer.ask({"new": peer_spec})["state"]
    placed: dict[Any, Any] = {}
    cpu, moves = [0.0, 0.0], [0, 0]
    while True:
        diff = differences(notation, got, peer_state, placed)
        if diff:
            raise OutOfStep(f"deal {deal}, turn {got['state'][0]}: " + "; ".join(diff))
        st = got["state"]
        if st[7]:
            break
        tile, seat = st[3], st[2]
        if seat == our_seat:
            mine = ours.ask({"choose": True, "look": True})
            cpu[0] += mine["cpu"]
            moves[0] += mine["searched"]
            action = mine["action"]
            answer = peer.ask({"apply": list(notation.move_to_peer(tile, action))})
            if "error" in answer:
                raise OutOfStep(f"deal {deal}: {answer['error']} (this engine's {action})")
            got, peer_state = mine, answer["state"]
        else:
            theirs = peer.ask({"choose": True})
            cpu[1] += theirs["cpu"]
            moves[1] += 1
            tile_id, action = notation.move_to_ours(theirs["move"])
            if tile_id != tile:
                raise OutOfStep(f"deal {deal}: the peer placed {tile_id}, this engine holds {tile}")
            got = ours.ask({"apply": action, "look": True})
            peer_state = theirs["state"]
        if action["meeple"] is not None:
            placed[action["x"], action["y"]] = [action["meeple"], seat]
    scores = got["state"][4]
    margin = scores[our_seat] - scores[1 - our_seat]
    peer_margin = peer_state["scores"][our_seat] - peer_state["scores"][1 - our_seat]
    return {
        "deal": deal,
        "seat": our_seat,
        "scores": scores,
        "peer_scores": peer_state["scores"],
        "result": 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0,
        "same_winner": (margin > 0) - (margin < 0) == (peer_margin > 0) - (peer_margin < 0),
        "margin": margin,
        "cpu": cpu,
        "searched": moves,
    }


def _peer_side(cfg: dict[str, Any]) -> Side:
    """The peer's worker process, in its checkout, by ``cfg["peer_python"]`` if given."""
    tree = Path(cfg["peer_tree"])
    return Side.start("peer", tree, tree, "cross_peer_worker.py", cfg["peer_python"])


def _worker(job: tuple[list[tuple[int, int]], dict[str, Any]]) -> dict[str, Any]:
    """Play ``games`` (deal, our seat) in one pair of worker processes."""
    games, cfg = job
    ours = Side.start("this engine's", REPO, Path(cfg["import"]))
    peer = _peer_side(cfg)
    notation = Notation(default_tileset(), peer.ask({"table": True})["table"])
    out: dict[str, Any] = {"games": [], "out_of_step": []}
    try:
        for deal, seat in games:
            if time.time() >= cfg["until"]:
                break
            try:
                g = play((ours, peer), notation, deal, seat, cfg)
            except OutOfStep as exc:
                print(f"  OUT OF STEP, not counted: {exc}", flush=True)
                out["out_of_step"].append(str(exc))
                ours.kill()  # a fresh pair: the peer may be mid-game
                peer.kill()
                ours = Side.start("this engine's", REPO, Path(cfg["import"]))
                peer = _peer_side(cfg)
                peer.ask({"table": True})
                continue
            except Stopped:
                break
            print(
                f"  deal {g['deal']} ours in seat {seat + 1}: scores {g['scores']} "
                f"(the peer's count {g['peer_scores']}) result {g['result']} cpu/move ours "
                f"{g['cpu'][0] / max(g['searched'][0], 1):.3f} peer "
                f"{g['cpu'][1] / max(g['searched'][1], 1):.3f}",
                flush=True,
            )
            out["games"].append(g)
    finally:
        ours.kill()
        peer.kill()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peer", type=Path, help="checkout of 33fred33/CarcassonneAI")
    ap.add_argument("--opponent", choices=("star25", "mcts"), required=True)
    ap.add_argument("--deals", type=int, default=100, help="deals, each played in both seats")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--depth", type=int, default=1, help="Star2.5's MaxDepth")
    ap.add_argument("--peer-iterations", type=int, default=500, help="the peer MCTS's budget")
    ap.add_argument("--compiled", type=Path, help="this checkout's compiled build (a directory)")
    ap.add_argument(
        "--peer-python",
        help="the interpreter of the peer's worker (default: this one), e.g. pypy3: the peer's "
        "budget is iterations, so a faster interpreter plays the same bot sooner",
    )
    ap.add_argument("--jobs", type=int, default=1, help="pairs of worker processes in parallel")
    ap.add_argument("--until", default=None, help="HH:MM UTC: start no game after that")
    args = ap.parse_args()
    peer = args.peer.resolve()
    if not (peer / "Carcassonne_Game" / "Carcassonne.py").is_file():
        ap.error(f"{peer}: no Carcassonne_Game/Carcassonne.py (not a CarcassonneAI checkout)")
    cfg = {
        "opts": _options(args.set),
        "peer": {"bot": args.opponent, "depth": args.depth, "iterations": args.peer_iterations},
        "peer_tree": str(peer),
        "peer_python": args.peer_python,
        "import": str(args.compiled.resolve() if args.compiled else REPO),
        "until": deadline(args.until),
    }
    jobs = deal_jobs(args.first, args.deals, args.jobs, cfg)
    them = (
        f"Star2.5 (depth {args.depth})"
        if args.opponent == "star25"
        else f"MCTS ({args.peer_iterations} iterations)"
    )
    build = "compiled" if args.compiled else "pure Python"
    print(
        f"classic: our MCTS ({build}, {cfg['opts'] or 'default'}) against the peer's {them}"
        f"{f' under {args.peer_python}' if args.peer_python else ''}, "
        f"{args.deals} deals",
        flush=True,
    )
    results: list[dict[str, Any]] = []
    signal.signal(signal.SIGTERM, _stop)
    try:
        for got in run_jobs(_worker, jobs):
            results.append(got)
    except Stopped:
        print("stopped (SIGTERM)", flush=True)
    played = [g for r in results for g in r["games"]]
    skipped = sum(len(r["out_of_step"]) for r in results)
    if played:
        print(summary(played, "classic", ("ours", "peer")))
        same = sum(g["same_winner"] for g in played)
        peer_margin = statistics.fmean(
            g["peer_scores"][g["seat"]] - g["peer_scores"][1 - g["seat"]] for g in played
        )
        print(
            f"the peer's own count names the same winner in {same} of {len(played)} games "
            f"(its mean margin for us {peer_margin:+.1f}); out of step, not counted: {skipped}"
        )
    return 1 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
