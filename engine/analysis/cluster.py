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

import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from importlib import import_module
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

NO_WORKERS_SECONDS = 30.0
"""How long a run waits while the cluster has no worker before it stops with that error."""

POLL_SECONDS = 0.2
"""How often a run waiting for games checks that the cluster still has workers."""

PlayFn = Callable[["MapDef", "SimConfig", int, str], Any]
"""Plays game ``index`` of a run and returns its facts (``engine.analysis.simulate``'s)."""

EXTRA = "pip install 'carcassonne-maps-studio[cluster]'"


SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
"""Address schemes a scheduler may be reached by (Dask's, but for its in-process one)."""

TLS_SETTINGS = (
    "DASK_DISTRIBUTED__COMM__TLS__CA_FILE",
    "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
    "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY",
)
"""The environment variables (or the same keys in Dask's configuration files) that give a
client its TLS certificates (docs/cluster.md, "Encrypted and authenticated: TLS")."""


def check_address(scheduler: str) -> None:
    """Refuse a scheduler address that cannot work, before anything connects: one line saying
    what a good one looks like (``tcp://HOST:PORT``, or ``local``).

    :raises EngineError: no address, no or an unknown scheme, no host, a port that is not a
        number in 1..65535.
    """
    shown = repr(scheduler if len(scheduler) <= 80 else scheduler[:77] + "...")
    if scheduler == "local":
        return
    if not scheduler.strip():
        raise EngineError(
            "--scheduler: no address; give the scheduler's, tcp://HOST:8786, or 'local'"
        )
    scheme, sep, rest = scheduler.partition("://")
    if not sep:
        example = scheduler if ":" in scheduler else f"{scheduler}:8786"
        raise EngineError(
            f"scheduler {shown}: no scheme; write tcp://{example} (or tls:// with certificates)"
        )
    if scheme not in SCHEMES:
        raise EngineError(
            f"scheduler {shown}: unknown scheme {scheme[:20]!r}; use "
            + ", ".join(f"{s}://" for s in SCHEMES)
        )
    host, colon, port = rest.rpartition(":")
    if not colon or not host or host == "[]":
        raise EngineError(f"scheduler {shown}: write the host and the port, {scheme}://HOST:8786")
    if not (port.isdigit() and 1 <= int(port) <= 65535):
        raise EngineError(f"scheduler {shown}: the port {port[:20]!r} is not a number in 1..65535")


def _security(scheduler: str) -> Any:
    """The client's TLS settings for a ``tls://`` scheduler, from Dask's configuration."""
    from distributed.security import Security  # the optional cluster extra (see _client)

    security = Security()  # type: ignore[no-untyped-call]  # untyped library
    if scheduler.startswith(("tls://", "wss://")) and not (
        getattr(security, "tls_ca_file", None) and getattr(security, "tls_client_cert", None)
    ):
        raise EngineError(
            f"scheduler {scheduler}: TLS needs the cluster's certificates; set "
            + ", ".join(TLS_SETTINGS)
            + " (docs/cluster.md, 'Encrypted and authenticated: TLS')"
        )
    return security


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _dask_loggers() -> list[logging.Logger]:
    # child loggers such as distributed.client carry levels of their own (Dask's config)
    prefixes = ("distributed", "tornado", "asyncio")
    names = [n for n in logging.root.manager.loggerDict if n.startswith(prefixes)]
    return [logging.getLogger(n) for n in sorted({*prefixes, *names})]


@contextlib.contextmanager
def quiet_dask() -> Iterator[None]:
    """Dask's own log lines (reconnect attempts, lost workers) held back while a run talks to
    the cluster: what went wrong is said once, in the run's error."""
    loggers = _dask_loggers()
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def silence_dask_logging() -> None:
    """Hold Dask's log lines back for the rest of the process (the command line: a client
    closed on a lost scheduler still logs from its own thread after the run has failed)."""
    with contextlib.suppress(ImportError):
        import distributed  # noqa: F401 - its import sets the levels this overrides
    for lg in _dask_loggers():
        lg.setLevel(logging.CRITICAL + 1)


def _client(scheduler: str, workers: int) -> tuple[Any, Any]:
    """A Dask client for ``scheduler`` (and the local cluster it started, or ``None``)."""
    check_address(scheduler)
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
    security = _security(scheduler)
    try:
        # Client is unannotated in distributed (untyped library)
        client = Client(  # type: ignore[no-untyped-call]
            scheduler, timeout=CONNECT_TIMEOUT, security=security
        )
    except Exception as exc:  # noqa: BLE001 - whatever Dask raises, one line
        raise EngineError(f"scheduler {scheduler}: cannot connect: {_one_line(exc)}") from None
    return client, None


def _play_chunk(
    play: PlayFn, m: MapDef, config: SimConfig, indices: list[int], rule_set: str
) -> list[Any]:
    return [play(m, config, i, rule_set) for i in indices]


class DaskRun:
    """A Dask client kept open for several simulations (and the local cluster it started for
    ``"local"``): :func:`cluster_for_run` makes one, ``simulate(..., scheduler=run)`` uses it.
    ``name`` is the address the user gave, for messages."""

    def __init__(self, scheduler: str, workers: int) -> None:
        self.name = scheduler
        with quiet_dask():
            self.client, self.cluster = _client(scheduler, workers)

    def close(self) -> None:
        """Close the client, then the local cluster (its worker processes end with it)."""
        with quiet_dask():
            with contextlib.suppress(Exception):  # a scheduler gone: nothing left to close
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()


