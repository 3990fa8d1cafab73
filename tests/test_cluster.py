"""`simulate --scheduler`: the games played on a Dask cluster's workers give the numbers of a local
run with the same seed; without the `cluster` extra the option is a usage error, never a traceback.

The cluster is whistdsl.tournament.cluster's `local_cluster` in this process (threads), so the test
needs no network and takes seconds; it is skipped where distributed is not installed. Every
listener of a local cluster is on the loopback interface, on a free port (suites running side by
side never clash over 8787, and no other machine reaches it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.cli.simulate import TIMING_KEYS, summary_json
from whistdsl.tournament.games import Simulation
from whistdsl.tournament.runner import simulate

runner = CliRunner()


def simulate_json(*args: str) -> dict:
    result = runner.invoke(app, ["simulate", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return {k: v for k, v in json.loads(result.stdout).items() if k not in TIMING_KEYS}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    from whistdsl.tournament.cluster import local_cluster

    with local_cluster(1, threads=2, processes=False) as cluster:
        yield cluster.scheduler_address


def _listening(psutil) -> set[tuple[str, int]]:
    """(address, port) of every socket this process and its children listen on."""
    me = psutil.Process()
    found = set()
    for process in [me, *me.children(recursive=True)]:
        connections = getattr(process, "net_connections", None) or process.connections  # psutil < 6 names it so
        found |= {(c.laddr.ip, c.laddr.port) for c in connections(kind="inet") if c.status == psutil.CONN_LISTEN}
    return found


def _cluster_listens_on_loopback_only(processes: bool) -> None:
    pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    psutil = pytest.importorskip("psutil")  # distributed requires it
    from distributed import Client

    from whistdsl.tournament.cluster import local_cluster

    before = _listening(psutil)
    with local_cluster(2, processes=processes) as cluster, Client(cluster, set_as_default=False) as client:
        opened = _listening(psutil) - before
        workers = list(client.scheduler_info()["workers"])
        dashboard = int(cluster.dashboard_link.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    assert len(workers) == 2 and all(w.startswith("tcp://127.0.0.1:") for w in workers), workers
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    ports = {port for _, port in opened}
    listed = [cluster.scheduler_address, *workers]
    assert {int(address.rsplit(":", 1)[1]) for address in listed} | {dashboard} <= ports, (opened, listed)
    assert {ip for ip, _ in opened} <= {"127.0.0.1", "::1"}, f"listening beyond this machine: {sorted(opened)}"
    assert 8787 not in ports


def test_a_local_cluster_of_threads_listens_on_this_machine_only() -> None:
    _cluster_listens_on_loopback_only(processes=False)


def test_a_local_cluster_of_processes_listens_on_this_machine_only() -> None:
    _cluster_listens_on_loopback_only(processes=True)


def test_a_cluster_plays_the_games_of_a_local_run_with_the_same_seed(scheduler: str) -> None:
    args = ("romanian", "--games", "24", "--seed", "7", "--bots", "random,heuristic,random,heuristic")
    on_cluster = simulate_json(*args, "--scheduler", scheduler)
    here = simulate_json(*args, "--workers", "1")
    assert on_cluster == here and here["games"] == 24


def test_the_cluster_plays_with_the_parameters_set_here(scheduler: str) -> None:
    sim = Simulation("openspiel", 4, ("random",) * 4, seed=3, games=10, settings=("tricks=4",))
    on_cluster = summary_json(simulate(sim, scheduler=scheduler))
    here = summary_json(simulate(sim, workers=1))
    assert on_cluster["parameters"] == here["parameters"] == {"tricks": 4}
    assert {k: v for k, v in on_cluster.items() if k not in TIMING_KEYS} == {k: v for k, v in here.items() if k not in TIMING_KEYS}


def test_without_the_cluster_extra_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what importlib sees when it is not installed
    result = runner.invoke(app, ["simulate", "romanian", "--games", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2, result.output
    assert "whistdsl[cluster]" in result.output and "Traceback" not in result.output


def test_scheduler_and_workers_together_are_a_usage_error() -> None:
    pytest.importorskip("distributed")
    result = runner.invoke(app, ["simulate", "romanian", "--games", "2", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and "--workers" in result.output


def test_a_scheduler_that_does_not_answer_exits_1_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    import whistdsl.tournament.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    result = runner.invoke(app, ["simulate", "romanian", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output and "Traceback" not in result.output
