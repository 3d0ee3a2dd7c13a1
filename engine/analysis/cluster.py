"""Play a simulation's games on a Dask cluster (the optional ``cluster`` extra).

``simulate(..., scheduler="tcp://HOST:8786")`` connects to a running Dask scheduler and sends
chunks of games to its workers; ``scheduler="local"`` starts a local cluster of worker processes
for the run (a stand-in for a real one, and a way to try the path on one machine).

What stays as with local processes:

* **Reproducibility.** Game ``i`` depends on its game seed only and the facts are put back in game
  order, so the report is the same as a local run's, whatever the number of workers or which
  worker played which chunk.
* **Progress.** ``progress(done, total)`` is called as chunks finish (the command line's tqdm bar).
* **Cancelling.** When ``cancel()`` turns true the outstanding chunks are cancelled.

A worker that dies (killed, out of memory, its machine gone) loses the chunk it was playing: the
scheduler gives it to another worker (Dask reschedules the tasks of a lost worker; a chunk that
kills workers three times is given up and the run fails with that error). A chunk that raises is
retried ``RETRIES`` times before the run fails.

Workers need this package installed (``pip install 'carcassonne-maps-studio[cluster]'``) at the
same version as the client; see docs/cluster.md for starting schedulers and workers.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.analysis.workers import chunks, main_hidden
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.analysis.simulate import SimConfig
    from engine.mapdef import MapDef

RETRIES = 2
"""Extra attempts of a chunk whose games raised (a lost worker's chunks are always rescheduled)."""

CONNECT_TIMEOUT = "20s"
"""How long to wait for the scheduler to answer."""

PlayFn = Callable[["MapDef", "SimConfig", int, str], Any]
"""Plays game ``index`` of a run and returns its facts (``engine.analysis.simulate``'s)."""

EXTRA = "pip install 'carcassonne-maps-studio[cluster]'"


def _client(scheduler: str, workers: int) -> tuple[Any, Any]:
    """A Dask client for ``scheduler`` (and the local cluster it started, or ``None``)."""
    try:
        from distributed import Client, LocalCluster  # the optional cluster extra
    except ImportError:
        raise EngineError(f"running on a Dask cluster needs dask.distributed: {EXTRA}") from None
    if scheduler == "local":
        # worker processes are spawned: they must not re-run the caller's main script
        with main_hidden(True):
            # distributed's constructors carry no annotations (untyped in the library)
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
        return Client(cluster), cluster  # type: ignore[no-untyped-call]  # untyped library
    try:
        # Client is unannotated in distributed (untyped library)
        return Client(scheduler, timeout=CONNECT_TIMEOUT), None  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise EngineError(f"scheduler {scheduler}: cannot connect: {exc}") from None


def _play_chunk(
    play: PlayFn, m: MapDef, config: SimConfig, indices: list[int], rule_set: str
) -> list[Any]:
    return [play(m, config, i, rule_set) for i in indices]


def run_on_dask(
    scheduler: str,
    play: PlayFn,
    m: MapDef,
    config: SimConfig,
    rule_set: str,
    done: dict[int, dict[str, Any]],
    *,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> int:
    """Play every game of ``config`` on the cluster with ``play(m, config, index, rule_set)`` (a
    module-level function: the workers import it), filling ``done`` (index -> facts).

    Returns the number of worker threads the cluster had at the start. Stops early (games left
    out of ``done``) when ``cancel()`` turns true; a game that fails raises its error.
    """
    from distributed import as_completed  # the optional cluster extra (see _client)

    client, cluster = _client(scheduler, workers)
    try:
        threads = sum(client.nthreads().values()) or workers
        total = config.games
        run = uuid.uuid4().hex[:12]
        remote_map = client.scatter(m, broadcast=True, hash=False)
        futures = [
            client.submit(
                _play_chunk,
                play,
                remote_map,
                config,
                idx,
                rule_set,
                key=f"carcassonne-games-{run}-{idx[0]}",
                retries=RETRIES,
                pure=False,
            )
            for idx in chunks(total, threads)
        ]
        # as_completed is unannotated in distributed (untyped library)
        pending = as_completed(futures, with_results=False)  # type: ignore[no-untyped-call]
        for fut in pending:
            if cancel is not None and cancel():
                client.cancel(futures)
                break
            try:
                batch = fut.result()
            except EngineError:
                client.cancel(futures)
                raise
            except Exception as exc:  # a worker-side failure of Dask itself (e.g. killed 3x)
                client.cancel(futures)
                raise EngineError(f"the cluster failed a chunk of games: {exc}") from exc
            for facts in batch:
                done[facts["index"]] = facts
            if progress is not None:
                progress(len(done), total)
        return threads
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


__all__ = ["RETRIES", "run_on_dask"]