@contextlib.contextmanager
def cluster_for_run(scheduler: str | None, workers: int) -> Iterator[str | DaskRun | None]:
    """What a run of many simulations (a tuning, a sweep, a report's studies) passes as
    ``scheduler``: for ``"local"``, one local cluster of ``workers`` processes for the whole run,
    closed when the run ends, also on an error or Ctrl-C; any other address unchanged (each
    simulation connects to that scheduler as on its own), ``None`` as ``None``."""
    if scheduler != "local":
        yield scheduler
        return
    run = DaskRun(scheduler, workers)
    try:
        yield run
    finally:
        run.close()


def run_on_dask(
    scheduler: str | DaskRun,
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

    ``scheduler``: an address (connected to for these games only, and a ``"local"`` cluster
    started and closed for them), or a :class:`DaskRun` kept open by the caller.

    Returns the number of worker threads the cluster had at the start. Stops early (games left
    out of ``done``) when ``cancel()`` turns true; a game that fails raises its error.
    """
    run = scheduler if isinstance(scheduler, DaskRun) else DaskRun(scheduler, workers)
    try:
        with quiet_dask():
            return _run(
                run.client, run.name, play, m, config, rule_set, done, workers, progress, cancel
            )
    finally:
        if run is not scheduler:
            run.close()


def _failed(exc: BaseException, scheduler: str, client: Any) -> EngineError:
    """One line for what Dask raised while the games were played: workers that kept dying,
    every worker gone (the map they held is lost with them), or the scheduler gone."""
    killed = getattr(import_module("distributed.scheduler"), "KilledWorker", ())
    if killed and isinstance(exc, killed):
        return EngineError(
            f"scheduler {scheduler}: the workers playing a chunk of games died {RETRIES + 1} "
            "times (killed, or out of memory); start workers again and rerun"
        )
    workers: Any = None
    if getattr(client, "status", "") == "running":
        with contextlib.suppress(Exception):
            workers = client.nthreads()
    if workers is None:
        return EngineError(
            f"scheduler {scheduler}: the scheduler stopped answering ({_one_line(exc)})"
        )
    if not workers:
        return EngineError(
            f"scheduler {scheduler}: every worker is gone, and the games they held with them; "
            "start workers again and rerun"
        )
    return EngineError(
        f"scheduler {scheduler}: the cluster failed a chunk of games: {_one_line(exc)}"
    )


def _run(
    client: Any,
    scheduler: str,
    play: PlayFn,
    m: MapDef,
    config: SimConfig,
    rule_set: str,
    done: dict[int, dict[str, Any]],
    workers: int,
    progress: Callable[[int, int], None] | None,
    cancel: Callable[[], bool] | None,
) -> int:
    from distributed import as_completed  # the optional cluster extra (see _client)

    futures: list[Any] = []
    try:
        if not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=NO_WORKERS_SECONDS)
            except Exception:  # noqa: BLE001 - Dask's timeout, or the scheduler gone
                raise EngineError(
                    f"scheduler {scheduler}: no worker joined within {NO_WORKERS_SECONDS:g} s; "
                    "start workers (docs/cluster.md)"
                ) from None
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
        waiting = _Watch(client, scheduler)
        while True:
            fut = waiting.next(pending)
            if fut is None:
                break
            if cancel is not None and cancel():
                client.cancel(futures)
                break
            try:
                batch = fut.result()
            except EngineError:
                client.cancel(futures)
                raise
            for facts in batch:
                done[facts["index"]] = facts
            if progress is not None:
                progress(len(done), total)
        return threads
    except EngineError:
        raise
    except Exception as exc:  # noqa: BLE001 - Dask's failures, each said in one line
        with contextlib.suppress(Exception):
            client.cancel(futures)
        raise _failed(exc, scheduler, client) from exc


class _Watch:
    """The next finished chunk, checking every few seconds that the cluster still has workers
    (with none, Dask waits for ever)."""

    def __init__(self, client: Any, scheduler: str) -> None:
        self.client = client
        self.scheduler = scheduler
        self.since: float | None = None

    def next(self, pending: Any) -> Any:
        while True:
            if not pending.count():
                return None
            if pending.has_ready():
                return next(pending)
            if self.client.status in ("closed", "closing"):
                raise EngineError(f"scheduler {self.scheduler}: the scheduler stopped answering")
            try:
                alive = bool(self.client.nthreads())
            except Exception as exc:  # noqa: BLE001 - the scheduler gone
                raise _failed(exc, self.scheduler, self.client) from None
            now = time.monotonic()
            if alive:
                self.since = None
            elif self.since is None:
                self.since = now
            elif now - self.since > NO_WORKERS_SECONDS:
                raise EngineError(
                    f"scheduler {self.scheduler}: every worker is gone (none for "
                    f"{NO_WORKERS_SECONDS:g} s); start workers again and rerun"
                )
            time.sleep(POLL_SECONDS)


__all__ = [
    "RETRIES",
    "DaskRun",
    "check_address",
    "cluster_for_run",
    "quiet_dask",
    "run_on_dask",
    "silence_dask_logging",
]
