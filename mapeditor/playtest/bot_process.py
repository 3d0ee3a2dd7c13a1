"""The bots' own process: it keeps its own engine game, rebuilt from the actions the window sends,
and answers "choose an action for this player" with the action's JSON form.

A thread is not enough to keep the window smooth: the bots are pure Python, so a thinking bot
holds the GIL and the UI thread only gets it back in 5 ms slices. In a process the bots never
touch the UI thread's interpreter. This module imports no Qt, so the child process starts fast.

Messages (pickled over a :func:`multiprocessing.Pipe`):

* ``("game", game_id, header)``: a new game; ``header`` is a game record without actions.
* ``("choose", token, game_id, actions, player, kind, strength, seed)``: play ``actions`` (all
  of them, JSON forms; only the new ones are replayed) and choose for ``player``.
* ``("stop",)``.

Answers: ``("chosen", token, action_dict)`` or ``("failed", token, message)``.
"""

from __future__ import annotations

import traceback
from typing import Any

from mapeditor.lifeline import exit_with_parent


def make_bot(kind: str, strength: int, seed: int) -> Any:
    """The engine bot of a seat (shared with the thread worker)."""
    from engine.bots import make_bot as engine_bot

    if kind == "mcts":
        # strength levels 1..10 are the engine's (engine.bots.mcts_bot.LEVELS, docs/bots.md)
        return engine_bot("mcts", level=max(1, min(10, strength)), seed=seed)
    return engine_bot(kind, seed=seed)


class _Session:
    """The child's copy of the window's game, advanced by the actions it is sent."""

    def __init__(self) -> None:
        self.headers: dict[int, dict[str, Any]] = {}
        self.game_id: int | None = None
        self.game: Any = None
        self.applied: list[dict[str, Any]] = []
        self.bots: dict[tuple[int, int, str, int, int], Any] = {}

    def _sync(self, game_id: int, actions: list[dict[str, Any]]) -> Any:
        from engine.moves import action_from_dict
        from engine.record import GameRecord
        from engine.replaying import new_game

        n = len(self.applied)
        reuse = (
            self.game_id == game_id
            and self.game is not None
            and n <= len(actions)
            and actions[:n] == self.applied
        )
        if not reuse:
            record = GameRecord.from_dict(self.headers[game_id], source="playtest window")
            self.game = new_game(record)
            self.game_id = game_id
            self.applied = []
        for data in actions[len(self.applied) :]:
            self.game.play(action_from_dict(data, self.game.rules))
            self.applied.append(data)
        return self.game

    def choose(
        self,
        game_id: int,
        actions: list[dict[str, Any]],
        player: int,
        kind: str,
        strength: int,
        seed: int,
    ) -> dict[str, Any]:
        game = self._sync(game_id, actions)
        if game.decider != player:
            raise RuntimeError(f"player {player} is not to act (player {game.decider} is)")
        # one bot per seat and game: the same seed then plays the same game again
        key = (game_id, player, kind, strength, seed)
        bot = self.bots.get(key)
        if bot is None:
            bot = self.bots[key] = make_bot(kind, strength, seed)
        answer: dict[str, Any] = bot.choose(game.copy()).to_dict()
        return answer


_pool_session: _Session | None = None


def warm_up() -> None:
    """Import the bots in a pool's worker before the first turn asks for them."""
    import engine.bots  # noqa: F401


def choose_in_pool(
    game_id: int,
    header: dict[str, Any],
    actions: list[dict[str, Any]],
    player: int,
    kind: str,
    strength: int,
    seed: int,
) -> dict[str, Any]:
    """:meth:`_Session.choose` for a process pool's worker (the online host's bots): the
    worker keeps its session, so each call replays only the actions it has not seen."""
    global _pool_session
    if _pool_session is None:
        _pool_session = _Session()
    _pool_session.headers[game_id] = header
    return _pool_session.choose(game_id, actions, player, kind, strength, seed)


def serve(conn: Any, parent_pid: int | None = None) -> None:
    """The child process' loop (it ends with the process ``parent_pid`` when given)."""
    if parent_pid is not None:
        exit_with_parent(parent_pid)
    session = _Session()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg[0] == "stop":
            return
        if msg[0] == "game":
            _tag, game_id, header = msg
            session.headers[game_id] = header
            # windows ask about their newest games only: keep a few, forget older ones
            for old in list(session.headers)[:-16]:
                del session.headers[old]
            session.bots = {k: b for k, b in session.bots.items() if k[0] in session.headers}
            continue
        if msg[0] == "choose":
            _tag, token, game_id, actions, player, kind, strength, seed = msg
            answer: tuple[str, Any, Any]
            try:
                answer = (
                    "chosen",
                    token,
                    session.choose(game_id, actions, player, kind, strength, seed),
                )
            except Exception as exc:  # noqa: BLE001 - report every bot failure to the window
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                answer = ("failed", token, detail)
            try:
                conn.send(answer)
            except (EOFError, OSError):
                return
