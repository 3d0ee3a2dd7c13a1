"""Simulations on a real Dask cluster: a scheduler and two workers started on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.analysis.balance import balance_report
from engine.analysis.report import report_json
from engine.analysis.simulate import SimConfig, simulate
from engine.errors import EngineError
from engine.mapio import load_map
from engine.resources import bundled_map

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
_SCHEDULERS: dict[str, int] = {}
"""The process id of the scheduler the fixture started at each address."""


def _scheduler_pid(address: str) -> int:
    return _SCHEDULERS[address]


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", *args], stdout=out, stderr=subprocess.STDOUT, env=env
        )


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two worker processes (no nanny: a killed worker stays dead)."""
    sched_file = tmp_path / "scheduler.json"
    procs = [
        _start(
            [
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--dashboard-address",
                "127.0.0.1:0",
                "--scheduler-file",
                str(sched_file),
            ],
            tmp_path / "scheduler.log",
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists():
            if time.monotonic() > deadline or procs[0].poll() is not None:
                pytest.fail(
                    "the scheduler did not start: " + (tmp_path / "scheduler.log").read_text()
                )
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        workers = [
            _start(
                [
                    "distributed.cli.dask_worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    "--name",
                    f"w{k}",
                ],
                tmp_path / f"worker{k}.log",
            )
            for k in range(2)
        ]
        procs += workers
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        _SCHEDULERS[address] = procs[0].pid
        yield address, workers
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def _report(games_config: SimConfig, **kw: object) -> str:
    m = load_map(bundled_map("example-small"))
    return report_json(balance_report(m, simulate(m, games_config, **kw)))  # type: ignore[arg-type]


def test_cluster_report_equals_a_local_run_and_survives_a_dead_worker(
    cluster: tuple[str, list[subprocess.Popen[bytes]]],
) -> None:
    address, workers = cluster
    config = SimConfig(games=40, players=(2, 3), bot="greedy", seed=17)
    local = _report(config, workers=1)
    seen: list[int] = []
    assert _report(config, scheduler=address, progress=lambda d, t: seen.append(d)) == local
    assert seen[-1] == 40 and seen == sorted(seen)  # the progress bar keeps working

    # kill one worker while its games are in flight: the scheduler gives them to the other
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        if not killed:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(done)

    assert _report(config, scheduler=address, progress=kill_one) == local
    assert killed and killed[0] < 40
    workers[0].wait(timeout=20)
    assert workers[0].returncode is not None


def test_a_local_dask_cluster_gives_the_same_facts() -> None:
    m = load_map(bundled_map("example-small"))
    config = SimConfig(games=5, bot="random", seed=3)
    assert (
        simulate(m, config, workers=2, scheduler="local").games
        == simulate(m, config, workers=1).games
    )


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.analysis.cluster

    monkeypatch.setattr(engine.analysis.cluster, "CONNECT_TIMEOUT", "2s")
    m = load_map(bundled_map("example-small"))
    with pytest.raises(EngineError, match="scheduler tcp://127.0.0.1:9"):
        simulate(m, SimConfig(games=2, bot="random"), scheduler="tcp://127.0.0.1:9")


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("127.0.0.1", "no scheme; write tcp://127.0.0.1:8786"),
        ("", "--scheduler: no address"),
        ("xyz://host:8786", "unknown scheme 'xyz'"),
        ("tcp://127.0.0.1:abc", "the port 'abc' is not a number in 1..65535"),
        ("tcp://:8786", "write the host and the port"),
        ("tls://127.0.0.1:8786", "TLS needs the cluster's certificates"),
    ],
)
def test_a_malformed_scheduler_address_is_one_line(
    address: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.cli import main

    argv = ["simulate", "example-small", "--games", "2", "--quiet", "--scheduler", address]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1 and "Traceback" not in err


def _cli_run(address: str, tmp_path: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    argv = [sys.executable, "-m", "engine", "simulate", "example-small", "--games", "400"]
    argv += ["--bot", "greedy", "--quiet", "--scheduler", address, "--out", str(tmp_path / "r")]
    return subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def _wait_for_games(address: str, run: subprocess.Popen[str]) -> None:
    """Until the scheduler holds the run's games (asked through a client closed again)."""
    from distributed import Client

    deadline = time.monotonic() + 120
    with Client(address, timeout="30s") as client:
        while not any(
            "carcassonne-games" in str(k) for ks in client.processing().values() for k in ks
        ):
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, "the run never sent its games"
            time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kill", "says"),
    [
        ("scheduler", "the scheduler stopped answering ("),
        ("workers", "every worker is gone, and the games they held with them; start workers"),
    ],
)
def test_a_cluster_lost_mid_run_is_one_line_without_dask_logging(
    cluster: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path, kill: str, says: str
) -> None:
    # before: 38 lines of Dask logging and tracebacks, or a cryptic line
    address, workers = cluster
    run = _cli_run(address, tmp_path)
    _wait_for_games(address, run)
    pids = [_scheduler_pid(address)] if kill == "scheduler" else [w.pid for w in workers]
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    _out, err = run.communicate(timeout=180)
    assert run.returncode == 2
    (line,) = err.strip().splitlines()
    assert line.startswith(f"error: example-small: scheduler {address}: ") and says in line


def _count_local_clusters(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every local Dask cluster started from now on (the class ``_client`` imports, counted)."""
    import distributed

    started: list[Any] = []

    class Counted(distributed.LocalCluster):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", Counted)
    return started


def _closed(cluster: Any) -> bool:
    from distributed.core import Status

    return cluster.status == Status.closed


def test_a_tuning_plays_every_candidate_on_one_local_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import engine.cli.simulate as cli_simulate
    from engine.cli import main

    simulations: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        simulations.append(kwargs["scheduler"])
        return simulate(*args, **kwargs)

    monkeypatch.setattr(cli_simulate, "simulate", counted)
    started = _count_local_clusters(monkeypatch)
    argv = ["simulate", "example-small", "--tune", "tile_count=30..50", "--target", "turns=36±4"]
    argv += ["--tune-games", "4..8", "--tune-trials", "3", "--tune-check", "4", "--quiet"]
    assert main([*argv, "--workers", "1", "--out", str(tmp_path / "one")]) == 0
    assert started == []
    alone = len(simulations)
    on_cluster = ["--workers", "2", "--scheduler", "local", "--out", str(tmp_path / "d")]
    assert main([*argv, *on_cluster]) == 0
    tuned = json.loads((tmp_path / "d" / "tuning.json").read_text())
    assert tuned == json.loads((tmp_path / "one" / "tuning.json").read_text())
    # several simulations (the candidates' rungs, then the check), one cluster, closed after
    on_dask = simulations[alone:]
    assert len(on_dask) == alone >= 2 and "check" in tuned
    assert len(started) == 1 and _closed(started[0])
    assert all(s is on_dask[0] for s in on_dask) and on_dask[0].cluster is started[0]


def test_a_sweep_on_a_local_cluster_closes_it_on_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import engine.cli.simulate as cli_simulate
    from engine.cli import main

    written: list[dict[str, Any]] = []

    def interrupted(report: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        written.append(report)
        raise KeyboardInterrupt  # Ctrl-C once every point is played

    monkeypatch.setattr(cli_simulate, "write_sweep", interrupted)
    started = _count_local_clusters(monkeypatch)
    argv = ["simulate", "example-small", "--sweep", "tile_count=30,40", "--sweep", "players=2,3"]
    argv += ["--games", "3", "--bot", "random", "--quiet", "--out", str(tmp_path / "sw")]
    assert main([*argv, "--workers", "1"]) == 130
    assert main([*argv, "--workers", "2", "--scheduler", "local"]) == 130
    alone, on_cluster = written
    assert len(on_cluster["rows"]) == 4 and on_cluster == alone
    assert len(started) == 1 and _closed(started[0])


def test_a_scheduler_address_is_passed_on_unchanged_for_each_simulation() -> None:
    from engine.analysis.cluster import cluster_for_run

    # nothing connects here: each simulation of the run connects as it always has
    with cluster_for_run("tcp://127.0.0.1:9", 2) as scheduler:
        assert scheduler == "tcp://127.0.0.1:9"
    with cluster_for_run(None, 2) as scheduler:
        assert scheduler is None
